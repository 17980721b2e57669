// The unique id and its rendezvous root (see rendezvous.hpp for the contract).
#include "base/rendezvous.hpp"

#include <pthread.h>
#include <sys/random.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <future>
#include <memory>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "base/log.hpp"
#include "base/str_format.hpp"

namespace gshmem {

namespace {

constexpr uint32_t kMagic = 0x55534847;  // "GSHU"
constexpr uint32_t kVersion = 2;          // 1: the launcher-only id of earlier versions
constexpr int64_t kCheckInReadMs = 5000;  ///< a connection that sends no check-in within this is dropped
constexpr int64_t kAnswerGraceMs = 5000;  ///< a rank waits this much past the timeout for the root's answer

/// The id as written into the caller's buffer.
struct IdWire {
  uint32_t magic, version;
  uint64_t nonce;
  SockAddr root;
  int32_t root_pid;
  uint32_t reserved;
};
static_assert(sizeof(IdWire) == kUniqueIdBytes, "the id fits NVSHMEM_UNIQUEID_BYTES");

struct CheckIn {
  uint32_t magic, version;
  uint64_t nonce;
  int32_t rank, nranks;
  SockAddr listen;
  int32_t pid;
  char host[64];
};

struct Answer {
  int32_t ok;
  int32_t reserved;
  SockAddr next;
  char text[320];  ///< the failure, one line, when !ok
};

/// Listeners of the roots alive in this process; a forked child closes its copies (it serves no rendezvous), so a
/// root that has exited leaves no listener behind in the children.
constexpr int kMaxRoots = 16;
std::atomic<int> g_root_fds[kMaxRoots] = {};
std::atomic<bool> g_atfork{false};

void closeRootsInChild() {
  for (auto& f : g_root_fds) {
    const int fd = f.exchange(-1);
    if (fd > 0) close(fd);
  }
}

void sendAnswer(const UniqueFd& c, bool ok, const SockAddr& next, const std::string& text) {
  Answer a{};
  a.ok = ok;
  a.next = next;
  std::snprintf(a.text, sizeof a.text, "%s", text.c_str());
  (void)sendAll(c.get(), &a, sizeof a, Deadline::afterMs(1000));
}

/// The rendezvous root: serves one job, then exits. Owns the listener.
class Root {
 public:
  Root(UniqueFd listener, int slot, uint64_t nonce, long timeout_s)
      : listener_(std::move(listener)), slot_(slot), nonce_(nonce), timeout_s_(timeout_s) {}
  /// Serve the job. @p started is set once the thread is past its start-up and about to wait in accept.
  void run(std::promise<void>* started);

 private:
  bool admit(UniqueFd c, const CheckIn& in);
  void failAll(const std::string& why);
  void answerAll();
  std::string missing() const;

  UniqueFd listener_;
  int slot_;
  uint64_t nonce_;
  long timeout_s_;
  int nranks_ = -1;
  int count_ = 0;
  std::vector<UniqueFd> conns_;
  std::vector<CheckIn> ins_;
  std::string failed_;  ///< set once the rendezvous has failed: every later arrival gets it
};

std::string Root::missing() const {
  std::string s;
  int n = 0;
  for (int r = 0; r < nranks_; ++r)
    if (!conns_[r].valid()) s += (n++ < 16 ? strFormat("%s%d", s.empty() ? "" : ", ", r) : (n == 17 ? ", ..." : ""));
  return s;
}

void Root::failAll(const std::string& why) {
  failed_ = why;
  for (UniqueFd& c : conns_)
    if (c.valid()) sendAnswer(c, false, SockAddr{}, "rendezvous failed: " + why);
  for (UniqueFd& c : conns_) c.reset();
}

/// Whether the loopback addresses offered can serve: only when every rank runs on one host.
void Root::answerAll() {
  for (int r = 0; r < nranks_; ++r) {
    if (!ins_[r].listen.loopback()) continue;
    for (int q = 0; q < nranks_; ++q)
      if (std::strncmp(ins_[q].host, ins_[r].host, sizeof ins_[r].host) != 0)
        return failAll(strFormat("rank %d offers the loopback address %s but ranks run on hosts %.64s and %.64s; set "
                                 "GSHMEM_BOOTSTRAP_IFNAME to an interface the hosts share", r,
                                 ins_[r].listen.str().c_str(), ins_[r].host, ins_[q].host));
  }
  for (int r = 0; r < nranks_; ++r) sendAnswer(conns_[r], true, ins_[(r + 1) % nranks_].listen, "");
  conns_.clear();
}

/// Take one check-in; false when the rendezvous has failed because of it.
bool Root::admit(UniqueFd c, const CheckIn& in) {
  if (in.magic != kMagic || in.version != kVersion || in.nonce != nonce_) {
    sendAnswer(c, false, SockAddr{}, "this id names another job (its rendezvous answers a different nonce); pass "
               "every rank the id of one nvshmemx_get_uniqueid call");
    return true;
  }
  if (in.nranks < 1 || in.rank < 0 || in.rank >= in.nranks) {
    sendAnswer(c, false, SockAddr{}, strFormat("rank %d of %d is out of range", in.rank, in.nranks));
    return true;
  }
  if (nranks_ < 0) {
    nranks_ = in.nranks;
    conns_.resize(nranks_);
    ins_.resize(nranks_);
  }
  if (!failed_.empty()) {
    sendAnswer(c, false, SockAddr{}, "rendezvous failed: " + failed_);
    return false;
  }
  if (in.nranks != nranks_) {
    const std::string why = strFormat("rank %d (pid %d on %.64s) passed nranks %d, but the ranks before it passed %d; "
                                      "pass the same nranks on every rank", in.rank, in.pid, in.host, in.nranks,
                                      nranks_);
    sendAnswer(c, false, SockAddr{}, why);
    failAll(why);
    return false;
  }
  if (conns_[in.rank].valid()) {
    const CheckIn& had = ins_[in.rank];
    const std::string why = strFormat("rank %d was passed by two processes (pid %d on %.64s, then pid %d on %.64s); "
                                      "give every process its own rank", in.rank, had.pid, had.host, in.pid, in.host);
    sendAnswer(c, false, SockAddr{}, why);
    failAll(why);
    return false;
  }
  conns_[in.rank] = std::move(c);
  ins_[in.rank] = in;
  ++count_;
  return true;
}

void Root::run(std::promise<void>* started) {
  Deadline dl = Deadline::never();  // no bound before the first check-in: the program decides when ranks start
  started->set_value();
  for (;;) {
    UniqueFd c;
    std::string err;
    const Status s = socketAccept(listener_.get(), dl, &c, &err);
    if (s == Status::Timeout) {
      if (failed_.empty() && count_ < nranks_)
        failAll(strFormat("rank(s) %s of %d never checked in within GSHMEM_TIMEOUT (%ld s) of the first; start every "
                          "rank with the same id, or raise GSHMEM_TIMEOUT", missing().c_str(), nranks_, timeout_s_));
      break;
    }
    if (isError(s)) break;
    CheckIn in{};
    if (isError(recvAll(c.get(), &in, sizeof in, Deadline::afterMs(kCheckInReadMs)))) continue;
    // Only a check-in that proves the job's secret starts the clock: a stranger's connection does not.
    const bool ours = in.magic == kMagic && in.version == kVersion && in.nonce == nonce_;
    if (ours && dl.isNever()) dl = Deadline(timeout_s_);
    if (!admit(std::move(c), in) && dl.isNever()) break;  // failed, and no bound to linger for
    if (failed_.empty() && count_ == nranks_) {
      answerAll();
      if (failed_.empty()) break;
    }
  }
  g_root_fds[slot_].store(-1);
}

/// The job's secret: 64 bits from the kernel's random source (getrandom), which every connection of the wire-up
/// (check-ins here, the ring's hellos) must present. std::random_device only where getrandom is unavailable.
uint64_t jobSecret() {
  uint64_t v = 0;
  if (getrandom(&v, sizeof v, 0) == static_cast<ssize_t>(sizeof v) && v != 0) return v;
  std::random_device rd;
  return (uint64_t(rd()) << 32 | rd()) ^ uint64_t(monotonicNs()) ^ (uint64_t(getpid()) << 20);
}

}  // namespace

Status uniqueIdMake(long timeout_s, const std::string& ifname, void* id, std::size_t bytes, std::string* err) {
  if (id == nullptr || bytes < kUniqueIdBytes) {
    *err = strFormat("the id buffer holds %zu bytes; gshmem needs %zu (pass an nvshmemx_uniqueid_t)", bytes,
                     kUniqueIdBytes);
    return Status::InvalidArgument;
  }
  SockAddr at, bound;
  UniqueFd listener;
  GSHMEM_CHECK(localAddressChoose(ifname, &at, err));
  GSHMEM_CHECK(socketListen(at, &listener, &bound, err));
  int slot = -1;
  for (int i = 0; i < kMaxRoots && slot < 0; ++i) {
    int expect = 0;
    if (g_root_fds[i].compare_exchange_strong(expect, listener.get())) slot = i;
    expect = -1;
    if (slot < 0 && g_root_fds[i].compare_exchange_strong(expect, listener.get())) slot = i;
  }
  if (slot < 0) {
    *err = strFormat("%d unique ids are already waiting for their ranks in this process; start those jobs first",
                     kMaxRoots);
    return Status::NoResource;
  }
  if (!g_atfork.exchange(true)) pthread_atfork(nullptr, nullptr, closeRootsInChild);
  IdWire w{};
  w.magic = kMagic;
  w.version = kVersion;
  w.nonce = jobSecret();
  w.root = bound;
  w.root_pid = getpid();
  std::memset(id, 0, bytes);
  std::memcpy(id, &w, sizeof w);
  auto root = std::make_shared<Root>(std::move(listener), slot, w.nonce, timeout_s);
  // Return only once the thread idles in accept: a program that forks its PEs right after this call then forks while
  // the thread holds no lock (of the allocator, of a sanitizer's thread registry) that a child would find taken.
  auto started = std::make_shared<std::promise<void>>();  // the thread's: it may still be in set_value when we return
  std::future<void> up = started->get_future();
  std::thread([root, started] {
    pthread_setname_np(pthread_self(), "gshmem-rendezv");
    root->run(started.get());
  }).detach();
  up.wait();
  return Status::Ok;
}

Status uniqueIdRead(const void* id, std::size_t bytes, UniqueIdInfo* out, std::string* err) {
  IdWire w{};
  if (id != nullptr && bytes >= sizeof w) std::memcpy(&w, id, sizeof w);
  if (w.magic != kMagic || w.version != kVersion || w.root.family == 0) {
    *err = "the unique id was not made by nvshmemx_get_uniqueid (gshmemx_uniqueid_make) of this gshmem version; "
           "make it on one process and pass it to every process";
    return Status::InvalidArgument;
  }
  out->nonce = w.nonce;
  out->root = w.root;
  return Status::Ok;
}

Status rendezvousCheckIn(const UniqueIdInfo& id, int rank, int nranks, const SockAddr& mine, long timeout_s,
                         SockAddr* next, std::string* err) {
  const Deadline dl(timeout_s);
  UniqueFd c;
  if (isError(socketConnect(id.root, dl, &c, err))) {
    *err = strFormat("cannot reach the rendezvous of the unique id (%s); the process that made the id must still run, "
                     "and this host must reach its address (GSHMEM_BOOTSTRAP_IFNAME on that process chooses it)",
                     err->c_str());
    return Status::RemoteError;
  }
  CheckIn in{};
  in.magic = kMagic;
  in.version = kVersion;
  in.nonce = id.nonce;
  in.rank = rank;
  in.nranks = nranks;
  in.listen = mine;
  in.pid = getpid();
  gethostname(in.host, sizeof in.host - 1);
  Answer a{};
  Status s = sendAll(c.get(), &in, sizeof in, dl);
  if (!isError(s)) s = recvAll(c.get(), &a, sizeof a, dl.later(kAnswerGraceMs));
  if (isError(s)) {
    *err = s == Status::Timeout
               ? strFormat("the rendezvous at %s did not answer within GSHMEM_TIMEOUT (%ld s)", id.root.str().c_str(),
                           timeout_s)
               : strFormat("the rendezvous at %s closed the connection (the process that made the id has ended, or "
                           "its rendezvous was over: start every rank of the job with one new id)",
                           id.root.str().c_str());
    return s == Status::Timeout ? Status::Timeout : Status::RemoteError;
  }
  a.text[sizeof a.text - 1] = '\0';
  if (!a.ok) {
    *err = a.text;
    return Status::InvalidArgument;
  }
  *next = a.next;
  return Status::Ok;
}

}  // namespace gshmem
