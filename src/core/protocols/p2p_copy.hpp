// PROTO (issue 6): the p2p_sm protocol's copy kernel. Private to src/core/protocols.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

namespace gshmem::protocols {
/// Copy @p n bytes from @p src to @p dst with SM loads and stores (either may be a peer's IPC-mapped memory),
/// on @p stream. 16-byte vectors when both are 16-byte aligned.
cudaError_t launchSmCopy(void* dst, const void* src, std::size_t n, cudaStream_t stream);
/// Load the kernel now (see loadKernels in device_cuda.cpp: lazy loading could deadlock against the proxy).
cudaError_t loadSmCopy();
}  // namespace gshmem::protocols
