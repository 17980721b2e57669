// TCP plumbing for the socket bootstrap (socket_bootstrap.cpp, rendezvous.cpp): addresses in a fixed-size form
// that travels in the unique id, and connect and accept bounded by a deadline; reads and writes are base/deadline.hpp's
// sendAll and recvAll (descriptors are UniqueFd, base/unique_fd.hpp).
// No MPI, no threads of its own. Private to src/base.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/deadline.hpp"
#include "base/status.hpp"
#include "base/unique_fd.hpp"

namespace gshmem {

/// An IPv4 or IPv6 address and port, trivially copyable (it is written into the unique id as is).
struct SockAddr {
  uint16_t family = 0;  ///< AF_INET or AF_INET6; 0: unset
  uint16_t port = 0;    ///< host byte order
  uint32_t scope = 0;   ///< IPv6 scope id (link-local addresses)
  uint8_t addr[16] = {};
  std::string str() const;  ///< "10.0.0.1:4567" or "[fe80::1]:4567"
  bool loopback() const;
};
static_assert(sizeof(SockAddr) == 24, "SockAddr travels in the unique id and in check-ins");

/// The address this process offers to the others. @p ifname: "" picks the address of the interface that routes to
/// this host's name, else the first up non-loopback interface, else loopback; otherwise a comma-separated list of
/// interface-name prefixes to use ("eth,ib"), or to avoid when led by '^' ("^docker,lo"). On failure *err names the
/// interfaces seen and the fix.
Status localAddressChoose(const std::string& ifname, SockAddr* out, std::string* err);

/// The name of the interface that holds address @p a (port ignored); Unsupported when none does.
Status interfaceOf(const SockAddr& a, std::string* name);

/// A listening TCP socket on @p at (port 0: any), close-on-exec; *bound is its address with the port.
Status socketListen(const SockAddr& at, UniqueFd* out, SockAddr* bound, std::string* err);
/// Connect to @p to, retrying refused or unreachable attempts until @p dl; the socket is non-blocking inside but
/// the calls below make it behave as blocking with a deadline.
Status socketConnect(const SockAddr& to, const Deadline& dl, UniqueFd* out, std::string* err);
/// Accept one connection on @p listener by @p dl (Timeout when it passes).
Status socketAccept(int listener, const Deadline& dl, UniqueFd* out, std::string* err);
/// Keepalive probes so that a peer host that vanishes without a reset is found within about @p timeout_s.
void socketKeepalive(int fd, long timeout_s);

}  // namespace gshmem
