// PROTO (issue 6): the staged pipeline (design in staged_pipeline.hpp).
#include "core/protocols/staged_pipeline.hpp"

#include <cuda_runtime.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "base/config.hpp"
#include "core/protocols/service_thread.hpp"
#include "core/runtime.hpp"

namespace gshmem::protocols {

namespace {

constexpr int kMaxDepth = 16;
constexpr std::size_t kMinChunk = std::size_t(256) << 10;
constexpr std::size_t kCtlBytes = 4096;  ///< control page of a channel
enum : uint32_t { kOpPut = 1, kOpGet = 2 };

struct alignas(64) Line {
  std::atomic<uint64_t> v;
  char pad[56];
};
struct alignas(64) Request {  // written by the initiator before it bumps req
  uint32_t op, pad;
  uint64_t off, n, first, chunk;
};
struct Control {  // first bytes of a channel's control page
  Line req;       ///< request sequence (initiator -> server)
  Request r;
  Line produced;  ///< chunks whose data is in their slot (written by the producer)
  Line consumed;  ///< chunks drained from their slot (written by the consumer)
};
static_assert(sizeof(Control) <= kCtlBytes, "control page");

/// One side of a channel in this process: its stream and per-slot events.
struct Side {
  cudaStream_t stream = nullptr;
  cudaEvent_t ev[kMaxDepth] = {};
  cudaEvent_t user = nullptr;  ///< orders the side after the caller's stream
};

struct State {
  bool ready = false;
  int dev = -1, depth = 4;
  std::size_t chunk = 2 << 20, chan = 0, seg_size = 0;
  char* heap = nullptr;
  std::unique_ptr<Transport> transport;
  LocalRegion seg;
  std::vector<char*> seg_of;                       // each PE's segment mapped here (nullptr: other node)
  std::vector<std::pair<char*, std::size_t>> reg;  // what this process registered
  std::vector<std::unique_ptr<std::mutex>> lock;   // initiator side, per target
  std::vector<Side> out;                           // initiator side, per target
  std::vector<Side> in;                            // server side, per sender
  std::vector<uint64_t> next, seq;                 // initiator: next chunk index and request sequence, per target
  std::vector<uint64_t> served;                    // server: last request sequence served, per sender
  ServiceThread server;  // stopped at exit when finalize does not run
};
State g;

#define STAGE_CHECK(call, expr)                                                                   \
  do {                                                                                            \
    cudaError_t e_ = (expr);                                                                      \
    if (e_ != cudaSuccess) fatal(call, "staged pipeline: %s failed: %s", #expr, cudaGetErrorString(e_)); \
  } while (0)

Control* controlOf(int target, int sender) {
  return reinterpret_cast<Control*>(g.seg_of[target] + g.chan * sender);
}
char* slotOf(int target, int sender, uint64_t chunk_index) {
  return g.seg_of[target] + g.chan * sender + kCtlBytes + g.chunk * (chunk_index % g.depth);
}

void sideCreate(const char* call, Side* s) {
  STAGE_CHECK(call, cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));
  for (int i = 0; i < g.depth; ++i) STAGE_CHECK(call, cudaEventCreateWithFlags(&s->ev[i], cudaEventDisableTiming));
  STAGE_CHECK(call, cudaEventCreateWithFlags(&s->user, cudaEventDisableTiming));
}
void sideDestroy(Side* s) {
  if (!s->stream) return;
  cudaStreamSynchronize(s->stream);
  for (int i = 0; i < g.depth; ++i) cudaEventDestroy(s->ev[i]);
  cudaEventDestroy(s->user);
  cudaStreamDestroy(s->stream);
  *s = Side{};
}

/// Completed? Fatal on an error other than "not ready".
bool done(const char* call, cudaEvent_t e) {
  cudaError_t r = cudaEventQuery(e);
  if (r == cudaSuccess) return true;
  if (r != cudaErrorNotReady) fatal(call, "staged pipeline: copy failed: %s", cudaGetErrorString(r));
  return false;
}

void relax(long* idle) {
  if (++*idle > 4096) std::this_thread::yield();
  else GSHMEM_CPU_RELAX();
}

/// Producer: chunks first..first+k-1 of [src, src+n) into the channel's slots.
void produce(const char* call, Side& s, Control* c, int target, int sender, const char* src, std::size_t n,
             uint64_t first, std::size_t chunk) {
  const uint64_t k = (n + chunk - 1) / chunk;
  uint64_t issued = 0, published = 0;
  long idle = 0;
  while (published < k) {
    bool did = false;
    uint64_t free_upto = c->consumed.v.load(std::memory_order_acquire) + g.depth;
    while (issued < k && first + issued < free_upto) {
      std::size_t o = issued * chunk, len = n - o < chunk ? n - o : chunk;
      STAGE_CHECK(call, cudaMemcpyAsync(slotOf(target, sender, first + issued), src + o, len, cudaMemcpyDefault,
                                        s.stream));
      STAGE_CHECK(call, cudaEventRecord(s.ev[(first + issued) % g.depth], s.stream));
      ++issued;
      did = true;
    }
    while (published < issued && done(call, s.ev[(first + published) % g.depth])) {
      ++published;
      c->produced.v.store(first + published, std::memory_order_release);
      did = true;
    }
    if (did) idle = 0;
    else relax(&idle);
  }
}

/// Consumer: chunks first..first+k-1 from the channel's slots into [dst, dst+n). Returns when all copies completed.
void consume(const char* call, Side& s, Control* c, int target, int sender, char* dst, std::size_t n, uint64_t first,
             std::size_t chunk) {
  const uint64_t k = (n + chunk - 1) / chunk;
  uint64_t issued = 0, retired = 0;
  long idle = 0;
  while (retired < k) {
    bool did = false;
    uint64_t avail = c->produced.v.load(std::memory_order_acquire);
    while (issued < k && first + issued < avail) {
      std::size_t o = issued * chunk, len = n - o < chunk ? n - o : chunk;
      STAGE_CHECK(call, cudaMemcpyAsync(dst + o, slotOf(target, sender, first + issued), len, cudaMemcpyDefault,
                                        s.stream));
      STAGE_CHECK(call, cudaEventRecord(s.ev[(first + issued) % g.depth], s.stream));
      ++issued;
      did = true;
    }
    while (retired < issued && done(call, s.ev[(first + retired) % g.depth])) {
      ++retired;
      c->consumed.v.store(first + retired, std::memory_order_release);
      did = true;
    }
    if (did) idle = 0;
    else relax(&idle);
  }
}

/// Server: run the target side of every pending request. Returns true when it served one.
bool serve() {
  const int me = g_rt.my_pe;
  bool did = false;
  for (int s = 0; s < g_rt.n_pes; ++s) {
    if (s == me || !g.seg_of[s]) continue;
    Control* c = controlOf(me, s);
    uint64_t q = c->req.v.load(std::memory_order_acquire);
    if (q == g.served[s]) continue;
    const Request r = c->r;
    const char* call = "gshmem staged server";
    if (r.op == kOpPut) consume(call, g.in[s], c, me, s, g.heap + r.off, r.n, r.first, r.chunk);
    else if (r.op == kOpGet) produce(call, g.in[s], c, me, s, g.heap + r.off, r.n, r.first, r.chunk);
    else fatal(call, "staged request %u from PE %d is not valid", r.op, s);
    g.served[s] = q;
    did = true;
  }
  return did;
}

void serverMain() {
  cudaSetDevice(g.dev);
  long idle = 0;
  while (!g.server.stopping()) {
    if (serve()) idle = 0;
    else if (++idle > 200000) usleep(50);  // long idle: stop burning a core (adds <= 50 us to the first request)
    else if (idle > 4096) std::this_thread::yield();
    else GSHMEM_CPU_RELAX();
  }
}

/// The chunk size for an n-byte transfer: at most STAGED_CHUNK, at least 256 KiB, and small enough that a
/// transfer of a few chunks still has two in flight per slot round (n / (2 * depth)), rounded to 4 KiB.
std::size_t chunkFor(std::size_t n) {
  std::size_t c = (n / (2 * static_cast<std::size_t>(g.depth)) + 4095) & ~std::size_t(4095);
  if (c < kMinChunk) c = kMinChunk;
  return c > g.chunk ? g.chunk : c;
}

/// Initiator: post a request on the channel to `pe` (caller holds lock[pe]). Returns its first chunk index.
uint64_t post(int pe, uint32_t op, std::size_t off, std::size_t n, std::size_t chunk) {
  Control* c = controlOf(pe, g_rt.my_pe);
  const uint64_t first = g.next[pe];
  g.next[pe] += (n + chunk - 1) / chunk;
  c->r.op = op;
  c->r.off = off;
  c->r.n = n;
  c->r.first = first;
  c->r.chunk = chunk;
  c->req.v.store(++g.seq[pe], std::memory_order_release);
  return first;
}

void orderAfter(const char* call, Side& s, CUstream_st* user) {
  if (!user) return;
  STAGE_CHECK(call, cudaEventRecord(s.user, user));
  STAGE_CHECK(call, cudaStreamWaitEvent(s.stream, s.user, 0));
}

void checkPeer(const char* call, int pe) {
  if (!g.ready || pe == g_rt.my_pe || static_cast<unsigned>(pe) >= g.seg_of.size() || !g.seg_of[pe])
    fatal(call, "the staged pipeline does not reach PE %d (not on this node, or no device heap)", pe);
}

}  // namespace

bool stagedReady() { return g.ready; }

void stagedInit(const char* call, int device, char* heap_base) {
  const Params& p = params();
  const int n = g_rt.n_pes, me = g_rt.my_pe;
  g.dev = device;
  g.heap = heap_base;
  g.depth = static_cast<int>(p.STAGED_DEPTH);
  if (g.depth < 2 || g.depth > kMaxDepth)
    fatal(call, "GSHMEM_STAGED_DEPTH=%d is not between 2 and %d", g.depth, kMaxDepth);
  g.chunk = (p.STAGED_CHUNK + 4095) & ~std::size_t(4095);
  if (g.chunk < kMinChunk || g.chunk > (std::size_t(256) << 20))
    fatal(call, "GSHMEM_STAGED_CHUNK=%s is not between 256K and 256M", formatSize(p.STAGED_CHUNK).c_str());
  g.chan = kCtlBytes + g.chunk * g.depth;
  g.seg_size = g.chan * n;
  int fd = memfd_create("gshmem-staged", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(g.seg_size)) != 0)
    fatal(call, "cannot create the %zu-byte staged-pipeline segment: %s", g.seg_size, strerror(errno));
  void* m = mmap(nullptr, g.seg_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) fatal(call, "cannot map the staged-pipeline segment: %s", strerror(errno));
  for (int s = 0; s < n; ++s) std::memset(static_cast<char*>(m) + g.chan * s, 0, kCtlBytes);  // counters at 0
  g.seg = LocalRegion{static_cast<char*>(m), g.seg_size, fd};
  g.transport = shmTransportCreate();
  std::vector<PeerReach> reach;
  if (isError(g.transport->connect(*g_rt.bootstrap, {g.seg}, &reach)))
    fatal(call, "cannot map the peers' staged-pipeline segments");
  close(fd);
  g.seg.fd = -1;
  g.seg_of.assign(n, nullptr);
  for (int pe = 0; pe < n; ++pe) g.seg_of[pe] = reach[pe].mapped.empty() ? nullptr : reach[pe].mapped[0];
  STAGE_CHECK(call, cudaSetDevice(device));
  // Register what this process DMAs into: its own segment (it serves every sender) and, in each peer's segment,
  // its own channel (it initiates there). Portable: usable from every context of the process.
  auto registerRange = [&](char* base, std::size_t bytes) {
    cudaError_t e = cudaHostRegister(base, bytes, cudaHostRegisterPortable);
    if (e != cudaSuccess) fatal(call, "cannot pin %zu bytes of staged-pipeline buffers: %s", bytes, cudaGetErrorString(e));
    g.reg.emplace_back(base, bytes);
  };
  registerRange(g.seg_of[me], g.seg_size);
  for (int pe = 0; pe < n; ++pe)
    if (pe != me && g.seg_of[pe]) registerRange(g.seg_of[pe] + g.chan * me, g.chan);
  g.lock.clear();
  for (int pe = 0; pe < n; ++pe) g.lock.push_back(std::make_unique<std::mutex>());
  g.out.assign(n, Side{});
  g.in.assign(n, Side{});
  for (int pe = 0; pe < n; ++pe)
    if (pe != me && g.seg_of[pe]) {
      sideCreate(call, &g.out[pe]);
      sideCreate(call, &g.in[pe]);
    }
  g.next.assign(n, 0);
  g.seq.assign(n, 0);
  g.served.assign(n, 0);
  g.server.start(serverMain);
  g.ready = true;
  if (isError(g_rt.bootstrap->barrier())) fatal(call, "bootstrap barrier failed");
  GSHMEM_LOG_INFO(INIT, "staged pipeline: %d slots of %s per peer, server thread on GPU %d", g.depth,
                  formatSize(g.chunk).c_str(), device);
}

void stagedFinalize() {
  if (!g.ready) return;
  (void)g_rt.bootstrap->barrier();  // no PE still has a request in flight
  g.server.stop();
  for (Side& s : g.out) sideDestroy(&s);
  for (Side& s : g.in) sideDestroy(&s);
  for (auto& r : g.reg) cudaHostUnregister(r.first);
  g.reg.clear();
  g.transport->disconnect();
  g.transport.reset();
  munmap(g.seg.base, g.seg_size);
  g.seg = LocalRegion{};
  g.seg_of.clear();
  g.ready = false;
}

void stagedPut(const char* call, int pe, std::size_t off, const void* src, std::size_t n, CUstream_st* user_stream) {
  checkPeer(call, pe);
  if (!n) return;
  std::lock_guard<std::mutex> lk(*g.lock[pe]);
  Side& s = g.out[pe];
  orderAfter(call, s, user_stream);
  const std::size_t chunk = chunkFor(n);
  const uint64_t first = post(pe, kOpPut, off, n, chunk);
  Control* c = controlOf(pe, g_rt.my_pe);
  produce(call, s, c, pe, g_rt.my_pe, static_cast<const char*>(src), n, first, chunk);
  // Complete when the target's last H2D completed (blocking put semantics; also frees every slot).
  const uint64_t end = first + (n + chunk - 1) / chunk;
  long idle = 0;
  while (c->consumed.v.load(std::memory_order_acquire) < end) relax(&idle);
}

void stagedGet(const char* call, int pe, std::size_t off, void* dst, std::size_t n, CUstream_st* user_stream) {
  checkPeer(call, pe);
  if (!n) return;
  std::lock_guard<std::mutex> lk(*g.lock[pe]);
  Side& s = g.out[pe];
  orderAfter(call, s, user_stream);
  const std::size_t chunk = chunkFor(n);
  const uint64_t first = post(pe, kOpGet, off, n, chunk);
  consume(call, s, controlOf(pe, g_rt.my_pe), pe, g_rt.my_pe, static_cast<char*>(dst), n, first, chunk);
}

}  // namespace gshmem::protocols
