// The protocols' own kernels: the p2p_sm copy and the atomic applied for the host, the proxy and the staged
// server. Private to src/core/protocols.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gshmem::protocols {
/// Copy @p n bytes from @p src to @p dst with SM loads and stores (either may be a peer's IPC-mapped memory),
/// on @p stream. 16-byte vectors when both are 16-byte aligned.
cudaError_t launchSmCopy(void* dst, const void* src, std::size_t n, cudaStream_t stream);
/// Atomic `op` (an AmoOp value) of `size` (4 or 8) bytes at device address `addr`; the old value lands in `*result`
/// (pinned host memory) once @p stream reaches it.
cudaError_t launchAmo(void* addr, uint32_t op, unsigned size, uint64_t value, uint64_t cond, uint64_t* result,
                      cudaStream_t stream);
/// Store @p value in the @p size-byte (4 or 8) word at device address @p addr once @p stream reaches it, after
/// the stream's earlier work is visible: a stream memory operation (cuStreamWriteValue, no kernel launch) where the
/// driver offers one, else launchAmo's Set (which leaves the old value in *result).
cudaError_t enqueueSet(void* addr, unsigned size, uint64_t value, uint64_t* result, cudaStream_t stream);
/// Load the kernels now: with CUDA lazy loading, a first launch by the proxy or the staged server while a user
/// kernel spins on a proxied operation would wait for that kernel, which waits for the proxy (deadlock).
cudaError_t loadKernels();
}  // namespace gshmem::protocols
