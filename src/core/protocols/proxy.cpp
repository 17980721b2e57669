// The device proxy (design in proxy.hpp; the ring's format and producer in include/gshmem/device/impl/, its
// consumer in proxy_ring.hpp).
//
// The thread takes every request the GPU has published (up to kBatch), starts each one (a copy-engine copy on the
// proxy's stream returns at once; a request through the staged protocol completes before it returns, except a put
// with its signal), waits for the stream once, and retires the whole batch with one store of `done`. A put to a
// staged PE followed by a non-fetching atomic on that PE (a put with signal) goes to the peer as one request
// (ProxyTarget::putAmo); it returns once its data has left this GPU, so the next one starts while the peer applies
// the first, and the batch waits for both before it is retired. Requests to one PE are executed in ring order:
// copies to a PE share the stream; staged requests to a PE queue in order at its server; and the backend reaches a
// PE either by copy or staged, never both. Every kSeenPeriod retired
// requests it also refreshes the GPU's device-side copy of `done` (one 8-byte cudaMemcpyAsync on a stream of its
// own, never waited for): producers find room there without reading host memory.
#include "core/protocols/proxy.hpp"

#include <cuda_runtime.h>
#include <pthread.h>
#include <sched.h>

#include <cstring>
#include <vector>

#include "base/cuda_check.hpp"
#include "base/deadline.hpp"
#include "base/log.hpp"
#include "core/protocols/device_path.hpp"
#include "core/protocols/proxy_ring.hpp"
#include "core/protocols/service_thread.hpp"
#include "core/runtime/runtime.hpp"

namespace gshmem::protocols {

namespace {

constexpr uint32_t kRingSlots = 4096;             ///< requests in flight per GPU
constexpr unsigned kBatch = 256;                  ///< requests retired together at most
constexpr uint64_t kSeenPeriod = kRingSlots / 8;  ///< retired requests between refreshes of the device copy
constexpr int64_t kFuseLookaheadNs = 1000;        ///< wait for the atomic behind a put held at a batch's end
static_assert(kProxyResults >= 2 * kRingSlots, "a fetch result outlives its slot's next use");

struct State {
  int dev = -1;
  ProxyTarget target{};
  ServiceThread thread;
  ProxyRingConsumer ring;
  void* host = nullptr;                   // pinned block: slots, args, done, results
  unsigned long long* done = nullptr;     // host address of ProxyRing::done
  unsigned long long* d_words = nullptr;  // device memory: head, seen (one line each)
  cudaStream_t stream = nullptr;          // the copies requests ask for
  cudaStream_t seen_stream = nullptr;     // refreshes of `seen`
  uint64_t seen_at = 0;                   // `done` value of the last refresh
  std::vector<char> fuses;                // per PE: ProxyTarget::fuses, filled on the proxy thread at its start
};
State g;

constexpr const char* kWho = "device proxy";

/// The first request of a batch that failed, kept for the report.
struct Failure {
  Status status = Status::Ok;
  ProxyReq req{};
};

/// Start one request; *queued: it left work on g.stream.
Status execute(const ProxyReq& q, bool* queued) {
  *queued = false;
  if (q.pe < 0 || q.pe >= g_rt.n_pes) return Status::InvalidArgument;
  unsigned long long* res = g.ring.result(q.ticket);
  switch (q.op) {
    case kProxyPut:
      return g.target.put(q.pe, q.off, reinterpret_cast<const void*>(q.value), q.arg, g.stream, queued);
    case kProxyPutV: {
      const uint64_t v = q.value;  // pageable: the copy has read it when put returns
      return g.target.put(q.pe, q.off, &v, q.aux + 1, g.stream, queued);
    }
    case kProxyGet: return g.target.get(q.pe, q.off, reinterpret_cast<void*>(q.value), q.arg, g.stream, queued);
    case kProxyGetV:
      *res = 0;
      return g.target.get(q.pe, q.off, res, q.aux + 1, g.stream, queued);
    case kProxyAmo: {
      uint64_t old = 0;
      const Status st = g.target.amo(q.pe, q.off, static_cast<AmoOp>(q.aux & 0xf), (q.aux & 0x10) ? 8 : 4, q.value,
                                     q.arg, &old);
      *res = old;
      return st;
    }
    default: return Status::InvalidArgument;
  }
}

/// The one line of a failed request: which request, to which PE, by which route, and why. Ends the job.
[[noreturn]] void reportFailure(const Failure& f) {
  static const char* const kOps[] = {"request", "put", "put", "get", "get", "atomic"};
  const ProxyReq& q = f.req;
  const char* op = q.op < sizeof kOps / sizeof kOps[0] ? kOps[q.op] : "request";
  if (q.pe < 0 || q.pe >= g_rt.n_pes || q.op < kProxyPut || q.op > kProxyAmo)
    serviceFailed(kWho, "GPU request %llu (op %u, PE %d of %d) is not valid: the ring holds a corrupt request",
                  static_cast<unsigned long long>(q.ticket), q.op, q.pe, g_rt.n_pes);
  serviceFailed(kWho, "GPU request %llu (%s at offset %llu of PE %d's device heap) through %s failed: %s",
                static_cast<unsigned long long>(q.ticket), op, static_cast<unsigned long long>(q.off), q.pe,
                g.target.route(q.pe), statusString(f.status));
}

/// Whether a put to @p pe may wait for an atomic behind it (a corrupt request's PE is run, and reported, as is).
bool fuses(int pe) { return pe >= 0 && pe < static_cast<int>(g.fuses.size()) && g.fuses[pe]; }

/// One batch's requests in ring order. A put to a PE whose route fuses (ProxyTarget::fuses) is held until the next
/// request is seen: a non-fetching atomic on the same PE right behind it (a put with signal) starts with it as one
/// putAmo, anything else lets the put run first, alone. A started pair is not waited for at once: the next one can
/// start (its data leaves this GPU) while the peer applies the first; complete() waits for them in order, at the
/// latest before the batch is retired.
class Batch {
 public:
  bool pending = false;  ///< some request left a copy queued on g.stream
  Failure failed;

  void operator()(const ProxyReq& q) {
    if (isError(failed.status)) return;  // the job ends with the first failure
    if (held_) {
      held_ = false;
      if (fusable(q) && start(q)) return;
      run(put_);
      if (isError(failed.status)) return;
    }
    if (q.op == kProxyPut && fuses(q.pe)) {
      held_ = true;
      put_ = q;
      return;
    }
    run(q);
  }
  bool holding() const { return held_; }
  /// Run the held put alone.
  void flush() {
    if (!held_) return;
    held_ = false;
    if (!isError(failed.status)) run(put_);
  }
  bool started() const { return nstarted_ != 0; }
  /// Wait until the oldest started pair is applied.
  void completeOldest() {
    const Started s = started_[first_];
    first_ = (first_ + 1) % kMaxStarted;
    --nstarted_;
    if (!isError(failed.status)) record(g.target.complete(s.put.pe, s.token), s.put);
  }

 private:
  static constexpr unsigned kMaxStarted = 4;  ///< started pairs in flight (the channel queues more per peer)
  struct Started {
    ProxyReq put;
    uint64_t token;
  };
  bool held_ = false;
  ProxyReq put_{};
  Started started_[kMaxStarted] = {};
  unsigned first_ = 0, nstarted_ = 0;

  void record(Status st, const ProxyReq& q) {
    if (isError(st) && !serviceExiting()) failed = Failure{st, q};  // exiting: a peer may be gone, dropped
  }
  void run(const ProxyReq& q) {
    bool queued = false;
    record(execute(q, &queued), q);
    pending |= queued;
  }
  bool fusable(const ProxyReq& q) const {
    return q.op == kProxyAmo && q.pe == put_.pe && !amoFetches(static_cast<AmoOp>(q.aux & 0xf));
  }
  /// Start the held put and atomic q as one request; false when the target declined (nothing was done).
  bool start(const ProxyReq& q) {
    if (nstarted_ == kMaxStarted) completeOldest();
    uint64_t token = 0;
    const Status st = g.target.putAmo(put_.pe, put_.off, reinterpret_cast<const void*>(put_.value), put_.arg, q.off,
                                      static_cast<AmoOp>(q.aux & 0xf), (q.aux & 0x10) ? 8 : 4, q.value, &token);
    if (st == Status::Unsupported) return false;
    *g.ring.result(q.ticket) = 0;  // not a fetching atomic
    record(st, put_);
    if (!isError(st)) started_[(first_ + nstarted_++) % kMaxStarted] = Started{put_, token};
    return true;
  }
};

/// Take up to @p max published requests into @p b. A put held at the end waits a moment for its atomic: a put with
/// signal posts both at once (proxyPostPutAmo), but a signal posted by a separate call may be a moment behind.
unsigned takeInto(Batch& b, unsigned max) {
  unsigned n = g.ring.take(max, b);
  if (b.holding()) {
    const int64_t until = monotonicNs() + kFuseLookaheadNs;
    do n += g.ring.take(1, b);
    while (b.holding() && monotonicNs() < until);
  }
  b.flush();
  return n;
}

/// Take and run what the GPU published; retire it as one batch. Returns how many requests it retired. A failed
/// request is reported and ends the job, unless the process is exiting (a peer may be gone): then it is dropped.
/// The one place where the proxy thread ends the job is reportFailure/serviceFailed: nothing below it does.
unsigned drain() {
  Batch b;
  unsigned n = takeInto(b, kBatch);
  // While started pairs are applied, what the GPU publishes meanwhile joins the batch (and may start too).
  while (b.started()) {
    const unsigned m = n < kBatch ? takeInto(b, kBatch - n) : 0;
    n += m;
    if (m == 0) b.completeOldest();
  }
  if (n == 0) return 0;
  if (b.pending) {
    const cudaError_t e = cudaStreamSynchronize(g.stream);
    if (e != cudaSuccess && !isError(b.failed.status))
      serviceFailed(kWho, "the copies of GPU requests up to %llu failed: %s",
                    static_cast<unsigned long long>(g.ring.tail()), cudaGetErrorString(e));
  }
  if (isError(b.failed.status)) reportFailure(b.failed);
  g.ring.retire();
  if (g.ring.tail() - g.seen_at >= kSeenPeriod) {
    g.seen_at = g.ring.tail();
    const cudaError_t e = cudaMemcpyAsync(g.d_words + 8, g.done, sizeof(unsigned long long), cudaMemcpyHostToDevice,
                                          g.seen_stream);
    if (e != cudaSuccess && !serviceExiting())
      serviceFailed(kWho, "cannot refresh the GPU's copy of the ring position: %s", cudaGetErrorString(e));
  }
  return n;
}

/// Pin the calling (proxy) thread to the CPUs near GPU g.dev, as far as they lie inside the CPUs it may run on
/// now. Does nothing when the topology does not know them, when none of them is allowed, or when they cover every
/// allowed CPU (a launcher's binding is never widened or replaced). Best effort: a failure is logged, not fatal.
void proxyPinNearGpu() {
  std::vector<int> near;
  if (!deviceNearCpus(g.dev, &near)) return;
  cpu_set_t allowed, want;
  CPU_ZERO(&allowed);
  CPU_ZERO(&want);
  if (pthread_getaffinity_np(pthread_self(), sizeof allowed, &allowed) != 0) return;
  for (int c : near)
    if (c >= 0 && c < CPU_SETSIZE && CPU_ISSET(c, &allowed)) CPU_SET(c, &want);
  const int n = CPU_COUNT(&want);
  if (n == 0 || n == CPU_COUNT(&allowed)) return;
  if (int rc = pthread_setaffinity_np(pthread_self(), sizeof want, &want); rc != 0)
    GSHMEM_LOG_INFO(PROXY, "cannot pin the device proxy thread near GPU %d: %s", g.dev, strerror(rc));
  else
    GSHMEM_LOG_DEBUG(PROXY, "device proxy thread pinned to the %d CPU(s) near GPU %d", n, g.dev);
}

void proxyMain() {
  cudaSetDevice(g.dev);
  proxyPinNearGpu();  // before the first poll; may load the hwloc topology here (devicePathInit then reuses it)
  if (g.target.threadInit && isError(g.target.threadInit()) && !serviceExiting())
    serviceFailed(kWho, "cannot create the proxy thread's stream and pinned result on GPU %d (see the error above)",
                  g.dev);
  for (int pe = 0; pe < g_rt.n_pes; ++pe) g.fuses[pe] = g.target.putAmo && g.target.fuses && g.target.fuses(pe);
  long idle = 0;
  while (!g.thread.stopping()) {
    if (drain() != 0) idle = 0;
    else if (++idle > 100000) std::this_thread::yield();
    else GSHMEM_CPU_RELAX();
  }
}

}  // namespace

Status proxyStart(int device, std::size_t heap_bytes, const ProxyTarget& target, ProxyRing* ring, std::string* err) {
  if (g_rt.n_pes > (1 << kProxyPeBits)) {
    *err = strFormat("the device proxy addresses at most %d PEs, this job has %d; run with GSHMEM_P2P=1 on fewer PEs",
                     1 << kProxyPeBits, g_rt.n_pes);
    return Status::Unsupported;
  }
  if (heap_bytes > (uint64_t(1) << kProxyOffsetBits)) {
    *err = strFormat("the device proxy reaches device heaps up to %llu GiB; lower GSHMEM_SYMMETRIC_SIZE_DEVICE",
                     static_cast<unsigned long long>((uint64_t(1) << kProxyOffsetBits) >> 30));
    return Status::Unsupported;
  }
  g.dev = device;
  g.target = target;
  g.fuses.assign(g_rt.n_pes, 0);
  // Pinned, mapped host memory: slots, args, then `done` on a line of its own, then the results.
  const std::size_t slots = sizeof(ProxyRequest) * kRingSlots, args = sizeof(uint64_t) * kRingSlots;
  const std::size_t bytes = slots + args + 64 + sizeof(unsigned long long) * kProxyResults;
  GSHMEM_CUDA_TRY_WHY(err, cudaHostAlloc(&g.host, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  std::memset(g.host, 0, bytes);
  void* d = nullptr;
  GSHMEM_CUDA_TRY_WHY(err, cudaHostGetDevicePointer(&d, g.host, 0));
  char* h = static_cast<char*>(g.host);
  char* dv = static_cast<char*>(d);
  g.done = reinterpret_cast<unsigned long long*>(h + slots + args);
  g.ring.attach(reinterpret_cast<ProxyRequest*>(h), reinterpret_cast<uint64_t*>(h + slots), kRingSlots, g.done,
                reinterpret_cast<unsigned long long*>(h + slots + args + 64));
  GSHMEM_CUDA_TRY_WHY(err, cudaMalloc(&g.d_words, 128));  // head at [0], seen at [8]: separate 64-byte lines
  GSHMEM_CUDA_TRY_WHY(err, cudaMemset(g.d_words, 0, 128));
  GSHMEM_CUDA_TRY_WHY(err, cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
  GSHMEM_CUDA_TRY_WHY(err, cudaStreamCreateWithFlags(&g.seen_stream, cudaStreamNonBlocking));
  g.seen_at = 0;
  ProxyRing& r = *ring;
  r.slots = reinterpret_cast<ProxyRequest*>(dv);
  r.args = reinterpret_cast<uint64_t*>(dv + slots);
  r.done = reinterpret_cast<unsigned long long*>(dv + slots + args);
  r.results = reinterpret_cast<unsigned long long*>(dv + slots + args + 64);
  r.head = g.d_words;
  r.seen = g.d_words + 8;
  r.nslots = kRingSlots;
  g.thread.start(proxyMain);
  return Status::Ok;
}

void proxyStop() {
  if (!g.thread.running()) return;
  g.thread.stop();
  cudaStreamSynchronize(g.seen_stream);
  cudaStreamDestroy(g.seen_stream);
  cudaStreamDestroy(g.stream);
  cudaFree(g.d_words);
  cudaFreeHost(g.host);
  g.host = nullptr;
  g.done = nullptr;
  g.d_words = nullptr;
  g.stream = g.seen_stream = nullptr;
}

bool proxyRunning() { return g.thread.running(); }

}  // namespace gshmem::protocols
