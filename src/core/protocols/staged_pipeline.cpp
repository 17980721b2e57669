// The staged protocol (design in staged_pipeline.hpp).
#include "core/protocols/staged_pipeline.hpp"

#include <cuda_runtime.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "base/log.hpp"
#include "core/protocols/kernels.hpp"
#include "core/protocols/service_thread.hpp"
#include "core/protocols/staged_common.hpp"

namespace gshmem::protocols {

namespace {

using namespace staged;
constexpr const char* kWho = "staged/shm";

struct State {
  bool ready = false;
  int dev = -1, depth = 4, me = -1, n = 0;
  char* heap = nullptr;
  ShmChannel* ch = nullptr;
  std::vector<std::pair<char*, std::size_t>> reg;  // what this process registered
  PeerSides sides;                                 // initiator per target, server per sender
  std::vector<uint64_t> next;                      // initiator: next chunk index, per target
  uint64_t* amo_result = nullptr;                  // server: pinned old value of the atomic it applies
  ServiceThread server;  // stopped at exit when finalize does not run
};
State g;

/// The ring of channel sender -> target in shared memory: slots and both counters are plain memory of the node.
struct ChannelRing {
  int target, sender;
  std::atomic<uint64_t>& produced;
  std::atomic<uint64_t>& consumed;

  ChannelRing(int t, int s)
      : target(t), sender(s), produced(g.ch->produced(t, s)), consumed(g.ch->consumed(t, s)) {}
  char* slot(uint64_t c) const { return g.ch->slot(target, sender, c); }
  // Producer: a slot is free once the consumer drained the chunk depth before it.
  uint64_t room(uint64_t) const { return consumed.load(std::memory_order_acquire) + g.depth; }
  bool ready(uint64_t) const { return true; }
  Status publish(uint64_t c, std::size_t) {
    produced.store(c + 1, std::memory_order_release);
    return Status::Ok;
  }
  // Consumer.
  uint64_t available() const { return produced.load(std::memory_order_acquire); }
  Status release(uint64_t upto) {
    consumed.store(upto, std::memory_order_release);
    return Status::Ok;
  }
  bool idle(long* n) const { return relax(n); }
};

/// Producer on channel sender -> target: chunks first..first+k-1 of [src, src+n) into the slots.
Status produce(Side& s, int target, int sender, const char* src, std::size_t n, uint64_t first, std::size_t chunk) {
  ChannelRing ring(target, sender);
  return produceChunks(kWho, s, g.depth, src, n, first, chunk, ring);
}

/// Consumer on channel sender -> target: chunks first..first+k-1 from the slots into [dst, dst+n). Returns when
/// every copy completed.
Status consume(Side& s, int target, int sender, char* dst, std::size_t n, uint64_t first, std::size_t chunk) {
  ChannelRing ring(target, sender);
  return consumeChunks(kWho, s, g.depth, dst, n, first, chunk, ring);
}

/// Server: the data of a kOpPutAmo request, then its atomic queued right behind the last copy (no wait between
/// them: the stream orders the atomic after the data), then one wait for both. A set (a put with signal's usual
/// atomic) is a stream memory write, not a kernel.
Status servePutAmo(Side& s, int sender, const ChannelRequest& r) {
  ChannelRing ring(g.me, sender);
  auto atomic = [&] { return enqueueAmo(kWho, s, g.heap + r.cond, r.aux, r.value, 0, g.amo_result); };
  GSHMEM_CHECK(consumeChunks(kWho, s, g.depth, g.heap + r.off, r.n, r.first, r.chunk, ring, atomic));
  GSHMEM_CUDA_TRY(kWho, cudaStreamSynchronize(s.stream));
  return Status::Ok;
}

/// Server: run the target side of one request from `sender`.
Status serveOne(int sender, const ChannelRequest& r) {
  Side& s = g.sides.in[sender];
  switch (r.op) {
    case kOpPut: return consume(s, g.me, sender, g.heap + r.off, r.n, r.first, r.chunk);
    case kOpGet: return produce(s, g.me, sender, g.heap + r.off, r.n, r.first, r.chunk);
    case kOpAmo: return serveAmo(kWho, s, g.heap, r, g.amo_result);
    case kOpPutAmo: return servePutAmo(s, sender, r);
    default:
      GSHMEM_LOG_ERROR(TRANSPORT, "%s: request %u from PE %d is not valid", kWho, r.op, sender);
      return Status::Internal;
  }
}

void serverMain() {
  cudaSetDevice(g.dev);
  long idle = 0;
  while (!g.server.stopping()) {
    bool did = false;
    ChannelRequest r;
    for (int s = 0; s < g.n; ++s) {
      if (!g.ch->reaches(s) || !g.ch->next(s, &r)) continue;
      if (isError(serveOne(s, r))) {
        if (serviceExiting()) return;  // the process is exiting: the sender may be gone
        serverFailed(kWho, s, r);
      }
      const bool amo = r.op == kOpAmo || r.op == kOpPutAmo;
      g.ch->reply(s, amo ? *reinterpret_cast<volatile uint64_t*>(g.amo_result) : 0);
      did = true;
    }
    if (did) idle = 0;
    else serverIdle(&idle);
  }
}

/// The chunk size for an n-byte transfer: at most the slot size, at least 256 KiB, and small enough that a
/// transfer of a few chunks still has two in flight per slot round (n / (2 * depth)), rounded to 4 KiB.
std::size_t chunkFor(std::size_t n) {
  std::size_t c = (n / (2 * static_cast<std::size_t>(g.depth)) + 4095) & ~std::size_t(4095);
  if (c < kMinChunk) c = kMinChunk;
  return c > g.ch->slotBytes() ? g.ch->slotBytes() : c;
}

/// Wait until the channel to @p pe has room for a request (requests started earlier may still be queued).
Status waitRoom(int pe) {
  long idle = 0;
  while (!g.ch->room(pe))
    if (!relax(&idle)) return Status::RemoteError;
  return Status::Ok;
}

/// Wait until @p pe's server answered request @p seq; its result in *result.
Status waitReply(int pe, uint64_t seq, uint64_t* result) {
  long idle = 0;
  while (!g.ch->replied(pe, seq, result))
    if (!relax(&idle)) return Status::RemoteError;
  return Status::Ok;
}

Status pin(char* base, std::size_t bytes) {
  GSHMEM_CUDA_TRY(kWho, cudaHostRegister(base, bytes, cudaHostRegisterPortable));
  g.reg.emplace_back(base, bytes);
  return Status::Ok;
}

}  // namespace

bool stagedReaches(int pe) { return g.ready && g.ch->reaches(pe); }
const char* stagedVia(int) { return "shm"; }

Status stagedInit(Bootstrap& bs, const StagedConfig& cfg) {
  g.dev = cfg.device;
  g.heap = cfg.heap;
  g.ch = cfg.channel;
  g.depth = g.ch->depth();
  g.me = bs.rank();
  g.n = bs.size();
  GSHMEM_CUDA_TRY(kWho, cudaSetDevice(g.dev));
  // Pin what this process DMAs into: its own segment (it serves every sender) and, in each peer's segment, its
  // own channel (it initiates there). Portable: usable from every context of the process.
  if (g.ch->ownSegment()) GSHMEM_CHECK(pin(g.ch->ownSegment(), g.ch->segmentBytes()));
  for (int pe = 0; pe < g.n; ++pe)
    if (g.ch->reaches(pe)) GSHMEM_CHECK(pin(g.ch->channelBase(pe, g.me), g.ch->channelBytes()));
  GSHMEM_CHECK(g.sides.create(kWho, g.n, g.depth, [](int pe) { return g.ch->reaches(pe); }));
  g.next.assign(g.n, 0);
  GSHMEM_CUDA_TRY(kWho, cudaHostAlloc(&g.amo_result, 64, cudaHostAllocPortable));
  g.server.start(serverMain);
  g.ready = true;
  GSHMEM_CHECK(bs.barrier());
  GSHMEM_LOG_INFO(INIT, "staged: %d slots of %zu KiB per peer, server thread on GPU %d", g.depth,
                  g.ch->slotBytes() >> 10, g.dev);
  return Status::Ok;
}

void stagedFinalize(Bootstrap& bs) {
  if (!g.ready) return;
  (void)bs.barrier();  // no PE still has a request in flight
  g.server.stop();
  g.sides.destroy(g.depth);
  for (auto& r : g.reg) cudaHostUnregister(r.first);
  g.reg.clear();
  cudaFreeHost(g.amo_result);
  g.amo_result = nullptr;
  g.ready = false;
}

Status stagedTransfer(int pe, std::size_t off, void* local, std::size_t n, Direction d, CUstream_st* user_stream) {
  if (!stagedReaches(pe)) return Status::Unsupported;
  if (!n) return Status::Ok;
  std::lock_guard<std::mutex> lk(*g.sides.lock[pe]);
  Side& s = g.sides.out[pe];
  GSHMEM_CHECK(orderAfter(kWho, s, user_stream));
  const std::size_t chunk = chunkFor(n);
  GSHMEM_CHECK(waitRoom(pe));
  const ChannelRequest r = transferRequest(d == Direction::Put, off, n, chunk, &g.next[pe]);
  const uint64_t seq = g.ch->post(pe, r);
  if (d == Direction::Get) GSHMEM_CHECK(consume(s, pe, g.me, static_cast<char*>(local), n, r.first, chunk));
  else GSHMEM_CHECK(produce(s, pe, g.me, static_cast<const char*>(local), n, r.first, chunk));
  // Complete when the server answered: for a put its last H2D completed (blocking put semantics, every slot free).
  uint64_t ignored = 0;
  return waitReply(pe, seq, &ignored);
}

Status stagedPutAmoStart(int pe, std::size_t off, const void* src, std::size_t n, std::size_t amo_off, AmoOp op,
                         unsigned size, uint64_t value, uint64_t* seq) {
  if (!stagedReaches(pe) || n == 0 || amoFetches(op)) return Status::Unsupported;
  std::lock_guard<std::mutex> lk(*g.sides.lock[pe]);
  GSHMEM_CHECK(waitRoom(pe));
  Side& s = g.sides.out[pe];
  const std::size_t chunk = chunkFor(n);
  const ChannelRequest r = putAmoRequest(off, n, chunk, &g.next[pe], op, size, amo_off, value);
  *seq = g.ch->post(pe, r);
  return produce(s, pe, g.me, static_cast<const char*>(src), n, r.first, chunk);
}

Status stagedComplete(int pe, uint64_t seq) {
  uint64_t ignored = 0;
  return waitReply(pe, seq, &ignored);
}

Status stagedAmo(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond, uint64_t* result) {
  if (!stagedReaches(pe)) return Status::Unsupported;
  std::lock_guard<std::mutex> lk(*g.sides.lock[pe]);
  GSHMEM_CHECK(waitRoom(pe));
  return waitReply(pe, g.ch->post(pe, amoRequest(op, size, off, value, cond)), result);
}

}  // namespace gshmem::protocols
