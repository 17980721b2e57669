// TCP plumbing for the socket bootstrap (see socket.hpp for the contracts).
#include "base/socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "base/log.hpp"
#include "base/str_format.hpp"

namespace gshmem {

namespace {

socklen_t toSockaddr(const SockAddr& a, sockaddr_storage* ss) {
  std::memset(ss, 0, sizeof *ss);
  if (a.family == AF_INET6) {
    auto* s6 = reinterpret_cast<sockaddr_in6*>(ss);
    s6->sin6_family = AF_INET6;
    s6->sin6_port = htons(a.port);
    s6->sin6_scope_id = a.scope;
    std::memcpy(&s6->sin6_addr, a.addr, 16);
    return sizeof *s6;
  }
  auto* s4 = reinterpret_cast<sockaddr_in*>(ss);
  s4->sin_family = AF_INET;
  s4->sin_port = htons(a.port);
  std::memcpy(&s4->sin_addr, a.addr, 4);
  return sizeof *s4;
}

bool fromSockaddr(const sockaddr* sa, SockAddr* out) {
  SockAddr a;
  if (sa->sa_family == AF_INET) {
    const auto* s4 = reinterpret_cast<const sockaddr_in*>(sa);
    a.family = AF_INET;
    a.port = ntohs(s4->sin_port);
    std::memcpy(a.addr, &s4->sin_addr, 4);
  } else if (sa->sa_family == AF_INET6) {
    const auto* s6 = reinterpret_cast<const sockaddr_in6*>(sa);
    a.family = AF_INET6;
    a.port = ntohs(s6->sin6_port);
    a.scope = s6->sin6_scope_id;
    std::memcpy(a.addr, &s6->sin6_addr, 16);
  } else {
    return false;
  }
  *out = a;
  return true;
}

/// True when @p spec (comma-separated prefixes, '^' to exclude) admits interface @p name.
bool ifnameMatches(const std::string& spec, const char* name) {
  const bool exclude = !spec.empty() && spec[0] == '^';
  std::size_t at = exclude ? 1 : 0;
  while (at <= spec.size()) {
    std::size_t end = spec.find(',', at);
    if (end == std::string::npos) end = spec.size();
    const std::string prefix = spec.substr(at, end - at);
    if (!prefix.empty() && std::strncmp(name, prefix.c_str(), prefix.size()) == 0) return !exclude;
    at = end + 1;
  }
  return exclude;
}

/// The source address of the route to this host's name (a connected UDP socket sends nothing); false when the name
/// does not resolve or routes through loopback only.
bool hostnameRoute(SockAddr* out) {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return false;
  addrinfo hints{}, *res = nullptr;
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  if (getaddrinfo(host, "9", &hints, &res) != 0 || !res) return false;
  bool ok = false;
  for (addrinfo* r = res; r && !ok; r = r->ai_next) {
    UniqueFd s(socket(r->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (!s.valid() || connect(s.get(), r->ai_addr, r->ai_addrlen) != 0) continue;
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    SockAddr a;
    if (getsockname(s.get(), reinterpret_cast<sockaddr*>(&ss), &len) == 0 &&
        fromSockaddr(reinterpret_cast<sockaddr*>(&ss), &a) && !a.loopback()) {
      a.port = 0;
      *out = a;
      ok = true;
    }
  }
  freeaddrinfo(res);
  return ok;
}

}  // namespace

std::string SockAddr::str() const {
  char buf[INET6_ADDRSTRLEN] = "?";
  inet_ntop(family == AF_INET6 ? AF_INET6 : AF_INET, addr, buf, sizeof buf);
  return family == AF_INET6 ? strFormat("[%s]:%u", buf, port) : strFormat("%s:%u", buf, port);
}

bool SockAddr::loopback() const {
  if (family == AF_INET) return addr[0] == 127;
  static const uint8_t kLo6[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  return family == AF_INET6 && std::memcmp(addr, kLo6, 16) == 0;
}

Status localAddressChoose(const std::string& ifname, SockAddr* out, std::string* err) {
  if (ifname.empty() && hostnameRoute(out)) return Status::Ok;
  ifaddrs* ifs = nullptr;
  if (getifaddrs(&ifs) != 0) {
    *err = strFormat("cannot list the network interfaces: %s", strerror(errno));
    return Status::SystemError;
  }
  // Without a choice: the first up non-loopback interface (docker bridges last), then loopback. With one: the first
  // interface it admits, IPv4 before IPv6, link-local IPv6 last.
  SockAddr best;
  int best_rank = 100;
  std::string seen;
  for (ifaddrs* i = ifs; i; i = i->ifa_next) {
    SockAddr a;
    if (!i->ifa_addr || !(i->ifa_flags & IFF_UP) || !fromSockaddr(i->ifa_addr, &a)) continue;
    if (seen.find(i->ifa_name) == std::string::npos) seen += (seen.empty() ? "" : ", ") + std::string(i->ifa_name);
    const bool link_local6 = a.family == AF_INET6 && a.addr[0] == 0xfe && (a.addr[1] & 0xc0) == 0x80;
    int rank;
    if (!ifname.empty()) {
      if (!ifnameMatches(ifname, i->ifa_name)) continue;
      rank = (a.family == AF_INET6) + 2 * link_local6;
    } else {
      rank = a.loopback() ? 10 : (std::strncmp(i->ifa_name, "docker", 6) == 0 ? 5 : 0);
      rank += (a.family == AF_INET6) + 2 * link_local6;
    }
    if (rank < best_rank) {
      best_rank = rank;
      best = a;
      best.port = 0;
    }
  }
  freeifaddrs(ifs);
  if (best_rank == 100) {
    *err = ifname.empty() ? strFormat("no network interface is up (seen: %s)", seen.c_str())
                          : strFormat("no interface that is up matches GSHMEM_BOOTSTRAP_IFNAME=%s (interfaces: %s); "
                                      "name one of them", ifname.c_str(), seen.c_str());
    return Status::Unsupported;
  }
  *out = best;
  return Status::Ok;
}

Status interfaceOf(const SockAddr& a, std::string* name) {
  ifaddrs* ifs = nullptr;
  if (getifaddrs(&ifs) != 0) return Status::SystemError;
  Status st = Status::Unsupported;
  for (ifaddrs* i = ifs; i && st != Status::Ok; i = i->ifa_next) {
    SockAddr b;
    if (!i->ifa_addr || !fromSockaddr(i->ifa_addr, &b) || b.family != a.family) continue;
    if (std::memcmp(b.addr, a.addr, a.family == AF_INET ? 4 : 16) != 0) continue;
    *name = i->ifa_name;
    st = Status::Ok;
  }
  freeifaddrs(ifs);
  return st;
}

Status socketListen(const SockAddr& at, UniqueFd* out, SockAddr* bound, std::string* err) {
  UniqueFd s(socket(at.family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  sockaddr_storage ss;
  socklen_t len = toSockaddr(at, &ss);
  if (!s.valid() || bind(s.get(), reinterpret_cast<sockaddr*>(&ss), len) != 0 || listen(s.get(), 1024) != 0) {
    *err = strFormat("cannot listen on %s: %s", at.str().c_str(), strerror(errno));
    return Status::SystemError;
  }
  len = sizeof ss;
  getsockname(s.get(), reinterpret_cast<sockaddr*>(&ss), &len);
  fromSockaddr(reinterpret_cast<sockaddr*>(&ss), bound);
  *out = std::move(s);
  return Status::Ok;
}

Status socketConnect(const SockAddr& to, const Deadline& dl, UniqueFd* out, std::string* err) {
  int last = 0;
  for (int attempt = 0;; ++attempt) {
    UniqueFd s(socket(to.family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!s.valid()) {
      *err = strFormat("cannot make a socket: %s", strerror(errno));
      return Status::SystemError;
    }
    sockaddr_storage ss;
    const socklen_t len = toSockaddr(to, &ss);
    int rc = connect(s.get(), reinterpret_cast<sockaddr*>(&ss), len);
    if (rc != 0 && errno == EINPROGRESS) {
      Status w = waitFd(s.get(), POLLOUT, dl);
      if (w == Status::Timeout) break;
      socklen_t el = sizeof rc;
      getsockopt(s.get(), SOL_SOCKET, SO_ERROR, &rc, &el);
      errno = rc;
    }
    if (rc == 0) {
      const int one = 1;
      setsockopt(s.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      *out = std::move(s);
      return Status::Ok;
    }
    last = errno;
    if (last != ECONNREFUSED && last != ENETUNREACH && last != EHOSTUNREACH && last != ETIMEDOUT && last != EAGAIN)
      break;
    if (dl.expired()) break;
    usleep(attempt < 20 ? 10000 : 100000);  // the listener may not be up yet
  }
  *err = strFormat("cannot connect to %s: %s", to.str().c_str(), last ? strerror(last) : "timed out");
  return Status::RemoteError;
}

Status socketAccept(int listener, const Deadline& dl, UniqueFd* out, std::string* err) {
  for (;;) {
    Status w = waitFd(listener, POLLIN, dl);
    if (w == Status::Timeout) return Status::Timeout;
    UniqueFd s(accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (s.valid()) {
      const int one = 1;
      setsockopt(s.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      *out = std::move(s);
      return Status::Ok;
    }
    if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED) {
      *err = strFormat("accept failed: %s", strerror(errno));
      return Status::SystemError;
    }
  }
}

void socketKeepalive(int fd, long timeout_s) {
  if (timeout_s <= 0) return;
  const int one = 1, idle = timeout_s / 3 > 0 ? static_cast<int>(timeout_s / 3) : 1;
  const int intvl = timeout_s / 6 > 0 ? static_cast<int>(timeout_s / 6) : 1, cnt = 3;
  const unsigned user_ms = static_cast<unsigned>(timeout_s) * 1000u;
  setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
  setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_ms, sizeof user_ms);
}

}  // namespace gshmem
