// gshmem C++ convenience layer: memory kinds. The C API (<shmem.h>, <shmemx.h>) is the contract.
#pragma once
#include <shmem.h>
#include <shmemx.h>

#include <cstddef>

#include "gshmem/device/impl/handle__types.cuh"

namespace gshmem {

/// Where a symmetric allocation lives.
enum class MemKind { Host, Cuda };

/// Collective symmetric allocation of `size` bytes of `kind` (nullptr when that heap is absent or exhausted).
inline void* malloc(std::size_t size, MemKind kind = MemKind::Host) {
  return kind == MemKind::Cuda ? gshmemx_malloc_device(size) : shmem_malloc(size);
}
/// Collective; releases a block of either kind.
inline void free(void* ptr) { shmem_free(ptr); }

/// True when this PE has a device symmetric heap.
inline bool deviceAvailable() { return gshmemx_device_available() != 0; }

/// The handle kernels take by value (gshmem/device.cuh); my_pe == -1 when there is no device heap.
inline DeviceHandle deviceHandle() {
  DeviceHandle h{};
  if (gshmemx_device_handle_get(&h, sizeof h) != 0) h = DeviceHandle{};
  return h;
}

}  // namespace gshmem
