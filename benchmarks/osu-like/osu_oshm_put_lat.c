/* Put latency: PE 0 puts `size` bytes to PE 1 and completes it with shmem_quiet, per iteration.
 * --nbi uses shmem_putmem_nbi + shmem_quiet. --global targets a static global array (symmetric data
 * object in the data segment) instead of the symmetric heap. PE 1 is passive. */
#include "osu_shmem.h"

static char g_target[OSU_GLOBAL_MAX];

static const osu_bench_t kBench = {
    "osu_oshm_put_lat", "OpenSHMEM Put Latency Test", OSU_METRIC_LATENCY,
    OSU_ACCEPT_SIZES | OSU_ACCEPT_NBI | OSU_ACCEPT_GLOBAL | OSU_ACCEPT_CUDA, 1, (size_t)1 << 20, 10000, 1000, 1000, 100, 0};

int main(int argc, char** argv) {
  osu_opts_t o;
  int rc = 0;
  if (!osu_shmem_start(argc, argv, &kBench, &o, &rc)) return rc;
  int me = shmem_my_pe();
  char* src = (char*)osu_shmem_buffer(&o, o.max_size, 'a');
  char* dst = o.global ? g_target : (char*)osu_shmem_buffer(&o, o.max_size, 'b');
  char mode[256];
  snprintf(mode, sizeof(mode), "%s + shmem_quiet per iteration, PE 0 -> PE 1, target %s",
           o.nbi ? "shmem_putmem_nbi" : "shmem_putmem", o.global ? "static global array" : "symmetric heap");
  osu_shmem_header(&kBench, &o, mode);
  for (size_t size = o.min_size; size; size = osu_next_size(&o, size)) {
    long iters = osu_iters(&kBench, &o, size);
    int nb = osu_batches(&o, iters);
    double us = 0;
    shmem_barrier_all();
    if (me == 0) {
      if (o.nbi) {
        OSU_TIMED(osu_warmup(&kBench, &o, size), iters, nb, &us, {
          shmem_putmem_nbi(dst, src, size, 1);
          shmem_quiet();
        });
      } else {
        OSU_TIMED(osu_warmup(&kBench, &o, size), iters, nb, &us, {
          shmem_putmem(dst, src, size, 1);
          shmem_quiet();
        });
      }
      osu_print_row(&o, size, us);
    }
    shmem_barrier_all();
    if (me == 1) {
      osu_shmem_check_kind(&o, "put", dst, 'a', size, 'b');
    }
  }
  shmem_barrier_all();
  if (!o.global) osu_shmem_release(&o, dst);
  osu_shmem_release(&o, src);
  shmem_finalize();
  return 0;
}
