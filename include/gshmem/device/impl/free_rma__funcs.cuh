// Layer 3, more NVSHMEM-style free functions over this translation unit's handle (free__funcs.cuh): strided RMA,
// put-with-signal on typed and sized elements, and the sized (8 ... 128-bit) RMA. Included by free__funcs.cuh.
#pragma once
#include "gshmem/device/impl/types__list.cuh"

// ---- typed strided RMA and put-with-signal: thread, warp and block scope
#define GSHMEMI_DEF_IRMA_SCOPE(N, T, PFX, SFX, S)                                                                  \
  __device__ inline void PFX##_##N##_iput##SFX(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    gshmem::dev::iput<S, T>(GSHMEMI_H, d, s, dst, sst, n, pe);                                                     \
  }                                                                                                                \
  __device__ inline void PFX##_##N##_iget##SFX(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    gshmem::dev::iget<S, T>(GSHMEMI_H, d, s, dst, sst, n, pe);                                                     \
  }                                                                                                                \
  __device__ inline void PFX##_##N##_put_signal##SFX(T* d, const T* s, size_t n, uint64_t* sig, uint64_t v,       \
                                                     int op, int pe) {                                            \
    gshmem::dev::putmemSignal<S>(GSHMEMI_H, d, s, n * sizeof(T), sig, v, op, pe, false);                           \
  }                                                                                                                \
  __device__ inline void PFX##_##N##_put_signal_nbi##SFX(T* d, const T* s, size_t n, uint64_t* sig, uint64_t v,   \
                                                         int op, int pe) {                                        \
    gshmem::dev::putmemSignal<S>(GSHMEMI_H, d, s, n * sizeof(T), sig, v, op, pe, true);                            \
  }
#define GSHMEMI_DEF_IRMA(N, T)                                      \
  GSHMEMI_DEF_IRMA_SCOPE(N, T, gshmem, , gshmem::kScopeThread)      \
  GSHMEMI_DEF_IRMA_SCOPE(N, T, gshmemx, _warp, gshmem::kScopeWarp) \
  GSHMEMI_DEF_IRMA_SCOPE(N, T, gshmemx, _block, gshmem::kScopeBlock)
GSHMEMI_RMA_TYPES(GSHMEMI_DEF_IRMA)

// ---- sized RMA: gshmem_putB, getB, putB_nbi, getB_nbi, iputB, igetB, putB_signal[_nbi] (B bits per element;
// nelems counts elements), thread, warp and block scope
#define GSHMEMI_DEF_SIZED_SCOPE(B, E, PFX, SFX, S)                                                                  \
  __device__ inline void PFX##_put##B##SFX(void* d, const void* s, size_t n, int pe) {                             \
    gshmem::dev::putmem<S>(GSHMEMI_H, d, s, n * sizeof(E), pe);                                                    \
  }                                                                                                                \
  __device__ inline void PFX##_get##B##SFX(void* d, const void* s, size_t n, int pe) {                             \
    gshmem::dev::getmem<S>(GSHMEMI_H, d, s, n * sizeof(E), pe);                                                    \
  }                                                                                                                \
  __device__ inline void PFX##_put##B##_nbi##SFX(void* d, const void* s, size_t n, int pe) {                      \
    gshmem::dev::putmem<S>(GSHMEMI_H, d, s, n * sizeof(E), pe, true);                                              \
  }                                                                                                                \
  __device__ inline void PFX##_get##B##_nbi##SFX(void* d, const void* s, size_t n, int pe) {                      \
    gshmem::dev::getmem<S>(GSHMEMI_H, d, s, n * sizeof(E), pe, true);                                              \
  }                                                                                                                \
  __device__ inline void PFX##_iput##B##SFX(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n,       \
                                           int pe) {                                                              \
    gshmem::dev::iput<S, E>(GSHMEMI_H, static_cast<E*>(d), static_cast<const E*>(s), dst, sst, n, pe);            \
  }                                                                                                                \
  __device__ inline void PFX##_iget##B##SFX(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n,       \
                                           int pe) {                                                              \
    gshmem::dev::iget<S, E>(GSHMEMI_H, static_cast<E*>(d), static_cast<const E*>(s), dst, sst, n, pe);            \
  }                                                                                                                \
  __device__ inline void PFX##_put##B##_signal##SFX(void* d, const void* s, size_t n, uint64_t* sig, uint64_t v,  \
                                                    int op, int pe) {                                             \
    gshmem::dev::putmemSignal<S>(GSHMEMI_H, d, s, n * sizeof(E), sig, v, op, pe, false);                           \
  }                                                                                                                \
  __device__ inline void PFX##_put##B##_signal_nbi##SFX(void* d, const void* s, size_t n, uint64_t* sig,          \
                                                        uint64_t v, int op, int pe) {                             \
    gshmem::dev::putmemSignal<S>(GSHMEMI_H, d, s, n * sizeof(E), sig, v, op, pe, true);                            \
  }
#define GSHMEMI_DEF_SIZED(B, E)                                      \
  GSHMEMI_DEF_SIZED_SCOPE(B, E, gshmem, , gshmem::kScopeThread)      \
  GSHMEMI_DEF_SIZED_SCOPE(B, E, gshmemx, _warp, gshmem::kScopeWarp) \
  GSHMEMI_DEF_SIZED_SCOPE(B, E, gshmemx, _block, gshmem::kScopeBlock)
GSHMEMI_SIZED(GSHMEMI_DEF_SIZED)
