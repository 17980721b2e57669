// DEVICE (issue 5): the CUDA backend of the device symmetric heap: creation, CUDA IPC peer mapping, host-initiated
// operations on device memory, and the CPU proxy for peers that P2P cannot reach.
//
// Proxy design (correct first; the pipelined version is another issue):
// * GPU -> proxy: the request ring and its thread (protocols/proxy.hpp), which reaches peers through proxyPut/Get/Amo
//   below and serves this PE's mailbox between requests.
// * proxy/host thread -> peer PE: a mailbox in a memfd segment per PE, mapped by every PE of the node through the
//   shared-memory host transport. Sender s owns inbound[s] and data[s] (1 MiB staging) in the target's segment and
//   writes its request sequence there; the target's proxy applies the request to its own device heap with
//   cudaMemcpy or an atomic kernel and writes the reply sequence into the sender's segment (each index is written
//   by its producer into the consumer's memory). Stop-and-wait per (sender, target) pair; a proxy waiting for a
//   reply keeps serving its own mailbox, so two proxies sending to each other cannot deadlock.
#include <cuda_runtime.h>
#include <pthread.h>
#include <sched.h>
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
#include "core/api.hpp"
#include "core/device/device.hpp"
#include "core/device/device_kernels.hpp"
#include "core/protocols/device_path.hpp"  // PROTO (issue 6): protocol choice for off-path put/get
#include "core/protocols/proxy.hpp"

namespace gshmem::device {

namespace {

constexpr std::size_t kChunk = std::size_t(1) << 20;  ///< mailbox staging bytes per (sender, target)

enum MailOp : uint32_t { kMailPut = 1, kMailGet = 2, kMailAmo = 3 };

struct alignas(64) Inbound {  // in the target's segment; written by the sender
  std::atomic<uint64_t> seq;
  uint32_t op;
  uint32_t aux;
  uint64_t off;
  uint64_t n;
  uint64_t value;
  uint64_t cond;
};
struct alignas(64) Reply {  // in the sender's segment; written by the target
  std::atomic<uint64_t> seq;
  uint64_t result;
};
static_assert(sizeof(Inbound) == 64 && sizeof(Reply) == 64, "mailbox records are one cache line");

struct IpcCard {  // exchanged through the bootstrap
  cudaIpcMemHandle_t handle;
  char bus_id[32];
  int32_t has_heap;
  int32_t pad;
};
static_assert(sizeof(IpcCard) == 64 + 32 + 8, "IpcCard is exchanged as raw bytes");

struct State {
  int dev = -1;
  char* base = nullptr;
  std::size_t user = 0, total = 0;
  std::vector<char*> peer;  // device address of each PE's heap mapped here, nullptr -> proxy
  char** d_peer = nullptr;
  DeviceHandle handle{};
  bool have_handle = false;
  uint64_t epoch = 0;     // lanes made before this init are stale (see lane())
  std::mutex lanes_lock;  // taken once per thread and init, never per operation
  std::vector<std::pair<cudaStream_t, uint64_t*>> lanes;  // every lane's CUDA objects, freed at finalize

  // proxy
  bool proxy_on = false;
  std::unique_ptr<Transport> mail_transport;
  LocalRegion seg;
  std::size_t seg_size = 0;
  std::vector<char*> seg_of;
  std::vector<bool> seg_registered;
  std::vector<std::unique_ptr<std::mutex>> send_lock;  // per target
  std::vector<uint64_t> sent;                          // per target (under send_lock)
  std::vector<uint64_t> served;                        // per sender (proxy thread only)
  uint64_t* p_result = nullptr;                        // the proxy thread's pinned AMO result
  cudaStream_t mstream = nullptr;                      // the proxy thread's stream for serving the mailbox
};
State g;

#define DEV_CHECK(call, expr)                                                                        \
  do {                                                                                               \
    cudaError_t e_ = (expr);                                                                         \
    if (e_ != cudaSuccess) fatal(call, "%s failed: %s", #expr, cudaGetErrorString(e_));              \
  } while (0)

uint64_t g_epochs = 0;  // inits so far in this process

/// A host thread's own stream and pinned AMO result for host-initiated operations on device memory: made on the
/// thread's first such call after init, so those calls take no process-wide lock.
struct Lane {
  cudaStream_t stream = nullptr;
  uint64_t* result = nullptr;
  uint64_t epoch = 0;
};
thread_local Lane t_lane;

Lane& lane(const char* call) {
  if (t_lane.epoch == g.epoch) return t_lane;
  std::lock_guard<std::mutex> lk(g.lanes_lock);
  int prev = -1;
  cudaGetDevice(&prev);
  DEV_CHECK(call, cudaSetDevice(g.dev));  // the stream belongs to the heap's GPU, whatever this thread uses
  Lane fresh;
  DEV_CHECK(call, cudaStreamCreateWithFlags(&fresh.stream, cudaStreamNonBlocking));
  DEV_CHECK(call, cudaHostAlloc(&fresh.result, 64, cudaHostAllocPortable));
  if (prev >= 0 && prev != g.dev) cudaSetDevice(prev);
  fresh.epoch = g.epoch;
  t_lane = fresh;
  g.lanes.emplace_back(fresh.stream, fresh.result);
  return t_lane;
}

/// At finalize: free every lane's CUDA objects (their threads may be gone: only the recorded objects are touched).
void lanesFree() {
  std::lock_guard<std::mutex> lk(g.lanes_lock);
  for (auto& l : g.lanes) {
    cudaStreamSynchronize(l.first);
    cudaStreamDestroy(l.first);
    cudaFreeHost(l.second);
  }
  g.lanes.clear();
  g.epoch = 0;
}

Inbound* inboundOf(char* seg, int sender) { return reinterpret_cast<Inbound*>(seg) + sender; }
Reply* replyOf(char* seg, int target) {
  return reinterpret_cast<Reply*>(seg + sizeof(Inbound) * g_rt.n_pes) + target;
}
char* dataOf(char* seg, int sender) {
  return seg + (sizeof(Inbound) + sizeof(Reply)) * g_rt.n_pes + kChunk * sender;
}

void copySync(const char* call, void* dst, const void* src, std::size_t n, cudaStream_t s) {
  DEV_CHECK(call, cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, s));
  DEV_CHECK(call, cudaStreamSynchronize(s));
}

uint64_t amoSync(const char* call, void* addr, AmoOp op, unsigned size, uint64_t v, uint64_t c, uint64_t* pinned,
                 cudaStream_t s) {
  DEV_CHECK(call, launchAmo(addr, static_cast<uint32_t>(op), size, v, c, pinned, s));
  DEV_CHECK(call, cudaStreamSynchronize(s));
  return *reinterpret_cast<volatile uint64_t*>(pinned);
}

/// Target side: apply every pending mailbox request. Proxy thread only. Returns true when it did something.
bool serveMailbox() {
  bool did = false;
  char* mine = g.seg_of[g_rt.my_pe];
  for (int s = 0; s < g_rt.n_pes; ++s) {
    Inbound* in = inboundOf(mine, s);
    uint64_t q = in->seq.load(std::memory_order_acquire);
    if (q == g.served[s]) continue;
    g.served[s] = q;
    did = true;
    const char* call = "gshmem proxy";
    uint64_t result = 0;
    char* dst = g.base + in->off;
    switch (in->op) {
      case kMailPut: copySync(call, dst, dataOf(mine, s), in->n, g.mstream); break;
      case kMailGet: copySync(call, dataOf(mine, s), dst, in->n, g.mstream); break;
      case kMailAmo:
        result = amoSync(call, dst, static_cast<AmoOp>(in->aux & 0xff), in->aux >> 8, in->value, in->cond,
                         g.p_result, g.mstream);
        break;
      default: fatal(call, "mailbox request %u from PE %d is not valid", in->op, s);
    }
    Reply* r = replyOf(g.seg_of[s], g_rt.my_pe);
    r->result = result;
    r->seq.store(q, std::memory_order_release);
  }
  return did;
}

/// Sender side: one request to `pe`'s proxy; the caller holds send_lock[pe] and has filled the staging data.
uint64_t mail(int pe, uint32_t op, uint32_t aux, uint64_t off, uint64_t n, uint64_t value, uint64_t cond,
              bool serve) {
  Inbound* in = inboundOf(g.seg_of[pe], g_rt.my_pe);
  in->op = op;
  in->aux = aux;
  in->off = off;
  in->n = n;
  in->value = value;
  in->cond = cond;
  uint64_t s = ++g.sent[pe];
  in->seq.store(s, std::memory_order_release);
  Reply* r = replyOf(g.seg_of[g_rt.my_pe], pe);
  long spins = 0;
  while (r->seq.load(std::memory_order_acquire) != s) {
    if (serve && protocols::proxyStopping()) return 0;  // process exit: the peer may be gone
    if (serve && serveMailbox()) continue;
    if (++spins > 4096) std::this_thread::yield();
    else GSHMEM_CPU_RELAX();
  }
  return r->result;
}

void stagedPut(const char* call, int pe, std::size_t off, const void* src, std::size_t n, cudaStream_t s, bool serve) {
  std::lock_guard<std::mutex> lk(*g.send_lock[pe]);
  char* stage = dataOf(g.seg_of[pe], g_rt.my_pe);
  for (std::size_t done = 0; done < n;) {
    std::size_t c = n - done < kChunk ? n - done : kChunk;
    copySync(call, stage, static_cast<const char*>(src) + done, c, s);
    mail(pe, kMailPut, 0, off + done, c, 0, 0, serve);
    done += c;
  }
}

void stagedGet(const char* call, int pe, std::size_t off, void* dst, std::size_t n, cudaStream_t s, bool serve) {
  std::lock_guard<std::mutex> lk(*g.send_lock[pe]);
  char* stage = dataOf(g.seg_of[pe], g_rt.my_pe);
  for (std::size_t done = 0; done < n;) {
    std::size_t c = n - done < kChunk ? n - done : kChunk;
    mail(pe, kMailGet, 0, off + done, c, 0, 0, serve);
    copySync(call, static_cast<char*>(dst) + done, stage, c, s);
    done += c;
  }
}

uint64_t stagedAmo(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t v, uint64_t c, bool serve) {
  std::lock_guard<std::mutex> lk(*g.send_lock[pe]);
  return mail(pe, kMailAmo, static_cast<uint32_t>(op) | (size << 8), off, 0, v, c, serve);
}

// The proxy's way to this PE's peers (protocols/proxy.hpp): a large put/get to a P2P-mapped peer takes the copy
// engine (DeviceHandle::ce_min): one cudaMemcpyAsync through the IPC mapping on the proxy's stream, complete before
// the request retires; any other peer goes through its mailbox, serving our own mailbox while we wait.
bool proxyPut(int pe, std::size_t off, const void* src, std::size_t n, cudaStream_t s) {
  if (g.peer[pe] == nullptr) {
    stagedPut("gshmem proxy", pe, off, src, n, s, true);
    return false;
  }
  DEV_CHECK("gshmem proxy", cudaMemcpyAsync(g.peer[pe] + off, src, n, cudaMemcpyDefault, s));
  return true;
}
bool proxyGet(int pe, std::size_t off, void* dst, std::size_t n, cudaStream_t s) {
  if (g.peer[pe] == nullptr) {
    stagedGet("gshmem proxy", pe, off, dst, n, s, true);
    return false;
  }
  DEV_CHECK("gshmem proxy", cudaMemcpyAsync(dst, g.peer[pe] + off, n, cudaMemcpyDefault, s));
  return true;
}
uint64_t proxyAmo(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t v, uint64_t c) {
  if (g.peer[pe] != nullptr)
    fatal("gshmem proxy", "GPU request names PE %d, which is mapped (only puts and gets take the copy engine)", pe);
  return stagedAmo(pe, off, op, size, v, c, true);
}

void proxyStart(const char* call) {
  const int n = g_rt.n_pes;
  g.seg_size = (sizeof(Inbound) + sizeof(Reply) + kChunk) * n;
  int fd = memfd_create("gshmem-device-mailbox", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(g.seg_size)) != 0)
    fatal(call, "cannot create the %zu-byte device proxy mailbox: %s", g.seg_size, strerror(errno));
  void* m = mmap(nullptr, g.seg_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED) fatal(call, "cannot map the device proxy mailbox: %s", strerror(errno));
  g.seg = LocalRegion{static_cast<char*>(m), g.seg_size, fd};
  g.mail_transport = shmTransportCreate();
  std::vector<PeerReach> reach;
  if (isError(g.mail_transport->connect(*g_rt.bootstrap, {g.seg}, &reach)))
    fatal(call, "cannot map the peers' device proxy mailboxes");
  close(fd);
  g.seg.fd = -1;
  g.seg_of.assign(n, nullptr);
  g.seg_registered.assign(n, false);
  for (int pe = 0; pe < n; ++pe) {
    g.seg_of[pe] = reach[pe].mapped.empty() ? nullptr : reach[pe].mapped[0];
    if (!g.seg_of[pe])
      fatal(call, "PE %d is on another node: device memory between nodes needs the UCX proxy path (not built yet)", pe);
    // Pin the staging buffers so cudaMemcpy DMAs straight into them (best effort).
    g.seg_registered[pe] = cudaHostRegister(g.seg_of[pe], g.seg_size, cudaHostRegisterPortable) == cudaSuccess;
    if (!g.seg_registered[pe]) cudaGetLastError();
  }
  g.send_lock.clear();
  for (int pe = 0; pe < n; ++pe) g.send_lock.push_back(std::make_unique<std::mutex>());
  g.sent.assign(n, 0);
  g.served.assign(n, 0);
  DEV_CHECK(call, cudaHostAlloc(&g.p_result, 64, cudaHostAllocPortable));
  DEV_CHECK(call, cudaStreamCreateWithFlags(&g.mstream, cudaStreamNonBlocking));
  g.proxy_on = true;
  protocols::proxyStart(call, g.dev, g.total, protocols::ProxyTarget{proxyPut, proxyGet, proxyAmo, serveMailbox},
                        &g.handle.ring);
}

}  // namespace

void backendInit(const char* call) {
  const Params& p = params();
  Bootstrap& b = *g_rt.bootstrap;
  const int n = g_rt.n_pes, me = g_rt.my_pe;
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess) {
    cudaGetLastError();
    ndev = 0;
  }
  int want = (ndev > 0 && p.SYMMETRIC_SIZE_DEVICE > 0) ? 1 : 0;
  std::vector<int> wants(n);
  if (isError(b.allGather(&want, wants.data(), sizeof want))) fatal(call, "bootstrap allgather failed");
  for (int w : wants)
    if (w != want || !want) {
      if (w != want && me == 0)
        GSHMEM_LOG_WARN(INIT, "some PEs have no GPU (or GSHMEM_SYMMETRIC_SIZE_DEVICE=0): no device heap anywhere");
      return;
    }
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
  g.epoch = ++g_epochs;
  // Load the library's kernels now: with CUDA lazy loading, a first launch by the proxy while a user kernel spins
  // on a proxied operation would wait for that kernel, which waits for the proxy (deadlock).
  DEV_CHECK(call, loadKernels());

  IpcCard mine{};
  DEV_CHECK(call, cudaIpcGetMemHandle(&mine.handle, g.base));
  DEV_CHECK(call, cudaDeviceGetPCIBusId(mine.bus_id, sizeof mine.bus_id, g.dev));
  mine.has_heap = 1;
  std::vector<IpcCard> cards(n);
  if (isError(b.allGather(&mine, cards.data(), sizeof mine))) fatal(call, "bootstrap allgather failed");
  g.peer.assign(n, nullptr);
  int need_proxy = 0;
  for (int pe = 0; pe < n; ++pe) {
    if (pe == me) {
      g.peer[pe] = g.base;
      continue;
    }
    bool reach = false;
    if (p.P2P && g_rt.node_of[pe] == g_rt.node_of[me]) {
      int pdev = -1, can = 0;
      if (cudaDeviceGetByPCIBusId(&pdev, cards[pe].bus_id) == cudaSuccess) {
        if (pdev == g.dev) can = 1;
        else if (cudaDeviceCanAccessPeer(&can, g.dev, pdev) != cudaSuccess) can = 0;
        if (can && pdev != g.dev) {
          cudaError_t e = cudaDeviceEnablePeerAccess(pdev, 0);
          if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) can = 0;
        }
        void* ptr = nullptr;
        if (can && cudaIpcOpenMemHandle(&ptr, cards[pe].handle, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess) {
          g.peer[pe] = static_cast<char*>(ptr);
          reach = true;
        }
      }
      cudaGetLastError();  // clear what a failed probe left
    }
    if (!reach) need_proxy = 1;
    GSHMEM_LOG_INFO(INIT, "device heap of PE %d: %s", pe, reach ? "P2P via CUDA IPC" : "CPU proxy");
  }
  // DEVICE_CE_MIN: large device-initiated puts/gets to mapped peers through the proxy's copy engine (needs the ring).
  uint64_t ce_min[3] = {~0ull, ~0ull, ~0ull};
  if (!parseSizeTriple(p.DEVICE_CE_MIN, ce_min))
    fatal(call, "GSHMEM_DEVICE_CE_MIN=%s: give off, one size, or three sizes thread,warp,block (e.g. 64K,256K,4M)",
          p.DEVICE_CE_MIN.c_str());
  const bool ce_route = ce_min[0] != ~0ull || ce_min[1] != ~0ull || ce_min[2] != ~0ull;
  bool any_mapped = false;
  for (int pe = 0; pe < n; ++pe) any_mapped = any_mapped || (pe != me && g.peer[pe] != nullptr);
  if (ce_route && any_mapped) need_proxy = 1;
  std::vector<int> needs(n);
  if (isError(b.allGather(&need_proxy, needs.data(), sizeof need_proxy))) fatal(call, "bootstrap allgather failed");
  bool any = false;
  for (int x : needs) any = any || x;
  if (any) proxyStart(call);  // collective: every PE serves its mailbox when any PE needs the proxy
  protocols::devicePathInit(call, g.dev, g.base);  // PROTO (issue 6), collective: device peer paths, tables, staged pipeline

  DEV_CHECK(call, cudaMalloc(&g.d_peer, sizeof(char*) * n));
  DEV_CHECK(call, cudaMemcpy(g.d_peer, g.peer.data(), sizeof(char*) * n, cudaMemcpyHostToDevice));
  DeviceHandle& h = g.handle;
  h.my_pe = me;
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
  DEV_CHECK(call, cudaDeviceSynchronize());
  if (isError(b.barrier())) fatal(call, "bootstrap barrier failed");
  if (p.INFO && me == 0)
    fprintf(stderr, "gshmem:   device heap %s per PE on GPU %d; peers via %s\n",
            formatSize(p.SYMMETRIC_SIZE_DEVICE).c_str(), g.dev,
            !any_mapped ? "CPU proxy" : any && !ce_route ? "P2P and CPU proxy" : any ? "P2P (proxy thread: copy-engine route)" : "P2P");
}

void backendFinalize() {
  if (!g.base) return;
  cudaDeviceSynchronize();
  protocols::devicePathFinalize();  // PROTO (issue 6), collective: stops the staged server, unpins its buffers
  if (g.proxy_on) {
    protocols::proxyStop();
    g.proxy_on = false;
    for (int pe = 0; pe < g_rt.n_pes; ++pe)
      if (g.seg_registered[pe]) cudaHostUnregister(g.seg_of[pe]);
    g.mail_transport->disconnect();
    g.mail_transport.reset();
    munmap(g.seg.base, g.seg_size);
    cudaFreeHost(g.p_result);
    cudaStreamDestroy(g.mstream);
  }
  for (int pe = 0; pe < g_rt.n_pes; ++pe)
    if (pe != g_rt.my_pe && g.peer[pe]) cudaIpcCloseMemHandle(g.peer[pe]);
  (void)g_rt.bootstrap->barrier();  // every PE closed its mappings before the memory goes
  cudaFree(g.d_peer);
  cudaFree(g.base);
  lanesFree();
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
  cudaStream_t s = lane(call).stream;
  // PROTO (issue 6): the selector's protocol (p2p_ce, p2p_sm, staged); false keeps the path below.
  if (protocols::deviceRma(call, pe, off, const_cast<void*>(src), n, Direction::Put, s, true)) return;
  if (g.peer[pe]) copySync(call, g.peer[pe] + off, src, n, s);
  else stagedPut(call, pe, off, src, n, s, false);
}

void backendGet(const char* call, int pe, std::size_t off, void* dst, std::size_t n) {
  if (!n) return;
  cudaStream_t s = lane(call).stream;
  if (protocols::deviceRma(call, pe, off, dst, n, Direction::Get, s, true)) return;  // PROTO (issue 6)
  if (g.peer[pe]) copySync(call, dst, g.peer[pe] + off, n, s);
  else stagedGet(call, pe, off, dst, n, s, false);
}

uint64_t backendAmo(const char* call, int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value,
                    uint64_t cond) {
  if (g.peer[pe]) {
    Lane& l = lane(call);
    return amoSync(call, g.peer[pe] + off, op, size, value, cond, l.result, l.stream);
  }
  return stagedAmo(pe, off, op, size, value, cond, false);
}

void backendMemset(void* dst, int value, std::size_t n) {
  cudaStream_t s = lane("gshmemx_calloc_device").stream;
  DEV_CHECK("gshmemx_calloc_device", cudaMemsetAsync(dst, value, n, s));
  DEV_CHECK("gshmemx_calloc_device", cudaStreamSynchronize(s));
}

void* backendPeerPtr(int pe, std::size_t off) {
  if (!g.base || static_cast<unsigned>(pe) >= g.peer.size() || !g.peer[pe]) return nullptr;
  return g.peer[pe] + off;
}

const DeviceHandle* backendHandle() { return g.have_handle ? &g.handle : nullptr; }
int backendDeviceId() { return g.base ? g.dev : -1; }

}  // namespace gshmem::device
