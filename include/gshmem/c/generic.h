/* gshmem OpenSHMEM 1.5 C API: type-generic names (shmem_put, shmem_atomic_fetch_add, shmem_wait_until, ...).
 * Part of <shmem.h>; include that instead.
 * C11 gets _Generic macros, C++ gets inline overloads; C99 has only the typed names. The routines that take a
 * context accept it as an optional first argument: shmem_put(dest, src, n, pe) or shmem_put(ctx, dest, src, n, pe).
 * Dispatch is on the type of the first pointer argument (dest, source, fetch or ivars). Only the standard C
 * types are listed: the fixed-width and size types are typedefs of them and resolve to the same routine. */
#ifndef GSHMEM_C_GENERIC_H
#define GSHMEM_C_GENERIC_H

#include "amo.h"
#include "rma.h"
#include "sync.h"

/* Type lists for generic dispatch: X(TYPE, TYPENAME, A), where A is passed through. */
#define GSHMEM_GEN_RMA_TYPES(X, A)                                                                        \
  X(float, float, A) X(double, double, A) X(long double, longdouble, A) X(char, char, A)                 \
  X(signed char, schar, A) X(short, short, A) X(int, int, A) X(long, long, A) X(long long, longlong, A)  \
  X(unsigned char, uchar, A) X(unsigned short, ushort, A) X(unsigned int, uint, A)                       \
  X(unsigned long, ulong, A) X(unsigned long long, ulonglong, A)
#define GSHMEM_GEN_AMO_STD_TYPES(X, A)                                                            \
  X(int, int, A) X(long, long, A) X(long long, longlong, A) X(unsigned int, uint, A)             \
  X(unsigned long, ulong, A) X(unsigned long long, ulonglong, A)
#define GSHMEM_GEN_AMO_EXT_TYPES(X, A) GSHMEM_GEN_AMO_STD_TYPES(X, A) X(float, float, A) X(double, double, A)
/* int32_t/int64_t are the only signed bitwise types; uint32_t/uint64_t are typedefs of listed types. */
#define GSHMEM_GEN_AMO_BIT_TYPES(X, A)                                                                    \
  X(unsigned int, uint, A) X(unsigned long, ulong, A) X(unsigned long long, ulonglong, A)                \
  X(int32_t, int32, A) X(int64_t, int64, A)
#define GSHMEM_GEN_SYNC_TYPES(X, A)                                                                       \
  X(short, short, A) X(int, int, A) X(long, long, A) X(long long, longlong, A)                           \
  X(unsigned short, ushort, A) X(unsigned int, uint, A) X(unsigned long, ulong, A)                       \
  X(unsigned long long, ulonglong, A)
#define GSHMEM_GEN_DEPR_AMO_STD_TYPES(X, A) X(int, int, A) X(long, long, A) X(long long, longlong, A)
#define GSHMEM_GEN_DEPR_AMO_EXT_TYPES(X, A) \
  GSHMEM_GEN_DEPR_AMO_STD_TYPES(X, A) X(float, float, A) X(double, double, A)
#define GSHMEM_GEN_DEPR_WAIT_TYPES(X, A) X(short, short, A) X(int, int, A) X(long, long, A) X(long long, longlong, A)

#if defined(__cplusplus)
/* =================================================================================================== C++ */
#define GSHMEM_CXX_STRIP(...) __VA_ARGS__
/* One overload, and one more with a leading context. PARAMS and ARGS are parenthesized lists. */
#define GSHMEM_CXX1(RET, OP, N, PARAMS, ARGS) \
  inline RET shmem_##OP PARAMS { return shmem_##N##_##OP ARGS; }
#define GSHMEM_CXX2(RET, OP, N, PARAMS, ARGS)                                                                  \
  GSHMEM_CXX1(RET, OP, N, PARAMS, ARGS)                                                                         \
  inline RET shmem_##OP(shmem_ctx_t ctx, GSHMEM_CXX_STRIP PARAMS) {                                          \
    return shmem_ctx_##N##_##OP(ctx, GSHMEM_CXX_STRIP ARGS);                                                  \
  }

extern "C++" {

#define GSHMEM_CXX_RMA(T, N, A)                                                                                \
  GSHMEM_CXX2(void, put, N, (T *dest, const T *source, size_t nelems, int pe), (dest, source, nelems, pe))      \
  GSHMEM_CXX2(void, get, N, (T *dest, const T *source, size_t nelems, int pe), (dest, source, nelems, pe))      \
  GSHMEM_CXX2(void, put_nbi, N, (T *dest, const T *source, size_t nelems, int pe), (dest, source, nelems, pe))  \
  GSHMEM_CXX2(void, get_nbi, N, (T *dest, const T *source, size_t nelems, int pe), (dest, source, nelems, pe))  \
  GSHMEM_CXX2(void, p, N, (T *dest, T value, int pe), (dest, value, pe))                                        \
  GSHMEM_CXX2(T, g, N, (const T *source, int pe), (source, pe))                                                 \
  GSHMEM_CXX2(void, iput, N, (T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),   \
              (dest, source, dst, sst, nelems, pe))                                                              \
  GSHMEM_CXX2(void, iget, N, (T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe),   \
              (dest, source, dst, sst, nelems, pe))                                                              \
  GSHMEM_CXX2(void, put_signal, N,                                                                              \
              (T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe), \
              (dest, source, nelems, sig_addr, signal, sig_op, pe))                                              \
  GSHMEM_CXX2(void, put_signal_nbi, N,                                                                          \
              (T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe), \
              (dest, source, nelems, sig_addr, signal, sig_op, pe))
GSHMEM_GEN_RMA_TYPES(GSHMEM_CXX_RMA, 0)
#undef GSHMEM_CXX_RMA

#define GSHMEM_CXX_AMO_EXT(T, N, A)                                                                     \
  GSHMEM_CXX2(T, atomic_fetch, N, (const T *source, int pe), (source, pe))                            \
  GSHMEM_CXX2(void, atomic_set, N, (T *dest, T value, int pe), (dest, value, pe))                     \
  GSHMEM_CXX2(T, atomic_swap, N, (T *dest, T value, int pe), (dest, value, pe))                       \
  GSHMEM_CXX2(void, atomic_fetch_nbi, N, (T *fetch, const T *source, int pe), (fetch, source, pe))    \
  GSHMEM_CXX2(void, atomic_swap_nbi, N, (T *fetch, T *dest, T value, int pe), (fetch, dest, value, pe))
GSHMEM_GEN_AMO_EXT_TYPES(GSHMEM_CXX_AMO_EXT, 0)
#undef GSHMEM_CXX_AMO_EXT

#define GSHMEM_CXX_AMO_STD(T, N, A)                                                                           \
  GSHMEM_CXX2(T, atomic_compare_swap, N, (T *dest, T cond, T value, int pe), (dest, cond, value, pe))       \
  GSHMEM_CXX2(T, atomic_fetch_inc, N, (T *dest, int pe), (dest, pe))                                        \
  GSHMEM_CXX2(void, atomic_inc, N, (T *dest, int pe), (dest, pe))                                           \
  GSHMEM_CXX2(T, atomic_fetch_add, N, (T *dest, T value, int pe), (dest, value, pe))                        \
  GSHMEM_CXX2(void, atomic_add, N, (T *dest, T value, int pe), (dest, value, pe))                           \
  GSHMEM_CXX2(void, atomic_compare_swap_nbi, N, (T *fetch, T *dest, T cond, T value, int pe),               \
              (fetch, dest, cond, value, pe))                                                                \
  GSHMEM_CXX2(void, atomic_fetch_inc_nbi, N, (T *fetch, T *dest, int pe), (fetch, dest, pe))                \
  GSHMEM_CXX2(void, atomic_fetch_add_nbi, N, (T *fetch, T *dest, T value, int pe), (fetch, dest, value, pe))
GSHMEM_GEN_AMO_STD_TYPES(GSHMEM_CXX_AMO_STD, 0)
#undef GSHMEM_CXX_AMO_STD

#define GSHMEM_CXX_AMO_BIT(T, N, A)                                                                           \
  GSHMEM_CXX2(T, atomic_fetch_and, N, (T *dest, T value, int pe), (dest, value, pe))                        \
  GSHMEM_CXX2(void, atomic_and, N, (T *dest, T value, int pe), (dest, value, pe))                           \
  GSHMEM_CXX2(T, atomic_fetch_or, N, (T *dest, T value, int pe), (dest, value, pe))                         \
  GSHMEM_CXX2(void, atomic_or, N, (T *dest, T value, int pe), (dest, value, pe))                            \
  GSHMEM_CXX2(T, atomic_fetch_xor, N, (T *dest, T value, int pe), (dest, value, pe))                        \
  GSHMEM_CXX2(void, atomic_xor, N, (T *dest, T value, int pe), (dest, value, pe))                           \
  GSHMEM_CXX2(void, atomic_fetch_and_nbi, N, (T *fetch, T *dest, T value, int pe), (fetch, dest, value, pe))\
  GSHMEM_CXX2(void, atomic_fetch_or_nbi, N, (T *fetch, T *dest, T value, int pe), (fetch, dest, value, pe)) \
  GSHMEM_CXX2(void, atomic_fetch_xor_nbi, N, (T *fetch, T *dest, T value, int pe), (fetch, dest, value, pe))
GSHMEM_GEN_AMO_BIT_TYPES(GSHMEM_CXX_AMO_BIT, 0)
#undef GSHMEM_CXX_AMO_BIT

#define GSHMEM_CXX_SYNC(T, N, A)                                                                              \
  GSHMEM_CXX1(void, wait_until, N, (T *ivar, int cmp, T cmp_value), (ivar, cmp, cmp_value))                 \
  GSHMEM_CXX1(int, test, N, (T *ivar, int cmp, T cmp_value), (ivar, cmp, cmp_value))                        \
  GSHMEM_CXX1(void, wait_until_all, N, (T *ivars, size_t nelems, const int *status, int cmp, T cmp_value),  \
              (ivars, nelems, status, cmp, cmp_value))                                                       \
  GSHMEM_CXX1(size_t, wait_until_any, N, (T *ivars, size_t nelems, const int *status, int cmp, T cmp_value),\
              (ivars, nelems, status, cmp, cmp_value))                                                       \
  GSHMEM_CXX1(size_t, wait_until_some, N,                                                                   \
              (T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value),          \
              (ivars, nelems, indices, status, cmp, cmp_value))                                              \
  GSHMEM_CXX1(void, wait_until_all_vector, N,                                                               \
              (T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values),                         \
              (ivars, nelems, status, cmp, cmp_values))                                                      \
  GSHMEM_CXX1(size_t, wait_until_any_vector, N,                                                             \
              (T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values),                         \
              (ivars, nelems, status, cmp, cmp_values))                                                      \
  GSHMEM_CXX1(size_t, wait_until_some_vector, N,                                                            \
              (T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T *cmp_values),        \
              (ivars, nelems, indices, status, cmp, cmp_values))                                             \
  GSHMEM_CXX1(int, test_all, N, (T *ivars, size_t nelems, const int *status, int cmp, T cmp_value),         \
              (ivars, nelems, status, cmp, cmp_value))                                                       \
  GSHMEM_CXX1(size_t, test_any, N, (T *ivars, size_t nelems, const int *status, int cmp, T cmp_value),      \
              (ivars, nelems, status, cmp, cmp_value))                                                       \
  GSHMEM_CXX1(size_t, test_some, N,                                                                         \
              (T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T cmp_value),          \
              (ivars, nelems, indices, status, cmp, cmp_value))                                              \
  GSHMEM_CXX1(int, test_all_vector, N, (T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values),\
              (ivars, nelems, status, cmp, cmp_values))                                                      \
  GSHMEM_CXX1(size_t, test_any_vector, N,                                                                   \
              (T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values),                         \
              (ivars, nelems, status, cmp, cmp_values))                                                      \
  GSHMEM_CXX1(size_t, test_some_vector, N,                                                                  \
              (T *ivars, size_t nelems, size_t *indices, const int *status, int cmp, T *cmp_values),        \
              (ivars, nelems, indices, status, cmp, cmp_values))
GSHMEM_GEN_SYNC_TYPES(GSHMEM_CXX_SYNC, 0)
#undef GSHMEM_CXX_SYNC

/* Deprecated generic names. */
#define GSHMEM_CXX_DEPR_EXT(T, N, A)                                              \
  GSHMEM_CXX1(T, fetch, N, (const T *source, int pe), (source, pe))             \
  GSHMEM_CXX1(void, set, N, (T *dest, T value, int pe), (dest, value, pe))      \
  GSHMEM_CXX1(T, swap, N, (T *dest, T value, int pe), (dest, value, pe))
#define GSHMEM_CXX_DEPR_STD(T, N, A)                                                        \
  GSHMEM_CXX1(T, cswap, N, (T *dest, T cond, T value, int pe), (dest, cond, value, pe))   \
  GSHMEM_CXX1(T, finc, N, (T *dest, int pe), (dest, pe))                                  \
  GSHMEM_CXX1(void, inc, N, (T *dest, int pe), (dest, pe))                                \
  GSHMEM_CXX1(T, fadd, N, (T *dest, T value, int pe), (dest, value, pe))                  \
  GSHMEM_CXX1(void, add, N, (T *dest, T value, int pe), (dest, value, pe))
#define GSHMEM_CXX_DEPR_WAIT(T, N, A) GSHMEM_CXX1(void, wait, N, (T *ivar, T cmp_value), (ivar, cmp_value))
GSHMEM_GEN_DEPR_AMO_EXT_TYPES(GSHMEM_CXX_DEPR_EXT, 0)
GSHMEM_GEN_DEPR_AMO_STD_TYPES(GSHMEM_CXX_DEPR_STD, 0)
GSHMEM_GEN_DEPR_WAIT_TYPES(GSHMEM_CXX_DEPR_WAIT, 0)
#undef GSHMEM_CXX_DEPR_EXT
#undef GSHMEM_CXX_DEPR_STD
#undef GSHMEM_CXX_DEPR_WAIT

} /* extern "C++" */

#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
/* ==================================================================================================== C11 */
/* Selected when no typed routine matches: the call then fails to compile ("too many arguments to function
 * gshmem_c11_type_error"). Never defined. */
void gshmem_c11_type_error(void);

#define GSHMEM_C11_ARG1(A, ...) A
#define GSHMEM_C11_ARG2(A, B, ...) B
#define GSHMEM_C11_ASSOC(T, N, OP) T *: shmem_##N##_##OP,
#define GSHMEM_C11_ASSOC_CONST(T, N, OP) T *: shmem_##N##_##OP, const T *: shmem_##N##_##OP,
#define GSHMEM_C11_ASSOC_CTX(T, N, OP) T *: shmem_ctx_##N##_##OP,
#define GSHMEM_C11_ASSOC_CTX_CONST(T, N, OP) T *: shmem_ctx_##N##_##OP, const T *: shmem_ctx_##N##_##OP,
/* The routine named OP for the type of ARG among the types of LIST, using association form ASSOC. */
#define GSHMEM_C11_SELECT(LIST, ASSOC, OP, ARG) _Generic((ARG), LIST(ASSOC, OP) default: gshmem_c11_type_error)
/* OP with no context: dispatch on the first argument. */
#define GSHMEM_C11_CALL(LIST, ASSOC, OP, ...) \
  GSHMEM_C11_SELECT(LIST, ASSOC, OP, GSHMEM_C11_ARG1(__VA_ARGS__, 0))(__VA_ARGS__)
/* OP with an optional leading context: dispatch on the second argument when the first is a shmem_ctx_t. */
#define GSHMEM_C11_CTX_CALL(LIST, ASSOC, ASSOC_CTX, OP, ...)                                      \
  _Generic(GSHMEM_C11_ARG1(__VA_ARGS__, 0),                                                     \
           shmem_ctx_t: GSHMEM_C11_SELECT(LIST, ASSOC_CTX, OP, GSHMEM_C11_ARG2(__VA_ARGS__, 0, 0)), \
           default: GSHMEM_C11_SELECT(LIST, ASSOC, OP, GSHMEM_C11_ARG1(__VA_ARGS__, 0)))(__VA_ARGS__)
#define GSHMEM_C11_CTX(LIST, OP, ...) \
  GSHMEM_C11_CTX_CALL(LIST, GSHMEM_C11_ASSOC, GSHMEM_C11_ASSOC_CTX, OP, __VA_ARGS__)
#define GSHMEM_C11_CTX_CONST(LIST, OP, ...) \
  GSHMEM_C11_CTX_CALL(LIST, GSHMEM_C11_ASSOC_CONST, GSHMEM_C11_ASSOC_CTX_CONST, OP, __VA_ARGS__)

/* ---- RMA */
#define shmem_put(...) GSHMEM_C11_CTX(GSHMEM_GEN_RMA_TYPES, put, __VA_ARGS__)
#define shmem_get(...) GSHMEM_C11_CTX(GSHMEM_GEN_RMA_TYPES, get, __VA_ARGS__)
#define shmem_put_nbi(...) GSHMEM_C11_CTX(GSHMEM_GEN_RMA_TYPES, put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...) GSHMEM_C11_CTX(GSHMEM_GEN_RMA_TYPES, get_nbi, __VA_ARGS__)
#define shmem_p(...) GSHMEM_C11_CTX(GSHMEM_GEN_RMA_TYPES, p, __VA_ARGS__)
#define shmem_g(...) GSHMEM_C11_CTX_CONST(GSHMEM_GEN_RMA_TYPES, g, __VA_ARGS__)
#define shmem_iput(...) GSHMEM_C11_CTX(GSHMEM_GEN_RMA_TYPES, iput, __VA_ARGS__)
#define shmem_iget(...) GSHMEM_C11_CTX(GSHMEM_GEN_RMA_TYPES, iget, __VA_ARGS__)
#define shmem_put_signal(...) GSHMEM_C11_CTX(GSHMEM_GEN_RMA_TYPES, put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) GSHMEM_C11_CTX(GSHMEM_GEN_RMA_TYPES, put_signal_nbi, __VA_ARGS__)

/* ---- AMO */
#define shmem_atomic_fetch(...) GSHMEM_C11_CTX_CONST(GSHMEM_GEN_AMO_EXT_TYPES, atomic_fetch, __VA_ARGS__)
#define shmem_atomic_set(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_EXT_TYPES, atomic_set, __VA_ARGS__)
#define shmem_atomic_swap(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_EXT_TYPES, atomic_swap, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_EXT_TYPES, atomic_fetch_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_EXT_TYPES, atomic_swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_STD_TYPES, atomic_compare_swap, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_STD_TYPES, atomic_fetch_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_STD_TYPES, atomic_inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_STD_TYPES, atomic_fetch_add, __VA_ARGS__)
#define shmem_atomic_add(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_STD_TYPES, atomic_add, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) \
  GSHMEM_C11_CTX(GSHMEM_GEN_AMO_STD_TYPES, atomic_compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_STD_TYPES, atomic_fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_STD_TYPES, atomic_fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_BIT_TYPES, atomic_fetch_and, __VA_ARGS__)
#define shmem_atomic_and(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_BIT_TYPES, atomic_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_BIT_TYPES, atomic_fetch_or, __VA_ARGS__)
#define shmem_atomic_or(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_BIT_TYPES, atomic_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_BIT_TYPES, atomic_fetch_xor, __VA_ARGS__)
#define shmem_atomic_xor(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_BIT_TYPES, atomic_xor, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_BIT_TYPES, atomic_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_BIT_TYPES, atomic_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) GSHMEM_C11_CTX(GSHMEM_GEN_AMO_BIT_TYPES, atomic_fetch_xor_nbi, __VA_ARGS__)

/* ---- point-to-point synchronization (no context) */
#define GSHMEM_C11_SYNC(OP, ...) GSHMEM_C11_CALL(GSHMEM_GEN_SYNC_TYPES, GSHMEM_C11_ASSOC, OP, __VA_ARGS__)
#define shmem_wait_until(...) GSHMEM_C11_SYNC(wait_until, __VA_ARGS__)
#define shmem_wait_until_all(...) GSHMEM_C11_SYNC(wait_until_all, __VA_ARGS__)
#define shmem_wait_until_any(...) GSHMEM_C11_SYNC(wait_until_any, __VA_ARGS__)
#define shmem_wait_until_some(...) GSHMEM_C11_SYNC(wait_until_some, __VA_ARGS__)
#define shmem_wait_until_all_vector(...) GSHMEM_C11_SYNC(wait_until_all_vector, __VA_ARGS__)
#define shmem_wait_until_any_vector(...) GSHMEM_C11_SYNC(wait_until_any_vector, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) GSHMEM_C11_SYNC(wait_until_some_vector, __VA_ARGS__)
#define shmem_test(...) GSHMEM_C11_SYNC(test, __VA_ARGS__)
#define shmem_test_all(...) GSHMEM_C11_SYNC(test_all, __VA_ARGS__)
#define shmem_test_any(...) GSHMEM_C11_SYNC(test_any, __VA_ARGS__)
#define shmem_test_some(...) GSHMEM_C11_SYNC(test_some, __VA_ARGS__)
#define shmem_test_all_vector(...) GSHMEM_C11_SYNC(test_all_vector, __VA_ARGS__)
#define shmem_test_any_vector(...) GSHMEM_C11_SYNC(test_any_vector, __VA_ARGS__)
#define shmem_test_some_vector(...) GSHMEM_C11_SYNC(test_some_vector, __VA_ARGS__)

/* ---- deprecated generic names (OpenSHMEM 1.3) */
#define shmem_fetch(...) GSHMEM_C11_CALL(GSHMEM_GEN_DEPR_AMO_EXT_TYPES, GSHMEM_C11_ASSOC_CONST, fetch, __VA_ARGS__)
#define shmem_set(...) GSHMEM_C11_CALL(GSHMEM_GEN_DEPR_AMO_EXT_TYPES, GSHMEM_C11_ASSOC, set, __VA_ARGS__)
#define shmem_swap(...) GSHMEM_C11_CALL(GSHMEM_GEN_DEPR_AMO_EXT_TYPES, GSHMEM_C11_ASSOC, swap, __VA_ARGS__)
#define shmem_cswap(...) GSHMEM_C11_CALL(GSHMEM_GEN_DEPR_AMO_STD_TYPES, GSHMEM_C11_ASSOC, cswap, __VA_ARGS__)
#define shmem_finc(...) GSHMEM_C11_CALL(GSHMEM_GEN_DEPR_AMO_STD_TYPES, GSHMEM_C11_ASSOC, finc, __VA_ARGS__)
#define shmem_inc(...) GSHMEM_C11_CALL(GSHMEM_GEN_DEPR_AMO_STD_TYPES, GSHMEM_C11_ASSOC, inc, __VA_ARGS__)
#define shmem_fadd(...) GSHMEM_C11_CALL(GSHMEM_GEN_DEPR_AMO_STD_TYPES, GSHMEM_C11_ASSOC, fadd, __VA_ARGS__)
#define shmem_add(...) GSHMEM_C11_CALL(GSHMEM_GEN_DEPR_AMO_STD_TYPES, GSHMEM_C11_ASSOC, add, __VA_ARGS__)
#define shmem_wait(...) GSHMEM_C11_CALL(GSHMEM_GEN_DEPR_WAIT_TYPES, GSHMEM_C11_ASSOC, wait, __VA_ARGS__)

#endif /* C++ / C11 */

#endif /* GSHMEM_C_GENERIC_H */
