// The UCX transport's active-message path: small-put batches, completion probes, synchronization signals, and atomics
// that UCP has no protocol for (GSHMEM_UCX_AMO).
//
// Why. Over UCX's TCP transport every message is a sendmsg (~6 us on the CI machine) and the target must reply to
// anything that needs an answer. A put followed by quiet costs the put's message, then a probe and its reply: three
// hops where one round trip would do. Here a small put (<= GSHMEM_UCX_AGGREGATE bytes) is copied into a per-peer
// batch; quiet sends the batch with "acknowledge" set and waits for the reply, so put + quiet is one round trip and
// a burst of puts is one message. A signal is one record with no reply at all (a UCP swap costs the target a reply).
//
// Contracts.
// - Batches exist only when the worker is single-threaded (no SHMEM_THREAD_MULTIPLE, no progress thread), so the
//   application thread alone touches them. A batch is sent at the next quiet, fence, wait/test poll (progress), or
//   get/AMO to that peer, or when it is full: a PE that puts and then computes without calling gshmem delivers the
//   put when it next calls in (the same holds for UCX's own pending queues without a progress thread).
// - Order: records of one message are applied in order; messages on one endpoint arrive in order (one TCP lane);
//   against UCP RMA/AMO on the same endpoint, flushBatchTo() fences after the batch and quiet fences before it.
// - The ack of probe n proves that everything sent to that peer before probe n, batched or fenced RMA, is applied.
// - Records are applied with release stores when 4/8 bytes aligned, so a poller never sees a torn flag.
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "transports/cpu_amo.hpp"
#include "transports/ucx/ucx_check.hpp"
#include "transports/ucx/ucx_internal.hpp"

namespace gshmem {
namespace ucxt {

namespace {

constexpr unsigned kAmBatch = 0x6731;  // UCP active-message ids of this transport
constexpr unsigned kAmAck = 0x6732;
constexpr unsigned kAmAmo = 0x6733;       // an atomic for the target to apply (AmoMsg)
constexpr unsigned kAmAmoReply = 0x6734;  // its old value: {target PE, token, value}
constexpr uint32_t kWantAck = 1;
// Largest put-with-signal sent as one active message: between namespace hosts over TCP it beat put + fence + a
// signal atomic (whose reply costs a round trip) from the batch limit up to here.
constexpr std::size_t kAmPutSignalMax = std::size_t(64) << 10;

struct AmHead {
  uint32_t src;    // sender's PE
  uint32_t flags;  // kWantAck
  uint64_t seq;    // probe number when kWantAck
};
struct AmRec {
  uint32_t region;  // low 24 bits: region; high 8 bits: what to do with the bytes (kRecCopy, kRecAdd)
  uint32_t len;
  uint64_t offset;  // into the target's region; `len` bytes follow, padded to 8
};
constexpr uint32_t kRecCopy = 0;  // store the bytes (4/8-byte aligned: one release store)
constexpr uint32_t kRecAdd = 1;   // 8 bytes: atomic add to the 64-bit word (put-with-signal ADD)
static_assert(sizeof(AmHead) == 16 && sizeof(AmRec) == 16, "wire format");

/// An atomic sent as an active message.
struct AmoMsg {
  uint32_t src;   // requester's PE
  uint32_t what;  // AmoOp | size << 8 | region << 16
  uint64_t token;
  uint64_t offset, value, cond;
};
static_assert(sizeof(AmoMsg) == 40, "wire format");

inline std::size_t pad8(std::size_t n) { return (n + 7) & ~std::size_t(7); }

/// UCX's endpoint back to the sender, when it sent with UCP_AM_SEND_FLAG_REPLY; else nullptr.
ucp_ep_h replyEp(const ucp_am_recv_param_t* prm) {
  return prm && (prm->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) ? prm->reply_ep : nullptr;
}

ucs_status_t batchCallback(void* arg, const void*, size_t, void* data, size_t length,
                           const ucp_am_recv_param_t* prm) {
  static_cast<UcxTransport*>(arg)->onBatch(data, length, replyEp(prm));
  return UCS_OK;
}

ucs_status_t ackCallback(void* arg, const void*, size_t, void* data, size_t length, const ucp_am_recv_param_t*) {
  static_cast<UcxTransport*>(arg)->onAck(data, length);
  return UCS_OK;
}

ucs_status_t amoCallback(void* arg, const void*, size_t, void* data, size_t length, const ucp_am_recv_param_t* prm) {
  static_cast<UcxTransport*>(arg)->onAmo(data, length, replyEp(prm));
  return UCS_OK;
}

ucs_status_t amoReplyCallback(void* arg, const void*, size_t, void* data, size_t length,
                              const ucp_am_recv_param_t*) {
  static_cast<UcxTransport*>(arg)->onAmoReply(data, length);
  return UCS_OK;
}

/// `answered`: the target answers this message (an acknowledgement, an atomic's old value), so UCX carries the
/// sender's endpoint along for the answer (the target may have no endpoint of its own back to this PE).
ucp_request_param_t eagerParams(bool answered = false) {
  ucp_request_param_t prm{};
  prm.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  prm.flags = UCP_AM_SEND_FLAG_EAGER | (answered ? uint32_t(UCP_AM_SEND_FLAG_REPLY) : 0u);
  return prm;
}

/// The endpoint an answer to `pe` goes on: this PE's own when linked, else the message's reply endpoint.
ucp_ep_h answerEp(const Peer& p, ucp_ep_h reply_ep) {
  return p.linked.load(std::memory_order_acquire) ? p.ep : reply_ep;
}

}  // namespace

Status UcxTransport::amSetup(const std::vector<LocalRegion>& regions) {
  for (std::size_t r = 0; r < regions.size() && r < kMaxRegions; ++r) {
    local_base_[r] = regions[r].base;
    local_size_[r] = regions[r].size;
  }
  const std::pair<unsigned, ucp_am_recv_callback_t> handlers[] = {
      {kAmBatch, batchCallback}, {kAmAck, ackCallback}, {kAmAmo, amoCallback}, {kAmAmoReply, amoReplyCallback}};

  for (const auto& h : handlers) {
    ucp_am_handler_param_t hp{};
    hp.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_ARG;
    hp.id = h.first;
    hp.cb = h.second;
    hp.arg = this;
    GSHMEM_UCS_CHECK(ucp_worker_set_am_recv_handler(worker_, &hp));
  }
  std::size_t want = cfg_.aggregate;
  agg_max_ = multi_ ? 0 : (want > kBatchBytes / 4 ? kBatchBytes / 4 : want);
  return Status::Ok;
}

std::size_t UcxTransport::setAggregate(std::size_t value) {
  if (value == SIZE_MAX) return agg_max_;  // read only
  (void)flushBatches();  // batches already made keep their place in the stream
  agg_max_ = multi_ ? 0 : (value > kBatchBytes / 4 ? kBatchBytes / 4 : value);
  return agg_max_;
}

// ---------------------------------------------------------------- send side (application thread)

Status UcxTransport::batchPut(int pe, const RemoteAddr& dst, const void* src, std::size_t n, uint32_t op,
                              bool put) {
  GSHMEM_CHECK(link(pe));  // a batch exists only for a linked peer: quiet and fence visit only those
  Peer& p = peer(pe);
  const std::size_t need = sizeof(AmRec) + pad8(n);
  if (p.batch_len != 0 && p.batch_len + need > kBatchBytes) GSHMEM_CHECK(sendBatch(pe, false));
  if (!p.batch) p.batch.reset(new uint64_t[kBatchBytes / sizeof(uint64_t)]);
  char* b = reinterpret_cast<char*>(p.batch.get());
  if (p.batch_len == 0) {
    p.batch_len = sizeof(AmHead);
    dirty_.push_back(pe);
  }
  AmRec rec{static_cast<uint32_t>(dst.region) | (op << 24), static_cast<uint32_t>(n), dst.offset};
  memcpy(b + p.batch_len, &rec, sizeof rec);
  memcpy(b + p.batch_len + sizeof rec, src, n);
  p.batch_len += static_cast<uint32_t>(need);
  p.batch_puts |= put;
  return Status::Ok;
}

Status UcxTransport::sendBatch(int pe, bool want_ack) {
  Peer& p = peer(pe);
  if (!p.batch) p.batch.reset(new uint64_t[kBatchBytes / sizeof(uint64_t)]);
  const bool has_puts = p.batch_puts;
  if (p.batch_len == 0) p.batch_len = sizeof(AmHead);  // a bare probe
  AmHead h{static_cast<uint32_t>(me_), want_ack ? kWantAck : 0u, want_ack ? ++p.probe_seq : 0};
  memcpy(p.batch.get(), &h, sizeof h);
  ucp_request_param_t prm = eagerParams(want_ack);
  void* r = ucp_am_send_nbx(p.ep, kAmBatch, nullptr, 0, p.batch.get(), p.batch_len, &prm);
  if (has_puts) markPosted(p);
  Status s = waitRequest(r, pe, "put");  // the batch buffer is reused next: wait for UCX to have sent it
  p.batch_len = 0;
  p.batch_puts = false;
  return s;
}

Status UcxTransport::flushBatches() {
  Status result = Status::Ok;
  for (int pe : dirty_) {
    if (peer(pe).batch_len == 0) continue;
    Status s = sendBatch(pe, false);
    if (result == Status::Ok) result = s;
  }
  dirty_.clear();
  return result;
}

Status UcxTransport::waitAck(int pe, uint64_t seq) {
  Peer& p = peer(pe);
  return progressUntil(pe, "quiet", [&] { return p.acked.load(std::memory_order_acquire) >= seq; });
}

// quiet: one message and one reply per busy peer. A peer with a batch gets it with "acknowledge" set; a peer with
// only UCP RMA outstanding (always the case without batching) gets a fenced 8-byte get (UcxTransport::quiet says
// why it proves completion), which measured cheaper than an empty acknowledged batch (put 4 KiB + quiet between
// namespace hosts: 17.7 vs 24.3 us; the target sends the acknowledgement from inside its active-message callback).
Status UcxTransport::quietByProbe() {
  Completions c;
  bool fenced = false;
  for (int pe : linked()) {
    Peer& p = peer(pe);
    // Read before the probe is posted: an operation another thread posts after it is not covered by it.
    const uint64_t target = p.posted.load(std::memory_order_acquire);
    const bool rma = target != p.done.load(std::memory_order_acquire);
    if (!rma && !p.batch_puts) continue;  // nothing to complete: a batch of signals waits for the next message
    if (rma && !fenced) {
      GSHMEM_UCS_CHECK(ucp_worker_fence(worker_));  // the probe is applied after the RMA posted before it
      fenced = true;
    }
    if (p.batch_len != 0) {
      Status s = sendBatch(pe, true);
      if (s != Status::Ok) return s;
      completionAdd(c, pe, nullptr, p.probe_seq, target, "quiet");
      continue;
    }
    ucp_request_param_t prm{};
    void* r = ucp_get_nbx(p.ep, &c.sink[c.n], sizeof(uint64_t), p.base[0], p.rkey[0], &prm);
    if (UCS_PTR_IS_ERR(r)) return flushPeers("quiet");  // fall back to endpoint flushes
    if (r == nullptr) {
      raiseTo(p.done, target);
      continue;
    }
    completionAdd(c, pe, r, 0, target, "quiet");
  }
  if (batching()) {  // without batching it is always empty (and threads may share quiet)
    std::size_t kept = 0;  // peers whose batch of signals was left for their next message
    for (int pe : dirty_)
      if (peer(pe).batch_len != 0) dirty_[kept++] = pe;
    dirty_.resize(kept);
  }
  completionsDrain(c, "quiet");
  return c.result;
}

// put-with-signal to a UCX peer: data and signal records in one message, sent at once (the target is waiting).
// Up to the batch limit through the peer's batch; up to kAmPutSignalMax as one message of its own, gathered from the
// caller's buffer (after the batch, which keeps its place in the stream); larger: put, fence, then the signal as an
// atomic (the data goes by RMA).
Status UcxTransport::putSignal(const RemoteAddr& dst, const void* src, std::size_t n, const RemoteAddr& sig,
                               uint64_t value, bool add) {
  if (!batching() || n > kAmPutSignalMax || dst.pe != sig.pe) return Transport::putSignal(dst, src, n, sig, value, add);
  const uint32_t op = add ? kRecAdd : kRecCopy;
  if (n > agg_max_) return amPutSignal(dst, src, n, sig, value, op);
  GSHMEM_CHECK(batchPut(dst.pe, dst, src, n));
  GSHMEM_CHECK(batchPut(sig.pe, sig, &value, 8, op));
  return sendBatch(dst.pe, false);
}

// One active message [head, data record][data][pad to 8][signal record, value], parsed by onBatch as a batch.
Status UcxTransport::amPutSignal(const RemoteAddr& dst, const void* src, std::size_t n, const RemoteAddr& sig,
                                 uint64_t value, uint32_t op) {
  GSHMEM_CHECK(link(dst.pe));
  Peer& p = peer(dst.pe);
  if (p.batch_len != 0) GSHMEM_CHECK(sendBatch(dst.pe, false));
  struct {
    AmHead h;
    AmRec r;
  } head{{static_cast<uint32_t>(me_), 0, 0}, {static_cast<uint32_t>(dst.region) | (kRecCopy << 24),
                                                static_cast<uint32_t>(n), dst.offset}};
  struct {
    AmRec r;
    uint64_t v;
  } tail{{static_cast<uint32_t>(sig.region) | (op << 24), 8, sig.offset}, value};
  static const uint64_t kZeros = 0;
  ucp_dt_iov_t iov[4];
  std::size_t k = 0;
  iov[k++] = {&head, sizeof head};
  iov[k++] = {const_cast<void*>(src), n};
  if (pad8(n) != n) iov[k++] = {const_cast<uint64_t*>(&kZeros), pad8(n) - n};
  iov[k++] = {&tail, sizeof tail};
  ucp_request_param_t prm = eagerParams();
  prm.op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
  prm.datatype = ucp_dt_make_iov();
  void* r = ucp_am_send_nbx(p.ep, kAmBatch, nullptr, 0, iov, k, &prm);
  markPosted(p);
  return waitRequest(r, dst.pe, "put with signal");  // `head`, `tail` and the caller's buffer are used until then
}

Status UcxTransport::signalByAm(const RemoteAddr& dst, uint64_t value, bool add) {
  // One record (a store, or an atomic add), no reply. Not counted as posted: the target polls the word, its
  // arrival is the completion. With batching it joins the peer's batch (after the records held there: puts not sent
  // yet, lazy signals), sent at once, so what was held travels in the same message.
  if (batching()) {
    GSHMEM_CHECK(batchPut(dst.pe, dst, &value, 8, add ? kRecAdd : kRecCopy, false));
    return sendBatch(dst.pe, false);
  }
  struct {
    AmHead h;
    AmRec r;
    uint64_t v;
  } msg{{static_cast<uint32_t>(me_), 0, 0},
        {static_cast<uint32_t>(dst.region) | ((add ? kRecAdd : kRecCopy) << 24), 8, dst.offset},
        value};
  GSHMEM_CHECK(link(dst.pe));
  Peer& p = peer(dst.pe);
  ucp_request_param_t prm = eagerParams();
  void* r = ucp_am_send_nbx(p.ep, kAmBatch, nullptr, 0, &msg, sizeof msg, &prm);
  return waitRequest(r, dst.pe, "signal");  // `msg` lives in this frame
}

Status UcxTransport::signalLazy(const RemoteAddr& dst, uint64_t value) {
  // Held in the peer's batch, so it rides on the next message to that peer (a put-with-signal, a barrier's signal)
  // or leaves at the next fence or progress() poll; quiet leaves a batch of signals alone (nothing to complete).
  if (!batching()) return signalByAm(dst, value);
  return batchPut(dst.pe, dst, &value, 8, kRecCopy, false);
}

Status UcxTransport::amoByAm(const RemoteAddr& dst, AmoOp op, unsigned size, uint64_t value, uint64_t cond,
                             uint64_t* result) {
  Peer& p = peer(dst.pe);  // linked by amo()
  const uint64_t token = p.amo_seq.fetch_add(1, std::memory_order_relaxed) + 1;
  Peer::AmoSlot& slot = p.amo_in[token % kAmoSlots];
  const AmoMsg m{static_cast<uint32_t>(me_),
                 static_cast<uint32_t>(op) | (size << 8) | (static_cast<uint32_t>(dst.region) << 16), token,
                 dst.offset, value, cond};
  ucp_request_param_t prm = eagerParams(true);
  void* r = ucp_am_send_nbx(p.ep, kAmAmo, nullptr, 0, &m, sizeof m, &prm);
  GSHMEM_CHECK(waitRequest(r, dst.pe, "atomic"));  // `m` lives in this frame
  GSHMEM_CHECK(progressUntil(dst.pe, "atomic", [&] { return slot.token.load(std::memory_order_acquire) == token; }));
  if (amoFetches(op)) *result = slot.value;
  return Status::Ok;
}

// ---------------------------------------------------------------- receive side (inside ucp_worker_progress)

void UcxTransport::onBatch(const void* data, std::size_t length, ucp_ep_h reply_ep) {
  const char* b = static_cast<const char*>(data);
  AmHead h;
  if (length < sizeof h) return;
  memcpy(&h, b, sizeof h);
  std::size_t at = sizeof h;
  while (at + sizeof(AmRec) <= length) {
    AmRec rec;
    memcpy(&rec, b + at, sizeof rec);
    at += sizeof rec;
    const uint32_t op = rec.region >> 24;
    rec.region &= 0xffffffu;
    if (at + rec.len > length || rec.region >= kMaxRegions || rec.offset > local_size_[rec.region] ||
        rec.len > local_size_[rec.region] - rec.offset || op > kRecAdd || (op == kRecAdd && rec.len != 8)) {
      GSHMEM_LOG_ERROR(UCX, "PE %d sent a malformed put record (region %u, offset %" PRIu64 ", %u bytes): dropped",
                       h.src, rec.region, rec.offset, rec.len);
      return;
    }
    char* to = local_base_[rec.region] + rec.offset;
    const char* from = b + at;
    if (op == kRecAdd) {
      uint64_t v;
      memcpy(&v, from, 8);
      __atomic_fetch_add(reinterpret_cast<uint64_t*>(to), v, __ATOMIC_RELEASE);
    } else if (rec.len == 8 && (reinterpret_cast<uintptr_t>(to) & 7) == 0) {
      uint64_t v;
      memcpy(&v, from, 8);
      __atomic_store_n(reinterpret_cast<uint64_t*>(to), v, __ATOMIC_RELEASE);
    } else if (rec.len == 4 && (reinterpret_cast<uintptr_t>(to) & 3) == 0) {
      uint32_t v;
      memcpy(&v, from, 4);
      __atomic_store_n(reinterpret_cast<uint32_t*>(to), v, __ATOMIC_RELEASE);
    } else {
      std::atomic_thread_fence(std::memory_order_release);
      memcpy(to, from, rec.len);
    }
    at += pad8(rec.len);
  }
  if (!(h.flags & kWantAck)) return;
  Peer* pp = h.src < static_cast<uint32_t>(npes_) ? &peer(h.src) : nullptr;
  ucp_ep_h ep = pp ? answerEp(*pp, reply_ep) : nullptr;
  if (!ep) {
    GSHMEM_LOG_ERROR(UCX, "completion probe from unknown PE %u, or without a way back: dropped", h.src);
    return;
  }
  // Acknowledge. ack_out outlives the send; a newer ack overwriting it in flight is harmless (seq only grows).
  Peer& p = *pp;
  std::atomic_thread_fence(std::memory_order_release);
  p.ack_out[0] = static_cast<uint64_t>(me_);
  p.ack_out[1] = h.seq;
  ucp_request_param_t prm = eagerParams();
  void* r = ucp_am_send_nbx(ep, kAmAck, nullptr, 0, p.ack_out, sizeof p.ack_out, &prm);
  if (UCS_PTR_IS_PTR(r)) ucp_request_free(r);  // completes on its own; nobody waits for it
  else if (UCS_PTR_IS_ERR(r))
    GSHMEM_LOG_ERROR(UCX, "acknowledging PE %u failed: %s", h.src, ucs_status_string(UCS_PTR_STATUS(r)));
}

void UcxTransport::onAmo(const void* data, std::size_t length, ucp_ep_h reply_ep) {
  AmoMsg m;
  if (length < sizeof m) return;
  memcpy(&m, data, sizeof m);
  const AmoOp op = static_cast<AmoOp>(m.what & 0xff);
  const unsigned size = (m.what >> 8) & 0xff, region = m.what >> 16;
  ucp_ep_h ep = m.src < static_cast<uint32_t>(npes_) ? answerEp(peer(m.src), reply_ep) : nullptr;
  if (!ep || region >= kMaxRegions || (size != 4 && size != 8) ||
      m.offset > local_size_[region] || size > local_size_[region] - m.offset || (m.offset & (size - 1)) ||
      static_cast<unsigned>(op) > static_cast<unsigned>(AmoOp::Xor)) {
    GSHMEM_LOG_ERROR(UCX, "PE %u sent a malformed atomic (region %u, offset %" PRIu64 ", %u bytes): dropped", m.src,
                     region, m.offset, size);
    return;
  }
  char* at = local_base_[region] + m.offset;
  const uint64_t old = size == 4 ? applyAmo(reinterpret_cast<uint32_t*>(at), op, static_cast<uint32_t>(m.value),
                                            static_cast<uint32_t>(m.cond))
                                 : applyAmo(reinterpret_cast<uint64_t*>(at), op, m.value, m.cond);
  // Reply from the slot of this token: it outlives the send (its requester waits for it before reusing the slot).
  Peer& p = peer(m.src);
  uint64_t* out = p.amo_out[m.token % kAmoSlots];
  out[0] = static_cast<uint64_t>(me_);
  out[1] = m.token;
  out[2] = old;
  ucp_request_param_t prm = eagerParams();
  void* r = ucp_am_send_nbx(ep, kAmAmoReply, nullptr, 0, out, 3 * sizeof(uint64_t), &prm);
  if (UCS_PTR_IS_PTR(r)) ucp_request_free(r);  // completes on its own; the requester waits for the reply itself
  else if (UCS_PTR_IS_ERR(r))
    GSHMEM_LOG_ERROR(UCX, "answering PE %u's atomic failed: %s", m.src, ucs_status_string(UCS_PTR_STATUS(r)));
}

void UcxTransport::onAmoReply(const void* data, std::size_t length) {
  uint64_t a[3];
  if (length < sizeof a) return;
  memcpy(a, data, sizeof a);
  if (a[0] >= static_cast<uint64_t>(npes_)) return;
  Peer::AmoSlot& slot = peer(static_cast<int>(a[0])).amo_in[a[1] % kAmoSlots];
  slot.value = a[2];
  slot.token.store(a[1], std::memory_order_release);
}

void UcxTransport::onAck(const void* data, std::size_t length) {
  uint64_t a[2];
  if (length < sizeof a) return;
  memcpy(a, data, sizeof a);
  if (a[0] >= static_cast<uint64_t>(npes_)) return;
  raiseTo(peer(static_cast<int>(a[0])).acked, a[1]);
}

}  // namespace ucxt
}  // namespace gshmem
