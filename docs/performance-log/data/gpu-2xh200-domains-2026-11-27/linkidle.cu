// One process, two GPUs (peer access on): the cost of a remote store plus fence.sc.sys after the GPUs sat idle
// (host sleeps, no kernel) for a gap, and what wakes the path. Each row: 6 store+fence pairs 20 us apart in one
// kernel on GPU 0 into GPU 1's memory, timed with %globaltimer: the first, then the median of the other five.
//   mode plain  : host idle for the gap, then the store kernel
//   mode warm   : host idle for the gap, a one-store kernel, then after W us (host spin) the store kernel
//   mode local  : host idle for the gap, a 2 ms kernel busy on GPU 0's own memory, then the store kernel
//   mode both   : host idle for the gap, a one-store kernel on GPU 1 into GPU 0, then the store kernel
//   nvcc -O2 -arch=sm_90 linkidle.cu -o linkidle && ./linkidle
#include <cuda_runtime.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
typedef unsigned long long ull;
__device__ __forceinline__ ull gt() { ull t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }

__global__ void storer(ull* remote, int reps, ull* out) {
  for (int r = 0; r < reps; ++r) {
    const ull t0 = gt();
    asm volatile("st.relaxed.sys.global.u64 [%0], %1;" :: "l"(remote + 64 * r), "l"(t0) : "memory");
    asm volatile("fence.sc.sys;" ::: "memory");
    out[r] = gt() - t0;
    const ull t = gt();
    while (gt() - t < 20000) {}
  }
}
__global__ void localBusy(ull* p, ull n, ull ns) {
  const ull t0 = gt();
  ull i = blockIdx.x * (ull)blockDim.x + threadIdx.x;
  while (gt() - t0 < ns) { p[i] += 1; i += (ull)gridDim.x * blockDim.x; if (i >= n) i -= n; }
}

static void spin_us(double us) {
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() < us) {}
}

int main() {
  int ndev = 0;
  CK(cudaGetDeviceCount(&ndev));
  if (ndev < 2) { printf("linkidle: needs 2 GPUs\n"); return 0; }
  ull *tgt[2], *out[2], *loc;
  const ull n = (ull(256) << 20) / 8;
  for (int d = 0; d < 2; ++d) {
    CK(cudaSetDevice(d));
    CK(cudaDeviceEnablePeerAccess(1 - d, 0));
    CK(cudaMalloc(&tgt[d], 1 << 20));
    CK(cudaMallocHost(&out[d], 64 * 8));
  }
  CK(cudaSetDevice(0));
  CK(cudaMalloc(&loc, n * 8));
  const double gaps_ms[] = {0, 1, 10, 30, 45, 60, 100, 300};
  const int reps = 6;
  printf("mode | gap ms | warm-to-store us | first us | median of next 5 us\n");
  auto measure = [&](const char* mode, double gap, double w) {
    CK(cudaSetDevice(0));
    CK(cudaDeviceSynchronize());
    CK(cudaSetDevice(1));
    CK(cudaDeviceSynchronize());
    usleep((useconds_t)(gap * 1000));
    const bool m_warm = mode[0] == 'w', m_local = mode[0] == 'l', m_both = mode[0] == 'b';
    if (m_both) {
      CK(cudaSetDevice(1));
      storer<<<1, 1>>>(tgt[0], 1, out[1]);
      CK(cudaDeviceSynchronize());
    }
    CK(cudaSetDevice(0));
    if (m_warm) {
      storer<<<1, 1>>>(tgt[1] + 4096, 1, out[0] + 32);
      CK(cudaDeviceSynchronize());
      spin_us(w);
    }
    if (m_local) localBusy<<<264, 512>>>(loc, n, 2000000);
    storer<<<1, 1>>>(tgt[1], reps, out[0]);
    CK(cudaDeviceSynchronize());
    ull v[reps];
    for (int r = 0; r < reps; ++r) v[r] = out[0][r];
    std::sort(v + 1, v + reps);
    printf("%s | %.0f | %.0f | %.2f | %.2f%s\n", mode, gap, w, v[0] / 1e3, v[3] / 1e3,
           m_warm ? "" : "");
    if (m_warm) printf("  (the waking store itself: %.2f us)\n", out[0][32] / 1e3);
  };
  for (int round = 0; round < 2; ++round) {
    for (double g : gaps_ms) measure("plain", g, 0);
    for (double w : {0.0, 100.0, 1000.0, 5000.0}) measure("warm", 300, w);
    measure("local", 300, 0);
    measure("both", 300, 0);
  }
  return 0;
}
