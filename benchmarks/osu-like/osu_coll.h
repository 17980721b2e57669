/* The collective latency tests (osu_oshm_broadcast, _fcollect, _reduce, _alltoall): one driver, one small file per
 * collective. They call the active-set forms (shmem_broadcast64, shmem_fcollect64, shmem_long_sum_to_all,
 * shmem_alltoall64 with pSync/pWrk), which OpenSHMEM 1.4 libraries such as Open MPI's have too, so the same source
 * is measured against the peer; gshmem runs them on the engine of its 1.5 team collectives.
 *
 * Method (OSU's for its OpenSHMEM collectives): every PE times only its own call, the calls alternate between two
 * pSync arrays, and a barrier between iterations (not timed) keeps a fast PE from running ahead into the next call.
 * The row is the mean over PEs of each PE's mean latency, and the slowest PE's mean. After the timed loop of each
 * size, one more call is made on fresh data and every PE checks what it received; a mismatch ends the job. */
#ifndef GSHMEM_OSU_COLL_H
#define GSHMEM_OSU_COLL_H

#include <time.h>

#include "osu_shmem.h"

#define OSU_MAX2(a, b) ((a) > (b) ? (a) : (b))
#define OSU_SYNC_WORDS                                                                     \
  OSU_MAX2(OSU_MAX2(SHMEM_BCAST_SYNC_SIZE, SHMEM_COLLECT_SYNC_SIZE),                       \
           OSU_MAX2(SHMEM_REDUCE_SYNC_SIZE, OSU_MAX2(SHMEM_ALLTOALL_SYNC_SIZE, SHMEM_BARRIER_SYNC_SIZE)))

/* One collective: `src` holds `nelems` longs per PE (npes blocks of them for alltoall), `dst` receives. */
typedef struct {
  const char* mode;    /* the "# Mode" line */
  int dst_blocks;      /* dst holds this many blocks of nelems (npes: pass -1) */
  int src_blocks;      /* likewise for src */
  void (*run)(long* dst, const long* src, size_t nelems, int npes, long* psync, long* pwrk);
  /* The value element i of block b of dst must hold on PE me after the call, given that src element j of block c
   * on PE p was osu_coll_value(p, c, j). Returns 1 when the element is not checked (e.g. the root's dst). */
  long (*expect)(int me, int npes, int block, size_t i, size_t nelems, int* skip);
} osu_coll_t;

static long osu_psync[2][OSU_SYNC_WORDS];
static double osu_coll_times[1]; /* symmetric: each PE's mean latency, gathered on PE 0 */

static inline long osu_coll_value(int pe, int block, size_t i) { return (long)pe * 1000003L + block * 7919L + (long)i; }

static inline double osu_coll_now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static inline int osu_coll_main(int argc, char** argv, const osu_bench_t* bench, const osu_coll_t* coll) {
  osu_opts_t o;
  int rc = 0;
  if (!osu_shmem_start(argc, argv, bench, &o, &rc)) return rc;
  int me = shmem_my_pe(), npes = shmem_n_pes();
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < OSU_SYNC_WORDS; ++i) osu_psync[s][i] = SHMEM_SYNC_VALUE;
  int dblocks = coll->dst_blocks < 0 ? npes : coll->dst_blocks, sblocks = coll->src_blocks < 0 ? npes : coll->src_blocks;
  size_t maxn = o.max_size / sizeof(long);
  if (maxn == 0) maxn = 1;
  long* src = (long*)shmem_align(4096, maxn * sizeof(long) * (size_t)sblocks);
  long* dst = (long*)shmem_align(4096, maxn * sizeof(long) * (size_t)dblocks);
  size_t wrk = maxn / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? maxn / 2 + 1 : SHMEM_REDUCE_MIN_WRKDATA_SIZE;
  long* pwrk = (long*)shmem_malloc(wrk * sizeof(long));
  double* all = (double*)shmem_malloc((size_t)npes * sizeof(double));
  if (!src || !dst || !pwrk || !all) {
    if (me == 0) fprintf(stderr, "%s: cannot allocate %zu bytes of symmetric memory\n", bench->prog, o.max_size);
    shmem_global_exit(1);
  }
  if (me == 0) { /* osu_print_header's lines, with this method's iteration note and two value columns */
    char lib[256];
    osu_shmem_library(lib, sizeof(lib));
    printf("# OSU-like %s %s\n# Library: %s\n# Mode: %s\n", bench->title, OSU_LIKE_VERSION, lib, coll->mode);
    printf("# Memory: host; %d PEs; iterations: ", npes);
    if (o.iters > 0) printf("%ld", o.iters);
    else printf("%ld (<= %zu B) / %ld", bench->iters_small, OSU_LARGE_SIZE, bench->iters_large);
    printf("; mean call time per PE: average over PEs, and the slowest PE\n# Lower is better\n");
    printf("# %-8s%20s%20s\n", "Size", "Latency (us)", "Max Latency (us)");
    fflush(stdout);
  }
  for (size_t size = o.min_size < sizeof(long) ? sizeof(long) : o.min_size; size; size = osu_next_size(&o, size)) {
    size_t n = size / sizeof(long);
    long iters = osu_iters(bench, &o, size), warm = osu_warmup(bench, &o, size);
    for (int b = 0; b < sblocks; ++b)
      for (size_t i = 0; i < n; ++i) src[(size_t)b * n + i] = osu_coll_value(me, b, i);
    double total = 0;
    shmem_barrier_all();
    for (long it = 0; it < warm + iters; ++it) {
      double t0 = osu_coll_now_us();
      coll->run(dst, src, n, npes, osu_psync[it & 1], pwrk);
      double t1 = osu_coll_now_us();
      if (it >= warm) total += t1 - t0;
      shmem_barrier_all();
    }
    /* Check one call on a cleared destination. */
    memset(dst, 0, n * sizeof(long) * (size_t)dblocks);
    shmem_barrier_all();
    coll->run(dst, src, n, npes, osu_psync[(warm + iters) & 1], pwrk);
    shmem_barrier_all();
    long bad = 0;
    for (int b = 0; b < dblocks; ++b)
      for (size_t i = 0; i < n; ++i) {
        int skip = 0;
        long want = coll->expect(me, npes, b, i, n, &skip);
        if (!skip && dst[(size_t)b * n + i] != want && bad++ == 0)
          fprintf(stderr, "%s: PE %d: size %zu: block %d element %zu is %ld, expected %ld\n", bench->prog, me, size, b,
                  i, dst[(size_t)b * n + i], want);
      }
    if (bad) shmem_global_exit(1);
    osu_coll_times[0] = total / (double)iters;
    shmem_double_put(&all[me], osu_coll_times, 1, 0);
    shmem_barrier_all();
    if (me == 0) {
      double sum = 0, max = 0;
      for (int p = 0; p < npes; ++p) {
        sum += all[p];
        if (all[p] > max) max = all[p];
      }
      printf("%-10zu%20.*f%20.*f\n", size, o.precision, sum / npes, o.precision, max);
      fflush(stdout);
    }
    shmem_barrier_all();
  }
  shmem_free(all);
  shmem_free(pwrk);
  shmem_free(dst);
  shmem_free(src);
  shmem_finalize();
  return 0;
}

#endif
