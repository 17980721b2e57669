// UDP heartbeats between nodes (see liveness_net.hpp).
#include "core/sync/liveness_net.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <random>
#include <string>

#include "base/deadline.hpp"
#include "base/log.hpp"

namespace gshmem::liveness {

namespace {

constexpr int kMaxAddrs = 4;
constexpr long kGreetWaitMs = 1000;   ///< the longest wait for the peers' first beats, once all have sent theirs
constexpr long kGreetResendMs = 100;  ///< a lost greeting is sent again this often

struct Card {  // exchanged through the bootstrap
  uint64_t nonce;
  uint32_t ip[kMaxAddrs];
  uint16_t port;
  uint16_t naddr;
  uint32_t pad;
};
static_assert(sizeof(Card) == 32, "Card is exchanged as raw bytes");

struct Beat {  // one datagram
  uint64_t nonce;
  uint32_t pe;
  uint32_t pad;
  uint64_t count;
};
static_assert(sizeof(Beat) == 24, "Beat is sent as raw bytes");

/// Up to kMaxAddrs IPv4 addresses of this host's up, non-loopback interfaces.
int hostAddrs(uint32_t* out) {
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return 0;
  int n = 0;
  for (ifaddrs* a = list; a && n < kMaxAddrs; a = a->ifa_next) {
    if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET) continue;
    if (!(a->ifa_flags & IFF_UP) || (a->ifa_flags & IFF_LOOPBACK)) continue;
    out[n++] = reinterpret_cast<sockaddr_in*>(a->ifa_addr)->sin_addr.s_addr;
  }
  freeifaddrs(list);
  return n;
}

}  // namespace

NetBeats::~NetBeats() {
  if (fd_ >= 0) close(fd_);
}

Status NetBeats::setup(Bootstrap& bs, const std::vector<bool>& remote) {
  me_ = bs.rank();
  bool any = false;
  for (bool r : remote) any = any || r;
  Card mine{};
  if (any) {
    fd_ = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_ANY);
    socklen_t len = sizeof sa;
    if (fd_ < 0 || bind(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 ||
        getsockname(fd_, reinterpret_cast<sockaddr*>(&sa), &len) != 0) {
      GSHMEM_LOG_WARN(INIT, "no UDP socket for heartbeats between nodes (%s): peers on other nodes are not "
                      "watched by the wait watchdog", strerror(errno));
      if (fd_ >= 0) close(fd_);
      fd_ = -1;
    } else {
      mine.port = sa.sin_port;
      mine.naddr = static_cast<uint16_t>(hostAddrs(mine.ip));
      mine.nonce = std::random_device{}() | (uint64_t(std::random_device{}()) << 32) | 1;
    }
  }
  nonce_ = mine.nonce;
  std::vector<Card> cards(bs.size());
  GSHMEM_CHECK(bs.allGather(&mine, cards.data(), sizeof mine));
  peers_.assign(bs.size(), Peer{});
  if (fd_ < 0) return Status::Ok;
  for (int pe = 0; pe < bs.size(); ++pe) {
    if (!remote[pe] || pe == me_ || cards[pe].port == 0) continue;
    peers_[pe].nonce = cards[pe].nonce;
    peers_[pe].port = cards[pe].port;
    peers_[pe].ip.assign(cards[pe].ip, cards[pe].ip + cards[pe].naddr);
  }
  return Status::Ok;
}

Status NetBeats::greet(Bootstrap& bs, uint64_t count, std::vector<uint64_t>* counts, std::vector<bool>* seen) {
  counts->assign(peers_.size(), 0);
  seen->assign(peers_.size(), false);
  send(count);
  GSHMEM_CHECK(bs.barrier());  // every first beat is on its way
  if (fd_ < 0) return Status::Ok;
  auto heardAll = [&] {
    for (std::size_t pe = 0; pe < peers_.size(); ++pe)
      if (peers_[pe].port != 0 && !(*seen)[pe]) return false;
    return true;
  };
  auto nowMs = [] { return static_cast<long>(monotonicNs() / 1000000); };
  const timespec tick{0, 1000000};
  const long start = nowMs();
  for (long last_send = start, now = start; now - start < kGreetWaitMs; now = nowMs()) {
    receive(counts, seen);
    if (heardAll()) return Status::Ok;
    if (now - last_send >= kGreetResendMs) {
      send(count);
      last_send = now;
    }
    nanosleep(&tick, nullptr);
  }
  receive(counts, seen);
  if (heardAll()) return Status::Ok;
  std::string who;
  for (std::size_t pe = 0; pe < peers_.size(); ++pe) {
    if (peers_[pe].port == 0 || (*seen)[pe]) continue;
    if (who.size() > 64) {
      who += " ...";
      break;
    }
    who += (who.empty() ? "" : ", ") + std::to_string(pe);
  }
  GSHMEM_LOG_WARN(INIT, "no UDP heartbeat arrived from PE(s) %s within %ld ms (a firewall between the nodes?): the "
                  "wait watchdog does not watch them; a stopped PE there is found only by the UCX timeouts",
                  who.c_str(), kGreetWaitMs);
  return Status::Ok;
}

void NetBeats::send(uint64_t count) {
  if (fd_ < 0) return;
  Beat b{nonce_, static_cast<uint32_t>(me_), 0, count};
  for (const Peer& p : peers_) {
    if (p.port == 0) continue;
    for (uint32_t ip : p.ip) {
      sockaddr_in sa{};
      sa.sin_family = AF_INET;
      sa.sin_port = p.port;
      sa.sin_addr.s_addr = ip;
      (void)sendto(fd_, &b, sizeof b, MSG_DONTWAIT | MSG_NOSIGNAL, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
    }
  }
}

void NetBeats::receive(std::vector<uint64_t>* counts, std::vector<bool>* seen) {
  if (fd_ < 0) return;
  Beat b;
  for (;;) {
    ssize_t n = recv(fd_, &b, sizeof b, MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return;
    if (n != sizeof b || b.pe >= peers_.size() || peers_[b.pe].port == 0 || b.nonce != peers_[b.pe].nonce) continue;
    // Datagrams may be reordered: keep the largest count.
    if (!(*seen)[b.pe] || b.count > (*counts)[b.pe]) (*counts)[b.pe] = b.count;
    (*seen)[b.pe] = true;
  }
}

}  // namespace gshmem::liveness
