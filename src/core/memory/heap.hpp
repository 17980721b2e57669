// The symmetric heap's allocation calls (memory/heap.cpp), for the public API and the core. All are collective over
// the world, with a barrier, as the specification requires.
#pragma once
#include <cstddef>

namespace gshmem {

/// NULL, after one line naming the PE, the call and the fix, when the heap cannot hold @p size bytes or @p align is
/// not a power of two up to kHeapAlign (the allocator raises smaller alignments to 64): the job goes on.
void* heapAlloc(const char* call, std::size_t size, std::size_t align, bool zero);
/// Zeroed @p count x @p size bytes; NULL, after one line, when the product overflows or does not fit.
void* heapCalloc(const char* call, std::size_t count, std::size_t size);
void* heapRealloc(const char* call, void* ptr, std::size_t size);
void heapFree(const char* call, void* ptr);

/// Forget heap allocations (after the heap is unmapped at finalize).
void heapReset();

}  // namespace gshmem
