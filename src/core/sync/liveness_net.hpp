// Heartbeats between nodes for the watchdog (core/sync/liveness): a PE whose heap is not mapped here cannot be
// watched through shared memory, so each PE's watchdog thread also sends its heartbeat count in a UDP datagram to
// every such peer each period, and drains what the peers sent it. The watchdog thread owns the socket: no lock, and
// nothing on the data path. At init every PE greets its remote peers (greet(): a first beat, a bootstrap barrier, a
// bounded wait for the peers' first beats), so a peer is watched from init on even if it stops before its watchdog
// thread first runs. A peer whose greeting does not arrive (a network that drops UDP between the nodes) is not
// watched this way, with a warning: that costs detection, never a false alarm. Traffic: one 24-byte datagram per
// remote peer and address per period.
// Trust: every datagram carries a keyed hash (SipHash-2-4) of (sender, receiver, count) under a 128-bit job secret
// made of every PE's random share, exchanged through the bootstrap only; the secret never goes on the wire. A
// datagram whose hash does not match is dropped, so a stranger can neither keep a silent PE alive nor inject one.
// The sockets are bound to the addresses told to the peers, not to every address of the host.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/bootstrap.hpp"
#include "base/status.hpp"

namespace gshmem::liveness {

/// Bytes of one heartbeat datagram's payload (from, to, count, MAC); no IP/UDP headers.
constexpr std::size_t kBeatDatagramBytes = 24;
/// Most IPv4 addresses a PE advertises: a beat goes to every advertised address of every remote peer.
constexpr int kMaxBeatAddrs = 4;

class NetBeats {
 public:
  NetBeats() = default;
  NetBeats(const NetBeats&) = delete;
  NetBeats& operator=(const NetBeats&) = delete;
  ~NetBeats();

  /// Collective over `bs`: every PE calls it. remote[pe]: watch PE pe through the network. Without a usable
  /// socket or address the peers are simply not watched this way (logged).
  Status setup(Bootstrap& bs, const std::vector<bool>& remote);
  /// Collective over `bs` (every PE calls it after setup, watching or not). Send `count`, wait until every PE has
  /// sent its own, then wait (at most about a second, resending) for the first beat of every remote peer: counts
  /// and seen are filled as by receive(). Peers not heard from are named in a warning and stay unwatched.
  Status greet(Bootstrap& bs, uint64_t count, std::vector<uint64_t>* counts, std::vector<bool>* seen);
  /// Send `count` to every remote peer (non-blocking; a full socket buffer drops the beat).
  void send(uint64_t count);
  /// Drain the arrived datagrams into counts[pe] (and seen[pe] = true).
  void receive(std::vector<uint64_t>* counts, std::vector<bool>* seen);
  /// Stop watching PE pe this way (its heap is now mapped here): no more beats to it, and its datagrams dropped.
  void unwatch(int pe);
  bool active() const { return !fds_.empty(); }
  int rank() const { return me_; }
  /// The local process identity PE pe published at setup (zeros when it published none).
  struct Proc {
    uint64_t boot = 0;        ///< hash of the kernel's boot id: processes of one running machine share it
    uint64_t pid_ns = 0;      ///< inode of its PID namespace
    uint64_t start_time = 0;  ///< field 22 of /proc/<pid>/stat
    int32_t pid = 0;
  };
  const Proc& proc(int pe) const { return procs_[pe]; }
  /// Heap bytes per PE of the job in this object's tables (Peer with kMaxBeatAddrs addresses, Proc), elements only.
  static std::size_t bytesPerPeer();
  /// The MAC of a beat from `from` to `to` with `count` under `key` (exposed for the forged-datagram test).
  static uint64_t mac(const uint64_t key[2], uint32_t from, uint32_t to, uint64_t count);

 private:
  struct Peer {
    std::vector<uint32_t> ip;  ///< IPv4 addresses (network order), each tried
    uint16_t port = 0;         ///< network order; 0: not watched
  };
  void openSockets(uint16_t* port, uint32_t* ip, uint16_t* naddr);
  std::vector<int> fds_;  ///< one socket per advertised address, all on one port
  int me_ = -1;
  uint64_t key_[2] = {0, 0};
  std::vector<Peer> peers_;
  std::vector<Proc> procs_;
};

/// Inode of the PID namespace at `path` (/proc/self/ns/pid), 0 when unreadable.
uint64_t pidNamespace(const char* path);
/// State letter and start time of process `pid` from /proc; false when there is no such process.
bool procStat(int pid, char* state, uint64_t* start_time);

}  // namespace gshmem::liveness
