// Public C API: atomic memory operations (AMO14/AMO12/BIT7, fetching _nbi forms) and distributed locks.
// Each routine is a thin forward to gshmem::ops::amo (core/ops.hpp). The _nbi forms complete on return and store
// the fetched value into *fetch.
#include "api/api_common.hpp"

using gshmem::AmoOp;
// The public calls reach the user range only (ops::Reach): the runtime's control area is not theirs.
namespace {
template <typename T, typename... A>
__attribute__((always_inline)) inline T amo(A... a) {
  return gshmem::ops::amo<T, gshmem::ops::Reach::User>(a...);
}
}  // namespace
#define GSHMEM_ZERO(T) static_cast<T>(0)  // `T{}` does not parse for multi-word types such as `long long`

extern "C" {

// ---- fetch, set, swap (+ _nbi): AMO14
#define GSHMEM_DEF_AMO_EXT(T, N)                                                                                      \
  GSHMEM_API2(T, N##_atomic_fetch, (const T* source, int pe),                                                         \
              amo<T>(call_, ctx_, AmoOp::Fetch, const_cast<T*>(source), GSHMEM_ZERO(T), GSHMEM_ZERO(T), pe))          \
  GSHMEM_API2(void, N##_atomic_set, (T * dest, T value, int pe),                                                      \
              (void)amo<T>(call_, ctx_, AmoOp::Set, dest, value, GSHMEM_ZERO(T), pe))                                 \
  GSHMEM_API2(T, N##_atomic_swap, (T * dest, T value, int pe),                                                        \
              amo<T>(call_, ctx_, AmoOp::Swap, dest, value, GSHMEM_ZERO(T), pe))                                      \
  GSHMEM_API2(                                                                                                        \
      void, N##_atomic_fetch_nbi, (T * fetch, const T* source, int pe),                                               \
      (void)(*fetch = amo<T>(call_, ctx_, AmoOp::Fetch, const_cast<T*>(source), GSHMEM_ZERO(T), GSHMEM_ZERO(T), pe))) \
  GSHMEM_API2(void, N##_atomic_swap_nbi, (T * fetch, T * dest, T value, int pe),                                      \
              (void)(*fetch = amo<T>(call_, ctx_, AmoOp::Swap, dest, value, GSHMEM_ZERO(T), pe)))
GSHMEM_AMO_STD_TYPES(GSHMEM_DEF_AMO_EXT)
GSHMEM_AMO_EXT_TYPES(GSHMEM_DEF_AMO_EXT)

// ---- compare_swap, inc, add (+ fetching and _nbi forms): AMO12
#define GSHMEM_DEF_AMO_STD(T, N)                                                                               \
  GSHMEM_API2(T, N##_atomic_compare_swap, (T * dest, T cond, T value, int pe),                                 \
              amo<T>(call_, ctx_, AmoOp::CompareSwap, dest, value, cond, pe))                                  \
  GSHMEM_API2(T, N##_atomic_fetch_inc, (T * dest, int pe),                                                     \
              amo<T>(call_, ctx_, AmoOp::FetchInc, dest, GSHMEM_ZERO(T), GSHMEM_ZERO(T), pe))                  \
  GSHMEM_API2(void, N##_atomic_inc, (T * dest, int pe),                                                        \
              (void)amo<T>(call_, ctx_, AmoOp::Inc, dest, GSHMEM_ZERO(T), GSHMEM_ZERO(T), pe))                 \
  GSHMEM_API2(T, N##_atomic_fetch_add, (T * dest, T value, int pe),                                            \
              amo<T>(call_, ctx_, AmoOp::FetchAdd, dest, value, GSHMEM_ZERO(T), pe))                           \
  GSHMEM_API2(void, N##_atomic_add, (T * dest, T value, int pe),                                               \
              (void)amo<T>(call_, ctx_, AmoOp::Add, dest, value, GSHMEM_ZERO(T), pe))                          \
  GSHMEM_API2(void, N##_atomic_compare_swap_nbi, (T * fetch, T * dest, T cond, T value, int pe),               \
              (void)(*fetch = amo<T>(call_, ctx_, AmoOp::CompareSwap, dest, value, cond, pe)))                 \
  GSHMEM_API2(void, N##_atomic_fetch_inc_nbi, (T * fetch, T * dest, int pe),                                   \
              (void)(*fetch = amo<T>(call_, ctx_, AmoOp::FetchInc, dest, GSHMEM_ZERO(T), GSHMEM_ZERO(T), pe))) \
  GSHMEM_API2(void, N##_atomic_fetch_add_nbi, (T * fetch, T * dest, T value, int pe),                          \
              (void)(*fetch = amo<T>(call_, ctx_, AmoOp::FetchAdd, dest, value, GSHMEM_ZERO(T), pe)))
GSHMEM_AMO_STD_TYPES(GSHMEM_DEF_AMO_STD)

// ---- and, or, xor (+ fetching and _nbi forms): BIT7
#define GSHMEM_DEF_AMO_BITOP(T, N, OP, FETCH, PLAIN)                                     \
  GSHMEM_API2(T, N##_atomic_fetch_##OP, (T * dest, T value, int pe),                     \
              amo<T>(call_, ctx_, AmoOp::FETCH, dest, value, GSHMEM_ZERO(T), pe))        \
  GSHMEM_API2(void, N##_atomic_##OP, (T * dest, T value, int pe),                        \
              (void)amo<T>(call_, ctx_, AmoOp::PLAIN, dest, value, GSHMEM_ZERO(T), pe))  \
  GSHMEM_API2(void, N##_atomic_fetch_##OP##_nbi, (T * fetch, T * dest, T value, int pe), \
              (void)(*fetch = amo<T>(call_, ctx_, AmoOp::FETCH, dest, value, GSHMEM_ZERO(T), pe)))
#define GSHMEM_DEF_AMO_BIT(T, N)                 \
  GSHMEM_DEF_AMO_BITOP(T, N, and, FetchAnd, And) \
  GSHMEM_DEF_AMO_BITOP(T, N, or, FetchOr, Or)    \
  GSHMEM_DEF_AMO_BITOP(T, N, xor, FetchXor, Xor)
GSHMEM_AMO_BIT_TYPES(GSHMEM_DEF_AMO_BIT)

// ---- distributed locks
void shmem_set_lock(long* lock) { gshmem::setLock("shmem_set_lock", lock); }
void shmem_clear_lock(long* lock) { gshmem::clearLock("shmem_clear_lock", lock); }
int shmem_test_lock(long* lock) { return gshmem::testLock("shmem_test_lock", lock); }

}  // extern "C"
