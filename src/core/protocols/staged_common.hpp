// What both staged protocols (staged_pipeline.cpp over the shm channel, staged_ucx.cpp over UCX) share: one side
// of a pipeline in this process (a non-blocking stream and one event per slot) and the CUDA error path. Private to
// src/core/protocols.
#pragma once
#include <cuda_runtime.h>

#include <thread>

#include "base/log.hpp"
#include "base/status.hpp"
#include "core/runtime/runtime.hpp"
#include "core/protocols/service_thread.hpp"

namespace gshmem::protocols::staged {

constexpr int kMaxDepth = 16;
constexpr std::size_t kMinChunk = std::size_t(256) << 10;
/// Request codes of both staged protocols (ChannelRequest::op).
enum : uint32_t { kOpPut = 1, kOpGet = 2, kOpAmo = 3 };

/// One side of a pipeline in this process: its stream and per-slot events.
struct Side {
  cudaStream_t stream = nullptr;
  cudaEvent_t ev[kMaxDepth] = {};
  cudaEvent_t user = nullptr;  ///< orders the side after the caller's stream
};

/// Log `what` failing with `e` once (subsystem TRANSPORT, prefixed by `who`) and return SystemError.
inline Status cudaFailed(const char* who, const char* what, cudaError_t e) {
  GSHMEM_LOG_ERROR(TRANSPORT, "%s: %s failed: %s", who, what, cudaGetErrorString(e));
  return Status::SystemError;
}

/// Return cudaFailed(kWho, ...) from the enclosing Status function when @p expr fails (each staged protocol's file
/// defines kWho, the name its errors carry).
#define STAGED_CUDA_TRY(expr)                                   \
  do {                                                          \
    cudaError_t e_ = (expr);                                    \
    if (e_ != cudaSuccess) return cudaFailed(kWho, #expr, e_); \
  } while (0)

inline Status sideCreate(const char* who, Side* s, int depth) {
  cudaError_t e = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking);
  for (int i = 0; i < depth && e == cudaSuccess; ++i) e = cudaEventCreateWithFlags(&s->ev[i], cudaEventDisableTiming);
  if (e == cudaSuccess) e = cudaEventCreateWithFlags(&s->user, cudaEventDisableTiming);
  return e == cudaSuccess ? Status::Ok : cudaFailed(who, "creating a stream and its events", e);
}

inline void sideDestroy(Side* s, int depth) {
  if (!s->stream) return;
  cudaStreamSynchronize(s->stream);
  for (int i = 0; i < depth; ++i)
    if (s->ev[i]) cudaEventDestroy(s->ev[i]);
  if (s->user) cudaEventDestroy(s->user);
  cudaStreamDestroy(s->stream);
  *s = Side{};
}

/// Order the side's stream after the work issued so far on `user` (null: nothing to order after).
inline Status orderAfter(const char* who, Side& s, cudaStream_t user) {
  if (!user) return Status::Ok;
  cudaError_t e = cudaEventRecord(s.user, user);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(s.stream, s.user, 0);
  return e == cudaSuccess ? Status::Ok : cudaFailed(who, "ordering after the caller's stream", e);
}

/// *yes = whether `e` completed; an error other than "not ready" is returned.
inline Status eventDone(const char* who, cudaEvent_t e, bool* yes) {
  cudaError_t r = cudaEventQuery(e);
  *yes = r == cudaSuccess;
  return r == cudaSuccess || r == cudaErrorNotReady ? Status::Ok : cudaFailed(who, "copy", r);
}

/// One idle poll of a wait on a peer: spin, then yield the core (PEs and their threads may outnumber cores).
/// @return false once the process is exiting (serviceExiting): the caller gives up with Status::RemoteError.
inline bool relax(long* idle) {
  if (++*idle > 4096) std::this_thread::yield();
  else GSHMEM_CPU_RELAX();
  return !serviceExiting();
}

}  // namespace gshmem::protocols::staged
