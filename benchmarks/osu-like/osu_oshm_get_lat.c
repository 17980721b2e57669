/* Get latency: PE 0 gets `size` bytes from PE 1 with a blocking shmem_getmem per iteration
 * (--nbi: shmem_getmem_nbi + shmem_quiet). PE 1 is passive. */
#include "osu_shmem.h"

static const osu_bench_t kBench = {
    "osu_oshm_get_lat", "OpenSHMEM Get Latency Test", OSU_METRIC_LATENCY,
    OSU_ACCEPT_SIZES | OSU_ACCEPT_NBI | OSU_ACCEPT_CUDA, 1, (size_t)1 << 20, 10000, 1000, 1000, 100, 0};

int main(int argc, char** argv) {
  osu_opts_t o;
  int rc = 0;
  if (!osu_shmem_start(argc, argv, &kBench, &o, &rc)) return rc;
  int me = shmem_my_pe();
  char* remote = (char*)osu_shmem_buffer(&o, o.max_size, 'a');
  char* local = (char*)osu_shmem_buffer(&o, o.max_size, 'b');
  osu_shmem_header(&kBench, &o, o.nbi ? "shmem_getmem_nbi + shmem_quiet per iteration, PE 0 <- PE 1"
                                      : "blocking shmem_getmem per iteration, PE 0 <- PE 1");
  for (size_t size = o.min_size; size; size = osu_next_size(&o, size)) {
    long iters = osu_iters(&kBench, &o, size);
    int nb = osu_batches(&o, iters);
    double us = 0;
    shmem_barrier_all();
    if (me == 0) {
      if (o.nbi) {
        OSU_TIMED(osu_warmup(&kBench, &o, size), iters, nb, &us, {
          shmem_getmem_nbi(local, remote, size, 1);
          shmem_quiet();
        });
      } else {
        OSU_TIMED(osu_warmup(&kBench, &o, size), iters, nb, &us, { shmem_getmem(local, remote, size, 1); });
      }
      osu_print_row(&o, size, us);
      osu_shmem_check_kind(&o, "get", local, 'a', size, 'b');
    }
  }
  shmem_barrier_all();
  osu_shmem_release(&o, local);
  osu_shmem_release(&o, remote);
  shmem_finalize();
  return 0;
}
