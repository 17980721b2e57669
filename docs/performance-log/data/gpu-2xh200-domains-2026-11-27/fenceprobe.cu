// One process, two GPUs (peer access on): how long a remote store plus a system-scope fence takes on GPU 0 while
// a "busy" kernel runs on the destination GPU 1 (or on GPU 0 itself), for several kinds of busy kernel and for the
// default / remote memory-synchronization domain of either kernel. Each cell: 16 store+fence pairs 20 us apart,
// timed with %globaltimer inside the storing kernel; printed: median and max in us.
//   nvcc -O2 -arch=sm_90 fenceprobe.cu -o fenceprobe && ./fenceprobe
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
typedef unsigned long long ull;
__device__ __forceinline__ ull gt() { ull t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ ull mix(ull x) { x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; return x; }

enum { kNone, kSpinOne, kRandLoad, kRandAtomic, kStream, kSpinAllSys, kTypes };
const char* kName[] = {"idle", "1 thread spins ld.volatile", "random loads, full grid", "random atomics, full grid",
                       "streaming stores, full grid", "every thread spins ld.acquire.sys"};

__global__ void busy(int type, ull* big, ull n, ull* word, ull dur, ull* sink) {
  const ull t0 = gt();
  const ull id = blockIdx.x * (ull)blockDim.x + threadIdx.x, nt = (ull)gridDim.x * blockDim.x;
  ull acc = 0, x = id * 7919 + 1, i = id;
  if (type == kSpinOne && id != 0) return;
  while (gt() - t0 < dur) {
    for (int k = 0; k < 32; ++k) {
      switch (type) {
        case kSpinOne: acc += *(volatile ull*)word; break;
        case kRandLoad: x = mix(x + k); acc += big[x % n]; break;
        case kRandAtomic: x = mix(x + k); atomicAdd(&big[x % n], 1ull); break;
        case kStream: big[i] = i; i += nt; if (i >= n) i = id; break;
        case kSpinAllSys: { ull v; asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(word) : "memory"); acc += v; } break;
      }
    }
  }
  if (acc == 42) *sink = acc;
}

enum { kFenceSc, kRelease, kFenceAcqRel };
__global__ void storer(ull* remote, ull delay, int reps, int how, ull* out) {
  ull t = gt();
  while (gt() - t < delay) {}
  for (int r = 0; r < reps; ++r) {
    const ull t0 = gt();
    if (how == kRelease) {
      asm volatile("st.release.sys.global.u64 [%0], %1;" :: "l"(remote + 64 * r), "l"(t0) : "memory");
    } else {
      asm volatile("st.relaxed.sys.global.u64 [%0], %1;" :: "l"(remote + 64 * r), "l"(t0) : "memory");
      if (how == kFenceSc) asm volatile("fence.sc.sys;" ::: "memory");
      else asm volatile("fence.acq_rel.sys;" ::: "memory");
    }
    if (how == kRelease) asm volatile("fence.acq_rel.sys;" ::: "memory");  // completion of the release store
    out[r] = gt() - t0;
    t = gt();
    while (gt() - t < 20000) {}
  }
}

template <typename... A>
void launch(void (*k)(A...), dim3 g, dim3 b, cudaStream_t s, int domain, A... a) {
  cudaLaunchConfig_t c = {};
  c.gridDim = g, c.blockDim = b, c.stream = s;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeMemSyncDomain;
  at[0].val.memSyncDomain = domain ? cudaLaunchMemSyncDomainRemote : cudaLaunchMemSyncDomainDefault;
  c.attrs = at, c.numAttrs = 1;
  CK(cudaLaunchKernelEx(&c, k, a...));
}

int main() {
  int ndev = 0, sms = 0, dom = 0, can = 0;
  CK(cudaGetDeviceCount(&ndev));
  if (ndev < 2) { printf("fenceprobe: needs 2 GPUs\n"); return 0; }
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaDeviceGetAttribute(&dom, cudaDevAttrMemSyncDomainCount, 0));
  CK(cudaDeviceCanAccessPeer(&can, 0, 1));
  printf("fenceprobe: %d SMs, %d memory-sync domains, peer access %d\n", sms, dom, can);
  const ull n = (ull(2) << 30) / 8;  // 2 GiB per GPU of busy memory
  ull *big[2], *word[2], *sink[2], *tgt1, *out;
  cudaStream_t sb[2], ss;
  for (int d = 0; d < 2; ++d) {
    CK(cudaSetDevice(d));
    CK(cudaDeviceEnablePeerAccess(1 - d, 0));
    CK(cudaMalloc(&big[d], n * 8));
    CK(cudaMemset(big[d], 0, n * 8));
    CK(cudaMalloc(&word[d], 4096));
    CK(cudaMemset(word[d], 0, 4096));
    CK(cudaMalloc(&sink[d], 8));
    CK(cudaStreamCreateWithFlags(&sb[d], cudaStreamNonBlocking));
  }
  CK(cudaSetDevice(1));
  CK(cudaMalloc(&tgt1, 1 << 20));
  CK(cudaSetDevice(0));
  CK(cudaStreamCreateWithFlags(&ss, cudaStreamNonBlocking));
  CK(cudaMallocHost(&out, 64 * 8));
  const int reps = 16;
  const char* how[] = {"st.relaxed + fence.sc.sys", "st.release.sys + fence.acq_rel.sys", "st.relaxed + fence.acq_rel.sys"};
  printf("where busy | busy kernel | fence | busy domain | store domain | median us | max us\n");
  for (int where = 1; where >= 0; --where)
    for (int type = 0; type < kTypes; ++type)
      for (int h = 0; h < 3; ++h)
        for (int bd = 0; bd < 2; ++bd)
          for (int sd = 0; sd < 2; ++sd) {
            if (h && (bd || sd) && type != kRandAtomic) continue;  // other fences only in the default domains, plus atomics
            const ull dur = 1500000;  // 1.5 ms of busy kernel; the stores start 0.2 ms in, take ~0.35 ms at 20 us apart
            CK(cudaSetDevice(where));
            // On GPU 0 leave SMs free for the storer: (sms - 4) blocks of 1024 threads; on GPU 1 fill it.
            if (type != kNone) {
              const dim3 g = where == 0 ? dim3(sms - 4) : dim3(sms * 2), b = where == 0 ? dim3(1024) : dim3(1024);
              launch(busy, g, b, sb[where], bd, type, big[where], n, word[where], dur, sink[where]);
            }
            CK(cudaSetDevice(0));
            launch(storer, dim3(1), dim3(1), ss, sd, tgt1, (ull)200000, reps, h, out);
            CK(cudaStreamSynchronize(ss));
            CK(cudaSetDevice(where));
            CK(cudaStreamSynchronize(sb[where]));
            CK(cudaSetDevice(0));
            ull v[reps];
            for (int r = 0; r < reps; ++r) v[r] = out[r];
            std::sort(v, v + reps);
            printf("%s | %s | %s | %s | %s | %.2f | %.2f\n", where ? "GPU 1 (destination)" : "GPU 0 (source)", kName[type],
                   how[h], bd ? "remote" : "default", sd ? "remote" : "default", v[reps / 2] / 1e3, v[reps - 1] / 1e3);
          }
  return 0;
}
