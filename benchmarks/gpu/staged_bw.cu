// Host-initiated put bandwidth of device memory beside host memory, 2 PEs, PE 0 -> PE 1, in one run: the device
// line shows the protocol the dispatch takes for PE 1's device heap (run with GSHMEM_TRANSPORTS=ucx GSHMEM_P2P=0 to
// see the staged protocol over UCX next to plain UCX puts of host memory; GSHMEM_INFO=1 prints the path report).
// Prints "RESULT put_bw_<kind>_<bytes> <GB/s> GB/s" lines.
// Usage: mpirun -np 2 gshmem_staged_bw [max_bytes]
#include <shmem.h>
#include <shmemx.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

double putBw(void* dst, const void* src, size_t n, int iters) {
  shmem_putmem(dst, src, n, 1);  // warm-up
  shmem_quiet();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) shmem_putmem(dst, src, n, 1);
  shmem_quiet();
  auto t1 = std::chrono::steady_clock::now();
  return double(n) * iters / std::chrono::duration<double>(t1 - t0).count() / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  shmem_init();
  const int me = shmem_my_pe();
  const size_t max = argc > 1 ? strtoull(argv[1], nullptr, 0) : (size_t(64) << 20);
  if (shmem_n_pes() != 2 || !gshmemx_device_available()) {
    if (me == 0) printf("needs 2 PEs with a device heap\n");
    shmem_finalize();
    return 0;
  }
  char* hdst = static_cast<char*>(shmem_malloc(max));
  char* hsrc = static_cast<char*>(shmem_malloc(max));
  char* ddst = static_cast<char*>(gshmemx_malloc_device(max));
  char* dsrc = static_cast<char*>(gshmemx_malloc_device(max));
  if (!hdst || !hsrc || !ddst || !dsrc) {
    if (me == 0) printf("allocation of %zu bytes failed; raise GSHMEM_SYMMETRIC_SIZE(_DEVICE)\n", max);
    shmem_global_exit(1);
  }
  cudaMemset(dsrc, 1, max);
  cudaDeviceSynchronize();
  shmem_barrier_all();
  for (size_t n = size_t(64) << 10; n <= max; n *= 4) {
    const int iters = n >= (size_t(16) << 20) ? 5 : 20;
    if (me == 0) {
      double h = putBw(hdst, hsrc, n, iters);
      double d = putBw(ddst, dsrc, n, iters);
      printf("RESULT put_bw_host_%zu %.3f GB/s\nRESULT put_bw_device_%zu %.3f GB/s\n", n, h, n, d);
      fflush(stdout);
    }
    shmem_barrier_all();
  }
  shmem_free(dsrc);
  shmem_free(ddst);
  shmem_free(hsrc);
  shmem_free(hdst);
  shmem_finalize();
  return 0;
}
