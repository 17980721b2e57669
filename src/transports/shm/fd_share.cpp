// Handing descriptors to PEs of this node (contract in fd_share.hpp).
#include "transports/shm/fd_share.hpp"

#include "base/str_format.hpp"

namespace gshmem {

namespace {

std::string listOf(const std::vector<int>& pes) {
  std::string s = pes.size() == 1 ? "PE " : "PEs ";
  for (std::size_t i = 0; i < pes.size(); ++i) s += (i ? ", " : "") + std::to_string(pes[i]);
  return s;
}

}  // namespace

Status fdShare(Bootstrap& bs, const std::vector<int>& to, const std::vector<int>& fds, const std::vector<int>& from,
               std::size_t from_count, double timeout_s, const char* what, std::vector<std::vector<UniqueFd>>* got,
               std::string* err) {
  const int me = bs.rank();
  // As shm_map: every PE that sends listens before the allgather, connects to each PE it receives from (queued by
  // the kernel, not accepted), serves its own socket, and only then receives what its peers serve.
  FdNonce mine;
  FdServer server;
  std::string why;
  Status st = fdNonceMake(&mine, &why);
  if (!isError(st) && !to.empty()) st = server.listen(fdExchangeName(mine, me), static_cast<int>(to.size()), &why);
  if (isError(st)) {
    *err = strFormat("cannot offer this PE's %s to the PEs of its node on a Unix socket: %s", what, why.c_str());
    return st;
  }
  std::vector<FdNonce> nonces(bs.size());
  if (isError(st = bs.allGather(&mine, nonces.data(), sizeof mine))) {
    *err = "bootstrap allgather failed (descriptor exchange)";
    return st;
  }
  const Deadline d(timeout_s);
  std::vector<FdClient> clients(bs.size());
  for (int pe : from) {
    FdHello hello;
    hello.nonce = nonces[pe];
    hello.pe = me;
    if (isError(st = clients[pe].connect(fdExchangeName(nonces[pe], pe), hello, d, &why))) {
      *err = strFormat("cannot reach PE %d to receive its %s: %s; PE %d may have exited or be stopped", pe, what,
                       why.c_str(), pe);
      return st;
    }
  }
  if (!to.empty()) {
    std::vector<int> pending = to;
    if (isError(st = server.serve(mine, &pending, fds, d, &why))) {
      *err = strFormat("cannot send this PE's %s to %s: %s; they may have exited or be stopped (GSHMEM_TIMEOUT bounds "
                       "this wait)", what, listOf(pending).c_str(), why.c_str());
      return st;
    }
  }
  got->clear();
  got->resize(bs.size());
  for (int pe : from)
    if (isError(st = clients[pe].receive(from_count, d, &(*got)[pe], &why))) {
      *err = strFormat("cannot receive PE %d's %s: %s; PE %d may have exited or be stopped", pe, what, why.c_str(),
                       pe);
      return st;
    }
  return Status::Ok;
}

}  // namespace gshmem
