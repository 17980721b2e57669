// Bounded waits on descriptors (contract in deadline.hpp).
#include "base/deadline.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <time.h>

#include <cerrno>
#include <cstring>

#include "base/str_format.hpp"

namespace gshmem {

namespace {

/// *err (when given) = @p what, or "@p what: strerror(errno)" with @p sys; returns @p s.
Status fail(Status s, std::string* err, const std::string& what, bool sys = false) {
  if (err) *err = sys ? what + ": " + strerror(errno) : what;
  return s;
}

}  // namespace

int64_t monotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

Deadline::Deadline(double timeout_s) : timeout_s_(timeout_s), never_(timeout_s <= 0) {
  if (!never_) end_ns_ = monotonicNs() + static_cast<int64_t>(timeout_s * 1e9);
}

Deadline Deadline::afterMs(int64_t ms) {
  Deadline d(1);
  d.timeout_s_ = static_cast<double>(ms) / 1e3;
  d.end_ns_ = monotonicNs() + ms * 1000000;
  return d;
}

int Deadline::pollMs() const {
  if (isNever()) return -1;
  const int64_t left = end_ns_ - monotonicNs();
  if (left <= 0) return 0;
  const int64_t ms = (left + 999999) / 1000000;
  return ms > 3600000 ? 3600000 : static_cast<int>(ms);  // a longer wait is made of several
}

std::string Deadline::describe() const { return strFormat("%g s", timeout_s_); }

Deadline Deadline::later(int64_t ms) const {
  Deadline d = *this;
  if (!never_) {
    d.timeout_s_ += static_cast<double>(ms) / 1e3;
    d.end_ns_ += ms * 1000000;
  }
  return d;
}

Status waitFd(int fd, short events, const Deadline& d) {
  for (;;) {
    pollfd p{fd, events, 0};
    const int rc = poll(&p, 1, d.pollMs());
    if (rc > 0) return Status::Ok;
    if (rc == 0 && d.expired()) return Status::Timeout;
    if (rc < 0 && errno != EINTR) return Status::SystemError;
  }
}

Status sendAll(int fd, const void* buf, std::size_t n, const Deadline& d, std::string* err) {
  const char* p = static_cast<const char*>(buf);
  while (n > 0) {
    const Status w = waitFd(fd, POLLOUT, d);
    if (w == Status::Timeout) return fail(w, err, "could not send within " + d.describe());
    if (isError(w)) return fail(w, err, "poll", true);
    const ssize_t put = send(fd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (put < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (put < 0) return fail(Status::RemoteError, err, "send", true);
    p += put;
    n -= static_cast<std::size_t>(put);
  }
  return Status::Ok;
}

Status recvAll(int fd, void* buf, std::size_t n, const Deadline& d, std::string* err) {
  char* p = static_cast<char*>(buf);
  while (n > 0) {
    const Status w = waitFd(fd, POLLIN, d);
    if (w == Status::Timeout) return fail(w, err, "nothing received within " + d.describe());
    if (isError(w)) return fail(w, err, "poll", true);
    const ssize_t got = recv(fd, p, n, MSG_DONTWAIT);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got < 0) return fail(Status::RemoteError, err, "recv", true);
    if (got == 0) return fail(Status::RemoteError, err, "the connection was closed");
    p += got;
    n -= static_cast<std::size_t>(got);
  }
  return Status::Ok;
}

}  // namespace gshmem
