// Heartbeats between nodes for the watchdog (core/sync/liveness): a PE whose heap is not mapped here cannot be
// watched through shared memory, so PEs watch each other over UDP around a ring. Each PE watches its two ring
// successors, (me+1) % N and (me+2) % N, and sends its own beat only to its two predecessors, the PEs that watch
// it: whatever N, a PE sends and receives at most two datagrams per period (per advertised address), and holds
// four peers' addresses. Ring property: whenever some PE is dead and some alive, some alive PE has a dead
// successor, so every failure (a whole node lost too) is seen by somebody. The watchdog thread owns the socket: no
// lock, and nothing on the data path. At init each PE greets its ring neighbours (greet(): a first beat to its
// predecessors, a bootstrap barrier, a bounded wait for its successors' first beats), so a peer is watched from
// init on even if it stops before its watchdog thread first runs. A successor whose greeting does not arrive (a
// network that drops UDP between the nodes) is not watched this way, with a warning: that costs detection, never
// a false alarm. Traffic: one 24-byte datagram per predecessor and address per period.
// State: the two high bits of a beat's count word say whether the sender runs, has finalized or is exiting without
// finalize (beatWord), so a watcher tells a PE that left from a dead one; stop() sends the last state a few times.
// Trust: every datagram carries a keyed hash (SipHash-2-4) of (sender, receiver, count word) under a 128-bit job
// secret made of every PE's random share, exchanged through the bootstrap only; the secret never goes on the wire.
// A datagram whose hash does not match is dropped, so a stranger can neither keep a silent PE alive nor inject one.
// The sockets are bound to the addresses told to the peers, not to every address of the host.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/bootstrap.hpp"
#include "base/status.hpp"

namespace gshmem::liveness {

/// Bytes of one heartbeat datagram's payload (from, to, count word, MAC); no IP/UDP headers.
constexpr std::size_t kBeatDatagramBytes = 24;
/// Most IPv4 addresses a PE advertises: a beat goes to every advertised address of each predecessor.
constexpr int kMaxBeatAddrs = 4;
/// Ring neighbours on each side: a PE watches this many successors and is watched by this many predecessors.
constexpr int kRingPeers = 2;

/// The ring neighbours of `me` among `n` PEs, `step` +1 for its successors (the PEs it watches), -1 for its
/// predecessors (the PEs that watch it): me + step and me + 2 step modulo n, without `me` and without repeats.
/// Returns how many were written to `out` (0 for n = 1, 1 for n = 2, else 2).
int ringPeers(int me, int n, int step, int out[kRingPeers]);

/// What a beat says of its sender, in the two high bits of the count word.
enum WireState : uint32_t { kWireRunning = 1, kWireFinalized = 2, kWireExited = 3 };
constexpr int kWireStateShift = 62;
constexpr uint64_t kWireCountMask = (uint64_t(1) << kWireStateShift) - 1;
/// The count word of a beat: the count's low 62 bits under the state. A sender's words only grow (the count rises
/// while it runs, the state rises when it leaves): a watcher keeps the largest word it has heard.
inline uint64_t beatWord(uint64_t count, WireState state) {
  return (count & kWireCountMask) | (uint64_t(state) << kWireStateShift);
}
inline WireState wireState(uint64_t word) { return static_cast<WireState>(word >> kWireStateShift); }

class NetBeats {
 public:
  NetBeats() = default;
  NetBeats(const NetBeats&) = delete;
  NetBeats& operator=(const NetBeats&) = delete;
  ~NetBeats();

  /// The local process identity a PE published at setup (zeros when it published none).
  struct Proc {
    uint64_t boot = 0;        ///< hash of the kernel's boot id: processes of one running machine share it
    uint64_t pid_ns = 0;      ///< inode of its PID namespace
    uint64_t start_time = 0;  ///< field 22 of /proc/<pid>/stat
    int32_t pid = 0;
  };
  /// One ring neighbour: a successor (watched: its beats are received) or a predecessor (beats are sent to it).
  struct Peer {
    int pe = -1;
    uint16_t port = 0;  ///< network order; 0: no beats with this peer (no socket there, or its heap is mapped here)
    uint16_t naddr = 0;
    uint32_t ip[kMaxBeatAddrs] = {};  ///< IPv4 addresses (network order), each sent to
    Proc proc;
    uint64_t word = 0;  ///< the largest count word heard (successors)
    bool seen = false;  ///< heard at least once (successors)
  };

  /// Collective over `bs`: every PE calls it. `on`: this PE takes part (opens its sockets, SO_RCVBUF `rcvbuf`
  /// bytes when > 0); a PE that does not is neither watched nor watching over the network. Without a usable
  /// socket or address the peers are simply not watched this way (logged).
  Status setup(Bootstrap& bs, bool on, long rcvbuf);
  /// Collective over `bs` (every PE calls it after setup, watching or not). Send `word` to the predecessors, wait
  /// until every PE has sent its own, then wait (at most about a second, resending) for the first beat of each
  /// successor. Successors not heard from are named in a warning and stay unwatched.
  Status greet(Bootstrap& bs, uint64_t word);
  /// Send `word` to every predecessor `times` times (non-blocking; a full socket buffer drops the beat).
  void send(uint64_t word, int times = 1);
  /// Drain the arrived datagrams into the successors' word and seen.
  void receive();
  /// Stop beats with PE pe (its heap is now mapped here, and this PE's there): none sent to it, its own dropped.
  void unwatch(int pe);
  /// The successors: watched(i) for i < watchedCount(), port != 0 where beats are exchanged.
  int watchedCount() const { return nsucc_; }
  const Peer& watched(int i) const { return succ_[i]; }
  /// The successor entry of PE pe, nullptr when pe is not one.
  const Peer* find(int pe) const;
  /// The process identity PE pe published, known for the ring neighbours and the PEs of this machine (same boot
  /// id); zeros for any other PE.
  Proc proc(int pe) const;
  bool active() const { return !fds_.empty(); }
  int rank() const { return me_; }
  /// Datagrams sent, and datagrams received that passed the checks, since setup.
  uint64_t sentCount() const { return sent_; }
  uint64_t receivedCount() const { return received_; }
  /// Heap bytes held per PE of this machine (local_), elements only; nothing else grows with the job.
  static std::size_t bytesPerLocalPeer() { return sizeof(std::pair<int, Proc>); }
  /// The MAC of a beat from `from` to `to` with `word` under `key` (exposed for the forged-datagram test).
  static uint64_t mac(const uint64_t key[2], uint32_t from, uint32_t to, uint64_t word);

 private:
  void openSockets(uint16_t* port, uint32_t* ip, uint16_t* naddr, long rcvbuf);
  std::vector<int> fds_;  ///< one socket per advertised address, all on one port
  int me_ = -1;
  uint64_t key_[2] = {0, 0};
  Peer succ_[kRingPeers];
  Peer pred_[kRingPeers];
  int nsucc_ = 0, npred_ = 0;
  std::vector<std::pair<int, Proc>> local_;  ///< the PEs of this machine: at most the PEs per node
  uint64_t sent_ = 0, received_ = 0;
};

/// Inode of the PID namespace at `path` (/proc/self/ns/pid), 0 when unreadable.
uint64_t pidNamespace(const char* path);
/// State letter and start time of process `pid` from /proc; false when there is no such process.
bool procStat(int pid, char* state, uint64_t* start_time);

}  // namespace gshmem::liveness
