// Microbenchmarks of the GPU -> proxy request ring, host side: claiming a request, encoding it in the 16-byte
// ProxyRequest words of include/gshmem/device/impl/handle__types.cuh, publishing it, and the proxy's per-request
// poll / decode / dispatch / retire / `done` publication.
//
// Why it matters: every device-initiated operation to a peer that P2P cannot reach (and every put/get above
// DeviceHandle::ce_min) goes through this ring and the one proxy thread per PE that drains it in order. STYLE.md
// rule 13 (no malloc, syscall or lock per small operation; O(1) scheduling) applies to that thread too: its
// per-request bookkeeping bounds the message rate of small device puts and adds to their latency, on top of the
// transport. This separates that bookkeeping (ns) from the copy behind it (cudaMemcpyAsync or the mailbox, µs).
//
// What is and is not the project's code: the record format is (ProxyRequest, ProxyOp, kProxyPeBits, ProxyRing,
// kProxyResults, from the shared plain-C++ header). The consumer that really drains the ring,
// proxyMain()/proxyExecute() in src/core/device/device_cuda.cpp, is compiled only with CUDA (and sits in an
// anonymous namespace behind cudaHostAlloc'd memory and a running mailbox transport), and the producer,
// detail::proxyPost() in impl/api__funcs.cuh, is device code. So this file re-states both loops on host memory,
// step for step, with C++ atomics where the originals use volatile + __threadfence_system (on x86-64 both are
// plain stores and loads plus the same ordering), and the dispatch ends in a host memcpy / CPU atomic into a
// host buffer standing in for the peer's device heap (the real one calls cudaMemcpyAsync or stagedPut/Get/Amo
// and waits). Keep it in sync with those two functions: if the ring protocol changes, this must change too.
// Not covered: the GPU side (atomicAdd on device memory, PCIe writes into pinned memory, the GPU polling `done`),
// the cost of the copy behind each request, and the mailbox between PEs. Cross-thread numbers on the 2-core
// reference machine are sensitive to whatever else runs there (the consumer spins on the other core).
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

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
using gshmem::kProxyPeBits;
using gshmem::kProxyPut;
using gshmem::kProxyPutV;
using gshmem::kProxyResults;
using gshmem::ProxyRequest;
using gshmem::ProxyRing;

constexpr uint32_t kRingSlots = 4096;        ///< as device_cuda.cpp: 16-byte words, a request is two
constexpr int kPes = 8;                      ///< PEs whose "device heaps" the consumer writes into
constexpr std::size_t kHeapBytes = 1 << 20;  ///< per stand-in heap

// ------------------------------------------------------------------------------------ header word encoding

/// Header w0 as proxyPost writes it: op (8 bits) | target PE (24 bits) << 8 | aux (32 bits) << 32.
inline uint64_t encodeHeader(uint32_t op, int pe, uint32_t aux) {
  return static_cast<uint64_t>(op) | (static_cast<uint64_t>(pe) << 8) | (static_cast<uint64_t>(aux) << 32);
}
static_assert(kProxyPeBits == 24, "the header layout above assumes a 24-bit PE field");
static_assert(sizeof(ProxyRequest) == 16 && alignof(ProxyRequest) == 16, "one request word is 16 bytes");

// ------------------------------------------------------------------------------------ the ring in host memory

/// Everything the two sides share: the header's ProxyRing (pointers into this object's storage) plus the
/// stand-in peer heaps the requests land in.
struct HostRing {
  ProxyRing ring;
  char* heap[kPes] = {};

  HostRing() {
    // One block laid out as in proxyStart(): slots, then `done` on its own 64-byte line, then the results.
    const std::size_t bytes = sizeof(ProxyRequest) * kRingSlots + 64 + sizeof(unsigned long long) * kProxyResults;
    block_ = static_cast<char*>(std::aligned_alloc(4096, bytes));
    std::memset(block_, 0, bytes);
    ring.slots = reinterpret_cast<ProxyRequest*>(block_);
    ring.done = reinterpret_cast<unsigned long long*>(block_ + sizeof(ProxyRequest) * kRingSlots);
    ring.results = reinterpret_cast<unsigned long long*>(block_ + sizeof(ProxyRequest) * kRingSlots + 64);
    ring.head = &head_->value;  // device memory in the real ring: here a line of its own
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
  struct alignas(64) Line {
    unsigned long long value = 0;
  };
  std::unique_ptr<Line> head_ = std::make_unique<Line>();
  char* block_ = nullptr;
};

// ------------------------------------------------------------------------------------ producer (proxyPost)

/// detail::proxyPost on the host: claim two words, wait for room, write the argument and offset, then the header
/// (release: it marks the request valid). Returns the ticket (word index).
inline unsigned long long post(const ProxyRing& r, uint32_t op, int pe, uint32_t aux, uint64_t off, uint64_t a0,
                               uint64_t a1) {
  unsigned long long t = __atomic_fetch_add(r.head, 2ull, __ATOMIC_RELAXED);
  while (t + 2 - __atomic_load_n(r.done, __ATOMIC_ACQUIRE) > r.nslots) MICRO_CPU_RELAX();
  ProxyRequest* s = r.slots + (t & (r.nslots - 1));
  s[1].w0 = a0;
  s[1].w1 = a1;
  s[0].w1 = off;
  __atomic_store_n(&s[0].w0, encodeHeader(op, pe, aux), __ATOMIC_RELEASE);
  return t;
}

/// detail::proxyWait: until the proxy retired the request of @p ticket.
inline void waitDone(const ProxyRing& r, unsigned long long ticket) {
  while (__atomic_load_n(r.done, __ATOMIC_ACQUIRE) < ticket + 2) MICRO_CPU_RELAX();
}

// ------------------------------------------------------------------------------------ consumer (proxyMain)

/// The proxy's state: only its thread touches `tail`.
struct Consumer {
  const ProxyRing* r;
  char* const* heap;
  uint64_t tail = 0;
  uint64_t bad = 0;  ///< requests that failed validation (the real proxy calls fatal())

  /// proxyExecute(): decode the header, validate the PE, dispatch on the op. The sink for each op is a host
  /// memcpy / CPU atomic into the stand-in heap (the real one: cudaMemcpyAsync or the staged mailbox).
  void execute(uint64_t at, uint64_t w0, uint64_t off, uint64_t a0, uint64_t a1) {
    const uint32_t op = w0 & 0xff;
    const int pe = static_cast<int>((w0 >> 8) & ((1u << kProxyPeBits) - 1));
    const uint32_t aux = static_cast<uint32_t>(w0 >> 32);
    if (pe >= kPes) {
      ++bad;
      return;
    }
    char* base = heap[pe];
    unsigned long long* res = &r->results[(at / 2) % kProxyResults];
    switch (op) {
      case kProxyPut:
        std::memcpy(base + off, reinterpret_cast<const void*>(a0), aux);
        break;
      case kProxyPutV:
        std::memcpy(base + off, &a0, aux);
        break;
      case kProxyGet:
        std::memcpy(reinterpret_cast<void*>(a0), base + off, aux);
        break;
      case kProxyGetV: {
        uint64_t v = 0;
        std::memcpy(&v, base + off, aux);
        *res = v;
        break;
      }
      case kProxyAmo: {  // aux = AmoOp | operand size << 8 (64-bit operands here)
        uint64_t* q = reinterpret_cast<uint64_t*>(base + off);
        switch (static_cast<AmoOp>(aux & 0xff)) {
          case AmoOp::Fetch:
            *res = __atomic_load_n(q, __ATOMIC_SEQ_CST);
            break;
          case AmoOp::Set:
            __atomic_store_n(q, a0, __ATOMIC_SEQ_CST);
            break;
          case AmoOp::CompareSwap: {
            uint64_t expected = a1;
            __atomic_compare_exchange_n(q, &expected, a0, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
            *res = expected;
            break;
          }
          case AmoOp::FetchAdd:
            *res = __atomic_fetch_add(q, a0, __ATOMIC_SEQ_CST);
            break;
          case AmoOp::Add:
            __atomic_fetch_add(q, a0, __ATOMIC_SEQ_CST);
            break;
          default:
            *res = __atomic_exchange_n(q, a0, __ATOMIC_SEQ_CST);
            break;
        }
        break;
      }
      default:
        ++bad;
        break;
    }
  }

  /// One turn of proxyMain's loop: if the slot at `tail` holds a valid header, read the request, execute it,
  /// clear its words, advance and publish `done`. Returns whether it retired one.
  bool pollOnce() {
    ProxyRequest* s = r->slots + (tail & (r->nslots - 1));
    const uint64_t w0 = __atomic_load_n(&s[0].w0, __ATOMIC_ACQUIRE);
    if (w0 == 0) return false;
    const uint64_t off = s[0].w1, a0 = s[1].w0, a1 = s[1].w1;
    execute(tail, w0, off, a0, a1);
    s[1].w0 = 0;
    s[1].w1 = 0;
    s[0].w1 = 0;
    __atomic_store_n(&s[0].w0, uint64_t(0), __ATOMIC_RELAXED);
    tail += 2;
    __atomic_store_n(r->done, static_cast<unsigned long long>(tail), __ATOMIC_RELEASE);
    return true;
  }
};

/// A proxy thread: spins on the ring (yielding after a long idle stretch, as proxyMain does) until stopped.
class ProxyThread {
 public:
  explicit ProxyThread(const HostRing& hr) : c_{&hr.ring, hr.heap} {
    th_ = std::thread([this] {
      long idle = 0;
      while (!stop_.load(std::memory_order_relaxed)) {
        if (c_.pollOnce())
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
  uint64_t off, a0, a1;
};

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
        out[i] = Req{kProxyPutV, pe, 8, off, i, 0};
        break;
      case kMixPut64:
        out[i] = Req{kProxyPut, pe, 64, off, reinterpret_cast<uint64_t>(src64), 0};
        break;
      case kMixAmo:
        out[i] = Req{kProxyAmo, pe, static_cast<uint32_t>(AmoOp::FetchAdd) | (8u << 8), off & ~uint64_t(7), 1, 0};
        break;
      default:
        out[i] = Req{kProxyGetV, pe, 8, off, 0, 0};
        break;
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------ benchmarks

/// Decode/dispatch cost without any cross-core traffic: one thread posts a batch of 64 requests, then drains
/// them as the proxy would. Per item: encode + publish + poll + decode + dispatch (+ the tiny sink) + retire.
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
      post(hr.ring, q.op, q.pe, q.aux, q.off, q.a0, q.a1);
    }
    for (std::size_t b = 0; b < kBatch; ++b) c.pollOnce();
  }
  if (c.bad != 0 || c.tail != __atomic_load_n(hr.ring.head, __ATOMIC_RELAXED))
    state.SkipWithError("the consumer did not retire exactly what was posted");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kBatch));
  state.SetLabel(mixName(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_RingSameThread)->ArgName("mix")->DenseRange(0, 3);

/// Consumer alone: the ring is refilled outside the timed region, then one timed pass drains 1024 requests.
/// Per item: poll + decode + dispatch + clear + `done` store.
void BM_RingDrain(benchmark::State& state) {
  HostRing hr;
  Consumer c{&hr.ring, hr.heap};
  alignas(64) char src[64] = {1};
  const std::vector<Req> reqs = requests(static_cast<int>(state.range(0)), src);
  constexpr std::size_t kBatch = 1024;  // requests; 2048 words, half the ring
  for (auto _ : state) {
    state.PauseTiming();
    for (std::size_t b = 0; b < kBatch; ++b) {
      const Req& q = reqs[b];
      post(hr.ring, q.op, q.pe, q.aux, q.off, q.a0, q.a1);
    }
    state.ResumeTiming();
    for (std::size_t b = 0; b < kBatch; ++b) c.pollOnce();
  }
  if (c.bad != 0) state.SkipWithError("invalid requests");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kBatch));
  state.SetLabel(mixName(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_RingDrain)->ArgName("mix")->DenseRange(0, 3);

/// Round trip through a proxy thread on the other core: post one request, wait for `done` to pass it (a blocking
/// device call's shape: g / fetching AMO / quiet after one put). Two cache-line transfers each way.
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
      waitDone(hr.ring, post(hr.ring, q.op, q.pe, q.aux, q.off, q.a0, q.a1));
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
        t = post(hr.ring, q.op, q.pe, q.aux, q.off, q.a0, q.a1);
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
