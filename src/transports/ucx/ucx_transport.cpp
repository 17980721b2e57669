// UCX transport: reaches PEs on other nodes (or every peer, with GSHMEM_TRANSPORTS=ucx) through UCP RMA and AMO
// on the symmetric regions registered with ucp_mem_map.
//
// Threading. The worker is UCS_THREAD_MODE_SINGLE unless the program asked for SHMEM_THREAD_MULTIPLE or
// GSHMEM_PROGRESS_THREAD is on; then it is UCS_THREAD_MODE_MULTI and UCX serializes calls on the worker with its
// own (spin)lock. gshmem adds no lock of its own on the data path: per-peer completion counters are atomics.
//
// Completion. Every posted operation bumps its peer's `posted` counter (after the post). quiet() flushes only
// the endpoints whose `posted` is ahead of `done` (a flush that started after `posted` was read covers the op),
// so a quiet with nothing outstanding costs a few loads, and a quiet after puts to one peer is one endpoint
// flush: one round trip over TCP, where a worker flush would touch every endpoint.
//
// Progress. Blocking calls progress the worker themselves. progress() (called from the core's wait loops) is
// ucp_worker_progress plus a watchdog that, about once a millisecond, starts a background flush of endpoints
// with unflushed operations; the optional progress thread (GSHMEM_PROGRESS_THREAD=1) runs the same loop with
// a sleep backoff, so a PE in a long compute loop still serves remote gets and AMOs emulated over TCP.
//
// Endpoints (ucx_link.cpp). connect() exchanges every PE's card (worker address and packed remote keys) and keeps
// them; the endpoint to a peer, and its remote keys, are made by the first operation that needs that peer (link()),
// so a PE reached by shared memory, or never addressed, costs no endpoint (over TCP, no socket). Everything that
// visits peers (quiet, fence, the watchdog, teardown) visits only the linked ones: nothing can be outstanding
// elsewhere. Answers to a peer's active messages go back on this PE's endpoint to it when there is one, else on the
// reply endpoint UCX gives the callback: a worker callback never makes an endpoint.
//
// Faults. Endpoints use UCP_ERR_HANDLING_MODE_PEER; their error callback reports the lost PE to the core
// (TransportConfig::on_peer_lost), which prints one line naming it and ends the job. Every blocking wait, and every background flush, is bounded by
// GSHMEM_TIMEOUT seconds ("no progress from PE n for T s"). UCX keepalive and TCP keepalive are set from the
// same timeout (unless the user set UCX_* variables), so an idle dead link is found too.
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/log.hpp"
#include "transports/transport.hpp"
#include "transports/ucx/ucx_check.hpp"

#include "transports/ucx/ucx_internal.hpp"

namespace gshmem {
namespace ucxt {


// Set a UCX variable through the config object unless the user set it in the environment.
void configDefault(ucp_config_t* cfg, const char* name, const std::string& value) {
  std::string env = std::string("UCX_") + name;
  if (getenv(env.c_str())) return;
  ucs_status_t s = ucp_config_modify(cfg, name, value.c_str());
  if (s != UCS_OK) GSHMEM_LOG_DEBUG(UCX, "ucp_config_modify(%s=%s): %s", name, value.c_str(), ucs_status_string(s));
}

Status UcxTransport::applyConfig(ucp_config_t* cfg) {
  if (timeout_s_ <= 0) return Status::Ok;
  // Dead peers and links are found within the timeout even when this PE has nothing in flight: UCP keepalive
  // for every endpoint, and kernel TCP keepalive (idle + count * interval < timeout) for TCP lanes.
  long ka = timeout_s_ / 3 > 0 ? timeout_s_ / 3 : 1;
  configDefault(cfg, "KEEPALIVE_INTERVAL", std::to_string(ka) + "s");
  configDefault(cfg, "KEEPALIVE_NUM_EPS", "inf");
  // TCP keepalive (UCT variables, which ucp_config_modify does not take in UCX 1.13) is set in the environment
  // before ucp_config_read, in connect().
  return Status::Ok;
}

Status UcxTransport::createWorker() {
  ucp_config_t* cfg = nullptr;
  if (timeout_s_ > 0) {  // before ucp_config_read: see applyConfig
    long idle = timeout_s_ / 2 > 0 ? timeout_s_ / 2 : 1, intvl = timeout_s_ / 8 > 0 ? timeout_s_ / 8 : 1;
    setenv("UCX_TCP_KEEPIDLE", (std::to_string(idle) + "s").c_str(), 0);
    setenv("UCX_TCP_KEEPINTVL", (std::to_string(intvl) + "s").c_str(), 0);
    setenv("UCX_TCP_KEEPCNT", "3", 0);
  }
  // TCP send segments of 64 KiB instead of UCX's 8 KiB: a 4 MiB put is 64 sendmsg calls instead of 512, about 3x
  // the bandwidth of 4 MiB puts between two namespace hosts over veth; 256 KiB and 1 MiB segments were slower. The
  // user's value wins.
  setenv("UCX_TCP_TX_SEG_SIZE", "64K", 0);
  GSHMEM_UCS_CHECK(ucp_config_read(nullptr, nullptr, &cfg));
  (void)applyConfig(cfg);
  netDevicesRestrict(cfg);
  ucp_params_t cp{};
  cp.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED | UCP_PARAM_FIELD_ESTIMATED_NUM_EPS;
  cp.features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 | UCP_FEATURE_AM;
  if (wakeWanted()) cp.features |= UCP_FEATURE_WAKEUP;
  cp.mt_workers_shared = multi_ ? 1 : 0;
  cp.estimated_num_eps = static_cast<std::size_t>(npes_);
  ucs_status_t us = ucp_init(&cp, cfg, &ctx_);
  ucp_config_release(cfg);
  if (us != UCS_OK) {
    GSHMEM_LOG_ERROR(UCX, "ucp_init failed: %s (check UCX_TLS / UCX_NET_DEVICES)", ucs_status_string(us));
    return ucsToStatus(us);
  }
  ucp_worker_params_t wp{};
  wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  wp.thread_mode = multi_ ? UCS_THREAD_MODE_MULTI : UCS_THREAD_MODE_SINGLE;
  GSHMEM_UCS_CHECK(ucp_worker_create(ctx_, &wp, &worker_));
  return Status::Ok;
}

Status UcxTransport::mapRegions(const std::vector<LocalRegion>& regions) {
  for (int r = 0; r < nregions_; ++r) {
    if (regions[r].size == 0 || regions[r].base == nullptr) continue;
    ucp_mem_map_params_t mp{};
    mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
    mp.address = regions[r].base;
    mp.length = regions[r].size;
    ucs_status_t us = ucp_mem_map(ctx_, &mp, &memh_[r]);
    if (us != UCS_OK) {
      GSHMEM_LOG_ERROR(UCX, "ucp_mem_map of region %d (%zu bytes at %p) failed: %s", r, regions[r].size,
                       static_cast<void*>(regions[r].base), ucs_status_string(us));
      return ucsToStatus(us);
    }
  }
  return Status::Ok;
}

Status UcxTransport::connect(Bootstrap& bs, const std::vector<LocalRegion>& regions, std::vector<PeerReach>* out) {
  if (regions.size() > kMaxRegions) return Status::Internal;
  bs_ = &bs;
  me_ = bs.rank();
  npes_ = bs.size();
  nregions_ = static_cast<int>(regions.size());
  timeout_s_ = cfg_.timeout_s > 0 ? cfg_.timeout_s : 0;
  timeout_ns_ = uint64_t(timeout_s_) * 1000000000ull;
  yield_after_ = cfg_.wait_spins > 0 ? static_cast<unsigned long>(cfg_.wait_spins) : 0;
  multi_ = cfg_.thread_level >= kThreadMultiple || cfg_.progress_thread;
  GSHMEM_CHECK(createWorker());
  GSHMEM_CHECK(amSetup(regions));  // handlers before any peer can reach this worker (cards come next)
  GSHMEM_CHECK(mapRegions(regions));
  GSHMEM_CHECK(exchangeCards(regions, &cards_, &card_stride_));
  GSHMEM_LOG_DEBUG(UCX, "cards of %d PEs kept for endpoints made on first use: %zu bytes each", npes_, card_stride_);

  amo_default_ = std::strcmp(cfg_.amo, "am") == 0 ? kAmoAm : kAmoUnknown;
  peers_.reset(new std::atomic<Peer*>[npes_]());
  linked_.reset(new int[npes_]);
  nlinked_.store(0, std::memory_order_relaxed);
  std::vector<PeerReach> reach(npes_);
  const auto& node = bs.nodeOf();
  const char* tls = getenv("UCX_TLS");
  for (int k = 0; k < 2; ++k)
    why_[k] = std::string("UCP RMA/AMO over UCX_TLS=") + (tls ? tls : "(default)") + "; " +
              (k ? "peer on another node" : "same node, UCX forced by GSHMEM_TRANSPORTS=ucx") +
              "; endpoint made on first use";
  for (int pe = 0; pe < npes_; ++pe) {
    if (pe == me_) {
      reach[pe].why = "self: not through ucx";
      continue;
    }
    reach[pe].caps = kCapRma | kCapAmo;
    reach[pe].why = why_[node[pe] != node[me_]].c_str();
  }
  wakeSetup();
  GSHMEM_LOG_INFO(UCX, "UCX transport up: %d endpoints (made on first use, %d peers), worker thread mode %s, "
                  "timeout %ld s, progress thread %s, waits %s", nlinked_.load(), npes_ - 1,
                  multi_ ? "multi" : "single", timeout_s_, cfg_.progress_thread ? "on" : "off",
                  efd_ >= 0 ? "sleep in the event descriptor" : "yield");
  if (cfg_.progress_thread) startProgressThread();
  *out = std::move(reach);
  return Status::Ok;
}

// ---------------------------------------------------------------- waits, bounded by GSHMEM_TIMEOUT

Status UcxTransport::waitRequest(void* req, int pe, const char* what) {
  if (req == nullptr) return Status::Ok;
  if (UCS_PTR_IS_ERR(req)) {
    GSHMEM_LOG_ERROR(UCX, "%s to PE %d failed: %s", what, pe, ucs_status_string(UCS_PTR_STATUS(req)));
    return ucsToStatus(UCS_PTR_STATUS(req));
  }
  ucs_status_t s = UCS_INPROGRESS;
  Status w = progressUntil(pe, what, [&] { return (s = ucp_request_check_status(req)) != UCS_INPROGRESS; });
  if (w != Status::Ok) return w;  // the request stays with UCX: the caller ends the job
  ucp_request_free(req);
  if (s == UCS_OK) return Status::Ok;
  GSHMEM_LOG_ERROR(UCX, "%s to PE %d failed: %s", what, pe, ucs_status_string(s));
  return ucsToStatus(s);
}

void UcxTransport::completionsDrain(Completions& c, const char* what) {
  for (int i = 0; i < c.n; ++i) {
    Status s = c.req[i] ? waitRequest(c.req[i], c.pe[i], what) : waitAck(c.pe[i], c.seq[i]);
    if (s == Status::Ok) raiseTo(peer(c.pe[i]).done, c.target[i]);
    else if (c.result == Status::Ok) c.result = s;
  }
  c.n = 0;
}

void UcxTransport::completionAdd(Completions& c, int pe, void* req, uint64_t seq, uint64_t target,
                                 const char* what) {
  c.pe[c.n] = pe;
  c.req[c.n] = req;
  c.seq[c.n] = seq;
  c.target[c.n] = target;
  if (++c.n == Completions::kBatch) completionsDrain(c, what);
}

Status UcxTransport::flushPeers(const char* what) {
  // Start one endpoint flush per peer with unflushed operations, then wait for all of them.
  Completions c;
  ucp_request_param_t prm{};
  for (int pe : linked()) {
    Peer& p = peer(pe);
    uint64_t target = p.posted.load(std::memory_order_acquire);
    if (target == p.done.load(std::memory_order_acquire)) continue;
    void* r = ucp_ep_flush_nbx(p.ep, &prm);
    if (r == nullptr) {
      raiseTo(p.done, target);
      continue;
    }
    completionAdd(c, pe, r, 0, target, what);
  }
  completionsDrain(c, what);
  return c.result;
}

void UcxTransport::watchdog(uint64_t /*caller's clock*/) {
  if (bg_lock_.test_and_set(std::memory_order_acquire)) return;
  // Read the clock under the lock: a caller's older reading (the progress thread and the application thread both
  // call here) would make now - bg_start wrap around and report a timeout that never happened.
  const uint64_t now = coarseNs();
  last_watch_.store(now, std::memory_order_relaxed);
  ucp_request_param_t prm{};
  for (int pe : linked()) {
    Peer& p = peer(pe);
    if (p.bg_req) {
      ucs_status_t s = ucp_request_check_status(p.bg_req);
      if (s == UCS_INPROGRESS) {
        if (timeout_ns_ && now > p.bg_start && now - p.bg_start > timeout_ns_ && !closing_.load()) {
          char why[96];
          snprintf(why, sizeof why, "no progress for %ld s, operations unacknowledged", timeout_s_);
          lost(pe, why);
        }
        continue;
      }
      ucp_request_free(p.bg_req);
      p.bg_req = nullptr;
      if (s == UCS_OK) raiseTo(p.done, p.bg_target);
    }
    uint64_t target = p.posted.load(std::memory_order_acquire);
    if (target == p.done.load(std::memory_order_acquire)) continue;
    void* r = ucp_ep_flush_nbx(p.ep, &prm);
    if (r == nullptr) {
      raiseTo(p.done, target);
    } else if (!UCS_PTR_IS_ERR(r)) {
      p.bg_req = r;
      p.bg_target = target;
      p.bg_start = now;
    }
  }
  bg_lock_.clear(std::memory_order_release);
}

// ---------------------------------------------------------------- data path

Status UcxTransport::putNbi(const RemoteAddr& dst, const void* src, std::size_t n) {
  if (n == 0) return Status::Ok;
  if (n <= agg_max_) return batchPut(dst.pe, dst, src, n);
  GSHMEM_CHECK(link(dst.pe));
  GSHMEM_CHECK(flushBatchTo(dst.pe));  // puts to one peer land in issue order, batched or not
  Peer& p = peer(dst.pe);
  ucp_request_param_t prm{};
  void* r = ucp_put_nbx(p.ep, src, n, p.base[dst.region] + dst.offset, p.rkey[dst.region], &prm);
  markPosted(p);
  // `src` may be reused on return: wait for local completion when UCX kept a reference (zero-copy sizes).
  return waitRequest(r, dst.pe, "put");
}

Status UcxTransport::postGet(const RemoteAddr& src, void* dst, std::size_t n, void** req) {
  GSHMEM_CHECK(link(src.pe));
  GSHMEM_CHECK(flushBatchTo(src.pe));  // a get after a batched put to the same address sees the put
  Peer& p = peer(src.pe);
  ucp_request_param_t prm{};
  *req = ucp_get_nbx(p.ep, dst, n, p.base[src.region] + src.offset, p.rkey[src.region], &prm);
  return Status::Ok;
}

Status UcxTransport::get(const RemoteAddr& src, void* dst, std::size_t n) {
  if (n == 0) return Status::Ok;
  void* r = nullptr;
  GSHMEM_CHECK(postGet(src, dst, n, &r));
  return waitRequest(r, src.pe, "get");
}

Status UcxTransport::getNbi(const RemoteAddr& src, void* dst, std::size_t n) {
  if (n == 0) return Status::Ok;
  void* r = nullptr;
  GSHMEM_CHECK(postGet(src, dst, n, &r));
  markPosted(peer(src.pe));  // the endpoint flush in quiet() completes it
  if (r == nullptr) return Status::Ok;
  if (UCS_PTR_IS_ERR(r)) return waitRequest(r, src.pe, "get");
  ucp_request_free(r);
  return Status::Ok;
}

// Atomics: UCP's own unless this peer takes active messages (GSHMEM_UCX_AMO). Under "auto" the first atomic to a
// peer waits for its completion, fetching or not, so that a missing UCP protocol shows as its status: that atomic is
// then sent again as an active message, and so is every later one to that peer.
Status UcxTransport::amo(const RemoteAddr& dst, AmoOp op, unsigned size, uint64_t value, uint64_t cond,
                         uint64_t* result) {
  if (size != 4 && size != 8) return Status::InvalidArgument;
  GSHMEM_CHECK(link(dst.pe));
  GSHMEM_CHECK(flushBatchTo(dst.pe));
  Peer& p = peer(dst.pe);
  const int mode = p.amo_mode.load(std::memory_order_acquire);
  if (mode == kAmoAm) return amoByAm(dst, op, size, value, cond, result);
  bool missing = false;
  Status s = amoNative(dst, op, size, value, cond, result, mode == kAmoUnknown, &missing);
  if (!missing) {
    if (s == Status::Ok && mode == kAmoUnknown) p.amo_mode.store(kAmoNative, std::memory_order_release);
    return s;
  }
  if (std::strcmp(cfg_.amo, "native") == 0) {
    GSHMEM_LOG_ERROR(UCX, "atomic to PE %d: UCX has no protocol for it; set GSHMEM_UCX_AMO=auto or am", dst.pe);
    return Status::Unsupported;
  }
  if (p.amo_mode.exchange(kAmoAm) != kAmoAm)
    GSHMEM_LOG_INFO(UCX, "atomics to PE %d go as active messages from now on: UCX has no atomic protocol to it",
                    dst.pe);
  return amoByAm(dst, op, size, value, cond, result);
}

Status UcxTransport::amoNative(const RemoteAddr& dst, AmoOp op, unsigned size, uint64_t value, uint64_t cond,
                               uint64_t* result, bool must_wait, bool* native_missing) {
  Peer& p = peer(dst.pe);
  ucp_atomic_op_t uop;
  uint64_t operand = value;
  switch (op) {
    case AmoOp::Fetch: uop = UCP_ATOMIC_OP_OR; operand = 0; break;
    case AmoOp::Set: case AmoOp::Swap: uop = UCP_ATOMIC_OP_SWAP; break;
    case AmoOp::CompareSwap: uop = UCP_ATOMIC_OP_CSWAP; operand = cond; break;
    case AmoOp::FetchAdd: case AmoOp::Add: uop = UCP_ATOMIC_OP_ADD; break;
    case AmoOp::FetchInc: case AmoOp::Inc: uop = UCP_ATOMIC_OP_ADD; operand = 1; break;
    case AmoOp::FetchAnd: case AmoOp::And: uop = UCP_ATOMIC_OP_AND; break;
    case AmoOp::FetchOr: case AmoOp::Or: uop = UCP_ATOMIC_OP_OR; break;
    case AmoOp::FetchXor: case AmoOp::Xor: uop = UCP_ATOMIC_OP_XOR; break;
    default: return Status::Unsupported;
  }
  uint64_t raddr = p.base[dst.region] + dst.offset;
  // Operand and reply live in this frame for waited ops, in junk_ for a posted Set.
  uint32_t op32 = static_cast<uint32_t>(operand), reply32 = static_cast<uint32_t>(value);
  uint64_t op64 = operand, reply64 = value;
  ucp_request_param_t prm{};
  prm.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER;
  prm.datatype = ucp_dt_make_contig(size);
  const bool fetch = amoFetches(op) || op == AmoOp::Set;  // UCP's swap always returns the old value
  const bool wait = amoFetches(op) || must_wait;
  if (fetch && !wait) prm.reply_buffer = &junk_[0];  // a posted Set: nobody reads the old value
  else if (fetch) prm.reply_buffer = size == 4 ? static_cast<void*>(&reply32) : &reply64;
  else prm.op_attr_mask &= ~UCP_OP_ATTR_FIELD_REPLY_BUFFER;
  void* r = ucp_atomic_op_nbx(p.ep, uop, size == 4 ? static_cast<void*>(&op32) : &op64, 1, raddr,
                              p.rkey[dst.region], &prm);
  auto missing = [](ucs_status_t st) { return st == UCS_ERR_UNSUPPORTED || st == UCS_ERR_CANCELED; };
  if (UCS_PTR_IS_ERR(r) && missing(UCS_PTR_STATUS(r)) && std::strcmp(cfg_.amo, "native") != 0) {
    *native_missing = true;
    return Status::Unsupported;
  }
  if (!wait) {
    markPosted(p);
    if (r == nullptr) return Status::Ok;
    if (UCS_PTR_IS_ERR(r)) return waitRequest(r, dst.pe, "atomic");
    ucp_request_free(r);
    return Status::Ok;
  }
  // A request without a reply completes when the operation has left this PE, not when the target applied it: a
  // waited op that fetches nothing stays outstanding until quiet, like a posted one.
  if (!fetch) markPosted(p);
  if (r != nullptr && !UCS_PTR_IS_ERR(r)) {
    ucs_status_t st = UCS_INPROGRESS;
    GSHMEM_CHECK(progressUntil(dst.pe, "atomic", [&] { return (st = ucp_request_check_status(r)) != UCS_INPROGRESS; }));
    ucp_request_free(r);
    if (missing(st) && std::strcmp(cfg_.amo, "native") != 0) {
      *native_missing = true;
      return Status::Unsupported;
    }
    if (st != UCS_OK) {
      GSHMEM_LOG_ERROR(UCX, "atomic to PE %d failed: %s", dst.pe, ucs_status_string(st));
      return ucsToStatus(st);
    }
  } else if (r != nullptr) {
    return waitRequest(r, dst.pe, "atomic");
  }
  if (amoFetches(op)) *result = size == 4 ? reply32 : reply64;
  return Status::Ok;
}

Status UcxTransport::fence() {
  // Send the batches, then fence only when something is outstanding; UCP orders what follows after what was
  // posted before.
  if (!dirty_.empty()) GSHMEM_CHECK(flushBatches());
  for (int pe : linked()) {
    Peer& p = peer(pe);
    if (p.posted.load(std::memory_order_acquire) != p.done.load(std::memory_order_acquire)) {
      GSHMEM_UCS_CHECK(ucp_worker_fence(worker_));
      break;
    }
  }
  return Status::Ok;
}

// quiet: one round trip per peer with unacknowledged operations. An endpoint flush costs two round trips over
// UCX's TCP transport (put + flush + quiet measured 22 us where an 8-byte get takes 10.6 us); a get issued after
// a worker fence is executed at the target after every operation posted before the fence, so its reply proves
// they are complete.
Status UcxTransport::quiet() { return quietByProbe(); }

Status UcxTransport::signalNbi(const RemoteAddr& dst, uint64_t value) {
  // An active message with one 8-byte record (ucx_am.cpp): no reply for the target to send, and not counted as
  // posted (the target polls the cell, so its arrival is the completion; a barrier's own signals would otherwise
  // cost the next barrier a round trip in its quiet).
  return signalByAm(dst, value);
}

// ---------------------------------------------------------------- progress thread and teardown

void UcxTransport::startProgressThread() {
  progress_stop_.store(false);
  progress_thread_ = std::thread([this] {
    unsigned idle = 0;
    while (!progress_stop_.load(std::memory_order_relaxed)) {
      if (ucp_worker_progress(worker_) != 0) {
        idle = 0;
      } else if (++idle > 64) {
        // Back off to 50 us naps: a target that computes still answers within ~50 us, and the core it
        // shares is not burnt.
        timespec ts{0, idle > 1024 ? 50000 : 2000};
        nanosleep(&ts, nullptr);
      }
      uint64_t now = coarseNs();
      if (watchDue(now)) watchdog(now);
    }
  });
}

void UcxTransport::stopProgressThread() {
  if (!progress_thread_.joinable()) return;
  progress_stop_.store(true);
  progress_thread_.join();
}

void UcxTransport::teardown(bool collective) {
  if (!ctx_) return;
  if (worker_) {
    if (collective && bs_) {
      // Complete our operations, then agree that every PE is done before any endpoint closes: from here on, a
      // peer's closed connection is not a fault. Peers may still need our progress to finish their own flush
      // while we wait in the bootstrap barrier, so a helper (or the progress thread) keeps progressing.
      (void)quiet();
      closing_.store(true);
      std::atomic<bool> stop{false};
      std::thread helper;
      if (!progress_thread_.joinable())
        helper = std::thread([&] {
          while (!stop.load(std::memory_order_relaxed)) {
            if (ucp_worker_progress(worker_) == 0) {
              timespec ts{0, 20000};
              nanosleep(&ts, nullptr);
            }
          }
        });
      (void)bs_->barrier();
      stop.store(true);
      if (helper.joinable()) helper.join();
    }
    closing_.store(true);
    stopProgressThread();
    GSHMEM_LOG_DEBUG(UCX, "UCX transport down: %d endpoints were made, of %d peers", nlinked_.load(), npes_ - 1);
    for (int pe : linked()) {
      Peer& p = peer(pe);
      if (p.bg_req) {
        ucp_request_free(p.bg_req);
        p.bg_req = nullptr;
      }
    }
    ucp_request_param_t prm{};
    prm.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    prm.flags = UCP_EP_CLOSE_FLAG_FORCE;
    for (int pe : linked()) {
      Peer& p = peer(pe);
      for (auto& rk : p.rkey)
        if (rk) {
          ucp_rkey_destroy(rk);
          rk = nullptr;
        }
      if (!p.ep) continue;
      void* r = ucp_ep_close_nbx(p.ep, &prm);
      p.ep = nullptr;
      if (r == nullptr || UCS_PTR_IS_ERR(r)) continue;
      uint64_t deadline = nowNs() + 2000000000ull;
      while (ucp_request_check_status(r) == UCS_INPROGRESS && nowNs() < deadline) ucp_worker_progress(worker_);
      ucp_request_free(r);
    }
    for (auto& m : memh_)
      if (m) {
        ucp_mem_unmap(ctx_, m);
        m = nullptr;
      }
    efd_ = -1;  // the worker's own descriptor
    ucp_worker_destroy(worker_);
    worker_ = nullptr;
  }
  ucp_cleanup(ctx_);
  ctx_ = nullptr;
  nlinked_.store(0);
  freePeers();
  cards_.clear();
  cards_.shrink_to_fit();
}

Peer& UcxTransport::makePeer(int pe) {
  auto* made = new Peer;
  made->amo_mode.store(amo_default_, std::memory_order_relaxed);
  Peer* seen = nullptr;
  if (peers_[pe].compare_exchange_strong(seen, made, std::memory_order_acq_rel, std::memory_order_acquire))
    return *made;
  delete made;  // another thread made it first
  return *seen;
}

void UcxTransport::freePeers() {
  if (!peers_) return;
  for (int pe = 0; pe < npes_; ++pe) delete peers_[pe].exchange(nullptr);
  peers_.reset();
}

}  // namespace ucxt

std::unique_ptr<Transport> ucxTransportCreate(const TransportConfig& cfg) {
  return std::make_unique<ucxt::UcxTransport>(cfg);
}

}  // namespace gshmem
