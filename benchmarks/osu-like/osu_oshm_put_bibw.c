/* Bidirectional put bandwidth: PE 0 and PE 1 each issue a window of W puts of `size` bytes to the other,
 * then shmem_quiet, per iteration; each timed batch is bracketed by barriers so both directions overlap.
 * Bandwidth = 2 * size * W / time per iteration (MB = 1e6 bytes). --nbi: shmem_putmem_nbi. */
#include "osu_shmem.h"

static const osu_bench_t kBench = {
    "osu_oshm_put_bibw", "OpenSHMEM Put Bidirectional Bandwidth Test", OSU_METRIC_BW,
    OSU_ACCEPT_SIZES | OSU_ACCEPT_NBI | OSU_ACCEPT_WINDOW, 1, (size_t)1 << 20, 1000, 50, 100, 5, 64};

int main(int argc, char** argv) {
  osu_opts_t o;
  int rc = 0;
  if (!osu_shmem_start(argc, argv, &kBench, &o, &rc)) return rc;
  int me = shmem_my_pe();
  int peer = me == 0 ? 1 : 0;
  int active = me < 2;
  char* src = (char*)osu_shmem_buffer(&o, o.max_size, 'a');
  char* dst = (char*)osu_shmem_buffer(&o, o.max_size, 'b');
  const long w = o.window;
  osu_shmem_header(&kBench, &o, o.nbi ? "window of shmem_putmem_nbi + shmem_quiet, PE 0 <-> PE 1 at once"
                                      : "window of shmem_putmem + shmem_quiet, PE 0 <-> PE 1 at once");
  double times[1000];
  for (size_t size = o.min_size; size; size = osu_next_size(&o, size)) {
    long iters = osu_iters(&kBench, &o, size);
    long warm = osu_warmup(&kBench, &o, size);
    int nb = osu_batches(&o, iters);
    long per = iters / nb;
    for (int b = -1; b < nb; ++b) { /* b == -1: warm-up round */
      long n = b < 0 ? warm : per;
      shmem_barrier_all();
      double t0 = osu_now_us();
      if (active) {
        for (long k = 0; k < n; ++k) {
          if (o.nbi) {
            for (long j = 0; j < w; ++j) shmem_putmem_nbi(dst, src, size, peer);
          } else {
            for (long j = 0; j < w; ++j) shmem_putmem(dst, src, size, peer);
          }
          shmem_quiet();
        }
      }
      shmem_barrier_all();
      if (b >= 0) times[b] = (osu_now_us() - t0) / (double)per;
    }
    if (me == 0) osu_print_row(&o, size, osu_bw_mbs(2 * size * (size_t)w, osu_median(times, nb)));
  }
  shmem_barrier_all();
  osu_shmem_release(&o, dst);
  osu_shmem_release(&o, src);
  shmem_finalize();
  return 0;
}
