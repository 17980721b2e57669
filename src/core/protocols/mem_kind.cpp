// Memory kinds of local buffers (contract in mem_kind.hpp).
#include "core/protocols/mem_kind.hpp"

#include <cuda.h>  // types of the driver entry point only: the driver is reached through cudart
#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "base/cuda_check.hpp"
#include "core/runtime/runtime.hpp"

namespace gshmem::protocols {

namespace {

using PointerGetAttributes = CUresult (*)(unsigned, CUpointer_attribute*, void**, CUdeviceptr);

/// cuPointerGetAttributes through cudart's entry-point lookup (no link against libcuda), or nullptr.
PointerGetAttributes driverQuery() {
  static const PointerGetAttributes fn = [] {
    PointerGetAttributes f = nullptr;
    driverEntry("cuPointerGetAttributes", &f);
    return f;
  }();
  return fn;
}

struct Entry {
  uintptr_t begin = 0, end = 0;  ///< [begin, end); empty when begin == end
  bool device = false;
};
constexpr int kEntries = 8;
constexpr uintptr_t kBlock = uintptr_t(2) << 20;
thread_local Entry t_cache[kEntries];
thread_local unsigned t_next = 0;
std::atomic<uintptr_t> g_heap_begin{0}, g_heap_bytes{0};  // this PE's device heap (setDeviceHeapKind)

/// Ask the driver about @p p and remember the answer. Without the entry point: the runtime's query, not cached.
bool classify(uintptr_t a) {
  PointerGetAttributes q = driverQuery();
  if (q == nullptr) {
    cudaPointerAttributes at;
    if (cudaPointerGetAttributes(&at, reinterpret_cast<void*>(a)) != cudaSuccess) {
      cudaGetLastError();
      return false;
    }
    return at.type == cudaMemoryTypeDevice || at.type == cudaMemoryTypeManaged;
  }
  unsigned type = 0, managed = 0;
  uintptr_t start = 0;
  std::size_t size = 0;
  CUpointer_attribute attrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                 CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, CU_POINTER_ATTRIBUTE_RANGE_SIZE};
  void* out[] = {&type, &managed, &start, &size};
  Entry e;
  if (q(4, attrs, out, static_cast<CUdeviceptr>(a)) == CUDA_SUCCESS && start != 0 && size != 0 && a - start < size) {
    e = Entry{start, start + size, managed != 0 || type == CU_MEMORYTYPE_DEVICE};
  } else {  // pageable host memory (or not a CUDA address at all): its 2 MiB block
    e = Entry{a & ~(kBlock - 1), (a & ~(kBlock - 1)) + kBlock, false};
  }
  t_cache[t_next++ % kEntries] = e;
  return e.device;
}

}  // namespace

void setDeviceHeapKind(const void* base, std::size_t bytes) {
  g_heap_bytes.store(0, std::memory_order_relaxed);
  g_heap_begin.store(reinterpret_cast<uintptr_t>(base), std::memory_order_relaxed);
  g_heap_bytes.store(base ? bytes : 0, std::memory_order_release);
}

bool localIsDevice(const void* p) {
  const std::size_t heap_bytes = g_heap_bytes.load(std::memory_order_acquire);
  if (reinterpret_cast<uintptr_t>(p) - g_heap_begin.load(std::memory_order_relaxed) < heap_bytes) return true;
  std::size_t off;
  if (regionOf(p, 1, &off) >= 0) return false;
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  for (const Entry& e : t_cache)
    if (a - e.begin < e.end - e.begin) return e.device;
  return classify(a);
}

}  // namespace gshmem::protocols
