/* gshmem OpenSHMEM 1.5 C API: atomic memory operations and distributed locks.
 * Part of <shmem.h>; include that instead.
 * Every AMO exists with and without a leading `shmem_ctx_t ctx`. AMOs are atomic with respect to each other
 * on the same type. The _nbi forms store the fetched value into *fetch (complete by shmem_quiet). */
#ifndef GSHMEM_C_AMO_H
#define GSHMEM_C_AMO_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- fetch, set, swap: AMO14 (standard + extended types) */
#define GSHMEM_DECL_AMO_EXT(T, N)                                                       \
  GSHMEM_DECL2(T, N##_atomic_fetch, const T *source, int pe)                           \
  GSHMEM_DECL2(void, N##_atomic_set, T *dest, T value, int pe)                         \
  GSHMEM_DECL2(T, N##_atomic_swap, T *dest, T value, int pe)                           \
  GSHMEM_DECL2(void, N##_atomic_fetch_nbi, T *fetch, const T *source, int pe)          \
  GSHMEM_DECL2(void, N##_atomic_swap_nbi, T *fetch, T *dest, T value, int pe)
GSHMEM_AMO_STD_TYPES(GSHMEM_DECL_AMO_EXT)
GSHMEM_AMO_EXT_TYPES(GSHMEM_DECL_AMO_EXT)
#undef GSHMEM_DECL_AMO_EXT

/* ---- arithmetic and compare-and-swap: AMO12 */
#define GSHMEM_DECL_AMO_STD(T, N)                                                              \
  GSHMEM_DECL2(T, N##_atomic_compare_swap, T *dest, T cond, T value, int pe)                  \
  GSHMEM_DECL2(T, N##_atomic_fetch_inc, T *dest, int pe)                                      \
  GSHMEM_DECL2(void, N##_atomic_inc, T *dest, int pe)                                         \
  GSHMEM_DECL2(T, N##_atomic_fetch_add, T *dest, T value, int pe)                             \
  GSHMEM_DECL2(void, N##_atomic_add, T *dest, T value, int pe)                                \
  GSHMEM_DECL2(void, N##_atomic_compare_swap_nbi, T *fetch, T *dest, T cond, T value, int pe) \
  GSHMEM_DECL2(void, N##_atomic_fetch_inc_nbi, T *fetch, T *dest, int pe)                     \
  GSHMEM_DECL2(void, N##_atomic_fetch_add_nbi, T *fetch, T *dest, T value, int pe)
GSHMEM_AMO_STD_TYPES(GSHMEM_DECL_AMO_STD)
#undef GSHMEM_DECL_AMO_STD

/* ---- bitwise: BIT7 */
#define GSHMEM_DECL_AMO_BIT(T, N)                                                  \
  GSHMEM_DECL2(T, N##_atomic_fetch_and, T *dest, T value, int pe)                 \
  GSHMEM_DECL2(void, N##_atomic_and, T *dest, T value, int pe)                    \
  GSHMEM_DECL2(T, N##_atomic_fetch_or, T *dest, T value, int pe)                  \
  GSHMEM_DECL2(void, N##_atomic_or, T *dest, T value, int pe)                     \
  GSHMEM_DECL2(T, N##_atomic_fetch_xor, T *dest, T value, int pe)                 \
  GSHMEM_DECL2(void, N##_atomic_xor, T *dest, T value, int pe)                    \
  GSHMEM_DECL2(void, N##_atomic_fetch_and_nbi, T *fetch, T *dest, T value, int pe) \
  GSHMEM_DECL2(void, N##_atomic_fetch_or_nbi, T *fetch, T *dest, T value, int pe)  \
  GSHMEM_DECL2(void, N##_atomic_fetch_xor_nbi, T *fetch, T *dest, T value, int pe)
GSHMEM_AMO_BIT_TYPES(GSHMEM_DECL_AMO_BIT)
#undef GSHMEM_DECL_AMO_BIT

/* ---- distributed locks: `lock` is a symmetric long, zero-initialized. */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
/** Returns 0 when the lock was acquired, 1 when it is held elsewhere. */
int shmem_test_lock(long *lock);

#ifdef __cplusplus
}
#endif

#endif /* GSHMEM_C_AMO_H */
