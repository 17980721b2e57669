// The device proxy: one CPU thread per PE that drains this GPU's request ring (the device API's producer side is
// detail::proxyPost in include/gshmem/device/impl/api__funcs.cuh) and executes each request through a small
// interface to the device backend (put/get/AMO on a PE's device heap). Private to src/core.
//
// The thread also gives the backend a turn on every pass of its loop (ProxyTarget::serve), so requests that
// other PEs send to this PE's heap are served while the GPU is idle or while a request of ours waits on a peer.
// No CUDA types here: the stream is passed as CUstream_st*.
#pragma once
#include <cstddef>
#include <cstdint>

#include "gshmem/device/impl/handle__types.cuh"
#include "transports/transport.hpp"  // AmoOp

struct CUstream_st;

namespace gshmem::protocols {

/// How the proxy reaches a PE's device heap. Every function is called on the proxy thread only. put/get may
/// return before the copy is done if it is ordered on @p stream (the proxy synchronizes the stream before it
/// reports the request complete); amo returns the old value (0 for non-fetching operations).
struct ProxyTarget {
  void (*put)(int pe, std::size_t off, const void* src, std::size_t n, CUstream_st* stream);
  void (*get)(int pe, std::size_t off, void* dst, std::size_t n, CUstream_st* stream);
  uint64_t (*amo)(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond);
  /// Serve requests of other PEs on this PE's heap; returns whether it did something.
  bool (*serve)();
};

/// Allocate the ring on GPU @p device, fill @p ring (the DeviceHandle's copy the kernels use) and start the
/// thread. Not collective. Fatal (one line naming @p call) when CUDA refuses the ring's memory.
void proxyStart(const char* call, int device, const ProxyTarget& target, ProxyRing* ring);
/// Stop and join the thread, free the ring. Idempotent; safe at process exit (see proxy.cpp).
void proxyStop();
/// Whether the thread is running.
bool proxyRunning();

}  // namespace gshmem::protocols
