// The path selector: at init it compares the protocols' cost models and builds, per peer path class, memory pair
// and direction, a decision table of size ranges -> protocol (crossover sizes solved analytically between the
// lines). A per-call choice is then an index plus a binary search over a handful of ranges; no model is
// evaluated per call.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/select/profile.hpp"
#include "core/select/tune.hpp"

namespace gshmem {

/// The selection parameters. Read once at init through selectParamsCurrent().
struct SelectParams {
  std::string profile;        ///< GSHMEM_PROFILE: a profile file, or empty for defaults
  std::string path = "auto";  ///< GSHMEM_PATH: auto or a protocol name
  std::string tune;           ///< GSHMEM_TUNE: per-range rules
};

/// The values of GSHMEM_PROFILE / GSHMEM_PATH / GSHMEM_TUNE. The one place they are read (select_params.cpp).
SelectParams selectParamsCurrent();

/// One range of a decision table.
struct DecisionRange {
  uint64_t lo = 0, hi = kSizeInf;  ///< [lo, hi)
  ProtocolId proto = ProtocolId::None;
  Source source = Source::Default;  ///< where the numbers behind the choice came from
};

/// The decision table of one peer path: for each memory pair and direction, contiguous ranges covering
/// [0, inf), or none when no available protocol reaches the peer for that pair.
struct DecisionTable {
  PeerPath peer;
  std::vector<DecisionRange> ranges[kNumMemPairs][kNumDirections];
  /// The protocols that could reach the peer, with their models (for describe()).
  std::vector<BoundProtocol> candidates[kNumMemPairs];

  /// The protocol for @p bytes; ProtocolId::None when the pair is unreachable. O(log ranges).
  ProtocolId lookup(MemPair m, Direction d, uint64_t bytes) const { return rangeFor(m, d, bytes).proto; }
  /// The range holding @p bytes (a static empty range with proto None when unreachable).
  const DecisionRange& rangeFor(MemPair m, Direction d, uint64_t bytes) const;
};

/// What the selector is built from. Plain data so unit tests can build one without the environment.
struct SelectorConfig {
  bool available[kNumProtocols] = {};    ///< protocols this run has (e.g. shm; ucx when the transport exists)
  Profile profile;                       ///< empty: defaults everywhere
  std::string profile_name;              ///< for describe()
  ProtocolId forced = ProtocolId::None;  ///< GSHMEM_PATH
  std::vector<TuneRule> tune;            ///< GSHMEM_TUNE
  std::string tune_text;                 ///< for describe()
};

/// Fill @p cfg's profile, forced protocol and tune rules from @p p (loading the profile file).
/// @return the first error, with *err naming the variable, or the file and line.
[[nodiscard]] Status selectorConfigLoad(const SelectParams& p, SelectorConfig* cfg, std::string* err);

/// The crossover between two lines: the size where they take the same time, or -1 when they do not cross at a
/// positive size (parallel, or one is below the other everywhere).
double crossoverBytes(const LinkModel& a, const LinkModel& b);

/// Builds decision tables from a SelectorConfig. Build before the first choice; then const and thread-safe.
class Selector {
 public:
  /// Keep @p cfg; no table is built yet.
  explicit Selector(SelectorConfig cfg);

  /// Build (once) the table of @p peer. Call for every peer path at init.
  /// @return the table, valid for the Selector's lifetime.
  const DecisionTable& addPeer(const PeerPath& peer);
  /// The table of @p peer, or nullptr when addPeer was not called for it. O(1).
  const DecisionTable* table(const PeerPath& peer) const;

  /// The protocol for one transfer: O(1) table index + O(log ranges). ProtocolId::None when @p peer has no
  /// table or nothing reaches it for @p m.
  ProtocolId choose(const PeerPath& peer, MemPair m, Direction d, uint64_t bytes) const;

  /// The model of protocol @p id for @p peer and @p m: the profile's when it has one, else the default.
  BoundProtocol model(const PeerPath& peer, MemPair m, ProtocolId id) const;

  /// Human-readable tables for GSHMEM_INFO: per peer class, memory pair and direction, the protocol per size
  /// range and where it came from, then the models behind them. Every line starts with @p prefix.
  std::string describe(const std::string& prefix = "") const;

  const SelectorConfig& config() const { return cfg_; }

 private:
  static int key(const PeerPath& p) {
    int k = static_cast<int>(p.path) * 4 + (p.sameNode ? 2 : 0) + (p.p2p ? 1 : 0);
    return (k * 8 + static_cast<int>(p.nicLocal)) * 8 + static_cast<int>(p.nicRemote);
  }
  static constexpr int kNumKeys = 8 * 4 * 8 * 8;
  SelectorConfig cfg_;
  std::vector<DecisionTable> tables_;
  int index_[kNumKeys];  ///< key -> index in tables_, or -1
};

/// Init-time entry point for the runtime: load the configuration from @p p (profile file, GSHMEM_PATH,
/// GSHMEM_TUNE), mark @p available protocols (those this build has a transport for: ProtocolDesc::built), build
/// the table of every distinct path in @p peers (one per PE), and log the decision once per path at INFO. *out is
/// set only on success.
/// @return InvalidArgument / SystemError with *err naming the variable, or the profile file and line.
[[nodiscard]] Status selectorCreate(const SelectParams& p, const bool (&available)[kNumProtocols],
                                    const std::vector<PeerPath>& peers, std::unique_ptr<Selector>* out,
                                    std::string* err);

/// The lower envelope of @p cands' models in direction @p d: ranges covering [0, inf), each naming the
/// protocol with the lowest predicted time there (ties to the earlier candidate), adjacent equal ranges merged.
std::vector<DecisionRange> lowerEnvelope(const std::vector<BoundProtocol>& cands, Direction d);

}  // namespace gshmem
