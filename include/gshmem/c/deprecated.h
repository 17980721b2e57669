/* gshmem OpenSHMEM 1.5 C API: names deprecated by the specification, kept so older programs build unchanged.
 * Part of <shmem.h>; include that instead. Define GSHMEM_WARN_DEPRECATED before including <shmem.h> to get
 * compiler warnings on each use. Deprecated collectives (*_to_all, active-set barrier/broadcast/collect)
 * are declared by gshmem/c/collectives.h. */
#ifndef GSHMEM_C_DEPRECATED_H
#define GSHMEM_C_DEPRECATED_H

#include "types.h"

#if defined(GSHMEM_WARN_DEPRECATED) && (defined(__GNUC__) || defined(__clang__))
#define GSHMEM_DEPRECATED __attribute__((deprecated))
#else
#define GSHMEM_DEPRECATED
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- setup and memory (pre-1.2 names) */
void start_pes(int npes) GSHMEM_DEPRECATED;  /**< shmem_init; `npes` is ignored */
int _my_pe(void) GSHMEM_DEPRECATED;
int _num_pes(void) GSHMEM_DEPRECATED;
void *shmalloc(size_t size) GSHMEM_DEPRECATED;
void shfree(void *ptr) GSHMEM_DEPRECATED;
void *shmemalign(size_t alignment, size_t size) GSHMEM_DEPRECATED;
void *shrealloc(void *ptr, size_t size) GSHMEM_DEPRECATED;

/* ---- cache management: no-ops (the memory is always coherent) */
void shmem_clear_cache_inv(void) GSHMEM_DEPRECATED;
void shmem_set_cache_inv(void) GSHMEM_DEPRECATED;
void shmem_clear_cache_line_inv(void *dest) GSHMEM_DEPRECATED;
void shmem_set_cache_line_inv(void *dest) GSHMEM_DEPRECATED;
void shmem_udcflush(void) GSHMEM_DEPRECATED;
void shmem_udcflush_line(void *dest) GSHMEM_DEPRECATED;

/* ---- pre-1.4 AMO names: shmem_TYPENAME_{fetch,set,swap} (int, long, longlong, float, double) */
#define GSHMEM_DECL_DEPR_AMO_EXT(T, N)                          \
  T shmem_##N##_fetch(const T *source, int pe) GSHMEM_DEPRECATED; \
  void shmem_##N##_set(T *dest, T value, int pe) GSHMEM_DEPRECATED; \
  T shmem_##N##_swap(T *dest, T value, int pe) GSHMEM_DEPRECATED;
/* ... and shmem_TYPENAME_{cswap,finc,inc,fadd,add} (int, long, longlong) */
#define GSHMEM_DECL_DEPR_AMO_STD(T, N)                                     \
  T shmem_##N##_cswap(T *dest, T cond, T value, int pe) GSHMEM_DEPRECATED; \
  T shmem_##N##_finc(T *dest, int pe) GSHMEM_DEPRECATED;                   \
  void shmem_##N##_inc(T *dest, int pe) GSHMEM_DEPRECATED;                 \
  T shmem_##N##_fadd(T *dest, T value, int pe) GSHMEM_DEPRECATED;          \
  void shmem_##N##_add(T *dest, T value, int pe) GSHMEM_DEPRECATED;
#define GSHMEM_DEPR_AMO_STD_TYPES(X) X(int, int) X(long, long) X(long long, longlong)
#define GSHMEM_DEPR_AMO_EXT_TYPES(X) GSHMEM_DEPR_AMO_STD_TYPES(X) X(float, float) X(double, double)
GSHMEM_DEPR_AMO_EXT_TYPES(GSHMEM_DECL_DEPR_AMO_EXT)
GSHMEM_DEPR_AMO_STD_TYPES(GSHMEM_DECL_DEPR_AMO_STD)
#undef GSHMEM_DECL_DEPR_AMO_EXT
#undef GSHMEM_DECL_DEPR_AMO_STD

/* ---- shmem_TYPENAME_wait: block while *ivar == cmp_value (short, int, long, longlong) */
#define GSHMEM_DEPR_WAIT_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define GSHMEM_DECL_DEPR_WAIT(T, N) void shmem_##N##_wait(T *ivar, T cmp_value) GSHMEM_DEPRECATED;
GSHMEM_DEPR_WAIT_TYPES(GSHMEM_DECL_DEPR_WAIT)
#undef GSHMEM_DECL_DEPR_WAIT

#ifdef __cplusplus
}
#endif

#endif /* GSHMEM_C_DEPRECATED_H */
