// Microbenchmarks of path lookup: the per-transfer protocol choice of core/select (Selector::choose and
// DecisionTable::lookup), i.e. "which protocol moves <bytes> of <memory pair> in <direction> to this peer".
//
// Why it matters: the project's rule puts selection at setup time and forbids malloc, syscalls and locks per small
// transfer. The selector honours that by building, at init, a decision table per peer path class (crossovers
// between the protocols' cost models solved analytically, then GSHMEM_PATH / GSHMEM_TUNE painted over) so that a
// call-time choice is an O(1) table index plus a binary search over a handful of size ranges; no model is
// evaluated per call. Device-side transfers ask it on every host-initiated put/get to device memory
// (core/protocols/device_path.cpp: deviceChoice() -> g.table[pe]->lookup()); this keeps that lookup in the ns
// range and catches a regression such as evaluating models per call or a table that fragments into many ranges.
//
// What runs: the real Selector from gshmem_internal, built as selectorCreate() builds it at init (all five
// protocols available) from (a) the default models, and (b) a calibrated-style profile with 3-range piecewise
// models plus a GSHMEM_TUNE string, which fragments the tables into many more ranges (the worst realistic case).
// Lookups draw the peer, memory pair, direction and a log-uniform size (1 B .. 256 MiB) from a pre-built table.
// The table build itself (init-time, allocates) is timed too, for scale.
// Not covered: device_path.cpp's wrapper around the lookup (forced-protocol atomic, the per-PE PeerPath table):
// it is compiled only with CUDA. The host load/store path (shmem_putmem to a mapped peer) does not consult the
// selector at all: its choice is the mapped pointer found by resolve() (see translate_bench.cpp).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/select/selector.hpp"
#include "micro_util.hpp"

namespace {

using gshmem::DecisionTable;
using gshmem::Direction;
using gshmem::LinkModel;
using gshmem::MemPair;
using gshmem::ModelRange;
using gshmem::PathType;
using gshmem::PeerPath;
using gshmem::ProtocolId;
using gshmem::Selector;
using gshmem::SelectorConfig;
using gshmem::micro::opaque;
using gshmem::micro::sink;

// Queries: a power of two, and long enough that the branch predictor cannot learn the sequence (a short sequence
// is learnt, and the profiled lookup then looks several times faster than with random sizes). The table is
// read sequentially, so its 1.5 MiB stream from L3 is prefetched.
constexpr std::size_t kSlots = std::size_t(1) << 16;
constexpr std::size_t kMask = kSlots - 1;

/// The peer path classes of a mixed job: host-only peers on the node and on another node, an NVLink peer with
/// P2P, and a PCIe peer without P2P (staged only).
const std::vector<PeerPath>& peerPaths() {
  static const std::vector<PeerPath> p = {
      PeerPath{PathType::Node, true, false},
      PeerPath{PathType::Net, false, false},
      PeerPath{PathType::NvLink, true, true},
      PeerPath{PathType::Pix, true, false},
  };
  return p;
}

/// A profile model of @p ranges contiguous ranges for one (protocol, memory pair, direction, class): the lines get
/// steeper overheads and bandwidths per range, like a fit of a real sweep.
void addModel(gshmem::Profile* p, ProtocolId id, MemPair m, Direction d, PathType cls, double o0, double bw0,
              const std::vector<uint64_t>& cuts) {
  gshmem::ProfileModel pm;
  pm.proto = id;
  pm.mem = m;
  pm.dir = d;
  pm.cls = cls;
  uint64_t lo = 0;
  double o = o0, bw = bw0;
  for (std::size_t i = 0; i <= cuts.size(); ++i) {
    uint64_t hi = i < cuts.size() ? cuts[i] : gshmem::kSizeInf;
    pm.model.ranges.push_back(ModelRange{lo, hi, LinkModel{o, bw}, 12, 0.99});
    lo = hi;
    o *= 1.8;
    bw *= 1.6;
  }
  p->models.push_back(pm);
}

/// Configuration (b): piecewise profile models for every device pair on NVLink and PIX, and a tune string.
SelectorConfig profiledConfig(std::string* tune_text) {
  SelectorConfig c;
  for (bool& a : c.available) a = true;
  const MemPair dev_pairs[] = {MemPair::HostDev, MemPair::DevHost, MemPair::DevDev};
  for (PathType cls : {PathType::NvLink, PathType::Pix})
    for (MemPair m : dev_pairs)
      for (Direction d : {Direction::Put, Direction::Get}) {
        addModel(&c.profile, ProtocolId::P2pCe, m, d, cls, 3.0, 20, {4096, 1 << 20});
        addModel(&c.profile, ProtocolId::P2pSm, m, d, cls, 2.0, 8, {2048, 256 << 10});
        addModel(&c.profile, ProtocolId::Staged, m, d, cls, 9.0, 30, {64 << 10, 8 << 20});
      }
  for (Direction d : {Direction::Put, Direction::Get}) {
    addModel(&c.profile, ProtocolId::Shm, MemPair::HostHost, d, PathType::Node, 0.05, 4, {4096, 256 << 10});
    addModel(&c.profile, ProtocolId::Ucx, MemPair::HostHost, d, PathType::Node, 0.2, 6, {8192, 1 << 20});
  }
  c.profile_name = "micro-bench (in memory)";
  *tune_text =
      "put:dd:1K-2K:@staged,put:dd:100K-200K:@p2p_sm,get:*:64K-96K:@staged,*:hd:3M-5M:@p2p_ce,"
      "put:hh:512K-768K:@ucx";
  std::string err;
  if (isError(gshmem::tuneParse(*tune_text, &c.tune, &err))) c.tune.clear();
  c.tune_text = *tune_text;
  return c;
}

SelectorConfig defaultConfig() {
  SelectorConfig c;
  for (bool& a : c.available) a = true;
  return c;
}

/// A built selector with every peer path added (as selectorCreate does), and its table statistics.
struct Built {
  std::unique_ptr<Selector> sel;
  std::vector<const DecisionTable*> table;  ///< per peer path (device_path.cpp keeps one such pointer per PE)
  std::size_t max_ranges = 0, total_ranges = 0;
};

Built build(bool profiled) {
  Built b;
  std::string tune;
  b.sel = std::make_unique<Selector>(profiled ? profiledConfig(&tune) : defaultConfig());
  for (const PeerPath& p : peerPaths()) b.sel->addPeer(p);
  for (const PeerPath& p : peerPaths()) {  // after every addPeer: tables_ may have moved
    const DecisionTable* t = b.sel->table(p);
    b.table.push_back(t);
    for (int m = 0; m < gshmem::kNumMemPairs; ++m)
      for (int d = 0; d < gshmem::kNumDirections; ++d) {
        std::size_t n = t->ranges[m][d].size();
        b.total_ranges += n;
        if (n > b.max_ranges) b.max_ranges = n;
      }
  }
  return b;
}

const Built& built(bool profiled) {
  static const Built d = build(false), p = build(true);
  return profiled ? p : d;
}

/// One query: which peer path, memory pair, direction, size.
struct Query {
  int peer;
  MemPair mem;
  Direction dir;
  uint64_t bytes;
};

/// Queries drawn once: sizes log-uniform over 1 B .. 256 MiB, every memory pair and direction, every peer path.
const std::vector<Query>& queries() {
  static const std::vector<Query> q = [] {
    std::vector<Query> out(kSlots);
    uint64_t x = 0x243F6A8885A308D3ull;
    for (std::size_t i = 0; i < kSlots; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      const int shift = static_cast<int>(x % 29);  // 2^0 .. 2^28
      const uint64_t bytes = (uint64_t(1) << shift) + ((x >> 8) & ((uint64_t(1) << shift) - 1));
      out[i] = Query{static_cast<int>((x >> 40) % peerPaths().size()), static_cast<MemPair>((x >> 48) % 4),
                     static_cast<Direction>((x >> 56) & 1), bytes};
    }
    return out;
  }();
  return q;
}

std::string label(const Built& b, const char* what) {
  return std::string(what) + ", ranges max " + std::to_string(b.max_ranges) + " total " +
         std::to_string(b.total_ranges);
}

// -------------------------------------------------------------------------------------------- lookups

/// Selector::choose(peer, mem, dir, bytes): key hash of the PeerPath -> table index -> binary search. The form
/// a caller without a cached table pointer uses.
void BM_SelectorChoose(benchmark::State& state) {
  const Built& b = built(state.range(0) != 0);
  const std::vector<Query>& q = queries();
  const std::vector<PeerPath>& paths = peerPaths();
  std::size_t i = 0;
  for (auto _ : state) {
    const Query& x = q[i++ & kMask];
    ProtocolId p = b.sel->choose(paths[x.peer], x.mem, x.dir, x.bytes);
    sink(p);
  }
  state.SetLabel(label(b, state.range(0) ? "profile+tune" : "defaults"));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SelectorChoose)->ArgName("profiled")->Arg(0)->Arg(1);

/// DecisionTable::lookup through a table pointer cached per peer at init (device_path.cpp's deviceChoice form):
/// the binary search alone.
void BM_TableLookup(benchmark::State& state) {
  const Built& b = built(state.range(0) != 0);
  const std::vector<Query>& q = queries();
  std::size_t i = 0;
  for (auto _ : state) {
    const Query& x = q[i++ & kMask];
    const DecisionTable* t = opaque(b.table[x.peer]);
    ProtocolId p = t->lookup(x.mem, x.dir, x.bytes);
    sink(p);
  }
  state.SetLabel(label(b, state.range(0) ? "profile+tune" : "defaults"));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TableLookup)->ArgName("profiled")->Arg(0)->Arg(1);

/// The best case: one peer, one pair, one direction, one size (a loop of equal puts): every branch predicted.
void BM_TableLookupSameSize(benchmark::State& state) {
  const Built& b = built(true);
  const DecisionTable* t = b.table[2];  // NVLink, P2P: the most fragmented tables
  const uint64_t bytes = static_cast<uint64_t>(state.range(0));
  for (auto _ : state) {
    ProtocolId p = t->lookup(MemPair::DevDev, Direction::Put, opaque(bytes));
    sink(p);
  }
  state.SetLabel(std::string("NVL dd put -> ") +
                 gshmem::protocolName(t->lookup(MemPair::DevDev, Direction::Put, bytes)));
}
BENCHMARK(BM_TableLookupSameSize)->Arg(8)->Arg(64 << 10)->Arg(16 << 20);

/// Sanity, outside timing: both forms agree on every query, and the on-node host peer gets shm for small puts.
void BM_LookupCheck(benchmark::State& state) {
  for (auto _ : state) {
    for (bool profiled : {false, true}) {
      const Built& b = built(profiled);
      for (const Query& x : queries())
        if (b.sel->choose(peerPaths()[x.peer], x.mem, x.dir, x.bytes) != b.table[x.peer]->lookup(x.mem, x.dir, x.bytes))
          state.SkipWithError("Selector::choose and DecisionTable::lookup disagree");
      if (b.sel->choose(peerPaths()[0], MemPair::HostHost, Direction::Put, 8) != ProtocolId::Shm)
        state.SkipWithError("an 8-byte host put on the node should choose shm");
    }
  }
}
BENCHMARK(BM_LookupCheck)->Iterations(1);

// -------------------------------------------------------------------------------------------- init-time build

/// Building the tables (Selector + addPeer for the four path classes): init-time, allocates; for scale only.
void BM_SelectorBuild(benchmark::State& state) {
  const bool profiled = state.range(0) != 0;
  std::string tune;
  const SelectorConfig cfg = profiled ? profiledConfig(&tune) : defaultConfig();
  for (auto _ : state) {
    Selector sel(cfg);
    for (const PeerPath& p : peerPaths()) sink(&sel.addPeer(p));
  }
  state.SetLabel(profiled ? "profile+tune, 4 paths" : "defaults, 4 paths");
}
BENCHMARK(BM_SelectorBuild)->ArgName("profiled")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
