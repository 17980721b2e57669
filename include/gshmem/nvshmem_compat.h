/* build common NVSHMEM programs unchanged against gshmem. Include instead of <nvshmem.h> and
 * <nvshmemx.h> from CUDA sources (nvcc). Maps nvshmem_/nvshmemx_ names and constants onto gshmem's.
 * Not mapped: teams other than the world, init through a unique ID (the MPI bootstrap is used: launch with
 * mpirun), complex and double2 reductions. */
#ifndef GSHMEM_NVSHMEM_COMPAT_H
#define GSHMEM_NVSHMEM_COMPAT_H

#include <shmem.h>
#include <shmemx.h>

#ifdef __CUDACC__
#include <gshmem/device.cuh>
#endif

/* ---- constants */
#define NVSHMEM_CMP_EQ GSHMEM_CMP_EQ
#define NVSHMEM_CMP_NE GSHMEM_CMP_NE
#define NVSHMEM_CMP_GT GSHMEM_CMP_GT
#define NVSHMEM_CMP_GE GSHMEM_CMP_GE
#define NVSHMEM_CMP_LT GSHMEM_CMP_LT
#define NVSHMEM_CMP_LE GSHMEM_CMP_LE
#define NVSHMEM_SIGNAL_SET GSHMEM_SIGNAL_SET
#define NVSHMEM_SIGNAL_ADD GSHMEM_SIGNAL_ADD
/* Teams as NVSHMEM names them: small integers on host and device (gshmem_team_t). The world is the only one
 * mapped so far; the host team calls translate it to SHMEM_TEAM_WORLD. */
#ifndef GSHMEM_TEAM_WORLD /* as include/gshmem/device/impl/handle__types.cuh */
typedef int32_t gshmem_team_t;
#define GSHMEM_TEAM_WORLD 0
#endif
typedef gshmem_team_t nvshmem_team_t;
#define NVSHMEM_TEAM_WORLD GSHMEM_TEAM_WORLD
#define NVSHMEM_TEAM_INVALID (-1)
#define NVSHMEMX_INIT_WITH_MPI_COMM 1
#define NVSHMEMX_INIT_THREAD_PES 2
#define NVSHMEMX_INIT_WITH_UNIQUEID 4
typedef struct { int version; void* mpi_comm; } nvshmemx_init_attr_t;
#define NVSHMEMX_INIT_ATTR_INITIALIZER {0, 0}

/* ---- setup and memory (host) */
static inline void nvshmem_init(void) { shmem_init(); }
static inline int nvshmemx_init_attr(unsigned int flags, nvshmemx_init_attr_t* attr) {
  (void)flags; (void)attr; shmem_init(); return 0;
}
static inline void nvshmem_finalize(void) { shmem_finalize(); }
static inline void nvshmem_global_exit(int status) { shmem_global_exit(status); }
static inline void* nvshmem_malloc(size_t size) { return gshmemx_malloc_device(size); }
static inline void* nvshmem_calloc(size_t count, size_t size) { return gshmemx_calloc_device(count, size); }
static inline void* nvshmem_align(size_t alignment, size_t size) {
  (void)alignment; /* device blocks are 256-byte aligned */ return gshmemx_malloc_device(size);
}
static inline void nvshmem_free(void* ptr) { shmem_free(ptr); }
static inline int nvshmem_team_my_pe(nvshmem_team_t t) {
  return t == NVSHMEM_TEAM_WORLD ? shmem_team_my_pe(SHMEM_TEAM_WORLD) : -1;
}
static inline int nvshmem_team_n_pes(nvshmem_team_t t) {
  return t == NVSHMEM_TEAM_WORLD ? shmem_team_n_pes(SHMEM_TEAM_WORLD) : -1;
}

/* ---- host stream-ordered */
#define nvshmemx_putmem_on_stream gshmemx_putmem_on_stream
#define nvshmemx_getmem_on_stream gshmemx_getmem_on_stream
#define nvshmemx_putmem_nbi_on_stream gshmemx_putmem_on_stream
#define nvshmemx_getmem_nbi_on_stream gshmemx_getmem_on_stream
#define nvshmemx_putmem_signal_on_stream gshmemx_putmem_signal_on_stream
#define nvshmemx_signal_wait_until_on_stream gshmemx_signal_wait_until_on_stream
#define nvshmemx_quiet_on_stream gshmemx_quiet_on_stream
#define nvshmemx_barrier_all_on_stream gshmemx_barrier_all_on_stream
#define nvshmemx_sync_all_on_stream gshmemx_sync_all_on_stream

#ifdef __CUDACC__
/* ---- host and device (the gshmem functions are __host__ __device__ where NVSHMEM's are) */
#define nvshmem_my_pe gshmem_my_pe
#define nvshmem_n_pes gshmem_n_pes
#define nvshmem_ptr gshmem_ptr
#define nvshmem_barrier_all gshmem_barrier_all
#define nvshmem_sync_all gshmem_sync_all
/* ---- device */
#define nvshmem_putmem gshmem_putmem
#define nvshmem_getmem gshmem_getmem
#define nvshmem_putmem_nbi gshmem_putmem_nbi
#define nvshmem_getmem_nbi gshmem_getmem_nbi
#define nvshmemx_putmem_warp gshmemx_putmem_warp
#define nvshmemx_putmem_block gshmemx_putmem_block
#define nvshmemx_getmem_warp gshmemx_getmem_warp
#define nvshmemx_getmem_block gshmemx_getmem_block
#define nvshmemx_putmem_nbi_warp gshmemx_putmem_nbi_warp
#define nvshmemx_putmem_nbi_block gshmemx_putmem_nbi_block
#define nvshmemx_getmem_nbi_warp gshmemx_getmem_nbi_warp
#define nvshmemx_getmem_nbi_block gshmemx_getmem_nbi_block
#define nvshmem_putmem_signal gshmem_putmem_signal
#define nvshmem_putmem_signal_nbi gshmem_putmem_signal_nbi
#define nvshmemx_putmem_signal_warp gshmemx_putmem_signal_warp
#define nvshmemx_putmem_signal_block gshmemx_putmem_signal_block
#define nvshmemx_putmem_signal_nbi_warp gshmemx_putmem_signal_nbi_warp
#define nvshmemx_putmem_signal_nbi_block gshmemx_putmem_signal_nbi_block
#define nvshmemx_signal_op gshmemx_signal_op
#define nvshmem_signal_wait_until gshmem_signal_wait_until
#define nvshmem_signal_fetch gshmem_signal_fetch
#define nvshmem_fence gshmem_fence
#define nvshmem_quiet gshmem_quiet
#define nvshmemx_barrier_all_block gshmemx_barrier_all_block
#define nvshmemx_barrier_all_warp gshmemx_barrier_all_warp
#define nvshmemx_sync_all_block gshmemx_sync_all_block
/* typed: nvshmem_T_* and nvshmemx_T_* for every type gshmem stamps */
#define nvshmem_float_p gshmem_float_p
#define nvshmem_double_p gshmem_double_p
#define nvshmem_int_p gshmem_int_p
#define nvshmem_long_p gshmem_long_p
#define nvshmem_uint8_p gshmem_uint8_p
#define nvshmem_uint16_p gshmem_uint16_p
#define nvshmem_uint32_p gshmem_uint32_p
#define nvshmem_uint64_p gshmem_uint64_p
#define nvshmem_float_g gshmem_float_g
#define nvshmem_double_g gshmem_double_g
#define nvshmem_int_g gshmem_int_g
#define nvshmem_long_g gshmem_long_g
#define nvshmem_uint8_g gshmem_uint8_g
#define nvshmem_uint16_g gshmem_uint16_g
#define nvshmem_uint32_g gshmem_uint32_g
#define nvshmem_uint64_g gshmem_uint64_g
#define nvshmem_float_put gshmem_float_put
#define nvshmem_float_get gshmem_float_get
#define nvshmem_float_put_nbi gshmem_float_put_nbi
#define nvshmem_float_get_nbi gshmem_float_get_nbi
#define nvshmem_double_put_nbi gshmem_double_put_nbi
#define nvshmem_int_put_nbi gshmem_int_put_nbi
#define nvshmemx_float_put_nbi_block gshmemx_float_put_nbi_block
#define nvshmemx_float_put_nbi_warp gshmemx_float_put_nbi_warp
#define nvshmemx_float_put_block gshmemx_float_put_block
#define nvshmemx_float_put_warp gshmemx_float_put_warp
#define nvshmemx_double_put_nbi_block gshmemx_double_put_nbi_block
#define nvshmemx_int_put_nbi_block gshmemx_int_put_nbi_block
#define nvshmem_uint64_wait_until gshmem_uint64_wait_until
#define nvshmem_uint64_test gshmem_uint64_test
#define nvshmem_int_wait_until gshmem_int_wait_until
#define nvshmem_uint64_atomic_fetch gshmem_uint64_atomic_fetch
#define nvshmem_uint64_atomic_set gshmem_uint64_atomic_set
#define nvshmem_uint64_atomic_swap gshmem_uint64_atomic_swap
#define nvshmem_uint64_atomic_compare_swap gshmem_uint64_atomic_compare_swap
#define nvshmem_uint64_atomic_fetch_add gshmem_uint64_atomic_fetch_add
#define nvshmem_uint64_atomic_add gshmem_uint64_atomic_add
#define nvshmem_uint64_atomic_fetch_inc gshmem_uint64_atomic_fetch_inc
#define nvshmem_uint64_atomic_inc gshmem_uint64_atomic_inc
#define nvshmem_uint64_atomic_fetch_and gshmem_uint64_atomic_fetch_and
#define nvshmem_uint64_atomic_and gshmem_uint64_atomic_and
#define nvshmem_uint64_atomic_fetch_or gshmem_uint64_atomic_fetch_or
#define nvshmem_uint64_atomic_or gshmem_uint64_atomic_or
#define nvshmem_uint64_atomic_fetch_xor gshmem_uint64_atomic_fetch_xor
#define nvshmem_uint64_atomic_xor gshmem_uint64_atomic_xor
#define nvshmem_int_atomic_fetch_add gshmem_int_atomic_fetch_add
#define nvshmem_int_atomic_add gshmem_int_atomic_add
#define nvshmem_int_atomic_inc gshmem_int_atomic_inc
#define nvshmem_int_atomic_fetch_inc gshmem_int_atomic_fetch_inc
#define nvshmem_int_atomic_compare_swap gshmem_int_atomic_compare_swap
#define nvshmem_long_atomic_fetch_add gshmem_long_atomic_fetch_add
#define nvshmem_long_atomic_add gshmem_long_atomic_add
/* collectives: nvshmem[x]_<name> forwards to gshmem[x]_<name> for every type, operator and scope gshmem defines
 * (include/gshmem/device/impl/coll__decls.cuh lists them) */
#define GSHMEMI_NV_RED(N, T, OP, O)                                                                                 \
  __host__ __device__ inline int nvshmem_##N##_##OP##_reduce(nvshmem_team_t t, T* d, const T* s, size_t n) {        \
    return gshmem_##N##_##OP##_reduce(t, d, s, n);                                                                   \
  }                                                                                                                  \
  __host__ __device__ inline int nvshmem_##N##_##OP##_reducescatter(nvshmem_team_t t, T* d, const T* s, size_t n) { \
    return gshmem_##N##_##OP##_reducescatter(t, d, s, n);                                                            \
  }                                                                                                                  \
  __device__ inline int nvshmemx_##N##_##OP##_reduce_warp(nvshmem_team_t t, T* d, const T* s, size_t n) {           \
    return gshmemx_##N##_##OP##_reduce_warp(t, d, s, n);                                                             \
  }                                                                                                                  \
  __device__ inline int nvshmemx_##N##_##OP##_reduce_block(nvshmem_team_t t, T* d, const T* s, size_t n) {          \
    return gshmemx_##N##_##OP##_reduce_block(t, d, s, n);                                                            \
  }                                                                                                                  \
  __device__ inline int nvshmemx_##N##_##OP##_reducescatter_warp(nvshmem_team_t t, T* d, const T* s, size_t n) {    \
    return gshmemx_##N##_##OP##_reducescatter_warp(t, d, s, n);                                                      \
  }                                                                                                                  \
  __device__ inline int nvshmemx_##N##_##OP##_reducescatter_block(nvshmem_team_t t, T* d, const T* s, size_t n) {   \
    return gshmemx_##N##_##OP##_reducescatter_block(t, d, s, n);                                                     \
  }                                                                                                                  \
  inline int nvshmemx_##N##_##OP##_reduce_on_stream(nvshmem_team_t t, T* d, const T* s, size_t n, cudaStream_t st) { \
    return gshmemx_##N##_##OP##_reduce_on_stream(t, d, s, n, st);                                                    \
  }                                                                                                                  \
  inline int nvshmemx_##N##_##OP##_reducescatter_on_stream(nvshmem_team_t t, T* d, const T* s, size_t n,            \
                                                           cudaStream_t st) {                                       \
    return gshmemx_##N##_##OP##_reducescatter_on_stream(t, d, s, n, st);                                             \
  }
#define GSHMEMI_NV_RED_ARITH(N, T) GSHMEMI_RED_ARITH_OPS(GSHMEMI_NV_RED, N, T)
#define GSHMEMI_NV_RED_BIT(N, T) GSHMEMI_RED_BIT_OPS(GSHMEMI_NV_RED, N, T)
GSHMEMI_RED_ARITH_TYPES(GSHMEMI_NV_RED_ARITH)
GSHMEMI_RED_BIT_TYPES(GSHMEMI_NV_RED_BIT)
#define GSHMEMI_NV_MOVERS(N, T)                                                                                     \
  __host__ __device__ inline int nvshmem_##N##_broadcast(nvshmem_team_t t, T* d, const T* s, size_t n, int r) {     \
    return gshmem_##N##_broadcast(t, d, s, n, r);                                                                    \
  }                                                                                                                  \
  __host__ __device__ inline int nvshmem_##N##_fcollect(nvshmem_team_t t, T* d, const T* s, size_t n) {             \
    return gshmem_##N##_fcollect(t, d, s, n);                                                                        \
  }                                                                                                                  \
  __host__ __device__ inline int nvshmem_##N##_alltoall(nvshmem_team_t t, T* d, const T* s, size_t n) {             \
    return gshmem_##N##_alltoall(t, d, s, n);                                                                        \
  }                                                                                                                  \
  __device__ inline int nvshmemx_##N##_broadcast_warp(nvshmem_team_t t, T* d, const T* s, size_t n, int r) {        \
    return gshmemx_##N##_broadcast_warp(t, d, s, n, r);                                                              \
  }                                                                                                                  \
  __device__ inline int nvshmemx_##N##_broadcast_block(nvshmem_team_t t, T* d, const T* s, size_t n, int r) {       \
    return gshmemx_##N##_broadcast_block(t, d, s, n, r);                                                             \
  }                                                                                                                  \
  __device__ inline int nvshmemx_##N##_fcollect_warp(nvshmem_team_t t, T* d, const T* s, size_t n) {                \
    return gshmemx_##N##_fcollect_warp(t, d, s, n);                                                                  \
  }                                                                                                                  \
  __device__ inline int nvshmemx_##N##_fcollect_block(nvshmem_team_t t, T* d, const T* s, size_t n) {               \
    return gshmemx_##N##_fcollect_block(t, d, s, n);                                                                 \
  }                                                                                                                  \
  __device__ inline int nvshmemx_##N##_alltoall_warp(nvshmem_team_t t, T* d, const T* s, size_t n) {                \
    return gshmemx_##N##_alltoall_warp(t, d, s, n);                                                                  \
  }                                                                                                                  \
  __device__ inline int nvshmemx_##N##_alltoall_block(nvshmem_team_t t, T* d, const T* s, size_t n) {               \
    return gshmemx_##N##_alltoall_block(t, d, s, n);                                                                 \
  }                                                                                                                  \
  inline int nvshmemx_##N##_broadcast_on_stream(nvshmem_team_t t, T* d, const T* s, size_t n, int r,                \
                                                cudaStream_t st) {                                                  \
    return gshmemx_##N##_broadcast_on_stream(t, d, s, n, r, st);                                                     \
  }                                                                                                                  \
  inline int nvshmemx_##N##_fcollect_on_stream(nvshmem_team_t t, T* d, const T* s, size_t n, cudaStream_t st) {     \
    return gshmemx_##N##_fcollect_on_stream(t, d, s, n, st);                                                         \
  }                                                                                                                  \
  inline int nvshmemx_##N##_alltoall_on_stream(nvshmem_team_t t, T* d, const T* s, size_t n, cudaStream_t st) {     \
    return gshmemx_##N##_alltoall_on_stream(t, d, s, n, st);                                                         \
  }
GSHMEMI_COLL_TYPES(GSHMEMI_NV_MOVERS)
#define nvshmem_broadcastmem gshmem_broadcastmem
#define nvshmem_fcollectmem gshmem_fcollectmem
#define nvshmem_alltoallmem gshmem_alltoallmem
#define nvshmemx_broadcastmem_warp gshmemx_broadcastmem_warp
#define nvshmemx_broadcastmem_block gshmemx_broadcastmem_block
#define nvshmemx_fcollectmem_warp gshmemx_fcollectmem_warp
#define nvshmemx_fcollectmem_block gshmemx_fcollectmem_block
#define nvshmemx_alltoallmem_warp gshmemx_alltoallmem_warp
#define nvshmemx_alltoallmem_block gshmemx_alltoallmem_block
#define nvshmemx_broadcastmem_on_stream gshmemx_broadcastmem_on_stream
#define nvshmemx_fcollectmem_on_stream gshmemx_fcollectmem_on_stream
#define nvshmemx_alltoallmem_on_stream gshmemx_alltoallmem_on_stream
#define nvshmem_barrier gshmem_barrier
#define nvshmem_team_sync gshmem_team_sync
#define nvshmemx_barrier_warp gshmemx_barrier_warp
#define nvshmemx_barrier_block gshmemx_barrier_block
#define nvshmemx_team_sync_warp gshmemx_team_sync_warp
#define nvshmemx_team_sync_block gshmemx_team_sync_block
#define nvshmemx_barrier_on_stream gshmemx_barrier_on_stream
#define nvshmemx_team_sync_on_stream gshmemx_team_sync_on_stream
#define nvshmemx_sync_all_warp gshmemx_sync_all_warp
#endif /* __CUDACC__ */

#endif /* GSHMEM_NVSHMEM_COMPAT_H */
