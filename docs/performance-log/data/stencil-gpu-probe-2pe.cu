#include "../../../apps/stencil/stencil_gpu_kernels.cuh"
// Two PEs emulated in one process on one GPU (build: nvcc -I include -O3 -arch=sm_90 -fmad=false
// -Xcompiler=-ffp-contract=off -std=c++17 <this file>): the device-initiated exchange of 2 PEs vs a 1-PE run, bitwise.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
extern "C" void gshmemx_device_register_state_sync(void (*)(const void*, int)) {}
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s: %s (line %d)\n", #x, cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
using namespace stencil;
// Two PEs emulated in one process: PE q's heap at H + q*S. One handle serves both because each PE targets only the
// other: peer_base[1] = H + S (PE 0 -> 1), peer_base[0] = H - S (PE 1's own addresses are H + S + off).
template <class T> bool run2(char* H, size_t S, int nx, int ny, int niter, int nccheck) {
  int rows = ny - 2, nr[2] = {rows / 2 + (0 >= 2 - rows % 2), rows / 2 + (1 >= 2 - rows % 2)}, y0[2] = {1, 1 + nr[0]};
  size_t pitch = ((size_t)nx + 31) / 32 * 32, slab = (size_t)(nr[1] + 2) * pitch * sizeof(T); int nseg = (nx + kTX - 1) / kTX;
  size_t offA = 0, offB = (slab + 255) / 256 * 256, offS = offB * 2; size_t need = offS + 2 * nseg * 8;
  if (need > S) { printf("heap too small\n"); exit(1); }
  cudaStream_t st[2]; double* part[2];
  for (int q = 0; q < 2; ++q) {
    CK(cudaStreamCreateWithFlags(&st[q], cudaStreamNonBlocking)); CK(cudaMemset(H + q * S + offS, 0, 2 * nseg * 8));
    CK(cudaMalloc(&part[q], 65536 * 8));
    T *a = (T*)(H + q * S + offA), *b = (T*)(H + q * S + offB);
    initSlab<T><<<dim3((pitch + kTX - 1) / kTX, nr[q] + 2), kTX>>>(a, b, nx, nr[q], pitch, y0[q], ny);
  }
  CK(cudaDeviceSynchronize());
  for (int k = 1; k <= niter; ++k) {
    for (int q = 0; q < 2; ++q) {
      char* base = H + q * S; T* src = (T*)(base + (k % 2 ? offA : offB)); T* dst = (T*)(base + (k % 2 ? offB : offA));
      StepArgs<T> a; a.src = src; a.dst = dst; a.nx = nx; a.nr = nr[q]; a.pitch = pitch; a.partial = part[q]; a.iter = k;
      a.sig_top = (uint64_t*)(base + offS); a.sig_bot = a.sig_top + nseg;
      a.put_up = dst + (size_t)(nr[1 - q] + 1) * pitch; a.put_down = dst; a.pe_up = a.pe_down = 1 - q;
      dim3 g(nseg, (nr[q] + kRY - 1) / kRY);
      bool nk = k % nccheck == 0 || k == niter;
      if (nk) jacobiStep<T, true><<<g, kTX, 0, st[q]>>>(a); else jacobiStep<T, false><<<g, kTX, 0, st[q]>>>(a);
      CK(cudaGetLastError());
    }
  }
  for (int q = 0; q < 2; ++q) { uint64_t* s = (uint64_t*)(H + q * S + offS); waitAllGhosts<<<1, kTX, 0, st[q]>>>(s, s + nseg, nseg, niter); }
  CK(cudaDeviceSynchronize());
  // reference: one slab, local copies
  T *ra, *rb; size_t rs = (size_t)(rows + 2) * pitch * sizeof(T); CK(cudaMalloc(&ra, rs)); CK(cudaMalloc(&rb, rs));
  initSlab<T><<<dim3((pitch + kTX - 1) / kTX, rows + 2), kTX>>>(ra, rb, nx, rows, pitch, 1, ny);
  for (int k = 1; k <= niter; ++k) {
    T* src = k % 2 ? ra : rb; T* dst = k % 2 ? rb : ra;
    StepArgs<T> a; a.src = src; a.dst = dst; a.nx = nx; a.nr = rows; a.pitch = pitch; a.partial = part[0]; a.iter = k;
    jacobiStep<T, false><<<dim3(nseg, (rows + kRY - 1) / kRY), kTX>>>(a);
    CK(cudaMemcpy(dst, dst + (size_t)rows * pitch, nx * sizeof(T), cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(dst + (size_t)(rows + 1) * pitch, dst + pitch, nx * sizeof(T), cudaMemcpyDeviceToDevice));
  }
  CK(cudaDeviceSynchronize());
  std::vector<T> ref((size_t)(rows + 2) * pitch), p0((size_t)(nr[0] + 2) * pitch), p1((size_t)(nr[1] + 2) * pitch);
  size_t fo = niter % 2 ? offB : offA;
  CK(cudaMemcpy(ref.data(), niter % 2 ? rb : ra, ref.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(p0.data(), H + fo, p0.size() * sizeof(T), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(p1.data(), H + S + fo, p1.size() * sizeof(T), cudaMemcpyDeviceToHost));
  size_t diff = 0, gh = 0;
  for (int r = 1; r <= rows; ++r) for (int x = 0; x < nx; ++x) {
    T v = r <= nr[0] ? p0[(size_t)r * pitch + x] : p1[(size_t)(r - nr[0]) * pitch + x];
    diff += memcmp(&v, &ref[(size_t)r * pitch + x], sizeof(T)) != 0;
  }
  for (int x = 0; x < nx; ++x) {  // ghost rows: PE0 row0 = PE1 row nr1; PE0 row nr0+1 = PE1 row 1; and vice versa
    gh += p0[x] != p1[(size_t)nr[1] * pitch + x]; gh += p0[(size_t)(nr[0] + 1) * pitch + x] != p1[pitch + x];
    gh += p1[x] != p0[(size_t)nr[0] * pitch + x]; gh += p1[(size_t)(nr[1] + 1) * pitch + x] != p0[pitch + x];
  }
  printf("2PE device %s %dx%d (rows %d+%d) niter %d: %zu elements differ from 1-PE, ghost mismatches %zu -> %s\n",
         sizeof(T) == 4 ? "fp32" : "fp64", nx, ny, nr[0], nr[1], niter, diff, gh, diff + gh == 0 ? "OK" : "FAIL");
  cudaFree(ra); cudaFree(rb); for (int q = 0; q < 2; ++q) { cudaFree(part[q]); cudaStreamDestroy(st[q]); }
  return diff + gh == 0;
}
int main() {
  size_t S = size_t(1) << 28; char* H; CK(cudaMalloc(&H, 2 * S));
  gshmem::DeviceHandle h; h.my_pe = 0; h.n_pes = 2; h.heap_base = H; h.heap_size = S;
  char* pb[2] = {H - S, H + S}; h.peer_base_inline[0] = pb[0]; h.peer_base_inline[1] = pb[1];
  char** dpb; CK(cudaMalloc(&dpb, sizeof pb)); CK(cudaMemcpy(dpb, pb, sizeof pb, cudaMemcpyHostToDevice)); h.peer_base = dpb;
  CK(cudaMemcpyToSymbol(gshmemi_device_state, &h, sizeof h));
  bool ok = run2<float>(H, S, 256, 256, 50, 1) & run2<float>(H, S, 300, 259, 41, 7) & run2<float>(H, S, 1000, 4, 13, 3) &
            run2<double>(H, S, 256, 131, 30, 1) & run2<float>(H, S, 4096, 2050, 100, 10);
  printf("2PE: %s\n", ok ? "ALL OK" : "SOME FAILED");
  return ok ? 0 : 1;
}
