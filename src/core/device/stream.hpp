// The stream-ordered calls of the device layer, behind the gshmemx_*_on_stream entry points (src/api/api_device.cpp).
// Defined in device_kernels.cu with CUDA; without it in device_none.cpp, where each ends the job with @p call's
// one-line error (the build has no CUDA). Every function checks its arguments and ends the job with @p call's
// one-line error on a bad one or a failed launch. The stream collectives are collectives/device/stream_coll.hpp.
#pragma once
#include <cstddef>
#include <cstdint>

struct CUstream_st;  // cudaStream_t is CUstream_st*

namespace gshmem::device {

using Stream = CUstream_st*;

/// A put (@p get false) or get of @p n bytes with PE @p pe's device heap, in the order of @p s.
void rmaOnStream(const char* call, void* dest, const void* source, std::size_t n, int pe, Stream s, bool get);
/// A put, then the signal update (GSHMEM_SIGNAL_SET or _ADD) of @p sig on @p pe, in the order of @p s.
void putSignalOnStream(const char* call, void* dest, const void* source, std::size_t n, uint64_t* sig,
                       uint64_t signal, int sig_op, int pe, Stream s);
/// Work on @p s after this waits until *sig cmp value (GSHMEM_CMP_*).
void signalWaitUntilOnStream(const char* call, uint64_t* sig, int cmp, uint64_t value, Stream s);
/// The device puts and gets posted before it on @p s are complete.
void quietOnStream(const char* call, Stream s);
/// A barrier over all PEs in @p s's order: with @p do_quiet (barrier_all) after a quiet, else a sync.
void barrierAllOnStream(const char* call, bool do_quiet, Stream s);

}  // namespace gshmem::device
