// Host-callable helpers of the device layer's own kernels (device_kernels.cu). Private to src/core/device.
#pragma once
#include <cuda_runtime.h>

namespace gshmem::device {
/// Load every kernel of the device layer into the current context (defeats lazy loading; see heapCreate).
cudaError_t loadKernels();
}  // namespace gshmem::device
