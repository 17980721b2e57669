// Host-callable helpers of the device layer's own kernels and the argument checks of its stream-ordered calls
// (device_kernels.cu), shared by the stream collectives (src/collectives/device/device_coll.cu). Private to the
// device layer and those collectives.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gshmem/device/impl/handle__types.cuh"

namespace gshmem::device {
/// Load every kernel of the device layer into the current context (defeats lazy loading; see heapCreate).
cudaError_t loadKernels();
/// Enqueue the device barrier (barrier_all with @p do_quiet, else sync_all) on @p s; the caller checks the launch.
void launchBarrier(const DeviceHandle& h, bool do_quiet, cudaStream_t s);
/// Enqueue the barrier of team @p id (view @p t; the world's is launchBarrier's) on @p s; the caller checks the
/// launch. It shares its epochs with the device barrier of the same team.
void launchTeamBarrier(const DeviceHandle& h, const DeviceTeam& t, gshmem_team_t id, bool do_quiet, cudaStream_t s);
/// Enqueue "wait until *sig cmp value" on @p s as a stream memory operation (cuStreamWaitValue64: the GPU's front
/// end polls the word, holding no SM, so a GPU shared with other processes can run their work meanwhile), with
/// the driver's remote-write flush where the device has it. Only GE and EQ have one; GE compares as the driver does
/// ((int64_t)(*sig - value) >= 0, the same as unsigned for counters below 2^63). False when not enqueued (another
/// comparison, or the driver refused once): the caller launches the polling kernel instead.
bool waitValueOnStream(uint64_t* sig, int cmp, uint64_t value, cudaStream_t s);

// Each check ends the job with @p call's one-line error when it fails.
/// This PE's DeviceHandle; there must be a device heap.
const DeviceHandle& handleFor(const char* call);
/// [p, p + n) lies in the device symmetric heap; @p what names the argument.
void checkDev(const char* call, const char* what, const void* p, std::size_t n);
/// The kernel launch just made on this thread was accepted.
void checkLaunch(const char* call);
}  // namespace gshmem::device
