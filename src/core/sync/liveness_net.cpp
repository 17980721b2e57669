// UDP heartbeats between nodes (see liveness_net.hpp).
#include "core/sync/liveness_net.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>

#include "base/config.hpp"
#include "base/deadline.hpp"
#include "base/log.hpp"

namespace gshmem::liveness {

namespace {

constexpr int kMaxAddrs = kMaxBeatAddrs;
constexpr long kGreetWaitMs = 1000;   ///< the longest wait for the peers' first beats, once all have sent theirs
constexpr long kGreetResendMs = 100;  ///< a lost greeting is sent again this often

struct Card {  // exchanged through the bootstrap, never on the wire
  uint64_t share[2];  ///< this PE's share of the job secret (the secret is the XOR of every PE's)
  uint64_t boot, pid_ns, start_time;
  int32_t pid;
  uint32_t ip[kMaxAddrs];
  uint16_t port;
  uint16_t naddr;
};
static_assert(sizeof(Card) == 64, "Card is exchanged as raw bytes");

struct Beat {  // one datagram
  uint32_t from, to;
  uint64_t count;
  uint64_t mac;  ///< NetBeats::mac(secret, from, to, count)
};
static_assert(sizeof(Beat) == kBeatDatagramBytes, "Beat is sent as raw bytes");

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

inline uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }
inline void sipRound(uint64_t& v0, uint64_t& v1, uint64_t& v2, uint64_t& v3) {
  v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);
  v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;
  v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;
  v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);
}

/// SipHash-2-4 of the 64-bit words m[0..n) (a whole-word message of 8n bytes) under the 128-bit key k.
uint64_t sipHash(const uint64_t k[2], const uint64_t* m, int n) {
  uint64_t v0 = k[0] ^ 0x736f6d6570736575ull, v1 = k[1] ^ 0x646f72616e646f6dull;
  uint64_t v2 = k[0] ^ 0x6c7967656e657261ull, v3 = k[1] ^ 0x7465646279746573ull;
  for (int i = 0; i < n; ++i) {
    v3 ^= m[i];
    sipRound(v0, v1, v2, v3);
    sipRound(v0, v1, v2, v3);
    v0 ^= m[i];
  }
  const uint64_t last = uint64_t(8 * n) << 56;
  v3 ^= last;
  sipRound(v0, v1, v2, v3);
  sipRound(v0, v1, v2, v3);
  v0 ^= last;
  v2 ^= 0xff;
  for (int i = 0; i < 4; ++i) sipRound(v0, v1, v2, v3);
  return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t random64() { return std::random_device{}() | (uint64_t(std::random_device{}()) << 32); }

}  // namespace

uint64_t pidNamespace(const char* path) {
  struct stat st;
  return stat(path, &st) == 0 ? uint64_t(st.st_ino) : 0;
}

bool procStat(int pid, char* state, uint64_t* start_time) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  FILE* f = fopen(path, "r");
  if (!f) return false;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char* p = strrchr(buf, ')');  // the command name may hold spaces and parentheses
  if (!p) return false;
  *state = p[2];
  const char* q = p + 2;
  for (int field = 3; field < 22 && q; ++field) {  // fields are numbered from 1; the state is field 3
    q = strchr(q, ' ');
    if (q) ++q;
  }
  *start_time = q ? strtoull(q, nullptr, 10) : 0;
  return true;
}

uint64_t NetBeats::mac(const uint64_t key[2], uint32_t from, uint32_t to, uint64_t count) {
  const uint64_t m[2] = {uint64_t(from) << 32 | to, count};
  return sipHash(key, m, 2);
}

NetBeats::~NetBeats() {
  for (int fd : fds_) close(fd);
}

/// One socket per address of this host (loopback when it has no other), all on the port the first one got.
void NetBeats::openSockets(uint16_t* port, uint32_t* ip, uint16_t* naddr) {
  uint32_t addrs[kMaxAddrs];
  int n = hostAddrs(addrs);
  if (n == 0) addrs[n++] = htonl(INADDR_LOOPBACK);
  *port = 0;
  *naddr = 0;
  for (int i = 0; i < n; ++i) {
    const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = addrs[i];
    sa.sin_port = *port;
    socklen_t len = sizeof sa;
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len) != 0) {
      GSHMEM_LOG_WARN(INIT, "no UDP socket for heartbeats on one address (%s): peers use the others",
                      strerror(errno));
      if (fd >= 0) close(fd);
      continue;
    }
    *port = sa.sin_port;
    fds_.push_back(fd);
    ip[(*naddr)++] = addrs[i];
  }
  if (fds_.empty())
    GSHMEM_LOG_WARN(INIT, "no UDP socket for heartbeats between nodes: peers on other nodes are not watched by "
                    "the wait watchdog");
}

Status NetBeats::setup(Bootstrap& bs, const std::vector<bool>& remote) {
  me_ = bs.rank();
  bool any = false;
  for (bool r : remote) any = any || r;
  Card mine{};
  mine.share[0] = random64();
  mine.share[1] = random64();
  mine.boot = machineBootHash();
  mine.pid = static_cast<int32_t>(getpid());
  mine.pid_ns = pidNamespace("/proc/self/ns/pid");
  char st;
  if (!procStat(getpid(), &st, &mine.start_time)) mine.pid_ns = 0;
  if (any) openSockets(&mine.port, mine.ip, &mine.naddr);
  std::vector<Card> cards(bs.size());
  GSHMEM_CHECK(bs.allGather(&mine, cards.data(), sizeof mine));
  peers_.assign(bs.size(), Peer{});
  procs_.assign(bs.size(), Proc{});
  for (int pe = 0; pe < bs.size(); ++pe) {
    key_[0] ^= cards[pe].share[0];
    key_[1] ^= cards[pe].share[1];
    procs_[pe] = Proc{cards[pe].boot, cards[pe].pid_ns, cards[pe].start_time, cards[pe].pid};
  }
  if (fds_.empty()) return Status::Ok;
  for (int pe = 0; pe < bs.size(); ++pe) {
    if (!remote[pe] || pe == me_ || cards[pe].port == 0) continue;
    peers_[pe].port = cards[pe].port;
    peers_[pe].ip.assign(cards[pe].ip, cards[pe].ip + std::min<int>(cards[pe].naddr, kMaxAddrs));
  }
  return Status::Ok;
}

std::size_t NetBeats::bytesPerPeer() { return sizeof(Peer) + kMaxAddrs * sizeof(uint32_t) + sizeof(Proc); }

void NetBeats::unwatch(int pe) { peers_[pe] = Peer{}; }

Status NetBeats::greet(Bootstrap& bs, uint64_t count, std::vector<uint64_t>* counts, std::vector<bool>* seen) {
  counts->assign(peers_.size(), 0);
  seen->assign(peers_.size(), false);
  send(count);
  GSHMEM_CHECK(bs.barrier());  // every first beat is on its way
  if (fds_.empty()) return Status::Ok;
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
  if (fds_.empty()) return;
  for (std::size_t pe = 0; pe < peers_.size(); ++pe) {
    const Peer& p = peers_[pe];
    if (p.port == 0) continue;
    const Beat b{static_cast<uint32_t>(me_), static_cast<uint32_t>(pe), count,
                 mac(key_, static_cast<uint32_t>(me_), static_cast<uint32_t>(pe), count)};
    for (uint32_t ip : p.ip) {
      sockaddr_in sa{};
      sa.sin_family = AF_INET;
      sa.sin_port = p.port;
      sa.sin_addr.s_addr = ip;
      (void)sendto(fds_[0], &b, sizeof b, MSG_DONTWAIT | MSG_NOSIGNAL, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
    }
  }
}

void NetBeats::receive(std::vector<uint64_t>* counts, std::vector<bool>* seen) {
  Beat b;
  for (int fd : fds_) {
    for (;;) {
      ssize_t n = recv(fd, &b, sizeof b, MSG_DONTWAIT);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      if (n != sizeof b || b.from >= peers_.size() || peers_[b.from].port == 0 ||
          b.to != static_cast<uint32_t>(me_) || b.mac != mac(key_, b.from, b.to, b.count))
        continue;
      // Datagrams may be reordered (or replayed): keep the largest count.
      if (!(*seen)[b.from] || b.count > (*counts)[b.from]) (*counts)[b.from] = b.count;
      (*seen)[b.from] = true;
    }
  }
}

}  // namespace gshmem::liveness
