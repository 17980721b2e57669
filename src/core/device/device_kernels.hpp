// Host-callable helpers of the device layer's own kernels and the argument checks of its stream-ordered calls
// (device_kernels.cu), shared by the stream collectives (device_coll.cu). Private to src/core/device.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "gshmem/device/impl/handle__types.cuh"

namespace gshmem::device {
/// Load every kernel of the device layer into the current context (defeats lazy loading; see heapCreate).
cudaError_t loadKernels();
/// Enqueue the device barrier (barrier_all with @p do_quiet, else sync_all) on @p s; the caller checks the launch.
void launchBarrier(const DeviceHandle& h, bool do_quiet, cudaStream_t s);

// Each check ends the job with @p call's one-line error when it fails.
/// This PE's DeviceHandle; there must be a device heap.
const DeviceHandle& handleFor(const char* call);
/// [p, p + n) lies in the device symmetric heap; @p what names the argument.
void checkDev(const char* call, const char* what, const void* p, std::size_t n);
/// The kernel launch just made on this thread was accepted.
void checkLaunch(const char* call);
}  // namespace gshmem::device
