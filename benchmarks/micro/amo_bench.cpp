// Microbenchmarks of AMO dispatch: the host-side path from a public atomic call (api_amo.cpp: each
// shmem_<T>_atomic_<op> is a thin forward to gshmem::ops::amo<T>) through the op-code switch of ops::amo (or its
// float/double CAS-bits branch) to the CPU atomic on the peer's mapping, or to the transport when it is not mapped.
//
// Why it matters: the project's rule is that a small operation does no malloc, syscall or lock; an AMO on one node is
// one locked instruction, so anything around it (the C entry point, requireInit, the context, alignment check,
// translation, the op switch) is pure overhead on the osu_oshm_atomics latency. The public entry points pass the
// op as a constant, so the switch should fold away; ops::amo with an op only known at run time (as a proxy or an
// active-message target decoding a request would call it) keeps the switch, and is measured separately.
//
// What runs: the real public C API and ops::amo from gshmem_internal / core/ops.hpp on the single-process fake of
// the post-init state in fake_runtime.hpp (8 PEs; PEs 1..6 mapped as local buffers; PE 7 unmapped).
// Not covered: contention between PEs (one process, one thread: every line stays in this core's cache, so the
// numbers are the uncontended floor), the UCX AMO wire (the unmapped case stops at the Transport virtual call),
// device-heap AMOs (deviceAmo, CUDA only), and the distributed locks (shmem_set_lock: a protocol over AMOs).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/rma/ops.hpp"
#include "fake_runtime.hpp"
#include "micro_util.hpp"
#include "shmem.h"

namespace {

using gshmem::AmoOp;
using gshmem::micro::FakeRuntime;
using gshmem::micro::kFakeHeap;
using gshmem::micro::kUnmappedPe;
using gshmem::micro::opaque;
using gshmem::micro::sink;
using gshmem::micro::spreadOffsets;

constexpr std::size_t kSlots = 256;  // targets: distinct 64-byte lines, one per slot
constexpr std::size_t kMask = kSlots - 1;

/// Targets (local symmetric address, mapped PE 1..6) reused by every benchmark of this file.
struct Targets {
  std::vector<std::size_t> off;
  std::vector<int> pe;
  Targets() : off(spreadOffsets(kSlots, kFakeHeap, 64)), pe(kSlots) {
    for (std::size_t i = 0; i < kSlots; ++i) pe[i] = 1 + static_cast<int>((i * 5 + i / 7) % (kUnmappedPe - 1));
  }
  template <typename T>
  T* local(std::size_t k) const {
    return reinterpret_cast<T*>(FakeRuntime::get().heap[0] + off[k]);
  }
  template <typename T>
  T* remote(std::size_t k) const {  ///< the same word in PE pe[k]'s heap, as mapped here
    return reinterpret_cast<T*>(FakeRuntime::get().heap[pe[k]] + off[k]);
  }
};

const Targets& targets() {
  static const Targets t;
  return t;
}

// -------------------------------------------------------------------------------------------- baseline

/// The floor: the CPU atomic alone (seq_cst fetch_add, what ops::amo issues) on the same peer words.
void BM_AtomicBaseline(benchmark::State& state) {
  FakeRuntime::get();
  const Targets& t = targets();
  std::size_t i = 0;
  for (auto _ : state) {
    long* q = opaque(t.remote<long>(i++ & kMask));
    long old = __atomic_fetch_add(q, 1L, __ATOMIC_SEQ_CST);
    sink(old);
  }
}
BENCHMARK(BM_AtomicBaseline);

// -------------------------------------------------------------------------------------------- public C API

/// One public AMO call per iteration; @p call gets the local symmetric address, a changing value and the PE.
using ApiCall = long (*)(void* dest, long v, int pe);

void BM_Api(benchmark::State& state, ApiCall call) {
  FakeRuntime::get();
  const Targets& t = targets();
  std::size_t i = 0;
  long v = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & kMask;
    long r = call(t.local<char>(k), ++v, t.pe[k]);
    sink(r);
  }
  state.SetItemsProcessed(state.iterations());
}

// One public entry point each, behind the ApiCall signature.
long longFetchAdd(void* d, long v, int pe) { return shmem_long_atomic_fetch_add(static_cast<long*>(d), v, pe); }
long longAdd(void* d, long v, int pe) {
  shmem_long_atomic_add(static_cast<long*>(d), v, pe);
  return 0;
}
long longFetchInc(void* d, long, int pe) { return shmem_long_atomic_fetch_inc(static_cast<long*>(d), pe); }
long longCompareSwap(void* d, long v, int pe) {
  return shmem_long_atomic_compare_swap(static_cast<long*>(d), v - 1, v, pe);
}
long longSwap(void* d, long v, int pe) { return shmem_long_atomic_swap(static_cast<long*>(d), v, pe); }
long longFetch(void* d, long, int pe) { return shmem_long_atomic_fetch(static_cast<const long*>(d), pe); }
long longSet(void* d, long v, int pe) {
  shmem_long_atomic_set(static_cast<long*>(d), v, pe);
  return 0;
}
long intFetchAdd(void* d, long v, int pe) {
  return shmem_int_atomic_fetch_add(static_cast<int*>(d), static_cast<int>(v), pe);
}
long uint64FetchXor(void* d, long v, int pe) {
  return static_cast<long>(shmem_uint64_atomic_fetch_xor(static_cast<uint64_t*>(d), static_cast<uint64_t>(v), pe));
}
long doubleSwap(void* d, long v, int pe) {
  return static_cast<long>(shmem_double_atomic_swap(static_cast<double*>(d), static_cast<double>(v), pe));
}
long longFetchAddNbi(void* d, long v, int pe) {
  long fetched;
  shmem_long_atomic_fetch_add_nbi(&fetched, static_cast<long*>(d), v, pe);
  return fetched;
}

BENCHMARK_CAPTURE(BM_Api, long_fetch_add, &longFetchAdd);
BENCHMARK_CAPTURE(BM_Api, long_add, &longAdd);
BENCHMARK_CAPTURE(BM_Api, long_fetch_inc, &longFetchInc);
BENCHMARK_CAPTURE(BM_Api, long_compare_swap, &longCompareSwap);
BENCHMARK_CAPTURE(BM_Api, long_swap, &longSwap);
BENCHMARK_CAPTURE(BM_Api, long_fetch, &longFetch);
BENCHMARK_CAPTURE(BM_Api, long_set, &longSet);
BENCHMARK_CAPTURE(BM_Api, int_fetch_add, &intFetchAdd);
BENCHMARK_CAPTURE(BM_Api, uint64_fetch_xor, &uint64FetchXor);
BENCHMARK_CAPTURE(BM_Api, double_swap, &doubleSwap);
BENCHMARK_CAPTURE(BM_Api, long_fetch_add_nbi, &longFetchAddNbi);

// -------------------------------------------------------------------------------------------- run-time op code

/// Op codes drawn at random from @p choices: 64 Ki entries, far longer than any pattern a branch predictor learns.
constexpr std::size_t kOpSlots = std::size_t(1) << 16;
std::vector<AmoOp> randomOps(const std::vector<AmoOp>& choices) {
  std::vector<AmoOp> ops(kOpSlots);
  uint64_t x = 0xD1B54A32D192ED03ull;
  for (AmoOp& op : ops) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    op = choices[(x >> 32) % choices.size()];
  }
  return ops;
}

/// ops::amo<long> with an op code known only at run time (as a request decoder would call it): either always
/// fetch_add (the switch is predicted) or random among all 14 codes (mostly mispredicted). The public entry
/// points above pass a constant op, so their switch folds away.
void BM_OpsAmoRuntimeOp(benchmark::State& state) {
  FakeRuntime::get();
  const Targets& t = targets();
  const bool mixed = state.range(0) != 0;
  std::vector<AmoOp> all;
  for (int op = 0; op <= static_cast<int>(AmoOp::Xor); ++op) all.push_back(static_cast<AmoOp>(op));
  const std::vector<AmoOp> ops = randomOps(mixed ? all : std::vector<AmoOp>{AmoOp::FetchAdd});
  std::size_t i = 0;
  long v = 0;
  for (auto _ : state) {
    const std::size_t k = i & kMask;
    const AmoOp op = opaque(ops[i++ & (kOpSlots - 1)]);
    const long cond = v++;  // compare_swap succeeds when the word still holds the previous value
    long r = gshmem::ops::amo<long>("bench", SHMEM_CTX_DEFAULT, op, t.local<long>(k), v, cond, t.pe[k]);
    sink(r);
  }
  state.SetLabel(mixed ? "14 ops, random" : "fetch_add only");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OpsAmoRuntimeOp)->ArgName("mixed")->Arg(0)->Arg(1);

/// The same with double: only fetch/set/swap are defined (random among them); they go through the integer bits.
void BM_OpsAmoRuntimeOpDouble(benchmark::State& state) {
  FakeRuntime::get();
  const Targets& t = targets();
  const std::vector<AmoOp> ops = randomOps({AmoOp::Fetch, AmoOp::Set, AmoOp::Swap});
  std::size_t i = 0;
  double v = 0;
  for (auto _ : state) {
    const std::size_t k = i & kMask;
    const AmoOp op = opaque(ops[i++ & (kOpSlots - 1)]);
    v += 1;
    double r = gshmem::ops::amo<double>("bench", SHMEM_CTX_DEFAULT, op, t.local<double>(k), v, 0.0, t.pe[k]);
    sink(r);
  }
  state.SetLabel("fetch/set/swap, random");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OpsAmoRuntimeOpDouble);

// -------------------------------------------------------------------------------------------- not mapped

/// shmem_long_atomic_fetch_add to an unmapped PE: resolve -> amoRemote (bits packing) -> offAmo -> remoteAmo ->
/// Transport::amo (NullTransport answers at once). The host-side dispatch cost before UCX sees the request.
void BM_ApiUnmapped(benchmark::State& state) {
  FakeRuntime& rt = FakeRuntime::get();
  const Targets& t = targets();
  rt.useRemote(true);
  std::size_t i = 0;
  long v = 0;
  for (auto _ : state) {
    long r = shmem_long_atomic_fetch_add(t.local<long>(i++ & kMask), ++v, kUnmappedPe);
    sink(r);
  }
  rt.useRemote(false);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ApiUnmapped);

/// Correctness guard, outside any timing: the public call must land on the peer's word, not the local one.
void BM_ApiCheck(benchmark::State& state) {
  FakeRuntime::get();
  const Targets& t = targets();
  for (auto _ : state) {
    long* peer = t.remote<long>(0);
    const long before = __atomic_load_n(peer, __ATOMIC_SEQ_CST);
    long old = shmem_long_atomic_fetch_add(t.local<long>(0), 5, t.pe[0]);
    if (old != before || __atomic_load_n(peer, __ATOMIC_SEQ_CST) != before + 5) {
      state.SkipWithError("shmem_long_atomic_fetch_add did not act on the peer's mapping");
      break;
    }
  }
}
BENCHMARK(BM_ApiCheck)->Iterations(100);

}  // namespace
