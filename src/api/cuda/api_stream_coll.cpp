// Public C API, CUDA builds only: the stream collectives gshmemx_*_on_stream (declared in
// gshmem/device/impl/coll__decls.cuh), each a wrapper over the device layer's function (collectives/device/stream_coll.hpp).
#include "collectives/device/stream_coll.hpp"

extern "C" {

#define GSHMEMI_API_RED_STREAM(N, T, OP, O)                                                                    \
  int gshmemx_##N##_##OP##_reduce_on_stream(gshmem_team_t t, T* d, const T* s, size_t n, cudaStream_t st) {   \
    return gshmem::device::reduceOnStream_##N##_##OP("gshmemx_" #N "_" #OP "_reduce_on_stream", t, d, s, n,   \
                                                     false, st);                                              \
  }                                                                                                           \
  int gshmemx_##N##_##OP##_reducescatter_on_stream(gshmem_team_t t, T* d, const T* s, size_t n,               \
                                                   cudaStream_t st) {                                         \
    return gshmem::device::reduceOnStream_##N##_##OP("gshmemx_" #N "_" #OP "_reducescatter_on_stream", t, d, \
                                                     s, n, true, st);                                         \
  }
#define GSHMEMI_API_RED_STREAM_ARITH(N, T) GSHMEMI_RED_ARITH_OPS(GSHMEMI_API_RED_STREAM, N, T)
#define GSHMEMI_API_RED_STREAM_BIT(N, T) GSHMEMI_RED_BIT_OPS(GSHMEMI_API_RED_STREAM, N, T)
GSHMEMI_RED_ARITH_TYPES(GSHMEMI_API_RED_STREAM_ARITH)
GSHMEMI_RED_BIT_TYPES(GSHMEMI_API_RED_STREAM_BIT)
GSHMEMI_RED_PAIR_TYPES(GSHMEMI_API_RED_STREAM)

int gshmemx_broadcastmem_on_stream(gshmem_team_t t, void* d, const void* s, size_t n, int root, cudaStream_t st) {
  return gshmem::device::broadcastOnStream("gshmemx_broadcastmem_on_stream", t, d, s, n, root, st);
}
int gshmemx_fcollectmem_on_stream(gshmem_team_t t, void* d, const void* s, size_t n, cudaStream_t st) {
  return gshmem::device::fcollectOnStream("gshmemx_fcollectmem_on_stream", t, d, s, n, st);
}
int gshmemx_alltoallmem_on_stream(gshmem_team_t t, void* d, const void* s, size_t n, cudaStream_t st) {
  return gshmem::device::alltoallOnStream("gshmemx_alltoallmem_on_stream", t, d, s, n, st);
}
void gshmemx_barrier_on_stream(gshmem_team_t t, cudaStream_t st) {
  gshmem::device::syncOnStream("gshmemx_barrier_on_stream", t, true, st);
}
void gshmemx_team_sync_on_stream(gshmem_team_t t, cudaStream_t st) {
  gshmem::device::syncOnStream("gshmemx_team_sync_on_stream", t, false, st);
}

}  // extern "C"
