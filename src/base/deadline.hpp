// Bounded waits on descriptors: a deadline on the monotonic clock, and reads, writes and readiness waits that give
// up when it passes. Shared by the socket bootstrap (TCP) and the shm transport's descriptor exchange (Unix sockets).
// Descriptors are non-blocking; the calls make them behave as blocking ones with a deadline. No SIGPIPE.
// Private to src/base and the layers above it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/status.hpp"

namespace gshmem {

/// Nanoseconds on the monotonic clock.
int64_t monotonicNs();

/// A point in time on the monotonic clock by which a wait gives up, or never.
class Deadline {
 public:
  /// @p timeout_s seconds from now; <= 0 never expires (GSHMEM_TIMEOUT=0).
  explicit Deadline(double timeout_s);
  static Deadline never() { return Deadline(0); }
  /// @p ms milliseconds from now, a bound even when @p ms <= 0 (then already expired).
  static Deadline afterMs(int64_t ms);
  bool isNever() const { return never_; }
  /// Milliseconds left, rounded up, for poll() and timed waits: -1 when it never expires, 0 once expired.
  int pollMs() const;
  bool expired() const { return pollMs() == 0; }
  double timeoutSeconds() const { return timeout_s_; }
  /// "5 s": the timeout it was made with, for messages.
  std::string describe() const;
  /// The same point @p ms later; never stays never.
  Deadline later(int64_t ms) const;

 private:
  double timeout_s_;
  bool never_;
  int64_t end_ns_ = 0;
};

/// Wait until @p fd has @p events: Ok, Timeout once @p d passes, SystemError when poll fails (errno set).
Status waitFd(int fd, short events, const Deadline& d);
/// Write all @p n bytes by @p d. Timeout when it passes, RemoteError when the peer closed or reset. When @p err is
/// given, it gets a short lowercase reason on failure.
Status sendAll(int fd, const void* buf, std::size_t n, const Deadline& d, std::string* err = nullptr);
/// Read exactly @p n bytes by @p d. Timeout when it passes, RemoteError when the peer closed first or reset.
Status recvAll(int fd, void* buf, std::size_t n, const Deadline& d, std::string* err = nullptr);

}  // namespace gshmem
