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
  std::vector<std::unique_ptr<std::mutex>> lock;   // initiator side, per target
  std::vector<Side> out;                           // initiator side, per target
  std::vector<Side> in;                            // server side, per sender
  std::vector<uint64_t> next;                      // initiator: next chunk index, per target
  uint64_t* amo_result = nullptr;                  // server: pinned old value of the atomic it applies
  ServiceThread server;  // stopped at exit when finalize does not run
};
State g;

/// Producer on channel sender -> target: chunks first..first+k-1 of [src, src+n) into the slots.
Status produce(Side& s, int target, int sender, const char* src, std::size_t n, uint64_t first, std::size_t chunk) {
  std::atomic<uint64_t>& produced = g.ch->produced(target, sender);
  std::atomic<uint64_t>& consumed = g.ch->consumed(target, sender);
  const uint64_t k = (n + chunk - 1) / chunk;
  uint64_t issued = 0, published = 0;
  long idle = 0;
  while (published < k) {
    bool did = false, yes = false;
    const uint64_t free_upto = consumed.load(std::memory_order_acquire) + g.depth;
    while (issued < k && first + issued < free_upto) {
      std::size_t o = issued * chunk, len = n - o < chunk ? n - o : chunk;
      STAGED_CUDA_TRY(cudaMemcpyAsync(g.ch->slot(target, sender, first + issued), src + o, len, cudaMemcpyDefault,
                                s.stream));
      STAGED_CUDA_TRY(cudaEventRecord(s.ev[(first + issued) % g.depth], s.stream));
      ++issued;
      did = true;
    }
    while (published < issued) {
      GSHMEM_CHECK(eventDone(kWho, s.ev[(first + published) % g.depth], &yes));
      if (!yes) break;
      produced.store(first + ++published, std::memory_order_release);
      did = true;
    }
    if (did) idle = 0;
    else if (!relax(&idle)) return Status::RemoteError;
  }
  return Status::Ok;
}

/// Consumer on channel sender -> target: chunks first..first+k-1 from the slots into [dst, dst+n). Returns when
/// every copy completed.
Status consume(Side& s, int target, int sender, char* dst, std::size_t n, uint64_t first, std::size_t chunk) {
  std::atomic<uint64_t>& produced = g.ch->produced(target, sender);
  std::atomic<uint64_t>& consumed = g.ch->consumed(target, sender);
  const uint64_t k = (n + chunk - 1) / chunk;
  uint64_t issued = 0, retired = 0;
  long idle = 0;
  while (retired < k) {
    bool did = false, yes = false;
    const uint64_t avail = produced.load(std::memory_order_acquire);
    while (issued < k && first + issued < avail) {
      std::size_t o = issued * chunk, len = n - o < chunk ? n - o : chunk;
      STAGED_CUDA_TRY(cudaMemcpyAsync(dst + o, g.ch->slot(target, sender, first + issued), len, cudaMemcpyDefault,
                                s.stream));
      STAGED_CUDA_TRY(cudaEventRecord(s.ev[(first + issued) % g.depth], s.stream));
      ++issued;
      did = true;
    }
    while (retired < issued) {
      GSHMEM_CHECK(eventDone(kWho, s.ev[(first + retired) % g.depth], &yes));
      if (!yes) break;
      consumed.store(first + ++retired, std::memory_order_release);
      did = true;
    }
    if (did) idle = 0;
    else if (!relax(&idle)) return Status::RemoteError;
  }
  return Status::Ok;
}

/// Server: run the target side of one request from `sender`.
Status serveOne(int sender, const ChannelRequest& r) {
  Side& s = g.in[sender];
  switch (r.op) {
    case kOpPut: return consume(s, g.me, sender, g.heap + r.off, r.n, r.first, r.chunk);
    case kOpGet: return produce(s, g.me, sender, g.heap + r.off, r.n, r.first, r.chunk);
    case kOpAmo:
      STAGED_CUDA_TRY(launchAmo(g.heap + r.off, r.aux & 0xff, r.aux >> 8, r.value, r.cond, g.amo_result, s.stream));
      STAGED_CUDA_TRY(cudaStreamSynchronize(s.stream));
      return Status::Ok;
    default:
      GSHMEM_LOG_ERROR(TRANSPORT, "staged: request %u from PE %d is not valid", r.op, sender);
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
        fatal("gshmem staged server", "cannot serve a request of PE %d on this GPU (see the error above)", s);
      }
      g.ch->reply(s, r.op == kOpAmo ? *reinterpret_cast<volatile uint64_t*>(g.amo_result) : 0);
      did = true;
    }
    if (did) idle = 0;
    else if (++idle > 200000) usleep(50);  // long idle: stop burning a core (adds <= 50 us to the first request)
    else if (idle > 4096) std::this_thread::yield();
    else GSHMEM_CPU_RELAX();
  }
}

/// The chunk size for an n-byte transfer: at most the slot size, at least 256 KiB, and small enough that a
/// transfer of a few chunks still has two in flight per slot round (n / (2 * depth)), rounded to 4 KiB.
std::size_t chunkFor(std::size_t n) {
  std::size_t c = (n / (2 * static_cast<std::size_t>(g.depth)) + 4095) & ~std::size_t(4095);
  if (c < kMinChunk) c = kMinChunk;
  return c > g.ch->slotBytes() ? g.ch->slotBytes() : c;
}

Status pin(char* base, std::size_t bytes) {
  STAGED_CUDA_TRY(cudaHostRegister(base, bytes, cudaHostRegisterPortable));
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
  STAGED_CUDA_TRY(cudaSetDevice(g.dev));
  // Pin what this process DMAs into: its own segment (it serves every sender) and, in each peer's segment, its
  // own channel (it initiates there). Portable: usable from every context of the process.
  if (g.ch->ownSegment()) GSHMEM_CHECK(pin(g.ch->ownSegment(), g.ch->segmentBytes()));
  for (int pe = 0; pe < g.n; ++pe)
    if (g.ch->reaches(pe)) GSHMEM_CHECK(pin(g.ch->channelBase(pe, g.me), g.ch->channelBytes()));
  g.lock.clear();
  for (int pe = 0; pe < g.n; ++pe) g.lock.push_back(std::make_unique<std::mutex>());
  g.out.assign(g.n, Side{});
  g.in.assign(g.n, Side{});
  for (int pe = 0; pe < g.n; ++pe)
    if (g.ch->reaches(pe)) {
      GSHMEM_CHECK(sideCreate(kWho, &g.out[pe], g.depth));
      GSHMEM_CHECK(sideCreate(kWho, &g.in[pe], g.depth));
    }
  g.next.assign(g.n, 0);
  STAGED_CUDA_TRY(cudaHostAlloc(&g.amo_result, 64, cudaHostAllocPortable));
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
  for (Side& s : g.out) sideDestroy(&s, g.depth);
  for (Side& s : g.in) sideDestroy(&s, g.depth);
  for (auto& r : g.reg) cudaHostUnregister(r.first);
  g.reg.clear();
  cudaFreeHost(g.amo_result);
  g.amo_result = nullptr;
  g.ready = false;
}

Status stagedTransfer(int pe, std::size_t off, void* local, std::size_t n, Direction d, CUstream_st* user_stream) {
  if (!stagedReaches(pe)) return Status::Unsupported;
  if (!n) return Status::Ok;
  std::lock_guard<std::mutex> lk(*g.lock[pe]);
  Side& s = g.out[pe];
  GSHMEM_CHECK(orderAfter(kWho, s, user_stream));
  const std::size_t chunk = chunkFor(n);
  ChannelRequest r;
  r.op = d == Direction::Put ? kOpPut : kOpGet;
  r.off = off;
  r.n = n;
  r.first = g.next[pe];
  r.chunk = chunk;
  g.next[pe] += (n + chunk - 1) / chunk;
  const uint64_t seq = g.ch->post(pe, r);
  if (d == Direction::Get) GSHMEM_CHECK(consume(s, pe, g.me, static_cast<char*>(local), n, r.first, chunk));
  else GSHMEM_CHECK(produce(s, pe, g.me, static_cast<const char*>(local), n, r.first, chunk));
  // Complete when the server answered: for a put its last H2D completed (blocking put semantics, every slot free).
  uint64_t ignored = 0;
  long idle = 0;
  while (!g.ch->replied(pe, seq, &ignored))
    if (!relax(&idle)) return Status::RemoteError;
  return Status::Ok;
}

Status stagedAmo(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond, uint64_t* result) {
  if (!stagedReaches(pe)) return Status::Unsupported;
  std::lock_guard<std::mutex> lk(*g.lock[pe]);
  ChannelRequest r;
  r.op = kOpAmo;
  r.aux = static_cast<uint32_t>(op) | (size << 8);
  r.off = off;
  r.value = value;
  r.cond = cond;
  const uint64_t seq = g.ch->post(pe, r);
  long idle = 0;
  while (!g.ch->replied(pe, seq, result))
    if (!relax(&idle)) return Status::RemoteError;
  return Status::Ok;
}

}  // namespace gshmem::protocols
