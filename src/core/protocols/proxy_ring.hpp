// The consumer side of the GPU -> proxy ring (format and producer in include/gshmem/device/impl/): plain C++ on
// host memory, shared by the proxy thread (proxy.cpp) and the ring microbenchmark (benchmarks/micro), which drives
// it with a host restatement of the producer.
//
// Contract: one consumer thread. take() hands out published requests in ticket order, at most `max` per call;
// retire() then publishes, with one release store of `done`, that every request taken so far is complete (the
// caller has finished their effects and written their results first). A slot is free for the producer again once
// `done` passes its ticket, so a request's words stay readable until it is retired.
#pragma once
#include <cstdint>

#include "gshmem/device/impl/handle__types.cuh"
#include "transports/transport.hpp"  // AmoOp

namespace gshmem::protocols {

/// A request as the consumer reads it.
struct ProxyReq {
  uint64_t ticket;
  uint32_t op;   ///< ProxyOp
  uint32_t aux;  ///< see ProxyOp
  int pe;
  uint64_t off;    ///< byte offset in PE pe's device heap
  uint64_t value;  ///< see ProxyOp
  uint64_t arg;    ///< the third word (args[slot]) for kProxyPut/kProxyGet/compare-and-swap, else 0
};

class ProxyRingConsumer {
 public:
  /// Host addresses of the ring's words (the proxy's view of ProxyRing).
  void attach(ProxyRequest* slots, uint64_t* args, uint32_t nslots, unsigned long long* done,
              unsigned long long* results) {
    slots_ = slots;
    args_ = args;
    mask_ = nslots - 1;
    nslots_ = nslots;
    done_ = done;
    results_ = results;
    tail_ = 0;
  }

  /// Call exec(const ProxyReq&) for each published request in order, up to @p max. Returns how many.
  template <class Exec>
  unsigned take(unsigned max, Exec&& exec) {
    // Locals, not members: exec() writes memory the compiler cannot tell apart from this object.
    const ProxyRequest* const slots = slots_;
    const uint64_t* const args = args_;
    const uint64_t mask = mask_;
    const uint32_t nslots = nslots_;
    uint64_t t = tail_;
    unsigned n = 0;
    for (; n < max; ++n, ++t) {
      const ProxyRequest* s = slots + (t & mask);
      const uint64_t h = __atomic_load_n(&s->header, __ATOMIC_ACQUIRE);
      if ((h & kProxyPhaseBit) != proxyPhase(t, nslots)) break;
      const uint32_t op = proxyOpOf(h), aux = proxyAuxOf(h);
      ProxyReq q;
      q.ticket = t;
      q.op = op;
      q.aux = aux;
      q.pe = proxyPeOf(h);
      q.off = proxyOffsetOf(h);
      q.value = __atomic_load_n(&s->value, __ATOMIC_RELAXED);
      q.arg = needsArg(op, aux) ? __atomic_load_n(&args[t & mask], __ATOMIC_RELAXED) : 0;
      exec(q);
    }
    tail_ = t;
    return n;
  }

  /// Publish that every request taken so far is complete: one store.
  void retire() { __atomic_store_n(done_, static_cast<unsigned long long>(tail_), __ATOMIC_RELEASE); }

  /// Where a fetching request's result goes (written before retire()).
  unsigned long long* result(uint64_t ticket) const { return results_ + ticket % kProxyResults; }
  /// Requests taken so far.
  uint64_t tail() const { return tail_; }

  static bool needsArg(uint32_t op, uint32_t aux) {
    return op == kProxyPut || op == kProxyGet || (op == kProxyAmo && (aux & 0xf) == static_cast<uint32_t>(AmoOp::CompareSwap));
  }

 private:
  ProxyRequest* slots_ = nullptr;
  uint64_t* args_ = nullptr;
  uint64_t mask_ = 0;
  uint32_t nslots_ = 0;
  unsigned long long* done_ = nullptr;
  unsigned long long* results_ = nullptr;
  uint64_t tail_ = 0;
};

}  // namespace gshmem::protocols
