/* The OpenSHMEM 1.5 C API as real programs call it (the routines programs written for other implementations use) plus
 * the rest of the specification's typed and sized families: every routine is named here by address, so this file
 * compiles only if shmem.h declares each one with a prototype, and links only if libgshmem defines each one.
 * Running it (any number of PEs) checks that no address is null, that the count is what the tables below give,
 * and prints it. Typed families are stamped from the specification's type tables with X-macros. */
#include <shmem.h>
#include <stdio.h>

typedef void (*fn_t)(void);
#define REF(f) (fn_t) & f,

/* Type tables of the specification (TYPENAME only; the C type is not needed to take an address). */
#define RMA24(X)                                                                                                 \
  X(char) X(schar) X(short) X(int) X(long) X(longlong) X(uchar) X(ushort) X(uint) X(ulong) X(ulonglong) X(int8) \
  X(int16) X(int32) X(int64) X(uint8) X(uint16) X(uint32) X(uint64) X(size) X(ptrdiff) X(float) X(double)      \
  X(longdouble)
#define AMO_STD12(X) \
  X(int) X(long) X(longlong) X(uint) X(ulong) X(ulonglong) X(int32) X(int64) X(uint32) X(uint64) X(size) X(ptrdiff)
#define AMO_EXT14(X) AMO_STD12(X) X(float) X(double)
#define AMO_BIT7(X) X(uint) X(ulong) X(ulonglong) X(int32) X(int64) X(uint32) X(uint64)
#define SYNC14(X)                                                                                              \
  X(short) X(int) X(long) X(longlong) X(ushort) X(uint) X(ulong) X(ulonglong) X(int32) X(int64) X(uint32) \
  X(uint64) X(size) X(ptrdiff)
#define COLL_INT_REAL(X) /* max/min reductions: integer and real types */                                    \
  X(char) X(schar) X(short) X(int) X(long) X(longlong) X(ptrdiff) X(uchar) X(ushort) X(uint) X(ulong)        \
  X(ulonglong) X(int8) X(int16) X(int32) X(int64) X(uint8) X(uint16) X(uint32) X(uint64) X(size) X(float)    \
  X(double) X(longdouble)
#define COLL_ARITH(X) COLL_INT_REAL(X) X(complexf) X(complexd) /* sum/prod */
#define COLL_BIT14(X)                                                                                         \
  X(uchar) X(ushort) X(uint) X(ulong) X(ulonglong) X(int8) X(int16) X(int32) X(int64) X(uint8) X(uint16)  \
  X(uint32) X(uint64) X(size)
#define SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* RMA: 16 typed families (with and without ctx_), 4 untyped, sized. */
#define RMA_T(T)                                                                                               \
  REF(shmem_##T##_put) REF(shmem_##T##_get) REF(shmem_##T##_p) REF(shmem_##T##_g) REF(shmem_##T##_iput)       \
  REF(shmem_##T##_iget) REF(shmem_##T##_put_nbi) REF(shmem_##T##_get_nbi) REF(shmem_ctx_##T##_put)            \
  REF(shmem_ctx_##T##_get) REF(shmem_ctx_##T##_p) REF(shmem_ctx_##T##_g) REF(shmem_ctx_##T##_iput)            \
  REF(shmem_ctx_##T##_iget) REF(shmem_ctx_##T##_put_nbi) REF(shmem_ctx_##T##_get_nbi)                         \
  REF(shmem_##T##_put_signal) REF(shmem_##T##_put_signal_nbi) REF(shmem_ctx_##T##_put_signal)                 \
  REF(shmem_ctx_##T##_put_signal_nbi)
#define RMA_SIZED(N)                                                                                           \
  REF(shmem_put##N) REF(shmem_get##N) REF(shmem_iput##N) REF(shmem_iget##N) REF(shmem_put##N##_nbi)           \
  REF(shmem_get##N##_nbi) REF(shmem_ctx_put##N) REF(shmem_ctx_get##N) REF(shmem_ctx_iput##N)                  \
  REF(shmem_ctx_iget##N) REF(shmem_ctx_put##N##_nbi) REF(shmem_ctx_get##N##_nbi)
#define RMA_TYPED_N (24 * 20)
#define RMA_SIZED_N (5 * 12)

/* AMOs. */
#define AMO_EXT(T)                                                                                              \
  REF(shmem_##T##_atomic_fetch) REF(shmem_##T##_atomic_set) REF(shmem_##T##_atomic_swap)                       \
  REF(shmem_##T##_atomic_fetch_nbi) REF(shmem_##T##_atomic_swap_nbi) REF(shmem_ctx_##T##_atomic_fetch)         \
  REF(shmem_ctx_##T##_atomic_set) REF(shmem_ctx_##T##_atomic_swap) REF(shmem_ctx_##T##_atomic_fetch_nbi)       \
  REF(shmem_ctx_##T##_atomic_swap_nbi)
#define AMO_STD(T)                                                                                              \
  REF(shmem_##T##_atomic_add) REF(shmem_##T##_atomic_inc) REF(shmem_##T##_atomic_fetch_add)                    \
  REF(shmem_##T##_atomic_fetch_inc) REF(shmem_##T##_atomic_compare_swap) REF(shmem_##T##_atomic_fetch_add_nbi) \
  REF(shmem_##T##_atomic_fetch_inc_nbi) REF(shmem_##T##_atomic_compare_swap_nbi) REF(shmem_ctx_##T##_atomic_add) \
  REF(shmem_ctx_##T##_atomic_inc) REF(shmem_ctx_##T##_atomic_fetch_add) REF(shmem_ctx_##T##_atomic_fetch_inc)  \
  REF(shmem_ctx_##T##_atomic_compare_swap) REF(shmem_ctx_##T##_atomic_fetch_add_nbi)                           \
  REF(shmem_ctx_##T##_atomic_fetch_inc_nbi) REF(shmem_ctx_##T##_atomic_compare_swap_nbi)
#define AMO_BIT(T)                                                                                               \
  REF(shmem_##T##_atomic_and) REF(shmem_##T##_atomic_or) REF(shmem_##T##_atomic_xor)                            \
  REF(shmem_##T##_atomic_fetch_and) REF(shmem_##T##_atomic_fetch_or) REF(shmem_##T##_atomic_fetch_xor)          \
  REF(shmem_##T##_atomic_fetch_and_nbi) REF(shmem_##T##_atomic_fetch_or_nbi) REF(shmem_##T##_atomic_fetch_xor_nbi) \
  REF(shmem_ctx_##T##_atomic_and) REF(shmem_ctx_##T##_atomic_or) REF(shmem_ctx_##T##_atomic_xor)                \
  REF(shmem_ctx_##T##_atomic_fetch_and) REF(shmem_ctx_##T##_atomic_fetch_or)                                    \
  REF(shmem_ctx_##T##_atomic_fetch_xor) REF(shmem_ctx_##T##_atomic_fetch_and_nbi)                               \
  REF(shmem_ctx_##T##_atomic_fetch_or_nbi) REF(shmem_ctx_##T##_atomic_fetch_xor_nbi)
#define AMO_N (14 * 10 + 12 * 16 + 7 * 18)

/* Point-to-point synchronization. */
#define SYNC(T)                                                                                                 \
  REF(shmem_##T##_wait_until) REF(shmem_##T##_test) REF(shmem_##T##_wait_until_all) REF(shmem_##T##_wait_until_any) \
  REF(shmem_##T##_wait_until_some) REF(shmem_##T##_test_all) REF(shmem_##T##_test_any) REF(shmem_##T##_test_some) \
  REF(shmem_##T##_wait_until_all_vector) REF(shmem_##T##_wait_until_any_vector)                                 \
  REF(shmem_##T##_wait_until_some_vector) REF(shmem_##T##_test_all_vector) REF(shmem_##T##_test_any_vector)     \
  REF(shmem_##T##_test_some_vector)
#define SYNC_N (14 * 14)

/* Team-based collectives of 1.5. */
#define COLL_MOVE(T)                                                                                          \
  REF(shmem_##T##_broadcast) REF(shmem_##T##_collect) REF(shmem_##T##_fcollect) REF(shmem_##T##_alltoall)    \
  REF(shmem_##T##_alltoalls)
#define COLL_MINMAX(T) REF(shmem_##T##_max_reduce) REF(shmem_##T##_min_reduce)
#define COLL_SUMPROD(T) REF(shmem_##T##_sum_reduce) REF(shmem_##T##_prod_reduce)
#define COLL_BIT(T) REF(shmem_##T##_and_reduce) REF(shmem_##T##_or_reduce) REF(shmem_##T##_xor_reduce)
#define COLL_N (24 * 5 + 24 * 2 + 26 * 2 + 14 * 3)

static const fn_t kTyped[] = {RMA24(RMA_T) SIZES(RMA_SIZED) AMO_EXT14(AMO_EXT) AMO_STD12(AMO_STD) AMO_BIT7(AMO_BIT)
                                  SYNC14(SYNC) RMA24(COLL_MOVE) COLL_INT_REAL(COLL_MINMAX) COLL_ARITH(COLL_SUMPROD)
                                      COLL_BIT14(COLL_BIT)};

/* Everything else, named one by one. */
static const fn_t kNamed[] = {
    /* setup, query, memory */
    REF(shmem_init) REF(shmem_init_thread) REF(shmem_query_thread) REF(shmem_finalize) REF(shmem_global_exit)
    REF(shmem_my_pe) REF(shmem_n_pes) REF(shmem_info_get_name) REF(shmem_info_get_version) REF(shmem_pe_accessible)
    REF(shmem_addr_accessible) REF(shmem_ptr) REF(shmem_team_ptr) REF(shmem_team_my_pe) REF(shmem_team_n_pes)
    REF(shmem_malloc) REF(shmem_calloc) REF(shmem_realloc) REF(shmem_align) REF(shmem_free)
    REF(shmem_malloc_with_hints)
    /* untyped RMA and signals */
    REF(shmem_putmem) REF(shmem_getmem) REF(shmem_putmem_nbi) REF(shmem_getmem_nbi) REF(shmem_ctx_putmem)
    REF(shmem_ctx_getmem) REF(shmem_ctx_putmem_nbi) REF(shmem_ctx_getmem_nbi) REF(shmem_putmem_signal)
    REF(shmem_putmem_signal_nbi) REF(shmem_ctx_putmem_signal) REF(shmem_ctx_putmem_signal_nbi)
    REF(shmem_signal_fetch) REF(shmem_signal_wait_until)
    /* locks, ordering, barriers */
    REF(shmem_set_lock) REF(shmem_test_lock) REF(shmem_clear_lock) REF(shmem_quiet) REF(shmem_fence)
    REF(shmem_ctx_quiet) REF(shmem_ctx_fence) REF(shmem_barrier_all) REF(shmem_sync_all) REF(shmem_team_sync)
    /* teams and contexts */
    REF(shmem_team_split_strided) REF(shmem_team_split_2d) REF(shmem_team_translate_pe) REF(shmem_team_get_config)
    REF(shmem_team_create_ctx) REF(shmem_team_destroy) REF(shmem_ctx_create) REF(shmem_ctx_destroy)
    REF(shmem_ctx_get_team)
    /* untyped collectives */
    REF(shmem_broadcastmem) REF(shmem_collectmem) REF(shmem_fcollectmem) REF(shmem_alltoallmem)
    REF(shmem_alltoallsmem)
    /* deprecated, still in 1.5 and still called */
    REF(start_pes) REF(_my_pe) REF(_num_pes) REF(shmalloc) REF(shfree) REF(shmemalign) REF(shrealloc)
    REF(shmem_int_fadd) REF(shmem_int_finc) REF(shmem_int_add) REF(shmem_int_inc) REF(shmem_int_cswap)
    REF(shmem_int_swap) REF(shmem_int_fetch) REF(shmem_int_set) REF(shmem_longlong_fadd) REF(shmem_longlong_finc)
    REF(shmem_longlong_add) REF(shmem_longlong_inc) REF(shmem_longlong_cswap) REF(shmem_longlong_swap)
    REF(shmem_longlong_fetch) REF(shmem_longlong_set) REF(shmem_long_fadd) REF(shmem_long_finc)
    REF(shmem_long_cswap) REF(shmem_long_swap) REF(shmem_double_sum_to_all) REF(shmem_float_sum_to_all)
    REF(shmem_long_sum_to_all) REF(shmem_double_max_to_all) REF(shmem_int_max_to_all) REF(shmem_long_max_to_all)
    REF(shmem_double_min_to_all) REF(shmem_long_min_to_all) REF(shmem_int_or_to_all) REF(shmem_long_or_to_all)
    REF(shmem_long_and_to_all) REF(shmem_barrier) REF(shmem_broadcast32) REF(shmem_broadcast64)
    REF(shmem_collect32) REF(shmem_collect64) REF(shmem_fcollect32) REF(shmem_fcollect64) REF(shmem_alltoall32)
    REF(shmem_alltoall64)};

int main(void) {
  const size_t typed = sizeof kTyped / sizeof kTyped[0], named = sizeof kNamed / sizeof kNamed[0];
  const size_t want_typed = RMA_TYPED_N + RMA_SIZED_N + AMO_N + SYNC_N + COLL_N;
  size_t null = 0;
  for (size_t i = 0; i < typed; ++i) null += kTyped[i] == NULL;
  for (size_t i = 0; i < named; ++i) null += kNamed[i] == NULL;
  if (typed != want_typed || null != 0) {
    printf("api_surface: FAILED: %zu typed routines (tables give %zu), %zu null addresses\n", typed, want_typed, null);
    return 1;
  }
  printf("api_surface: %zu typed and %zu other routines declared and linked: SUCCESS\n", typed, named);
  return 0;
}
