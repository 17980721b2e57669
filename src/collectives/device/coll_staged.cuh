// Stream collectives on a team with a member whose device heap is not mapped here (GSHMEM_P2P=0, another node, GPUs
// without peer access): the data moves through the dispatch site instead of kernels' loads and stores. Private to
// device_coll.cu (templates instantiated there).
//
// Contract: blocking, and the same choice on every member (a team has an unmapped member on every member, as mappings
// are symmetric: same node and P2P on). The call synchronizes the device (what was issued before it is complete),
// syncs the team on the host (every member's source is ready and its dest free), then each PE pulls what it needs from
// the members' heaps with blocking gets (copy engine where mapped, the staged protocol where not; its own part by a
// copy on the stream), synchronizes the stream and the team again (nobody changes a source before every member has
// pulled from it), and finishes a reduction with a kernel on the stream, waited for before return (the pulled
// contributions sit in a buffer of this PE that the next call reuses). Sources and dests are in the device heap
// (checked by the caller).
#pragma once
#include <cuda_runtime.h>

#include <cstring>

#include "core/device/device.hpp"
#include "core/rma/ops.hpp"
#include "core/sync/sync.hpp"
#include "core/team/team.hpp"
#include "core/device/device_kernels.hpp"
#include "gshmem/device/api.cuh"

namespace gshmem::device::staged {

/// This PE's buffer for pulled contributions, grown to at least @p bytes (freed at exit by the driver). Only the
/// thread making collective calls uses it (collectives on a team are called by one thread at a time).
inline char* scratch(const char* call, std::size_t bytes) {
  static char* buf = nullptr;
  static std::size_t have = 0;
  if (bytes <= have) return buf;
  if (buf) cudaFree(buf);
  buf = nullptr;
  have = 0;
  if (cudaError_t e = cudaMalloc(&buf, bytes); e != cudaSuccess)
    fatal(call, "cannot allocate %zu bytes of GPU memory for a collective with unmapped PEs: %s", bytes,
          cudaGetErrorString(e));
  have = bytes;
  return buf;
}

/// Pull @p n bytes at symmetric @p src of world PE @p pe into local device memory @p dst: complete on return from
/// a peer, ordered on @p st from this PE.
inline void pull(const char* call, void* dst, const void* src, std::size_t n, int pe, cudaStream_t st) {
  if (n == 0) return;
  if (pe == g_rt.my_pe) {
    if (cudaError_t e = cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, st); e != cudaSuccess)
      fatal(call, "a device-to-device copy of %zu bytes failed: %s", n, cudaGetErrorString(e));
    return;
  }
  const std::size_t off = static_cast<std::size_t>(static_cast<const char*>(src) - g_region.base);
  if (Status st = backendGet(pe, off, dst, n); isError(st))
    fatal(call, "get of %zu bytes of device memory from PE %d %s", n, pe, backendFailure(pe, st).c_str());
}

/// Every member's sources are written: the whole device, not only the stream, as the peers read them through other
/// streams (a blocking stream would also have waited for the legacy stream, where cudaMemcpy from pageable memory
/// may still be landing when it returns).
inline void begin(const char* call, gshmem_team* team) {
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
    fatal(call, "the GPU failed before the collective: %s", cudaGetErrorString(e));
  teamSync(call, team);
}

/// Every member has pulled what it needs and this PE's copies on @p st are complete.
inline void end(const char* call, gshmem_team* team, cudaStream_t st) {
  if (cudaError_t e = cudaStreamSynchronize(st); e != cudaSuccess)
    fatal(call, "the collective's copies failed: %s", cudaGetErrorString(e));
  teamSync(call, team);
}

template <int Op, typename T>
__global__ void reduceSlotsKernel(T* d, const T* slots, size_t n, int k) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    T acc = slots[i];
    for (int q = 1; q < k; ++q) acc = dev::detail::reduce2<Op, T>(acc, slots[q * n + i]);
    d[i] = acc;
  }
}

/// Reduce (every PE gets all n items) or reducescatter (PE i of the team gets items [i*n, (i+1)*n) of the sum).
template <int Op, typename T>
int reduce(const char* call, gshmem_team* team, const DeviceTeam& t, T* d, const T* s, std::size_t n, bool scatter,
           cudaStream_t st) {
  const std::size_t bytes = n * sizeof(T);
  T* slots = reinterpret_cast<T*>(scratch(call, bytes * t.size));
  begin(call, team);
  for (int k = 0; k < t.size; ++k)
    pull(call, slots + k * n, s + (scatter ? static_cast<std::size_t>(t.my_index) * n : 0), bytes, t.pe(k), st);
  end(call, team, st);  // nobody overwrites an in-place source before every member pulled it
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 1024));
  reduceSlotsKernel<Op, T><<<blocks, 256, 0, st>>>(d, slots, n, t.size);
  checkLaunch(call);
  if (cudaError_t e = cudaStreamSynchronize(st); e != cudaSuccess)
    fatal(call, "the reduction kernel failed: %s", cudaGetErrorString(e));
  return 0;
}

/// Broadcast (root's n bytes to every dest), fcollect (member k's n bytes at dest + k*n) or alltoall (member k's
/// bytes [i*n, (i+1)*n) at dest + k*n of member i).
inline int move(const char* call, gshmem_team* team, const DeviceTeam& t, int kind, void* d, const void* s,
                std::size_t n, int root, cudaStream_t st) {
  char* dc = static_cast<char*>(d);
  const char* sc = static_cast<const char*>(s);
  begin(call, team);
  if (kind == dev::kCollBroadcast) {
    pull(call, dc, sc, n, t.pe(root), st);
  } else {
    for (int k = 0; k < t.size; ++k) {
      const std::size_t from = kind == dev::kCollAlltoall ? static_cast<std::size_t>(t.my_index) * n : 0;
      pull(call, dc + k * n, sc + from, n, t.pe(k), st);
    }
  }
  end(call, team, st);
  return 0;
}

}  // namespace gshmem::device::staged
