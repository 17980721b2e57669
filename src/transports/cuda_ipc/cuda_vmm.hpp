// GPU memory through CUDA's virtual memory management (VMM): an address range reserved once, physical chunks mapped
// into it on demand, and chunks shared with other processes of the node as POSIX file descriptors. The device heap
// is made of it so that it can grow without moving (every peer pointer to it stays valid), and the cuda_ipc
// transport maps the peers' chunks into ranges of its own.
//
// The driver is reached through cudart's entry-point lookup (no link against libcuda). Every call returns a Status;
// a driver failure is logged once (subsystem TRANSPORT) naming the call. Not thread-safe: the heap's owner
// serializes (growth is collective).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/status.hpp"

namespace gshmem::vmm {

/// Whether GPU @p dev can make VMM chunks exportable as POSIX file descriptors (false without the driver entry
/// points). Sets *granularity to the chunk granularity (bytes) when it can.
bool supported(int dev, std::size_t* granularity);

/// The size of the CUDA VMM allocation (cuMemCreate + cuMemMap) that starts at @p addr; InvalidArgument when @p addr
/// is not the start of one (cudaMalloc memory included), Unsupported without the driver entry points.
Status mappingSize(const void* addr, std::size_t* bytes);

/// One mapped chunk of a range: [offset, offset + bytes) of the range, backed by a physical allocation.
struct Chunk {
  std::size_t offset = 0, bytes = 0;
  unsigned long long handle = 0;  ///< CUmemGenericAllocationHandle (released when the chunk is unmapped)
};

/// A reserved device address range and the chunks mapped into it. Move-only; the destructor unmaps every chunk and
/// frees the range (the caller has synchronized every GPU that may still use it).
class Range {
 public:
  Range() = default;
  Range(Range&& o) noexcept { *this = static_cast<Range&&>(o); }
  Range& operator=(Range&& o) noexcept;
  Range(const Range&) = delete;
  Range& operator=(const Range&) = delete;
  ~Range() { release(); }

  /// Reserve @p bytes (a multiple of the granularity) of device address space.
  Status reserve(std::size_t bytes);
  /// Make a physical chunk of @p bytes on GPU @p dev, exportable as a descriptor, and map it at @p offset with
  /// read/write access for @p dev.
  Status create(int dev, std::size_t offset, std::size_t bytes);
  /// Map the chunk a peer exported as @p fd (its bytes) at @p offset, accessible to GPU @p dev. The descriptor
  /// stays the caller's.
  Status import(int fd, int dev, std::size_t offset, std::size_t bytes);
  /// Map, at @p offset, the physical allocation the caller mapped at @p addr with cuMemMap (a buffer of this process
  /// made with cuMemCreate): @p addr must be the start of that mapping and @p length at most its size. The whole
  /// mapping is mapped (its size in *bytes), accessible to GPU @p dev; the allocation stays alive until drop(offset)
  /// even if the caller releases it. InvalidArgument when @p addr is not the start of a mapping or @p length is
  /// larger; Unsupported without the driver entry points.
  Status adopt(const void* addr, std::size_t length, int dev, std::size_t offset, std::size_t* bytes);
  /// A new descriptor (close-on-exec) of the chunk mapped at @p offset, for a peer's import(); the caller closes it.
  Status exportFd(std::size_t offset, int* fd) const;
  /// Unmap the chunk mapped at @p offset (its memory is freed once no process maps it).
  void drop(std::size_t offset);
  /// Unmap every chunk and free the range.
  void release();

  char* base() const { return reinterpret_cast<char*>(base_); }
  std::size_t size() const { return size_; }
  const std::vector<Chunk>& chunks() const { return chunks_; }

 private:
  Status mapChunk(unsigned long long handle, int dev, std::size_t offset, std::size_t bytes);

  uintptr_t base_ = 0;
  std::size_t size_ = 0;
  std::vector<Chunk> chunks_;
};

}  // namespace gshmem::vmm
