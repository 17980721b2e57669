// Passing memfd descriptors over abstract Unix sockets (contract in fd_exchange.hpp).
#include "transports/shm/fd_exchange.hpp"

#include <poll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "base/log.hpp"

namespace gshmem {

namespace {

Status sysFail(const char* what, std::string* err, Status s = Status::SystemError) {
  *err = std::string(what) + ": " + strerror(errno);
  return s;
}

/// An abstract Unix address (a leading NUL, then the name, no terminator) and a fresh non-blocking stream socket.
struct AbstractSocket {
  sockaddr_un addr;
  socklen_t len = 0;
  UniqueFd sock;
};

/// The opening both ends share: @p name's address and a socket to bind or connect. On failure *err says why.
Status abstractSocket(const std::string& name, AbstractSocket* out, std::string* err) {
  std::memset(&out->addr, 0, sizeof out->addr);
  out->addr.sun_family = AF_UNIX;
  if (name.empty() || name.size() + 1 > sizeof out->addr.sun_path) {
    *err = "socket name '" + name + "' is empty or too long";
    return Status::InvalidArgument;
  }
  std::memcpy(out->addr.sun_path + 1, name.data(), name.size());
  out->len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  out->sock = UniqueFd(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  return out->sock ? Status::Ok : sysFail("socket", err);
}

/// The effective uid of the process at the other end of @p fd (as it was when it connected or listened).
bool peerUid(int fd, uid_t* uid) {
  ucred c{};
  socklen_t len = sizeof c;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &len) != 0) return false;
  *uid = c.uid;
  return true;
}

/// One message: a 4-byte count, with the descriptors attached (SCM_RIGHTS).
Status sendFds(int fd, const std::vector<int>& fds, const Deadline& d, std::string* err) {
  uint32_t count = static_cast<uint32_t>(fds.size());
  iovec iov{&count, sizeof count};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  std::vector<char> ctl(CMSG_SPACE(sizeof(int) * fds.size()));
  if (!fds.empty()) {
    m.msg_control = ctl.data();
    m.msg_controllen = ctl.size();
    cmsghdr* c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  }
  for (;;) {
    const Status w = waitFd(fd, POLLOUT, d);
    if (w == Status::Timeout) {
      *err = "could not send within " + d.describe();
      return w;
    }
    if (isError(w)) return sysFail("poll", err);
    ssize_t put = sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (put == static_cast<ssize_t>(sizeof count)) return Status::Ok;
    if (put < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (put >= 0) errno = EMSGSIZE;
    return sysFail("sendmsg", err, Status::RemoteError);
  }
}

}  // namespace

Status fdNonceMake(FdNonce* out, std::string* err) {
  char* p = reinterpret_cast<char*>(out->w);
  std::size_t left = sizeof out->w;
  while (left > 0) {
    ssize_t got = getrandom(p, left, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return sysFail("getrandom", err);
    p += got;
    left -= static_cast<std::size_t>(got);
  }
  return Status::Ok;
}

std::string fdExchangeName(const FdNonce& n, int pe) {
  char b[64];
  snprintf(b, sizeof b, "gshmem-%016llx%016llx-%d", static_cast<unsigned long long>(n.w[0]),
           static_cast<unsigned long long>(n.w[1]), pe);
  return b;
}

// ---- server

Status FdServer::listen(const std::string& name, int backlog, std::string* err) {
  AbstractSocket a;
  GSHMEM_CHECK(abstractSocket(name, &a, err));
  if (bind(a.sock.get(), reinterpret_cast<sockaddr*>(&a.addr), a.len) != 0) return sysFail("bind", err);
  if (::listen(a.sock.get(), backlog < 1 ? 1 : backlog) != 0) return sysFail("listen", err);
  sock_ = std::move(a.sock);
  name_ = name;
  return Status::Ok;
}

Status FdServer::serve(const FdNonce& nonce, std::vector<int>* pending, const std::vector<int>& fds,
                       const Deadline& d, std::string* err) {
  struct Closer {
    FdServer* s;
    ~Closer() { s->close(); }
  } closer{this};
  if (!sock_) {
    *err = "not listening";
    return Status::Internal;
  }
  while (!pending->empty()) {
    const Status w = waitFd(sock_.get(), POLLIN, d);
    if (w == Status::Timeout) {
      *err = "no connection within " + d.describe();
      return w;
    }
    if (isError(w)) return sysFail("poll", err);
    UniqueFd c(accept4(sock_.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (!c) {
      if (errno == EINTR || errno == EAGAIN || errno == ECONNABORTED) continue;
      return sysFail("accept", err);
    }
    Status st = serveOne(std::move(c), nonce, pending, fds, d, err);
    if (st == Status::NoResource) continue;  // dropped: not one of ours
    GSHMEM_CHECK(st);
  }
  return Status::Ok;
}

Status FdServer::serveOne(UniqueFd c, const FdNonce& nonce, std::vector<int>* pending, const std::vector<int>& fds,
                          const Deadline& d, std::string* err) {
  uid_t uid = 0;
  if (!peerUid(c.get(), &uid) || uid != geteuid()) {
    GSHMEM_LOG_WARN(SHM, "refused a connection to socket @%s from a process of uid %d (this job runs as uid %d)",
                    name_.c_str(), peerUid(c.get(), &uid) ? static_cast<int>(uid) : -1, static_cast<int>(geteuid()));
    return Status::NoResource;
  }
  FdHello h;
  std::string why;
  Status st = recvAll(c.get(), &h, sizeof h, d, &why);
  if (st == Status::Timeout) {
    *err = "a client sent no hello: " + why;
    return st;
  }
  auto it = std::find(pending->begin(), pending->end(), h.pe);
  if (isError(st) || h.magic != FdHello::kMagic || !(h.nonce == nonce) || it == pending->end()) {
    GSHMEM_LOG_WARN(SHM, "dropped a connection to socket @%s: %s", name_.c_str(),
                    isError(st) ? why.c_str() : "not a PE of this job waiting for its segments");
    return Status::NoResource;
  }
  if (isError(st = sendFds(c.get(), fds, d, &why))) {
    *err = "PE " + std::to_string(h.pe) + ": " + why;
    return st;
  }
  pending->erase(it);
  return Status::Ok;
}

// ---- client

Status FdClient::connect(const std::string& name, const FdHello& hello, const Deadline& d, std::string* err) {
  AbstractSocket a;
  GSHMEM_CHECK(abstractSocket(name, &a, err));
  UniqueFd& s = a.sock;
  while (::connect(s.get(), reinterpret_cast<sockaddr*>(&a.addr), a.len) != 0) {
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return sysFail("connect", err, Status::RemoteError);
    if (d.expired()) {  // the listener's backlog stayed full
      *err = "the listener accepted nothing within " + d.describe();
      return Status::Timeout;
    }
    usleep(1000);
  }
  uid_t uid = 0;
  if (!peerUid(s.get(), &uid)) return sysFail("SO_PEERCRED", err);
  if (uid != geteuid()) {
    *err = "the socket is held by a process of uid " + std::to_string(uid) + ", not this job's uid " +
           std::to_string(geteuid());
    return Status::InvalidArgument;
  }
  GSHMEM_CHECK(sendAll(s.get(), &hello, sizeof hello, d, err));
  sock_ = std::move(s);
  return Status::Ok;
}

Status FdClient::receive(std::size_t n, const Deadline& d, std::vector<UniqueFd>* out, std::string* err) {
  UniqueFd s = std::move(sock_);  // closed on return, whatever happens
  if (!s) {
    *err = "not connected";
    return Status::Internal;
  }
  uint32_t count = 0;
  iovec iov{&count, sizeof count};
  std::vector<char> ctl(CMSG_SPACE(sizeof(int) * std::max<std::size_t>(n, 1)));
  msghdr m{};
  ssize_t got;
  for (;;) {
    const Status w = waitFd(s.get(), POLLIN, d);
    if (w == Status::Timeout) {
      *err = "no answer within " + d.describe();
      return w;
    }
    if (isError(w)) return sysFail("poll", err);
    m = msghdr{};
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = ctl.data();
    m.msg_controllen = ctl.size();
    got = recvmsg(s.get(), &m, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    if (got >= 0 || (errno != EINTR && errno != EAGAIN)) break;
  }
  if (got < 0) return sysFail("recvmsg", err, Status::RemoteError);
  std::vector<UniqueFd> fds;  // own whatever arrived before checking anything
  for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < k; ++i) {
      int f;
      std::memcpy(&f, CMSG_DATA(c) + i * sizeof(int), sizeof f);
      fds.emplace_back(f);
    }
  }
  if (got == 0) {
    *err = "the connection was closed before any descriptor arrived";
    return Status::RemoteError;
  }
  if (got != static_cast<ssize_t>(sizeof count) || (m.msg_flags & MSG_CTRUNC) || count != n || fds.size() != n) {
    *err = "expected " + std::to_string(n) + " descriptors, received " + std::to_string(fds.size()) +
           (m.msg_flags & MSG_CTRUNC ? " (truncated)" : "");
    return Status::RemoteError;
  }
  *out = std::move(fds);
  return Status::Ok;
}

}  // namespace gshmem
