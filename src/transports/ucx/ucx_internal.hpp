// UcxTransport internals shared by ucx_transport.cpp (setup, RMA, AMO, quiet, teardown), ucx_link.cpp (cards and
// endpoints made on first use) and ucx_am.cpp (the active-message path: small-put aggregation, completion probes,
// signals). Not a public header.
#pragma once
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <ucp/api/ucp.h>

#include "base/deadline.hpp"
#include "base/log.hpp"
#include "transports/transport.hpp"

namespace gshmem {
namespace ucxt {

/// Limit UCX_NET_DEVICES to the job's interface and the RDMA ports unless the user set it (ucx_net.cpp).
void netDevicesRestrict(ucp_config_t* cfg);

constexpr int kMaxRegions = 4;
constexpr int kThreadMultiple = 3;  // SHMEM_THREAD_MULTIPLE

inline uint64_t nowNs() { return static_cast<uint64_t>(monotonicNs()); }

inline uint64_t coarseNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

// Fixed header of the per-PE card exchanged at connect; worker address and packed rkeys follow it.
struct CardHeader {
  uint32_t addr_len;
  uint32_t nregions;
  uint64_t base[kMaxRegions];
  uint64_t size[kMaxRegions];
  uint32_t rkey_len[kMaxRegions];
};
static_assert(sizeof(CardHeader) == 8 + kMaxRegions * 20, "CardHeader is exchanged as raw bytes");

class UcxTransport;

struct ErrArg {
  UcxTransport* t;
  int pe;
};

/// Bytes of a peer's batch of small puts and signals (ucx_am.cpp), allocated at the first batched operation to that
/// peer: one eager message over TCP (UCX's default segment is 8 KiB).
constexpr std::size_t kBatchBytes = 8192;
constexpr int kAmoSlots = 64;  ///< atomics as active messages in flight to one peer (one per waiting thread)
enum AmoMode : int { kAmoUnknown = 0, kAmoNative = 1, kAmoAm = 2 };

struct Peer {
  /// Set (release) once `ep`, `base`, `rkey` and `err` are final: the endpoint is made at the first operation that
  /// needs this peer (UcxTransport::link), never changed after, and closed only at teardown.
  std::atomic<bool> linked{false};
  ucp_ep_h ep = nullptr;
  uint64_t base[kMaxRegions] = {};
  ucp_rkey_h rkey[kMaxRegions] = {};
  std::atomic<uint64_t> posted{0};  ///< operations posted to this peer that need a flush to complete
  std::atomic<uint64_t> done{0};    ///< `posted` value covered by the last completed flush
  // Watchdog's background flush; only touched under UcxTransport::bg_lock_.
  void* bg_req = nullptr;
  uint64_t bg_target = 0;
  uint64_t bg_start = 0;
  ErrArg err{};
  // Active-message path (ucx_am.cpp). `batch` holds small puts not sent yet: an AmHead, then records. It is only
  // used when the worker is single-threaded, so only the application thread touches it and probe_seq.
  std::unique_ptr<uint64_t[]> batch;
  uint32_t batch_len = 0;          ///< bytes in `batch` (0: empty; else starts with the AmHead)
  bool batch_puts = false;         ///< `batch` holds a put (quiet must complete it), not only signals
  uint64_t probe_seq = 0;          ///< last completion probe sent to this peer
  std::atomic<uint64_t> acked{0};  ///< last probe this peer has acknowledged
  uint64_t ack_out[2] = {};        ///< our acknowledgement to this peer {our PE, seq}: the reply's send buffer
  // Atomics as active messages (ucx_am.cpp): how atomics reach this peer, our requests' tokens and the slots their
  // replies land in (token % kAmoSlots; a requester waits for its own token), and our replies' send buffers.
  std::atomic<int> amo_mode{kAmoUnknown};
  std::atomic<uint64_t> amo_seq{0};
  struct AmoSlot {
    std::atomic<uint64_t> token{0};
    uint64_t value = 0;
  } amo_in[kAmoSlots];
  uint64_t amo_out[kAmoSlots][3] = {};  ///< {our PE, token, old value}
};

inline void raiseTo(std::atomic<uint64_t>& a, uint64_t v) {
  uint64_t cur = a.load(std::memory_order_relaxed);
  while (cur < v && !a.compare_exchange_weak(cur, v, std::memory_order_release, std::memory_order_relaxed)) {
  }
}

class UcxTransport final : public Transport {
 public:
  explicit UcxTransport(const TransportConfig& cfg) : cfg_(cfg) {}
  ~UcxTransport() override { teardown(false); }
  const char* name() const override { return "ucx"; }

  Status connect(Bootstrap& bs, const std::vector<LocalRegion>& regions, std::vector<PeerReach>* out) override;
  void disconnect() override { teardown(true); }

  Status putNbi(const RemoteAddr& dst, const void* src, std::size_t n) override;
  Status get(const RemoteAddr& src, void* dst, std::size_t n) override;
  Status getNbi(const RemoteAddr& src, void* dst, std::size_t n) override;
  Status amo(const RemoteAddr& dst, AmoOp op, unsigned size, uint64_t value, uint64_t cond,
             uint64_t* result) override;
  Status signalNbi(const RemoteAddr& dst, uint64_t value) override;
  Status signalAddNbi(const RemoteAddr& dst, uint64_t value) override { return signalByAm(dst, value, true); }
  Status signalLazy(const RemoteAddr& dst, uint64_t value) override;
  Status putSignal(const RemoteAddr& dst, const void* src, std::size_t n, const RemoteAddr& sig, uint64_t value,
                   bool add) override;
  Status fence() override;
  Status quiet() override;
  void progress() override {
    if (!dirty_.empty()) (void)flushBatches();
    ucp_worker_progress(worker_);
    uint64_t now = coarseNs();
    if (watchDue(now)) watchdog(now);
  }

  std::size_t setAggregate(std::size_t bytes) override;
  bool canWaitInput() const override { return efd_ >= 0; }
  void waitInput(int timeout_ms) override;  // ucx_wake.cpp

  /// Endpoint error callback: one line naming the lost PE, then the job ends (unless we are tearing down).
  void onPeerError(int pe, ucs_status_t status) {
    if (closing_.load() || bs_->leaving()) return;  // tearing down, or this PE is exiting too
    lost(pe, ucs_status_string(status));
  }

  // Active-message receive side (ucx_am.cpp), called from ucp_worker_progress on whichever thread progresses.
  // `reply_ep`: UCX's endpoint back to the sender (the request was sent with UCP_AM_SEND_FLAG_REPLY), used when this
  // PE has no endpoint of its own to it: answering never makes one, as the callback runs inside the worker's lock.
  void onBatch(const void* data, std::size_t length, ucp_ep_h reply_ep);
  void onAck(const void* data, std::size_t length);
  void onAmo(const void* data, std::size_t length, ucp_ep_h reply_ep);
  void onAmoReply(const void* data, std::size_t length);

 private:
  static constexpr uint64_t kWatchPeriodNs = 1000000;  // 1 ms

  /// Report a lost peer to the core (TransportConfig::on_peer_lost), which normally ends the job. When it returns,
  /// operations on the peer's endpoint fail and return their error. Silent once teardown has begun: a peer's closed
  /// connection is no fault then.
  void lost(int pe, const char* why) {
    if (!closing_.load() && cfg_.on_peer_lost) cfg_.on_peer_lost(pe, why);
  }

  Status applyConfig(ucp_config_t* cfg);
  Status createWorker();                                     ///< UCP context and worker (connect, step 1)
  Status mapRegions(const std::vector<LocalRegion>& regions);  ///< ucp_mem_map of every region
  Status connectPeer(int pe, const char* card);              ///< endpoint and rkeys from `pe`'s card
  /// Make `pe`'s endpoint unless it exists: the only branch of an operation's hot path. The first use takes
  /// link_mu_ (never inside a worker callback: the worker's lock is held there, and ucp_ep_create takes it).
  Status link(int pe) {
    const Peer* p = peers_[pe].load(std::memory_order_acquire);
    return p && p->linked.load(std::memory_order_acquire) ? Status::Ok : linkSlow(pe);
  }
  Status linkSlow(int pe) __attribute__((noinline, cold));
  /// The peers with an endpoint, in the order they were made: quiet, fence, the watchdog and teardown visit only
  /// these. A snapshot; safe against a concurrent link() (entries are written once, before the count is raised).
  struct LinkedRange {
    const int* b;
    const int* e;
    const int* begin() const { return b; }
    const int* end() const { return e; }
  };
  LinkedRange linked() const {
    const int n = nlinked_.load(std::memory_order_acquire);
    return {linked_.get(), linked_.get() + n};
  }
  Status exchangeCards(const std::vector<LocalRegion>& regions, std::vector<char>* all, std::size_t* stride);
  Status waitRequest(void* req, int pe, const char* what);
  /// Progress the worker until done() holds. Bounded by TransportConfig::timeout_s: then `pe` is reported lost
  /// (naming `what`) and, if the core lets the call return, Status::Timeout. After yield_after_ polls it yields the CPU at every
  /// poll, as the core's wait loops do: where PEs outnumber cores, the PE that must answer (a get or an AMO over
  /// TCP is served by the target's progress) may be waiting for this core.
  template <typename Done>
  Status progressUntil(int pe, const char* what, Done&& done) {
    uint64_t start = 0;
    for (unsigned long i = 0; !done(); ++i) {
      ucp_worker_progress(worker_);
      if (i >= yield_after_) sched_yield();
      if ((i & 1023) != 1023 || !timeout_ns_) continue;
      const uint64_t now = nowNs();
      if (!start) {
        start = now;
      } else if (now - start > timeout_ns_) {
        char why[128];
        snprintf(why, sizeof why, "no progress for %ld s: %s", timeout_s_, what);
        lost(pe, why);
        return Status::Timeout;
      }
    }
    return Status::Ok;
  }
  Status flushPeers(const char* what);
  /// Up to kBatch outstanding completions, waited for together: a UCP request, or (req null) the acknowledgement
  /// `seq` of a completion probe. Each one that completes raises its peer's `done` to the `posted` value it covers
  /// (`target`); the first failure stays in `result`. `sink` receives the probes' 8-byte gets, one per entry.
  struct Completions {
    static constexpr int kBatch = 16;
    int pe[kBatch];
    void* req[kBatch];
    uint64_t seq[kBatch], target[kBatch], sink[kBatch];
    int n = 0;
    Status result = Status::Ok;
  };
  /// Add one completion; waits for the whole batch when it is full.
  void completionAdd(Completions& c, int pe, void* req, uint64_t seq, uint64_t target, const char* what);
  /// Wait for every completion added since the last drain.
  void completionsDrain(Completions& c, const char* what);
  /// Send @p src.pe's pending batch, then post a get of @p n bytes; *req is its UCP request (nullptr: complete).
  Status postGet(const RemoteAddr& src, void* dst, std::size_t n, void** req);
  void watchdog(uint64_t now);
  /// True when the last watchdog pass is more than kWatchPeriodNs before `now` (another thread may have run one
  /// after `now` was read: that is not due, not a wrap-around).
  bool watchDue(uint64_t now) const {
    uint64_t last = last_watch_.load(std::memory_order_relaxed);
    return now > last && now - last > kWatchPeriodNs;
  }
  // Active-message path (ucx_am.cpp).
  Status amSetup(const std::vector<LocalRegion>& regions);
  bool batching() const { return agg_max_ != 0; }
  /// Append one record to `pe`'s batch (sending the batch first when full); `put`: a put that quiet must
  /// complete, else a signal (its arrival is its completion).
  Status batchPut(int pe, const RemoteAddr& dst, const void* src, std::size_t n, uint32_t op = 0, bool put = true);
  Status sendBatch(int pe, bool want_ack);
  Status flushBatches();
  /// Send `pe`'s pending batch and fence, so an operation posted next (a get, an AMO) is ordered after it.
  Status flushBatchTo(int pe) {
    if (peer(pe).batch_len == 0) return Status::Ok;
    Status s = sendBatch(pe, false);
    if (s == Status::Ok && ucp_worker_fence(worker_) != UCS_OK) s = Status::Internal;
    return s;
  }
  Status waitAck(int pe, uint64_t seq);
  Status quietByProbe();
  Status signalByAm(const RemoteAddr& dst, uint64_t value, bool add = false);
  /// An atomic as an active message: the target applies it with a CPU atomic and replies with the old value, which
  /// this call waits for (every op, fetching or not, is complete on return).
  Status amoByAm(const RemoteAddr& dst, AmoOp op, unsigned size, uint64_t value, uint64_t cond, uint64_t* result);
  /// The UCP atomic; *native_missing when UCP has no protocol for it to this peer (nothing was done, nothing logged).
  Status amoNative(const RemoteAddr& dst, AmoOp op, unsigned size, uint64_t value, uint64_t cond, uint64_t* result,
                   bool must_wait, bool* native_missing);
  Status amPutSignal(const RemoteAddr& dst, const void* src, std::size_t n, const RemoteAddr& sig, uint64_t value,
                     uint32_t op);

  bool wakeWanted() const;  ///< ask UCP for UCP_FEATURE_WAKEUP (ucx_wake.cpp)
  void wakeSetup();         ///< after the worker exists: efd_ when TransportConfig::wait_block allows it
  void startProgressThread();
  void stopProgressThread();
  void teardown(bool collective);

  /// `pe`'s entry, made on first use: by an operation to `pe`, or by a message from `pe` that needs an answer. A
  /// peer the program never addresses costs one pointer here. Lock-free (a worker callback may make one).
  Peer& peer(int pe) {
    Peer* p = peers_[pe].load(std::memory_order_acquire);
    return p ? *p : makePeer(pe);
  }
  Peer& makePeer(int pe) __attribute__((noinline, cold));
  void freePeers();
  static void markPosted(Peer& p) { p.posted.fetch_add(1, std::memory_order_release); }

  TransportConfig cfg_;
  Bootstrap* bs_ = nullptr;
  int me_ = -1;
  int npes_ = 0;
  int nregions_ = 0;
  bool multi_ = false;
  uint64_t timeout_ns_ = 0;  // 0: wait forever
  long timeout_s_ = 0;
  ucp_context_h ctx_ = nullptr;
  ucp_worker_h worker_ = nullptr;
  ucp_mem_h memh_[kMaxRegions] = {};
  std::unique_ptr<std::atomic<Peer*>[]> peers_;  // npes_ slots, null until peer() makes the entry
  int amo_default_ = kAmoUnknown;  // a new entry's amo_mode (TransportConfig::amo)
  std::string why_[2];               // PeerReach::why of a peer on this node (0) or another (1)
  std::vector<char> cards_;          // every PE's card (worker address and packed rkeys), kept for link()
  std::size_t card_stride_ = 0;      // bytes per card in cards_
  std::unique_ptr<int[]> linked_;    // linked(): npes_ entries, the first nlinked_ written (under link_mu_)
  std::atomic<int> nlinked_{0};
  std::mutex link_mu_;               // serializes linkSlow
  std::atomic<bool> closing_{false};
  std::atomic<uint64_t> last_watch_{0};
  std::atomic_flag bg_lock_ = ATOMIC_FLAG_INIT;
  uint64_t junk_[8] = {};  // reply buffer of Set (a swap whose old value nobody reads)
  unsigned long yield_after_ = 2048;  // polls before progressUntil yields at each poll (TransportConfig::wait_spins)
  std::size_t agg_max_ = 0;        // puts up to this size are batched (0: never; TransportConfig::aggregate)
  std::vector<int> dirty_;         // peers whose batch may be non-empty (application thread only)
  char* local_base_[kMaxRegions] = {};
  std::size_t local_size_[kMaxRegions] = {};
  int efd_ = -1;  // the worker's event descriptor when waitInput may block, else -1
  std::thread progress_thread_;
  std::atomic<bool> progress_stop_{false};
};

}  // namespace ucxt
}  // namespace gshmem
