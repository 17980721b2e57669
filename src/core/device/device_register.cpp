// nvshmemx_buffer_register_symmetric (contract in device.hpp): every PE's CUDA VMM buffer, of the same length, is
// mapped at the same offset of its device heap's registration area, and each peer's heap mapping covers that area,
// so the pointer returned is a symmetric address to the device API (offset arithmetic, unchanged) and to the host
// API (resolveCold and ptrOf ask registeredOffset for an address outside the heap: heap addresses never pay for it).
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "core/device/device.hpp"
#include "core/rma/ops.hpp"
#include "core/sync/sync.hpp"
#include "shmemx.h"

namespace gshmem::device {

namespace {

struct Registration {
  std::size_t off, bytes, length;  // offset in the heap's range, bytes mapped there, bytes registered
};
std::mutex g_reg_lock;  // guards g_regs: written by the collective calls, read by the cold translation path
std::vector<Registration> g_regs;

enum Why : int32_t { kOk, kNoArea, kNotMapped, kNotVmm, kTooLong, kLengths, kFull, kMapFailed };

const char* whyText(int32_t why) {
  switch (why) {
    case kNoArea: return "its device heap is not a growing (CUDA VMM) heap; set GSHMEM_DEVICE_HEAP_MAX above "
                         "GSHMEM_SYMMETRIC_SIZE_DEVICE, or allocate the buffer with nvshmem_malloc";
    case kNotMapped: return "not every PE's device heap is mapped there (another node, no GPU peer access or "
                            "GSHMEM_P2P=0); allocate the buffer with nvshmem_malloc";
    case kNotVmm: return "the address is not the start of a CUDA VMM allocation (cuMemCreate + cuMemMap); register "
                         "such a buffer, or allocate it with nvshmem_malloc";
    case kTooLong: return "the length is larger than the allocation at the address";
    case kLengths: return "PEs passed different lengths or allocations of different sizes; pass the same on every PE";
    case kFull: return "the registration area (as large as GSHMEM_DEVICE_HEAP_MAX) has no room; unregister buffers "
                       "or raise GSHMEM_DEVICE_HEAP_MAX";
    case kMapFailed: return "mapping it failed (see the error above; its allocation must be exportable as a POSIX "
                            "file descriptor: CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)";
  }
  return "internal error";
}

struct Vote {
  uint64_t length, bytes;
  int32_t why, pad;
};

/// Every PE's vote; the first PE whose vote is not kOk, or whose sizes differ from PE 0's (as kLengths), in *bad.
bool allAgree(const char* call, const Vote& mine, int* bad, int32_t* why) {
  std::vector<Vote> all(g_rt.n_pes);
  if (isError(g_rt.bootstrap->allGather(&mine, all.data(), sizeof mine)))
    fatal(call, "bootstrap allgather failed (symmetric buffer registration)");
  for (int pe = 0; pe < g_rt.n_pes; ++pe) {
    *bad = pe;
    *why = all[pe].why;
    if (all[pe].why != kOk) return false;
    *why = kLengths;
    if (all[pe].length != all[0].length || all[pe].bytes != all[0].bytes) return false;
  }
  return true;
}

/// The lowest offset of the area, a multiple of `gran`, where `bytes` fit between the registrations; 0: none.
std::size_t place(std::size_t area, std::size_t area_bytes, std::size_t gran, std::size_t bytes) {
  std::size_t at = area;
  for (const Registration& r : g_regs) {  // sorted by offset
    if (at + bytes <= r.off) break;
    at = (r.off + r.bytes + gran - 1) / gran * gran;
  }
  return at + bytes <= area + area_bytes ? at : 0;
}

void* refuse(const char* call, const void* addr, std::size_t length, int pe, int32_t why) {
  fprintf(stderr, "gshmem: PE %d: %s: cannot register the %zu bytes at %p: on PE %d, %s\n", g_rt.my_pe, call, length,
          addr, pe, whyText(why));
  return nullptr;
}

}  // namespace

void* registerSymmetric(const char* call, void* addr, std::size_t length) {
  ops::requireInit(call);
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  std::size_t area_bytes = 0, gran = 0, bytes = 0;
  const std::size_t area = backendRegisterArea(&area_bytes, &gran);
  Vote mine{length, 0, kOk, 0};
  if (area_bytes == 0) mine.why = kNoArea;
  else if (!backendAllPeersMapped()) mine.why = kNotMapped;
  else if (addr == nullptr || length == 0 || isError(backendMappingSize(addr, &bytes))) mine.why = kNotVmm;
  else if (length > bytes) mine.why = kTooLong;
  mine.bytes = bytes;
  int bad = 0;
  int32_t why = kOk;
  if (!allAgree(call, mine, &bad, &why)) return refuse(call, addr, length, bad, why);
  std::size_t off = 0;
  {
    std::lock_guard<std::mutex> lock(g_reg_lock);
    off = place(area, area_bytes, gran, bytes);  // the same on every PE: same calls, same sizes
  }
  if (off == 0) return refuse(call, addr, length, g_rt.my_pe, kFull);
  std::size_t mapped = 0;
  std::string err;
  mine.why = isError(backendAdopt(addr, length, off, &mapped)) ? kMapFailed : kOk;
  if (!allAgree(call, mine, &bad, &why)) {
    backendDrop(off);  // this PE's mapping, if made (no peer has imported anything yet)
    return refuse(call, addr, length, bad, why);
  }
  if (isError(backendShare(off, mapped, &err))) {
    fprintf(stderr, "gshmem: PE %d: %s: %s\n", g_rt.my_pe, call, err.c_str());
    mine.why = kMapFailed;
  }
  if (!allAgree(call, mine, &bad, &why)) {
    barrierAll(call);
    backendDrop(off);  // the peers' mappings made so far and this PE's
    return refuse(call, addr, length, bad, why);
  }
  {
    std::lock_guard<std::mutex> lock(g_reg_lock);
    auto at = g_regs.begin();
    while (at != g_regs.end() && at->off < off) ++at;
    g_regs.insert(at, Registration{off, mapped, length});
  }
  barrierAll(call);
  return g_region.base + off;
}

int unregisterSymmetric(const char* call, void* ptr, std::size_t length) {
  ops::requireInit(call);
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  const std::size_t off = static_cast<std::size_t>(static_cast<char*>(ptr) - g_region.base);
  std::size_t index = 0;
  Vote mine{length, 0, kNotVmm, 0};
  {
    std::lock_guard<std::mutex> lock(g_reg_lock);
    for (; index < g_regs.size(); ++index)
      if (g_region.base != nullptr && g_regs[index].off == off && g_regs[index].length == length) break;
    if (index < g_regs.size()) mine.why = kOk;
  }
  int bad = 0;
  int32_t why = kOk;
  if (!allAgree(call, mine, &bad, &why)) {
    fprintf(stderr, "gshmem: PE %d: %s: %p (%zu bytes) is not a buffer nvshmemx_buffer_register_symmetric returned "
            "on PE %d (pass its return value and length, on every PE)\n", g_rt.my_pe, call, ptr, length, bad);
    return 1;
  }
  barrierAll(call);  // nobody accesses the buffer any more
  backendDrop(off);
  {
    std::lock_guard<std::mutex> lock(g_reg_lock);
    g_regs.erase(g_regs.begin() + static_cast<std::ptrdiff_t>(index));
  }
  barrierAll(call);
  return 0;
}

bool registeredOffset(const void* addr, std::size_t len, std::size_t* off) {
  if (g_region.base == nullptr) return false;
  const std::size_t o = static_cast<std::size_t>(static_cast<const char*>(addr) - g_region.base);
  std::lock_guard<std::mutex> lock(g_reg_lock);
  for (const Registration& r : g_regs) {
    if (o < r.off || o - r.off >= r.length || len > r.length - (o - r.off)) continue;
    *off = o;
    return true;
  }
  return false;
}

}  // namespace gshmem::device
