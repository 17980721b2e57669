// Mapping the regions of the PEs of this node (contract in shm_map.hpp).
#include "transports/shm/shm_map.hpp"

#include <sys/mman.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/log.hpp"
#include "base/str_format.hpp"
#include "transports/shm/fd_exchange.hpp"

namespace gshmem {

namespace {

constexpr int kMaxRegions = 4;

/// What every PE publishes through the bootstrap.
struct RegionCard {
  FdNonce nonce;             ///< names this PE's socket: fdExchangeName(nonce, pe)
  uint64_t netns_dev = 0;    ///< this PE's network namespace (device and inode of its ns/net; 0: unknown)
  uint64_t netns_ino = 0;
  uint64_t size[kMaxRegions] = {};  ///< bytes of each region this PE shares (0: not shared)
};
static_assert(sizeof(RegionCard) == 32 + 8 * kMaxRegions, "RegionCard is exchanged as raw bytes");

/// One exchange: this PE's card and socket, the peers' cards, and the one-line error.
class Exchange {
 public:
  Exchange(Bootstrap& bs, const ShmMapSpec& spec, std::string* err)
      : bs_(bs), spec_(spec), err_(err), me_(bs.rank()) {}

  Status publish();
  Status checkNamespaces() const;
  Status connectPeers();
  Status serve();
  Status receiveAndMap(std::vector<std::vector<char*>>* mapped, std::vector<ShmMapping>* maps);

 private:
  std::size_t shared(int pe) const {
    std::size_t k = 0;
    for (uint64_t s : cards_[pe].size) k += s != 0;
    return k;
  }
  std::string name(int pe) const { return fdExchangeName(cards_[pe].nonce, pe); }
  /// "heap and data segments" (what PE pe shares), for messages.
  std::string segments(int pe) const;
  /// What to do about a failed wait on PE(s) @p who.
  static std::string hint(Status st, const std::string& who);
  Status failReceive(int pe, Status st, const std::string& why) const;
  Status mapOne(int pe, int r, const UniqueFd& fd, std::vector<ShmMapping>* maps, char** at);

  Bootstrap& bs_;
  const ShmMapSpec& spec_;
  std::string* err_;
  const int me_;
  Deadline d_{0};  ///< set once every PE has published: a PE that starts late does not eat the others' time
  std::vector<RegionCard> cards_;
  std::vector<int> peers_;  ///< the other PEs of this node
  FdServer server_;
  std::vector<FdClient> clients_;  ///< per PE: the connection to its socket
};

std::string Exchange::segments(int pe) const {
  std::string s;
  int k = 0;
  for (std::size_t r = 0; r < spec_.regions.size(); ++r) {
    if (cards_[pe].size[r] == 0) continue;
    if (k++) s += " and ";
    s += r < spec_.names.size() ? spec_.names[r] : ("region " + std::to_string(r)).c_str();
  }
  return s + (k > 1 ? " segments" : " segment");
}

std::string Exchange::hint(Status st, const std::string& who) {
  if (st == Status::Timeout) return who + " may be stopped or hung (GSHMEM_TIMEOUT bounds this wait)";
  if (st == Status::InvalidArgument) return "run every PE of a node as one user";
  return who + " may have exited or failed in shmem_init (see its own message)";
}

Status Exchange::failReceive(int pe, Status st, const std::string& why) const {
  *err_ = strFormat("cannot receive PE %d's %s over the Unix socket @%s: %s; %s", pe, segments(pe).c_str(),
                 name(pe).c_str(), why.c_str(), hint(st, "PE " + std::to_string(pe)).c_str());
  return isError(st) ? st : Status::RemoteError;
}

Status Exchange::publish() {
  const int n = bs_.size();
  const auto& node = bs_.nodeOf();
  for (int pe = 0; pe < n; ++pe)
    if (pe != me_ && node[pe] == node[me_]) peers_.push_back(pe);
  RegionCard mine;
  for (std::size_t r = 0; r < spec_.regions.size(); ++r)
    if (spec_.regions[r].fd >= 0) mine.size[r] = spec_.regions[r].size;
  struct stat st;  // the calling thread's namespace: the one its socket lives in
  if (stat("/proc/thread-self/ns/net", &st) == 0 || stat("/proc/self/ns/net", &st) == 0) {
    mine.netns_dev = st.st_dev;
    mine.netns_ino = st.st_ino;
  }
  std::string why;
  Status s = fdNonceMake(&mine.nonce, &why);
  cards_.assign(n, RegionCard{});
  cards_[me_] = mine;
  if (!isError(s) && shared(me_) > 0 && !peers_.empty())
    s = server_.listen(name(me_), static_cast<int>(peers_.size()), &why);
  if (isError(s)) {
    *err_ = strFormat("cannot offer this PE's %s to the PEs of its node on a Unix socket: %s; set GSHMEM_TRANSPORTS=ucx "
                   "to run without shared memory", segments(me_).c_str(), why.c_str());
    return s;
  }
  if (isError(s = bs_.allGather(&mine, cards_.data(), sizeof mine))) *err_ = "bootstrap allgather failed";
  d_ = Deadline(static_cast<double>(spec_.timeout_s));
  return s;  // on return every PE of the node that shares something listens
}

Status Exchange::checkNamespaces() const {
  for (int pe : peers_) {
    const RegionCard& c = cards_[pe];
    if (shared(pe) == 0 || c.netns_ino == 0 || cards_[me_].netns_ino == 0) continue;
    if (c.netns_dev == cards_[me_].netns_dev && c.netns_ino == cards_[me_].netns_ino) continue;
    *err_ = strFormat("cannot receive PE %d's %s over the Unix socket @%s: PE %d runs on this node in another network "
                   "namespace, where this PE cannot reach its socket; run the PEs of a node in one network namespace, "
                   "or set GSHMEM_TRANSPORTS=ucx", pe, segments(pe).c_str(), name(pe).c_str(), pe);
    return Status::Unsupported;
  }
  return Status::Ok;
}

Status Exchange::connectPeers() {
  clients_.resize(bs_.size());
  for (int pe : peers_) {
    if (shared(pe) == 0) continue;
    FdHello hello;
    hello.nonce = cards_[pe].nonce;
    hello.pe = me_;
    std::string why;
    Status st = clients_[pe].connect(name(pe), hello, d_, &why);
    if (isError(st)) return failReceive(pe, st, why);
  }
  return Status::Ok;
}

Status Exchange::serve() {
  if (!server_.listening()) return Status::Ok;
  std::vector<int> fds;
  for (std::size_t r = 0; r < spec_.regions.size(); ++r)
    if (cards_[me_].size[r]) fds.push_back(spec_.regions[r].fd);
  std::vector<int> pending = peers_;
  std::string why;
  Status st = server_.serve(cards_[me_].nonce, &pending, fds, d_, &why);
  if (!isError(st)) return st;
  std::string who = pending.size() == 1 ? "PE " : "PEs ";
  for (std::size_t i = 0; i < pending.size(); ++i) who += (i ? ", " : "") + std::to_string(pending[i]);
  *err_ = strFormat("cannot send this PE's %s to %s over the Unix socket @%s: %s; %s", segments(me_).c_str(),
                 who.c_str(), server_.name().c_str(), why.c_str(), hint(st, who).c_str());
  return st;
}

Status Exchange::mapOne(int pe, int r, const UniqueFd& fd, std::vector<ShmMapping>* maps, char** at) {
  const std::size_t size = cards_[pe].size[r];
  const char* what = r < static_cast<int>(spec_.names.size()) ? spec_.names[r] : "shared";
  struct stat st;
  if (fstat(fd.get(), &st) != 0 || static_cast<std::size_t>(st.st_size) < size) {
    *err_ = strFormat("PE %d's %s segment holds fewer bytes than the %zu it announced; the PEs of this job disagree "
                   "about their segments (mixed gshmem versions?)", pe, what, size);
    return Status::RemoteError;
  }
  void* m = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
  if (m == MAP_FAILED) {
    *err_ = strFormat("cannot map the %zu bytes of PE %d's %s segment: %s; lower GSHMEM_SYMMETRIC_SIZE", size, pe, what,
                   strerror(errno));
    return Status::NoMemory;
  }
  maps->push_back({m, size});
  *at = static_cast<char*>(m);
  return Status::Ok;
}

Status Exchange::receiveAndMap(std::vector<std::vector<char*>>* mapped, std::vector<ShmMapping>* maps) {
  const std::size_t nr = spec_.regions.size();
  mapped->assign(bs_.size(), std::vector<char*>(nr, nullptr));
  for (std::size_t r = 0; r < nr; ++r) (*mapped)[me_][r] = spec_.regions[r].base;
  for (int pe : peers_) {
    if (shared(pe) == 0) continue;
    std::vector<UniqueFd> fds;
    std::string why;
    Status st = clients_[pe].receive(shared(pe), d_, &fds, &why);
    if (isError(st)) return failReceive(pe, st, why);
    std::size_t k = 0;
    for (std::size_t r = 0; r < nr; ++r)
      if (cards_[pe].size[r]) GSHMEM_CHECK(mapOne(pe, static_cast<int>(r), fds[k++], maps, &(*mapped)[pe][r]));
  }  // the received descriptors close here: the mappings keep the memory alive
  return Status::Ok;
}

}  // namespace

Status shmMapPeers(Bootstrap& bs, const ShmMapSpec& spec, std::vector<std::vector<char*>>* mapped,
                   std::vector<ShmMapping>* maps, std::string* err) {
  if (spec.regions.size() > kMaxRegions) {
    *err = "more than 4 shared-memory regions";
    return Status::Internal;
  }
  // One thread, no deadlock: every PE listens before the allgather, connects to every peer (a connection is
  // queued by the kernel, not accepted), serves the connections queued on its own socket, and only then waits
  // for what its peers send, which they send as soon as they serve.
  Exchange x(bs, spec, err);
  GSHMEM_CHECK(x.publish());
  GSHMEM_CHECK(x.checkNamespaces());
  GSHMEM_CHECK(x.connectPeers());
  GSHMEM_CHECK(x.serve());
  GSHMEM_CHECK(x.receiveAndMap(mapped, maps));
  if (isError(bs.barrier())) {
    *err = "bootstrap barrier failed";
    return Status::RemoteError;
  }
  return Status::Ok;
}

}  // namespace gshmem
