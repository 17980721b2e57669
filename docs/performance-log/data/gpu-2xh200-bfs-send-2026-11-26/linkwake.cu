// NVLink wake-up: GPU 0 stores one word into GPU 1's memory and fences (system scope) after an idle gap of the
// link; prints the median store+fence time per gap. One process, peer access on. Also the same with a remote load.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)
__device__ inline unsigned long long gt() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__global__ void probe(volatile unsigned long long* remote, const unsigned long long* gaps, int ngaps, int reps, unsigned long long* out, int load) {
  for (int g = 0; g < ngaps; ++g)
    for (int r = 0; r < reps; ++r) {
      unsigned long long t = gt();
      while (gt() - t < gaps[g]) {}
      const unsigned long long t0 = gt();
      if (load) { unsigned long long v = remote[r & 7]; if (v == 12345678) out[0] = v; }
      else { remote[r & 7] = t0; __threadfence_system(); }
      out[g * reps + r] = gt() - t0;
    }
}
int main() {
  int n = 0; CK(cudaGetDeviceCount(&n)); if (n < 2) { printf("needs 2 GPUs\n"); return 0; }
  unsigned long long *rb, *out, *gaps;
  CK(cudaSetDevice(1)); CK(cudaMalloc(&rb, 4096));
  CK(cudaSetDevice(0)); CK(cudaDeviceEnablePeerAccess(1, 0));
  const unsigned long long hg[] = {0, 1000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000, 5000000};
  const int ng = sizeof hg / sizeof hg[0], reps = 21;
  CK(cudaMalloc(&gaps, sizeof hg)); CK(cudaMemcpy(gaps, hg, sizeof hg, cudaMemcpyHostToDevice));
  CK(cudaMallocManaged(&out, ng * reps * 8));
  for (int load = 0; load < 2; ++load) {
    probe<<<1, 1>>>(rb, gaps, ng, reps, out, load); CK(cudaDeviceSynchronize());
    for (int g = 0; g < ng; ++g) {
      unsigned long long v[64]; for (int r = 0; r < reps; ++r) v[r] = out[g * reps + r];
      std::sort(v, v + reps);
      printf("%s gap %8.1f us: median %8.2f us, min %8.2f, max %8.2f\n", load ? "load " : "store", hg[g] / 1e3, v[reps / 2] / 1e3, v[0] / 1e3, v[reps - 1] / 1e3);
    }
  }
  return 0;
}
