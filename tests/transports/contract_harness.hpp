// The harness of the transport contract test (test_contract.cpp): one transport from the registry, connected over
// every MPI rank of the job with a memfd-backed heap and data region (as the core makes them), and the way this
// test reaches a peer through it.
//
// Access path, per peer, from the caps the transport reported for it (host memory):
//   kCapRma / kCapAmo  through the transport's data path (putNbi, get, getNbi, amo, signals, putSignal)
//   kCapLoadStore      loads, stores and CPU atomics through PeerReach::mapped, as the core does
// A peer with caps 0 is not tested: a transport is held only to the peers it reports caps for.
#pragma once
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "transports/transport.hpp"

namespace gshmem::contract {

inline constexpr std::size_t kSlot = (1u << 20) + (64u << 10);  ///< one sender's room in a target's heap
inline constexpr std::size_t kBig = 64u << 20;                  ///< the one 64 MiB transfer
inline constexpr std::size_t kDataSize = 64u << 10;             ///< the data region (AMO cells, signals, flags)
inline constexpr unsigned char kBackground = 0xA5;              ///< a target's bytes nobody wrote

/// The MPI bootstrap every case connects over (made once by main, in contract_harness.cpp).
Bootstrap& jobBootstrap();

/// Word w of pattern `seed`: a hash of both, so a misplaced, shifted or stale byte does not match. Byte i of the
/// pattern is byte i % 8 of word i / 8 (computed once per 8 bytes: the 64 MiB case checks fast).
inline uint64_t patternWord(uint64_t seed, std::size_t w) {
  uint64_t x = (uint64_t(w) + 1) * 0x9E3779B97F4A7C15ull ^ seed * 0xBF58476D1CE4E5B9ull;
  x ^= x >> 29;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 32);
}
inline unsigned char patternByte(uint64_t seed, std::size_t i) {
  return static_cast<unsigned char>(patternWord(seed, i / 8) >> (8 * (i % 8)));
}
void patternFill(void* p, std::size_t n, uint64_t seed);
/// Index of the first byte of [p, p+n) that differs from the pattern (or from byte `b`); n when none does.
std::size_t patternMismatch(const void* p, std::size_t n, uint64_t seed);
std::size_t byteMismatch(const void* p, std::size_t n, unsigned char b);

/// A memfd-backed region (mode 0600, MAP_SHARED), as the core makes its heap: shm passes the fd to its peers.
class MemfdRegion {
 public:
  explicit MemfdRegion(std::size_t size);
  ~MemfdRegion();
  MemfdRegion(const MemfdRegion&) = delete;
  MemfdRegion& operator=(const MemfdRegion&) = delete;
  LocalRegion region;
};

/// Device memory (cudaMalloc) for a transport that serves only device memory. Without CUDA in this build, or without
/// a GPU, base stays nullptr. The device is chosen by deviceSelect() first.
class DeviceRegion {
 public:
  explicit DeviceRegion(std::size_t size);
  ~DeviceRegion();
  DeviceRegion(const DeviceRegion&) = delete;
  DeviceRegion& operator=(const DeviceRegion&) = delete;
  LocalRegion region;
};
/// Make GPU rank % count current; its index, or -1 when this build has no CUDA or the machine no GPU.
int deviceSelect(int rank);
/// cudaMemcpy between any two of host and device memory; false on a CUDA error.
bool deviceCopy(void* dst, const void* src, std::size_t n);

/// How a signal updates its word: set, add, or set lazily (signalLazy: may travel with later traffic).
enum class SignalKind { Set, Add, Lazy };

/// One registry transport connected over the job. Every method that says "collective" is called by every PE.
class Link {
 public:
  /// Collective: creates the transport named `name` from the registry and connects regions {heap, data}; for a
  /// transport whose entry serves device memory only, one region {heap} in GPU memory (`device`). Unsupported when
  /// this build does not have it (its create returns nullptr), or it needs a GPU and there is none, on every PE
  /// alike.
  Status open(const std::string& name);
  /// Collective: disconnects (nothing when open() did not connect).
  void close();
  Transport& transport() { return *t_; }
  const PeerReach& reach(int pe) const { return reach_[pe]; }

  int me = 0, npes = 1;
  /// The regions are GPU memory: local() is a host copy of the heap, which push() writes to the GPU and pull()
  /// reads back (both no-ops for host memory); there is no data region.
  bool device = false;
  /// The transport acts through its peers' server threads (regionKinds() == 0: a request channel); it is given no
  /// region, and the data-path cases skip.
  bool request = false;
  MemKind kind = MemKind::Host;  ///< the memory kind whose caps the link reads (device for both cases above)
  std::string error;  ///< the transport's lastError() after a failed open()
  /// Caps that `src`'s transport reported for `dst`, for the memory kind of the regions (gathered at open()).
  unsigned caps(int src, int dst) const { return caps_[std::size_t(src) * npes + dst]; }
  std::vector<int> targets() const;  ///< the PEs this PE reaches (caps != 0), this PE included when reached
  std::vector<int> sources() const;  ///< the PEs that reach this PE
  /// partner[s]: one PE that `s` reaches, no PE chosen twice (-1: none left); the same on every PE.
  std::vector<int> pairing() const;
  char* local(int region) const {
    if (device) return region == 0 ? mirror_.data() : nullptr;
    return region == 0 ? heap_->region.base : data_->region.base;
  }
  /// Device links: copy the first `n` bytes of the heap's host copy to the GPU (push) or back (pull).
  void push(std::size_t n);
  void pull(std::size_t n);

  // The access path (see the top of this file). Statuses are the transport's, or Unsupported for a peer with
  // neither the transport's data path nor a mapping.
  Status put(int pe, int region, std::size_t off, const void* src, std::size_t n);
  Status get(int pe, int region, std::size_t off, void* dst, std::size_t n, bool nbi);
  Status amo(int pe, int region, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond,
             uint64_t* old);
  /// Signals address an 8-byte word in the peer's data region.
  Status signal(int pe, std::size_t off, uint64_t value, SignalKind kind);
  Status putSignal(int pe, std::size_t off, const void* src, std::size_t n, std::size_t sig_off, uint64_t value,
                   bool add);
  Status fence();
  Status quiet();

  /// Collective: a barrier that keeps progressing the transport (a peer's get or AMO may need this PE's worker).
  void syncAll();
  /// Polls this PE's 8-byte word at data-region offset `off`, progressing the transport, until `done(value)` or
  /// 20 s; returns the last value read.
  template <typename Pred>
  uint64_t waitWord(std::size_t off, Pred done) {
    const auto* w = reinterpret_cast<const uint64_t*>(local(1) + off);
    uint64_t v = __atomic_load_n(w, __ATOMIC_ACQUIRE);
    for (long polls = 0; !done(v) && !timedOut(polls); ++polls) {
      t_->progress();
      v = __atomic_load_n(w, __ATOMIC_ACQUIRE);
    }
    return v;
  }

 private:
  bool timedOut(long polls);
  std::unique_ptr<Transport> t_;
  std::unique_ptr<MemfdRegion> heap_, data_;
  std::unique_ptr<DeviceRegion> dev_heap_;
  mutable std::vector<char> mirror_;  ///< device links: the heap's host copy
  std::vector<PeerReach> reach_;
  std::vector<unsigned> caps_;
  long wait_start_ms_ = 0;
};

/// The fixture: a Link to the transport named by the parameter, opened in SetUp (skipped where this build does not
/// have it) and closed in TearDown, which also fails the test on every PE when it failed on any. Test bodies make
/// the same collective calls on every PE: they use EXPECT_*, never an early return, between collectives.
class TransportContract : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override;
  void TearDown() override;
  Link link_;
  bool opened_ = false;
};

/// Collective: true when `ok_here` holds on every PE.
bool allPes(bool ok_here);

}  // namespace gshmem::contract
