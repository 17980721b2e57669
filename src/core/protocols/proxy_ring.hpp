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
    unsigned n = takeRun(max, exec);
    // A run that stopped at the ring's end goes on from slot 0, in the next lap; one that stopped at an unpublished
    // slot does not poll again.
    if (n != 0 && n < max && (tail_ & mask_) == 0) n += takeRun(max - n, exec);
    return n;
  }

  /// Publish that every request taken so far is complete: one store.
  void retire() { __atomic_store_n(done_, static_cast<unsigned long long>(tail_), __ATOMIC_RELEASE); }

  /// Where a fetching request's result goes (written before retire()).
  unsigned long long* result(uint64_t ticket) const { return results_ + ticket % kProxyResults; }
  /// Requests taken so far.
  uint64_t tail() const { return tail_; }

  /// Whether a request of @p op / @p aux carries a third word in args[slot]. Takes the decoded scalars, not a
  /// ProxyReq being filled: a compiler may merge the two adjacent 32-bit fields into one 64-bit load of the
  /// half-written struct, which the two 32-bit stores cannot forward (a stall on every request).
  static bool needsArg(uint32_t op, uint32_t aux) {
    return op == kProxyPut || op == kProxyGet ||
           (op == kProxyAmo && (aux & 0xf) == static_cast<uint32_t>(AmoOp::CompareSwap));
  }

 private:
  /// take() within one lap: from the slot at tail_ to the first unpublished one or the ring's end, at most @p max
  /// requests. Every slot of the run belongs to one lap: one phase for the run and an index walk, no mask or
  /// phase per request. Each header is read with acquire before its slot's other words (the producer writes the
  /// header last, with release).
  template <class Exec>
  unsigned takeRun(unsigned max, Exec& exec) {
    // Locals, not members: exec() writes memory the compiler cannot tell apart from this object.
    const uint64_t t0 = tail_;
    const uint32_t i0 = static_cast<uint32_t>(t0 & mask_);
    const uint32_t end = i0 + (max < nslots_ - i0 ? max : nslots_ - i0);
    const uint64_t phase = proxyPhase(t0, nslots_);
    const ProxyRequest* const slots = slots_;
    const uint64_t* const args = args_;
    uint32_t i = i0;
    for (; i < end; ++i) {
      const uint64_t h = __atomic_load_n(&slots[i].header, __ATOMIC_ACQUIRE);
      if ((h ^ phase) & kProxyPhaseBit) break;
      const uint32_t op = proxyOpOf(h), aux = proxyAuxOf(h);
      ProxyReq q;
      q.ticket = t0 + (i - i0);
      q.op = op;
      q.aux = aux;
      q.pe = proxyPeOf(h);
      q.off = proxyOffsetOf(h);
      q.value = __atomic_load_n(&slots[i].value, __ATOMIC_RELAXED);
      q.arg = needsArg(op, aux) ? __atomic_load_n(&args[i], __ATOMIC_RELAXED) : 0;
      exec(q);
    }
    tail_ = t0 + (i - i0);
    return i - i0;
  }

  ProxyRequest* slots_ = nullptr;
  uint64_t* args_ = nullptr;
  uint64_t mask_ = 0;
  uint32_t nslots_ = 0;
  unsigned long long* done_ = nullptr;
  unsigned long long* results_ = nullptr;
  uint64_t tail_ = 0;
};

}  // namespace gshmem::protocols
