// H2D latency by size and by way (copy engine from pinned, D2D from the mapped view, kernel reads), one process.
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)
__global__ void kcopy(int4* dst, const int4* src, size_t n16) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n16; i += (size_t)gridDim.x * blockDim.x) dst[i] = src[i];
}
template <class F> double lat(cudaStream_t s, cudaEvent_t ev, F f, int it = 300) {
  std::vector<double> v;
  for (int i = 0; i < it; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f(); cudaEventRecord(ev, s);
    while (cudaEventQuery(ev) == cudaErrorNotReady) {}
    v.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(v.begin(), v.end()); return v[v.size() / 2];
}
int main() {
  cudaStream_t s; cudaEvent_t ev; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  char *d, *h, *hr, *hd; CK(cudaMalloc(&d, 1 << 22)); CK(cudaHostAlloc(&h, 1 << 22, cudaHostAllocPortable | cudaHostAllocMapped));
  hr = (char*)aligned_alloc(4096, 1 << 22); CK(cudaHostRegister(hr, 1 << 22, cudaHostRegisterPortable));
  CK(cudaHostGetDevicePointer((void**)&hd, h, 0));
  cuInit(0);
  for (size_t n : {size_t(8), size_t(4096), size_t(8192), size_t(16384), size_t(24576), size_t(32768), size_t(65536), size_t(131072), size_t(1 << 20)}) {
    double a = lat(s, ev, [&] { cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s); });
    double a2 = lat(s, ev, [&] { cudaMemcpyAsync(d, hr, n, cudaMemcpyHostToDevice, s); });
    double b = lat(s, ev, [&] { cuMemcpyDtoDAsync((CUdeviceptr)d, (CUdeviceptr)hd, n, (CUstream)s); });
    double b2 = lat(s, ev, [&] { cudaMemcpyAsync(d, h, n, cudaMemcpyDefault, s); });
    double c = lat(s, ev, [&] { size_t n16 = (n + 15) / 16; kcopy<<<std::max<size_t>(1, std::min<size_t>(132, n16 / 256)), 256, 0, s>>>((int4*)d, (const int4*)hd, n16); });
    double e = lat(s, ev, [&] { cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s); });
    double e2 = lat(s, ev, [&] { cudaMemcpyAsync(hr, d, n, cudaMemcpyDeviceToHost, s); });
    printf("n=%7zu h2d_alloc %.2f h2d_reg %.2f dtod_mapped %.2f default %.2f kernel %.2f | d2h_alloc %.2f d2h_reg %.2f\n", n, a, a2, b, b2, c, e, e2);
  }
  return 0;
}
