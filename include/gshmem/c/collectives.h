/* gshmem OpenSHMEM 1.5 C API: collectives.
 * Part of <shmem.h>; include that instead.
 *
 * Team-based (1.5): shmem_TYPENAME_{broadcast,collect,fcollect,alltoall,alltoalls} and the *mem forms move
 * data; shmem_TYPENAME_OP_reduce reduce element-wise. All return 0 on success. Every member of `team` calls
 * them in the same order with the same nelems/root (collect: nelems may differ). Reductions accept
 * dest == source (in place); otherwise source and dest must not overlap.
 *
 * Deprecated active-set forms (1.4): the active set is PEs PE_start + i * 2^logPE_stride, i < PE_size. pSync
 * is a symmetric array of SHMEM_*_SYNC_SIZE longs set to SHMEM_SYNC_VALUE by the user before first use; it
 * holds SHMEM_SYNC_VALUE again on return and may be reused by the next collective on the same active set.
 * pWrk is accepted and not used. Unlike 1.5, the deprecated broadcast does not write dest on the root. */
#ifndef GSHMEM_C_COLLECTIVES_H
#define GSHMEM_C_COLLECTIVES_H

#include "gshmem/c/types.h"

/* Complex element types of the sum/prod reductions. C++ uses std::complex, which has the same layout. */
#ifdef __cplusplus
#include <complex>
#define GSHMEM_COMPLEXF std::complex<float>
#define GSHMEM_COMPLEXD std::complex<double>
#else
#define GSHMEM_COMPLEXF float _Complex
#define GSHMEM_COMPLEXD double _Complex
#endif

/* ----------------------------------------------------------------------------------- X-macro type lists */
/* X(TYPE, TYPENAME). Data movement and max/min use the standard RMA types (RMA24). */
#define GSHMEM_COLL_TYPES(X) GSHMEM_RMA_TYPES(X)
#define GSHMEM_REDUCE_MINMAX_TYPES(X) GSHMEM_RMA_TYPES(X)
/** sum/prod: RMA24 + complexf/complexd. */
#define GSHMEM_REDUCE_ARITH_TYPES(X) \
  GSHMEM_RMA_TYPES(X) X(GSHMEM_COMPLEXF, complexf) X(GSHMEM_COMPLEXD, complexd)
/** and/or/xor (BITRED14). */
#define GSHMEM_REDUCE_BIT_TYPES(X)                                                                          \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)          \
  X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64)  \
  X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)
/** Deprecated *_to_all: and/or/xor, then max/min, then sum/prod type sets of OpenSHMEM 1.4. */
#define GSHMEM_TOALL_BIT_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define GSHMEM_TOALL_MINMAX_TYPES(X) \
  GSHMEM_TOALL_BIT_TYPES(X) X(float, float) X(double, double) X(long double, longdouble)
#define GSHMEM_TOALL_ARITH_TYPES(X) \
  GSHMEM_TOALL_MINMAX_TYPES(X) X(GSHMEM_COMPLEXF, complexf) X(GSHMEM_COMPLEXD, complexd)

#ifdef __cplusplus
extern "C" {
#endif

/* ---- team-based data movement */
#define GSHMEM_DECL_COLL(T, N)                                                                              \
  int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root);    \
  int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);                    \
  int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);                   \
  int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);                   \
  int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,    \
                            size_t nelems);
GSHMEM_COLL_TYPES(GSHMEM_DECL_COLL)
#undef GSHMEM_DECL_COLL

/** Byte forms: nelems counts bytes; the alltoallsmem strides count bytes as well. */
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems);

/* ---- team-based reductions */
#define GSHMEM_DECL_REDUCE(T, N, OP) \
  int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce);
#define GSHMEM_DECL_REDUCE_MINMAX(T, N) GSHMEM_DECL_REDUCE(T, N, max) GSHMEM_DECL_REDUCE(T, N, min)
#define GSHMEM_DECL_REDUCE_ARITH(T, N) GSHMEM_DECL_REDUCE(T, N, sum) GSHMEM_DECL_REDUCE(T, N, prod)
#define GSHMEM_DECL_REDUCE_BIT(T, N) \
  GSHMEM_DECL_REDUCE(T, N, and) GSHMEM_DECL_REDUCE(T, N, or) GSHMEM_DECL_REDUCE(T, N, xor)
GSHMEM_REDUCE_MINMAX_TYPES(GSHMEM_DECL_REDUCE_MINMAX)
GSHMEM_REDUCE_ARITH_TYPES(GSHMEM_DECL_REDUCE_ARITH)
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_DECL_REDUCE_BIT)
#undef GSHMEM_DECL_REDUCE_MINMAX
#undef GSHMEM_DECL_REDUCE_ARITH
#undef GSHMEM_DECL_REDUCE_BIT
#undef GSHMEM_DECL_REDUCE

/* ---- deprecated active-set forms (OpenSHMEM 1.4) */
/** Barrier over the active set: completes this PE's outstanding puts first (like shmem_barrier_all). */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
/** The four-argument shmem_sync (reached through the shmem_sync macro of gshmem/c/sync.h): synchronizes the
 * active set; pSync as for shmem_barrier. Also completes this PE's outstanding puts, which sync allows. */
void gshmem_sync_active_set(int PE_start, int logPE_stride, int PE_size, long *pSync);
#define GSHMEM_DECL_SIZED_COLL(BITS)                                                                              \
  void shmem_broadcast##BITS(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,            \
                             int logPE_stride, int PE_size, long *pSync);                                         \
  void shmem_collect##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,         \
                           int PE_size, long *pSync);                                                             \
  void shmem_fcollect##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,        \
                            int PE_size, long *pSync);                                                            \
  void shmem_alltoall##BITS(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,        \
                            int PE_size, long *pSync);                                                            \
  void shmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,         \
                             int PE_start, int logPE_stride, int PE_size, long *pSync);
GSHMEM_DECL_SIZED_COLL(32)
GSHMEM_DECL_SIZED_COLL(64)
#undef GSHMEM_DECL_SIZED_COLL

#define GSHMEM_DECL_TOALL(T, N, OP)                                                                    \
  void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start, int logPE_stride, \
                                 int PE_size, T *pWrk, long *pSync);
#define GSHMEM_DECL_TOALL_BIT(T, N) \
  GSHMEM_DECL_TOALL(T, N, and) GSHMEM_DECL_TOALL(T, N, or) GSHMEM_DECL_TOALL(T, N, xor)
#define GSHMEM_DECL_TOALL_MINMAX(T, N) GSHMEM_DECL_TOALL(T, N, max) GSHMEM_DECL_TOALL(T, N, min)
#define GSHMEM_DECL_TOALL_ARITH(T, N) GSHMEM_DECL_TOALL(T, N, sum) GSHMEM_DECL_TOALL(T, N, prod)
GSHMEM_TOALL_BIT_TYPES(GSHMEM_DECL_TOALL_BIT)
GSHMEM_TOALL_MINMAX_TYPES(GSHMEM_DECL_TOALL_MINMAX)
GSHMEM_TOALL_ARITH_TYPES(GSHMEM_DECL_TOALL_ARITH)
#undef GSHMEM_DECL_TOALL_BIT
#undef GSHMEM_DECL_TOALL_MINMAX
#undef GSHMEM_DECL_TOALL_ARITH
#undef GSHMEM_DECL_TOALL

#ifdef __cplusplus
}
#endif

/* ---------------------------------------------------------------------------------- type-generic names */
/* shmem_broadcast(team, dest, source, nelems, root), shmem_sum_reduce(team, dest, source, nreduce), ...
 * dispatch on the type of dest. Only distinct standard C types are listed: the fixed-width and size types are
 * typedefs of them and resolve to the same routine. */
#define GSHMEM_GEN_COLL_TYPES(X, A)                                                                       \
  X(float, float, A) X(double, double, A) X(long double, longdouble, A) X(char, char, A)                 \
  X(signed char, schar, A) X(short, short, A) X(int, int, A) X(long, long, A) X(long long, longlong, A)  \
  X(unsigned char, uchar, A) X(unsigned short, ushort, A) X(unsigned int, uint, A)                       \
  X(unsigned long, ulong, A) X(unsigned long long, ulonglong, A)
#define GSHMEM_GEN_ARITH_TYPES(X, A) \
  GSHMEM_GEN_COLL_TYPES(X, A) X(GSHMEM_COMPLEXF, complexf, A) X(GSHMEM_COMPLEXD, complexd, A)
/* Bitwise (BITRED14): the unsigned standard types plus the signed fixed-width ones. uint8..uint64_t and size_t
 * are typedefs of listed unsigned types; int8..int64_t are the only signed types of the table (each a distinct
 * standard type: signed char, short, int, long). */
#define GSHMEM_GEN_BIT_TYPES(X, A)                                                                        \
  X(unsigned char, uchar, A) X(unsigned short, ushort, A) X(unsigned int, uint, A)                       \
  X(unsigned long, ulong, A) X(unsigned long long, ulonglong, A) X(int8_t, int8, A) X(int16_t, int16, A) \
  X(int32_t, int32, A) X(int64_t, int64, A)

#if defined(__cplusplus)
extern "C++" {
#define GSHMEM_CXX_COLL(T, N, A)                                                                              \
  inline int shmem_broadcast(shmem_team_t t, T *d, const T *s, size_t n, int r) {                            \
    return shmem_##N##_broadcast(t, d, s, n, r);                                                             \
  }                                                                                                           \
  inline int shmem_collect(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_collect(t, d, s, n); } \
  inline int shmem_fcollect(shmem_team_t t, T *d, const T *s, size_t n) {                                    \
    return shmem_##N##_fcollect(t, d, s, n);                                                                 \
  }                                                                                                           \
  inline int shmem_alltoall(shmem_team_t t, T *d, const T *s, size_t n) {                                    \
    return shmem_##N##_alltoall(t, d, s, n);                                                                 \
  }                                                                                                           \
  inline int shmem_alltoalls(shmem_team_t t, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n) {     \
    return shmem_##N##_alltoalls(t, d, s, dst, sst, n);                                                      \
  }                                                                                                           \
  inline int shmem_max_reduce(shmem_team_t t, T *d, const T *s, size_t n) {                                  \
    return shmem_##N##_max_reduce(t, d, s, n);                                                               \
  }                                                                                                           \
  inline int shmem_min_reduce(shmem_team_t t, T *d, const T *s, size_t n) {                                  \
    return shmem_##N##_min_reduce(t, d, s, n);                                                               \
  }
#define GSHMEM_CXX_ARITH(T, N, A)                                                                             \
  inline int shmem_sum_reduce(shmem_team_t t, T *d, const T *s, size_t n) {                                  \
    return shmem_##N##_sum_reduce(t, d, s, n);                                                               \
  }                                                                                                           \
  inline int shmem_prod_reduce(shmem_team_t t, T *d, const T *s, size_t n) {                                 \
    return shmem_##N##_prod_reduce(t, d, s, n);                                                              \
  }
#define GSHMEM_CXX_BIT(T, N, A)                                                                               \
  inline int shmem_and_reduce(shmem_team_t t, T *d, const T *s, size_t n) {                                  \
    return shmem_##N##_and_reduce(t, d, s, n);                                                               \
  }                                                                                                           \
  inline int shmem_or_reduce(shmem_team_t t, T *d, const T *s, size_t n) { return shmem_##N##_or_reduce(t, d, s, n); } \
  inline int shmem_xor_reduce(shmem_team_t t, T *d, const T *s, size_t n) {                                  \
    return shmem_##N##_xor_reduce(t, d, s, n);                                                               \
  }
GSHMEM_GEN_COLL_TYPES(GSHMEM_CXX_COLL, 0)
GSHMEM_GEN_ARITH_TYPES(GSHMEM_CXX_ARITH, 0)
GSHMEM_GEN_BIT_TYPES(GSHMEM_CXX_BIT, 0)
#undef GSHMEM_CXX_COLL
#undef GSHMEM_CXX_ARITH
#undef GSHMEM_CXX_BIT

#if defined(__GNUC__) && !defined(__CUDACC__)
/* C arrays of float _Complex / double _Complex (GNU C++ accepts the C type) passed by code shared with C: the same
 * layout as std::complex, so each overload forwards to the routine of that type. */
__extension__ typedef __complex__ float gshmem_c_complexf;
__extension__ typedef __complex__ double gshmem_c_complexd;
#define GSHMEM_CXX_CCOMPLEX_OP(CT, N, STD, OP)                                                                 \
  inline int shmem_##N##_##OP##_reduce(shmem_team_t t, CT *d, const CT *s, size_t n) {                       \
    return shmem_##N##_##OP##_reduce(t, reinterpret_cast<STD *>(d), reinterpret_cast<const STD *>(s), n);    \
  }                                                                                                           \
  inline int shmem_##OP##_reduce(shmem_team_t t, CT *d, const CT *s, size_t n) {                             \
    return shmem_##N##_##OP##_reduce(t, d, s, n);                                                            \
  }                                                                                                           \
  inline void shmem_##N##_##OP##_to_all(CT *d, const CT *s, int n, int start, int log_stride, int size, CT *w, \
                                        long *ps) {                                                          \
    shmem_##N##_##OP##_to_all(reinterpret_cast<STD *>(d), reinterpret_cast<const STD *>(s), n, start,         \
                              log_stride, size, reinterpret_cast<STD *>(w), ps);                             \
  }
#define GSHMEM_CXX_CCOMPLEX(CT, N, STD) GSHMEM_CXX_CCOMPLEX_OP(CT, N, STD, sum) GSHMEM_CXX_CCOMPLEX_OP(CT, N, STD, prod)
GSHMEM_CXX_CCOMPLEX(gshmem_c_complexf, complexf, std::complex<float>)
GSHMEM_CXX_CCOMPLEX(gshmem_c_complexd, complexd, std::complex<double>)
#undef GSHMEM_CXX_CCOMPLEX
#undef GSHMEM_CXX_CCOMPLEX_OP
#endif
} /* extern "C++" */

#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
/* Selected when no typed routine matches: the call then fails to compile. Never defined. */
void gshmem_coll_type_error(void);
#define GSHMEM_COLL_ASSOC(T, N, OP) T *: shmem_##N##_##OP,
/* Dispatch on dest, the second argument (the first is the team). */
#define GSHMEM_COLL_ARG2(A, B, ...) B
#define GSHMEM_COLL_CALL(LIST, OP, ...) \
  _Generic(GSHMEM_COLL_ARG2(__VA_ARGS__, 0, 0), LIST(GSHMEM_COLL_ASSOC, OP) default: gshmem_coll_type_error)(__VA_ARGS__)
#define shmem_broadcast(...) GSHMEM_COLL_CALL(GSHMEM_GEN_COLL_TYPES, broadcast, __VA_ARGS__)
#define shmem_collect(...) GSHMEM_COLL_CALL(GSHMEM_GEN_COLL_TYPES, collect, __VA_ARGS__)
#define shmem_fcollect(...) GSHMEM_COLL_CALL(GSHMEM_GEN_COLL_TYPES, fcollect, __VA_ARGS__)
#define shmem_alltoall(...) GSHMEM_COLL_CALL(GSHMEM_GEN_COLL_TYPES, alltoall, __VA_ARGS__)
#define shmem_alltoalls(...) GSHMEM_COLL_CALL(GSHMEM_GEN_COLL_TYPES, alltoalls, __VA_ARGS__)
#define shmem_max_reduce(...) GSHMEM_COLL_CALL(GSHMEM_GEN_COLL_TYPES, max_reduce, __VA_ARGS__)
#define shmem_min_reduce(...) GSHMEM_COLL_CALL(GSHMEM_GEN_COLL_TYPES, min_reduce, __VA_ARGS__)
#define shmem_sum_reduce(...) GSHMEM_COLL_CALL(GSHMEM_GEN_ARITH_TYPES, sum_reduce, __VA_ARGS__)
#define shmem_prod_reduce(...) GSHMEM_COLL_CALL(GSHMEM_GEN_ARITH_TYPES, prod_reduce, __VA_ARGS__)
#define shmem_and_reduce(...) GSHMEM_COLL_CALL(GSHMEM_GEN_BIT_TYPES, and_reduce, __VA_ARGS__)
#define shmem_or_reduce(...) GSHMEM_COLL_CALL(GSHMEM_GEN_BIT_TYPES, or_reduce, __VA_ARGS__)
#define shmem_xor_reduce(...) GSHMEM_COLL_CALL(GSHMEM_GEN_BIT_TYPES, xor_reduce, __VA_ARGS__)
#endif /* C++ / C11 */

#endif /* GSHMEM_C_COLLECTIVES_H */
