// The device proxy: one CPU thread per PE that drains this GPU's request ring (format in
// include/gshmem/device/impl/handle__types.cuh, producer detail::proxyPost in impl/api__funcs.cuh, consumer in
// proxy_ring.hpp) and executes each request through a small interface to the device backend (put/get/AMO on a
// PE's device heap), retiring requests in batches. Private to src/core.
//
// The proxy serves no other PE: requests that peers send to this PE's heap are served by the staged protocols'
// server threads (dispatch.hpp), so proxies never wait for each other.
// No CUDA types here: the stream is passed as CUstream_st*.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "gshmem/device/impl/handle__types.cuh"
#include "transports/transport.hpp"  // AmoOp

struct CUstream_st;

namespace gshmem::protocols {

/// How the proxy reaches a PE's device heap. Every function is called on the proxy thread only and returns the
/// operation's Status. put/get either complete before they return (*queued = false) or leave the copy ordered on
/// @p stream (*queued = true; the proxy synchronizes the stream before it reports the request complete). A PE is
/// reached one way or the other, never both. amo completes before it returns, with the old value in *old (0 for
/// non-fetching operations). route names the way to a PE, for the report of a failed request.
struct ProxyTarget {
  Status (*put)(int pe, std::size_t off, const void* src, std::size_t n, CUstream_st* stream, bool* queued);
  Status (*get)(int pe, std::size_t off, void* dst, std::size_t n, CUstream_st* stream, bool* queued);
  Status (*amo)(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond, uint64_t* old);
  /// Start a put followed by a non-fetching atomic on the same PE (a put with signal), applied in that order:
  /// returns once the source may be reused, with *token for complete(pe, token), which returns once both are
  /// applied. Unsupported where the route cannot fuse them (the proxy then runs put, then amo). May be null.
  Status (*putAmo)(int pe, std::size_t off, const void* src, std::size_t n, std::size_t amo_off, AmoOp op,
                   unsigned size, uint64_t value, uint64_t* token);
  Status (*complete)(int pe, uint64_t token);
  /// Whether putAmo can fuse a put and an atomic to @p pe (fixed after initialisation). May be null: never.
  bool (*fuses)(int pe);
  const char* (*route)(int pe);
  /// Called once on the proxy thread before it serves any request: creates what the requests use on that thread
  /// (its stream, its pinned result), so that serving a request never allocates (an allocation may wait for the
  /// GPU, which may be waiting for that very request). May be null.
  Status (*threadInit)();
};

/// Allocate the ring on GPU @p device, fill @p ring (the DeviceHandle's copy the kernels use) and start the
/// thread. @p heap_bytes: the size of every PE's device heap (offsets the requests must carry). Not collective.
/// Fails, with the one-line reason and its fix in *err, when the job is beyond the request format or CUDA refuses
/// the ring's memory.
/// A request that fails on the proxy thread cannot be returned to the GPU that posted it: the thread reports it
/// (this PE, the request, its peer and route) and ends the job (serviceFailed, core/runtime/runtime.hpp), unless
/// the process is already exiting, when it is dropped.
Status proxyStart(int device, std::size_t heap_bytes, const ProxyTarget& target, ProxyRing* ring, std::string* err);
/// Stop and join the thread, free the ring. Idempotent. A program that exits without finalize needs no call:
/// the thread is a ServiceThread, stopped at exit without touching CUDA.
void proxyStop();
/// Whether the thread is running.
bool proxyRunning();

}  // namespace gshmem::protocols
