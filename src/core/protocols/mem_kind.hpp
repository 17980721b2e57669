// The memory kind of a local buffer, for choosing a protocol for a host-initiated operation on device memory
// (host-to-device or device-to-device). Private to src/core.
//
// Cost contract: no driver call for the symmetric ranges, whose kinds are known since init (the device heap is
// device memory; the host heap and the data segment are host memory), nor for an address whose allocation range
// this thread has classified recently: a miss asks the driver once for the whole allocation range (device,
// managed or registered host memory) or, for pageable host memory, classifies its 2 MiB block (CUDA never places
// device or managed memory in a block it shares with pageable memory). Entries live in a small per-thread table
// (no lock); a range freed and reused for another kind by the same thread may be answered from a stale entry
// until it is evicted, which only matters for buffers that change kind, never for the symmetric heaps.
#pragma once
#include <cstddef>

namespace gshmem::protocols {

/// Record this PE's device heap (deviceInit; nullptr at deviceFinalize), known as device memory without a query.
void setDeviceHeapKind(const void* base, std::size_t bytes);

/// Whether @p p is device (or managed) memory. Thread-safe, lock-free.
bool localIsDevice(const void* p);

}  // namespace gshmem::protocols
