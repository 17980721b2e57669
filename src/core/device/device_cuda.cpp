// The CUDA backend of the device symmetric heap: creation, the DeviceHandle kernels use, host-initiated operations
// on device memory, and the CPU proxy that executes the GPU's requests. Every transfer goes through the one
// dispatch site (core/protocols/dispatch.hpp), which owns the device transports (cuda_ipc, the shm channel).
//
// Proxy: a ring of 16-byte words in pinned, mapped host memory (handle__types.cuh). One proxy thread per PE
// retires requests in order -- each through protocols::deviceRma/deviceAmo with Initiator::Proxy -- and publishes
// `done`, which the GPU polls for quiet, blocking calls and fetch results. Requests a peer must serve on its own
// GPU (no P2P) are served by that peer's staged server thread, never by its proxy: proxies never wait for each
// other.
#include <cuda_runtime.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "base/config.hpp"
#include "core/api.hpp"
#include "core/device/device.hpp"
#include "core/device/device_kernels.hpp"
#include "core/protocols/device_path.hpp"  // deviceNearCpus: where to pin the proxy thread
#include "core/protocols/dispatch.hpp"

namespace gshmem::device {

namespace {

constexpr uint32_t kRingSlots = 4096;  ///< 16-byte words; a request is two

struct State {
  int dev = -1;
  char* base = nullptr;
  std::size_t user = 0, total = 0;
  std::vector<char*> peer;  // device address of each PE's heap mapped here (protocols::devicePeerBase)
  char** d_peer = nullptr;
  DeviceHandle handle{};
  bool have_handle = false;
  cudaStream_t stream = nullptr;  // host-thread operations
  uint64_t* pinned_result = nullptr;
  std::mutex host_lock;  // host-thread stream and pinned result

  // proxy
  bool proxy_on = false;
  std::thread proxy;
  std::atomic<bool> stop{false};
  ProxyRequest* ring = nullptr;
  unsigned long long* done = nullptr;
  unsigned long long* results = nullptr;
  unsigned long long* d_head = nullptr;
  cudaStream_t pstream = nullptr;
  uint64_t* p_result = nullptr;
};
State g;

#define DEV_CHECK(call, expr)                                                                        \
  do {                                                                                               \
    cudaError_t e_ = (expr);                                                                         \
    if (e_ != cudaSuccess) fatal(call, "%s failed: %s", #expr, cudaGetErrorString(e_));              \
  } while (0)

void check(const char* call, const char* what, int pe, Status st) {
  if (isError(st))
    fatal(call, "%s of device memory on PE %d through %s failed: %s", what, pe, protocols::deviceRoute(pe),
          st == Status::Unsupported ? "no transport reaches its device heap (it is on another node and this build has "
                                      "no UCX)" : statusString(st));
}

/// Retire one GPU request (two words at `tail`) through the dispatch site.
void proxyExecute(uint64_t tail, uint64_t w0, uint64_t off, uint64_t a0, uint64_t a1) {
  const char* call = "gshmem proxy";
  const uint32_t op = w0 & 0xff;
  const int pe = static_cast<int>((w0 >> 8) & ((1u << kProxyPeBits) - 1));
  const uint32_t aux = static_cast<uint32_t>(w0 >> 32);
  if (pe >= g_rt.n_pes) fatal(call, "GPU request %u names PE %d of %d", op, pe, g_rt.n_pes);
  unsigned long long* res = &g.results[(tail / 2) % kProxyResults];
  using protocols::Initiator;
  switch (op) {
    case kProxyPut:
      check(call, "put", pe, protocols::deviceRma(pe, off, reinterpret_cast<void*>(a0), aux, Direction::Put, g.pstream,
                                                  true, Initiator::Proxy));
      break;
    case kProxyPutV:
      check(call, "put", pe, protocols::deviceRma(pe, off, &a0, aux, Direction::Put, g.pstream, true, Initiator::Proxy));
      break;
    case kProxyGet:
      check(call, "get", pe, protocols::deviceRma(pe, off, reinterpret_cast<void*>(a0), aux, Direction::Get, g.pstream,
                                                  true, Initiator::Proxy));
      break;
    case kProxyGetV: {
      uint64_t v = 0;
      check(call, "get", pe, protocols::deviceRma(pe, off, &v, aux, Direction::Get, g.pstream, true, Initiator::Proxy));
      *res = v;
      break;
    }
    case kProxyAmo: {
      uint64_t v = 0;
      check(call, "atomic", pe, protocols::deviceAmo(pe, off, static_cast<AmoOp>(aux & 0xff), aux >> 8, a0, a1,
                                                     g.pstream, g.p_result, &v));
      *res = v;
      break;
    }
    default: fatal(call, "GPU request word %#llx is not valid", static_cast<unsigned long long>(w0));
  }
}

/// Pin the calling (proxy) thread to the CPUs near GPU g.dev, as far as they lie inside the CPUs it may run on
/// now. Does nothing when the topology does not know them, when none of them is allowed, or when they cover every
/// allowed CPU (a launcher's binding is never widened or replaced). Best effort: a failure is logged, not fatal.
void proxyPinNearGpu() {
  std::vector<int> near;
  if (!protocols::deviceNearCpus(g.dev, &near)) return;
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
    bool did = false;
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

void proxyStart(const char* call) {
  // The GPU ring and its counters: pinned, mapped host memory.
  const std::size_t ring_bytes = sizeof(ProxyRequest) * kRingSlots + 64 + sizeof(unsigned long long) * kProxyResults;
  void* h = nullptr;
  DEV_CHECK(call, cudaHostAlloc(&h, ring_bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  std::memset(h, 0, ring_bytes);
  g.ring = static_cast<ProxyRequest*>(h);
  g.done = reinterpret_cast<unsigned long long*>(static_cast<char*>(h) + sizeof(ProxyRequest) * kRingSlots);
  g.results = reinterpret_cast<unsigned long long*>(static_cast<char*>(h) + sizeof(ProxyRequest) * kRingSlots + 64);
  DEV_CHECK(call, cudaMalloc(&g.d_head, sizeof(unsigned long long)));
  DEV_CHECK(call, cudaMemset(g.d_head, 0, sizeof(unsigned long long)));
  DEV_CHECK(call, cudaStreamCreateWithFlags(&g.pstream, cudaStreamNonBlocking));
  DEV_CHECK(call, cudaHostAlloc(&g.p_result, 64, cudaHostAllocPortable));
  void* d = nullptr;
  DEV_CHECK(call, cudaHostGetDevicePointer(&d, h, 0));
  ProxyRing& r = g.handle.ring;
  r.slots = static_cast<ProxyRequest*>(d);
  r.done = reinterpret_cast<unsigned long long*>(static_cast<char*>(d) + sizeof(ProxyRequest) * kRingSlots);
  r.results = reinterpret_cast<unsigned long long*>(static_cast<char*>(d) + sizeof(ProxyRequest) * kRingSlots + 64);
  r.head = g.d_head;
  r.nslots = kRingSlots;
  g.stop.store(false);
  g.proxy = std::thread(proxyMain);
  g.proxy_on = true;
}

/// Every PE has a GPU and asks for a device heap (collective); false: no device heap anywhere.
bool everyPeWantsHeap(const char* call, int ndev) {
  int want = (ndev > 0 && params().SYMMETRIC_SIZE_DEVICE > 0) ? 1 : 0;
  std::vector<int> wants(g_rt.n_pes);
  if (isError(g_rt.bootstrap->allGather(&want, wants.data(), sizeof want))) fatal(call, "bootstrap allgather failed");
  for (int w : wants)
    if (w != want || !want) {
      if (w != want && g_rt.my_pe == 0)
        GSHMEM_LOG_WARN(INIT, "some PEs have no GPU (or GSHMEM_SYMMETRIC_SIZE_DEVICE=0): no device heap anywhere");
      return false;
    }
  return true;
}

/// Allocate this PE's heap (user part + DeviceSync area) on its GPU.
void heapCreate(const char* call, int ndev) {
  const Params& p = params();
  const int n = g_rt.n_pes, me = g_rt.my_pe;
  int local = 0;
  for (int pe = 0; pe < me; ++pe) local += g_rt.node_of[pe] == g_rt.node_of[me];
  g.dev = p.DEVICE >= 0 ? static_cast<int>(p.DEVICE) : local % ndev;
  if (g.dev >= ndev) fatal(call, "GSHMEM_DEVICE=%d but only %d CUDA devices are visible", g.dev, ndev);
  DEV_CHECK(call, cudaSetDevice(g.dev));
  g.user = (p.SYMMETRIC_SIZE_DEVICE + 4095) & ~std::size_t(4095);
  const std::size_t sync_bytes = (sizeof(DeviceSync) + sizeof(unsigned long long) * n + 4095) & ~std::size_t(4095);
  g.total = g.user + sync_bytes;
  if (cudaMalloc(&g.base, g.total) != cudaSuccess)
    fatal(call, "cannot allocate the %s device symmetric heap on GPU %d; lower GSHMEM_SYMMETRIC_SIZE_DEVICE",
          formatSize(p.SYMMETRIC_SIZE_DEVICE).c_str(), g.dev);
  DEV_CHECK(call, cudaMemset(g.base + g.user, 0, sync_bytes));
  DEV_CHECK(call, cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
  DEV_CHECK(call, cudaHostAlloc(&g.pinned_result, 64, cudaHostAllocPortable));
  // Load the library's kernels now: with CUDA lazy loading, a first launch by the proxy while a user kernel spins
  // on a proxied operation would wait for that kernel, which waits for the proxy (deadlock).
  DEV_CHECK(call, loadKernels());
}

/// Fill the DeviceHandle kernels use and push it to every registered translation unit.
void handleBuild(const char* call, const uint64_t ce_min[3]) {
  const int n = g_rt.n_pes;
  DEV_CHECK(call, cudaMalloc(&g.d_peer, sizeof(char*) * n));
  DEV_CHECK(call, cudaMemcpy(g.d_peer, g.peer.data(), sizeof(char*) * n, cudaMemcpyHostToDevice));
  DeviceHandle& h = g.handle;
  h.my_pe = g_rt.my_pe;
  h.n_pes = n;
  h.heap_base = g.base;
  h.heap_size = g.user;
  h.peer_base = g.d_peer;
  for (int pe = 0; pe < n && pe < kInlinePeers; ++pe) h.peer_base_inline[pe] = g.peer[pe];
  for (int k = 0; k < 3; ++k) h.ce_min[k] = g.proxy_on ? ce_min[k] : ~0ull;
  h.sync = reinterpret_cast<DeviceSync*>(g.base + g.user);
  h.sync_offset = g.user;
  g.have_handle = true;
  g_region = Region{g.base, g.user};
  allocatorReset(g.user);
  syncStates(h, g.dev);
}

}  // namespace

void backendInit(const char* call) {
  const Params& p = params();
  const int n = g_rt.n_pes, me = g_rt.my_pe;
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess) {
    cudaGetLastError();
    ndev = 0;
  }
  if (!everyPeWantsHeap(call, ndev)) return;
  heapCreate(call, ndev);
  std::string err;
  if (isError(protocols::deviceInit(protocols::DeviceHeapDesc{g.dev, g.base, g.total, p.P2P != 0}, &err)))
    fatal(call, "%s", err.c_str());  // collective: cuda_ipc, the shm channel, the staged server, path tables
  g.peer.assign(n, nullptr);
  bool any_mapped = false, need_proxy = false;
  for (int pe = 0; pe < n; ++pe) {
    g.peer[pe] = protocols::devicePeerBase(pe);
    any_mapped = any_mapped || (pe != me && g.peer[pe] != nullptr);
    need_proxy = need_proxy || g.peer[pe] == nullptr;
  }
  // DEVICE_CE_MIN: large device-initiated puts/gets to mapped peers through the proxy's copy engine (needs the ring).
  uint64_t ce_min[3];  // per scope; kSizeInf (~0ull) is off
  for (int k = 0; k < 3; ++k) ce_min[k] = p.DEVICE_CE_MIN[k];
  const bool ce_route = ce_min[0] != ~0ull || ce_min[1] != ~0ull || ce_min[2] != ~0ull;
  if (ce_route && any_mapped) need_proxy = true;
  if (need_proxy) proxyStart(call);  // this PE's ring only: peers' requests are served by their staged servers
  handleBuild(call, ce_min);
  DEV_CHECK(call, cudaDeviceSynchronize());
  if (isError(g_rt.bootstrap->barrier())) fatal(call, "bootstrap barrier failed");
  if (p.INFO && me == 0)
    fprintf(stderr, "gshmem:   device heap %s per PE on GPU %d; %s\n", formatSize(p.SYMMETRIC_SIZE_DEVICE).c_str(),
            g.dev, !g.proxy_on ? "no proxy ring (every peer mapped)" : ce_route && any_mapped ?
            "proxy ring (copy-engine route and unmapped peers)" : "proxy ring (unmapped peers)");
}

void backendFinalize() {
  if (!g.base) return;
  cudaDeviceSynchronize();
  if (g.proxy_on) {
    g.stop.store(true);
    g.proxy.join();
    g.proxy_on = false;
    cudaFreeHost(g.ring);
    cudaFreeHost(g.p_result);
    cudaFree(g.d_head);
    cudaStreamDestroy(g.pstream);
    g.ring = nullptr;
  }
  protocols::deviceFinalize();  // collective: stops the staged server, closes IPC mappings (barrier inside)
  cudaFree(g.d_peer);
  cudaFree(g.base);
  cudaFreeHost(g.pinned_result);
  cudaStreamDestroy(g.stream);
  g.base = nullptr;
  g.d_peer = nullptr;
  g.have_handle = false;
  g.handle = DeviceHandle{};
  g.peer.clear();
  g_region = Region{};
  allocatorReset(0);
}

void backendPut(const char* call, int pe, std::size_t off, const void* src, std::size_t n) {
  if (!n) return;
  std::lock_guard<std::mutex> lk(g.host_lock);
  check(call, "put", pe, protocols::deviceRma(pe, off, const_cast<void*>(src), n, Direction::Put, g.stream, true,
                                              protocols::Initiator::Host));
}

void backendGet(const char* call, int pe, std::size_t off, void* dst, std::size_t n) {
  if (!n) return;
  std::lock_guard<std::mutex> lk(g.host_lock);
  check(call, "get", pe,
        protocols::deviceRma(pe, off, dst, n, Direction::Get, g.stream, true, protocols::Initiator::Host));
}

uint64_t backendAmo(const char* call, int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value,
                    uint64_t cond) {
  std::lock_guard<std::mutex> lk(g.host_lock);
  uint64_t old = 0;
  check(call, "atomic", pe,
        protocols::deviceAmo(pe, off, op, size, value, cond, g.stream, g.pinned_result, &old));
  return old;
}

void backendMemset(void* dst, int value, std::size_t n) {
  std::lock_guard<std::mutex> lk(g.host_lock);
  DEV_CHECK("gshmemx_calloc_device", cudaMemsetAsync(dst, value, n, g.stream));
  DEV_CHECK("gshmemx_calloc_device", cudaStreamSynchronize(g.stream));
}

void* backendPeerPtr(int pe, std::size_t off) {
  if (!g.base || static_cast<unsigned>(pe) >= g.peer.size() || !g.peer[pe]) return nullptr;
  return g.peer[pe] + off;
}

const DeviceHandle* backendHandle() { return g.have_handle ? &g.handle : nullptr; }
int backendDeviceId() { return g.base ? g.dev : -1; }

}  // namespace gshmem::device
