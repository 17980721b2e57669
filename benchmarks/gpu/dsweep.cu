// Sweep of device-initiated puts, PE 0 -> PE 1's device heap, 8 B..256 MiB, by one group at
// thread, warp (32 threads) and block (512 threads) scope: `iters` x gshmem::dev::putmem_nbi<S> + quiet in one
// kernel, timed with events, the median of 5 timings per point. Routes, interleaved rep by rep in one process:
//   store  SM stores into the peer's IPC-mapped heap (the handle's ce_min = never)
//   ce     the proxy thread's copy engine for every size (ce_min = 0)
//   auto   the handle as the runtime built it (GSHMEM_DEVICE_CE_MIN)
// With GSHMEM_P2P=0 nothing is mapped and the one route is the proxy's staged pipeline: run `dsweep staged`.
// After the timed runs, PE 1 checks its destination against the pattern for every size (what the last mode wrote).
//   mpirun -np 2 dsweep [all|staged] [MAX]     prints CSV rows: mode,scope,bytes,us,GBps,verified
#include <gshmem/device.cuh>
#include <gshmem/gshmem.hpp>
#include <shmem.h>
#include <shmemx.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                \
  do {                                                                       \
    cudaError_t e_ = (x);                                                    \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "dsweep: %s failed: %s\n", #x, cudaGetErrorString(e_)); \
      shmem_global_exit(1);                                                  \
    }                                                                        \
  } while (0)

namespace {

template <int S>
__global__ void putLoop(gshmem::DeviceHandle h, char* dst, const char* src, size_t n, int iters, int pe) {
  for (int i = 0; i < iters; ++i) gshmem::dev::putmem<S>(h, dst, src, n, pe, /*nbi=*/true);
  if (threadIdx.x == 0) gshmem::dev::quiet(h);
}

const char* kScopeName[3] = {"thread", "warp", "block"};
const int kThreads[3] = {1, 32, 512};

unsigned char pattern(size_t i) { return static_cast<unsigned char>((i * 2654435761u) >> 13); }

}  // namespace

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "all";
  const size_t max = argc > 2 ? strtoull(argv[2], nullptr, 0) : (size_t(256) << 20);
  shmem_init();
  const int me = shmem_my_pe();
  if (shmem_n_pes() != 2 || !gshmemx_device_available()) {
    if (me == 0) fprintf(stderr, "dsweep: needs 2 PEs with a device heap\n");
    shmem_finalize();
    return 2;
  }
  char* src = static_cast<char*>(gshmemx_malloc_device(max));
  char* dst = static_cast<char*>(gshmemx_malloc_device(max));
  if (!src || !dst) shmem_global_exit(1);
  std::vector<unsigned char> pat(max), back(max);
  for (size_t i = 0; i < max; ++i) pat[i] = pattern(i);
  CK(cudaMemcpy(src, pat.data(), max, cudaMemcpyHostToDevice));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));

  const gshmem::DeviceHandle base = gshmem::deviceHandle();
  struct Mode {
    const char* name;
    gshmem::DeviceHandle h;
  };
  std::vector<Mode> modes;
  if (strcmp(which, "staged") == 0) {
    modes.push_back({"staged", base});
  } else {
    Mode store{"store", base}, ce{"ce", base};
    for (int k = 0; k < 3; ++k) {
      store.h.ce_min[k] = ~0ull;
      ce.h.ce_min[k] = 0;
    }
    modes.push_back(store);
    if (base.ring.slots != nullptr) modes.push_back(ce);
    else if (me == 0) fprintf(stderr, "dsweep: no proxy ring (GSHMEM_DEVICE_CE_MIN=off?): the ce mode is skipped\n");
    modes.push_back({"auto", base});
  }
  if (me == 0) {
    printf("# ce_min thread/warp/block: %llu %llu %llu\n", (unsigned long long)base.ce_min[0],
           (unsigned long long)base.ce_min[1], (unsigned long long)base.ce_min[2]);
    printf("mode,scope,bytes,us,GBps,verified\n");
  }
  std::vector<size_t> sizes;
  for (size_t n = 8; n <= max; n *= 8) sizes.push_back(n);
  if (sizes.back() != max) sizes.push_back(max);
  const int reps = 5;
  static int bad;  // symmetric: PE 1's verdict
  for (int sc = 0; sc < 3; ++sc) {
    for (size_t n : sizes) {
      const int iters = n <= (64u << 10) ? 200 : n <= (4u << 20) ? 20 : 3;
      std::vector<std::vector<double>> us(modes.size());
      for (int r = 0; r < reps; ++r) {
        for (size_t k = 0; k < modes.size(); ++k) {
          const size_t m = (k + r) % modes.size();  // rotate the order: no mode always follows the same one
          shmem_barrier_all();
          if (me == 0) {
            // One untimed put first: wakes the proxy thread from its idle back-off, warms the route.
            if (sc == 0) putLoop<gshmem::kScopeThread><<<1, kThreads[0], 0, s>>>(modes[m].h, dst, src, n, 1, 1);
            if (sc == 1) putLoop<gshmem::kScopeWarp><<<1, kThreads[1], 0, s>>>(modes[m].h, dst, src, n, 1, 1);
            if (sc == 2) putLoop<gshmem::kScopeBlock><<<1, kThreads[2], 0, s>>>(modes[m].h, dst, src, n, 1, 1);
            CK(cudaEventRecord(a, s));
            if (sc == 0) putLoop<gshmem::kScopeThread><<<1, kThreads[0], 0, s>>>(modes[m].h, dst, src, n, iters, 1);
            if (sc == 1) putLoop<gshmem::kScopeWarp><<<1, kThreads[1], 0, s>>>(modes[m].h, dst, src, n, iters, 1);
            if (sc == 2) putLoop<gshmem::kScopeBlock><<<1, kThreads[2], 0, s>>>(modes[m].h, dst, src, n, iters, 1);
            CK(cudaEventRecord(b, s));
            CK(cudaStreamSynchronize(s));
            CK(cudaGetLastError());
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, a, b));
            us[m].push_back(ms * 1e3 / iters);
          }
        }
      }
      // Verify what the last mode wrote: PE 1 compares its destination with the pattern.
      shmem_barrier_all();
      if (me == 1) {
        CK(cudaMemcpy(back.data(), dst, n, cudaMemcpyDeviceToHost));
        bad = memcmp(back.data(), pat.data(), n) != 0;
        CK(cudaMemset(dst, 0, n));
        CK(cudaDeviceSynchronize());
      }
      shmem_barrier_all();
      int verdict = shmem_int_g(&bad, 1);
      if (me == 0)
        for (size_t m = 0; m < modes.size(); ++m) {
          std::sort(us[m].begin(), us[m].end());
          double med = us[m][us[m].size() / 2];
          printf("%s,%s,%zu,%.3f,%.3f,%s\n", modes[m].name, kScopeName[sc], n, med, n / med / 1e3,
                 m == (modes.size() - 1 + reps - 1) % modes.size() ? (verdict ? "BAD" : "ok") : "-");
        }
      fflush(stdout);
    }
  }
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
  shmem_finalize();
  return 0;
}
