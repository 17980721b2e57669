// Socket bootstrap: the PEs of a job started from a unique id, with no launcher and no MPI.
//
// Shape. After the rendezvous (rendezvous.hpp) every PE knows the listening address of the next PE; each connects to
// its next and accepts its previous, proving the job's nonce and its rank, so the PEs form a ring of TCP
// connections. allGather passes blocks around the ring (size-1 steps); barrier is an allGather of one byte. Node
// ids are dense indices of the host names (gethostname), in rank order of first appearance.
//
// One receiver thread per PE reads both ring connections all the time, so a send never waits for the other side's
// collective call, and a connection that closes is seen at once. Messages are framed: data (from the previous PE
// only), bye (finalize), leave (the process exits without finalize) and abort.
//
// Contract on failures, the job having no launcher to end it:
//  - a PE whose connection closes without bye or leave has died (killed, crashed, _exit): each neighbour reports
//    it through the peer-lost handler (the core prints "lost PE n" and calls abortJob);
//  - abortJob sends an abort message carrying the PE's line both ways around the ring; every PE that gets it prints
//    one line naming the PE that ended the job and its cause, passes it on, and exits with the same status. A PE
//    that dies therefore ends every PE at once; a host that vanishes is found by TCP keepalive within about
//    GSHMEM_TIMEOUT. A stopped PE (SIGSTOP) passes nothing on: PEs cut off by two stopped PEs are not reached;
//  - every wait for a message is bounded by GSHMEM_TIMEOUT, then fails naming the PE the ring waited on.
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "base/bootstrap.hpp"
#include "base/log.hpp"
#include "base/rendezvous.hpp"
#include "base/str_format.hpp"

namespace gshmem {

namespace {

enum FrameType : uint32_t { kData = 1, kBye = 2, kLeave = 3, kAbort = 4 };
struct Frame {
  uint32_t type, len;
  int32_t from, code;
};
struct Hello {
  uint32_t magic;
  int32_t rank;
  uint64_t nonce;
};
constexpr uint32_t kHelloMagic = 0x52534847;  // "GSHR"
constexpr uint32_t kMaxFrame = 1u << 30;
enum Side : int { kPrev = 0, kNext = 1 };

/// Lock @p m within @p ms by polling try_lock (the clock wait of std::timed_mutex is invisible to ThreadSanitizer,
/// which then reports its unlock); @p ms < 0 waits as long as it takes.
bool lockWithin(std::mutex& m, int64_t ms) {
  if (ms < 0) {
    m.lock();
    return true;
  }
  const Deadline d = Deadline::afterMs(ms);
  while (!m.try_lock()) {
    if (d.expired()) return false;
    usleep(1000);
  }
  return true;
}

class SocketBootstrap final : public Bootstrap {
 public:
  ~SocketBootstrap() override { rxStop(); }  // no message: a process exiting without finalize has sent leave

  Status init(const UniqueIdInfo& id, const SocketBootstrapArgs& a, std::string* err);

  std::string describe() const override { return "sockets (unique id), a TCP ring from " + mine_.str(); }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const std::vector<int>& nodeOf() const override { return node_of_; }

  Status allGather(const void* in, void* out, std::size_t bytes) override;
  Status barrier() override {
    char one = 0;
    std::vector<char> all(size_);
    return allGather(&one, all.data(), 1);
  }
  Status finalize() override;
  void leave(int timeout_s) override;
  [[noreturn]] void abortJob(int code, const char* why) override;

 private:
  int peerOf(int side) const { return side == kPrev ? (rank_ + size_ - 1) % size_ : (rank_ + 1) % size_; }
  Status ringConnect(const UniqueFd& listener, const SockAddr& next, std::string* err);
  Status nodesLearn(std::string* err);
  /// @p lock_ms < 0: wait for the side's send lock as long as it takes.
  Status sendFrame(int side, uint32_t type, const void* p, uint32_t len, int from, int code, int64_t lock_ms);
  Status recvData(void* out, std::size_t n);
  void receive();
  bool readFrame(int side);
  void onClosed(int side);
  [[noreturn]] void onAbort(int side, const Frame& f, const std::string& why);
  void rxStop();

  int rank_ = 0, size_ = 1;
  long timeout_s_ = 0;
  uint64_t nonce_ = 0;
  SockAddr mine_;  ///< where this PE listened for its previous PE
  std::vector<int> node_of_;
  UniqueFd sock_[2];
  std::mutex send_mu_[2];
  UniqueFd wake_[2];  ///< pipe: a byte on wake_[1] stops the receiver
  std::thread rx_;
  std::mutex mu_;  ///< guards what the receiver fills in below
  std::condition_variable cv_;
  std::deque<std::vector<char>> data_;
  bool bye_[2] = {}, left_[2] = {}, closed_[2] = {};
  std::atomic<bool> stopping_{false}, aborting_{false};
};

Status SocketBootstrap::init(const UniqueIdInfo& id, const SocketBootstrapArgs& a, std::string* err) {
  rank_ = a.rank;
  size_ = a.nranks;
  timeout_s_ = a.timeout_s;
  nonce_ = id.nonce;
  SockAddr at, mine, next;
  UniqueFd listener;
  GSHMEM_CHECK(localAddressChoose(a.ifname, &at, err));
  GSHMEM_CHECK(socketListen(at, &listener, &mine, err));
  mine_ = mine;
  GSHMEM_CHECK(rendezvousCheckIn(id, rank_, size_, mine, timeout_s_, &next, err));
  if (size_ > 1) GSHMEM_CHECK(ringConnect(listener, next, err));
  listener.reset();
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) {
    *err = strFormat("cannot make a pipe: %s", strerror(errno));
    return Status::SystemError;
  }
  wake_[0].reset(p[0]);
  wake_[1].reset(p[1]);
  if (size_ > 1)
    rx_ = std::thread([this] {
      pthread_setname_np(pthread_self(), "gshmem-bootstrap");
      receive();
    });
  return nodesLearn(err);
}

Status SocketBootstrap::ringConnect(const UniqueFd& listener, const SockAddr& next, std::string* err) {
  const Deadline dl(timeout_s_);
  const Hello mine{kHelloMagic, rank_, nonce_};
  if (isError(socketConnect(next, dl, &sock_[kNext], err)) || isError(sendAll(sock_[kNext].get(), &mine, sizeof mine,
                                                                              dl))) {
    *err = strFormat("cannot connect to PE %d, the next of the bootstrap ring, at %s (%s); set GSHMEM_BOOTSTRAP_IFNAME "
                     "to an interface every host reaches", peerOf(kNext), next.str().c_str(), err->c_str());
    return Status::RemoteError;
  }
  // Connections that do not prove this job and the previous rank (a stray client) are dropped.
  while (!sock_[kPrev].valid()) {
    UniqueFd c;
    const Status s = socketAccept(listener.get(), dl, &c, err);
    if (s == Status::Timeout) {
      *err = strFormat("PE %d, the previous of the bootstrap ring, did not connect within GSHMEM_TIMEOUT (%ld s); it "
                       "has ended or cannot reach this host (GSHMEM_BOOTSTRAP_IFNAME chooses the address)",
                       peerOf(kPrev), timeout_s_);
      return Status::Timeout;
    }
    GSHMEM_CHECK(s);
    Hello h{};
    if (isError(recvAll(c.get(), &h, sizeof h, Deadline::afterMs(5000)))) continue;
    if (h.magic == kHelloMagic && h.nonce == nonce_ && h.rank == peerOf(kPrev)) sock_[kPrev] = std::move(c);
  }
  socketKeepalive(sock_[kPrev].get(), timeout_s_);
  socketKeepalive(sock_[kNext].get(), timeout_s_);
  return Status::Ok;
}

Status SocketBootstrap::nodesLearn(std::string* err) {
  struct Host {
    char name[64];
  } me{};
  gethostname(me.name, sizeof me.name - 1);
  std::vector<Host> all(size_);
  if (isError(allGather(&me, all.data(), sizeof me))) {
    *err = "the bootstrap allgather of host names failed";
    return Status::RemoteError;
  }
  std::vector<std::string> keys(size_);
  for (int r = 0; r < size_; ++r) keys[r].assign(all[r].name, strnlen(all[r].name, sizeof me.name));
  node_of_ = denseIds(keys);
  return Status::Ok;
}

/// One frame, header and payload in one write, under the side's send lock (the receiver's abort path sends too).
Status SocketBootstrap::sendFrame(int side, uint32_t type, const void* p, uint32_t len, int from, int code,
                                  int64_t lock_ms) {
  if (!sock_[side].valid()) return Status::RemoteError;
  if (!lockWithin(send_mu_[side], lock_ms)) return Status::Timeout;
  std::lock_guard<std::mutex> lk(send_mu_[side], std::adopt_lock);
  std::vector<char> buf(sizeof(Frame) + len);
  const Frame f{type, len, from, code};
  std::memcpy(buf.data(), &f, sizeof f);
  if (len) std::memcpy(buf.data() + sizeof f, p, len);
  const Deadline dl = type == kAbort || type == kLeave ? Deadline::afterMs(1000) : Deadline(timeout_s_);
  return sendAll(sock_[side].get(), buf.data(), buf.size(), dl);
}

Status SocketBootstrap::recvData(void* out, std::size_t n) {
  const Deadline dl(timeout_s_);
  std::unique_lock<std::mutex> lk(mu_);
  while (data_.empty()) {
    if (closed_[kPrev]) {
      GSHMEM_LOG_ERROR(INIT, "bootstrap: PE %d, the previous of the ring, %s", peerOf(kPrev),
                       left_[kPrev] ? "has exited without shmem_finalize" : "has finalized or closed its connection");
      return Status::RemoteError;
    }
    const int left = dl.pollMs();
    if (left == 0) {
      GSHMEM_LOG_ERROR(INIT, "bootstrap: nothing from PE %d, the previous of the ring, within GSHMEM_TIMEOUT (%ld s): "
                       "some PE has not reached this collective call; call it on every PE, or raise GSHMEM_TIMEOUT",
                       peerOf(kPrev), timeout_s_);
      return Status::Timeout;
    }
    cv_.wait_for(lk, std::chrono::milliseconds(left < 0 ? 1000 : left));
  }
  std::vector<char> m = std::move(data_.front());
  data_.pop_front();
  if (m.size() != n) {
    GSHMEM_LOG_ERROR(INIT, "bootstrap: PE %d sent %zu bytes where this PE expects %zu: the PEs are in different "
                     "collective calls", peerOf(kPrev), m.size(), n);
    return Status::Internal;
  }
  std::memcpy(out, m.data(), n);
  return Status::Ok;
}

Status SocketBootstrap::allGather(const void* in, void* out, std::size_t bytes) {
  char* o = static_cast<char*>(out);
  std::memcpy(o + std::size_t(rank_) * bytes, in, bytes);
  if (bytes > kMaxFrame) return Status::InvalidArgument;
  for (int step = 0; step < size_ - 1; ++step) {
    const int send_idx = (rank_ - step + size_) % size_, recv_idx = (rank_ - step - 1 + size_) % size_;
    const Status s = sendFrame(kNext, kData, o + std::size_t(send_idx) * bytes, static_cast<uint32_t>(bytes), rank_,
                               0, -1);
    if (isError(s)) {
      GSHMEM_LOG_ERROR(INIT, "bootstrap: cannot send to PE %d, the next of the ring (%s)", peerOf(kNext),
                       s == Status::Timeout ? "it reads nothing: stopped or hung" : "its connection is closed");
      return s;
    }
    GSHMEM_CHECK(recvData(o + std::size_t(recv_idx) * bytes, bytes));
  }
  return Status::Ok;
}

Status SocketBootstrap::finalize() {
  if (size_ > 1) {
    for (int side : {kPrev, kNext}) (void)sendFrame(side, kBye, nullptr, 0, rank_, 0, 1000);
    const Deadline dl(timeout_s_);
    std::unique_lock<std::mutex> lk(mu_);
    auto done = [this](int s) { return bye_[s] || left_[s] || closed_[s]; };
    for (int left; !(done(kPrev) && done(kNext)) && (left = dl.pollMs()) != 0;)
      cv_.wait_for(lk, std::chrono::milliseconds(left < 0 ? 1000 : left));
    if (!(done(kPrev) && done(kNext)))
      GSHMEM_LOG_WARN(INIT, "bootstrap: PE %d did not finalize within GSHMEM_TIMEOUT; closing anyway",
                      done(kPrev) ? peerOf(kNext) : peerOf(kPrev));
  }
  rxStop();
  sock_[kPrev].reset();
  sock_[kNext].reset();
  return Status::Ok;
}

void SocketBootstrap::leave(int) {
  leaving_.store(true, std::memory_order_release);
  for (int side : {kPrev, kNext}) (void)sendFrame(side, kLeave, nullptr, 0, rank_, 0, 100);
}

void SocketBootstrap::abortJob(int code, const char* why) {
  aborting_.store(true);
  leaving_.store(true, std::memory_order_release);
  const uint32_t len = why ? static_cast<uint32_t>(strnlen(why, 1024)) : 0;
  for (int side : {kPrev, kNext}) (void)sendFrame(side, kAbort, why, len, rank_, code, 500);
  fflush(stdout);
  fflush(stderr);
  _exit(code);
}

void SocketBootstrap::receive() {
  while (!stopping_.load()) {
    pollfd p[3] = {{wake_[0].get(), POLLIN, 0}, {-1, POLLIN, 0}, {-1, POLLIN, 0}};
    {
      std::lock_guard<std::mutex> lk(mu_);
      for (int s : {kPrev, kNext})
        if (!closed_[s]) p[1 + s].fd = sock_[s].get();
    }
    if (poll(p, 3, -1) < 0) continue;  // EINTR
    if (p[0].revents) break;
    for (int s : {kPrev, kNext})
      if (p[1 + s].fd >= 0 && p[1 + s].revents && !readFrame(s)) onClosed(s);
  }
}

/// Read one frame from @p side; false when the connection is closed, reset, or stalls mid-frame.
bool SocketBootstrap::readFrame(int side) {
  Frame f{};
  const int fd = sock_[side].get();
  if (isError(recvAll(fd, &f, sizeof f, Deadline(timeout_s_))) || f.len > kMaxFrame) return false;
  std::vector<char> payload(f.len);
  if (f.len && isError(recvAll(fd, payload.data(), f.len, Deadline(timeout_s_)))) return false;
  if (f.type == kAbort) onAbort(side, f, std::string(payload.begin(), payload.end()));
  std::lock_guard<std::mutex> lk(mu_);
  if (f.type == kData) data_.push_back(std::move(payload));
  if (f.type == kBye) bye_[side] = true;
  if (f.type == kLeave) left_[side] = true;
  cv_.notify_all();
  return true;
}

void SocketBootstrap::onClosed(int side) {
  bool expected;
  {
    std::lock_guard<std::mutex> lk(mu_);
    closed_[side] = true;
    expected = bye_[side] || left_[side] || stopping_.load() || aborting_.load() || leaving();
    cv_.notify_all();
  }
  if (expected) return;
  const int pe = peerOf(side);
  const char* why = "its bootstrap connection closed without shmem_finalize: the process died or was killed";
  if (PeerLostHandler h = peerLostHandler()) return h(pe, why);
  const std::string line = strFormat("gshmem: PE %d: lost PE %d (%s): ending the job", rank_, pe, why);
  fprintf(stderr, "%s\n", line.c_str());
  abortJob(1, line.c_str());
}

void SocketBootstrap::onAbort(int side, const Frame& f, const std::string& why) {
  if (!aborting_.exchange(true)) {
    leaving_.store(true, std::memory_order_release);
    if (!why.empty()) {
      const char* cause = why.compare(0, 8, "gshmem: ") == 0 ? why.c_str() + 8 : why.c_str();
      fprintf(stderr, "gshmem: PE %d: job ended by PE %d with status %d: %s\n", rank_, f.from, f.code, cause);
    }
    (void)sendFrame(side == kPrev ? kNext : kPrev, kAbort, why.data(), static_cast<uint32_t>(why.size()), f.from,
                    f.code, 500);
  }
  fflush(stdout);
  fflush(stderr);
  _exit(f.code ? f.code : 1);
}

void SocketBootstrap::rxStop() {
  stopping_.store(true);
  if (wake_[1].valid()) (void)!write(wake_[1].get(), "x", 1);
  if (rx_.joinable() && rx_.get_id() != std::this_thread::get_id()) rx_.join();
}

}  // namespace

Status socketBootstrapCreate(const void* id, std::size_t bytes, const SocketBootstrapArgs& args,
                             std::unique_ptr<Bootstrap>* out, std::string* err) {
  if (args.nranks < 1 || args.rank < 0 || args.rank >= args.nranks) {
    *err = strFormat("rank %d of %d is out of range; pass a rank from 0 to nranks-1 and nranks >= 1", args.rank,
                     args.nranks);
    return Status::InvalidArgument;
  }
  UniqueIdInfo info;
  GSHMEM_CHECK(uniqueIdRead(id, bytes, &info, err));
  auto bs = std::make_unique<SocketBootstrap>();
  GSHMEM_CHECK(bs->init(info, args, err));
  *out = std::move(bs);
  return Status::Ok;
}

}  // namespace gshmem
