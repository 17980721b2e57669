/* Collectives self-test: checks the values of every collective family through the public OpenSHMEM API.
 * Run with 2 and 4 PEs: mpirun -np 2 ./coll_selftest; mpirun -np 4 ./coll_selftest. Prints "coll_selftest: OK"
 * on PE 0 and exits 0 when every PE passed; otherwise prints the first failures and exits 1.
 * Covers: team broadcast/collect/fcollect/alltoall/alltoalls (typed and mem) on WORLD and on a strided sub-team;
 * teams not starting at PE 0; reductions of every operator on several types, small (mailbox, tree) and large
 * (reduce-scatter) sizes, in place and not, the same bits of an order-sensitive double sum on every member, complex sum/prod, the C11 generic names; the deprecated active-set forms on full and strided sets with
 * static and heap pSync arrays reused across many consecutive calls, and pSync restored afterwards. */
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>

static int me, npes, failures;

#define CHECK(cond, ...)                                                      \
  do {                                                                        \
    if (!(cond)) {                                                            \
      if (failures++ < 12) {                                                  \
        fprintf(stderr, "coll_selftest: PE %d: FAIL line %d: ", me, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                         \
        fputc('\n', stderr);                                                  \
      }                                                                       \
    }                                                                         \
  } while (0)

#define BUF_BYTES (1 << 20)
static char *bufA, *bufB, *bufC; /* symmetric scratch for every test */

/* Static pSync arrays (symmetric as global data) and one heap pSync per kind of use. */
static long psync_bar[SHMEM_BARRIER_SYNC_SIZE];
static long psync_red[2][SHMEM_REDUCE_SYNC_SIZE];
static long psync_col[SHMEM_COLLECT_SYNC_SIZE];
static long *psync_heap;
static double pwrk_d[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long slot[2];

/* ------------------------------------------------------------------------------------------- reductions */
#define F_ARITH(p, i) ((p) + 1 + (long)((i) % 5))
#define F_PROD(p, i) ((p) % 2 + 1 + (long)((i) % 2))
#define F_MM(p, i) (((p) * 7 + (long)(i)) % 11)
#define F_BIT(p, i) ((((long)(i) * 37) ^ ((p) * 0x55) ^ (1L << ((p) % 8))) & 0xFF)
#define C_SUM(a, b) ((a) + (b))
#define C_PROD(a, b) ((a) * (b))
#define C_MAX(a, b) ((b) > (a) ? (b) : (a))
#define C_MIN(a, b) ((b) < (a) ? (b) : (a))
#define C_AND(a, b) ((a) & (b))
#define C_OR(a, b) ((a) | (b))
#define C_XOR(a, b) ((a) ^ (b))

/* red_N_OP(team, nel, inplace): fill, reduce, compare with a local fold over the members in order. */
#define DEF_RED(T, N, OP, F, C)                                                                  \
  static void red_##N##_##OP(shmem_team_t team, size_t nel, int inplace) {                       \
    int tn = shmem_team_n_pes(team), ti = shmem_team_my_pe(team);                                 \
    T *src = (T *)bufA, *dst = inplace ? (T *)bufA : (T *)bufB;                                   \
    for (size_t i = 0; i < nel; i++) src[i] = (T)F(ti, i);                                        \
    int rc = shmem_##N##_##OP##_reduce(team, dst, src, nel);                                      \
    CHECK(rc == 0, #N "_" #OP "_reduce returned %d", rc);                                         \
    for (size_t i = 0; i < nel; i++) {                                                            \
      T e = (T)F(0, i);                                                                           \
      for (int p = 1; p < tn; p++) e = (T)C(e, (T)F(p, i));                                       \
      if (dst[i] != e) {                                                                          \
        CHECK(0, #N "_" #OP "_reduce nel %zu inplace %d: [%zu] wrong", nel, inplace, i);         \
        break;                                                                                    \
      }                                                                                           \
    }                                                                                             \
  }
DEF_RED(int, int, sum, F_ARITH, C_SUM)
DEF_RED(long, long, prod, F_PROD, C_PROD)
DEF_RED(double, double, sum, F_ARITH, C_SUM)
DEF_RED(float, float, prod, F_PROD, C_PROD)
DEF_RED(long double, longdouble, sum, F_ARITH, C_SUM)
DEF_RED(signed char, schar, sum, F_ARITH, C_SUM)
DEF_RED(size_t, size, sum, F_ARITH, C_SUM)
DEF_RED(int, int, max, F_MM, C_MAX)
DEF_RED(short, short, min, F_MM, C_MIN)
DEF_RED(double, double, max, F_MM, C_MAX)
DEF_RED(long double, longdouble, min, F_MM, C_MIN)
DEF_RED(ptrdiff_t, ptrdiff, max, F_MM, C_MAX)
DEF_RED(unsigned char, uchar, and, F_BIT, C_AND)
DEF_RED(uint32_t, uint32, or, F_BIT, C_OR)
DEF_RED(uint64_t, uint64, xor, F_BIT, C_XOR)
DEF_RED(size_t, size, and, F_BIT, C_AND)
DEF_RED(int16_t, int16, xor, F_BIT, C_XOR)
#define F_CPX(p, i) ((double)((p) + 1) + (double)((i) % 3) * I)
#define F_CPXP(p, i) ((double)((p) % 2 + 1) + (double)((i) % 2) * I)
DEF_RED(double _Complex, complexd, sum, F_CPX, C_SUM)
DEF_RED(float _Complex, complexf, prod, F_CPXP, C_PROD)

/* nsizes 5: every size; 3: the small ones (mailbox and tree) only */
static void test_reductions(shmem_team_t team, int nsizes) {
  static const size_t sizes[] = {1, 37, 500, 3000, 20000};
  for (int s = 0; s < nsizes; s++)
    for (int inplace = 0; inplace < 2; inplace++) {
      size_t n = sizes[s];
      red_int_sum(team, n, inplace);
      red_long_prod(team, n, inplace);
      red_double_sum(team, n, inplace);
      red_float_prod(team, n, inplace);
      red_longdouble_sum(team, n, inplace);
      red_schar_sum(team, n, inplace);
      red_size_sum(team, n, inplace);
      red_int_max(team, n, inplace);
      red_short_min(team, n, inplace);
      red_double_max(team, n, inplace);
      red_longdouble_min(team, n, inplace);
      red_ptrdiff_max(team, n, inplace);
      red_uchar_and(team, n, inplace);
      red_uint32_or(team, n, inplace);
      red_uint64_xor(team, n, inplace);
      red_size_and(team, n, inplace);
      red_int16_xor(team, n, inplace);
      red_complexd_sum(team, n, inplace);
      red_complexf_prod(team, n, inplace);
    }
}

/* Floating-point sums whose value depends on the order of the additions: every member must get the same bits
 * (the reduction order is the library's, but one order for all). Compared with member 0's result, broadcast. */
static void test_bitwise(shmem_team_t team) {
  int tn = shmem_team_n_pes(team), ti = shmem_team_my_pe(team);
  for (size_t n = 1; n <= 700; n += 233) {
    double *src = (double *)bufA, *dst = (double *)bufB, *ref = (double *)bufC;
    for (size_t i = 0; i < n; i++) src[i] = (ti % 3 == 0 ? 1e16 : 0.7) * (ti % 2 ? -1.0 : 1.0) + 0.1 * (double)(i + ti);
    CHECK(shmem_double_sum_reduce(team, dst, src, n) == 0, "double_sum_reduce rc");
    CHECK(shmem_double_broadcast(team, ref, dst, n, tn - 1) == 0, "double_broadcast rc");
    if (ti != tn - 1) CHECK(memcmp(ref, dst, n * sizeof(double)) == 0, "double_sum_reduce n %zu: bits differ", n);
  }
}

/* ------------------------------------------------------------------------------------- data movement */
static void test_data_movement(shmem_team_t team, int with_collect) {
  int tn = shmem_team_n_pes(team), ti = shmem_team_my_pe(team);
  for (int root = 0; root < tn; root++) {
    for (size_t n = 1; n <= 9000; n *= 30) {
      long *src = (long *)bufA, *dst = (long *)bufB;
      for (size_t i = 0; i < n; i++) src[i] = ti == root ? (long)(i * 3 + root) : -1, dst[i] = -7;
      CHECK(shmem_long_broadcast(team, dst, src, n, root) == 0, "long_broadcast rc");
      for (size_t i = 0; i < n; i++)
        if (dst[i] != (long)(i * 3 + root)) {
          CHECK(0, "long_broadcast root %d n %zu [%zu] = %ld", root, n, i, dst[i]);
          break;
        }
    }
    memset(bufB, 0, 64);
    if (ti == root) memcpy(bufA, "broadcastmem!", 14);
    shmem_broadcastmem(team, bufB, bufA, 14, root);
    CHECK(memcmp(bufB, "broadcastmem!", 14) == 0, "broadcastmem root %d", root);
  }
  /* fcollect: 5 ints per member */
  for (int rep = 0; rep < 3; rep++) {
    int *src = (int *)bufA, *dst = (int *)bufB;
    for (int i = 0; i < 5; i++) src[i] = ti * 100 + i + rep;
    shmem_int_fcollect(team, dst, src, 5);
    for (int p = 0; p < tn; p++)
      for (int i = 0; i < 5; i++) CHECK(dst[p * 5 + i] == p * 100 + i + rep, "int_fcollect [%d][%d]", p, i);
  }
  shmem_fcollectmem(team, bufB, bufA, 0); /* nelems 0 is a no-op */
  if (with_collect) {
    /* collect: member p contributes p+1 doubles (and one member nothing) */
    for (int rep = 0; rep < 3; rep++) {
      double *src = (double *)bufA, *dst = (double *)bufB;
      size_t mine = (ti == 1) ? 0 : (size_t)ti + 1 + rep;
      for (size_t i = 0; i < mine; i++) src[i] = ti * 1000.0 + (double)i;
      shmem_double_collect(team, dst, src, mine);
      size_t k = 0;
      for (int p = 0; p < tn; p++) {
        size_t cnt = (p == 1) ? 0 : (size_t)p + 1 + rep;
        for (size_t i = 0; i < cnt; i++, k++)
          CHECK(dst[k] == p * 1000.0 + (double)i, "double_collect [%d][%zu] = %g", p, i, dst[k]);
      }
    }
    shmem_collectmem(team, bufB, bufA, 0);
  }
  /* alltoall: 3 elements per pair */
  {
    int64_t *src = (int64_t *)bufA, *dst = (int64_t *)bufB;
    for (int p = 0; p < tn; p++)
      for (int i = 0; i < 3; i++) src[p * 3 + i] = ti * 10000 + p * 10 + i;
    shmem_int64_alltoall(team, dst, src, 3);
    for (int p = 0; p < tn; p++)
      for (int i = 0; i < 3; i++) CHECK(dst[p * 3 + i] == p * 10000 + ti * 10 + i, "int64_alltoall [%d][%d]", p, i);
  }
  /* alltoalls: 4 elements per pair, dst stride 2, sst 3 */
  {
    int *src = (int *)bufA, *dst = (int *)bufB;
    memset(dst, 0xff, (size_t)tn * 4 * 2 * sizeof(int));
    for (int p = 0; p < tn; p++)
      for (int i = 0; i < 4; i++) src[(p * 4 + i) * 3] = ti * 1000 + p * 10 + i;
    shmem_int_alltoalls(team, dst, src, 2, 3, 4);
    for (int p = 0; p < tn; p++)
      for (int i = 0; i < 4; i++) {
        CHECK(dst[(p * 4 + i) * 2] == p * 1000 + ti * 10 + i, "int_alltoalls [%d][%d]", p, i);
        CHECK(dst[(p * 4 + i) * 2 + 1] == -1, "int_alltoalls wrote a gap at [%d][%d]", p, i);
      }
    shmem_alltoallmem(team, bufB, bufA, 16);
  }
}

/* C11 generic names */
static void test_generic(void) {
  long *l = (long *)bufA, *ld = (long *)bufB;
  l[0] = me + 1;
  shmem_sum_reduce(SHMEM_TEAM_WORLD, ld, l, 1);
  CHECK(ld[0] == (long)npes * (npes + 1) / 2, "generic sum_reduce %ld", ld[0]);
  double *d = (double *)bufA, *dd = (double *)bufB;
  d[0] = me;
  shmem_max_reduce(SHMEM_TEAM_WORLD, dd, d, 1);
  CHECK(dd[0] == npes - 1, "generic max_reduce %g", dd[0]);
  unsigned *u = (unsigned *)bufA;
  u[0] = 1u << me;
  shmem_or_reduce(SHMEM_TEAM_WORLD, u, u, 1);
  CHECK(u[0] == (1u << npes) - 1, "generic or_reduce in place %u", u[0]);
  int *b = (int *)bufA, *bd = (int *)bufB;
  b[0] = 42 + me;
  shmem_broadcast(SHMEM_TEAM_WORLD, bd, b, 1, npes - 1);
  CHECK(bd[0] == 42 + npes - 1, "generic broadcast %d", bd[0]);
}

/* ---------------------------------------------------------------------------------- deprecated active sets */
static void test_active_set(int start, int logstride, int size, long *ps, long *ps2) {
  int stride = 1 << logstride;
  int idx = (me - start) / stride;
  if (me < start || (me - start) % stride || idx >= size) return;

  /* barrier: many consecutive barriers on one pSync, each checked for completion of a put before it */
  int right = start + ((idx + 1) % size) * stride, left_idx = (idx + size - 1) % size;
  for (long it = 0; it < 2000; it++) {
    shmem_long_p(&slot[it % 2], it * 1024 + idx, right);
    shmem_barrier(start, logstride, size, ps);
    CHECK(slot[it % 2] == it * 1024 + left_idx, "barrier iteration %ld: slot %ld", it, slot[it % 2]);
    if (failures) break;
  }
  /* broadcast32/64: root's dest untouched. The active-set contract: before any member calls, every member's dest
   * is ready (here: checked and cleared), so a barrier separates the calls that reuse dest; pSync is reused. */
  for (int rep = 0; rep < 20; rep++) {
    int root = rep % size;
    int32_t *s32 = (int32_t *)bufA, *d32 = (int32_t *)bufB;
    for (int i = 0; i < 11; i++) s32[i] = idx == root ? rep * 100 + i : -1, d32[i] = -5;
    shmem_barrier(start, logstride, size, ps);
    shmem_broadcast32(d32, s32, 11, root, start, logstride, size, ps);
    for (int i = 0; i < 11; i++)
      CHECK(d32[i] == (idx == root ? -5 : rep * 100 + i), "broadcast32 rep %d [%d] = %d", rep, i, d32[i]);
    int64_t *s64 = (int64_t *)bufA, *d64 = (int64_t *)bufB;
    for (int i = 0; i < 5000; i++) s64[i] = idx == root ? rep * 100000 + i : -1, d64[i] = -5;
    shmem_barrier(start, logstride, size, ps);
    shmem_broadcast64(d64, s64, 5000, root, start, logstride, size, ps);
    for (int i = 0; i < 5000; i++)
      if (d64[i] != (idx == root ? -5 : rep * 100000 + i)) {
        CHECK(0, "broadcast64 rep %d [%d]", rep, i);
        break;
      }
  }
  /* collect32/64 (chain offsets), fcollect32/64, many times on one pSync */
  for (int rep = 0; rep < 50; rep++) {
    int32_t *s = (int32_t *)bufA, *d = (int32_t *)bufB;
    int cnt = (idx + rep) % 3;
    for (int i = 0; i < cnt; i++) s[i] = idx * 100 + i + rep;
    shmem_barrier(start, logstride, size, ps);
    shmem_collect32(d, s, (size_t)cnt, start, logstride, size, ps);
    int k = 0;
    for (int p = 0; p < size; p++)
      for (int i = 0; i < (p + rep) % 3; i++, k++) CHECK(d[k] == p * 100 + i + rep, "collect32 rep %d [%d][%d]", rep, p, i);
    int64_t *s64 = (int64_t *)bufA, *d64 = (int64_t *)bufB;
    s64[0] = idx + rep;
    s64[1] = -idx;
    shmem_barrier(start, logstride, size, ps);
    shmem_fcollect64(d64, s64, 2, start, logstride, size, ps);
    for (int p = 0; p < size; p++) CHECK(d64[2 * p] == p + rep && d64[2 * p + 1] == -p, "fcollect64 rep %d [%d]", rep, p);
    shmem_barrier(start, logstride, size, ps);
    shmem_collect64(d64, s64, 1, start, logstride, size, ps);
    for (int p = 0; p < size; p++) CHECK(d64[p] == p + rep, "collect64 rep %d [%d]", rep, p);
    shmem_fcollect32(d, s, 0, start, logstride, size, ps);
  }
  /* alltoall32/64, alltoalls32/64 */
  {
    int32_t *s = (int32_t *)bufA, *d = (int32_t *)bufB;
    for (int p = 0; p < size; p++) s[p] = idx * 10 + p;
    shmem_barrier(start, logstride, size, ps);
    shmem_alltoall32(d, s, 1, start, logstride, size, ps);
    for (int p = 0; p < size; p++) CHECK(d[p] == p * 10 + idx, "alltoall32 [%d]", p);
    int64_t *s64 = (int64_t *)bufA, *d64 = (int64_t *)bufB;
    for (int p = 0; p < size; p++) s64[2 * p] = idx * 10 + p, s64[2 * p + 1] = 99;
    shmem_barrier(start, logstride, size, ps);
    shmem_alltoall64(d64, s64, 2, start, logstride, size, ps);
    for (int p = 0; p < size; p++) CHECK(d64[2 * p] == p * 10 + idx && d64[2 * p + 1] == 99, "alltoall64 [%d]", p);
    for (int p = 0; p < size; p++) s64[2 * p] = idx * 10 + p;
    shmem_barrier(start, logstride, size, ps);
    shmem_alltoalls64(d64, s64, 1, 2, 1, start, logstride, size, ps);
    for (int p = 0; p < size; p++) CHECK(d64[p] == p * 10 + idx, "alltoalls64 [%d]", p);
    for (int p = 0; p < size; p++) s[p] = idx * 10 + p;
    shmem_barrier(start, logstride, size, ps);
    shmem_alltoalls32(d, s, 2, 1, 1, start, logstride, size, ps);
    for (int p = 0; p < size; p++) CHECK(d[2 * p] == p * 10 + idx, "alltoalls32 [%d]", p);
  }
  /* *_to_all: alternate two pSync arrays, as the 1.4 spec suggests, and also reuse one back to back */
  for (int rep = 0; rep < 40; rep++) {
    long *pr = (rep % 4 < 2) ? ps : ps2;
    size_t n = (rep % 2) ? 2500 : 7;
    double *src = (double *)bufA, *dst = (double *)bufC;
    for (size_t i = 0; i < n; i++) src[i] = idx + (double)(i % 13) + rep;
    shmem_double_sum_to_all(dst, src, (int)n, start, logstride, size, pwrk_d, pr);
    for (size_t i = 0; i < n; i++) {
      double e = 0;
      for (int p = 0; p < size; p++) e += p + (double)(i % 13) + rep;
      if (dst[i] != e) {
        CHECK(0, "double_sum_to_all rep %d [%zu] = %g (want %g)", rep, i, dst[i], e);
        break;
      }
    }
    int *is = (int *)bufA;
    for (size_t i = 0; i < n; i++) is[i] = (int)((idx * 7 + i) % 11);
    shmem_int_max_to_all(is, is, (int)n, start, logstride, size, (int *)pwrk_d, pr); /* in place */
    for (size_t i = 0; i < n; i++) {
      int e = 0;
      for (int p = 0; p < size; p++) e = C_MAX(e, (int)((p * 7 + i) % 11));
      if (is[i] != e) {
        CHECK(0, "int_max_to_all in place rep %d [%zu]", rep, i);
        break;
      }
    }
    long *ls = (long *)bufA, *ldst = (long *)bufC;
    for (size_t i = 0; i < n; i++) ls[i] = F_BIT(idx, i);
    shmem_long_xor_to_all(ldst, ls, (int)n, start, logstride, size, (long *)pwrk_d, pr);
    long e0 = 0;
    for (int p = 0; p < size; p++) e0 ^= F_BIT(p, 0);
    CHECK(ldst[0] == e0, "long_xor_to_all rep %d", rep);
    float _Complex *cs = (float _Complex *)bufA, *cd = (float _Complex *)bufC;
    cs[0] = (float)(idx + 1) + 1.0f * I;
    shmem_complexf_sum_to_all(cd, cs, 1, start, logstride, size, (float _Complex *)pwrk_d, pr);
    CHECK(cd[0] == (float)(size * (size + 1) / 2) + (float)size * I, "complexf_sum_to_all rep %d", rep);
  }
  shmem_barrier(start, logstride, size, ps);
}

static void check_psync_restored(const long *ps, int n, const char *what) {
  for (int i = 0; i < n; i++) CHECK(ps[i] == SHMEM_SYNC_VALUE, "%s[%d] = %ld after use", what, i, ps[i]);
}

int main(void) {
  shmem_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  bufA = shmem_malloc(BUF_BYTES);
  bufB = shmem_malloc(BUF_BYTES);
  bufC = shmem_malloc(BUF_BYTES);
  psync_heap = shmem_malloc(SHMEM_SYNC_SIZE * sizeof(long));
  for (int i = 0; i < SHMEM_SYNC_SIZE; i++) psync_heap[i] = SHMEM_SYNC_VALUE;
  for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++) psync_bar[i] = SHMEM_SYNC_VALUE;
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) psync_red[0][i] = psync_red[1][i] = SHMEM_SYNC_VALUE;
  for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++) psync_col[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();

  /* team-based on WORLD */
  test_reductions(SHMEM_TEAM_WORLD, 5);
  test_data_movement(SHMEM_TEAM_WORLD, 1);
  test_generic();

  /* team-based on a strided sub-team: even PEs */
  shmem_team_t even = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even);
  if (even != SHMEM_TEAM_INVALID) {
    test_reductions(even, 5);
    /* collect on a sub-team of more than one PE waits for per-team scratch from the core */
    test_data_movement(even, shmem_team_n_pes(even) == 1);
  }
  shmem_barrier_all();
  if (even != SHMEM_TEAM_INVALID) shmem_team_destroy(even);

  /* teams not starting at PE 0: every PE but 0, and PEs 1, 4, 7, ... (with several nodes: nodes of different
   * sizes, and node counts that are not powers of two) */
  test_bitwise(SHMEM_TEAM_WORLD);
  for (int t = 0; t < 2 && npes >= 3; t++) {
    shmem_team_t sub = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, t ? 3 : 1, t ? (npes + 1) / 3 : npes - 1, NULL, 0, &sub);
    if (sub != SHMEM_TEAM_INVALID) {
      test_reductions(sub, 3);
      test_bitwise(sub);
      test_data_movement(sub, shmem_team_n_pes(sub) == 1);
    }
    shmem_barrier_all();
    if (sub != SHMEM_TEAM_INVALID) shmem_team_destroy(sub);
  }

  /* deprecated active sets: the whole world, with the static pSync */
  test_active_set(0, 0, npes, psync_bar, psync_red[1]);
  shmem_barrier_all(); /* the tests below share `slot` and buffers with other sets */
  /* even and odd PEs concurrently, each with its own pSync */
  if (npes >= 2) {
    if (me % 2 == 0) test_active_set(0, 1, (npes + 1) / 2, psync_col, psync_red[0]);
    else test_active_set(1, 1, npes / 2, psync_heap, psync_red[0]);
  }
  shmem_barrier_all();
  /* a set not starting at 0 */
  if (npes >= 3) test_active_set(1, 0, npes - 1, psync_heap, psync_red[1]);
  shmem_barrier_all();
  check_psync_restored(psync_bar, SHMEM_BARRIER_SYNC_SIZE, "psync_bar");
  check_psync_restored(psync_red[0], SHMEM_REDUCE_SYNC_SIZE, "psync_red0");
  check_psync_restored(psync_red[1], SHMEM_REDUCE_SYNC_SIZE, "psync_red1");
  check_psync_restored(psync_col, SHMEM_COLLECT_SYNC_SIZE, "psync_col");
  check_psync_restored(psync_heap, SHMEM_SYNC_SIZE, "psync_heap");

  /* verdict: every PE's failure count, summed */
  int *fails = (int *)bufA, *total = (int *)bufB;
  fails[0] = failures;
  shmem_int_sum_reduce(SHMEM_TEAM_WORLD, total, fails, 1);
  int ok = total[0] == 0;
  if (me == 0) printf(ok ? "coll_selftest: OK (%d PEs)\n" : "coll_selftest: FAILED (%d PEs)\n", npes);
  shmem_free(psync_heap);
  shmem_free(bufC);
  shmem_free(bufB);
  shmem_free(bufA);
  shmem_finalize();
  return ok ? 0 : 1;
}
