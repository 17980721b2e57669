/* shmem_barrier_all latency over all PEs; PE 0 times the loop. No size axis: the row key is the PE count. */
#include "osu_shmem.h"

static const osu_bench_t kBench = {"osu_oshm_barrier", "OpenSHMEM Barrier Latency Test", OSU_METRIC_LATENCY, 0,
                                   1, 1, 10000, 10000, 1000, 1000, 0};

int main(int argc, char** argv) {
  osu_opts_t o;
  int rc = 0;
  if (!osu_shmem_start(argc, argv, &kBench, &o, &rc)) return rc;
  int me = shmem_my_pe(), npes = shmem_n_pes();
  osu_shmem_header(&kBench, &o, "shmem_barrier_all per iteration, all PEs");
  long iters = osu_iters(&kBench, &o, 1);
  int nb = osu_batches(&o, iters);
  double us = 0;
  shmem_barrier_all();
  /* Every PE runs the same loop; all but PE 0 discard their timing. */
  OSU_TIMED(osu_warmup(&kBench, &o, 1), iters, nb, &us, shmem_barrier_all());
  if (me == 0) osu_print_row(&o, (size_t)npes, us);
  shmem_finalize();
  return 0;
}
