// Latency of the CUDA operations the staged protocol chains, one process (run beside an idle peer under MPS or not).
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)
__global__ void empty() {}
__global__ void copyAmo(char* dst, const char* src, size_t n, unsigned long long* sig, unsigned long long v) {
  for (size_t i = threadIdx.x * 16; i < n; i += blockDim.x * 16) *(int4*)(dst + i) = *(const int4*)(src + i);
  __syncthreads();
  if (threadIdx.x == 0) { __threadfence_system(); atomicExch(sig, v); }
}
__global__ void amo(unsigned long long* sig, unsigned long long v) { atomicExch(sig, v); }
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
  char *d, *h; unsigned long long* sig; CK(cudaMalloc(&d, 1 << 20)); CK(cudaMalloc(&sig, 64)); CK(cudaHostAlloc(&h, 1 << 20, cudaHostAllocPortable));
  cuInit(0);
  for (size_t n : {size_t(8), size_t(24576)}) {
    printf("d2h_%zu %.2f\n", n, lat(s, ev, [&] { cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s); }));
    printf("h2d_%zu %.2f\n", n, lat(s, ev, [&] { cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s); }));
    printf("h2d+amo_%zu %.2f\n", n, lat(s, ev, [&] { cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s); amo<<<1, 1, 0, s>>>(sig, 1); }));
    printf("h2d+writevalue_%zu %.2f\n", n, lat(s, ev, [&] { cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s); cuStreamWriteValue64(s, (CUdeviceptr)sig, 1, 0); }));
    printf("copyamo_kernel_%zu %.2f\n", n, lat(s, ev, [&] { copyAmo<<<1, 512, 0, s>>>(d, h, n, sig, 1); }));
  }
  printf("empty_kernel %.2f\n", lat(s, ev, [&] { empty<<<1, 1, 0, s>>>(); }));
  printf("event_only %.2f\n", lat(s, ev, [&] {}));
  printf("api_memcpyasync_only %.2f\n", [&] { std::vector<double> v; for (int i = 0; i < 300; ++i) { auto t0 = std::chrono::steady_clock::now(); cudaMemcpyAsync(d, h, 8, cudaMemcpyHostToDevice, s); v.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count()); cudaStreamSynchronize(s);} std::sort(v.begin(), v.end()); return v[150]; }());
  printf("api_launch_only %.2f\n", [&] { std::vector<double> v; for (int i = 0; i < 300; ++i) { auto t0 = std::chrono::steady_clock::now(); empty<<<1,1,0,s>>>(); v.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count()); cudaStreamSynchronize(s);} std::sort(v.begin(), v.end()); return v[150]; }());
  return 0;
}
