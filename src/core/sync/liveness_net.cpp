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
  uint64_t count;  ///< the count word: beatWord(count, state)
  uint64_t mac;    ///< NetBeats::mac(secret, from, to, count word)
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

int ringPeers(int me, int n, int step, int out[kRingPeers]) {
  int k = 0;
  for (int d = 1; d <= kRingPeers && n > 1; ++d) {
    const int pe = ((me + step * d) % n + n) % n;
    if (pe == me || (k > 0 && out[k - 1] == pe)) continue;
    out[k++] = pe;
  }
  return k;
}

uint64_t NetBeats::mac(const uint64_t key[2], uint32_t from, uint32_t to, uint64_t word) {
  const uint64_t m[2] = {uint64_t(from) << 32 | to, word};
  return sipHash(key, m, 2);
}

NetBeats::~NetBeats() {
  for (int fd : fds_) close(fd);
}

/// One socket per address of this host (loopback when it has no other), all on the port the first one got.
void NetBeats::openSockets(uint16_t* port, uint32_t* ip, uint16_t* naddr, long rcvbuf) {
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
    const int buf = static_cast<int>(rcvbuf);
    if (fd >= 0 && rcvbuf > 0 && setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof buf) != 0)
      GSHMEM_LOG_WARN(INIT, "GSHMEM_LIVENESS_RCVBUF=%ld not applied to a heartbeat socket (%s)", rcvbuf,
                      strerror(errno));
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

Status NetBeats::setup(Bootstrap& bs, bool on, long rcvbuf) {
  me_ = bs.rank();
  const int n = bs.size();
  Card mine{};
  mine.share[0] = random64();
  mine.share[1] = random64();
  mine.boot = machineBootHash();
  mine.pid = static_cast<int32_t>(getpid());
  mine.pid_ns = pidNamespace("/proc/self/ns/pid");
  char st;
  if (!procStat(getpid(), &st, &mine.start_time)) mine.pid_ns = 0;
  if (on && n > 1) openSockets(&mine.port, mine.ip, &mine.naddr, rcvbuf);
  // Init-time only: every PE's card (the job secret needs every share); only the ring neighbours' are kept.
  std::vector<Card> cards(n);
  GSHMEM_CHECK(bs.allGather(&mine, cards.data(), sizeof mine));
  for (int pe = 0; pe < n; ++pe) {
    key_[0] ^= cards[pe].share[0];
    key_[1] ^= cards[pe].share[1];
    if (pe != me_ && mine.boot != 0 && cards[pe].boot == mine.boot)
      local_.emplace_back(pe, Proc{cards[pe].boot, cards[pe].pid_ns, cards[pe].start_time, cards[pe].pid});
  }
  auto fill = [&](Peer* p, int pe) {
    const Card& c = cards[pe];
    p->pe = pe;
    p->proc = Proc{c.boot, c.pid_ns, c.start_time, c.pid};
    if (fds_.empty() || c.port == 0) return;  // this PE or that one takes no part: no beats between them
    p->port = c.port;
    p->naddr = static_cast<uint16_t>(std::min<int>(c.naddr, kMaxAddrs));
    std::copy(c.ip, c.ip + p->naddr, p->ip);
  };
  int ring[kRingPeers];
  nsucc_ = ringPeers(me_, n, +1, ring);
  for (int i = 0; i < nsucc_; ++i) fill(&succ_[i], ring[i]);
  npred_ = ringPeers(me_, n, -1, ring);
  for (int i = 0; i < npred_; ++i) fill(&pred_[i], ring[i]);
  return Status::Ok;
}

const NetBeats::Peer* NetBeats::find(int pe) const {
  for (int i = 0; i < nsucc_; ++i)
    if (succ_[i].pe == pe) return &succ_[i];
  return nullptr;
}

NetBeats::Proc NetBeats::proc(int pe) const {
  for (int i = 0; i < nsucc_; ++i)
    if (succ_[i].pe == pe) return succ_[i].proc;
  for (int i = 0; i < npred_; ++i)
    if (pred_[i].pe == pe) return pred_[i].proc;
  auto it = std::lower_bound(local_.begin(), local_.end(), pe,
                             [](const std::pair<int, Proc>& e, int k) { return e.first < k; });
  return it != local_.end() && it->first == pe ? it->second : Proc{};
}

void NetBeats::unwatch(int pe) {
  for (int i = 0; i < nsucc_; ++i)
    if (succ_[i].pe == pe) succ_[i].port = 0;
  for (int i = 0; i < npred_; ++i)
    if (pred_[i].pe == pe) pred_[i].port = 0;
}

Status NetBeats::greet(Bootstrap& bs, uint64_t word) {
  send(word);
  GSHMEM_CHECK(bs.barrier());  // every first beat is on its way
  if (fds_.empty()) return Status::Ok;
  auto heardAll = [&] {
    for (int i = 0; i < nsucc_; ++i)
      if (succ_[i].port != 0 && !succ_[i].seen) return false;
    return true;
  };
  auto nowMs = [] { return static_cast<long>(monotonicNs() / 1000000); };
  const timespec tick{0, 1000000};
  const long start = nowMs();
  for (long last_send = start, now = start; now - start < kGreetWaitMs; now = nowMs()) {
    receive();
    if (heardAll()) return Status::Ok;
    if (now - last_send >= kGreetResendMs) {
      send(word);
      last_send = now;
    }
    nanosleep(&tick, nullptr);
  }
  receive();
  if (heardAll()) return Status::Ok;
  std::string who;
  for (int i = 0; i < nsucc_; ++i)
    if (succ_[i].port != 0 && !succ_[i].seen) who += (who.empty() ? "" : ", ") + std::to_string(succ_[i].pe);
  GSHMEM_LOG_WARN(INIT, "no UDP heartbeat arrived from PE(s) %s within %ld ms (a firewall between the nodes?): the "
                  "wait watchdog does not watch them; a stopped PE there is found only by the UCX timeouts",
                  who.c_str(), kGreetWaitMs);
  return Status::Ok;
}

void NetBeats::send(uint64_t word, int times) {
  if (fds_.empty()) return;
  for (int i = 0; i < npred_; ++i) {
    const Peer& p = pred_[i];
    if (p.port == 0) continue;
    const uint32_t from = static_cast<uint32_t>(me_), to = static_cast<uint32_t>(p.pe);
    const Beat b{from, to, word, mac(key_, from, to, word)};
    for (int k = 0; k < times; ++k)
      for (int a = 0; a < p.naddr; ++a) {
        sockaddr_in sa{};
        sa.sin_family = AF_INET;
        sa.sin_port = p.port;
        sa.sin_addr.s_addr = p.ip[a];
        if (sendto(fds_[0], &b, sizeof b, MSG_DONTWAIT | MSG_NOSIGNAL, reinterpret_cast<sockaddr*>(&sa),
                   sizeof sa) == static_cast<ssize_t>(sizeof b))
          ++sent_;
      }
  }
}

void NetBeats::receive() {
  Beat b;
  for (int fd : fds_) {
    for (;;) {
      ssize_t n = recv(fd, &b, sizeof b, MSG_DONTWAIT);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      Peer* p = nullptr;
      for (int i = 0; i < nsucc_ && !p; ++i)
        if (succ_[i].port != 0 && b.from == static_cast<uint32_t>(succ_[i].pe)) p = &succ_[i];
      if (n != sizeof b || !p || b.to != static_cast<uint32_t>(me_) || b.mac != mac(key_, b.from, b.to, b.count))
        continue;
      ++received_;
      // Datagrams may be reordered (or replayed): keep the largest word.
      if (!p->seen || b.count > p->word) p->word = b.count;
      p->seen = true;
    }
  }
}

}  // namespace gshmem::liveness
