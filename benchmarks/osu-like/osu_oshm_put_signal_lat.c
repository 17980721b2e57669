/* Put-with-signal ping-pong: PE 0 does shmem_putmem_signal(size bytes, signal = sequence number,
 * SHMEM_SIGNAL_SET) to PE 1 and waits with shmem_signal_wait_until for PE 1's reply, which does the same
 * in the other direction. Reported latency is one way: round trip / 2.
 * A library that implements only OpenSHMEM 1.4 (no put-with-signal, e.g. Open MPI 4.1) gets the standard
 * emulation instead, named in the "# Mode" line: shmem_putmem + shmem_fence + shmem_ulong_atomic_set,
 * waited for with shmem_ulong_wait_until. */
#include "osu_shmem.h"

#if OSU_SHMEM_SPEC >= 105
typedef uint64_t osu_sig_t;
#define OSU_SIGNAL_MODE "shmem_putmem_signal(SHMEM_SIGNAL_SET) + shmem_signal_wait_until ping-pong, one way = RTT/2"
static inline void put_signal(char* dst, const char* src, size_t size, osu_sig_t* sig, osu_sig_t v, int pe) {
  shmem_putmem_signal(dst, src, size, sig, v, SHMEM_SIGNAL_SET, pe);
}
static inline void wait_signal(osu_sig_t* sig, osu_sig_t v) { shmem_signal_wait_until(sig, SHMEM_CMP_GE, v); }
#else
typedef unsigned long osu_sig_t;
#define OSU_SIGNAL_MODE \
  "EMULATED (OpenSHMEM < 1.5): shmem_putmem + shmem_fence + shmem_ulong_atomic_set, ping-pong, one way = RTT/2"
static inline void put_signal(char* dst, const char* src, size_t size, osu_sig_t* sig, osu_sig_t v, int pe) {
  shmem_putmem(dst, src, size, pe);
  shmem_fence();
  shmem_ulong_atomic_set(sig, v, pe);
}
static inline void wait_signal(osu_sig_t* sig, osu_sig_t v) { shmem_ulong_wait_until(sig, SHMEM_CMP_GE, v); }
#endif

static const osu_bench_t kBench = {
    "osu_oshm_put_signal_lat", "OpenSHMEM Put-with-Signal Latency Test", OSU_METRIC_LATENCY,
    OSU_ACCEPT_SIZES, 1, (size_t)1 << 20, 10000, 1000, 1000, 100, 0};

int main(int argc, char** argv) {
  osu_opts_t o;
  int rc = 0;
  if (!osu_shmem_start(argc, argv, &kBench, &o, &rc)) return rc;
  int me = shmem_my_pe();
  char* src = (char*)osu_shmem_buffer(&o, o.max_size, 'a');
  char* dst = (char*)osu_shmem_buffer(&o, o.max_size, 'b');
  osu_sig_t* sig = (osu_sig_t*)osu_shmem_buffer(&o, sizeof(osu_sig_t), 0);
  osu_sig_t seq = 0; /* grows monotonically over the whole run on both PEs */
  osu_shmem_header(&kBench, &o, OSU_SIGNAL_MODE);
  for (size_t size = o.min_size; size; size = osu_next_size(&o, size)) {
    long iters = osu_iters(&kBench, &o, size);
    int nb = osu_batches(&o, iters);
    double us = 0;
    shmem_barrier_all();
    if (me == 0) {
      OSU_TIMED(osu_warmup(&kBench, &o, size), iters, nb, &us, {
        ++seq;
        put_signal(dst, src, size, sig, seq, 1);
        wait_signal(sig, seq);
      });
      osu_print_row(&o, size, us / 2.0);
    } else if (me == 1) {
      OSU_TIMED(osu_warmup(&kBench, &o, size), iters, nb, &us, {
        ++seq;
        wait_signal(sig, seq);
        put_signal(dst, src, size, sig, seq, 0);
      });
    }
    if (me < 2) {
      osu_shmem_check("put_signal", dst, 'a', size); /* the signal arrived, so the data must have too */
      memset(dst, 'b', size);
    }
  }
  shmem_barrier_all();
  osu_shmem_release(&o, sig);
  osu_shmem_release(&o, dst);
  osu_shmem_release(&o, src);
  shmem_finalize();
  return 0;
}
