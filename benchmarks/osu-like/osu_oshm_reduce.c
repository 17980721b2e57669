/* Reduction latency: shmem_long_sum_to_all of `size` bytes (size/8 longs) over all PEs (osu_coll.h). */
#include "osu_coll.h"

static const osu_bench_t kBench = {"osu_oshm_reduce", "OpenSHMEM Reduce Latency Test", OSU_METRIC_LATENCY,
                                   OSU_ACCEPT_SIZES, 8, (size_t)1 << 20, 1000, 100, 100, 10, 0};

static void run(long* dst, const long* src, size_t n, int npes, long* psync, long* pwrk) {
  shmem_long_sum_to_all(dst, (long*)src, (int)n, 0, 0, npes, pwrk, psync);
}

/* Element i is the sum over PEs of their element i. */
static long expect(int me, int npes, int b, size_t i, size_t n, int* skip) {
  (void)me, (void)b, (void)n;
  long s = 0;
  for (int p = 0; p < npes; ++p) s += osu_coll_value(p, 0, i);
  *skip = 0;
  return s;
}

int main(int argc, char** argv) {
  const osu_coll_t c = {"shmem_long_sum_to_all, all PEs, pSync alternating; per-PE call time", 1, 1, run, expect};
  return osu_coll_main(argc, argv, &kBench, &c);
}
