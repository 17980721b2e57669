// Layer 3 of the device API, first part: scope helpers, system-scope loads and stores, address translation, the
// backend choice every device operation makes (route, onBackend) and the group copy. Included by api__funcs.cuh.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>

namespace gshmem {
namespace dev {
namespace detail {

// ------------------------------------------------------------------------------------------ scope helpers
template <int S>
GSHMEM_DEVICE_INLINE unsigned groupRank() {
  if constexpr (S == kScopeThread) return 0;
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if constexpr (S == kScopeWarp) return t & 31u;
  return t;
}
template <int S>
GSHMEM_DEVICE_INLINE unsigned groupSize() {
  if constexpr (S == kScopeThread) return 1;
  if constexpr (S == kScopeWarp) return 32;
  return blockDim.x * blockDim.y * blockDim.z;
}
template <int S>
GSHMEM_DEVICE_INLINE void groupSync() {
  if constexpr (S == kScopeWarp) __syncwarp();
  if constexpr (S == kScopeBlock) __syncthreads();
}

// ------------------------------------------------------------------------------------------ system-scope access
GSHMEM_DEVICE_INLINE unsigned long long ldRelaxedSys(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GSHMEM_DEVICE_INLINE unsigned long long ldAcquireSys(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
/// Poll *w with system-scope acquire loads until it reaches v (monotonic flag words of the collectives).
GSHMEM_DEVICE_INLINE void waitAtLeast(const unsigned long long* w, unsigned long long v) {
  while (ldAcquireSys(w) < v) {
  }
}
GSHMEM_DEVICE_INLINE void stReleaseSys(unsigned long long* p, unsigned long long v) {
  asm volatile("st.release.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
GSHMEM_DEVICE_INLINE void stRelaxedSys(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

template <typename T>
GSHMEM_DEVICE_INLINE T volatileLoad(const T* p) {
  return *const_cast<const volatile T*>(p);
}

/// System-scope acquire load of a 1-, 2-, 4- or 8-byte value. Polling with it costs less than relaxed polls
/// followed by fence.acq_rel.sys: between NVLink-connected GPUs the fence adds microseconds to a flag wait.
template <typename T>
GSHMEM_DEVICE_INLINE T ldAcquire(const T* p) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "1, 2, 4 or 8 bytes");
  T r;
  if constexpr (sizeof(T) == 8) {
    unsigned long long v;
    asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    memcpy(&r, &v, 8);
  } else if constexpr (sizeof(T) == 4) {
    unsigned v;
    asm volatile("ld.acquire.sys.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    memcpy(&r, &v, 4);
  } else if constexpr (sizeof(T) == 2) {
    unsigned short v;
    asm volatile("ld.acquire.sys.u16 %0, [%1];" : "=h"(v) : "l"(p) : "memory");
    memcpy(&r, &v, 2);
  } else {
    unsigned v;
    asm volatile("ld.acquire.sys.u8 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    const unsigned char b = static_cast<unsigned char>(v);
    memcpy(&r, &b, 1);
  }
  return r;
}

template <typename T>
GSHMEM_DEVICE_INLINE bool compare(int cmp, T a, T b) {
  switch (cmp) {
    case GSHMEM_CMP_EQ: return a == b;
    case GSHMEM_CMP_NE: return a != b;
    case GSHMEM_CMP_GT: return a > b;
    case GSHMEM_CMP_GE: return a >= b;
    case GSHMEM_CMP_LT: return a < b;
    case GSHMEM_CMP_LE: return a <= b;
  }
  return false;
}

// ------------------------------------------------------------------------------------------ translation
/// Base of PE pe's heap as mapped here, or nullptr (reached through the proxy).
GSHMEM_DEVICE_INLINE char* peerBase(const DeviceHandle& h, int pe) {
  // The inline load is unconditional (index clamped) so the compiler can hoist it out of a caller's loop; a
  // conditional constant-bank load is reissued after every round trip of a loop of fetching atomics.
  char* b = h.peer_base_inline[pe < kInlinePeers ? pe : 0];
  if (pe >= kInlinePeers) b = h.peer_base[pe];
  return b;
}
template <typename T>
GSHMEM_DEVICE_INLINE T* peerPtr(const DeviceHandle& h, const T* addr, int pe) {
  char* b = peerBase(h, pe);
  if (b == nullptr) return nullptr;
  return reinterpret_cast<T*>(b + (reinterpret_cast<const char*>(addr) - h.heap_base));
}
GSHMEM_DEVICE_INLINE uint64_t offsetOf(const DeviceHandle& h, const void* addr) {
  return static_cast<uint64_t>(reinterpret_cast<const char*>(addr) - h.heap_base);
}

// ------------------------------------------------------------------------------------------ backend choice
/// A backend the handle names but this build does not implement (the reserved NIC-direct slot): no silent
/// fallback; the kernel traps and the host sees the launch fail.
GSHMEM_DEVICE_INLINE void backendMissing(const DeviceHandle& h, int kind) {
  printf("gshmem: PE %d: a device operation found backend %d, which this build does not implement; rebuild gshmem "
         "with it or reach the peer through the proxy\n",
         h.my_pe, kind);
  __trap();
}

/// The one place a device-initiated operation on `addr` at `pe` picks its backend (DeviceBackend,
/// handle__types.cuh) and runs on it: direct(ptr) with the address as mapped here (SM loads/stores), proxy() for
/// the proxy ring, and, when `Bulk` and `bytes` >= ce_min[S], engine(ptr) first, which returns whether it took the
/// copy engine (a shared resource: when it cannot, direct runs). A peer that is not mapped takes the backend its
/// handle entry names; a new backend is one more case here. A peer below kInlinePeers is looked up in the handle
/// itself (no global-memory load). Each of direct, engine and proxy is expanded once (bulk bodies are large).
template <int S, bool Bulk, typename Direct, typename Engine, typename Proxy>
GSHMEM_DEVICE_INLINE auto onBackend(const DeviceHandle& h, const void* addr, int pe, size_t bytes, Direct&& direct,
                                    Engine&& engine, Proxy&& proxy) {
  char* b = h.peer_base_inline[pe < kInlinePeers ? pe : 0];
  if (pe >= kInlinePeers) b = h.peer_base[pe];
  if (__builtin_expect(b == nullptr, 0)) {
    const int kind = h.peer_backend[pe];
    if (kind != kBackendProxy) backendMissing(h, kind);
    return proxy();
  }
  char* const p = b + offsetOf(h, addr);
  if constexpr (Bulk) {
    if (bytes >= h.ce_min[S] && engine(p)) return;
  }
  return direct(p);
}
/// onBackend for an operation on one word or scalar (p, g, atomics, signals, flags): never the copy engine. The
/// common case, a peer below kInlinePeers that is mapped, costs one test before the operation, its address a loop
/// invariant of the caller: the test sits on the round trip of dependent atomics, where a second branch (inline or
/// global table, then mapped or not) costs measurably more. `direct` is expanded twice (it is small).
template <typename Direct, typename Proxy>
GSHMEM_DEVICE_INLINE auto onWord(const DeviceHandle& h, const void* addr, int pe, Direct&& direct, Proxy&& proxy) {
  char* const inl = h.peer_base_inline[pe < kInlinePeers ? pe : 0];
  if (__builtin_expect(pe < kInlinePeers && inl != nullptr, 1)) return direct(inl + offsetOf(h, addr));
  return onBackend<kScopeThread, false>(h, addr, pe, 0, direct, [](char*) { return false; }, proxy);
}

// ------------------------------------------------------------------------------------------ copies
/// Group-cooperative copy; 16-byte vectors, four in flight per thread, when both ends are 16-byte aligned. Ends that
/// share their offset from a 16-, 8- or 4-byte boundary (a block's share of a buffer split at odd sizes) copy the
/// bytes up to that boundary first, then go as aligned ends do.
template <int S>
GSHMEM_DEVICE_INLINE void copy(void* dst_, const void* src_, size_t n) {
  char* dst = static_cast<char*>(dst_);
  const char* src = static_cast<const char*>(src_);
  const size_t t = groupRank<S>(), nt = groupSize<S>();
  const uintptr_t rel = reinterpret_cast<uintptr_t>(dst) ^ reinterpret_cast<uintptr_t>(src);
  const uintptr_t w = (rel & 15) == 0 ? 16 : (rel & 7) == 0 ? 8 : (rel & 3) == 0 ? 4 : 1;
  if (const size_t head = (w - (reinterpret_cast<uintptr_t>(dst) & (w - 1))) & (w - 1)) {
    const size_t h = head < n ? head : n;
    for (size_t i = t; i < h; i += nt) dst[i] = src[i];
    dst += h, src += h, n -= h;
  }
  size_t done = 0;
  const uintptr_t align = reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src);
  if ((align & 15) == 0) {
    const size_t nv = n >> 4;
    const int4* s = reinterpret_cast<const int4*>(src);
    int4* d = reinterpret_cast<int4*>(dst);
    constexpr int U = S == kScopeBlock ? 8 : 4;  // 16-byte loads in flight per thread before the first store
    size_t i = t;
    for (; i + (U - 1) * nt < nv; i += U * nt) {
      int4 r[U];
#pragma unroll
      for (int u = 0; u < U; ++u) r[u] = s[i + u * nt];
#pragma unroll
      for (int u = 0; u < U; ++u) d[i + u * nt] = r[u];
    }
    for (; i < nv; i += nt) d[i] = s[i];
    done = nv << 4;
  }
  // The rest in the widest words both ends allow (a 16-byte-aligned pair ends with at most one 8-, one 4-byte
  // word), so a small put is a few stores over the link, not one per byte.
  if ((align & 7) == 0) {
    const uint64_t* s = reinterpret_cast<const uint64_t*>(src);
    uint64_t* d = reinterpret_cast<uint64_t*>(dst);
    for (size_t i = (done >> 3) + t; i < (n >> 3); i += nt) d[i] = s[i];
    done = n & ~size_t(7);
  }
  if ((align & 3) == 0) {
    const uint32_t* s = reinterpret_cast<const uint32_t*>(src);
    uint32_t* d = reinterpret_cast<uint32_t*>(dst);
    for (size_t i = (done >> 2) + t; i < (n >> 2); i += nt) d[i] = s[i];
    done = n & ~size_t(3);
  }
  for (size_t i = done + t; i < n; i += nt) dst[i] = src[i];
}

}  // namespace detail
}  // namespace dev
}  // namespace gshmem
