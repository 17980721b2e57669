// A single-process stand-in for the state shmem_init leaves in gshmem::g_rt, for the microbenchmarks of the hot
// path (translate_bench.cpp, amo_bench.cpp). Private to benchmarks/micro.
//
// shmem_init needs an MPI bootstrap and maps every peer's memfd heap through the shm transport; neither is
// needed to time what a call does *after* init. What a put/p/AMO reads on the hot path is only g_rt.{n_pes,
// base[], size[], peers[]} and the context: this fills exactly those fields, with each peer's "mapping" being a
// separate heap-sized buffer of this process (what the shm transport's mmap would give; the translation math
// cannot tell the difference). Every public call on it is then the real library code: shmem_putmem, shmem_long_p,
// shmem_long_atomic_fetch_add, ... linked from gshmem_internal.
//
// Not covered here: init itself (MPI, memfd, mmap, the peer exchange), shmem_malloc's barrier, and anything that
// needs a second process (real cross-process cache traffic, the UCX wire). PE kUnmappedPe has no mapping, so
// calls to it take the "not mapped" branch into g_rt.remote, which NullTransport answers without moving data.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/runtime/runtime.hpp"
#include "transports/transport.hpp"

namespace gshmem::micro {

constexpr int kFakePes = 8;                               ///< world size of the fake job (this process is PE 0)
constexpr int kUnmappedPe = kFakePes - 1;                 ///< its regions are not mapped here: the remote branch
constexpr std::size_t kFakeHeap = std::size_t(1) << 20;   ///< bytes per heap region (the user part; no control area)
constexpr std::size_t kFakeData = std::size_t(64) << 10;  ///< bytes per data region

/// Answers every remote operation at once without moving data: what remains is the library's host-side
/// dispatch (resolve -> offPut/offAmo -> remote*.cpp -> one virtual call), not a transport.
class NullTransport final : public Transport {
 public:
  const char* name() const override { return "null"; }
  Status connect(Bootstrap&, const std::vector<LocalRegion>&, std::vector<PeerReach>*) override { return Status::Ok; }
  void disconnect() override {}
  Status putNbi(const RemoteAddr& dst, const void*, std::size_t n) override {
    bytes += n + dst.offset;  // keep the arguments live
    return Status::Ok;
  }
  Status get(const RemoteAddr& src, void*, std::size_t n) override {
    bytes += n + src.offset;
    return Status::Ok;
  }
  Status amo(const RemoteAddr& dst, AmoOp op, unsigned size, uint64_t value, uint64_t cond, uint64_t* result) override {
    *result = value + cond + static_cast<uint64_t>(op) + size + dst.offset;
    return Status::Ok;
  }
  uint64_t bytes = 0;
};

/// The fake job. Built once on first use, never torn down (g_rt is a process-wide global, as in a real run).
struct FakeRuntime {
  char* heap[kFakePes] = {};  ///< heap[0] is this PE's heap; heap[pe] is PE pe's heap "as mapped here"
  char* data[kFakePes] = {};
  NullTransport null_transport;

  static FakeRuntime& get() {
    static FakeRuntime rt;
    return rt;
  }

  /// Route not-mapped PEs to the NullTransport (true) or leave g_rt.remote empty (false, the default).
  /// Only while set does quiet/fence call the transport, so the benchmarks that do not need it keep it off.
  void useRemote(bool on) { g_rt.remote = on ? &null_transport : nullptr; }

 private:
  FakeRuntime() {
    for (int pe = 0; pe < kFakePes; ++pe) {
      heap[pe] = static_cast<char*>(std::aligned_alloc(4096, kFakeHeap));
      data[pe] = static_cast<char*>(std::aligned_alloc(4096, kFakeData));
      std::memset(heap[pe], 0, kFakeHeap);
      std::memset(data[pe], 0, kFakeData);
    }
    g_rt.my_pe = 0;
    g_rt.n_pes = kFakePes;
    g_rt.base[kRegionHeap] = heap[0];
    g_rt.size[kRegionHeap] = kFakeHeap;
    g_rt.base[kRegionData] = data[0];
    g_rt.size[kRegionData] = kFakeData;
    g_rt.peer_table.assign(kFakePes, PeerEntry{});
    for (int pe = 0; pe < kFakePes; ++pe) {
      if (pe == kUnmappedPe) continue;
      g_rt.peer_table[pe].base[kRegionHeap] = heap[pe];
      g_rt.peer_table[pe].base[kRegionData] = data[pe];
    }
    g_rt.peers = g_rt.peer_table.data();  // requireInit() passes from here on
    g_rt.remote = nullptr;
  }
};

/// Offsets spread over the heap, 64-byte aligned, so consecutive calls do not hit one cache line (the table is
/// built outside the timed loop; the loop indexes it with a mask, as in config_bench.cpp).
inline std::vector<std::size_t> spreadOffsets(std::size_t count, std::size_t span, std::size_t len) {
  std::vector<std::size_t> out(count);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (std::size_t i = 0; i < count; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    out[i] = (x % ((span - len) / 64)) * 64;
  }
  return out;
}

}  // namespace gshmem::micro
