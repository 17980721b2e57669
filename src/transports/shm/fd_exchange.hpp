// Passing memfd descriptors between processes of one node: SCM_RIGHTS over an abstract-namespace Unix socket.
// Private to src/transports/shm.
//
// One side listens (FdServer) on a name unique to the job and the PE (fdExchangeName: a random nonce the server
// generated and gave its peers through the bootstrap, and its PE number); the other side connects (FdClient),
// sends a hello that echoes the server's nonce and names its PE, and receives the descriptors in one message.
// Both sides check the other's credentials (SO_PEERCRED): a process of another user is never served, and a
// listener of another user is never trusted. A received descriptor is a reference to the open file itself, so it
// means the same thing whatever the two processes' PID namespaces are.
//
// Contract: abstract socket names live in the network namespace, so both processes must share one; every wait
// is bounded by a Deadline (base/deadline.hpp); sockets and descriptors are owned (UniqueFd) and closed on every
// path. Errors come back as Status with a short lowercase reason in *err (the caller names the PEs and segments
// around it).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/deadline.hpp"
#include "base/status.hpp"
#include "base/unique_fd.hpp"

namespace gshmem {

/// 128 random bits a server makes its socket name from and a client echoes back.
struct FdNonce {
  uint64_t w[2] = {0, 0};
  bool operator==(const FdNonce& o) const { return w[0] == o.w[0] && w[1] == o.w[1]; }
};
/// A fresh nonce from the kernel's random source.
Status fdNonceMake(FdNonce* out, std::string* err);

/// The abstract socket name of PE @p pe whose nonce is @p n: "gshmem-<32 hex digits>-<pe>".
std::string fdExchangeName(const FdNonce& n, int pe);

/// What a client sends on connecting.
struct FdHello {
  FdNonce nonce;  ///< the server's nonce (from the bootstrap): the client belongs to this job
  int32_t pe = -1;
  uint32_t magic = kMagic;
  static constexpr uint32_t kMagic = 0x67736664;  // "gsfd"
};
static_assert(sizeof(FdHello) == 24, "FdHello travels as raw bytes");

/// The listening side. serve() closes the listening socket on return, so nothing of it outlives the exchange.
class FdServer {
 public:
  /// Bind the abstract socket @p name and listen, with room for @p backlog clients waiting to be accepted.
  Status listen(const std::string& name, int backlog, std::string* err);
  /// Accept clients until every PE in *pending has been sent @p fds (all of them, in order, in one message), or
  /// until @p d expires. A client whose uid differs from this process's, or whose hello does not carry @p nonce
  /// and a PE of *pending, is dropped (logged) and not counted. On return *pending holds the PEs not served.
  Status serve(const FdNonce& nonce, std::vector<int>* pending, const std::vector<int>& fds, const Deadline& d,
               std::string* err);
  void close() { sock_.reset(); }
  bool listening() const { return static_cast<bool>(sock_); }
  const std::string& name() const { return name_; }

 private:
  /// Serve one accepted connection: Ok when served, NoResource when dropped, an error when sending failed.
  Status serveOne(UniqueFd c, const FdNonce& nonce, std::vector<int>* pending, const std::vector<int>& fds,
                  const Deadline& d, std::string* err);

  UniqueFd sock_;
  std::string name_;
};

/// The connecting side.
class FdClient {
 public:
  /// Connect to the abstract socket @p name, check that its listener runs as this process's uid, and send
  /// @p hello. Fails at once when nobody listens under that name (RemoteError); InvalidArgument when the listener
  /// runs as another user.
  Status connect(const std::string& name, const FdHello& hello, const Deadline& d, std::string* err);
  /// Receive exactly @p n descriptors (close-on-exec) into *out, then close the connection.
  Status receive(std::size_t n, const Deadline& d, std::vector<UniqueFd>* out, std::string* err);
  bool connected() const { return static_cast<bool>(sock_); }

 private:
  UniqueFd sock_;
};

}  // namespace gshmem
