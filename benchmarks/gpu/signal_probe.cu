// Put-with-signal ping-pong between two GPUs of one process, without the runtime: which instruction sequence
// makes 8 bytes of data and a 64-bit flag visible to the peer GPU fastest, with the data ordered before the flag.
// One thread per GPU, peer access enabled, buffers in each GPU's memory. Prints one line per variant:
//   VARIANT <name> one-way-us <median of 5 runs>
// Variants (data store -> ordering -> flag store; wait):
//   flag_only      no data; flag st.volatile then fence.sc.sys; poll ld.volatile (the raw anchor)
//   rel_acq        data st; st.release.sys flag; poll ld.acquire.sys          (gshmem's device putmem_signal)
//   fence_sc       data st; fence.sc.sys; st.relaxed.sys flag; poll ld.relaxed.sys, fence.acq_rel.sys after
//   fence_acqrel   data st; fence.acq_rel.sys; st.relaxed.sys flag; poll ld.relaxed.sys, fence after
//   rel_relaxed    data st; st.release.sys flag; poll ld.relaxed.sys, fence after
//   rel_volatile   data st.volatile; st.release.sys flag; poll ld.volatile, fence after
// Every variant checks that the data word read after the flag is the expected one (counts mismatches).
//   nvcc -O2 -arch=sm_90 -std=c++17 signal_probe.cu -o signal_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::printf("CUDA error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

typedef unsigned long long u64;

__device__ __forceinline__ u64 ldVol(const u64* p) { return *(const volatile u64*)p; }
__device__ __forceinline__ u64 ldAcq(const u64* p) {
  u64 v;
  asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ u64 ldRlx(const u64* p) {
  u64 v;
  asm volatile("ld.relaxed.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void stRel(u64* p, u64 v) { asm volatile("st.release.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory"); }
__device__ __forceinline__ void stRlx(u64* p, u64 v) { asm volatile("st.relaxed.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory"); }
__device__ __forceinline__ void fenceSc() { asm volatile("fence.sc.sys;" ::: "memory"); }
__device__ __forceinline__ void fenceAr() { asm volatile("fence.acq_rel.sys;" ::: "memory"); }

enum Variant { kFlagOnly, kRelAcq, kFenceSc, kFenceAr, kRelRlx, kRelVol, kVariants };
static const char* kNames[] = {"flag_only", "rel_acq", "fence_sc", "fence_acqrel", "rel_relaxed", "rel_volatile"};

template <int V>
__device__ __forceinline__ void send(u64* pdata, u64* pflag, u64 i) {
  if (V == kFlagOnly) { *(volatile u64*)pflag = i; fenceSc(); return; }
  if (V == kRelVol) *(volatile u64*)pdata = i * 7;
  else *pdata = i * 7;
  if (V == kRelAcq || V == kRelRlx || V == kRelVol) stRel(pflag, i);
  else { if (V == kFenceSc) fenceSc(); else fenceAr(); stRlx(pflag, i); }
}
template <int V>
__device__ __forceinline__ void recv(const u64* flag, const u64* data, u64 i, unsigned* bad) {
  if (V == kFlagOnly) { while (ldVol(flag) != i) {} return; }
  if (V == kRelAcq) { while (ldAcq(flag) != i) {} }
  else if (V == kRelVol) { while (ldVol(flag) != i) {} fenceAr(); }
  else { while (ldRlx(flag) != i) {} fenceAr(); }
  if (ldVol(data) != i * 7) ++*bad;
}
template <int V>
__global__ void pingpong(bool first, u64* my_flag, u64* my_data, u64* peer_flag, u64* peer_data, u64 base, int iters,
                         long long* cycles, unsigned* bad) {
  long long t0 = clock64();
  for (int k = 1; k <= iters; ++k) {
    const u64 i = base + k;
    if (first) { send<V>(peer_data, peer_flag, i); recv<V>(my_flag, my_data, i, bad); }
    else { recv<V>(my_flag, my_data, i, bad); send<V>(peer_data, peer_flag, i); }
  }
  *cycles = clock64() - t0;
}

template <int V>
static double run(u64* f[2], u64* d[2], long long* cyc, unsigned* bad, u64& base, int iters, int clk_khz) {
  CK(cudaSetDevice(1));
  pingpong<V><<<1, 1>>>(false, f[1], d[1], f[0], d[0], base, iters, cyc + 1, bad + 1);
  CK(cudaSetDevice(0));
  pingpong<V><<<1, 1>>>(true, f[0], d[0], f[1], d[1], base, iters, cyc, bad);
  CK(cudaDeviceSynchronize());
  CK(cudaSetDevice(1));
  CK(cudaDeviceSynchronize());
  base += iters;
  return double(cyc[0]) / (clk_khz * 1e3) * 1e6 / iters / 2;  // one way, us
}

int main(int argc, char** argv) {
  int iters = argc > 1 ? std::atoi(argv[1]) : 20000;
  int n = 0;
  CK(cudaGetDeviceCount(&n));
  if (n < 2) { std::printf("signal_probe: needs 2 GPUs, found %d\n", n); return 0; }
  int can = 0;
  CK(cudaDeviceCanAccessPeer(&can, 0, 1));
  if (!can) { std::printf("signal_probe: GPU 0 cannot access GPU 1\n"); return 0; }
  u64 *f[2], *d[2];
  for (int g = 0; g < 2; ++g) {
    CK(cudaSetDevice(g));
    CK(cudaDeviceEnablePeerAccess(1 - g, 0));
    CK(cudaMalloc(&f[g], 4096));
    CK(cudaMalloc(&d[g], 4096));
    CK(cudaMemset(f[g], 0, 4096));
    CK(cudaMemset(d[g], 0, 4096));
  }
  // The data word sits on its own 128-byte line, as a user's buffer would.
  long long* cyc;
  unsigned* bad;
  CK(cudaMallocManaged(&cyc, 2 * sizeof(long long)));
  CK(cudaMallocManaged(&bad, 2 * sizeof(unsigned)));
  bad[0] = bad[1] = 0;
  int clk = 0;
  CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
  u64 base = 0;
  std::printf("# signal_probe: 2 GPUs, 1 thread each, %d round trips per run, median of 5 runs\n", iters);
  for (int v = 0; v < kVariants; ++v) {
    std::vector<double> t;
    for (int r = 0; r < 6; ++r) {
      double us = 0;
      switch (v) {
        case kFlagOnly: us = run<kFlagOnly>(f, d, cyc, bad, base, iters, clk); break;
        case kRelAcq: us = run<kRelAcq>(f, d, cyc, bad, base, iters, clk); break;
        case kFenceSc: us = run<kFenceSc>(f, d, cyc, bad, base, iters, clk); break;
        case kFenceAr: us = run<kFenceAr>(f, d, cyc, bad, base, iters, clk); break;
        case kRelRlx: us = run<kRelRlx>(f, d, cyc, bad, base, iters, clk); break;
        case kRelVol: us = run<kRelVol>(f, d, cyc, bad, base, iters, clk); break;
      }
      if (r > 0) t.push_back(us);  // the first run warms up
    }
    std::sort(t.begin(), t.end());
    std::printf("VARIANT %-13s one-way-us %.3f  (min %.3f max %.3f)  data-mismatches %u\n", kNames[v], t[2], t[0],
                t[4], bad[0] + bad[1]);
    bad[0] = bad[1] = 0;
  }
  return 0;
}
