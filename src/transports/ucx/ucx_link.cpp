// The UCX transport's endpoints: the cards every PE publishes at connect (worker address and packed remote keys),
// kept for the job's life, and the endpoint to a peer made from its card by the first operation that needs it.
//
// Contracts.
// - link(pe) is the only step between an operation and its endpoint: one acquire load of Peer::linked when the
//   endpoint exists. The first use takes link_mu_, makes the endpoint (UCP_ERR_HANDLING_MODE_PEER, its error
//   callback naming `pe`) and unpacks `pe`'s remote keys, then publishes the peer in linked() and sets `linked`.
// - Never called from a worker callback: in UCS_THREAD_MODE_MULTI the callback holds the worker's lock while a
//   thread in linkSlow holds link_mu_ and waits for it in ucp_ep_create. Answers from callbacks use the reply
//   endpoint instead (ucx_am.cpp).
// - An endpoint, once made, lives until teardown; a peer never addressed through UCX (a PE of this node reached by
//   shared memory) has none, so it holds no socket and no UCX state here, only its card.
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "base/log.hpp"
#include "transports/ucx/ucx_check.hpp"
#include "transports/ucx/ucx_internal.hpp"

namespace gshmem {
namespace ucxt {

namespace {

void epErrorCallback(void* arg, ucp_ep_h, ucs_status_t status) {
  auto* a = static_cast<ErrArg*>(arg);
  a->t->onPeerError(a->pe, status);
}

/// Zeroed anonymous pages for a buffer used only at init, given back to the kernel when it goes: freed heap memory
/// would stay in every PE's resident set, a few hundred bytes per PE of the job.
struct InitPages {
  explicit InitPages(std::size_t n) : bytes(n) {
    void* m = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    p = m == MAP_FAILED ? nullptr : static_cast<char*>(m);
  }
  ~InitPages() {
    if (p) munmap(p, bytes);
  }
  InitPages(const InitPages&) = delete;
  InitPages& operator=(const InitPages&) = delete;
  std::size_t bytes;
  char* p;
};

}  // namespace

Status UcxTransport::exchangeCards(const std::vector<LocalRegion>& regions, std::vector<char>* all,
                                   std::size_t* stride) {
  ucp_address_t* addr = nullptr;
  std::size_t addr_len = 0;
  GSHMEM_UCS_CHECK(ucp_worker_get_address(worker_, &addr, &addr_len));
  CardHeader h{};
  h.addr_len = static_cast<uint32_t>(addr_len);
  h.nregions = static_cast<uint32_t>(nregions_);
  std::vector<char> card(sizeof h);
  card.insert(card.end(), reinterpret_cast<char*>(addr), reinterpret_cast<char*>(addr) + addr_len);
  ucp_worker_release_address(worker_, addr);
  for (int r = 0; r < nregions_; ++r) {
    if (!memh_[r]) continue;
    void* rk = nullptr;
    std::size_t rk_len = 0;
    GSHMEM_UCS_CHECK(ucp_rkey_pack(ctx_, memh_[r], &rk, &rk_len));
    h.base[r] = reinterpret_cast<uint64_t>(regions[r].base);
    h.size[r] = regions[r].size;
    h.rkey_len[r] = static_cast<uint32_t>(rk_len);
    card.insert(card.end(), static_cast<char*>(rk), static_cast<char*>(rk) + rk_len);
    ucp_rkey_buffer_release(rk);
  }
  memcpy(card.data(), &h, sizeof h);
  // Cards differ in length. One exchange of fixed slots (the length, then the card) serves cards up to
  // kCardSlot - 8 bytes (a TCP worker's is about 180); a longer one costs a second exchange, of cards padded to the
  // longest. Each exchange is a round of every PE at init.
  constexpr std::size_t kCardSlot = 512;
  const uint64_t len = card.size();
  std::vector<char> slot(kCardSlot, 0);
  InitPages slots(kCardSlot * npes_);
  if (!slots.p) {
    GSHMEM_LOG_ERROR(UCX, "no memory for the %d PEs' UCX cards (%zu bytes)", npes_, slots.bytes);
    return Status::NoMemory;
  }
  memcpy(slot.data(), &len, sizeof len);
  memcpy(slot.data() + sizeof len, card.data(), std::min<std::size_t>(len, kCardSlot - sizeof len));
  GSHMEM_CHECK(bs_->allGather(slot.data(), slots.p, kCardSlot));
  uint64_t maxlen = 0;
  for (int pe = 0; pe < npes_; ++pe) {
    uint64_t l;
    memcpy(&l, slots.p + pe * kCardSlot, sizeof l);
    maxlen = std::max(maxlen, l);
  }
  all->assign(maxlen * npes_, 0);
  *stride = maxlen;
  if (maxlen > kCardSlot - sizeof len) {
    card.resize(maxlen);
    return bs_->allGather(card.data(), all->data(), maxlen);
  }
  // A slot past its card's length holds zeros: copying maxlen bytes of each gives the cards padded to maxlen.
  for (int pe = 0; pe < npes_; ++pe) memcpy(all->data() + pe * maxlen, slots.p + pe * kCardSlot + sizeof len, maxlen);
  return Status::Ok;
}

Status UcxTransport::connectPeer(int pe, const char* card) {
  CardHeader h;
  memcpy(&h, card, sizeof h);
  const char* addr = card + sizeof h;
  Peer& pr = peer(pe);
  pr.err = ErrArg{this, pe};
  ucp_ep_params_t ep{};
  ep.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                  UCP_EP_PARAM_FIELD_ERR_HANDLER;
  ep.address = reinterpret_cast<const ucp_address_t*>(addr);
  ep.err_mode = UCP_ERR_HANDLING_MODE_PEER;
  ep.err_handler.cb = epErrorCallback;
  ep.err_handler.arg = &pr.err;
  ucs_status_t us = ucp_ep_create(worker_, &ep, &pr.ep);
  if (us != UCS_OK) {
    GSHMEM_LOG_ERROR(UCX, "cannot create an endpoint to PE %d: %s", pe, ucs_status_string(us));
    return ucsToStatus(us);
  }
  const char* rk = addr + h.addr_len;
  for (uint32_t r = 0; r < h.nregions && r < kMaxRegions; ++r) {
    if (h.rkey_len[r] == 0) continue;
    us = ucp_ep_rkey_unpack(pr.ep, rk, &pr.rkey[r]);
    if (us != UCS_OK) {
      GSHMEM_LOG_ERROR(UCX, "cannot unpack PE %d's remote key for region %u: %s", pe, r, ucs_status_string(us));
      return ucsToStatus(us);
    }
    pr.base[r] = h.base[r];
    rk += h.rkey_len[r];
  }
  return Status::Ok;
}

Status UcxTransport::linkSlow(int pe) {
  if (pe < 0 || pe >= npes_ || pe == me_ || !peers_) {
    GSHMEM_LOG_ERROR(UCX, "no endpoint to PE %d: not a peer of PE %d through UCX", pe, me_);
    return Status::Internal;
  }
  std::lock_guard<std::mutex> lk(link_mu_);
  Peer& p = peer(pe);
  if (p.linked.load(std::memory_order_relaxed)) return Status::Ok;  // another thread made it meanwhile
  if (p.ep) return Status::Internal;  // an earlier attempt failed (and said so); the caller ends the job
  const Status s = connectPeer(pe, cards_.data() + card_stride_ * pe);
  if (!p.ep) return s;
  // Listed even when unpacking a key failed, so that teardown closes the endpoint; usable only on success.
  const int n = nlinked_.load(std::memory_order_relaxed);
  linked_[n] = pe;
  if (s == Status::Ok) p.linked.store(true, std::memory_order_release);
  nlinked_.store(n + 1, std::memory_order_release);
  GSHMEM_LOG_DEBUG(UCX, "endpoint to PE %d made on first use (%d endpoints)", pe, n + 1);
  return s;
}

}  // namespace ucxt
}  // namespace gshmem
