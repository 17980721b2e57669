/* gshmem OpenSHMEM 1.5 C API: remote memory access (put/get, strided, non-blocking, put-with-signal).
 * Part of <shmem.h>; include that instead.
 * Every routine exists with and without a leading `shmem_ctx_t ctx`; with a context, `pe` is numbered in the
 * context's team. `nelems` counts elements; strides count elements. The _nbi forms complete by shmem_quiet. */
#ifndef GSHMEM_C_RMA_H
#define GSHMEM_C_RMA_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- typed RMA: shmem_[ctx_]TYPENAME_{put,get,put_nbi,get_nbi,p,g,iput,iget,put_signal,put_signal_nbi} */
#define GSHMEM_DECL_RMA_TYPED(T, N)                                                                        \
  GSHMEM_DECL2(void, N##_put, T *dest, const T *source, size_t nelems, int pe)                           \
  GSHMEM_DECL2(void, N##_get, T *dest, const T *source, size_t nelems, int pe)                           \
  GSHMEM_DECL2(void, N##_put_nbi, T *dest, const T *source, size_t nelems, int pe)                       \
  GSHMEM_DECL2(void, N##_get_nbi, T *dest, const T *source, size_t nelems, int pe)                       \
  GSHMEM_DECL2(void, N##_p, T *dest, T value, int pe)                                                     \
  GSHMEM_DECL2(T, N##_g, const T *source, int pe)                                                         \
  GSHMEM_DECL2(void, N##_iput, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
  GSHMEM_DECL2(void, N##_iget, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe) \
  GSHMEM_DECL2(void, N##_put_signal, T *dest, const T *source, size_t nelems, uint64_t *sig_addr,         \
               uint64_t signal, int sig_op, int pe)                                                        \
  GSHMEM_DECL2(void, N##_put_signal_nbi, T *dest, const T *source, size_t nelems, uint64_t *sig_addr,     \
               uint64_t signal, int sig_op, int pe)
GSHMEM_RMA_TYPES(GSHMEM_DECL_RMA_TYPED)
#undef GSHMEM_DECL_RMA_TYPED

/* ---- sized RMA: shmem_[ctx_]{put,get,iput,iget}BITS[_nbi], shmem_[ctx_]putBITS_signal[_nbi] */
#define GSHMEM_DECL_RMA_SIZED(BITS, BYTES)                                                                  \
  GSHMEM_DECL2(void, put##BITS, void *dest, const void *source, size_t nelems, int pe)                     \
  GSHMEM_DECL2(void, get##BITS, void *dest, const void *source, size_t nelems, int pe)                     \
  GSHMEM_DECL2(void, put##BITS##_nbi, void *dest, const void *source, size_t nelems, int pe)               \
  GSHMEM_DECL2(void, get##BITS##_nbi, void *dest, const void *source, size_t nelems, int pe)               \
  GSHMEM_DECL2(void, iput##BITS, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
               int pe)                                                                                      \
  GSHMEM_DECL2(void, iget##BITS, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
               int pe)                                                                                      \
  GSHMEM_DECL2(void, put##BITS##_signal, void *dest, const void *source, size_t nelems, uint64_t *sig_addr, \
               uint64_t signal, int sig_op, int pe)                                                         \
  GSHMEM_DECL2(void, put##BITS##_signal_nbi, void *dest, const void *source, size_t nelems,                \
               uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
GSHMEM_SIZED_RMA(GSHMEM_DECL_RMA_SIZED)
#undef GSHMEM_DECL_RMA_SIZED

/* ---- bytes: shmem_[ctx_]{putmem,getmem}[_nbi], shmem_[ctx_]putmem_signal[_nbi] */
GSHMEM_DECL2(void, putmem, void *dest, const void *source, size_t nelems, int pe)
GSHMEM_DECL2(void, getmem, void *dest, const void *source, size_t nelems, int pe)
GSHMEM_DECL2(void, putmem_nbi, void *dest, const void *source, size_t nelems, int pe)
GSHMEM_DECL2(void, getmem_nbi, void *dest, const void *source, size_t nelems, int pe)
GSHMEM_DECL2(void, putmem_signal, void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
             uint64_t signal, int sig_op, int pe)
GSHMEM_DECL2(void, putmem_signal_nbi, void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
             uint64_t signal, int sig_op, int pe)

#ifdef __cplusplus
}
#endif

#endif /* GSHMEM_C_RMA_H */
