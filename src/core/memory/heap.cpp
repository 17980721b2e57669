// Collective symmetric allocation: each PE runs the same deterministic HeapAllocator over its own heap, so the
// same sequence of calls yields the same offsets everywhere. Offsets are relative to the user part of the heap,
// which starts after the control area.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "base/config.hpp"
#include "core/memory/heap.hpp"
#include "core/memory/heap_allocator.hpp"
#include "core/rma/ops.hpp"
#include "core/sync/agree.hpp"
#include "core/sync/sync.hpp"

namespace gshmem {

namespace {

std::unique_ptr<HeapAllocator> g_alloc;

char* userBase() { return g_rt.base[kRegionHeap]; }

HeapAllocator& allocator() {
  if (!g_alloc) g_alloc = std::make_unique<HeapAllocator>(g_rt.size[kRegionHeap] - g_rt.control_bytes, 64);
  return *g_alloc;
}

uint64_t g_heap_seq = 0;  ///< collective heap calls made by this PE (the agreement sequence)

void reportExhausted(const char* call, std::size_t size) {
  HeapAllocator& a = allocator();
  fprintf(stderr,
          "gshmem: PE %d: %s: cannot allocate %zu bytes: %zu bytes free of the %zu-byte heap (largest free block "
          "%zu); raise GSHMEM_SYMMETRIC_SIZE (now %s)\n",
          g_rt.my_pe, call, size, a.bytesFree(), a.capacity(), a.largestFree(),
          formatSize(params().SYMMETRIC_SIZE).c_str());
}

std::size_t offsetOf(const char* call, void* ptr) {
  char* p = static_cast<char*>(ptr);
  std::size_t off = static_cast<std::size_t>(p - userBase());
  if (p < userBase() || allocator().sizeOf(off) == 0)
    errorNotAllocated(call, ptr, "shmem_malloc/calloc/align/realloc");
  return off;
}

}  // namespace

void heapReset() {
  g_alloc.reset();
  g_heap_seq = 0;
}

namespace {

/// Whether @p align can be honoured; if not, a one-line warning and the call returns NULL (it stays collective).
bool alignmentUsable(const char* call, std::size_t align) {
  if (align == 0 || (align & (align - 1))) {
    fprintf(stderr, "gshmem: PE %d: %s: warning: alignment %zu is not a power of two; returning NULL (pass 1, 2, 4, "
            "8, ...)\n", g_rt.my_pe, call, align);
    return false;
  }
  if (align > kHeapAlign) {
    fprintf(stderr, "gshmem: PE %d: %s: warning: alignment %zu exceeds the heap base alignment %zu; returning NULL "
            "(pass an alignment of at most %zu)\n", g_rt.my_pe, call, align, kHeapAlign, kHeapAlign);
    return false;
  }
  return true;
}

/// The collective part of every allocation: the agreement claim, the allocation when @p usable, the barrier.
void* allocCollective(const char* call, std::size_t size, std::size_t align, bool zero, bool usable) {
  const agree::HeapCall claim(call, agree::kHeapLine, &g_heap_seq, size, align, agree::kNotApplicable);
  void* result = nullptr;
  if (usable && size) {
    std::size_t off = allocator().alloc(size, align);
    if (off == HeapAllocator::kFail) {
      reportExhausted(call, size);
    } else {
      result = userBase() + off;
      if (zero) std::memset(result, 0, size);
    }
  }
  barrierAll(call);
  claim.check();
  GSHMEM_LOG_TRACE(MEM, "%s(%zu) -> %p", call, size, result);
  return result;
}

}  // namespace

void* heapAlloc(const char* call, std::size_t size, std::size_t align, bool zero) {
  ops::requireInit(call);
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  const bool usable = alignmentUsable(call, align);
  return allocCollective(call, size, align, zero, usable);
}

void* heapCalloc(const char* call, std::size_t count, std::size_t size) {
  ops::requireInit(call);
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  std::size_t bytes = 0;
  const bool overflow = __builtin_mul_overflow(count, size, &bytes);
  if (overflow)
    fprintf(stderr, "gshmem: PE %d: %s: warning: count %zu times size %zu overflows size_t; returning NULL (pass a "
            "count and size whose product is the bytes wanted)\n", g_rt.my_pe, call, count, size);
  return allocCollective(call, overflow ? SIZE_MAX : bytes, 64, true, !overflow);
}

void heapFree(const char* call, void* ptr) {
  ops::requireInit(call);
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  const uint64_t off = ptr ? offsetOf(call, ptr) : agree::kNotApplicable;
  const agree::HeapCall claim(call, agree::kHeapLine, &g_heap_seq, agree::kNotApplicable, agree::kNotApplicable, off);
  barrierAll(call);  // nobody may still access the block
  claim.check();
  if (!ptr) return;
  allocator().free(off);
}

void* heapRealloc(const char* call, void* ptr, std::size_t size) {
  ops::requireInit(call);
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  if (!ptr) return heapAlloc(call, size, 64, false);
  if (size == 0) {
    heapFree(call, ptr);
    return nullptr;
  }
  std::size_t off = offsetOf(call, ptr);
  const agree::HeapCall claim(call, agree::kHeapLine, &g_heap_seq, size, agree::kNotApplicable, off);
  barrierAll(call);  // peers may still access the old block
  claim.check();
  void* result = ptr;
  HeapAllocator& a = allocator();
  if (!a.resizeInPlace(off, size)) {
    std::size_t old = a.sizeOf(off);
    std::size_t noff = a.alloc(size, 64);
    if (noff == HeapAllocator::kFail) {
      reportExhausted(call, size);
      result = nullptr;  // the old block stays valid, as with realloc(3)
    } else {
      result = userBase() + noff;
      std::memcpy(result, ptr, old < size ? old : size);
      a.free(off);
    }
  }
  barrierAll(call);
  return result;
}

}  // namespace gshmem
