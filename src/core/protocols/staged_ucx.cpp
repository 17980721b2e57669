// The staged protocol over UCX (design in staged_ucx.hpp).
#include "core/protocols/staged_ucx.hpp"

#include <cuda_runtime.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "base/config.hpp"
#include "base/log.hpp"
#include "core/runtime/runtime.hpp"
#include "core/protocols/kernels.hpp"
#include "core/protocols/service_thread.hpp"
#include "core/protocols/staged_common.hpp"
#include "transports/shm/shm_channel.hpp"

namespace gshmem::protocols {

namespace {

using namespace staged;
constexpr const char* kWho = "staged/ucx";
constexpr std::size_t kBoxBytes = 4096;
enum Ring : int { kPutIn = 0, kGetIn = 1, kPutOut = 2, kGetOut = 3 };

struct alignas(64) Word {
  std::atomic<uint64_t> v;
  char pad[56];
};
/// In PE x's segment, for peer y: every field is written by y (through UCX), read by x.
struct Box {
  Word req;            ///< sequence of y's latest request to x
  ChannelRequest r;    ///< that request
  Word put_produced;   ///< chunks y placed in x's kPutIn ring (y's puts)
  Word get_produced;   ///< chunks y placed in x's kGetIn ring (answers to x's gets)
  Word put_consumed;   ///< chunks of x's puts that y drained from y's kPutIn ring
  Word get_consumed;   ///< chunks of y's gets that y drained from y's kGetIn ring
  Word result;         ///< result of x's request that y answered (written before reply)
  Word reply;          ///< sequence of x's request that y answered
};
static_assert(sizeof(Box) <= kBoxBytes, "box");

struct State {
  bool ready = false;
  int dev = -1, me = -1, n = 0, depth = 4;
  std::size_t slot = 0, ring = 0, block = 0, bytes = 0;
  char* heap = nullptr;
  char* seg = nullptr;
  bool registered = false;
  std::unique_ptr<Transport> ucx;
  std::mutex ucx_lock;  // every call into `ucx`
  std::vector<bool> need;
  PeerSides sides;                                // initiator per target, server per sender
  std::vector<uint64_t> next_put, next_get, seq;  // initiator, per target
  std::vector<uint64_t> served;                   // server, per sender
  uint64_t* amo_result = nullptr;
  ServiceThread server;  // stopped at exit when finalize does not run
};
State g;

Box* box(int y) { return reinterpret_cast<Box*>(g.seg + g.block * y); }
char* slotHere(int y, Ring r, uint64_t chunk) {
  return g.seg + g.block * y + kBoxBytes + g.ring * r + g.slot * (chunk % g.depth);
}
/// In peer y's segment, this PE's block: field at `off` of its box, or a slot of ring `r`.
RemoteAddr boxThere(int y, std::size_t off) { return RemoteAddr{y, 0, g.block * g.me + off}; }
RemoteAddr slotThere(int y, Ring r, uint64_t chunk) {
  return RemoteAddr{y, 0, g.block * g.me + kBoxBytes + g.ring * r + g.slot * (chunk % g.depth)};
}

Status putBytes(const RemoteAddr& a, const void* src, std::size_t n) {
  std::lock_guard<std::mutex> lk(g.ucx_lock);
  return g.ucx->putNbi(a, src, n);
}
/// Data before the word: fence, then the 8-byte word at `off` of y's box for this PE.
Status publishWord(int y, std::size_t off, uint64_t v) {
  std::lock_guard<std::mutex> lk(g.ucx_lock);
  GSHMEM_CHECK(g.ucx->fence());
  return g.ucx->putNbi(boxThere(y, off), &v, sizeof v);
}
bool progress(long* idle) {
  {
    std::lock_guard<std::mutex> lk(g.ucx_lock);
    g.ucx->progress();
  }
  return relax(idle);
}

/// A producer's half of one pipeline: device/host memory -> local bounce ring -> peer's ring. A local bounce slot
/// is free once its last chunk was sent; a chunk is sent once the peer's ring has room for it.
struct Source {
  int peer;
  Ring bounce, there;               ///< the local bounce ring, the peer's receiving ring
  std::size_t produced_off;         ///< the counter this producer publishes in the peer's box
  std::atomic<uint64_t>* consumed;  ///< the peer's drain counter, in this PE's box

  char* slot(uint64_t c) const { return slotHere(peer, bounce, c); }
  uint64_t room(uint64_t published) const { return published + g.depth; }
  bool ready(uint64_t c) const { return c < consumed->load(std::memory_order_acquire) + g.depth; }
  Status publish(uint64_t c, std::size_t len) {
    GSHMEM_CHECK(putBytes(slotThere(peer, there, c), slotHere(peer, bounce, c), len));
    return publishWord(peer, produced_off, c + 1);
  }
  bool idle(long* n) const { return progress(n); }
};

/// A consumer's half: this PE's receiving ring -> device/host memory; drain counts go back to the producer.
struct Drain {
  int peer;
  Ring here;
  std::atomic<uint64_t>* produced;  ///< in this PE's box
  std::size_t consumed_off;         ///< the counter published in the peer's box

  char* slot(uint64_t c) const { return slotHere(peer, here, c); }
  uint64_t available() const { return produced->load(std::memory_order_acquire); }
  Status release(uint64_t upto) { return publishWord(peer, consumed_off, upto); }
  bool idle(long* n) const { return progress(n); }
};

Status produce(Side& side, Source src, const char* from, std::size_t n, uint64_t first, std::size_t chunk) {
  return produceChunks(kWho, side, g.depth, from, n, first, chunk, src);
}
Status consume(Side& side, Drain drain, char* to, std::size_t n, uint64_t first, std::size_t chunk) {
  return consumeChunks(kWho, side, g.depth, to, n, first, chunk, drain);
}

Status serveOne(int s, const ChannelRequest& r, uint64_t* result) {
  Side& side = g.sides.in[s];
  switch (r.op) {
    case kOpPut:
      return consume(side, Drain{s, kPutIn, &box(s)->put_produced.v, offsetof(Box, put_consumed)}, g.heap + r.off,
                     r.n, r.first, r.chunk);
    case kOpGet:
      return produce(side, Source{s, kGetOut, kGetIn, offsetof(Box, get_produced), &box(s)->get_consumed.v},
                     g.heap + r.off, r.n, r.first, r.chunk);
    case kOpAmo:
      GSHMEM_CHECK(serveAmo(kWho, side, g.heap, r, g.amo_result));
      *result = *reinterpret_cast<volatile uint64_t*>(g.amo_result);
      return Status::Ok;
    default:
      GSHMEM_LOG_ERROR(TRANSPORT, "%s: request %u from PE %d is not valid", kWho, r.op, s);
      return Status::Internal;
  }
}

Status answer(int s, uint64_t seq, uint64_t result) {
  GSHMEM_CHECK(publishWord(s, offsetof(Box, result), result));
  return publishWord(s, offsetof(Box, reply), seq);
}

void serverMain() {
  cudaSetDevice(g.dev);
  long idle = 0;
  while (!g.server.stopping()) {
    bool did = false;
    for (int s = 0; s < g.n; ++s) {
      if (s == g.me) continue;
      const uint64_t q = box(s)->req.v.load(std::memory_order_acquire);
      if (q == g.served[s]) continue;
      g.served[s] = q;
      const ChannelRequest r = box(s)->r;
      uint64_t result = 0;
      if (isError(serveOne(s, r, &result)) || isError(answer(s, q, result))) {
        if (serviceExiting()) return;  // the process is exiting: the sender may be gone
        serverFailed(kWho, s, r);
      }
      did = true;
    }
    if (did) {
      idle = 0;
      continue;
    }
    {
      std::lock_guard<std::mutex> lk(g.ucx_lock);
      g.ucx->progress();
    }
    serverIdle(&idle);
  }
}

/// Post request `r` to `pe` and return its sequence.
Status post(int pe, const ChannelRequest& r, uint64_t* seq) {
  GSHMEM_CHECK(putBytes(boxThere(pe, offsetof(Box, r)), &r, sizeof r));
  *seq = ++g.seq[pe];
  return publishWord(pe, offsetof(Box, req), *seq);
}
Status awaitReply(int pe, uint64_t seq, uint64_t* result) {
  long idle = 0;
  while (box(pe)->reply.v.load(std::memory_order_acquire) != seq)
    if (!progress(&idle)) return Status::RemoteError;
  *result = box(pe)->result.v.load(std::memory_order_acquire);
  return Status::Ok;
}

Status setup(Bootstrap& bs) {
  g.bytes = g.block * static_cast<std::size_t>(g.n);
  void* m = mmap(nullptr, g.bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return Status::NoMemory;
  g.seg = static_cast<char*>(m);
  GSHMEM_CUDA_TRY(kWho, cudaHostRegister(g.seg, g.bytes, cudaHostRegisterPortable));
  g.registered = true;
  TransportConfig tc;  // the runtime's UCX settings; puts leave at once (aggregate 0): a waiter polls for each word
  tc.thread_level = g_rt.thread_level;
  tc.timeout_s = params().TIMEOUT > 0 ? params().TIMEOUT : 0;
  tc.wait_spins = g_rt.wait_spins;
  tc.aggregate = 0;
  tc.on_peer_lost = [](int pe, const char* why) { peerLost(pe, why); };
  const TransportEntry* e = transportEntry("ucx");  // the staging segment's own connection, from the registry
  g.ucx = e ? e->create(tc) : nullptr;
  if (!g.ucx) return Status::Unsupported;
  std::vector<PeerReach> reach;
  GSHMEM_CHECK(g.ucx->connect(bs, {LocalRegion{g.seg, g.bytes, -1, MemKind::Host}}, &reach));
  GSHMEM_CHECK(g.sides.create(kWho, g.n, g.depth, [](int pe) { return pe != g.me; }));
  g.next_put.assign(g.n, 0);
  g.next_get.assign(g.n, 0);
  g.seq.assign(g.n, 0);
  g.served.assign(g.n, 0);
  GSHMEM_CUDA_TRY(kWho, cudaHostAlloc(&g.amo_result, 64, cudaHostAllocPortable));
  return Status::Ok;
}

}  // namespace

bool stagedUcxReaches(int pe) { return g.ready && static_cast<unsigned>(pe) < g.need.size() && g.need[pe]; }

Status stagedUcxInit(Bootstrap& bs, const StagedUcxConfig& cfg) {
  g.me = bs.rank();
  g.n = bs.size();
  int mine = 0;
  for (int pe = 0; pe < g.n; ++pe) mine |= cfg.need[pe] ? 1 : 0;
  std::vector<int> all(g.n);
  GSHMEM_CHECK(bs.allGather(&mine, all.data(), sizeof mine));
  bool any = false;
  for (int x : all) any = any || x;
  if (!any) return Status::Ok;
  g.dev = cfg.device;
  g.heap = cfg.heap;
  g.depth = cfg.depth;
  g.slot = cfg.slot_bytes;
  g.ring = g.slot * static_cast<std::size_t>(g.depth);
  g.block = kBoxBytes + 4 * g.ring;
  g.need = cfg.need;
  GSHMEM_CUDA_TRY(kWho, cudaSetDevice(g.dev));
  GSHMEM_CHECK(setup(bs));
  g.server.start(serverMain);
  g.ready = true;
  GSHMEM_CHECK(bs.barrier());
  GSHMEM_LOG_INFO(INIT, "staged/ucx: %d slots of %zu KiB per peer and direction, server thread on GPU %d", g.depth,
                  g.slot >> 10, g.dev);
  return Status::Ok;
}

void stagedUcxFinalize(Bootstrap& bs) {
  if (!g.seg) return;
  (void)bs.barrier();  // no PE still has a request in flight
  if (g.ready) g.server.stop();
  g.sides.destroy(g.depth);
  if (g.ucx) g.ucx->disconnect();  // collective
  g.ucx.reset();
  if (g.registered) cudaHostUnregister(g.seg);
  g.registered = false;
  munmap(g.seg, g.bytes);
  g.seg = nullptr;
  if (g.amo_result) cudaFreeHost(g.amo_result);
  g.amo_result = nullptr;
  g.ready = false;
}

Status stagedUcxTransfer(int pe, std::size_t off, void* local, std::size_t n, Direction d, CUstream_st* user_stream) {
  if (!stagedUcxReaches(pe)) return Status::Unsupported;
  if (!n) return Status::Ok;
  std::lock_guard<std::mutex> lk(*g.sides.lock[pe]);
  Side& side = g.sides.out[pe];
  GSHMEM_CHECK(orderAfter(kWho, side, user_stream));
  const bool put = d == Direction::Put;
  const std::size_t chunk = g.slot;
  const ChannelRequest r = transferRequest(put, off, n, chunk, put ? &g.next_put[pe] : &g.next_get[pe]);
  uint64_t seq = 0, ignored = 0;
  GSHMEM_CHECK(post(pe, r, &seq));
  if (put)
    GSHMEM_CHECK(produce(side, Source{pe, kPutOut, kPutIn, offsetof(Box, put_produced), &box(pe)->put_consumed.v},
                         static_cast<const char*>(local), n, r.first, chunk));
  else
    GSHMEM_CHECK(consume(side, Drain{pe, kGetIn, &box(pe)->get_produced.v, offsetof(Box, get_consumed)},
                         static_cast<char*>(local), n, r.first, chunk));
  return awaitReply(pe, seq, &ignored);
}

Status stagedUcxAmo(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond,
                    uint64_t* result) {
  if (!stagedUcxReaches(pe)) return Status::Unsupported;
  std::lock_guard<std::mutex> lk(*g.sides.lock[pe]);
  uint64_t seq = 0;
  GSHMEM_CHECK(post(pe, amoRequest(op, size, off, value, cond), &seq));
  return awaitReply(pe, seq, result);
}

}  // namespace gshmem::protocols
