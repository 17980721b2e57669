// Collective mailboxes (protocol and contract in mailbox.hpp).
#include "collectives/mailbox.hpp"

#include <cstring>
#include <vector>

#include "collectives/signature.hpp"
#include "core/api.hpp"
#include "core/sync/agree.hpp"
#include "gshmem/c/types.h"

namespace gshmem::coll::mailbox {

namespace {

/// Per-peer sequence numbers of this process: messages sent to and received from each world PE, and the last
/// acknowledgement read from each peer's cell (reading the cell costs a cache-line transfer from the peer, so it is
/// read only when the last value read does not already cover the slot about to be reused).
struct Counters {
  std::vector<uint64_t> sent, received, acked;
  std::vector<unsigned char> staging;  ///< one message, assembled for the remote transport
};

Counters& counters() {
  static Counters c;
  if (GSHMEM_UNLIKELY(c.sent.size() != static_cast<std::size_t>(g_rt.n_pes))) {
    c.sent.assign(g_rt.n_pes, 0);
    c.received.assign(g_rt.n_pes, 0);
    c.acked.assign(g_rt.n_pes, 0);
  }
  return c;
}

uint64_t loadAcquire(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

/// The sequence word of message k: k modulo 2^kSeqBits in the low bits, the call summary above (signature.hpp). A
/// slot holds message k - 2 until message k replaces it, so the receiver waits for equality, which survives the wrap.
constexpr int kSeqBits = 64 - sig::kSigBits;
constexpr uint64_t kSeqMask = (uint64_t(1) << kSeqBits) - 1;
uint64_t seqWord(uint64_t k, uint32_t sig) { return (k & kSeqMask) | (uint64_t(sig) << kSeqBits); }
bool holds(uint64_t word, uint64_t k) { return (word & kSeqMask) == (k & kSeqMask); }

/// Wait until `pe` has released this PE's message `k`.
void waitAcked(const char* call, int pe, uint64_t k) {
  uint64_t& acked = counters().acked[pe];
  if (acked >= k) return;
  const uint64_t* ack = mailboxAck(pe);
  if ((acked = loadAcquire(ack)) >= k) return;
  const wait::Note note(call, wait::kRelease, pe, k);
  waitFor([&] { return (acked = loadAcquire(ack)) >= k; }, call);
}

/// Remote peer: the payload and the sequence word in one put-with-signal (the signal lands after the data).
void sendRemote(const char* call, int pe, char* slot, uint64_t k, const void* head, std::size_t hn, const void* body,
                std::size_t bn) {
  Counters& c = counters();
  if (c.staging.size() < capacity()) c.staging.resize(capacity());
  std::memcpy(c.staging.data(), head, hn);
  if (bn) std::memcpy(c.staging.data() + hn, body, bn);
  RemoteAddr rd, rs;
  if (resolve(call, "mailbox", slot + kMailboxHeader, hn + bn, pe, &rd) != nullptr ||
      resolve(call, "mailbox", slot, kMailboxHeader, pe, &rs) != nullptr)
    fatal(call, "mailbox of PE %d is partly mapped", pe);
  if (hn + bn == 0) return remoteSignal(call, rs, k, false);
  remotePutSignal(call, rd, c.staging.data(), hn + bn, rs, k, false);
}

}  // namespace

std::size_t capacity() { return mailboxPayload(g_rt.n_pes); }

std::size_t bytesPerPeer() { return 3 * sizeof(decltype(Counters::sent)::value_type); }  // sent, received, acked

bool usable() { return g_rt.thread_level < SHMEM_THREAD_MULTIPLE; }

void send(const char* call, int pe, uint32_t sig, const void* head, std::size_t hn, const void* body,
          std::size_t bn) {
  const uint64_t n = ++counters().sent[pe];
  const uint64_t k = seqWord(n, sig);
  if (n > 2) waitAcked(call, pe, n - 2);  // slot n & 1 last held message n - 2: wait until pe has consumed it
  char* slot = mailboxSlot(g_rt.my_pe, static_cast<int>(n & 1));
  RemoteAddr ra;
  char* p = resolve(call, "mailbox", slot, kMailboxHeader + hn + bn, pe, &ra);
  if (GSHMEM_UNLIKELY(p == nullptr)) return sendRemote(call, pe, slot, k, head, hn, body, bn);
  if (hn) std::memcpy(p + kMailboxHeader, head, hn);
  if (bn) copyBytes(p + kMailboxHeader + hn, body, bn);
  __atomic_store_n(reinterpret_cast<uint64_t*>(p), k, __ATOMIC_RELEASE);
}

void sendData(const char* call, int pe, uint32_t sig, void* dest, const void* src, std::size_t n) {
  const uint64_t m = ++counters().sent[pe];
  const uint64_t k = seqWord(m, sig);
  if (m > 2) waitAcked(call, pe, m - 2);  // slot m & 1 last held message m - 2: wait until pe has consumed it
  RemoteAddr rd, rs;
  char* d = resolve(call, "dest", dest, n, pe, &rd);
  char* slot = resolve(call, "mailbox", mailboxSlot(g_rt.my_pe, static_cast<int>(m & 1)), kMailboxHeader, pe, &rs);
  if (GSHMEM_LIKELY(d != nullptr && slot != nullptr)) {
    copyBytes(d, src, n);
    __atomic_store_n(reinterpret_cast<uint64_t*>(slot), k, __ATOMIC_RELEASE);
    return;
  }
  if (GSHMEM_UNLIKELY(d != nullptr || slot != nullptr)) fatal(call, "the heap of PE %d is partly mapped", pe);
  remotePutSignal(call, rd, src, n, rs, k, false);
}

const char* receive(const char* call, int pe, uint32_t sig) {
  const uint64_t k = counters().received[pe] + 1;
  const char* slot = mailboxSlot(pe, static_cast<int>(k & 1));
  const uint64_t* seq = reinterpret_cast<const uint64_t*>(slot);
  uint64_t w = loadAcquire(seq);
  if (GSHMEM_UNLIKELY(!holds(w, k))) {
    const wait::Note note(call, wait::kMessage, pe, k);
    waitFor([&] { return holds(w = loadAcquire(seq), k); }, call);
  }
  const uint32_t there = static_cast<uint32_t>(w >> kSeqBits);
  if (GSHMEM_UNLIKELY(there != sig) && sig != 0 && there != 0 && g_rt.check > 0) sig::mismatch(call, pe, sig, there);
  return slot + kMailboxHeader;
}

bool arrived(int pe) {
  const uint64_t k = counters().received[pe] + 1;
  return holds(loadAcquire(reinterpret_cast<const uint64_t*>(mailboxSlot(pe, static_cast<int>(k & 1)))), k);
}

void release(const char* call, int pe) {
  const uint64_t k = ++counters().received[pe];
  uint64_t* cell = mailboxAck(g_rt.my_pe);  // the cell at `pe` that counts this PE's receipts
  RemoteAddr ra;
  char* p = resolve(call, "mailbox", cell, sizeof(uint64_t), pe, &ra);
  if (GSHMEM_LIKELY(p != nullptr)) __atomic_store_n(reinterpret_cast<uint64_t*>(p), k, __ATOMIC_RELEASE);
  else remoteSignalLazy(call, ra, k);  // the sender needs it only two messages later: let it ride on other traffic
}

void waitReleased(const char* call, int pe) {
  waitAcked(call, pe, counters().sent[pe]);
}

}  // namespace gshmem::coll::mailbox
