/* Broadcast latency: shmem_broadcast64 of `size` bytes from PE 0 to all PEs (osu_coll.h has the method). */
#include "osu_coll.h"

static const osu_bench_t kBench = {"osu_oshm_broadcast", "OpenSHMEM Broadcast Latency Test", OSU_METRIC_LATENCY,
                                   OSU_ACCEPT_SIZES, 8, (size_t)1 << 20, 1000, 100, 100, 10, 0};

static void run(long* dst, const long* src, size_t n, int npes, long* psync, long* pwrk) {
  (void)pwrk;
  shmem_broadcast64(dst, src, n, 0, 0, 0, npes, psync);
}

/* Every PE but the root receives PE 0's block; the root's dest is not written (OpenSHMEM 1.4). */
static long expect(int me, int npes, int b, size_t i, size_t n, int* skip) {
  (void)npes, (void)n;
  *skip = me == 0;
  return osu_coll_value(0, b, i);
}

int main(int argc, char** argv) {
  const osu_coll_t c = {"shmem_broadcast64 from PE 0, all PEs, pSync alternating; per-PE call time", 1, 1, run, expect};
  return osu_coll_main(argc, argv, &kBench, &c);
}
