// Layer 3 of the device API: inline bodies. Included by api.cuh under nvcc only.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gshmem/device/impl/access__funcs.cuh"

namespace gshmem {
namespace dev {
namespace detail {

template <typename U>
GSHMEM_DEVICE_INLINE U atomicOn(U* q, uint32_t op, U v, U c);

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

namespace detail {
/// A put through the proxy ring (proxy and copy-engine backends); `ce`: the copy-engine token is held (released
/// here, the put returns complete).
template <int S>
GSHMEM_DEVICE_INLINE void putProxied(const DeviceHandle& h, void* dst, const void* src, size_t n, int pe, bool nbi,
                                     bool ce) {
  groupSync<S>();
  if (groupRank<S>() == 0) {
    const uint64_t off = offsetOf(h, dst);
    const char* s = static_cast<const char*>(src);
    unsigned long long t = 0;
    if (!__isGlobal(src)) {  // local/shared source: the proxy cannot copy from it; send the bytes inline
      for (size_t done = 0; done < n; done += 8) {
        const size_t c = n - done < 8 ? n - done : 8;
        uint64_t v = 0;
        memcpy(&v, s + done, c);
        t = proxyPost(h.ring, kProxyPutV, pe, static_cast<uint32_t>(c - 1), off + done, v);
      }
    } else if (n) {
      t = proxyPost(h.ring, kProxyPut, pe, 0, off, reinterpret_cast<uint64_t>(s), n, true);
    }
    if (!nbi && n) proxyWait(h.ring, t);
    if (ce) ceRelease(h);
  }
  groupSync<S>();
}
/// A get through the proxy ring; `ce` as for putProxied.
template <int S>
GSHMEM_DEVICE_INLINE void getProxied(const DeviceHandle& h, void* dst, const void* src, size_t n, int pe, bool nbi,
                                     bool ce) {
  if (groupRank<S>() == 0) {
    const uint64_t off = offsetOf(h, src);
    char* d = static_cast<char*>(dst);
    unsigned long long t = 0;
    if (!__isGlobal(dst)) {  // local/shared destination: fetch through the result words, 8 bytes at a time
      for (size_t done = 0; done < n; done += 8) {
        const size_t c = n - done < 8 ? n - done : 8;
        t = proxyPost(h.ring, kProxyGetV, pe, static_cast<uint32_t>(c - 1), off + done, 0);
        const uint64_t v = proxyResult(h.ring, t);
        memcpy(d + done, &v, c);
      }
    } else if (n) {
      t = proxyPost(h.ring, kProxyGet, pe, 0, off, reinterpret_cast<uint64_t>(d), n, true);
      if (!nbi) proxyWait(h.ring, t);
    }
    if (ce) ceRelease(h);
  }
  groupSync<S>();
}
}  // namespace detail

/// Put `n` bytes at group scope S. nbi: the proxy path does not wait for completion; the copy-engine path returns
/// complete (later stores need no ordering against it).
template <int S>
GSHMEM_DEVICE_INLINE void putmem(const DeviceHandle& h, void* dst, const void* src, size_t n, int pe,
                                 bool nbi = false) {
  auto direct = [&](char* p) {
    detail::copy<S>(p, src, n);
    detail::groupSync<S>();
  };
  detail::onBackend<S, true>(
      h, dst, pe, n, direct,
      [&](char*) {
        if (!__isGlobal(src) || !detail::ceAcquire<S>(h)) return false;  // engine busy: the SMs copy
        detail::putProxied<S>(h, dst, src, n, pe, false, true);
        return true;
      },
      [&] { detail::putProxied<S>(h, dst, src, n, pe, nbi, false); });
}

template <int S>
GSHMEM_DEVICE_INLINE void getmem(const DeviceHandle& h, void* dst, const void* src, size_t n, int pe,
                                 bool nbi = false) {
  auto direct = [&](char* p) {
    detail::copy<S>(dst, p, n);
    detail::groupSync<S>();
  };
  detail::onBackend<S, true>(
      h, src, pe, n, direct,
      [&](char*) {
        if (!__isGlobal(dst) || !detail::ceAcquire<S>(h)) return false;
        detail::getProxied<S>(h, dst, src, n, pe, false, true);
        return true;
      },
      [&] { detail::getProxied<S>(h, dst, src, n, pe, nbi, false); });
}

template <typename T>
GSHMEM_DEVICE_INLINE void p(const DeviceHandle& h, T* dst, T value, int pe) {
  static_assert(sizeof(T) <= 8, "p takes scalars");
  detail::onWord(
      h, dst, pe, [&](char* q) { *reinterpret_cast<T*>(q) = value; },
      [&] {
        detail::proxyPost(h.ring, kProxyPutV, pe, sizeof(T) - 1, detail::offsetOf(h, dst), detail::bitsOf(value));
      });
}

template <typename T>
GSHMEM_DEVICE_INLINE T g(const DeviceHandle& h, const T* src, int pe) {
  static_assert(sizeof(T) <= 8, "g takes scalars");
  return detail::onWord(
      h, src, pe, [&](char* q) { return detail::volatileLoad(reinterpret_cast<const T*>(q)); },
      [&] {
        unsigned long long t = detail::proxyPost(h.ring, kProxyGetV, pe, sizeof(T) - 1, detail::offsetOf(h, src), 0);
        return detail::fromBits<T>(detail::proxyResult(h.ring, t));
      });
}

/// Atomic `op` on the naturally aligned 4- or 8-byte integer at symmetric `dst` on `pe`; returns the old value
/// for fetching ops.
template <typename T>
GSHMEM_DEVICE_INLINE T atomic(const DeviceHandle& h, AmoCode op, T* dst, T value, T cond, int pe) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomics are 32- or 64-bit");
  using U = typename std::conditional<sizeof(T) == 8, unsigned long long, unsigned int>::type;
  return detail::onWord(
      h, dst, pe,
      [&](char* q) {
        return detail::fromBits<T>(static_cast<uint64_t>(detail::atomicOn<U>(
            reinterpret_cast<U*>(q), op, static_cast<U>(detail::bitsOf(value)), static_cast<U>(detail::bitsOf(cond)))));
      },
      [&] {
        unsigned long long t =
            detail::proxyPost(h.ring, kProxyAmo, pe, static_cast<uint32_t>(op) | (sizeof(T) == 8) << 4,
                              detail::offsetOf(h, dst), detail::bitsOf(value), detail::bitsOf(cond),
                              op == kAmoCompareSwap);
        switch (op) {
          case kAmoSet: case kAmoAdd: case kAmoInc: case kAmoAnd: case kAmoOr: case kAmoXor: return T{};
          default: return detail::fromBits<T>(detail::proxyResult(h.ring, t));
        }
      });
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
  detail::onWord(
      h, sig, pe,
      [&](char* p) {
        unsigned long long* q = reinterpret_cast<unsigned long long*>(p);
        if (sig_op == GSHMEM_SIGNAL_ADD) {  // a release reduction: no separate fence (it costs a link round trip)
          asm volatile("red.release.sys.global.add.u64 [%0], %1;" ::"l"(q),
                       "l"(static_cast<unsigned long long>(value))
                       : "memory");
        } else {
          detail::stReleaseSys(q, value);
        }
      },
      [&] {
        detail::proxyPost(h.ring, kProxyAmo, pe, (sig_op == GSHMEM_SIGNAL_ADD ? kAmoAdd : kAmoSet) | (1u << 4),
                          detail::offsetOf(h, sig), value);
      });
}

template <int S>
GSHMEM_DEVICE_INLINE void putmemSignal(const DeviceHandle& h, void* dst, const void* src, size_t n, uint64_t* sig,
                                       uint64_t value, int sig_op, int pe, bool nbi) {
  auto direct = [&](char* p) {
    detail::copy<S>(p, src, n);
    detail::groupSync<S>();  // every lane's stores precede the signal (the release below is cumulative)
    if (detail::groupRank<S>() == 0) signalOp(h, sig, value, sig_op, pe);
    detail::groupSync<S>();
  };
  auto proxied = [&] {
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
  };
  detail::onBackend<S, false>(h, dst, pe, 0, direct, [](char*) { return false; }, proxied);
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
    detail::onWord(
        h, f, pe,
        [&](char* q) { detail::stReleaseSys(reinterpret_cast<unsigned long long*>(q), e); },
        [&] { detail::proxyPost(h.ring, kProxyAmo, pe, kAmoSet | (1u << 4), detail::offsetOf(h, f), e); });
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
