#include "core/memory/heap_allocator.hpp"

#include <algorithm>

namespace gshmem {

HeapAllocator::HeapAllocator(std::size_t size, std::size_t min_align)
    : size_(size & ~(min_align - 1)), min_align_(min_align), free_bytes_(size_) {
  if (size_) free_[0] = size_;
}

std::size_t HeapAllocator::alloc(std::size_t size, std::size_t align) {
  if (align < min_align_) align = min_align_;
  if (align & (align - 1)) return kFail;
  std::size_t len = roundUp(size ? size : 1);
  if (len < size) return kFail;  // overflow
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    std::size_t start = it->first, flen = it->second;
    std::size_t aligned = (start + align - 1) & ~(align - 1);
    std::size_t pad = aligned - start;
    if (pad > flen || flen - pad < len) continue;
    free_.erase(it);
    if (pad) free_[start] = pad;
    std::size_t tail = flen - pad - len;
    if (tail) free_[aligned + len] = tail;
    used_[aligned] = len;
    free_bytes_ -= len;
    return aligned;
  }
  return kFail;
}

void HeapAllocator::insertFree(std::size_t off, std::size_t len) {
  auto next = free_.lower_bound(off);
  if (next != free_.end() && off + len == next->first) {
    len += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == off) {
      prev->second += len;
      return;
    }
  }
  free_[off] = len;
}

bool HeapAllocator::free(std::size_t off) {
  auto it = used_.find(off);
  if (it == used_.end()) return false;
  std::size_t len = it->second;
  used_.erase(it);
  free_bytes_ += len;
  insertFree(off, len);
  return true;
}

bool HeapAllocator::resizeInPlace(std::size_t off, std::size_t size) {
  auto it = used_.find(off);
  if (it == used_.end()) return false;
  std::size_t len = roundUp(size ? size : 1), cur = it->second;
  if (len == cur) return true;
  if (len < cur) {
    it->second = len;
    free_bytes_ += cur - len;
    insertFree(off + len, cur - len);
    return true;
  }
  auto nf = free_.find(off + cur);
  if (nf == free_.end() || nf->second < len - cur) return false;
  std::size_t rest = nf->second - (len - cur);
  free_.erase(nf);
  if (rest) free_[off + len] = rest;
  it->second = len;
  free_bytes_ -= len - cur;
  return true;
}

std::size_t HeapAllocator::sizeOf(std::size_t off) const {
  auto it = used_.find(off);
  return it == used_.end() ? 0 : it->second;
}

std::size_t HeapAllocator::largestFree() const {
  std::size_t m = 0;
  for (auto& f : free_) m = std::max(m, f.second);
  return m;
}

}  // namespace gshmem
