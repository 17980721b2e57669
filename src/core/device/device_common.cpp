// The CUDA-independent part of the device heap: region lookup for the cold branch of resolve(),
// the deterministic allocator, and the registry of per-TU device states.
#include <cstring>
#include <mutex>
#include <memory>
#include <string>
#include <vector>

#include "base/config.hpp"
#include "core/device/device.hpp"
#include "core/memory/heap_allocator.hpp"
#include "core/rma/ops.hpp"
#include "core/sync/agree.hpp"
#include "core/sync/sync.hpp"
#include "shmemx.h"

namespace gshmem {

namespace device {

Region g_region;

namespace {
std::unique_ptr<HeapAllocator> g_alloc;
uint64_t g_device_seq = 0;  ///< collective device heap calls made by this PE (the agreement sequence)
std::mutex g_sync_lock;
std::vector<void (*)(const void*, int)>& syncList() {
  static std::vector<void (*)(const void*, int)> v;  // filled by static initializers of CUDA TUs
  return v;
}
}  // namespace

void allocatorReset(std::size_t user_bytes) {
  g_alloc.reset();
  g_device_seq = 0;
  if (user_bytes) g_alloc = std::make_unique<HeapAllocator>(user_bytes, 256);
}

bool owns(const void* ptr) {
  std::size_t o = reinterpret_cast<uintptr_t>(ptr) - reinterpret_cast<uintptr_t>(g_region.base);
  return g_region.base != nullptr && o < g_region.size;
}

namespace {

/// Collective, after every PE made the same call: map the heap up to @p off + @p size. On failure the block is given
/// back and the call's line printed (nullptr is returned on every PE: the growth's vote is the same everywhere).
void* growFor(const char* call, std::size_t off, std::size_t size) {
  std::string why;
  if (isError(backendGrow(off + size, &why))) {
    fprintf(stderr, "gshmem: PE %d: %s: cannot allocate %zu bytes of device memory: %s\n", g_rt.my_pe, call, size,
            why.c_str());
    g_alloc->free(off);
    return nullptr;
  }
  return g_region.base + off;
}

}  // namespace

void* alloc(const char* call, std::size_t size, std::size_t align, bool zero) {
  ops::requireInit(call);
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  if (align == 0 || (align & (align - 1))) errorBadAlignment(call, align);
  const agree::HeapCall claim(call, agree::kDeviceHeapLine, &g_device_seq, size, align, agree::kNotApplicable);
  void* result = nullptr;
  if (!g_alloc) {
    if (g_rt.my_pe == 0)
      GSHMEM_LOG_WARN(MEM, "%s: no device symmetric heap (no GPU, no CUDA in this build, or "
                      "GSHMEM_SYMMETRIC_SIZE_DEVICE=0)", call);
  } else if (size) {
    std::size_t off = g_alloc->alloc(size, align < 256 ? 256 : align);
    if (off == HeapAllocator::kFail) {
      fprintf(stderr,
              "gshmem: PE %d: %s: cannot allocate %zu bytes of device memory: %zu bytes free of %zu (largest free "
              "block %zu); raise %s\n",
              g_rt.my_pe, call, size, g_alloc->bytesFree(), g_alloc->capacity(), g_alloc->largestFree(),
              backendGrows() ? "GSHMEM_DEVICE_HEAP_MAX" : "GSHMEM_SYMMETRIC_SIZE_DEVICE");
    } else if (off + size > backendMappedBytes()) {
      // The heap grows: every PE has computed the same block, so every PE is here. Agree first that every PE made
      // this call (a growth is collective), then grow, zero, and let nobody return before every PE has zeroed.
      barrierAll(call);
      claim.check();
      result = growFor(call, off, size);
      if (result && zero && isError(backendMemset(result, 0, size)))
        fatal(call, "cannot zero the %zu bytes of device memory at %p (see the error above)", size, result);
      barrierAll(call);
      return result;
    } else {
      result = g_region.base + off;
      if (zero && isError(backendMemset(result, 0, size)))
        fatal(call, "cannot zero the %zu bytes of device memory at %p (see the error above)", size, result);
    }
  }
  barrierAll(call);
  claim.check();
  return result;
}

void free(const char* call, void* ptr) {
  ops::requireInit(call);
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  const std::size_t off = ptr ? static_cast<std::size_t>(static_cast<char*>(ptr) - g_region.base) : ~std::size_t(0);
  const agree::HeapCall claim(call, agree::kDeviceHeapLine, &g_device_seq, agree::kNotApplicable,
                              agree::kNotApplicable, off);
  barrierAll(call);  // nobody may still access the block
  claim.check();
  if (!ptr || !g_alloc) return;
  if (!g_alloc->free(off)) errorNotAllocated(call, ptr, "a device allocation");
}

void syncStates(const DeviceHandle& h, int dev) {
  std::lock_guard<std::mutex> g(g_sync_lock);
  for (auto f : syncList()) f(&h, dev);
}

}  // namespace device

char* resolveCold(const char* call, const char* what, const void* addr, std::size_t len, int pe, RemoteAddr* ra) {
  std::size_t o = reinterpret_cast<uintptr_t>(addr) - reinterpret_cast<uintptr_t>(device::g_region.base);
  if ((device::g_region.base == nullptr || o >= device::g_region.size || len > device::g_region.size - o) &&
      !device::registeredOffset(addr, len, &o))
    errorNotSymmetric(call, what, addr, len);
  *ra = RemoteAddr{pe, kRegionDevice, o};
  return nullptr;
}

// The edge of host calls on device memory: a failure of the backend becomes the call's one-line error.
namespace {
[[noreturn]] __attribute__((cold)) void deviceFailed(const char* call, const char* what, int pe, Status st) {
  fatal(call, "%s of device memory on PE %d %s", what, pe, device::backendFailure(pe, st).c_str());
}
}  // namespace

void devicePut(const char* call, const RemoteAddr& ra, const void* src, std::size_t n) {
  const Status st = device::backendPut(ra.pe, ra.offset, src, n);
  if (isError(st)) deviceFailed(call, "put", ra.pe, st);
}
void deviceGet(const char* call, const RemoteAddr& ra, void* dst, std::size_t n) {
  const Status st = device::backendGet(ra.pe, ra.offset, dst, n);
  if (isError(st)) deviceFailed(call, "get", ra.pe, st);
}
uint64_t deviceAmo(const char* call, const RemoteAddr& ra, AmoOp op, unsigned size, uint64_t value, uint64_t cond) {
  uint64_t old = 0;
  const Status st = device::backendAmo(ra.pe, ra.offset, op, size, value, cond, &old);
  if (isError(st)) deviceFailed(call, "atomic", ra.pe, st);
  return old;
}

}  // namespace gshmem

// Device AmoCode values must be the host AmoOp values (the proxy passes them through).
static_assert(static_cast<int>(gshmem::AmoOp::Fetch) == 0 && static_cast<int>(gshmem::AmoOp::CompareSwap) == 3 &&
                  static_cast<int>(gshmem::AmoOp::FetchAdd) == 4 && static_cast<int>(gshmem::AmoOp::Xor) == 13,
              "AmoOp order is shared with gshmem::AmoCode (device/api.cuh)");

namespace gshmem::device {

void registerStateSync(void (*sync)(const void* handle, int device)) {
  if (!sync) return;
  {
    std::lock_guard<std::mutex> g(g_sync_lock);
    syncList().push_back(sync);
  }
  const DeviceHandle* h = backendHandle();
  if (h) sync(h, backendDeviceId());
}

}  // namespace gshmem::device
