// Microbenchmarks of the GPU -> proxy request ring on host memory: a producer posting 16-byte requests and the
// proxy's consumer taking them, executing a stand-in for each and retiring them in batches.
//
// Why it matters: every device-initiated operation to a peer that P2P cannot reach (and every put/get above
// DeviceHandle::ce_min) goes through this ring and the one proxy thread per PE that drains it in order. The project's
// rule (no malloc, syscall or lock per small operation; O(1) scheduling) applies to that thread too: its
// per-request bookkeeping bounds the message rate of small device puts and adds to their latency, on top of the
// transport. This separates that bookkeeping (ns) from the copy behind it (cudaMemcpyAsync or the staged protocol,
// us).
//
// What is the project's code: the request format and its encoders (include/gshmem/device/impl/handle__types.cuh)
// and the consumer, ProxyRingConsumer (src/core/protocols/proxy_ring.hpp), which the proxy thread runs as is. The
// producer, detail::proxyPost in impl/api__funcs.cuh, is device code: post() below restates it step for step with
// C++ atomics (its release store of the header is the GPU's st.release.sys), and the device-side copy of the
// consumer's position that the proxy refreshes with a cudaMemcpyAsync is a plain store here. The execution of a
// request ends in a host memcpy / CPU atomic into a host buffer standing in for the peer's device heap (the real
// one calls cudaMemcpyAsync or the staged protocol). Not covered: the GPU side (atomicAdd on device memory, PCIe
// writes into pinned memory, the GPU polling `done`), the copy behind each request, and the staged protocol
// between PEs.
// Cross-thread numbers are sensitive to whatever else runs on the two cores (each side spins on a core).
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "core/protocols/proxy_ring.hpp"
#include "gshmem/device/impl/handle__types.cuh"
#include "transports/transport.hpp"  // AmoOp: kProxyAmo's aux carries one

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MICRO_CPU_RELAX() _mm_pause()
#else
#define MICRO_CPU_RELAX() std::atomic_signal_fence(std::memory_order_seq_cst)
#endif

namespace {

using gshmem::AmoOp;
using gshmem::kProxyAmo;
using gshmem::kProxyGet;
using gshmem::kProxyGetV;
using gshmem::kProxyPut;
using gshmem::kProxyPutV;
using gshmem::kProxyResults;
using gshmem::ProxyRequest;
using gshmem::ProxyRing;
using gshmem::protocols::ProxyReq;
using gshmem::protocols::ProxyRingConsumer;

constexpr uint32_t kRingSlots = 4096;            ///< as proxy.cpp
constexpr uint64_t kSeenPeriod = kRingSlots / 8;  ///< as proxy.cpp
constexpr unsigned kMaxBatch = 256;              ///< as proxy.cpp
constexpr int kPes = 8;                          ///< PEs whose "device heaps" the consumer writes into
constexpr std::size_t kHeapBytes = 1 << 20;      ///< per stand-in heap

// ------------------------------------------------------------------------------------ the ring in host memory

/// Everything the two sides share: the header's ProxyRing (pointers into this object's storage) plus the
/// stand-in peer heaps the requests land in.
struct HostRing {
  ProxyRing ring;
  char* heap[kPes] = {};

  HostRing() {
    // One block laid out as in proxyStart(): slots, args, `done` on its own 64-byte line, then the results.
    const std::size_t slots = sizeof(ProxyRequest) * kRingSlots, args = sizeof(uint64_t) * kRingSlots;
    const std::size_t bytes = slots + args + 64 + sizeof(unsigned long long) * kProxyResults;
    block_ = static_cast<char*>(std::aligned_alloc(4096, bytes));
    std::memset(block_, 0, bytes);
    ring.slots = reinterpret_cast<ProxyRequest*>(block_);
    ring.args = reinterpret_cast<uint64_t*>(block_ + slots);
    ring.done = reinterpret_cast<unsigned long long*>(block_ + slots + args);
    ring.results = reinterpret_cast<unsigned long long*>(block_ + slots + args + 64);
    ring.head = &words_->head;  // device memory in the real ring: here lines of their own
    ring.seen = &words_->seen;
    ring.nslots = kRingSlots;
    for (char*& h : heap) {
      h = static_cast<char*>(std::aligned_alloc(4096, kHeapBytes));
      std::memset(h, 0, kHeapBytes);
    }
  }
  ~HostRing() {
    for (char* h : heap) std::free(h);
    std::free(block_);
  }
  HostRing(const HostRing&) = delete;
  HostRing& operator=(const HostRing&) = delete;

 private:
  struct Words {
    alignas(64) unsigned long long head = 0;
    alignas(64) unsigned long long seen = 0;
  };
  std::unique_ptr<Words> words_ = std::make_unique<Words>();
  char* block_ = nullptr;
};

// ------------------------------------------------------------------------------------ producer (proxyPost)

/// detail::proxyPost on the host: claim a ticket, find room by the device-side copy of `done` (by `done` itself
/// only when the copy says full), write the third word and the value, publish the header with a release store.
inline unsigned long long post(const ProxyRing& r, uint32_t op, int pe, uint32_t aux, uint64_t off, uint64_t value,
                               uint64_t arg, bool has_arg) {
  const unsigned long long t = __atomic_fetch_add(r.head, 1ull, __ATOMIC_RELAXED);
  if (t - __atomic_load_n(r.seen, __ATOMIC_RELAXED) >= r.nslots)
    while (t - __atomic_load_n(r.done, __ATOMIC_ACQUIRE) >= r.nslots) MICRO_CPU_RELAX();
  const uint32_t i = static_cast<uint32_t>(t) & (r.nslots - 1);
  if (has_arg) __atomic_store_n(&r.args[i], arg, __ATOMIC_RELAXED);
  __atomic_store_n(&r.slots[i].value, value, __ATOMIC_RELAXED);
  __atomic_store_n(&r.slots[i].header,
                   gshmem::proxyHeader(op, aux, static_cast<uint32_t>(pe), off) | gshmem::proxyPhase(t, r.nslots),
                   __ATOMIC_RELEASE);
  return t;
}

/// detail::proxyWait: until the proxy retired the request of @p ticket.
inline void waitDone(const ProxyRing& r, unsigned long long ticket) {
  while (__atomic_load_n(r.done, __ATOMIC_ACQUIRE) <= ticket) MICRO_CPU_RELAX();
}

// ------------------------------------------------------------------------------------ consumer (proxyMain)

/// The proxy's side: ProxyRingConsumer plus proxy.cpp's drain(), with host stand-ins for the copies.
struct Consumer {
  const ProxyRing* r;
  char* const* heap;
  ProxyRingConsumer ring;
  uint64_t seen_at = 0;
  uint64_t bad = 0;  ///< requests that failed validation (the real proxy calls fatal())

  Consumer(const ProxyRing* ring_, char* const* heap_) : r(ring_), heap(heap_) {
    ring.attach(r->slots, r->args, r->nslots, r->done, r->results);
  }

  /// proxy.cpp's execute(): validate the PE, dispatch on the op; the sink is a host memcpy / CPU atomic.
  void execute(const ProxyReq& q) {
    if (q.pe >= kPes) {
      ++bad;
      return;
    }
    char* base = heap[q.pe];
    switch (q.op) {
      case kProxyPut: std::memcpy(base + q.off, reinterpret_cast<const void*>(q.value), q.arg); break;
      case kProxyPutV: {
        const uint64_t v = q.value;  // a local: taking q's address would keep the whole request in memory
        std::memcpy(base + q.off, &v, q.aux + 1);
        break;
      }
      case kProxyGet: std::memcpy(reinterpret_cast<void*>(q.value), base + q.off, q.arg); break;
      case kProxyGetV: {
        uint64_t v = 0;
        std::memcpy(&v, base + q.off, q.aux + 1);
        *ring.result(q.ticket) = v;
        break;
      }
      case kProxyAmo: *ring.result(q.ticket) = amo(reinterpret_cast<uint64_t*>(base + q.off), AmoOp(q.aux & 0xf), q.value, q.arg); break;
      default: ++bad; break;
    }
  }
  static uint64_t amo(uint64_t* q, AmoOp op, uint64_t v, uint64_t c) {
    switch (op) {
      case AmoOp::Fetch: return __atomic_load_n(q, __ATOMIC_SEQ_CST);
      case AmoOp::Set: __atomic_store_n(q, v, __ATOMIC_SEQ_CST); return 0;
      case AmoOp::CompareSwap: __atomic_compare_exchange_n(q, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return c;
      case AmoOp::FetchAdd: return __atomic_fetch_add(q, v, __ATOMIC_SEQ_CST);
      case AmoOp::Add: __atomic_fetch_add(q, v, __ATOMIC_SEQ_CST); return 0;
      default: return __atomic_exchange_n(q, v, __ATOMIC_SEQ_CST);
    }
  }

  /// proxy.cpp's drain(): take what is published (up to a batch), execute, retire with one store, and refresh
  /// the producer's copy of `done` every kSeenPeriod. Returns how many it retired.
  unsigned drain() {
    const unsigned n = ring.take(kMaxBatch, [this](const ProxyReq& q) { execute(q); });
    if (n == 0) return 0;
    ring.retire();
    if (ring.tail() - seen_at >= kSeenPeriod) {
      seen_at = ring.tail();
      __atomic_store_n(r->seen, static_cast<unsigned long long>(seen_at), __ATOMIC_RELAXED);
    }
    return n;
  }
};

/// A proxy thread: spins on the ring (yielding after a long idle stretch, as proxyMain does) until stopped.
class ProxyThread {
 public:
  explicit ProxyThread(const HostRing& hr) : c_{&hr.ring, hr.heap} {
    th_ = std::thread([this] {
      long idle = 0;
      while (!stop_.load(std::memory_order_relaxed)) {
        if (c_.drain() != 0)
          idle = 0;
        else if (++idle > 100000)
          std::this_thread::yield();
        else
          MICRO_CPU_RELAX();
      }
    });
  }
  ~ProxyThread() {
    stop_.store(true);
    th_.join();
  }
  uint64_t bad() const { return c_.bad; }

 private:
  Consumer c_;
  std::atomic<bool> stop_{false};
  std::thread th_;
};

// ------------------------------------------------------------------------------------ request mixes

enum Mix : int { kMixPutV = 0, kMixPut64 = 1, kMixAmo = 2, kMixAll = 3 };
const char* mixName(int m) {
  static const char* names[] = {"put_v 8 B", "put 64 B", "amo fetch_add", "mixed put_v/put/get_v/amo"};
  return names[m];
}

/// A pre-built request: what one device call would post.
struct Req {
  uint32_t op;
  int pe;
  uint32_t aux;
  uint64_t off, value, arg;
  bool has_arg;
};
inline unsigned long long post(const ProxyRing& r, const Req& q) {
  return post(r, q.op, q.pe, q.aux, q.off, q.value, q.arg, q.has_arg);
}

/// A cycle of 1024 requests to PEs 1..7 at spread offsets. The mixed cycle repeats, so the op switch is
/// predicted much as it would be for a real stream of similar requests.
std::vector<Req> requests(int mix, const void* src64) {
  std::vector<Req> out(1024);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int pe = 1 + static_cast<int>(i % (kPes - 1));
    const uint64_t off = (i * 64 * 7) % (kHeapBytes - 64);
    int kind = mix == kMixAll ? static_cast<int>((i * 5 + i / 3) % 4) : mix;
    switch (kind) {
      case kMixPutV:
        out[i] = Req{kProxyPutV, pe, 7, off, i, 0, false};
        break;
      case kMixPut64:
        out[i] = Req{kProxyPut, pe, 0, off, reinterpret_cast<uint64_t>(src64), 64, true};
        break;
      case kMixAmo:
        out[i] = Req{kProxyAmo, pe, static_cast<uint32_t>(AmoOp::FetchAdd) | (1u << 4), off & ~uint64_t(7), 1, 0,
                     false};
        break;
      default:
        out[i] = Req{kProxyGetV, pe, 7, off, 0, 0, false};
        break;
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------ benchmarks

/// The protocol without cross-core traffic: one thread posts 64 requests, then drains them as the proxy would (one
/// batch). Per item: claim + encode + publish + poll + decode + dispatch (+ the tiny sink) + its share of the retire.
void BM_RingSameThread(benchmark::State& state) {
  HostRing hr;
  Consumer c{&hr.ring, hr.heap};
  alignas(64) char src[64] = {1};
  const std::vector<Req> reqs = requests(static_cast<int>(state.range(0)), src);
  constexpr std::size_t kBatch = 64;
  std::size_t i = 0;
  for (auto _ : state) {
    for (std::size_t b = 0; b < kBatch; ++b, ++i) {
      const Req& q = reqs[i & 1023];
      post(hr.ring, q);
    }
    c.drain();
  }
  if (c.bad != 0 || c.ring.tail() != __atomic_load_n(hr.ring.head, __ATOMIC_RELAXED))
    state.SkipWithError("the consumer did not retire exactly what was posted");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kBatch));
  state.SetLabel(mixName(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_RingSameThread)->ArgName("mix")->DenseRange(0, 3);

/// The producer alone, as in BM_RingSameThread: one thread posts 64 requests, then moves the consumer's position
/// past them without reading them (`done` and the device-side copy, every batch). Per item: claim + encode +
/// publish. BM_RingSameThread minus this is the consumer's share of the same-thread case.
void BM_RingPostOnly(benchmark::State& state) {
  HostRing hr;
  alignas(64) char src[64] = {1};
  const std::vector<Req> reqs = requests(static_cast<int>(state.range(0)), src);
  constexpr std::size_t kBatch = 64;
  std::size_t i = 0;
  for (auto _ : state) {
    for (std::size_t b = 0; b < kBatch; ++b, ++i) {
      const Req& q = reqs[i & 1023];
      post(hr.ring, q);
    }
    const unsigned long long head = __atomic_load_n(hr.ring.head, __ATOMIC_RELAXED);
    __atomic_store_n(hr.ring.done, head, __ATOMIC_RELEASE);
    __atomic_store_n(hr.ring.seen, head, __ATOMIC_RELAXED);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kBatch));
  state.SetLabel(mixName(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_RingPostOnly)->ArgName("mix")->DenseRange(0, 3);

/// Consumer alone: the ring is refilled outside the timed region, then timed batches drain 1024 requests.
/// Per item: poll + decode + dispatch + its share of the `done` store.
void BM_RingDrain(benchmark::State& state) {
  HostRing hr;
  Consumer c{&hr.ring, hr.heap};
  alignas(64) char src[64] = {1};
  const std::vector<Req> reqs = requests(static_cast<int>(state.range(0)), src);
  constexpr std::size_t kBatch = 1024;  // requests, a quarter of the ring
  for (auto _ : state) {
    state.PauseTiming();
    for (std::size_t b = 0; b < kBatch; ++b) {
      const Req& q = reqs[b];
      post(hr.ring, q);
    }
    state.ResumeTiming();
    for (std::size_t b = 0; b < kBatch;) b += c.drain();
  }
  if (c.bad != 0) state.SkipWithError("invalid requests");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kBatch));
  state.SetLabel(mixName(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_RingDrain)->ArgName("mix")->DenseRange(0, 3);

/// Round trip through a proxy thread on the other core: post one request, wait for `done` to pass it (a blocking
/// device call's shape: g / fetching AMO / quiet after one put). One batch of one request per round trip.
void BM_RingPingPong(benchmark::State& state) {
  HostRing hr;
  alignas(64) char src[64] = {1};
  const std::vector<Req> reqs = requests(static_cast<int>(state.range(0)), src);
  uint64_t bad = 0;
  {
    ProxyThread proxy(hr);
    std::size_t i = 0;
    for (auto _ : state) {
      const Req& q = reqs[i++ & 1023];
      waitDone(hr.ring, post(hr.ring, q));
    }
    bad = proxy.bad();
  }
  if (bad != 0) state.SkipWithError("invalid requests");
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(mixName(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_RingPingPong)->ArgName("mix")->Arg(kMixPutV)->Arg(kMixAmo)->UseRealTime();

/// Streaming through a proxy thread: post without waiting (back-pressure only when the ring is full), wait for
/// the last one at the end of each batch of 256: the ring's message rate for non-blocking device puts.
void BM_RingStream(benchmark::State& state) {
  HostRing hr;
  alignas(64) char src[64] = {1};
  const std::vector<Req> reqs = requests(static_cast<int>(state.range(0)), src);
  constexpr std::size_t kBatch = 256;
  uint64_t bad = 0;
  {
    ProxyThread proxy(hr);
    std::size_t i = 0;
    for (auto _ : state) {
      unsigned long long t = 0;
      for (std::size_t b = 0; b < kBatch; ++b, ++i) {
        const Req& q = reqs[i & 1023];
        t = post(hr.ring, q);
      }
      waitDone(hr.ring, t);
    }
    bad = proxy.bad();
  }
  if (bad != 0) state.SkipWithError("invalid requests");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kBatch));
  state.SetLabel(mixName(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_RingStream)->ArgName("mix")->Arg(kMixPutV)->Arg(kMixAll)->UseRealTime();

}  // namespace
