// Microbenchmarks of address translation: the bounds check and offset translation that turn a local symmetric
// address into the target PE's mapping on every shmem_putmem / shmem_p / shmem_g on one node.
//
// Why it matters: the project's rule (after UCX's optimization style) is that a small put does no malloc, syscall or lock, and
// selection happens at setup. On one node the whole cost of an 8-byte put beyond the store itself is this
// translation (core/runtime.hpp: regionOf() scans the heap and data regions, resolve() range-checks the PE and
// indexes g_rt.peers[pe]) plus the context's team-to-world PE mapping (ctxWorldPe). An 8-byte put+quiet on one
// node costs a few tens of ns, so a translation regression of a few ns is visible in it; this
// isolates it from the memcpy and from cross-process cache traffic.
//
// What runs: the real inline hot path from core/runtime.hpp and core/ops.hpp, and the public C entry points
// (shmem_putmem, shmem_long_p, shmem_long_g, shmem_ctx_putmem) from gshmem_internal, on a single-process fake of
// the post-init state (fake_runtime.hpp: 8 PEs, PEs 1..6 "mapped" as local buffers, PE 7 unmapped).
// Not covered: shmem_init (MPI bootstrap, the heap's memfd/mmap in core/runtime.cpp, the .data/.bss remap in
// core/memory/symmetric_data.cpp), shmem_malloc (core/memory/heap.cpp: collective, barriers), and the device-heap branch
// (resolveCold: only a CUDA build has a device heap). The remote branch is measured up to the Transport virtual
// call (NullTransport), not the wire.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/rma/ops.hpp"
#include "core/runtime/runtime.hpp"
#include "fake_runtime.hpp"
#include "micro_util.hpp"
#include "shmem.h"

namespace {

using gshmem::micro::FakeRuntime;
using gshmem::micro::kFakeData;
using gshmem::micro::kFakeHeap;
using gshmem::micro::kUnmappedPe;
using gshmem::micro::opaque;
using gshmem::micro::sink;
using gshmem::micro::spreadOffsets;

constexpr std::size_t kSlots = 1024;  // power of two: the loop indexes tables with i & (kSlots - 1)
constexpr std::size_t kMask = kSlots - 1;

/// Mapped target PEs 1..kUnmappedPe-1 in a scrambled order (never PE 0 and never the unmapped one).
std::vector<int> mappedPes() {
  std::vector<int> pes(kSlots);
  for (std::size_t i = 0; i < kSlots; ++i) pes[i] = 1 + static_cast<int>((i * 5 + i / 7) % (kUnmappedPe - 1));
  return pes;
}

// -------------------------------------------------------------------------------------------- regionOf

/// regionOf() alone for an address in the heap (found by the first comparison) or the data region (second).
void BM_RegionOf(benchmark::State& state) {
  FakeRuntime& rt = FakeRuntime::get();
  const bool data = state.range(0) != 0;
  char* base = data ? rt.data[0] : rt.heap[0];
  const auto offs = spreadOffsets(kSlots, data ? kFakeData : kFakeHeap, 8);
  std::size_t i = 0;
  for (auto _ : state) {
    const void* addr = opaque<const void*>(base + offs[i++ & kMask]);
    std::size_t off = 0;
    int r = gshmem::regionOf(addr, 8, &off);
    sink(r);
    sink(off);
  }
  state.SetLabel(data ? "data region (2nd)" : "heap region (1st)");
}
BENCHMARK(BM_RegionOf)->ArgName("data")->Arg(0)->Arg(1);

// -------------------------------------------------------------------------------------------- resolve

/// resolve(): PE range check + regionOf + g_rt.peers[pe].base[region] + offset, for a mapped peer. This is the
/// complete translation a load/store put does before its memcpy.
void BM_Resolve(benchmark::State& state) {
  FakeRuntime& rt = FakeRuntime::get();
  const bool data = state.range(0) != 0;
  char* base = data ? rt.data[0] : rt.heap[0];
  const auto offs = spreadOffsets(kSlots, data ? kFakeData : kFakeHeap, 8);
  const auto pes = mappedPes();
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & kMask;
    const void* addr = opaque<const void*>(base + offs[k]);
    const int pe = opaque(pes[k]);
    gshmem::RemoteAddr ra;
    char* p = gshmem::resolve("bench", "dest", addr, 8, pe, &ra);
    sink(p);
  }
  // Check once, outside the loop, that the translation is the one the shm transport's mapping implies.
  gshmem::RemoteAddr ra;
  if (gshmem::resolve("bench", "dest", base + 4096, 8, 3, &ra) != (data ? rt.data[3] : rt.heap[3]) + 4096)
    state.SkipWithError("resolve() returned the wrong peer address");
  state.SetLabel(data ? "data region, mapped peer" : "heap, mapped peer");
}
BENCHMARK(BM_Resolve)->ArgName("data")->Arg(0)->Arg(1);

/// resolve() for a PE whose regions are not mapped here: it fills the RemoteAddr for the transport instead.
void BM_ResolveUnmapped(benchmark::State& state) {
  FakeRuntime& rt = FakeRuntime::get();
  const auto offs = spreadOffsets(kSlots, kFakeHeap, 8);
  std::size_t i = 0;
  for (auto _ : state) {
    const void* addr = opaque<const void*>(rt.heap[0] + offs[i++ & kMask]);
    const int pe = opaque(kUnmappedPe);
    gshmem::RemoteAddr ra;
    char* p = gshmem::resolve("bench", "dest", addr, 8, pe, &ra);
    sink(p);
    sink(ra);
  }
}
BENCHMARK(BM_ResolveUnmapped);

/// ctxWorldPe(): a context on a strided team maps the team PE to the world PE (bounds check, start + i*stride).
/// The world context (is_world) skips it; both are measured.
void BM_CtxWorldPe(benchmark::State& state) {
  FakeRuntime::get();
  gshmem_team team{};
  team.start = 1;
  team.stride = 2;
  team.size = 3;  // world PEs 1, 3, 5
  team.my_index = -1;
  gshmem_ctx ctx{&team, 0, state.range(0) == 0};
  std::vector<int> team_pes(kSlots);
  for (std::size_t k = 0; k < kSlots; ++k) team_pes[k] = static_cast<int>((k * 5 + k / 7) % 3);
  std::size_t i = 0;
  for (auto _ : state) {
    const int pe = team_pes[i++ & kMask];
    const gshmem_ctx* c = opaque<const gshmem_ctx*>(&ctx);
    int w = gshmem::ctxWorldPe("bench", c, pe);
    sink(w);
  }
  state.SetLabel(state.range(0) == 0 ? "strided team context" : "world context");
}
BENCHMARK(BM_CtxWorldPe)->ArgName("world")->Arg(0)->Arg(1);

// -------------------------------------------------------------------------------------------- public C API

/// shmem_long_p to a mapped peer: the whole public call (requireInit, ctx, resolve, 8-byte store).
void BM_ShmemLongP(benchmark::State& state) {
  FakeRuntime& rt = FakeRuntime::get();
  const auto offs = spreadOffsets(kSlots, kFakeHeap, 8);
  const auto pes = mappedPes();
  std::size_t i = 0;
  long v = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & kMask;
    shmem_long_p(reinterpret_cast<long*>(rt.heap[0] + offs[k]), ++v, pes[k]);
  }
  benchmark::ClobberMemory();
  long got;
  std::memcpy(&got, rt.heap[pes[0]] + offs[0], sizeof got);
  if (got == 0) state.SkipWithError("shmem_long_p did not reach the peer's mapping");
}
BENCHMARK(BM_ShmemLongP);

/// shmem_long_g from a mapped peer.
void BM_ShmemLongG(benchmark::State& state) {
  FakeRuntime& rt = FakeRuntime::get();
  const auto offs = spreadOffsets(kSlots, kFakeHeap, 8);
  const auto pes = mappedPes();
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & kMask;
    long v = shmem_long_g(reinterpret_cast<const long*>(rt.heap[0] + offs[k]), pes[k]);
    sink(v);
  }
}
BENCHMARK(BM_ShmemLongG);

/// The baseline for BM_ShmemPutmem: the copy alone, to the same peer buffers and offsets.
void BM_MemcpyBaseline(benchmark::State& state) {
  FakeRuntime& rt = FakeRuntime::get();
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const auto offs = spreadOffsets(kSlots, kFakeHeap, n);
  const auto pes = mappedPes();
  std::vector<char> src(n, 'x');
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & kMask;
    char* dst = opaque(rt.heap[pes[k]] + offs[k]);
    std::memcpy(dst, src.data(), n);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(n));
}
BENCHMARK(BM_MemcpyBaseline)->Arg(8)->Arg(64)->Arg(512)->Arg(4096);

/// shmem_putmem of n bytes to a mapped peer: translation + copyBytes (memcpy below 256 KiB).
void BM_ShmemPutmem(benchmark::State& state) {
  FakeRuntime& rt = FakeRuntime::get();
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const auto offs = spreadOffsets(kSlots, kFakeHeap, n);
  const auto pes = mappedPes();
  std::vector<char> src(n, 'y');
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & kMask;
    shmem_putmem(rt.heap[0] + offs[k], src.data(), n, pes[k]);
  }
  benchmark::ClobberMemory();
  if (rt.heap[pes[0]][offs[0]] != 'y') state.SkipWithError("shmem_putmem did not reach the peer's mapping");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(n));
}
BENCHMARK(BM_ShmemPutmem)->Arg(8)->Arg(64)->Arg(512)->Arg(4096);

/// shmem_putmem of 8 bytes to a symmetric global (the data region: regionOf's second comparison).
void BM_ShmemPutmemGlobal(benchmark::State& state) {
  FakeRuntime& rt = FakeRuntime::get();
  const auto offs = spreadOffsets(kSlots, kFakeData, 8);
  const auto pes = mappedPes();
  const uint64_t src = 42;
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & kMask;
    shmem_putmem(rt.data[0] + offs[k], &src, 8, pes[k]);
  }
}
BENCHMARK(BM_ShmemPutmemGlobal);

/// shmem_ctx_putmem of 8 bytes on a context of a strided team: adds ctxArg + the team-to-world mapping.
void BM_ShmemCtxPutmemTeam(benchmark::State& state) {
  FakeRuntime& rt = FakeRuntime::get();
  gshmem_team team{};
  team.start = 1;
  team.stride = 2;
  team.size = 3;
  gshmem_ctx ctx{&team, 0, false};
  const auto offs = spreadOffsets(kSlots, kFakeHeap, 8);
  const uint64_t src = 7;
  std::vector<int> team_pes(kSlots);
  for (std::size_t k = 0; k < kSlots; ++k) team_pes[k] = static_cast<int>((k * 5 + k / 7) % 3);
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & kMask;
    shmem_ctx_putmem(&ctx, rt.heap[0] + offs[k], &src, 8, team_pes[k]);
  }
}
BENCHMARK(BM_ShmemCtxPutmemTeam);

/// shmem_putmem of 8 bytes to an unmapped PE: translation to a RemoteAddr, then offPut -> remotePut -> the
/// transport's virtual putNbi (NullTransport: no data moves). The host-side cost of handing a put to UCX.
void BM_ShmemPutmemUnmapped(benchmark::State& state) {
  FakeRuntime& rt = FakeRuntime::get();
  rt.useRemote(true);
  const auto offs = spreadOffsets(kSlots, kFakeHeap, 8);
  const uint64_t src = 9;
  std::size_t i = 0;
  for (auto _ : state) shmem_putmem(rt.heap[0] + offs[i++ & kMask], &src, 8, kUnmappedPe);
  sink(rt.null_transport.bytes);
  rt.useRemote(false);
}
BENCHMARK(BM_ShmemPutmemUnmapped);

/// shmem_putmem (8 B) + shmem_quiet to a mapped peer: the osu put_lat iteration minus the second process.
void BM_ShmemPutmemQuiet(benchmark::State& state) {
  FakeRuntime& rt = FakeRuntime::get();
  const auto offs = spreadOffsets(kSlots, kFakeHeap, 8);
  const uint64_t src = 11;
  std::size_t i = 0;
  for (auto _ : state) {
    shmem_putmem(rt.heap[0] + offs[i++ & kMask], &src, 8, 1);
    shmem_quiet();
  }
}
BENCHMARK(BM_ShmemPutmemQuiet);

}  // namespace
