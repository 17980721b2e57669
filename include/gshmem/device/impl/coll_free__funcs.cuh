// Layer 3, collectives: the NVSHMEM-style free functions over this translation unit's __constant__ handle
// (free__funcs.cuh), and the declarations of the stream forms the library defines (src/core/device/device_coll.cu).
//
//   gshmem_T_OP_reduce(team, dest, source, nreduce)          host and device (host: blocking, on device memory)
//   gshmem_T_OP_reducescatter(team, dest, source, nreduce)   host and device
//   gshmem_T_{broadcast,fcollect,alltoall}, gshmem_{broadcast,fcollect,alltoall}mem: host and device
//   gshmemx_…_warp / gshmemx_…_block                          device, every lane / thread of the group
//   gshmemx_…_on_stream(…, stream)                            host, ordered on the stream
//   gshmem_barrier(team), gshmem_team_sync(team), _warp/_block/_on_stream forms
// nelems counts items of T; the mem forms count bytes. T and OP: the TYPES lists below (NVSHMEM's names).
// The rules of coll__funcs.cuh apply: a team this PE belongs to, every member's heap mapped, one group per member.
//   gshmem_team_my_pe(team), gshmem_team_n_pes(team), gshmem_team_translate_pe(src, pe, dst): host and device
#pragma once
#include "gshmem/device/impl/coll__decls.cuh"

// ---------------------------------------------------------------------------------- team queries
// On the device from the handle's team table (the world from the handle itself); on the host from the host team of
// the id (gshmemx_team_from_id). Both answer alike: -1 when this PE is in no team of the id.
__host__ __device__ inline int gshmem_team_my_pe(gshmem_team_t t) {
#ifdef __CUDA_ARCH__
  return gshmem::dev::teamMyPe(GSHMEMI_H, t);
#else
  return shmem_team_my_pe(gshmemx_team_from_id(t));
#endif
}
__host__ __device__ inline int gshmem_team_n_pes(gshmem_team_t t) {
#ifdef __CUDA_ARCH__
  return gshmem::dev::teamNPes(GSHMEMI_H, t);
#else
  return shmem_team_n_pes(gshmemx_team_from_id(t));
#endif
}
__host__ __device__ inline int gshmem_team_translate_pe(gshmem_team_t src, int src_pe, gshmem_team_t dst) {
#ifdef __CUDA_ARCH__
  return gshmem::dev::teamTranslatePe(GSHMEMI_H, src, src_pe, dst);
#else
  return shmem_team_translate_pe(gshmemx_team_from_id(src), src_pe, gshmemx_team_from_id(dst));
#endif
}

// ---------------------------------------------------------------------------------- reductions
// The host form of a collective: the stream form on the legacy default stream (ordered after the calling thread's
// earlier default-stream work), then wait for it. DEV is a parenthesized device expression, HOST the stream call.
inline int gshmemi_host_wait(int rc) { return rc != 0 ? rc : (cudaStreamSynchronize(0) == cudaSuccess ? 0 : 1); }
#ifdef __CUDA_ARCH__
#define GSHMEMI_HD(DEV, HOST) return DEV
#else
#define GSHMEMI_HD(DEV, HOST) return gshmemi_host_wait(HOST)
#endif

#define GSHMEMI_DEF_RED(N, T, OP, O)                                                                              \
  __host__ __device__ inline int gshmem_##N##_##OP##_reduce(gshmem_team_t t, T* d, const T* s, size_t n) {        \
    GSHMEMI_HD((gshmem::dev::reduce<gshmem::kScopeThread, O, T>(GSHMEMI_H, t, d, s, n)),                    \
               gshmemx_##N##_##OP##_reduce_on_stream(t, d, s, n, 0));                                               \
  }                                                                                                                \
  __host__ __device__ inline int gshmem_##N##_##OP##_reducescatter(gshmem_team_t t, T* d, const T* s, size_t n) { \
    GSHMEMI_HD((gshmem::dev::reducescatter<gshmem::kScopeThread, O, T>(GSHMEMI_H, t, d, s, n)),             \
               gshmemx_##N##_##OP##_reducescatter_on_stream(t, d, s, n, 0));                                        \
  }                                                                                                                \
  __device__ inline int gshmemx_##N##_##OP##_reduce_warp(gshmem_team_t t, T* d, const T* s, size_t n) {           \
    return gshmem::dev::reduce<gshmem::kScopeWarp, O, T>(GSHMEMI_H, t, d, s, n);                                   \
  }                                                                                                                \
  __device__ inline int gshmemx_##N##_##OP##_reduce_block(gshmem_team_t t, T* d, const T* s, size_t n) {          \
    return gshmem::dev::reduce<gshmem::kScopeBlock, O, T>(GSHMEMI_H, t, d, s, n);                                  \
  }                                                                                                                \
  __device__ inline int gshmemx_##N##_##OP##_reducescatter_warp(gshmem_team_t t, T* d, const T* s, size_t n) {    \
    return gshmem::dev::reducescatter<gshmem::kScopeWarp, O, T>(GSHMEMI_H, t, d, s, n);                            \
  }                                                                                                                \
  __device__ inline int gshmemx_##N##_##OP##_reducescatter_block(gshmem_team_t t, T* d, const T* s, size_t n) {   \
    return gshmem::dev::reducescatter<gshmem::kScopeBlock, O, T>(GSHMEMI_H, t, d, s, n);                           \
  }
#define GSHMEMI_DEF_RED_ARITH(N, T) GSHMEMI_RED_ARITH_OPS(GSHMEMI_DEF_RED, N, T)
#define GSHMEMI_DEF_RED_BIT(N, T) GSHMEMI_RED_BIT_OPS(GSHMEMI_DEF_RED, N, T)
GSHMEMI_RED_ARITH_TYPES(GSHMEMI_DEF_RED_ARITH)
GSHMEMI_RED_BIT_TYPES(GSHMEMI_DEF_RED_BIT)
GSHMEMI_RED_PAIR_TYPES(GSHMEMI_DEF_RED)

// ---------------------------------------------------------------------------------- data movers
#define GSHMEMI_DEF_MOVERS_SCOPE(SFX, S)                                                                          \
  __device__ inline int gshmemx_broadcastmem_##SFX(gshmem_team_t t, void* d, const void* s, size_t n, int root) { \
    return gshmem::dev::broadcastmem<S>(GSHMEMI_H, t, d, s, n, root);                                              \
  }                                                                                                                \
  __device__ inline int gshmemx_fcollectmem_##SFX(gshmem_team_t t, void* d, const void* s, size_t n) {            \
    return gshmem::dev::fcollectmem<S>(GSHMEMI_H, t, d, s, n);                                                     \
  }                                                                                                                \
  __device__ inline int gshmemx_alltoallmem_##SFX(gshmem_team_t t, void* d, const void* s, size_t n) {            \
    return gshmem::dev::alltoallmem<S>(GSHMEMI_H, t, d, s, n);                                                     \
  }                                                                                                                \
  __device__ inline void gshmemx_barrier_##SFX(gshmem_team_t t) { gshmem::dev::teamBarrier<S>(GSHMEMI_H, t, true); } \
  __device__ inline void gshmemx_team_sync_##SFX(gshmem_team_t t) { gshmem::dev::teamBarrier<S>(GSHMEMI_H, t, false); }
GSHMEMI_DEF_MOVERS_SCOPE(warp, gshmem::kScopeWarp)
GSHMEMI_DEF_MOVERS_SCOPE(block, gshmem::kScopeBlock)
__device__ inline void gshmemx_sync_all_warp() { gshmem::dev::barrierAllGroup<gshmem::kScopeWarp>(GSHMEMI_H, false); }

__host__ __device__ inline int gshmem_broadcastmem(gshmem_team_t t, void* d, const void* s, size_t n, int root) {
  GSHMEMI_HD((gshmem::dev::broadcastmem<gshmem::kScopeThread>(GSHMEMI_H, t, d, s, n, root)),
             gshmemx_broadcastmem_on_stream(t, d, s, n, root, 0));
}
__host__ __device__ inline int gshmem_fcollectmem(gshmem_team_t t, void* d, const void* s, size_t n) {
  GSHMEMI_HD((gshmem::dev::fcollectmem<gshmem::kScopeThread>(GSHMEMI_H, t, d, s, n)),
             gshmemx_fcollectmem_on_stream(t, d, s, n, 0));
}
__host__ __device__ inline int gshmem_alltoallmem(gshmem_team_t t, void* d, const void* s, size_t n) {
  GSHMEMI_HD((gshmem::dev::alltoallmem<gshmem::kScopeThread>(GSHMEMI_H, t, d, s, n)),
             gshmemx_alltoallmem_on_stream(t, d, s, n, 0));
}
__host__ __device__ inline void gshmem_barrier(gshmem_team_t t) {
#ifdef __CUDA_ARCH__
  gshmem::dev::teamBarrier<gshmem::kScopeThread>(GSHMEMI_H, t, true);
#else
  gshmemx_barrier_on_stream(t, 0);
  cudaStreamSynchronize(0);
#endif
}
__host__ __device__ inline int gshmem_team_sync(gshmem_team_t t) {
#ifdef __CUDA_ARCH__
  gshmem::dev::teamBarrier<gshmem::kScopeThread>(GSHMEMI_H, t, false);
  return 0;
#else
  gshmemx_team_sync_on_stream(t, 0);
  return cudaStreamSynchronize(0) == cudaSuccess ? 0 : 1;
#endif
}

// Typed movers: nelems items of T (the mem forms with nelems * sizeof(T) bytes).
#define GSHMEMI_DEF_MOVERS(N, T)                                                                                   \
  __host__ __device__ inline int gshmem_##N##_broadcast(gshmem_team_t t, T* d, const T* s, size_t n, int root) {  \
    return gshmem_broadcastmem(t, d, s, n * sizeof(T), root);                                                      \
  }                                                                                                                \
  __host__ __device__ inline int gshmem_##N##_fcollect(gshmem_team_t t, T* d, const T* s, size_t n) {             \
    return gshmem_fcollectmem(t, d, s, n * sizeof(T));                                                             \
  }                                                                                                                \
  __host__ __device__ inline int gshmem_##N##_alltoall(gshmem_team_t t, T* d, const T* s, size_t n) {             \
    return gshmem_alltoallmem(t, d, s, n * sizeof(T));                                                             \
  }                                                                                                                \
  __device__ inline int gshmemx_##N##_broadcast_warp(gshmem_team_t t, T* d, const T* s, size_t n, int root) {     \
    return gshmemx_broadcastmem_warp(t, d, s, n * sizeof(T), root);                                                \
  }                                                                                                                \
  __device__ inline int gshmemx_##N##_broadcast_block(gshmem_team_t t, T* d, const T* s, size_t n, int root) {    \
    return gshmemx_broadcastmem_block(t, d, s, n * sizeof(T), root);                                               \
  }                                                                                                                \
  __device__ inline int gshmemx_##N##_fcollect_warp(gshmem_team_t t, T* d, const T* s, size_t n) {                \
    return gshmemx_fcollectmem_warp(t, d, s, n * sizeof(T));                                                       \
  }                                                                                                                \
  __device__ inline int gshmemx_##N##_fcollect_block(gshmem_team_t t, T* d, const T* s, size_t n) {               \
    return gshmemx_fcollectmem_block(t, d, s, n * sizeof(T));                                                      \
  }                                                                                                                \
  __device__ inline int gshmemx_##N##_alltoall_warp(gshmem_team_t t, T* d, const T* s, size_t n) {                \
    return gshmemx_alltoallmem_warp(t, d, s, n * sizeof(T));                                                       \
  }                                                                                                                \
  __device__ inline int gshmemx_##N##_alltoall_block(gshmem_team_t t, T* d, const T* s, size_t n) {               \
    return gshmemx_alltoallmem_block(t, d, s, n * sizeof(T));                                                      \
  }                                                                                                                \
  inline int gshmemx_##N##_broadcast_on_stream(gshmem_team_t t, T* d, const T* s, size_t n, int root,             \
                                               cudaStream_t st) {                                                  \
    return gshmemx_broadcastmem_on_stream(t, d, s, n * sizeof(T), root, st);                                       \
  }                                                                                                                \
  inline int gshmemx_##N##_fcollect_on_stream(gshmem_team_t t, T* d, const T* s, size_t n, cudaStream_t st) {     \
    return gshmemx_fcollectmem_on_stream(t, d, s, n * sizeof(T), st);                                              \
  }                                                                                                                \
  inline int gshmemx_##N##_alltoall_on_stream(gshmem_team_t t, T* d, const T* s, size_t n, cudaStream_t st) {     \
    return gshmemx_alltoallmem_on_stream(t, d, s, n * sizeof(T), st);                                              \
  }
GSHMEMI_COLL_TYPES(GSHMEMI_DEF_MOVERS)
