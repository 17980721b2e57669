/* Atomic memory operations: latency and rate of every OpenSHMEM AMO on 32-bit and 64-bit integers,
 * PE 0 -> PE 1. Rows are named after the OpenSHMEM type actually called, <type>_<op>:
 *   32-bit: int_{fetch,set,compare_swap,swap,fetch_inc,inc,fetch_add,add} and
 *           int32_{fetch_and,fetch_or,fetch_xor,and,or,xor} (bitwise AMOs exist only for fixed-width types);
 *   64-bit: long_* (long is 64-bit on LP64; OpenSHMEM 1.4 has no int64 standard AMOs) and int64_* bitwise.
 *   Latency: one operation per iteration; fetching ops block for their value, non-fetching ops are
 *            followed by shmem_quiet (so both columns measure completed operations).
 *   Rate:    windows of W back-to-back operations, one shmem_quiet per window (ops per second).
 * --skip a,b leaves rows out (Open MPI 4.1.4's 32-bit compare_swap crashes: --skip int_compare_swap). */
#include "osu_shmem.h"

_Static_assert(sizeof(long) == 8, "64-bit rows assume an LP64 long");

static const osu_bench_t kBench = {"osu_oshm_atomics", "OpenSHMEM Atomic Operations Test", OSU_METRIC_ATOMIC,
                                   OSU_ACCEPT_SKIP | OSU_ACCEPT_WINDOW, 1, 1, 10000, 10000, 1000, 1000, 64};

enum { OP_FETCH, OP_SET, OP_CSWAP, OP_SWAP, OP_FINC, OP_INC, OP_FADD, OP_ADD,
       OP_FAND, OP_FOR, OP_FXOR, OP_AND, OP_OR, OP_XOR, OP_COUNT };
static const char* const kOpName[OP_COUNT] = {"fetch",     "set",     "compare_swap", "swap",      "fetch_inc",
                                              "inc",       "fetch_add", "add",        "fetch_and", "fetch_or",
                                              "fetch_xor", "and",     "or",           "xor"};

static volatile long long g_sink;

/* Run `n` operations; quiet after each one when `q` (ignored by fetching ops, which complete anyway). */
#define LOOP_FETCH(expr)                       \
  do {                                         \
    long long s_ = 0;                          \
    for (long k = 0; k < n; ++k) s_ += (expr); \
    g_sink += s_;                              \
  } while (0)
#define LOOP_NOFETCH(stmt)            \
  do {                                \
    for (long k = 0; k < n; ++k) {    \
      stmt;                           \
      if (q) shmem_quiet();           \
    }                                 \
  } while (0)

static void run32(int op, long n, int q, int* t, int32_t* tb) {
  const int pe = 1;
  switch (op) {
    case OP_FETCH: LOOP_FETCH(shmem_int_atomic_fetch(t, pe)); break;
    case OP_SET: LOOP_NOFETCH(shmem_int_atomic_set(t, 0, pe)); break;
    case OP_CSWAP: LOOP_FETCH(shmem_int_atomic_compare_swap(t, 0, 0, pe)); break;
    case OP_SWAP: LOOP_FETCH(shmem_int_atomic_swap(t, 0, pe)); break;
    case OP_FINC: LOOP_FETCH(shmem_int_atomic_fetch_inc(t, pe)); break;
    case OP_INC: LOOP_NOFETCH(shmem_int_atomic_inc(t, pe)); break;
    case OP_FADD: LOOP_FETCH(shmem_int_atomic_fetch_add(t, 1, pe)); break;
    case OP_ADD: LOOP_NOFETCH(shmem_int_atomic_add(t, 1, pe)); break;
    case OP_FAND: LOOP_FETCH(shmem_int32_atomic_fetch_and(tb, 0x7fffffff, pe)); break;
    case OP_FOR: LOOP_FETCH(shmem_int32_atomic_fetch_or(tb, 1, pe)); break;
    case OP_FXOR: LOOP_FETCH(shmem_int32_atomic_fetch_xor(tb, 1, pe)); break;
    case OP_AND: LOOP_NOFETCH(shmem_int32_atomic_and(tb, 0x7fffffff, pe)); break;
    case OP_OR: LOOP_NOFETCH(shmem_int32_atomic_or(tb, 1, pe)); break;
    case OP_XOR: LOOP_NOFETCH(shmem_int32_atomic_xor(tb, 1, pe)); break;
  }
}

static void run64(int op, long n, int q, long* t, int64_t* tb) {
  const int pe = 1;
  switch (op) {
    case OP_FETCH: LOOP_FETCH(shmem_long_atomic_fetch(t, pe)); break;
    case OP_SET: LOOP_NOFETCH(shmem_long_atomic_set(t, 0, pe)); break;
    case OP_CSWAP: LOOP_FETCH(shmem_long_atomic_compare_swap(t, 0, 0, pe)); break;
    case OP_SWAP: LOOP_FETCH(shmem_long_atomic_swap(t, 0, pe)); break;
    case OP_FINC: LOOP_FETCH(shmem_long_atomic_fetch_inc(t, pe)); break;
    case OP_INC: LOOP_NOFETCH(shmem_long_atomic_inc(t, pe)); break;
    case OP_FADD: LOOP_FETCH(shmem_long_atomic_fetch_add(t, 1, pe)); break;
    case OP_ADD: LOOP_NOFETCH(shmem_long_atomic_add(t, 1, pe)); break;
    case OP_FAND: LOOP_FETCH(shmem_int64_atomic_fetch_and(tb, 0x7fffffffffffffffLL, pe)); break;
    case OP_FOR: LOOP_FETCH(shmem_int64_atomic_fetch_or(tb, 1, pe)); break;
    case OP_FXOR: LOOP_FETCH(shmem_int64_atomic_fetch_xor(tb, 1, pe)); break;
    case OP_AND: LOOP_NOFETCH(shmem_int64_atomic_and(tb, 0x7fffffffffffffffLL, pe)); break;
    case OP_OR: LOOP_NOFETCH(shmem_int64_atomic_or(tb, 1, pe)); break;
    case OP_XOR: LOOP_NOFETCH(shmem_int64_atomic_xor(tb, 1, pe)); break;
  }
}

typedef struct {
  int* i;
  int32_t* i32;
  long* l;
  int64_t* i64;
} targets_t;

static void run(int wide, int op, long n, int q, const targets_t* t) {
  if (wide) run64(op, n, q, t->l, t->i64);
  else run32(op, n, q, t->i, t->i32);
}

static int is_bitwise(int op) { return op >= OP_FAND; }

int main(int argc, char** argv) {
  osu_opts_t o;
  int rc = 0;
  if (!osu_shmem_start(argc, argv, &kBench, &o, &rc)) return rc;
  int me = shmem_my_pe();
  targets_t t;
  t.i = (int*)osu_shmem_buffer(&o, sizeof(int), 0);
  t.i32 = (int32_t*)osu_shmem_buffer(&o, sizeof(int32_t), 0);
  t.l = (long*)osu_shmem_buffer(&o, sizeof(long), 0);
  t.i64 = (int64_t*)osu_shmem_buffer(&o, sizeof(int64_t), 0);
  osu_shmem_header(&kBench, &o,
                   "latency: one op per iteration (non-fetching ops + shmem_quiet); rate: W ops + one quiet");
  const long iters = osu_iters(&kBench, &o, 8), warm = osu_warmup(&kBench, &o, 8);
  const int nb = osu_batches(&o, iters);
  const long per = iters / nb;
  double tl[1000], tr[1000];
  for (int wide = 0; wide < 2; ++wide) {
    for (int op = 0; op < OP_COUNT; ++op) {
      char name[64];
      const char* type = wide ? (is_bitwise(op) ? "int64" : "long") : (is_bitwise(op) ? "int32" : "int");
      snprintf(name, sizeof(name), "%s_%s", type, kOpName[op]);
      if (osu_skipped(&o, name)) continue; /* same decision on every PE */
      shmem_barrier_all();
      if (me == 0) {
        run(wide, op, warm, 1, &t);
        for (int b = 0; b < nb; ++b) {
          double t0 = osu_now_us();
          run(wide, op, per, 1, &t);
          tl[b] = (osu_now_us() - t0) / (double)per;
        }
        long wins = per / o.window > 0 ? per / o.window : 1;
        for (int b = 0; b < nb; ++b) {
          double t0 = osu_now_us();
          for (long k = 0; k < wins; ++k) {
            run(wide, op, o.window, 0, &t);
            shmem_quiet();
          }
          tr[b] = (osu_now_us() - t0) / (double)(wins * o.window);
        }
        osu_print_named_row(&o, name, osu_median(tl, nb), osu_rate(1.0, osu_median(tr, nb)));
      }
    }
  }
  shmem_barrier_all();
  osu_shmem_release(&o, t.i64);
  osu_shmem_release(&o, t.l);
  osu_shmem_release(&o, t.i32);
  osu_shmem_release(&o, t.i);
  shmem_finalize();
  return 0;
}
