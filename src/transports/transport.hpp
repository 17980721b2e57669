// The transport contract: the only header a transport includes from above base/.
// A transport is one mechanism (shared memory, UCX, loopback) that can reach some peers. It never includes core/,
// never calls the public API and never ends the job: errors come back as Status, and a lost peer is reported
// through TransportConfig::on_peer_lost. The built-in transports are listed in transports/registry.cpp.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/bootstrap.hpp"
#include "base/status.hpp"

namespace gshmem {

namespace vmm {
class Range;
}

/// Remote atomic operations (the OpenSHMEM set).
enum class AmoOp {
  Fetch, Set, Swap, CompareSwap,
  FetchAdd, Add, FetchInc, Inc,
  FetchAnd, And, FetchOr, Or, FetchXor, Xor,
};

/// True for operations that return the previous value.
inline bool amoFetches(AmoOp op) {
  switch (op) {
    case AmoOp::Set: case AmoOp::Add: case AmoOp::Inc: case AmoOp::And: case AmoOp::Or: case AmoOp::Xor:
      return false;
    default:
      return true;
  }
}

/// A location in a peer's symmetric region: which region (0 heap, 1 data, ...) and the byte offset in it.
struct RemoteAddr {
  int pe;
  int region;
  std::size_t offset;
};

/// What a transport can do for one peer.
enum TransportCaps : unsigned {
  kCapLoadStore = 1u << 0,  ///< the peer's regions are mapped here: put/get are memcpy, AMOs CPU atomics
  kCapRma = 1u << 1,        ///< putNbi/getNbi through the transport
  kCapAmo = 1u << 2,        ///< remote atomics through the transport
  kCapCopyEngine = 1u << 3, ///< copies on the caller's stream through the mapping (device memory: a DMA engine)
  kCapRequest = 1u << 4,    ///< a request channel to the peer's server thread (it acts on its own memory)
};

/// Where a region lives. Host memory is addressable by the CPU; device memory by a GPU only (a mapped peer
/// pointer of a Device region is a device address: kernels and copy engines use it, memcpy does not).
enum class MemKind : int { Host = 0, Device = 1 };
inline constexpr int kNumMemKinds = 2;
inline const char* memKindName(MemKind k) { return k == MemKind::Host ? "host" : "device"; }

/// A region of this PE's memory that peers address by offset (the heap, the data segment, the device heap).
struct LocalRegion {
  char* base = nullptr;
  std::size_t size = 0;
  int fd = -1;  ///< memfd backing the region, or -1 when not shareable
  MemKind kind = MemKind::Host;
};

/// How one peer is reached, decided once at init.
/// One per PE of the job, made at init by every transport: nothing in it is allocated per PE.
struct PeerReach {
  static constexpr int kMaxRegions = 4;
  unsigned caps = 0;  ///< for the regions of the kind the transport serves (host, unless it says so)
  std::array<char*, kMaxRegions> mapped{};  ///< per region: base of the peer's region as mapped here, or nullptr
  /// One line for GSHMEM_INFO: why this transport was chosen. Static text, or text the transport keeps while it is
  /// connected.
  const char* why = "";
  /// Caps per memory kind of the peer's regions, so the core can ask "who reaches PE p's device heap, how".
  /// A transport that fills only `caps` serves host memory: capsFor() reads it for MemKind::Host then.
  unsigned kind_caps[kNumMemKinds] = {0, 0};
  bool kind_caps_set = false;
  unsigned capsFor(MemKind k) const {
    if (kind_caps_set) return kind_caps[static_cast<int>(k)];
    return k == MemKind::Host ? caps : 0;
  }
  void setCaps(MemKind k, unsigned c) {
    if (!kind_caps_set) kind_caps[static_cast<int>(MemKind::Host)] = caps;
    kind_caps_set = true;
    kind_caps[static_cast<int>(k)] = c;
    if (k == MemKind::Host) caps = c;
  }
};

/// Typed configuration handed to a transport at creation; the core fills it from its parameters.
struct TransportConfig {
  int thread_level = 0;          ///< SHMEM_THREAD_* level the program asked for (3: SHMEM_THREAD_MULTIPLE)
  bool progress_thread = false;  ///< run a progress thread of the transport's own (GSHMEM_PROGRESS_THREAD)
  long timeout_s = 0;            ///< bound, in seconds, of every blocking wait on a peer (0: wait forever)
  long wait_spins = 2048;        ///< polls of a blocking wait before it yields the CPU at each poll
  /// waitInput: "tcp" where every message wakes an event descriptor (sockets), "on" wherever one exists, "off"
  const char* wait_block = "off";
  std::size_t aggregate = 0;     ///< puts up to this many bytes may be batched into one message (0: never)
  /// Atomics over a network transport: "native" (its own atomic operations), "am" (a message the target applies),
  /// "auto" (native, messages to a peer once native has no protocol for it)
  const char* amo = "auto";
  /// Called, from any thread, when a peer is lost or makes no progress within timeout_s: `why` is a short
  /// lowercase cause. The core prints one line and ends the job; if it returns, the transport fails the operation
  /// with Status::RemoteError. Unset: the transport only returns the error.
  std::function<void(int pe, const char* why)> on_peer_lost;
  // Device-memory transports (cuda_ipc) only:
  int device = -1;                  ///< this PE's CUDA device (current at connect)
  bool p2p = true;                  ///< false: map no peer's device memory (GSHMEM_P2P=0)
  const vmm::Range* vmm = nullptr;  ///< the device heap is this VMM range; nullptr: one cudaMalloc block
  // Request-channel transports (shm_channel) only:
  int channel_depth = 4;                                  ///< pipeline slots per (sender, target) pair, 2..16
  std::size_t channel_slot_bytes = std::size_t(2) << 20;  ///< bytes per slot, a multiple of 4096
  bool channel_reach = true;  ///< false: take part in the collective setup but reach nobody
};

/// Host-side transport interface. Methods are grouped by lifecycle phase.
/// Threading: setup methods are called by the initializing thread only; data-path methods
/// (when a transport has them) must be callable concurrently from any thread.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual const char* name() const = 0;
  /// Memory kinds whose regions this transport can connect (bit (1 << MemKind)). Host memory by default.
  virtual unsigned memKinds() const { return 1u << static_cast<int>(MemKind::Host); }
  /// Memory kinds of the regions connect() takes (bit (1 << MemKind)): those it reaches, unless it reaches a
  /// peer's memory through the peer's own server thread (a request channel), which takes no region.
  virtual unsigned regionKinds() const { return memKinds(); }

  /// Setup (collective over all PEs): make `regions` reachable and return, per PE, how it is reached
  /// by this transport (caps == 0 means unreachable by this transport).
  virtual Status connect(Bootstrap& bs, const std::vector<LocalRegion>& regions, std::vector<PeerReach>* out) = 0;

  /// Release peer mappings and resources; called in reverse order of creation.
  virtual void disconnect() = 0;
  /// After a failed connect: one line naming the peer, what failed, why and the fix, for the error at the API
  /// edge; empty when the transport has nothing more to say than its name.
  virtual std::string lastError() const { return std::string(); }

  // ---- Data path, for peers this transport reported with kCapRma / kCapAmo. Callable from any thread.
  // Errors are returned, never fatal here: the core turns them into one-line messages naming the call.

  /// Post a put of `n` bytes; `src` may be reused on return. Completion (remote visibility) by quiet().
  virtual Status putNbi(const RemoteAddr& dst, const void* src, std::size_t n) { return Status::Unsupported; }
  /// Get `n` bytes; data is in `dst` on return (blocking).
  virtual Status get(const RemoteAddr& src, void* dst, std::size_t n) { return Status::Unsupported; }
  /// Post a get; `dst` is valid after quiet().
  virtual Status getNbi(const RemoteAddr& src, void* dst, std::size_t n) { return Status::Unsupported; }
  /// Atomic on a naturally aligned `size`-byte (4 or 8) integer. Fetching ops block and write `*result`;
  /// non-fetching ops may complete at quiet(). Values are passed zero-extended in 64 bits.
  virtual Status amo(const RemoteAddr& dst, AmoOp op, unsigned size, uint64_t value, uint64_t cond,
                     uint64_t* result) {
    return Status::Unsupported;
  }
  /// Post an 8-byte atomic store of `value` that the target polls for (synchronization cells). Not tracked by
  /// quiet(): its arrival is its completion. The default is a Set AMO.
  virtual Status signalNbi(const RemoteAddr& dst, uint64_t value) {
    uint64_t old;
    return amo(dst, AmoOp::Set, 8, value, 0, &old);
  }
  /// Post an 8-byte atomic add of `value` to a word the target polls (a counter of arrivals). Like signalNbi: not
  /// tracked by quiet(), ordered after earlier signals to the same PE. The default is an Add AMO.
  virtual Status signalAddNbi(const RemoteAddr& dst, uint64_t value) {
    uint64_t old;
    return amo(dst, AmoOp::Add, 8, value, 0, &old);
  }
  /// Like signalNbi, for a store nobody waits for at once (a "done with your message" acknowledgement): the
  /// transport may hold it until its next message to that PE, fence, or progress() call, so that it travels with
  /// other traffic. Ordered after earlier signals to the same PE. The default sends it at once.
  virtual Status signalLazy(const RemoteAddr& dst, uint64_t value) { return signalNbi(dst, value); }
  /// Put `n` bytes to `dst`, then update the 64-bit signal at `sig` (same PE) with `value` (set, or add when
  /// `add`), the signal ordered after the data. Completion of the data by quiet(). The default is putNbi + fence +
  /// a Set/Add AMO; a transport may send both in one message.
  virtual Status putSignal(const RemoteAddr& dst, const void* src, std::size_t n, const RemoteAddr& sig,
                           uint64_t value, bool add) {
    Status s = putNbi(dst, src, n);
    if (s == Status::Ok) s = fence();
    uint64_t old = 0;
    if (s == Status::Ok) s = amo(sig, add ? AmoOp::Add : AmoOp::Set, 8, value, 0, &old);
    return s;
  }
  /// Order earlier puts/AMOs to each peer before later ones to the same peer.
  virtual Status fence() { return Status::Ok; }
  /// Complete every operation this PE posted through the transport.
  virtual Status quiet() { return Status::Ok; }
  /// Make progress on incoming and outgoing operations (called from wait loops). Must be cheap when idle.
  virtual void progress() {}
  /// Whether waitInput() can block (decided at connect, from TransportConfig::wait_block; fixed afterwards).
  virtual bool canWaitInput() const { return false; }
  /// Sleep until input may have arrived for this PE (a message, a remote operation to apply) or `timeout_ms` has
  /// passed; returns at once when input is pending. For a wait loop that has just called progress() and found its
  /// condition false. Sends what progress() would have sent first, so the PE never sleeps on a batch it holds.
  /// Application thread only, and only when canWaitInput(); a store by a PE of this node or another thread of this
  /// process does not wake it (the timeout bounds such waits).
  virtual void waitInput(int timeout_ms) {}
  /// Calibration (benchmarks that interleave forced choices in one process): the largest put batched into one
  /// message, clamped to what the transport supports; SIZE_MAX only reads. Returns the value in effect after the
  /// call, 0 for a transport that does not batch. Not for applications (they set TransportConfig::aggregate).
  virtual std::size_t setAggregate(std::size_t bytes) { return 0; }
};

/// One built-in transport: its name (as GSHMEM_TRANSPORTS spells it) and how to make one.
struct TransportEntry {
  const char* name;
  /// A new, unconnected transport; nullptr when this build does not have it.
  std::unique_ptr<Transport> (*create)(const TransportConfig& cfg);
  /// Connected only when some PE has a peer that the transports before it do not reach (a collective decision).
  bool on_demand;
  /// The memory kinds whose regions the core connects through it (bit 1 << MemKind): the host heap and data
  /// segment at init for Host; the device heap, when one is made, for Device.
  unsigned mem_kinds;
};

/// The built-in transports in probe order (transports/registry.cpp): a peer is reached by the first one that
/// reports caps for it. Adding a transport is one folder under src/transports and one line there.
extern const TransportEntry kTransports[];
extern const int kNumTransports;
/// The entry named `name`, or nullptr.
const TransportEntry* transportEntry(const char* name);

/// Loopback: reaches this PE only, by load/store on its own regions.
std::unique_ptr<Transport> selfTransportCreate(const TransportConfig& cfg);
/// Shared-memory transport: maps the memfd-backed regions of every PE on the same node.
std::unique_ptr<Transport> shmTransportCreate(const TransportConfig& cfg = TransportConfig{});
/// UCX transport: reaches every PE through UCP RMA/AMO on registered regions. nullptr when the build has no UCX.
std::unique_ptr<Transport> ucxTransportCreate(const TransportConfig& cfg);
/// CUDA IPC transport: maps the device heaps of the PEs of this node whose GPUs this GPU can access
/// (transports/cuda_ipc). nullptr when the build has no CUDA.
std::unique_ptr<Transport> cudaIpcTransportCreate(const TransportConfig& cfg);
/// Request channel: a queue of requests and a pipeline of bounce-buffer slots to the server thread of each PE of
/// the node, which acts on its own device memory (transports/shm/shm_channel.hpp).
std::unique_ptr<Transport> shmChannelTransportCreate(const TransportConfig& cfg);

}  // namespace gshmem
