// An AMO applied with CPU atomics to a word this process can load and store: what a transport does at the target
// of a remote AMO (ucx active messages) and what a load/store peer gets.
#pragma once
#include <cstdint>

#include "transports/transport.hpp"

namespace gshmem {

/// Apply @p op to the naturally aligned word at @p at (4 or 8 bytes) with CPU atomics; returns the old value.
template <typename W>
uint64_t applyAmo(W* at, AmoOp op, W v, W cond) {
  switch (op) {
    case AmoOp::Fetch: return __atomic_load_n(at, __ATOMIC_ACQUIRE);
    case AmoOp::Set: case AmoOp::Swap: return __atomic_exchange_n(at, v, __ATOMIC_ACQ_REL);
    case AmoOp::CompareSwap: {
      W expected = cond;
      __atomic_compare_exchange_n(at, &expected, v, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
      return expected;
    }
    case AmoOp::FetchAdd: case AmoOp::Add: return __atomic_fetch_add(at, v, __ATOMIC_ACQ_REL);
    case AmoOp::FetchInc: case AmoOp::Inc: return __atomic_fetch_add(at, W(1), __ATOMIC_ACQ_REL);
    case AmoOp::FetchAnd: case AmoOp::And: return __atomic_fetch_and(at, v, __ATOMIC_ACQ_REL);
    case AmoOp::FetchOr: case AmoOp::Or: return __atomic_fetch_or(at, v, __ATOMIC_ACQ_REL);
    case AmoOp::FetchXor: case AmoOp::Xor: return __atomic_fetch_xor(at, v, __ATOMIC_ACQ_REL);
  }
  return 0;
}

}  // namespace gshmem
