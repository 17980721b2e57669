// Layer 3 of the device API: inline bodies. Included by api.cuh under nvcc only.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <type_traits>


namespace gshmem {
namespace dev {
namespace detail {

template <typename U>
GSHMEM_DEVICE_INLINE U atomicOn(U* q, uint32_t op, U v, U c);

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

// ------------------------------------------------------------------------------------------ proxy ring
GSHMEM_DEVICE_INLINE unsigned long long ldRelaxedGpu(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
GSHMEM_DEVICE_INLINE void stVolatile(uint64_t* p, uint64_t v) { *reinterpret_cast<volatile uint64_t*>(p) = v; }

/// Claim @p k consecutive tickets and wait until all their slots are free (by the device-side copy of the proxy's
/// position; across the bus only when that copy says the ring is full). Returns the first ticket.
GSHMEM_DEVICE_INLINE unsigned long long proxyClaim(const ProxyRing& r, unsigned long long k) {
  const unsigned long long t = atomicAdd(r.head, k), last = t + k - 1;
  if (last - ldRelaxedGpu(r.seen) >= r.nslots) {
    while (last - ldRelaxedSys(r.done) >= r.nslots) {
    }
  }
  return t;
}

/// Post one request (handle__types.cuh): claim a ticket, write the third word and the value, then publish the
/// header with one system-scope release store (it also orders this thread's earlier stores, e.g. a put's source,
/// before the proxy's copy). Returns the ticket.
GSHMEM_DEVICE_INLINE unsigned long long proxyPost(const ProxyRing& r, uint32_t op, int pe, uint32_t aux,
                                                  uint64_t off, uint64_t value, uint64_t arg = 0,
                                                  bool has_arg = false) {
  const unsigned long long t = proxyClaim(r, 1);
  const uint32_t i = static_cast<uint32_t>(t) & (r.nslots - 1);
  if (has_arg) stVolatile(&r.args[i], arg);
  stVolatile(&r.slots[i].value, value);
  stReleaseSys(reinterpret_cast<unsigned long long*>(&r.slots[i].header),
               proxyHeader(op, aux, static_cast<uint32_t>(pe), off) | proxyPhase(t, r.nslots));
  return t;
}
/// Post a put of @p n bytes from @p src (ticket t) and the atomic right behind it (ticket t + 1) with one claim.
/// The atomic's header is published before the put's: the proxy, which takes requests in ticket order, finds the
/// pair complete when it finds the put (and may run both as one). Returns t + 1.
GSHMEM_DEVICE_INLINE unsigned long long proxyPostPutAmo(const ProxyRing& r, int pe, uint64_t off, uint64_t src,
                                                        uint64_t n, uint32_t amo_aux, uint64_t amo_off,
                                                        uint64_t amo_value) {
  const unsigned long long t = proxyClaim(r, 2);
  const uint32_t i = static_cast<uint32_t>(t) & (r.nslots - 1), j = static_cast<uint32_t>(t + 1) & (r.nslots - 1);
  stVolatile(&r.args[i], n);
  stVolatile(&r.slots[i].value, src);
  stVolatile(&r.slots[j].value, amo_value);
  stReleaseSys(reinterpret_cast<unsigned long long*>(&r.slots[j].header),
               proxyHeader(kProxyAmo, amo_aux, static_cast<uint32_t>(pe), amo_off) | proxyPhase(t + 1, r.nslots));
  stReleaseSys(reinterpret_cast<unsigned long long*>(&r.slots[i].header),
               proxyHeader(kProxyPut, 0, static_cast<uint32_t>(pe), off) | proxyPhase(t, r.nslots));
  return t + 1;
}
/// Wait until the proxy retired the request of @p ticket (and every earlier one).
GSHMEM_DEVICE_INLINE void proxyWait(const ProxyRing& r, unsigned long long ticket) {
  while (ldAcquire(r.done) <= ticket) {
  }
}
GSHMEM_DEVICE_INLINE unsigned long long proxyResult(const ProxyRing& r, unsigned long long ticket) {
  proxyWait(r, ticket);
  return volatileLoad(&r.results[ticket % kProxyResults]);
}
/// Wait until every request claimed so far on this GPU is retired.
GSHMEM_DEVICE_INLINE void proxyQuiet(const ProxyRing& r) {
  if (r.slots == nullptr) return;
  const unsigned long long h = ldRelaxedGpu(r.head);
  if (h) proxyWait(r, h - 1);
}

template <typename T>
GSHMEM_DEVICE_INLINE uint64_t bitsOf(T v) {
  uint64_t b = 0;
  memcpy(&b, &v, sizeof(T));
  return b;
}
template <typename T>
GSHMEM_DEVICE_INLINE T fromBits(uint64_t b) {
  T v;
  memcpy(&v, &b, sizeof(T));
  return v;
}

/// The copy-engine route is a shared resource (one proxy thread, one copy queue per GPU): a group takes it only
/// when no other group of this GPU holds it (a token in this PE's DeviceSync), so a grid of blocks that all put
/// large pieces keeps its SM bandwidth and the copy engine adds to it instead of serializing every block.
/// Every thread of the group gets the leader's answer. Release with ceRelease by the leader.
template <int S>
GSHMEM_DEVICE_INLINE bool ceAcquire(const DeviceHandle& h) {
  unsigned long long* tok = &h.sync->pad[0];
  if constexpr (S == kScopeThread) {
    return atomicCAS(tok, 0ull, 1ull) == 0ull;
  } else if constexpr (S == kScopeWarp) {
    int got = 0;
    if (groupRank<S>() == 0) got = atomicCAS(tok, 0ull, 1ull) == 0ull;
    return __shfl_sync(0xffffffffu, got, 0) != 0;
  } else {
    __shared__ int got;
    __syncthreads();  // an earlier call's readers are done with `got`
    if (groupRank<S>() == 0) got = atomicCAS(tok, 0ull, 1ull) == 0ull;
    __syncthreads();
    return got != 0;
  }
}
GSHMEM_DEVICE_INLINE void ceRelease(const DeviceHandle& h) { atomicExch(&h.sync->pad[0], 0ull); }

}  // namespace detail

// ============================================================================================ handle API
GSHMEM_DEVICE_INLINE void* ptr(const DeviceHandle& h, const void* addr, int pe) {
  return detail::peerPtr(h, static_cast<const char*>(addr), pe);
}

/// Put `n` bytes at group scope S. nbi: the proxy path does not wait for completion.
template <int S>
GSHMEM_DEVICE_INLINE void putmem(const DeviceHandle& h, void* dst, const void* src, size_t n, int pe,
                                 bool nbi = false) {
  char* p = detail::peerPtr(h, static_cast<char*>(dst), pe);
  if (p != nullptr && (n < h.ce_min[S] || !__isGlobal(src) || !detail::ceAcquire<S>(h))) {
    detail::copy<S>(p, src, n);
    detail::groupSync<S>();
    return;
  }
  nbi = nbi && p == nullptr;  // the copy-engine route returns complete: later stores need no ordering against it
  detail::groupSync<S>();
  if (detail::groupRank<S>() == 0) {
    const uint64_t off = detail::offsetOf(h, dst);
    const char* s = static_cast<const char*>(src);
    unsigned long long t = 0;
    if (!__isGlobal(src)) {  // local/shared source: the proxy cannot copy from it; send the bytes inline
      for (size_t done = 0; done < n; done += 8) {
        const size_t c = n - done < 8 ? n - done : 8;
        uint64_t v = 0;
        memcpy(&v, s + done, c);
        t = detail::proxyPost(h.ring, kProxyPutV, pe, static_cast<uint32_t>(c - 1), off + done, v);
      }
    } else if (n) {
      t = detail::proxyPost(h.ring, kProxyPut, pe, 0, off, reinterpret_cast<uint64_t>(s), n, true);
    }
    if (!nbi && n) detail::proxyWait(h.ring, t);
    if (p != nullptr) detail::ceRelease(h);
  }
  detail::groupSync<S>();
}

template <int S>
GSHMEM_DEVICE_INLINE void getmem(const DeviceHandle& h, void* dst, const void* src, size_t n, int pe,
                                 bool nbi = false) {
  const char* p = detail::peerPtr(h, static_cast<const char*>(src), pe);
  if (p != nullptr && (n < h.ce_min[S] || !__isGlobal(dst) || !detail::ceAcquire<S>(h))) {
    detail::copy<S>(dst, p, n);
    detail::groupSync<S>();
    return;
  }
  nbi = nbi && p == nullptr;
  if (detail::groupRank<S>() == 0) {
    const uint64_t off = detail::offsetOf(h, src);
    char* d = static_cast<char*>(dst);
    unsigned long long t = 0;
    if (!__isGlobal(dst)) {  // local/shared destination: fetch through the result words, 8 bytes at a time
      for (size_t done = 0; done < n; done += 8) {
        const size_t c = n - done < 8 ? n - done : 8;
        t = detail::proxyPost(h.ring, kProxyGetV, pe, static_cast<uint32_t>(c - 1), off + done, 0);
        const uint64_t v = detail::proxyResult(h.ring, t);
        memcpy(d + done, &v, c);
      }
    } else if (n) {
      t = detail::proxyPost(h.ring, kProxyGet, pe, 0, off, reinterpret_cast<uint64_t>(d), n, true);
      if (!nbi) detail::proxyWait(h.ring, t);
    }
    if (p != nullptr) detail::ceRelease(h);
  }
  detail::groupSync<S>();
}

template <typename T>
GSHMEM_DEVICE_INLINE void p(const DeviceHandle& h, T* dst, T value, int pe) {
  static_assert(sizeof(T) <= 8, "p takes scalars");
  T* q = detail::peerPtr(h, dst, pe);
  if (q != nullptr) {
    *q = value;
    return;
  }
  detail::proxyPost(h.ring, kProxyPutV, pe, sizeof(T) - 1, detail::offsetOf(h, dst), detail::bitsOf(value));
}

template <typename T>
GSHMEM_DEVICE_INLINE T g(const DeviceHandle& h, const T* src, int pe) {
  static_assert(sizeof(T) <= 8, "g takes scalars");
  const T* q = detail::peerPtr(h, src, pe);
  if (q != nullptr) return detail::volatileLoad(q);
  unsigned long long t = detail::proxyPost(h.ring, kProxyGetV, pe, sizeof(T) - 1, detail::offsetOf(h, src), 0);
  return detail::fromBits<T>(detail::proxyResult(h.ring, t));
}

/// Atomic `op` on the naturally aligned 4- or 8-byte integer at symmetric `dst` on `pe`; returns the old value
/// for fetching ops.
template <typename T>
GSHMEM_DEVICE_INLINE T atomic(const DeviceHandle& h, AmoCode op, T* dst, T value, T cond, int pe) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomics are 32- or 64-bit");
  using U = typename std::conditional<sizeof(T) == 8, unsigned long long, unsigned int>::type;
  auto on = [&](char* b) {
    U* q = reinterpret_cast<U*>(b + (reinterpret_cast<const char*>(dst) - h.heap_base));
    return detail::fromBits<T>(static_cast<uint64_t>(
        detail::atomicOn<U>(q, op, static_cast<U>(detail::bitsOf(value)), static_cast<U>(detail::bitsOf(cond)))));
  };
  // Fast path, one test before the instruction: a peer whose base the handle holds inline, mapped here. The test
  // sits on the round trip of dependent atomics (the next one issues after it), where peerBase's two branches
  // (inline or global table, then mapped or proxy) cost measurably more than this one.
  char* const inl = h.peer_base_inline[pe < kInlinePeers ? pe : 0];
  if (__builtin_expect(pe < kInlinePeers && inl != nullptr, 1)) return on(inl);
  if (pe >= kInlinePeers && h.peer_base[pe] != nullptr) return on(h.peer_base[pe]);
  unsigned long long t = detail::proxyPost(h.ring, kProxyAmo, pe, static_cast<uint32_t>(op) | (sizeof(T) == 8) << 4,
                                           detail::offsetOf(h, dst), detail::bitsOf(value), detail::bitsOf(cond),
                                           op == kAmoCompareSwap);
  switch (op) {
    case kAmoSet: case kAmoAdd: case kAmoInc: case kAmoAnd: case kAmoOr: case kAmoXor: return T{};
    default: return detail::fromBits<T>(detail::proxyResult(h.ring, t));
  }
}

namespace detail {
// Global-space system-scope atomics, relaxed: no "memory" clobber, so the compiler may keep handle fields (peer
// bases in constant space) in registers across a loop of atomics instead of reloading them after each one, on
// the round trip. Ordering against other memory operations is what fence/quiet give, as the OpenSHMEM memory
// model says; asm volatile keeps atomics in order. The global state space is explicit: atomicAdd_system & co. on
// a pointer the compiler cannot prove global compile to a generic ATOM plus a shared-memory fallback branch
// (ATOMS.CAST.SPIN) that serializes on the result, and every heap address (local or P2P-mapped) is global.
#define GSHMEMI_ATOM(NAME, OP, T, TY, C)                                                                         \
  GSHMEM_DEVICE_INLINE T NAME(T* q, T v) {                                                                     \
    T r;                                                                                                       \
    asm volatile("atom.sys.global." OP "." TY " %0, [%1], %2;" : "=" C(r) : "l"(q), C(v));                      \
    return r;                                                                                                  \
  }
GSHMEMI_ATOM(atomAdd, "add", unsigned long long, "u64", "l")
GSHMEMI_ATOM(atomAdd, "add", unsigned int, "u32", "r")
GSHMEMI_ATOM(atomExch, "exch", unsigned long long, "b64", "l")
GSHMEMI_ATOM(atomExch, "exch", unsigned int, "b32", "r")
GSHMEMI_ATOM(atomAnd, "and", unsigned long long, "b64", "l")
GSHMEMI_ATOM(atomAnd, "and", unsigned int, "b32", "r")
GSHMEMI_ATOM(atomOr, "or", unsigned long long, "b64", "l")
GSHMEMI_ATOM(atomOr, "or", unsigned int, "b32", "r")
GSHMEMI_ATOM(atomXor, "xor", unsigned long long, "b64", "l")
GSHMEMI_ATOM(atomXor, "xor", unsigned int, "b32", "r")
#undef GSHMEMI_ATOM
GSHMEM_DEVICE_INLINE unsigned long long atomCas(unsigned long long* q, unsigned long long c, unsigned long long v) {
  unsigned long long r;
  asm volatile("atom.sys.global.cas.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(q), "l"(c), "l"(v));
  return r;
}
GSHMEM_DEVICE_INLINE unsigned int atomCas(unsigned int* q, unsigned int c, unsigned int v) {
  unsigned int r;
  asm volatile("atom.sys.global.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(q), "r"(c), "r"(v));
  return r;
}

/// System-scope atomic on a device heap address (local or P2P-mapped; global memory). Returns the old value (0
/// for non-fetching).
template <typename U>
GSHMEM_DEVICE_INLINE U atomicOn(U* q, uint32_t op, U v, U c) {
  U r = 0;
  switch (op) {
    case kAmoFetch: r = atomOr(q, U(0)); break;
    case kAmoSet: atomExch(q, v); break;
    case kAmoSwap: r = atomExch(q, v); break;
    case kAmoCompareSwap: r = atomCas(q, c, v); break;
    case kAmoFetchAdd: r = atomAdd(q, v); break;
    case kAmoAdd: atomAdd(q, v); break;
    case kAmoFetchInc: r = atomAdd(q, U(1)); break;
    case kAmoInc: atomAdd(q, U(1)); break;
    case kAmoFetchAnd: r = atomAnd(q, v); break;
    case kAmoAnd: atomAnd(q, v); break;
    case kAmoFetchOr: r = atomOr(q, v); break;
    case kAmoOr: atomOr(q, v); break;
    case kAmoFetchXor: r = atomXor(q, v); break;
    case kAmoXor: atomXor(q, v); break;
  }
  return r;
}
}  // namespace detail

/// Update the signal at `sig` on `pe` after (ordered behind) everything this thread stored before.
GSHMEM_DEVICE_INLINE void signalOp(const DeviceHandle& h, uint64_t* sig, uint64_t value, int sig_op, int pe) {
  unsigned long long* q = reinterpret_cast<unsigned long long*>(detail::peerPtr(h, sig, pe));
  if (q != nullptr) {
    if (sig_op == GSHMEM_SIGNAL_ADD) {  // a release reduction: no separate fence (it costs a link round trip)
      asm volatile("red.release.sys.global.add.u64 [%0], %1;" ::"l"(q), "l"(static_cast<unsigned long long>(value))
                   : "memory");
    } else {
      detail::stReleaseSys(q, value);
    }
    return;
  }
  detail::proxyPost(h.ring, kProxyAmo, pe, (sig_op == GSHMEM_SIGNAL_ADD ? kAmoAdd : kAmoSet) | (1u << 4),
                    detail::offsetOf(h, sig), value);
}

template <int S>
GSHMEM_DEVICE_INLINE void putmemSignal(const DeviceHandle& h, void* dst, const void* src, size_t n, uint64_t* sig,
                                       uint64_t value, int sig_op, int pe, bool nbi) {
  char* p = detail::peerPtr(h, static_cast<char*>(dst), pe);
  if (p != nullptr) {
    detail::copy<S>(p, src, n);
    detail::groupSync<S>();  // every lane's stores precede the signal (the release below is cumulative)
    if (detail::groupRank<S>() == 0) signalOp(h, sig, value, sig_op, pe);
    detail::groupSync<S>();
    return;
  }
  const uint32_t amo = (sig_op == GSHMEM_SIGNAL_ADD ? kAmoAdd : kAmoSet) | (1u << 4);
  if (n != 0 && __isGlobal(src)) {  // the put and its signal as one pair of requests, in ring order
    detail::groupSync<S>();          // the group's stores to the source precede the post's release
    if (detail::groupRank<S>() == 0) {
      detail::proxyPostPutAmo(h.ring, pe, detail::offsetOf(h, dst), reinterpret_cast<uint64_t>(src), n, amo,
                              detail::offsetOf(h, sig), value);
      if (!nbi) detail::proxyQuiet(h.ring);
    }
    detail::groupSync<S>();
    return;
  }
  putmem<S>(h, dst, src, n, pe, /*nbi=*/true);  // ring order puts the data before the signal
  if (detail::groupRank<S>() == 0) {
    signalOp(h, sig, value, sig_op, pe);
    if (!nbi) detail::proxyQuiet(h.ring);
  }
  detail::groupSync<S>();
}

/// Wait until the local signal compares true; ends with a system-scope acquire. Returns the signal's value.
GSHMEM_DEVICE_INLINE uint64_t signalWaitUntil(uint64_t* sig, int cmp, uint64_t value) {
  const unsigned long long* q = reinterpret_cast<const unsigned long long*>(sig);
  for (;;) {  // each poll is an acquire: the satisfying load needs no second round trip
    uint64_t v = detail::ldAcquireSys(q);
    if (detail::compare<uint64_t>(cmp, v, value)) return v;
  }
}

template <typename T>
GSHMEM_DEVICE_INLINE void waitUntil(T* ivar, int cmp, T value) {
  while (!detail::compare<T>(cmp, detail::ldAcquire(ivar), value)) {
  }
}
template <typename T>
GSHMEM_DEVICE_INLINE int test(T* ivar, int cmp, T value) {
  return detail::compare<T>(cmp, detail::ldAcquire(ivar), value) ? 1 : 0;
}

GSHMEM_DEVICE_INLINE void fence(const DeviceHandle&) { __threadfence_system(); }
GSHMEM_DEVICE_INLINE void quiet(const DeviceHandle& h) {
  __threadfence_system();
  detail::proxyQuiet(h.ring);
}

/// Barrier over all PEs (one calling thread per PE; see api.cuh). `do_quiet` = barrier_all, else sync_all.
GSHMEM_DEVICE_INLINE void barrierAll(const DeviceHandle& h, bool do_quiet = true) {
  if (do_quiet) quiet(h);
  const unsigned long long e = ++h.sync->barrier_epoch;
  for (int i = 1; i <= h.n_pes; ++i) {
    const int pe = (h.my_pe + i) % h.n_pes;
    unsigned long long* f = &h.sync->flags[h.my_pe];
    unsigned long long* q = detail::peerPtr(h, f, pe);
    if (q != nullptr) detail::stReleaseSys(q, e);
    else detail::proxyPost(h.ring, kProxyAmo, pe, kAmoSet | (1u << 4), detail::offsetOf(h, f), e);
  }
  for (int pe = 0; pe < h.n_pes; ++pe)
    while (detail::ldAcquire(&h.sync->flags[pe]) < e) {
    }
}
template <int S>
GSHMEM_DEVICE_INLINE void barrierAllGroup(const DeviceHandle& h, bool do_quiet = true) {
  detail::groupSync<S>();
  if (detail::groupRank<S>() == 0) barrierAll(h, do_quiet);
  detail::groupSync<S>();
}

}  // namespace dev
}  // namespace gshmem
