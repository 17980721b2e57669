// The stream collectives of the device layer (device_coll.cu), behind the gshmemx_*_on_stream collectives of
// src/api/cuda/api_stream_coll.cpp; CUDA builds only. One reduction function per name and operation of the public
// lists (gshmem/device/impl/coll__decls.cuh): reduceOnStream_<name>_<op>(call, team, dest, source, nelems,
// scatter, stream) reduces nelems elements into dest, or with @p scatter reduce-scatters (dest takes this PE's
// nelems of the team's reduction of source's nelems x team size). The movers take bytes per PE. Each checks its
// arguments and returns 0 once the work is on the stream, or ends the job with @p call's one-line error.
#pragma once
#include <cstddef>

#include "core/device/stream.hpp"
#include "gshmem/device/impl/coll__decls.cuh"

namespace gshmem::device {

#define GSHMEMI_CORE_RED_DECL(N, T, OP, O)                                                                   \
  int reduceOnStream_##N##_##OP(const char* call, gshmem_team_t team, T* dest, const T* source, std::size_t n, \
                                bool scatter, Stream st);
#define GSHMEMI_CORE_RED_DECL_ARITH(N, T) GSHMEMI_RED_ARITH_OPS(GSHMEMI_CORE_RED_DECL, N, T)
#define GSHMEMI_CORE_RED_DECL_BIT(N, T) GSHMEMI_RED_BIT_OPS(GSHMEMI_CORE_RED_DECL, N, T)
GSHMEMI_RED_ARITH_TYPES(GSHMEMI_CORE_RED_DECL_ARITH)
GSHMEMI_RED_BIT_TYPES(GSHMEMI_CORE_RED_DECL_BIT)
GSHMEMI_RED_PAIR_TYPES(GSHMEMI_CORE_RED_DECL)
#undef GSHMEMI_CORE_RED_DECL_BIT
#undef GSHMEMI_CORE_RED_DECL_ARITH
#undef GSHMEMI_CORE_RED_DECL

/// @p n bytes from the root's source into every member's dest.
int broadcastOnStream(const char* call, gshmem_team_t team, void* dest, const void* source, std::size_t n, int root,
                      Stream st);
/// @p n bytes of each member, in member order, into every member's dest.
int fcollectOnStream(const char* call, gshmem_team_t team, void* dest, const void* source, std::size_t n, Stream st);
/// Block k of @p n bytes of each member's source into member k's dest, at the sender's index.
int alltoallOnStream(const char* call, gshmem_team_t team, void* dest, const void* source, std::size_t n, Stream st);
/// A barrier (@p do_quiet) or sync of @p team in @p st's order.
void syncOnStream(const char* call, gshmem_team_t team, bool do_quiet, Stream st);

}  // namespace gshmem::device
