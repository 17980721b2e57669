// One process, two GPUs (peer access on): how the NVLink path leaves its low-power mode after the GPUs sat idle
// for 300 ms (past the 50 ms low-power threshold). After each idle gap, one waking pattern, then a kernel of 300
// store+fence.sc.sys pairs from GPU 0 into GPU 1's memory (spaced S us): printed, the time from the kernel's start
// until every later pair takes under 5 us, and the pairs' latencies at a few points.
//   patterns: none (S = 0 and 20); bulk (cudaMemcpyPeerAsync of 64 MiB first, timed); pingpong (both GPUs store into
//   each other at once, S = 0); stream (a full-grid kernel writing 1 ms into GPU 1 before the pairs)
//   nvcc -O2 -arch=sm_90 linkwake3.cu -o linkwake3 && ./linkwake3
#include <cuda_runtime.h>
#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
typedef unsigned long long ull;
__device__ __forceinline__ ull gt() { ull t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
const int kPairs = 300;

__global__ void pairs(ull* remote, ull space, ull* lat, ull* at) {
  const ull start = gt();
  for (int r = 0; r < kPairs; ++r) {
    const ull t0 = gt();
    asm volatile("st.relaxed.sys.global.u64 [%0], %1;" :: "l"(remote + 16 * (r & 63)), "l"(t0) : "memory");
    asm volatile("fence.sc.sys;" ::: "memory");
    const ull t1 = gt();
    lat[r] = t1 - t0, at[r] = t0 - start;
    while (gt() - t1 < space) {}
  }
}
__global__ void streamInto(ull* remote, ull n, ull ns) {
  const ull t0 = gt();
  ull i = blockIdx.x * (ull)blockDim.x + threadIdx.x;
  while (gt() - t0 < ns) { remote[i] = i; i += (ull)gridDim.x * blockDim.x; if (i >= n) i -= n; }
}

int main() {
  int ndev = 0;
  CK(cudaGetDeviceCount(&ndev));
  if (ndev < 2) { printf("linkwake3: needs 2 GPUs\n"); return 0; }
  ull *tgt[2], *big[2], *lat[2], *at[2];
  const ull n = (ull(64) << 20) / 8;
  cudaStream_t st[2];
  for (int d = 0; d < 2; ++d) {
    CK(cudaSetDevice(d));
    CK(cudaDeviceEnablePeerAccess(1 - d, 0));
    CK(cudaMalloc(&tgt[d], 1 << 20));
    CK(cudaMalloc(&big[d], n * 8));
    CK(cudaMallocHost(&lat[d], kPairs * 8));
    CK(cudaMallocHost(&at[d], kPairs * 8));
    CK(cudaStreamCreateWithFlags(&st[d], cudaStreamNonBlocking));
  }
  printf("pattern | spacing us | wake us (bulk copy) | fast from us | latency us at pair 0, 1, 5, 10, 50, 100, 299\n");
  const char* names[] = {"none", "none", "bulk", "pingpong", "stream"};
  const ull spaces[] = {0, 20000, 0, 0, 0};
  for (int round = 0; round < 2; ++round)
    for (int p = 0; p < 5; ++p) {
      for (int d = 0; d < 2; ++d) { CK(cudaSetDevice(d)); CK(cudaDeviceSynchronize()); }
      usleep(300000);
      double wake = 0;
      CK(cudaSetDevice(0));
      if (p == 2) {
        const auto t0 = std::chrono::steady_clock::now();
        CK(cudaMemcpyPeerAsync(big[1], 1, big[0], 0, n * 8, st[0]));
        CK(cudaStreamSynchronize(st[0]));
        wake = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      }
      if (p == 4) streamInto<<<132, 1024, 0, st[0]>>>(big[1], n, 1000000);
      if (p == 3) {
        CK(cudaSetDevice(1));
        pairs<<<1, 1, 0, st[1]>>>(tgt[0], 0, lat[1], at[1]);
        CK(cudaSetDevice(0));
      }
      pairs<<<1, 1, 0, st[0]>>>(tgt[1], spaces[p], lat[0], at[0]);
      for (int d = 0; d < 2; ++d) { CK(cudaSetDevice(d)); CK(cudaDeviceSynchronize()); }
      int last_slow = -1;
      for (int r = 0; r < kPairs; ++r) if (lat[0][r] > 5000) last_slow = r;
      const double fast_from = last_slow + 1 < kPairs ? at[0][last_slow + 1] / 1e3 : -1;
      printf("%s | %llu | %.0f | %.0f |", names[p], spaces[p] / 1000, wake, fast_from);
      for (int r : {0, 1, 5, 10, 50, 100, 299}) printf(" %.1f", lat[0][r] / 1e3);
      printf("\n");
    }
  return 0;
}
