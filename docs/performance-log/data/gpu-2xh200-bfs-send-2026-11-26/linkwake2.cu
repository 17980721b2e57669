// Remote store + fence time in a kernel launched after the GPUs sat idle for a host-side gap. Variants: peer GPU
// idle, or kept busy by a spinning kernel; and a store to the local GPU's memory for reference.
#include <cuda_runtime.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)
__device__ inline unsigned long long gt() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__global__ void one(volatile unsigned long long* p, unsigned long long* out, int i) {
  const unsigned long long t0 = gt();
  p[0] = t0; __threadfence_system();
  out[i] = gt() - t0;
}
__global__ void spin(volatile int* stop) { while (!*stop) {} }
int main() {
  unsigned long long *rb, *lb, *out; int* stop;
  CK(cudaSetDevice(1)); CK(cudaMalloc(&rb, 4096)); cudaStream_t s1; CK(cudaStreamCreate(&s1));
  CK(cudaSetDevice(0)); CK(cudaDeviceEnablePeerAccess(1, 0)); CK(cudaMalloc(&lb, 4096));
  CK(cudaMallocManaged(&out, 4096 * 8)); CK(cudaHostAlloc(&stop, 64, cudaHostAllocMapped | cudaHostAllocPortable));
  const int gaps[] = {0, 10, 50, 100, 200, 500, 1000, 5000, 20000};
  for (int busy = 0; busy < 2; ++busy)
    for (int tgt = 0; tgt < 2; ++tgt) {
      if (busy) { *stop = 0; CK(cudaSetDevice(1)); spin<<<1, 1, 0, s1>>>(stop); CK(cudaSetDevice(0)); }
      for (int gi = 0; gi < 9; ++gi) {
        double host[15];
        for (int r = 0; r < 15; ++r) {
          if (gaps[gi]) usleep(gaps[gi]);
          auto t0 = std::chrono::steady_clock::now();
          one<<<1, 1>>>(tgt ? rb : lb, out, r);
          CK(cudaDeviceSynchronize());
          host[r] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        }
        unsigned long long v[15]; for (int r = 0; r < 15; ++r) v[r] = out[r];
        std::sort(v, v + 15); std::sort(host, host + 15);
        printf("%s peer %s gap %6d us: store+fence median %8.2f us (min %.2f max %.2f), launch..sync %.1f us\n", tgt ? "remote" : "local ", busy ? "busy" : "idle", gaps[gi], v[7] / 1e3, v[0] / 1e3, v[14] / 1e3, host[7]);
      }
      if (busy) { *stop = 1; CK(cudaSetDevice(1)); CK(cudaDeviceSynchronize()); CK(cudaSetDevice(0)); }
    }
  return 0;
}
