/* Get bandwidth: PE 0 issues a window of W gets of `size` bytes from PE 1 (blocking shmem_getmem, or
 * --nbi: shmem_getmem_nbi + one shmem_quiet per window). Bandwidth = size * W / time, MB = 1e6 bytes. */
#include "osu_shmem.h"

static const osu_bench_t kBench = {
    "osu_oshm_get_bw", "OpenSHMEM Get Bandwidth Test", OSU_METRIC_BW,
    OSU_ACCEPT_SIZES | OSU_ACCEPT_NBI | OSU_ACCEPT_WINDOW | OSU_ACCEPT_CUDA, 1, (size_t)1 << 20, 1000, 50, 100, 5, 64};

int main(int argc, char** argv) {
  osu_opts_t o;
  int rc = 0;
  if (!osu_shmem_start(argc, argv, &kBench, &o, &rc)) return rc;
  int me = shmem_my_pe();
  char* src = (char*)osu_shmem_buffer(&o, o.max_size, 'a');
  char* dst = (char*)osu_shmem_buffer(&o, o.max_size, 'b');
  const long w = o.window;
  osu_shmem_header(&kBench, &o, o.nbi ? "window of shmem_getmem_nbi + shmem_quiet, PE 0 <- PE 1"
                                      : "window of blocking shmem_getmem, PE 0 <- PE 1");
  for (size_t size = o.min_size; size; size = osu_next_size(&o, size)) {
    long iters = osu_iters(&kBench, &o, size);
    int nb = osu_batches(&o, iters);
    double us = 0;
    shmem_barrier_all();
    if (me == 0) {
      if (o.nbi) {
        OSU_TIMED(osu_warmup(&kBench, &o, size), iters, nb, &us, {
          for (long j = 0; j < w; ++j) shmem_getmem_nbi(src, dst, size, 1);
          shmem_quiet();
        });
      } else {
        OSU_TIMED(osu_warmup(&kBench, &o, size), iters, nb, &us, {
          for (long j = 0; j < w; ++j) shmem_getmem(src, dst, size, 1);
        });
      }
      osu_print_row(&o, size, osu_bw_mbs(size * (size_t)w, us));
    }
  }
  shmem_barrier_all();
  osu_shmem_release(&o, dst);
  osu_shmem_release(&o, src);
  shmem_finalize();
  return 0;
}
