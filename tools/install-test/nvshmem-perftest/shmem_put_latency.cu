// shmem_put_latency: the one-way latency of a device-initiated nvshmem_putmem + nvshmem_quiet between PEs 0 and 1,
// measured by a ping-pong kernel (latency_kernel.cuh) for each size from -b to -e bytes, doubling; the other PEs
// wait. Output: "size_bytes latency_us" rows on PE 0, then "check OK" on every PE once the bytes PE 1 sent back match
// what PE 0 sent. On a PE without a GPU only the start-up runs, and each PE prints "host-only: ... OK".
#include "latency_kernel.cuh"
#include "utils.h"

#include <vector>

namespace {

/// Collective: PEs 0 and 1 run `iters` rounds of `bytes` (after `warmup` untimed ones); returns the one-way latency
/// in microseconds there, 0 on the other PEs.
double measure(const bench_opts& o, const bench_module* mod, char* data, uint64_t* sig, size_t bytes, uint64_t* seq,
               bench_timer* timer, cudaStream_t s) {
  double us = 0;
  for (int pass = 0; pass < 2; ++pass) {
    int iters = pass == 0 ? o.warmup : o.iters;
    if (iters == 0) continue;
    nvshmem_barrier_all();
    *seq += static_cast<uint64_t>(iters);
    if (nvshmem_my_pe() > 1) continue;
    uint64_t first = *seq - static_cast<uint64_t>(iters);
    bench_timer_start(timer, s);
    if (mod != nullptr) {
      void* args[] = {&data, &sig, &bytes, &iters, &first};
      bench_module_launch(*mod, args, s);
    } else {
      put_latency_kernel<<<1, 1, 0, s>>>(data, sig, bytes, iters, first);
      CUDA_CHECK(cudaGetLastError());
    }
    const float ms = bench_timer_stop_ms(timer, s);
    us = 1000.0 * ms / iters / 2;
  }
  return us;
}

/// PE 0's pattern is in the first n bytes (the last size sent) on PEs 0 and 1 after the last round.
bool check(char* data, size_t n) {
  std::vector<char> got(n);
  CUDA_CHECK(cudaMemcpy(got.data(), data, n, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i)
    if (got[i] != static_cast<char>(i * 7 + 1)) return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bench_opts o;
  const bool gpu = bench_init(&argc, &argv);
  bench_parse(argc, argv, &o);
  const int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
  int mpi_rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
  if (npes < 2 || mpi_rank != me) {
    NVSHMEMI_ERROR_PRINT("PE %d (MPI rank %d) of %d: run on at least 2 PEs numbered as MPI ranks\n", me, mpi_rank,
                         npes);
    return 1;
  }
  if (!gpu) {
    nvshmem_barrier_all();
    std::printf("shmem_put_latency host-only: PE %d of %d, no GPU; start-up OK\n", me, npes);
    bench_finalize();
    return 0;
  }
  char* data = static_cast<char*>(nvshmem_malloc(o.max_size));
  uint64_t* sig = static_cast<uint64_t*>(nvshmem_calloc(1, sizeof(uint64_t)));
  if (data == nullptr || sig == nullptr) {
    NVSHMEMI_ERROR_PRINT("nvshmem_malloc of %zu bytes failed\n", o.max_size);
    return 1;
  }
  std::vector<char> pattern(o.max_size);
  for (size_t i = 0; i < o.max_size; ++i) pattern[i] = me == 0 ? static_cast<char>(i * 7 + 1) : 0;
  CUDA_CHECK(cudaMemcpy(data, pattern.data(), o.max_size, cudaMemcpyHostToDevice));
  bench_module mod;
  if (o.cubin != nullptr) bench_module_load(o.cubin, "put_latency_kernel", &mod);
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  bench_timer timer;
  bench_timer_create(&timer);
  uint64_t seq = 0;
  size_t last = 0;
  if (me == 0) std::printf("# shmem_put_latency (%s)\n# size_bytes latency_us\n", o.cubin ? o.cubin : "linked");
  for (size_t bytes = o.min_size; bytes <= o.max_size; bytes *= 2) {
    last = bytes;
    const double us = measure(o, o.cubin ? &mod : nullptr, data, sig, bytes, &seq, &timer, s);
    if (me == 0) std::printf("%-12zu %10.2f\n", bytes, us);
  }
  nvshmem_barrier_all();
  const bool ok = me > 1 || check(data, last);
  std::printf("shmem_put_latency: PE %d check %s\n", me, ok ? "OK" : "FAILED");
  bench_timer_destroy(&timer);
  CUDA_CHECK(cudaStreamDestroy(s));
  if (o.cubin != nullptr) bench_module_unload(&mod);
  nvshmem_free(sig);
  nvshmem_free(data);
  bench_finalize();
  return ok ? 0 : 1;
}
