// The contract every transport keeps, run on each registered transport through the Transport interface (the
// harness, contract_harness.hpp, connects it over all MPI ranks and picks the access path per peer from its caps).
//
// Which transports: kContractTransports below, by registry name. A transport added to the registry
// (transports/registry.cpp) is added here by one line; ContractCoverage fails until it is. A transport this build
// does not have (its create returns nullptr) skips. ctest runs the binary once per transport in this list and PE count,
// with --gtest_filter=*/<name> (tests/transports/contract.cmake reads the list from here).
//
// Each case is collective: every PE is a sender to the peers it reaches and a target of the PEs that reach it, and
// checks at the target, byte by byte, what arrived (the bytes around each payload too).
//
// The contract, for each peer a transport reports caps for (its data path with kCapRma/kCapAmo; its mapping, with
// loads, stores and CPU atomics, with kCapLoadStore):
//   putNbi   the source may be reused on return (the interface's only put: a blocking put is this guarantee), the
//            data is at the target after quiet
//   get      the data is there on return; getNbi: after quiet
//   amo      every AmoOp at 4 and 8 bytes, the old value returned by fetching ops, updates atomic under contention
//   signals  a signal (set, add, lazy) after fence, or putSignal's, is seen only once the data before it is whole
//   fence    orders two puts to one peer
//   anything the caps do not claim returns Status::Unsupported and changes nothing
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "transports/contract_harness.hpp"

namespace gshmem::contract {
namespace {

const char* const kContractTransports[] = {
    "self",
    "shm",
    "ucx",
    "cuda_ipc",
    "shm_channel",
};

/// The cases that need what a device-memory link has not: CPU atomics and signals on the target's memory, a data
/// region. A transport that serves device memory only (cuda_ipc: copies through the mapping) skips them.
#define CONTRACT_HOST_MEMORY_CASE()                                                                            \
  CONTRACT_DATA_PATH_CASE();                                                                                   \
  if (link_.device) GTEST_SKIP() << GetParam() << " serves device memory only: this case needs host memory"
/// The cases of a transport that moves data itself; a request channel (its peers' servers move the data) skips them
/// and runs RequestChannelCarriesRequestsAndChunks instead.
#define CONTRACT_DATA_PATH_CASE()                                                                              \
  if (link_.request) GTEST_SKIP() << GetParam() << " moves no data itself: a request channel to its peers' servers"

constexpr std::size_t kSizes[] = {1, 7, 8, 4096 + 3, 1u << 20};

/// Where sender `src` writes in a target's heap: its own slot, so that senders never overlap.
std::size_t slotOff(int src) { return std::size_t(src) * kSlot; }
uint64_t seedOf(int src, uint64_t round) { return (uint64_t(src) << 40) ^ (round * 0x10001ull) ^ 0x5EEDull; }

/// One transfer of a round: source (local) and destination (remote) offsets, 1..7 bytes off alignment. Transfer j
/// of a round has the room [j * stride, (j + 1) * stride) of the slot, its payload at 8 + its offset there.
struct Place {
  std::size_t loff, roff;
};
std::size_t strideOf(std::size_t n) { return n + 32; }

/// The 7 offset pairs a size is tested with (each side takes every offset 1..7; `alt` pairs them differently), as
/// rounds: as many pairs in one round as fit in a slot.
std::vector<std::vector<Place>> roundsOf(std::size_t n, bool alt) {
  std::vector<Place> all;
  for (std::size_t o = 1; o <= 7; ++o) all.push_back(alt ? Place{o * 3 % 8, o} : Place{o, 8 - o});
  const std::size_t per = std::max<std::size_t>(1, std::min(all.size(), kSlot / strideOf(n)));
  std::vector<std::vector<Place>> rounds;
  for (std::size_t j = 0; j < all.size(); j += per)
    rounds.emplace_back(all.begin() + j, all.begin() + std::min(all.size(), j + per));
  return rounds;
}

/// At a target: room j of sender `src`'s slot holds pattern `seed` at [8 + roff, 8 + roff + n), background around.
void expectRoom(const char* room, std::size_t n, std::size_t roff, uint64_t seed, int src, const char* what) {
  const std::size_t at = 8 + roff, rest = strideOf(n) - at - n;
  EXPECT_EQ(byteMismatch(room, at, kBackground), at) << what << " from PE " << src << ": bytes before the payload";
  EXPECT_EQ(patternMismatch(room + at, n, seed), n) << what << " from PE " << src << ", " << n << " bytes at +"
                                                    << roff << ": first wrong byte";
  EXPECT_EQ(byteMismatch(room + at + n, rest, kBackground), rest) << what << " from PE " << src << ", " << n
                                                                  << " bytes: bytes after the payload";
}

/// One round of puts: for each place j, every PE puts `n` bytes of pattern (round, j) from source offset loff to
/// room j of its slot in every PE it reaches (at roff), then quiet. With `reuse` the source is overwritten as soon
/// as the put returns (a put's source may be reused on return), else each put has its own source until quiet.
/// Complete at the target after the sender's quiet.
void putRound(Link& L, std::size_t n, const std::vector<Place>& places, uint64_t round, bool reuse) {
  std::memset(L.local(0), kBackground, std::size_t(L.npes) * kSlot);
  L.push(std::size_t(L.npes) * kSlot);
  L.syncAll();
  const std::vector<int> targets = L.targets();
  const std::size_t count = reuse ? 1 : targets.size() * places.size();
  std::vector<std::vector<char>> src(count, std::vector<char>(n + 8));
  for (std::size_t k = 0; k < targets.size(); ++k)
    for (std::size_t j = 0; j < places.size(); ++j) {
      char* s = src[reuse ? 0 : k * places.size() + j].data() + places[j].loff;
      patternFill(s, n, seedOf(L.me, round * 16 + j));
      const std::size_t at = slotOff(L.me) + j * strideOf(n) + 8 + places[j].roff;
      EXPECT_EQ(L.put(targets[k], 0, at, s, n), Status::Ok) << "put to PE " << targets[k];
      if (reuse) std::memset(s, 0xEE, n);
    }
  EXPECT_EQ(L.quiet(), Status::Ok);
  L.syncAll();
  L.pull(std::size_t(L.npes) * kSlot);
  for (int s : L.sources())
    for (std::size_t j = 0; j < places.size(); ++j)
      expectRoom(L.local(0) + slotOff(s) + j * strideOf(n), n, places[j].roff, seedOf(s, round * 16 + j), s,
                 reuse ? "put (source reused)" : "put");
}

TEST_P(TransportContract, PutThenQuietLandsByteExact) {
  CONTRACT_DATA_PATH_CASE();
  uint64_t round = 0;
  for (std::size_t n : kSizes) {
    for (const std::vector<Place>& places : roundsOf(n, false)) putRound(link_, n, places, ++round, true);
    for (const std::vector<Place>& places : roundsOf(n, true)) putRound(link_, n, places, ++round, false);
  }
}

/// One round of gets: every PE fills room j of its heap with pattern (round, j) at roff; then every PE reads each
/// room from every PE it reaches into a buffer at loff (get: there on return; getNbi: after quiet), and nothing
/// around it.
void getRound(Link& L, std::size_t n, const std::vector<Place>& places, uint64_t round, bool nbi) {
  for (std::size_t j = 0; j < places.size(); ++j)
    patternFill(L.local(0) + j * strideOf(n) + 8 + places[j].roff, n, seedOf(L.me, round * 16 + j));
  L.push(kSlot);
  L.syncAll();
  const std::vector<int> targets = L.targets();
  std::vector<std::vector<char>> dst(targets.size() * places.size(), std::vector<char>(n + 24, char(0xEE)));
  for (std::size_t k = 0; k < targets.size(); ++k)
    for (std::size_t j = 0; j < places.size(); ++j) {
      const std::size_t at = j * strideOf(n) + 8 + places[j].roff;
      char* d = dst[k * places.size() + j].data() + places[j].loff;
      EXPECT_EQ(L.get(targets[k], 0, at, d, n, nbi), Status::Ok) << "get from PE " << targets[k];
    }
  if (nbi) {
    EXPECT_EQ(L.quiet(), Status::Ok);
  }
  for (std::size_t k = 0; k < targets.size(); ++k)
    for (std::size_t j = 0; j < places.size(); ++j) {
      const char* d = dst[k * places.size() + j].data();
      const std::size_t lo = places[j].loff, hi = 24 - lo;
      EXPECT_EQ(patternMismatch(d + lo, n, seedOf(targets[k], round * 16 + j)), n)
          << (nbi ? "getNbi" : "get") << " of " << n << " bytes from PE " << targets[k] << " at +" << places[j].roff;
      EXPECT_EQ(byteMismatch(d, lo, 0xEE), lo) << "get wrote before its destination";
      EXPECT_EQ(byteMismatch(d + lo + n, hi, 0xEE), hi) << "get wrote past its destination";
    }
  L.syncAll();  // every read is done before the next round refills the source
}

TEST_P(TransportContract, GetAndGetNbiReadByteExact) {
  CONTRACT_DATA_PATH_CASE();
  uint64_t round = 0;
  for (std::size_t n : kSizes) {
    for (const std::vector<Place>& places : roundsOf(n, false)) getRound(link_, n, places, ++round, false);
    for (const std::vector<Place>& places : roundsOf(n, true)) getRound(link_, n, places, ++round, true);
  }
}

/// 64 MiB: each PE puts to one partner (Link::pairing, so no target gets two), unaligned on both sides; the
/// partner checks it; then the sender gets it back whole.
TEST_P(TransportContract, SixtyFourMiBPutThenGet) {
  CONTRACT_DATA_PATH_CASE();
  const std::vector<int> partner = link_.pairing();
  const int to = partner[link_.me];
  std::vector<char> buf(kBig + 8);
  std::memset(link_.local(0), kBackground, kBig + 16);
  link_.push(kBig + 16);
  link_.syncAll();
  if (to >= 0) {
    patternFill(buf.data() + 5, kBig, seedOf(link_.me, 64));
    EXPECT_EQ(link_.put(to, 0, 3, buf.data() + 5, kBig), Status::Ok);
  }
  EXPECT_EQ(link_.quiet(), Status::Ok);
  link_.syncAll();
  link_.pull(kBig + 16);
  for (int s = 0; s < link_.npes; ++s) {
    if (partner[s] != link_.me) continue;
    EXPECT_EQ(byteMismatch(link_.local(0), 3, kBackground), 3u);
    EXPECT_EQ(patternMismatch(link_.local(0) + 3, kBig, seedOf(s, 64)), kBig) << "64 MiB put from PE " << s;
    EXPECT_EQ(byteMismatch(link_.local(0) + 3 + kBig, 8, kBackground), 8u);
  }
  if (to >= 0) {
    std::memset(buf.data(), 0, buf.size());
    EXPECT_EQ(link_.get(to, 0, 3, buf.data() + 1, kBig, false), Status::Ok);
    EXPECT_EQ(patternMismatch(buf.data() + 1, kBig, seedOf(link_.me, 64)), kBig) << "64 MiB get from PE " << to;
  }
  link_.syncAll();
}

// ---- atomics

constexpr AmoOp kAllOps[] = {AmoOp::Fetch,    AmoOp::Set,      AmoOp::Swap,     AmoOp::CompareSwap, AmoOp::FetchAdd,
                             AmoOp::Add,      AmoOp::FetchInc, AmoOp::Inc,      AmoOp::FetchAnd,    AmoOp::And,
                             AmoOp::FetchOr,  AmoOp::Or,       AmoOp::FetchXor, AmoOp::Xor};
constexpr int kNumOps = sizeof kAllOps / sizeof kAllOps[0];

/// One atomic of the AMO test: its op and size, and its cell (index) in the target's data region.
struct AmoCase {
  AmoOp op;
  unsigned size;
  bool cas_fails;  ///< a CompareSwap whose condition does not match
  int cell;
};

std::vector<AmoCase> amoCases() {
  std::vector<AmoCase> v;
  for (unsigned size : {4u, 8u}) {
    for (AmoOp op : kAllOps) v.push_back({op, size, false, int(v.size())});
    v.push_back({AmoOp::CompareSwap, size, true, int(v.size())});
  }
  return v;
}

uint64_t mask(uint64_t x, unsigned size) { return size == 4 ? x & 0xFFFFFFFFull : x; }
/// Values with every byte distinct and high bits set, so a truncated or misplaced word shows.
uint64_t amoInit(int src, const AmoCase& c) {
  return mask(0x8123456789ABCDEFull ^ (uint64_t(src) << 16) ^ uint64_t(c.cell), c.size);
}
uint64_t amoValue(const AmoCase& c) { return mask(0xF00DCAFE8BADBEE1ull + uint64_t(c.cell) * 0x0101, c.size); }
uint64_t amoCond(int src, const AmoCase& c) { return c.cas_fails ? amoInit(src, c) ^ 1 : amoInit(src, c); }

/// The cell's final value, the OpenSHMEM semantics of each op.
uint64_t amoExpected(int src, const AmoCase& c) {
  const uint64_t init = amoInit(src, c), v = amoValue(c);
  switch (c.op) {
    case AmoOp::Fetch: return init;
    case AmoOp::Set: case AmoOp::Swap: return v;
    case AmoOp::CompareSwap: return init == amoCond(src, c) ? v : init;
    case AmoOp::FetchAdd: case AmoOp::Add: return mask(init + v, c.size);
    case AmoOp::FetchInc: case AmoOp::Inc: return mask(init + 1, c.size);
    case AmoOp::FetchAnd: case AmoOp::And: return init & v;
    case AmoOp::FetchOr: case AmoOp::Or: return init | v;
    case AmoOp::FetchXor: case AmoOp::Xor: return init ^ v;
  }
  return 0;
}

/// Cells are 24 bytes in the data region, sender `src` at src * 1024: 8 canary bytes, the word (an 8-byte word at
/// +8, a 4-byte one at +12 so that its 8-byte neighbourhood is canary too), canary to +24.
std::size_t cellOff(int src, const AmoCase& c) { return std::size_t(src) * 1024 + std::size_t(c.cell) * 24; }
std::size_t wordOff(int src, const AmoCase& c) { return cellOff(src, c) + (c.size == 4 ? 12 : 8); }
constexpr unsigned char kCanary = 0x5A;

void amoInitCells(Link& L) {
  for (int s : L.sources())
    for (const AmoCase& c : amoCases()) {
      char* cell = L.local(1) + cellOff(s, c);
      std::memset(cell, kCanary, 24);
      const uint64_t init = amoInit(s, c);
      std::memcpy(L.local(1) + wordOff(s, c), &init, c.size);
    }
}

void amoCheckCells(Link& L) {
  for (int s : L.sources())
    for (const AmoCase& c : amoCases()) {
      const char* cell = L.local(1) + cellOff(s, c);
      uint64_t got = 0;
      std::memcpy(&got, L.local(1) + wordOff(s, c), c.size);
      EXPECT_EQ(got, amoExpected(s, c)) << "op " << int(c.op) << " size " << c.size << " from PE " << s;
      const std::size_t w = wordOff(s, c) - cellOff(s, c);
      EXPECT_EQ(byteMismatch(cell, w, kCanary), w) << "op " << int(c.op) << " size " << c.size << " wrote below";
      EXPECT_EQ(byteMismatch(cell + w + c.size, 24 - w - c.size, kCanary), 24 - w - c.size)
          << "op " << int(c.op) << " size " << c.size << " wrote above";
    }
}

/// Every AmoOp at 4 and 8 bytes, to each peer the transport reaches: fetching ops return the old value at once,
/// every op's result is at the target after quiet, and nothing around the word changes.
TEST_P(TransportContract, AmoEveryOpBothSizes) {
  CONTRACT_HOST_MEMORY_CASE();
  amoInitCells(link_);
  link_.syncAll();
  for (int pe : link_.targets())
    for (const AmoCase& c : amoCases()) {
      uint64_t old = 0xDEAD;
      const int me = link_.me;
      EXPECT_EQ(link_.amo(pe, 1, wordOff(me, c), c.op, c.size, amoValue(c), amoCond(me, c), &old), Status::Ok)
          << "op " << int(c.op) << " size " << c.size << " to PE " << pe;
      if (amoFetches(c.op)) {
        EXPECT_EQ(old, amoInit(me, c)) << "op " << int(c.op) << " size " << c.size << " fetched from PE " << pe;
      }
    }
  EXPECT_EQ(link_.quiet(), Status::Ok);
  link_.syncAll();
  amoCheckCells(link_);
}

/// Every PE adds to one 8-byte and one 4-byte counter at each PE it reaches, all at once: no update is lost, and
/// the values one PE fetches from a counter only grow.
TEST_P(TransportContract, AmoAtomicUnderContention) {
  CONTRACT_HOST_MEMORY_CASE();
  constexpr std::size_t kCtr = 16 << 10;  // data region: 8-byte counter at +0, 4-byte counter at +12
  constexpr int kIters = 64;
  std::memset(link_.local(1) + kCtr, 0, 16);
  link_.syncAll();
  for (int pe : link_.targets()) {
    uint64_t last = 0, old = 0;
    for (int i = 0; i < kIters; ++i) {
      EXPECT_EQ(link_.amo(pe, 1, kCtr, AmoOp::FetchAdd, 8, link_.me + 1, 0, &old), Status::Ok);
      if (i > 0) {
        EXPECT_GT(old, last) << "FetchAdd from PE " << pe << " went back";
      }
      last = old;
      EXPECT_EQ(link_.amo(pe, 1, kCtr + 12, AmoOp::Inc, 4, 0, 0, &old), Status::Ok);
    }
  }
  EXPECT_EQ(link_.quiet(), Status::Ok);
  link_.syncAll();
  uint64_t want8 = 0;
  uint32_t want4 = 0;
  for (int s : link_.sources()) {
    want8 += uint64_t(kIters) * (s + 1);
    want4 += kIters;
  }
  uint64_t got8;
  uint32_t got4, gap;
  std::memcpy(&got8, link_.local(1) + kCtr, 8);
  std::memcpy(&gap, link_.local(1) + kCtr + 8, 4);
  std::memcpy(&got4, link_.local(1) + kCtr + 12, 4);
  EXPECT_EQ(got8, want8);
  EXPECT_EQ(got4, want4);
  EXPECT_EQ(gap, 0u) << "a 4-byte increment wrote outside its word";
}

// ---- ordering: signals and fence

enum class SigMode { PutSignalSet, PutSignalAdd, FenceSignal, FenceSignalAdd, FenceSignalLazy };
/// Payload sizes: small enough for a transport to batch it with its signal (ucx: up to GSHMEM_UCX_AGGREGATE), and
/// large (several network segments); both unaligned.
constexpr std::size_t kSigSizes[] = {13, (256 << 10) + 5};
std::size_t sigOff(int src) { return (20 << 10) + std::size_t(src) * 64; }

/// Sends payload `part` (0 or 1) to `pe`, then its signal, the way `mode` says.
void sendSignalled(Link& L, int pe, SigMode mode, std::size_t n, int part, uint64_t seed) {
  std::vector<char> buf(n);
  patternFill(buf.data(), n, seed + part);
  const std::size_t dst = slotOff(L.me) + 8 + part * (n + 3);
  const uint64_t add = part == 0 ? 3 : 4;  // adds make 3, then 7
  switch (mode) {
    case SigMode::PutSignalSet:
    case SigMode::PutSignalAdd: {
      const bool is_add = mode == SigMode::PutSignalAdd;
      EXPECT_EQ(L.putSignal(pe, dst, buf.data(), n, sigOff(L.me), is_add ? add : 7, is_add), Status::Ok);
      break;
    }
    default: {
      EXPECT_EQ(L.put(pe, 0, dst, buf.data(), n), Status::Ok);
      EXPECT_EQ(L.fence(), Status::Ok);
      const SignalKind k = mode == SigMode::FenceSignalAdd ? SignalKind::Add
                           : mode == SigMode::FenceSignal  ? SignalKind::Set
                                                           : SignalKind::Lazy;
      EXPECT_EQ(L.signal(pe, sigOff(L.me), k == SignalKind::Add ? add : 7, k), Status::Ok);
    }
  }
}

/// One round: every PE sends signalled payloads to each PE it reaches (two for the adding modes, one otherwise);
/// each target waits for each sender's signal and checks that the payloads it covers are whole before any quiet.
void signalRound(Link& L, SigMode mode, std::size_t n, uint64_t seed) {
  const bool two = mode == SigMode::PutSignalAdd || mode == SigMode::FenceSignalAdd;
  std::memset(L.local(0), kBackground, std::size_t(L.npes) * kSlot);
  std::memset(L.local(1) + sigOff(0), 0, std::size_t(L.npes) * 64);
  L.syncAll();
  for (int pe : L.targets())
    for (int part = 0; part < (two ? 2 : 1); ++part) sendSignalled(L, pe, mode, n, part, seed ^ L.me);
  for (int s : L.sources()) {
    const char* slot = L.local(0) + slotOff(s);
    uint64_t v = L.waitWord(sigOff(s), [](uint64_t x) { return x >= 3; });
    EXPECT_TRUE(v == 3 || v == 7) << "signal from PE " << s << " is " << v << ", mode " << int(mode);
    EXPECT_EQ(patternMismatch(slot + 8, n, (seed ^ s) + 0), n)
        << n << "-byte payload from PE " << s << " incomplete when its signal (" << v << ") arrived, mode "
        << int(mode);
    if (!two) continue;
    v = L.waitWord(sigOff(s), [](uint64_t x) { return x == 7; });
    EXPECT_EQ(v, 7u) << "second signal add from PE " << s;
    EXPECT_EQ(patternMismatch(slot + 8 + n + 3, n, (seed ^ s) + 1), n)
        << "second " << n << "-byte payload from PE " << s << " incomplete when its signal arrived, mode "
        << int(mode);
  }
  EXPECT_EQ(L.quiet(), Status::Ok);
  L.syncAll();
}

TEST_P(TransportContract, SignalIsVisibleOnlyAfterItsData) {
  CONTRACT_HOST_MEMORY_CASE();
  for (SigMode m : {SigMode::PutSignalSet, SigMode::PutSignalAdd, SigMode::FenceSignal, SigMode::FenceSignalAdd,
                    SigMode::FenceSignalLazy})
    for (std::size_t n : kSigSizes)
      for (uint64_t rep = 0; rep < 2; ++rep) signalRound(link_, m, n, 0x51600000ull + int(m) * 16 + rep * 1000 + n);
}

/// Fence orders two puts to one peer: block k (64 KiB + 3, unaligned), fence, then 8-byte flag k. Whenever the
/// target sees flag k, blocks 1..k are whole.
TEST_P(TransportContract, FenceOrdersPutsToOnePeer) {
  CONTRACT_HOST_MEMORY_CASE();
  constexpr int kBlocks = 16;
  constexpr std::size_t kBlk = (64 << 10) + 3;
  const auto flagOff = [](int src) { return (24 << 10) + std::size_t(src) * 8; };
  std::memset(link_.local(0), kBackground, std::size_t(link_.npes) * kSlot);
  std::memset(link_.local(1) + flagOff(0), 0, std::size_t(link_.npes) * 8);
  link_.syncAll();
  std::vector<char> buf(kBlk);
  for (int pe : link_.targets())
    for (uint64_t k = 1; k <= kBlocks; ++k) {
      patternFill(buf.data(), kBlk, seedOf(link_.me, 500 + k));
      EXPECT_EQ(link_.put(pe, 0, slotOff(link_.me) + 1 + (k - 1) * kBlk, buf.data(), kBlk), Status::Ok);
      EXPECT_EQ(link_.fence(), Status::Ok);
      EXPECT_EQ(link_.put(pe, 1, flagOff(link_.me), &k, 8), Status::Ok);
    }
  for (int s : link_.sources()) {
    uint64_t checked = 0;
    while (checked < kBlocks) {
      const uint64_t v = link_.waitWord(flagOff(s), [&](uint64_t x) { return x > checked; });
      if (v <= checked) break;  // timed out
      for (uint64_t k = checked + 1; k <= v; ++k)
        EXPECT_EQ(patternMismatch(link_.local(0) + slotOff(s) + 1 + (k - 1) * kBlk, kBlk, seedOf(s, 500 + k)), kBlk)
            << "block " << k << " from PE " << s << " incomplete when flag " << v << " arrived";
      checked = v;
    }
    EXPECT_EQ(checked, uint64_t(kBlocks)) << "flags from PE " << s;
  }
  EXPECT_EQ(link_.quiet(), Status::Ok);
  link_.syncAll();
}

// ---- what a transport does not do, and what it reports

/// Where the caps for a reached peer lack kCapRma (kCapAmo), the transport's own puts and gets (atomics) return
/// Unsupported and change nothing; lacking both, so do its signals and putSignal.
TEST_P(TransportContract, UnclaimedOpsReturnUnsupported) {
  if (link_.device) GTEST_SKIP() << GetParam() << " serves device memory only: this case needs host memory";
  Transport& t = link_.transport();
  std::memset(link_.local(0), kBackground, 64);
  std::memset(link_.local(1) + sigOff(0), 0, std::size_t(link_.npes) * 64);
  link_.syncAll();
  int checked = 0;
  char buf[16] = {1, 2, 3, 4, 5, 6, 7};
  uint64_t old = 0;
  for (int pe : link_.targets()) {
    const unsigned c = link_.caps(link_.me, pe);
    const RemoteAddr at{pe, 0, 8}, sig{pe, 1, sigOff(link_.me)};
    if (!(c & kCapRma)) {
      EXPECT_EQ(t.putNbi(at, buf, 7), Status::Unsupported);
      EXPECT_EQ(t.get(at, buf, 7), Status::Unsupported);
      EXPECT_EQ(t.getNbi(at, buf, 7), Status::Unsupported);
      ++checked;
    }
    if (!(c & kCapAmo)) {
      for (AmoOp op : kAllOps)
        for (unsigned size : {4u, 8u}) EXPECT_EQ(t.amo(at, op, size, 1, 0, &old), Status::Unsupported);
      ++checked;
    }
    if (!(c & (kCapRma | kCapAmo))) {
      EXPECT_EQ(t.signalNbi(sig, 1), Status::Unsupported);
      EXPECT_EQ(t.signalAddNbi(sig, 1), Status::Unsupported);
      EXPECT_EQ(t.signalLazy(sig, 1), Status::Unsupported);
      EXPECT_EQ(t.putSignal(at, buf, 7, sig, 1, false), Status::Unsupported);
    }
  }
  EXPECT_EQ(t.quiet(), Status::Ok);
  link_.syncAll();
  EXPECT_EQ(byteMismatch(link_.local(0), 64, kBackground), 64u) << "an unsupported put or atomic wrote";
  const std::size_t sig_bytes = std::size_t(link_.npes) * 64;
  EXPECT_EQ(byteMismatch(link_.local(1) + sigOff(0), sig_bytes, 0), sig_bytes) << "an unsupported signal wrote";
  if (!allPes(checked == 0)) return;
  GTEST_SKIP() << GetParam() << " claims RMA and AMO for every peer it reaches";
}

/// What connect reports: host memory served, every PE reached by some, reach symmetric, a mapping of every
/// region for a load/store peer, no caps beyond the known bits, and none for a memory kind not served.
TEST_P(TransportContract, ReachIsConsistent) {
  Transport& t = link_.transport();
  EXPECT_TRUE(t.memKinds() & (1u << int(link_.kind)));
  const std::size_t regions = link_.request ? 0 : link_.device ? 1 : 2;
  const unsigned known = kCapLoadStore | kCapRma | kCapAmo | kCapCopyEngine | kCapRequest;
  EXPECT_FALSE(link_.targets().empty()) << GetParam() << " reaches no PE";
  for (int pe = 0; pe < link_.npes; ++pe) {
    const PeerReach& r = link_.reach(pe);
    const unsigned c = link_.caps(link_.me, pe);
    EXPECT_EQ(c & ~known, 0u) << "unknown caps for PE " << pe;
    EXPECT_EQ(c != 0, link_.caps(pe, link_.me) != 0) << "PE " << pe << " and this PE disagree on reach";
    for (std::size_t k = 0; k < r.mapped.size(); ++k) {  // the harness connects 2 regions (device: 1)
      if (k >= regions) {  // a request channel is given none
        EXPECT_EQ(r.mapped[k], nullptr) << "a mapping of PE " << pe << " for region " << k << ", which does not exist";
      } else if (c & kCapLoadStore) {
        EXPECT_NE(r.mapped[k], nullptr) << "load/store peer " << pe << " without a mapping";
      }
    }
    for (int k = 0; k < kNumMemKinds; ++k) {
      if (!(t.memKinds() & (1u << k))) {
        EXPECT_EQ(r.capsFor(MemKind(k)), 0u) << memKindName(MemKind(k));
      }
    }
  }
}

/// Caps are reported only for the memory kinds a transport serves (memKinds), and the registry's entry says the
/// same kinds: a host transport reports no device caps, a device transport no host caps.
TEST_P(TransportContract, DeviceMemoryOnlyWhereServed) {
  const unsigned kinds = link_.transport().memKinds();
  EXPECT_EQ(kinds, transportEntry(GetParam().c_str())->mem_kinds);
  for (int pe = 0; pe < link_.npes; ++pe)
    for (MemKind k : {MemKind::Host, MemKind::Device})
      if (!(kinds & (1u << int(k)))) {
        EXPECT_EQ(link_.reach(pe).capsFor(k), 0u) << memKindName(k) << " caps for PE " << pe << " not served";
      }
}

INSTANTIATE_TEST_SUITE_P(Registry, TransportContract,
                         ::testing::ValuesIn(std::vector<std::string>(std::begin(kContractTransports),
                                                                      std::end(kContractTransports))),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

/// Every transport in the registry is in kContractTransports.
TEST(ContractCoverage, EveryRegisteredTransportIsTested) {
  for (int i = 0; i < kNumTransports; ++i)
    EXPECT_NE(std::find_if(std::begin(kContractTransports), std::end(kContractTransports),
                           [&](const char* n) { return std::strcmp(n, kTransports[i].name) == 0; }),
              std::end(kContractTransports))
        << kTransports[i].name << " is in the registry but not in kContractTransports";
}

}  // namespace
}  // namespace gshmem::contract
