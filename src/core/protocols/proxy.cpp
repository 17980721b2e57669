// The device proxy (design in proxy.hpp).
//
// GPU -> proxy: a ring of 16-byte words in pinned, mapped host memory (handle__types.cuh). One proxy thread per PE
// retires requests in order and publishes `done`, which the GPU polls for quiet, blocking calls and fetch results.
#include "core/protocols/proxy.hpp"

#include <cuda_runtime.h>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "base/log.hpp"
#include "core/protocols/device_path.hpp"
#include "core/runtime.hpp"

namespace gshmem::protocols {

namespace {

constexpr uint32_t kRingSlots = 4096;  ///< 16-byte words; a request is two

struct State {
  int dev = -1;
  ProxyTarget target{};
  bool on = false;
  std::thread thread;
  std::atomic<bool> stop{false};
  ProxyRequest* ring = nullptr;
  unsigned long long* done = nullptr;
  unsigned long long* results = nullptr;
  unsigned long long* d_head = nullptr;
  cudaStream_t stream = nullptr;
};
State g;

#define PROXY_CHECK(call, expr)                                                                      \
  do {                                                                                               \
    cudaError_t e_ = (expr);                                                                         \
    if (e_ != cudaSuccess) fatal(call, "%s failed: %s", #expr, cudaGetErrorString(e_));              \
  } while (0)

/// Retire one GPU request (two words at `tail`).
void proxyExecute(uint64_t tail, uint64_t w0, uint64_t off, uint64_t a0, uint64_t a1) {
  const char* call = "gshmem proxy";
  const uint32_t op = w0 & 0xff;
  const int pe = static_cast<int>((w0 >> 8) & ((1u << kProxyPeBits) - 1));
  const uint32_t aux = static_cast<uint32_t>(w0 >> 32);
  if (pe >= g_rt.n_pes) fatal(call, "GPU request %u names PE %d of %d", op, pe, g_rt.n_pes);
  unsigned long long* res = &g.results[(tail / 2) % kProxyResults];
  switch (op) {
    case kProxyPut: g.target.put(pe, off, reinterpret_cast<const void*>(a0), aux, g.stream); break;
    case kProxyPutV: g.target.put(pe, off, &a0, aux, g.stream); break;
    case kProxyGet: g.target.get(pe, off, reinterpret_cast<void*>(a0), aux, g.stream); break;
    case kProxyGetV: {
      uint64_t v = 0;
      g.target.get(pe, off, &v, aux, g.stream);
      *res = v;
      break;
    }
    case kProxyAmo:
      *res = g.target.amo(pe, off, static_cast<AmoOp>(aux & 0xff), aux >> 8, a0, a1);
      break;
    default: fatal(call, "GPU request word %#llx is not valid", static_cast<unsigned long long>(w0));
  }
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
  uint64_t tail = 0;
  const uint64_t mask = kRingSlots - 1;
  long idle = 0;
  while (!g.stop.load(std::memory_order_relaxed)) {
    bool did = g.target.serve();
    volatile ProxyRequest* s = g.ring + (tail & mask);
    uint64_t w0 = s[0].w0;
    if (w0 != 0) {
      std::atomic_thread_fence(std::memory_order_acquire);
      uint64_t off = s[0].w1, a0 = s[1].w0, a1 = s[1].w1;
      proxyExecute(tail, w0, off, a0, a1);
      s[1].w0 = 0;
      s[1].w1 = 0;
      s[0].w1 = 0;
      s[0].w0 = 0;
      tail += 2;
      __atomic_store_n(g.done, static_cast<unsigned long long>(tail), __ATOMIC_RELEASE);
      did = true;
    }
    if (did) idle = 0;
    else if (++idle > 100000) std::this_thread::yield();
    else GSHMEM_CPU_RELAX();
  }
}

}  // namespace

void proxyStart(const char* call, int device, const ProxyTarget& target, ProxyRing* ring) {
  g.dev = device;
  g.target = target;
  // The GPU ring and its counters: pinned, mapped host memory.
  const std::size_t ring_bytes = sizeof(ProxyRequest) * kRingSlots + 64 + sizeof(unsigned long long) * kProxyResults;
  void* h = nullptr;
  PROXY_CHECK(call, cudaHostAlloc(&h, ring_bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  std::memset(h, 0, ring_bytes);
  g.ring = static_cast<ProxyRequest*>(h);
  g.done = reinterpret_cast<unsigned long long*>(static_cast<char*>(h) + sizeof(ProxyRequest) * kRingSlots);
  g.results = reinterpret_cast<unsigned long long*>(static_cast<char*>(h) + sizeof(ProxyRequest) * kRingSlots + 64);
  PROXY_CHECK(call, cudaMalloc(&g.d_head, sizeof(unsigned long long)));
  PROXY_CHECK(call, cudaMemset(g.d_head, 0, sizeof(unsigned long long)));
  PROXY_CHECK(call, cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
  void* d = nullptr;
  PROXY_CHECK(call, cudaHostGetDevicePointer(&d, h, 0));
  ProxyRing& r = *ring;
  r.slots = static_cast<ProxyRequest*>(d);
  r.done = reinterpret_cast<unsigned long long*>(static_cast<char*>(d) + sizeof(ProxyRequest) * kRingSlots);
  r.results = reinterpret_cast<unsigned long long*>(static_cast<char*>(d) + sizeof(ProxyRequest) * kRingSlots + 64);
  r.head = g.d_head;
  r.nslots = kRingSlots;
  g.stop.store(false);
  g.thread = std::thread(proxyMain);
  g.on = true;
}

void proxyStop() {
  if (!g.on) return;
  g.stop.store(true);
  g.thread.join();
  g.on = false;
  cudaFreeHost(g.ring);
  cudaFree(g.d_head);
  cudaStreamDestroy(g.stream);
  g.ring = nullptr;
}

bool proxyRunning() { return g.on; }

}  // namespace gshmem::protocols
