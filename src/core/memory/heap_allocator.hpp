// Deterministic offset allocator for the symmetric heap. Every PE runs the same sequence of calls on its own
// instance, so the same call returns the same offset everywhere: that is what makes the heap symmetric.
// Not thread-safe: the caller serializes (allocation is collective anyway).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>

namespace gshmem {

class HeapAllocator {
 public:
  static constexpr std::size_t kFail = SIZE_MAX;

  /// Manage offsets [0, size). Every block is aligned to at least `min_align` (a power of two).
  explicit HeapAllocator(std::size_t size, std::size_t min_align = 64);

  /// First-fit allocation of `size` bytes aligned to `align` (power of two, raised to min_align).
  /// Returns the offset or kFail. size 0 is allocated as min_align bytes.
  std::size_t alloc(std::size_t size, std::size_t align);
  /// Release the block at `off`. Returns false when `off` is not the start of an allocated block.
  bool free(std::size_t off);
  /// Grow or shrink the block at `off` in place. Returns false (block unchanged) when it cannot.
  bool resizeInPlace(std::size_t off, std::size_t size);
  /// Bytes held by the block at `off`, 0 when `off` is not allocated.
  std::size_t sizeOf(std::size_t off) const;

  std::size_t capacity() const { return size_; }
  std::size_t bytesFree() const { return free_bytes_; }
  std::size_t largestFree() const;
  std::size_t blocksUsed() const { return used_.size(); }

 private:
  std::size_t roundUp(std::size_t v) const { return (v + min_align_ - 1) & ~(min_align_ - 1); }
  void insertFree(std::size_t off, std::size_t len);  ///< coalesces with neighbours

  std::size_t size_;
  std::size_t min_align_;
  std::size_t free_bytes_;
  std::map<std::size_t, std::size_t> free_;  ///< offset -> length, no two adjacent
  std::map<std::size_t, std::size_t> used_;  ///< offset -> length
};

}  // namespace gshmem
