// DEVICE: host-callable launchers of the library's own kernels (device_kernels.cu). Private to src/core/device.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace gshmem::device {
/// Atomic `op` (AmoOp value) of `size` bytes at device address `addr`; the old value lands in pinned `*result`.
cudaError_t launchAmo(void* addr, uint32_t op, unsigned size, uint64_t value, uint64_t cond, uint64_t* result,
                      cudaStream_t stream);
/// Load every library kernel into the current context (defeats lazy loading; see backendInit).
cudaError_t loadKernels();
}  // namespace gshmem::device
