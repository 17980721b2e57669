// Heartbeats between nodes for the watchdog (core/sync/liveness): a PE whose heap is not mapped here cannot be
// watched through shared memory, so each PE's watchdog thread also sends its heartbeat count in a UDP datagram to
// every such peer each period, and drains what the peers sent it. The watchdog thread owns the socket: no lock, and
// nothing on the data path. At init every PE greets its remote peers (greet(): a first beat, a bootstrap barrier, a
// bounded wait for the peers' first beats), so a peer is watched from init on even if it stops before its watchdog
// thread first runs. A peer whose greeting does not arrive (a network that drops UDP between the nodes) is not
// watched this way, with a warning: that costs detection, never a false alarm. Traffic: one 24-byte datagram per
// remote peer and address per period.
#pragma once
#include <cstdint>
#include <vector>

#include "base/bootstrap.hpp"
#include "base/status.hpp"

namespace gshmem::liveness {

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
  bool active() const { return fd_ >= 0; }

 private:
  struct Peer {
    uint64_t nonce = 0;        ///< the peer's random tag: a datagram must carry it
    std::vector<uint32_t> ip;  ///< IPv4 addresses (network order), each tried
    uint16_t port = 0;         ///< network order; 0: not watched
  };
  int fd_ = -1;
  int me_ = -1;
  uint64_t nonce_ = 0;
  std::vector<Peer> peers_;
};

}  // namespace gshmem::liveness
