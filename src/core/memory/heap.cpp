// Collective symmetric allocation: each PE runs the same deterministic HeapAllocator over its own heap, so the
// same sequence of calls yields the same offsets everywhere. Offsets are relative to the user part of the heap,
// which starts after the control area.
#include <cstdio>
#include <memory>
#include <vector>

#include "base/config.hpp"
#include "core/api.hpp"
#include "core/memory/heap_allocator.hpp"
#include "core/sync/agree.hpp"
#include "core/team/team_internal.hpp"

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

void* heapAlloc(const char* call, std::size_t size, std::size_t align, bool zero) {
  ops::requireInit(call);
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  if (align == 0 || (align & (align - 1))) errorBadAlignment(call, align);
  if (align > kHeapAlign) fatal(call, "alignment %zu exceeds the heap base alignment %zu", align, kHeapAlign);
  const agree::HeapCall claim(call, agree::kHeapLine, &g_heap_seq, size, align, agree::kNotApplicable);
  void* result = nullptr;
  if (size) {
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
