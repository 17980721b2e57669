// Build: nvcc -I include -O3 -arch=sm_90 -fmad=false -Xcompiler=-ffp-contract=off -std=c++17 <this file>.
// Standalone probe of stencil_gpu_kernels.cuh on one GPU without the gshmem runtime: a fake one-PE handle whose
// peer 0 is itself, so the device-initiated put_signal path runs for real (self-wrap). Compares bitwise: CPU
// reference, the local-copy path, the device path. Then times 16384^2.
#include "../../../apps/stencil/stencil_gpu_kernels.cuh"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cmath>
#include <chrono>
extern "C" void gshmemx_device_register_state_sync(void (*)(const void*, int)) {}
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s: %s (line %d)\n", #x, cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
using namespace stencil;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

template <class T> struct G {
  int nx, ny, nr; size_t pitch; T *a, *b; uint64_t *sig; int nseg; double *partial, *dred;
  dim3 grid() const { return dim3((nx + kTX - 1) / kTX, (nr + kRY - 1) / kRY); }
  size_t blocks() const { dim3 g = grid(); return (size_t)g.x * g.y; }
  T* row(T* p, int r) const { return p + (size_t)r * pitch; }
};
template <class T> G<T> make(int nx, int ny) {
  G<T> g; g.nx = nx; g.ny = ny; g.nr = ny - 2; g.pitch = ((size_t)nx + 31) / 32 * 32; g.nseg = (nx + kTX - 1) / kTX;
  size_t bytes = (size_t)(g.nr + 2) * g.pitch * sizeof(T);
  CK(cudaMalloc(&g.a, bytes)); CK(cudaMalloc(&g.b, bytes));
  CK(cudaMalloc(&g.sig, 2 * g.nseg * 8)); CK(cudaMemset(g.sig, 0, 2 * g.nseg * 8));
  CK(cudaMalloc(&g.partial, g.blocks() * 8)); CK(cudaMalloc(&g.dred, 8));
  initSlab<T><<<dim3((g.pitch + kTX - 1) / kTX, std::min(g.nr + 2, 65535)), kTX>>>(g.a, g.b, nx, g.nr, g.pitch, 1, ny);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  return g;
}
template <class T> void release(G<T>& g) { cudaFree(g.a); cudaFree(g.b); cudaFree(g.sig); cudaFree(g.partial); cudaFree(g.dred); }

// mode 0: local copies; mode 1: device put_signal self-wrap. nccheck 0: no norm. Returns final array, last norm^2.
template <class T> T* iterate(G<T>& g, int niter, int mode, int nccheck, double* norm2, cudaStream_t st, uint64_t base = 0) {
  T *src = g.a, *dst = g.b;
  double n2 = -1;
  for (int k = 1; k <= niter; ++k) {
    StepArgs<T> a; a.src = src; a.dst = dst; a.nx = g.nx; a.nr = g.nr; a.pitch = g.pitch; a.partial = g.partial;
    a.iter = base + k;
    if (mode == 1) { a.sig_top = g.sig; a.sig_bot = g.sig + g.nseg; a.put_up = g.row(dst, g.nr + 1); a.put_down = g.row(dst, 0); }
    bool nk = nccheck > 0 && (k % nccheck == 0 || k == niter);
    if (nk) jacobiStep<T, true><<<g.grid(), kTX, 0, st>>>(a); else jacobiStep<T, false><<<g.grid(), kTX, 0, st>>>(a);
    CK(cudaGetLastError());
    if (mode == 0) {
      size_t bytes = g.nx * sizeof(T);
      CK(cudaMemcpyAsync(g.row(dst, 0), g.row(dst, g.nr), bytes, cudaMemcpyDeviceToDevice, st));
      CK(cudaMemcpyAsync(g.row(dst, g.nr + 1), g.row(dst, 1), bytes, cudaMemcpyDeviceToDevice, st));
    }
    std::swap(src, dst);
    if (nk) {
      sumPartials<<<1, kTX, 0, st>>>(g.partial, g.blocks(), g.dred); CK(cudaGetLastError());
      CK(cudaMemcpyAsync(&n2, g.dred, 8, cudaMemcpyDeviceToHost, st)); CK(cudaStreamSynchronize(st));
    }
  }
  if (mode == 1) { waitAllGhosts<<<1, kTX, 0, st>>>(g.sig, g.sig + g.nseg, g.nseg, base + niter); CK(cudaGetLastError()); }
  CK(cudaStreamSynchronize(st));
  if (norm2) *norm2 = n2;
  return src;
}
template <class T> std::vector<T> fetch(const G<T>& g, const T* arr) {
  std::vector<T> h((size_t)(g.nr + 2) * g.pitch);
  CK(cudaMemcpy(h.data(), arr, h.size() * sizeof(T), cudaMemcpyDeviceToHost)); return h;
}
template <class T> void cpuRun(const G<T>& g, std::vector<T> a, int niter, std::vector<T>& out, double* n2) {
  std::vector<T> b = a; size_t W = g.pitch; double s = 0;
  for (int k = 1; k <= niter; ++k) {
    s = 0;
    for (int r = 1; r <= g.nr; ++r) for (int x = 1; x < g.nx - 1; ++x) {
      T v = T(0.25) * (((a[r*W+x-1] + a[r*W+x+1]) + a[(r-1)*W+x]) + a[(r+1)*W+x]);
      b[r*W+x] = v; double d = (double)(v - a[r*W+x]); s += d*d;
    }
    std::memcpy(&b[0], &b[g.nr*W], W*sizeof(T)); std::memcpy(&b[(g.nr+1)*W], &b[W], W*sizeof(T));
    std::swap(a, b);
  }
  out = a; *n2 = s;
}
template <class T> bool correctness(int nx, int ny, int niter, int nccheck) {
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  G<T> g0 = make<T>(nx, ny), g1 = make<T>(nx, ny);
  std::vector<T> init = fetch(g0, g0.a);
  double n0, n1, nc; std::vector<T> cpu;
  std::vector<T> r0 = fetch(g0, iterate(g0, niter, 0, nccheck, &n0, st));
  std::vector<T> r1 = fetch(g1, iterate(g1, niter, 1, nccheck, &n1, st));
  // second run on the device path with continued numbering after re-init (as the program's warm-up does)
  initSlab<T><<<dim3((g1.pitch + kTX - 1) / kTX, std::min(g1.nr + 2, 65535)), kTX>>>(g1.a, g1.b, nx, g1.nr, g1.pitch, 1, ny);
  CK(cudaDeviceSynchronize());
  double n2; std::vector<T> r2 = fetch(g1, iterate(g1, niter, 1, nccheck, &n2, st, niter));
  cpuRun(g0, init, niter, cpu, &nc);
  size_t d01 = 0, d02 = 0, dc = 0, n = 0;
  for (int r = 1; r <= g0.nr; ++r) for (int x = 0; x < nx; ++x) {
    size_t i = (size_t)r * g0.pitch + x; ++n;
    d01 += memcmp(&r0[i], &r1[i], sizeof(T)) != 0; d02 += memcmp(&r0[i], &r2[i], sizeof(T)) != 0; dc += memcmp(&r0[i], &cpu[i], sizeof(T)) != 0;
  }
  // ghost rows of the device path must equal the wrapped rows
  size_t gh = 0; for (int x = 0; x < nx; ++x) { gh += memcmp(&r1[x], &r1[g0.nr * g0.pitch + x], sizeof(T)) != 0; gh += memcmp(&r1[(g0.nr+1)*g0.pitch + x], &r1[g0.pitch + x], sizeof(T)) != 0; }
  bool ok = d01 == 0 && d02 == 0 && dc == 0 && gh == 0 && n0 == n1 && n0 == n2 && std::fabs(n0 - nc) <= 1e-12 * nc;
  printf("correct %s %dx%d niter %d nccheck %d: differ local/device %zu, local/device-rerun %zu, local/cpu %zu of %zu; ghost mismatch %zu; norm2 %.17g %.17g %.17g cpu %.17g -> %s\n",
         sizeof(T) == 4 ? "fp32" : "fp64", nx, ny, niter, nccheck, d01, d02, dc, n, gh, n0, n1, n2, nc, ok ? "OK" : "FAIL");
  release(g0); release(g1); cudaStreamDestroy(st);
  return ok;
}
double copyBW() {
  size_t n = size_t(1) << 30; void *x, *y; CK(cudaMalloc(&x, n)); CK(cudaMalloc(&y, n)); CK(cudaMemset(x, 1, n));
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  CK(cudaMemcpy(y, x, n, cudaMemcpyDeviceToDevice));
  cudaEventRecord(e0); for (int i = 0; i < 10; ++i) CK(cudaMemcpyAsync(y, x, n, cudaMemcpyDeviceToDevice)); cudaEventRecord(e1);
  CK(cudaEventSynchronize(e1)); float ms; cudaEventElapsedTime(&ms, e0, e1); cudaFree(x); cudaFree(y);
  return 2.0 * n * 10 / (ms * 1e-3) * 1e-9;
}
template <class T> void perf(int n, int niter, double B) {
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  G<T> g = make<T>(n, n);
  const char* names[] = {"local-copy, no norm", "device put_signal, no norm", "device put_signal, norm every iter", "device put_signal, norm every 100"};
  int modes[] = {0, 1, 1, 1}, ncc[] = {0, 0, 1, 100};
  uint64_t base = 0;
  for (int v = 0; v < 4; ++v) {
    if (v == 1) base = 0;  // the device path starts on signals that only device runs have set
    iterate(g, 10, modes[v], ncc[v], nullptr, st, base); base += 10;
    double t0 = now(); iterate(g, niter, modes[v], ncc[v], nullptr, st, base); double t = now() - t0; base += niter;
    double gbs = 2.0 * sizeof(T) * (double)(n - 2) * (n - 2) * niter / t * 1e-9;
    printf("perf %s %d^2 %-36s %.4f ms/iter %.1f GB/s = %.1f%% of B\n", sizeof(T) == 4 ? "fp32" : "fp64", n, names[v], t * 1e3 / niter, gbs, 100 * gbs / B);
  }
  release(g); cudaStreamDestroy(st);
}
int main() {
  CK(cudaSetDevice(0));
  gshmem::DeviceHandle h; h.my_pe = 0; h.n_pes = 1;
  char* heap; CK(cudaMalloc(&heap, 4096)); h.heap_base = heap; h.heap_size = 4096; h.peer_base_inline[0] = heap;
  char** pb; CK(cudaMalloc(&pb, sizeof(char*))); CK(cudaMemcpy(pb, &heap, sizeof(char*), cudaMemcpyHostToDevice)); h.peer_base = pb;
  CK(cudaMemcpyToSymbol(gshmemi_device_state, &h, sizeof h));
  bool ok = true;
  ok &= correctness<float>(256, 256, 50, 1);
  ok &= correctness<float>(300, 259, 40, 7);
  ok &= correctness<float>(33, 3, 20, 3);
  ok &= correctness<float>(1000, 200, 67, 5);
  ok &= correctness<double>(256, 130, 30, 1);
  printf("correctness: %s\n", ok ? "ALL OK" : "SOME FAILED");
  double B = copyBW(); printf("copy B = %.1f GB/s\n", B);
  perf<float>(16384, 200, B);
  perf<double>(16384, 100, B);
  perf<float>(8192, 400, B);
  return ok ? 0 : 1;
}
