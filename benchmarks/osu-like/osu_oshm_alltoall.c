/* All-to-all latency: shmem_alltoall64, `size` bytes from every PE to every PE (osu_coll.h). */
#include "osu_coll.h"

static const osu_bench_t kBench = {"osu_oshm_alltoall", "OpenSHMEM Alltoall Latency Test", OSU_METRIC_LATENCY,
                                   OSU_ACCEPT_SIZES, 8, (size_t)1 << 18, 1000, 100, 100, 10, 0};

static void run(long* dst, const long* src, size_t n, int npes, long* psync, long* pwrk) {
  (void)pwrk;
  shmem_alltoall64(dst, src, n, 0, 0, npes, psync);
}

/* Block b of dest on PE me is block me of PE b's source. */
static long expect(int me, int npes, int b, size_t i, size_t n, int* skip) {
  (void)npes, (void)n;
  *skip = 0;
  return osu_coll_value(b, me, i);
}

int main(int argc, char** argv) {
  const osu_coll_t c = {"shmem_alltoall64, all PEs, pSync alternating; per-PE call time", -1, -1, run, expect};
  return osu_coll_main(argc, argv, &kBench, &c);
}
