// The CUDA backend of the device symmetric heap: creation, the DeviceHandle kernels use, host-initiated operations
// on device memory, and the ProxyTarget through which the device proxy (core/protocols/proxy.hpp) executes the GPU's
// requests. Every transfer goes through the one dispatch site (core/protocols/dispatch.hpp), which owns the device
// transports (cuda_ipc, the shm channel, UCX).
//
// Proxy: one thread per PE drains this GPU's request ring and executes each request through proxyPut/Get/Amo below,
// i.e. protocols::deviceRma/deviceAmo with Initiator::Proxy. Requests a peer must serve on its own GPU (no P2P)
// are served by that peer's staged server thread, never by its proxy: proxies never wait for each other.
// Host threads: each has its own lane (stream and pinned AMO result), so host-initiated operations take no
// process-wide lock.
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "base/config.hpp"
#include "base/cuda_check.hpp"
#include "core/device/device.hpp"
#include "core/device/device_kernels.hpp"
#include "core/protocols/dispatch.hpp"
#include "core/protocols/proxy.hpp"
#include "core/protocols/service_thread.hpp"
#include "core/rma/ops.hpp"
#include "core/sync/sync.hpp"
#include "core/team/team.hpp"
#include "transports/cuda_ipc/cuda_vmm.hpp"

namespace gshmem::device {

namespace {

struct State {
  int dev = -1;
  char* base = nullptr;
  std::size_t user = 0, total = 0;  // user: the allocator's bytes (a VMM heap: its reserved user part)
  vmm::Range range;                 // a growing heap: the reserved range (user part, then the sync area)
  bool vmm = false;
  std::size_t mapped = 0, step = 0;  // a growing heap: user bytes mapped so far; bytes added at least per growth
  std::size_t gran = 0;              // a growing heap: the VMM granularity
  std::size_t reg_off = 0, reg_bytes = 0;  // a growing heap: the registration area of the range (after the sync area)
  std::vector<char*> peer;  // device address of each PE's heap mapped here (protocols::devicePeerBase)
  char** d_peer = nullptr;
  uint8_t* d_backend = nullptr;  // [n_pes]: DeviceHandle::peer_backend
  DeviceTeam* d_teams = nullptr;  // kDeviceTeams entries: DeviceHandle::teams
  DeviceHandle handle{};
  bool have_handle = false;
  uint64_t epoch = 0;     // lanes made before this init are stale (see lane())
  std::mutex lanes_lock;  // taken once per thread and init, never per operation
  std::vector<std::pair<cudaStream_t, uint64_t*>> lanes;  // every lane's CUDA objects, freed at finalize
  bool proxy_on = false;
  bool all_mapped = false;  // every peer's heap is mapped here: the ring carries only copy-engine work waited for
  int pes_on_gpu = 1;  // PEs of this node on this GPU, this one included
};
State g;

constexpr const char* kWho = "device heap";

/// Once the process is exiting a peer may be gone: a failed operation is dropped rather than reported.
Status droppedAtExit(Status st) { return isError(st) && protocols::serviceExiting() ? Status::Ok : st; }

uint64_t g_epochs = 0;  // inits so far in this process

/// A host thread's own stream and pinned AMO result for operations on device memory (host-initiated calls, the
/// proxy's atomics): made on the thread's first such call after init, so those calls take no process-wide lock.
struct Lane {
  cudaStream_t stream = nullptr;
  uint64_t* result = nullptr;
  uint64_t epoch = 0;
};
thread_local Lane t_lane;

/// The calling thread's lane, made on its first call after init. A CUDA failure is logged and returned.
Status lane(Lane** out) {
  if (t_lane.epoch == g.epoch) {
    *out = &t_lane;
    return Status::Ok;
  }
  std::lock_guard<std::mutex> lk(g.lanes_lock);
  int prev = -1;
  cudaGetDevice(&prev);
  struct Restore {  // the stream belongs to the heap's GPU, whatever this thread uses: give the thread its own back
    int prev;
    ~Restore() {
      if (prev >= 0 && prev != g.dev) cudaSetDevice(prev);
    }
  } restore{prev};
  GSHMEM_CUDA_TRY(kWho, cudaSetDevice(g.dev));
  Lane fresh;
  GSHMEM_CUDA_TRY(kWho, cudaStreamCreateWithFlags(&fresh.stream, cudaStreamNonBlocking));
  if (cudaError_t e = cudaHostAlloc(&fresh.result, 64, cudaHostAllocPortable); e != cudaSuccess) {
    cudaStreamDestroy(fresh.stream);
    return cudaFailed(kWho, "cudaHostAlloc of a lane's atomic result", e);
  }
  fresh.epoch = g.epoch;
  t_lane = fresh;
  g.lanes.emplace_back(fresh.stream, fresh.result);
  *out = &t_lane;
  return Status::Ok;
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

// The proxy's way to the PEs (protocols::ProxyTarget), through the dispatch site: a mapped peer by the copy
// engine, left ordered on the proxy's stream (the proxy synchronizes it before it retires the request); any other
// peer by the staged protocol, complete when it returns. A failure goes back to the proxy, which reports it.
Status proxyPut(int pe, std::size_t off, const void* src, std::size_t n, cudaStream_t s, bool* queued) {
  *queued = true;
  return protocols::deviceRma(pe, off, const_cast<void*>(src), n, Direction::Put, s, false,
                              protocols::Initiator::Proxy);
}
Status proxyGet(int pe, std::size_t off, void* dst, std::size_t n, cudaStream_t s, bool* queued) {
  *queued = true;
  return protocols::deviceRma(pe, off, dst, n, Direction::Get, s, false, protocols::Initiator::Proxy);
}
Status proxyAmo(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t v, uint64_t c, uint64_t* old) {
  Lane* l = nullptr;
  GSHMEM_CHECK(lane(&l));  // the proxy thread's own stream and pinned result
  return protocols::deviceAmo(pe, off, op, size, v, c, l->stream, l->result, old);
}
Status proxyPutAmo(int pe, std::size_t off, const void* src, std::size_t n, std::size_t amo_off, AmoOp op,
                   unsigned size, uint64_t value, uint64_t* token) {
  return protocols::devicePutAmoStart(pe, off, src, n, amo_off, op, size, value, token);
}
Status proxyComplete(int pe, uint64_t token) { return protocols::devicePutAmoComplete(pe, token); }
bool proxyFuses(int pe) { return protocols::deviceFusesPutAmo(pe); }
const char* proxyRoute(int pe) { return protocols::deviceRoute(pe); }
Status proxyThreadInit() {
  Lane* l = nullptr;
  return lane(&l);
}

Status proxyStart(std::string* err) {
  g.proxy_on = true;
  const protocols::ProxyTarget target{proxyPut, proxyGet, proxyAmo, proxyPutAmo, proxyComplete, proxyFuses, proxyRoute,
                                             proxyThreadInit};
  return protocols::proxyStart(g.dev, g.total, target, &g.handle.ring, err);
}

/// Collective: *want = every PE has a GPU and asks for a device heap (false: no device heap anywhere).
Status everyPeWantsHeap(int ndev, bool* want, std::string* err) {
  int mine = (ndev > 0 && params().SYMMETRIC_SIZE_DEVICE > 0) ? 1 : 0;
  std::vector<int> wants(g_rt.n_pes);
  if (isError(g_rt.bootstrap->allGather(&mine, wants.data(), sizeof mine))) {
    *err = "bootstrap allgather failed (device heap)";
    return Status::RemoteError;
  }
  *want = mine != 0;
  for (int w : wants)
    if (w != mine) {
      if (g_rt.my_pe == 0)
        GSHMEM_LOG_WARN(INIT, "some PEs have no GPU (or GSHMEM_SYMMETRIC_SIZE_DEVICE=0): no device heap anywhere");
      *want = false;
    }
  return Status::Ok;
}

/// A growing heap on GPU g.dev: reserve the user part's range (GSHMEM_DEVICE_HEAP_MAX) and the sync area after it,
/// map the first GSHMEM_SYMMETRIC_SIZE_DEVICE bytes and the sync area. Collective: every PE uses one only when every
/// PE could make one (false in *ok: the caller makes a cudaMalloc heap instead, on every PE).
Status vmmHeapCreate(std::size_t sync_bytes, bool* ok, std::string* err) {
  const Params& p = params();
  std::size_t gran = 0;
  int mine = 0;
  if (p.DEVICE_HEAP_MAX > p.SYMMETRIC_SIZE_DEVICE && vmm::supported(g.dev, &gran)) {
    auto up = [gran](std::size_t v) { return (v + gran - 1) / gran * gran; };
    g.user = up(p.DEVICE_HEAP_MAX);
    g.mapped = up(p.SYMMETRIC_SIZE_DEVICE);
    g.step = up(p.DEVICE_HEAP_STEP);
    g.gran = gran;
    g.reg_off = g.user + up(sync_bytes);  // buffers of nvshmemx_buffer_register_symmetric: as much as the user part
    // ... and within the offsets the proxy ring carries (kProxyOffsetBits)
    const std::size_t reach = std::size_t(1) << kProxyOffsetBits;
    g.reg_bytes = g.reg_off >= reach ? 0 : std::min(g.user, (reach - g.reg_off) / gran * gran);
    mine = !isError(g.range.reserve(g.reg_off + g.reg_bytes)) && !isError(g.range.create(g.dev, 0, g.mapped)) &&
           !isError(g.range.create(g.dev, g.user, up(sync_bytes)));
  }
  std::vector<int> all(g_rt.n_pes);
  if (isError(g_rt.bootstrap->allGather(&mine, all.data(), sizeof mine))) {
    *err = "bootstrap allgather failed (device heap)";
    return Status::RemoteError;
  }
  *ok = true;
  for (int a : all) *ok = *ok && a;
  if (!*ok) {
    g.range.release();
    if (mine && g_rt.my_pe == 0) GSHMEM_LOG_INFO(INIT, "some PE cannot make a growing (CUDA VMM) device heap: the "
                                                 "heap is fixed at GSHMEM_SYMMETRIC_SIZE_DEVICE on every PE");
    return Status::Ok;
  }
  g.vmm = true;
  g.base = g.range.base();
  g.total = g.user + sync_bytes;
  return Status::Ok;
}

/// Allocate this PE's heap (user part + DeviceSync area) on its GPU.
Status heapCreate(int ndev, std::string* err) {
  const Params& p = params();
  const int n = g_rt.n_pes, me = g_rt.my_pe;
  int local = 0;
  for (int pe = 0; pe < me; ++pe) local += g_rt.node_of[pe] == g_rt.node_of[me];
  g.dev = p.DEVICE >= 0 ? static_cast<int>(p.DEVICE) : local % ndev;
  if (g.dev >= ndev) {
    *err = strFormat("GSHMEM_DEVICE=%d but only %d CUDA devices are visible", g.dev, ndev);
    return Status::InvalidArgument;
  }
  GSHMEM_CUDA_TRY_WHY(err, cudaSetDevice(g.dev));
  const std::size_t sync_bytes = deviceSyncBytes(n);
  bool vmm_ok = false;
  GSHMEM_CHECK(vmmHeapCreate(sync_bytes, &vmm_ok, err));
  if (!vmm_ok) {
    g.user = (p.SYMMETRIC_SIZE_DEVICE + 4095) & ~std::size_t(4095);
    g.mapped = g.user;
    g.total = g.user + sync_bytes;
    if (cudaMalloc(&g.base, g.total) != cudaSuccess) {
      cudaGetLastError();
      g.base = nullptr;
      *err = strFormat("cannot allocate the %s device symmetric heap on GPU %d; lower GSHMEM_SYMMETRIC_SIZE_DEVICE",
                       formatSize(p.SYMMETRIC_SIZE_DEVICE).c_str(), g.dev);
      return Status::NoMemory;
    }
  }
  GSHMEM_CUDA_TRY_WHY(err, cudaMemset(g.base + g.user, 0, sync_bytes));
  g.epoch = ++g_epochs;
  // Load the library's kernels now: with CUDA lazy loading, a first launch by the proxy while a user kernel spins
  // on a proxied operation would wait for that kernel, which waits for the proxy (deadlock).
  GSHMEM_CUDA_TRY_WHY(err, loadKernels());
  return Status::Ok;
}

/// Whether an MPS control daemon serves this process's GPUs: its control pipe exists where clients look for it.
bool mpsDaemonSeen() {
  const char* dir = getenv("CUDA_MPS_PIPE_DIRECTORY");
  const std::string control = std::string(dir && *dir ? dir : "/tmp/nvidia-mps") + "/control";
  return access(control.c_str(), F_OK) == 0;
}

/// Collective. Several PEs on one GPU without MPS take turns on it by time slice, and a kernel (or stream) that waits
/// for another PE's signal holds the GPU until its slice ends (milliseconds per wait): the lowest such PE says so
/// once. Not an error: correctness does not depend on it.
Status warnSharedGpu(std::string* err) {
  struct Key {
    int node;
    char uuid[16];
  } mine{g_rt.node_of[g_rt.my_pe], {}}, none{};
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, g.dev) == cudaSuccess) std::memcpy(mine.uuid, prop.uuid.bytes, sizeof mine.uuid);
  cudaGetLastError();
  std::vector<Key> all(g_rt.n_pes);
  if (isError(g_rt.bootstrap->allGather(&mine, all.data(), sizeof mine))) {
    *err = "bootstrap allgather failed (device placement)";
    return Status::RemoteError;
  }
  if (std::memcmp(mine.uuid, none.uuid, sizeof mine.uuid) == 0) return Status::Ok;
  std::vector<int> same;
  for (int pe = 0; pe < g_rt.n_pes; ++pe)
    if (all[pe].node == mine.node && std::memcmp(all[pe].uuid, mine.uuid, sizeof mine.uuid) == 0) same.push_back(pe);
  g.pes_on_gpu = static_cast<int>(same.size());
  if (same.size() > 1 && same.front() == g_rt.my_pe && !mpsDaemonSeen())
    GSHMEM_LOG_WARN(INIT, "%zu PEs (%d..%d) share GPU %d without MPS: the GPU time-slices between them, and a kernel "
                    "or stream that waits for another PE's signal holds it until its slice ends; start "
                    "nvidia-cuda-mps-control -d before mpirun, or give each PE its own GPU", same.size(), same.front(),
                    same.back(), g.dev);
  return Status::Ok;
}

/// The device team table: every team this PE holds (the predefined ones at init), by id.
DeviceTeam teamEntry(const gshmem_team* t) {
  DeviceTeam e;
  if (t) e = DeviceTeam{t->start, t->stride, t->size, t->my_index};
  return e;
}
Status teamsTableCreate(std::string* err) {
  DeviceTeam table[kDeviceTeams];
  for (int id = 0; id < kDeviceTeams; ++id) table[id] = teamEntry(teamOfId(id));
  GSHMEM_CUDA_TRY_WHY(err, cudaMalloc(&g.d_teams, sizeof table));
  GSHMEM_CUDA_TRY_WHY(err, cudaMemcpy(g.d_teams, table, sizeof table, cudaMemcpyHostToDevice));
  return Status::Ok;
}

/// Fill the DeviceHandle kernels use and push it to every registered translation unit.
Status handleBuild(const uint64_t ce_min[3], std::string* err) {
  const int n = g_rt.n_pes;
  GSHMEM_CUDA_TRY_WHY(err, cudaMalloc(&g.d_peer, sizeof(char*) * n));
  GSHMEM_CUDA_TRY_WHY(err, cudaMemcpy(g.d_peer, g.peer.data(), sizeof(char*) * n, cudaMemcpyHostToDevice));
  // The backend of each peer's device-initiated operations: direct where mapped, else the proxy ring (the only
  // backend for unmapped peers this build has).
  std::vector<uint8_t> backend(n);
  for (int pe = 0; pe < n; ++pe) backend[pe] = g.peer[pe] != nullptr ? kBackendDirect : kBackendProxy;
  GSHMEM_CUDA_TRY_WHY(err, cudaMalloc(&g.d_backend, n));
  GSHMEM_CUDA_TRY_WHY(err, cudaMemcpy(g.d_backend, backend.data(), n, cudaMemcpyHostToDevice));
  DeviceHandle& h = g.handle;
  h.my_pe = g_rt.my_pe;
  h.n_pes = n;
  h.heap_base = g.base;
  h.heap_size = g.user;
  h.peer_base = g.d_peer;
  h.peer_backend = g.d_backend;
  for (int pe = 0; pe < n && pe < kInlinePeers; ++pe) h.peer_base_inline[pe] = g.peer[pe];
  for (int k = 0; k < 3; ++k) h.ce_min[k] = g.proxy_on ? ce_min[k] : ~0ull;
  h.sync = reinterpret_cast<DeviceSync*>(g.base + g.user);
  h.sync_offset = g.user;
  GSHMEM_CHECK(teamsTableCreate(err));
  h.teams = g.d_teams;
  g.have_handle = true;
  g_region = Region{g.base, g.user};
  allocatorReset(g.user);
  syncStates(h, g.dev);
  return Status::Ok;
}

/// Map the peers the device transports reach; *need_proxy: some peer is not mapped (the GPU posts to the proxy).
void peersMap(bool* any_mapped, bool* need_proxy) {
  const int n = g_rt.n_pes, me = g_rt.my_pe;
  g.peer.assign(n, nullptr);
  *any_mapped = *need_proxy = false;
  for (int pe = 0; pe < n; ++pe) {
    g.peer[pe] = protocols::devicePeerBase(pe);
    *any_mapped = *any_mapped || (pe != me && g.peer[pe] != nullptr);
    *need_proxy = *need_proxy || g.peer[pe] == nullptr;
  }
}

}  // namespace

void beforeCudaInit() {
  // CUDA's lazy loading (its default) loads a kernel at its first launch, and a load may wait for the work already
  // on the GPU. A user kernel, or a stream wait, that waits for a signal only this process's proxy or staged server
  // can deliver would then wait for a launch that waits for it. Unless the program chose a mode, load eagerly.
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  // CUDA maps streams onto a few hardware work queues, and a stream waiting for a signal (a stream wait or a waiting
  // kernel) stalls every stream that shares its queue. When a peer is reached through the staged protocol, the
  // signal comes from this process's own server stream: sharing a queue with the waiter, it never runs. MPS clients
  // get fewer queues than the 8 a process gets alone (2 PEs deadlock there with 2); unless the program chose a
  // number, ask for the 8 under MPS too.
  if (mpsDaemonSeen()) setenv("CUDA_DEVICE_MAX_CONNECTIONS", "8", 0);
}

Status backendInit(std::string* err) {
  const Params& p = params();
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess) {
    cudaGetLastError();
    ndev = 0;
  }
  bool want = false;
  GSHMEM_CHECK(everyPeWantsHeap(ndev, &want, err));
  if (!want) return Status::Ok;
  GSHMEM_CHECK(heapCreate(ndev, err));
  GSHMEM_CHECK(warnSharedGpu(err));
  // Collective: cuda_ipc, the shm channel, the staged server, path tables.
  GSHMEM_CHECK(protocols::deviceInit(
      protocols::DeviceHeapDesc{g.dev, g.base, g.total, p.P2P != 0, g.vmm ? &g.range : nullptr}, err));
  bool any_mapped = false, need_proxy = false;
  peersMap(&any_mapped, &need_proxy);
  g.all_mapped = !need_proxy;
  // DEVICE_CE_MIN: large device-initiated puts/gets to mapped peers through the proxy's copy engine (needs the ring).
  uint64_t ce_min[3];  // per scope; kSizeInf (~0ull) is off
  for (int k = 0; k < 3; ++k) ce_min[k] = p.DEVICE_CE_MIN[k];
  const bool ce_route = ce_min[0] != ~0ull || ce_min[1] != ~0ull || ce_min[2] != ~0ull;
  if (ce_route && any_mapped) need_proxy = true;
  if (need_proxy) GSHMEM_CHECK(proxyStart(err));  // this PE's ring only: peers' requests go to their staged servers
  GSHMEM_CHECK(handleBuild(ce_min, err));
  GSHMEM_CUDA_TRY_WHY(err, cudaDeviceSynchronize());
  if (isError(g_rt.bootstrap->barrier())) {
    *err = "bootstrap barrier failed (device heap)";
    return Status::RemoteError;
  }
  if (p.INFO && g_rt.my_pe == 0)
    fprintf(stderr, "gshmem:   device heap %s per PE on GPU %d%s; %s\n", formatSize(g.mapped).c_str(), g.dev,
            g.vmm ? strFormat(", growing up to %s (CUDA VMM)", formatSize(g.user).c_str()).c_str() : " (fixed)",
            !g.proxy_on ? "no proxy ring (every peer mapped)" : ce_route && any_mapped ?
            "proxy ring (copy-engine route and unmapped peers)" : "proxy ring (unmapped peers)");
  return Status::Ok;
}

void backendFinalize() {
  if (!g.base) return;
  cudaDeviceSynchronize();
  if (g.proxy_on) {
    protocols::proxyStop();
    g.proxy_on = false;
  }
  protocols::deviceFinalize();  // collective: stops the staged server, closes IPC mappings (barrier inside)
  cudaFree(g.d_peer);
  cudaFree(g.d_backend);
  cudaFree(g.d_teams);
  if (g.vmm)
    g.range.release();
  else
    cudaFree(g.base);
  g.vmm = false;
  g.all_mapped = false;
  g.mapped = 0;
  g.reg_off = g.reg_bytes = 0;
  lanesFree();
  g.base = nullptr;
  g.d_peer = nullptr;
  g.d_backend = nullptr;
  g.d_teams = nullptr;
  g.have_handle = false;
  g.handle = DeviceHandle{};
  g.peer.clear();
  g_region = Region{};
  allocatorReset(0);
}

Status backendPut(int pe, std::size_t off, const void* src, std::size_t n) {
  if (!n) return Status::Ok;
  Lane* l = nullptr;
  GSHMEM_CHECK(lane(&l));
  return droppedAtExit(protocols::deviceRma(pe, off, const_cast<void*>(src), n, Direction::Put, l->stream, true,
                                            protocols::Initiator::Host));
}

Status backendGet(int pe, std::size_t off, void* dst, std::size_t n) {
  if (!n) return Status::Ok;
  Lane* l = nullptr;
  GSHMEM_CHECK(lane(&l));
  return droppedAtExit(
      protocols::deviceRma(pe, off, dst, n, Direction::Get, l->stream, true, protocols::Initiator::Host));
}

Status backendAmo(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond, uint64_t* old) {
  Lane* l = nullptr;
  GSHMEM_CHECK(lane(&l));
  return droppedAtExit(protocols::deviceAmo(pe, off, op, size, value, cond, l->stream, l->result, old));
}

std::string backendFailure(int pe, Status st) {
  return strFormat("through %s failed: %s", protocols::deviceRoute(pe),
                   st == Status::Unsupported ? "no transport reaches its device heap (it is on another node and this "
                                               "build has no UCX)"
                                             : statusString(st));
}

Status backendMemset(void* dst, int value, std::size_t n) {
  Lane* l = nullptr;
  GSHMEM_CHECK(lane(&l));
  GSHMEM_CUDA_TRY(kWho, cudaMemsetAsync(dst, value, n, l->stream));
  GSHMEM_CUDA_TRY(kWho, cudaStreamSynchronize(l->stream));
  return Status::Ok;
}

void* backendPeerPtr(int pe, std::size_t off) {
  if (!g.base || static_cast<unsigned>(pe) >= g.peer.size() || !g.peer[pe]) return nullptr;
  return g.peer[pe] + off;
}

// On the calling thread's lane, not the legacy stream: a kernel of the program may be running (waiting for PEs
// that are still in the split), and a legacy-stream copy would wait for it.
Status backendTeamSet(int id, const gshmem_team& t) {
  if (!g.d_teams) return Status::Ok;
  Lane* l = nullptr;
  GSHMEM_CHECK(lane(&l));
  static_assert(std::is_trivially_copyable<DeviceTeam>::value, "copied as bytes");
  const DeviceTeam e = teamEntry(&t);
  GSHMEM_CUDA_TRY(kWho, cudaMemcpyAsync(g.d_teams + id, &e, sizeof e, cudaMemcpyHostToDevice, l->stream));
  GSHMEM_CUDA_TRY(kWho, cudaStreamSynchronize(l->stream));
  return Status::Ok;
}

Status backendTeamClear(int id) {
  if (!g.d_teams) return Status::Ok;
  Lane* l = nullptr;
  GSHMEM_CHECK(lane(&l));
  const DeviceTeam none;
  char* sync = g.base + g.user;
  GSHMEM_CUDA_TRY(kWho, cudaMemcpyAsync(g.d_teams + id, &none, sizeof none, cudaMemcpyHostToDevice, l->stream));
  GSHMEM_CUDA_TRY(kWho, cudaMemsetAsync(sync + deviceTeamSyncOffset(g_rt.n_pes) + sizeof(unsigned long long) * id, 0,
                                        sizeof(unsigned long long), l->stream));
  const std::size_t row = sizeof(unsigned long long) * std::size_t(id) * g_rt.n_pes;
  const std::size_t row_bytes = sizeof(unsigned long long) * g_rt.n_pes;
  GSHMEM_CUDA_TRY(kWho, cudaMemsetAsync(sync + deviceTeamFlagsOffset(g_rt.n_pes) + row, 0, row_bytes, l->stream));
  GSHMEM_CUDA_TRY(kWho, cudaMemsetAsync(sync + deviceMoverSeqOffset(g_rt.n_pes) + sizeof(unsigned long long) * id, 0,
                                        sizeof(unsigned long long), l->stream));
  GSHMEM_CUDA_TRY(kWho, cudaMemsetAsync(sync + deviceMoverReadyOffset(g_rt.n_pes) + row, 0, row_bytes, l->stream));
  GSHMEM_CUDA_TRY(kWho, cudaMemsetAsync(sync + deviceMoverDataOffset(g_rt.n_pes) + row, 0, row_bytes, l->stream));
  GSHMEM_CUDA_TRY(kWho, cudaStreamSynchronize(l->stream));
  return Status::Ok;
}

std::size_t backendMappedBytes() { return g.base ? g.mapped : 0; }

bool backendGrows() { return g.vmm; }

Status backendGrow(std::size_t end, std::string* err) {
  if (!g.vmm || end > g.user) {
    *err = strFormat("the device heap cannot grow past %s; raise GSHMEM_DEVICE_HEAP_MAX", formatSize(g.user).c_str());
    return Status::NoMemory;
  }
  const std::size_t want = (end + g.step - 1) / g.step * g.step;
  const std::size_t target = want < g.user ? want : g.user, bytes = target - g.mapped;
  struct Vote {
    uint64_t offset, bytes;
    int32_t ok, pad;
  } mine{g.mapped, bytes, 0, 0};
  mine.ok = !isError(g.range.create(g.dev, g.mapped, bytes));  // the driver's reason is logged there
  std::vector<Vote> all(g_rt.n_pes);
  if (isError(g_rt.bootstrap->allGather(&mine, all.data(), sizeof mine))) {
    *err = "bootstrap allgather failed (device heap growth)";
    return Status::RemoteError;
  }
  for (int pe = 0; pe < g_rt.n_pes; ++pe) {
    if (all[pe].ok && all[pe].offset == mine.offset && all[pe].bytes == mine.bytes) continue;
    *err = !all[pe].ok ? strFormat("PE %d cannot map %s more of its GPU's memory (see its error); free device memory "
                                   "or lower the allocation", pe, formatSize(bytes).c_str())
                       : strFormat("PE %d grows its device heap differently (give every PE the same "
                                   "GSHMEM_DEVICE_HEAP_STEP)", pe);
    if (mine.ok) g.range.drop(g.mapped);
    return Status::NoMemory;
  }
  GSHMEM_CHECK(protocols::deviceHeapGrow(g.mapped, bytes, err));
  g.mapped = target;
  return Status::Ok;
}

std::size_t backendRegisterArea(std::size_t* bytes, std::size_t* granularity) {
  *bytes = g.vmm ? g.reg_bytes : 0;
  *granularity = g.gran;
  return g.vmm ? g.reg_off : 0;
}

Status backendMappingSize(const void* addr, std::size_t* bytes) { return vmm::mappingSize(addr, bytes); }

Status backendAdopt(const void* addr, std::size_t length, std::size_t off, std::size_t* bytes) {
  if (!g.vmm) return Status::Unsupported;
  return g.range.adopt(addr, length, g.dev, off, bytes);
}

Status backendShare(std::size_t off, std::size_t bytes, std::string* err) {
  return protocols::deviceHeapGrow(off, bytes, err);
}

void backendDrop(std::size_t off) {
  if (!g.vmm) return;
  cudaDeviceSynchronize();  // this GPU's copies through the mappings are over
  protocols::deviceHeapDrop(off);
  g.range.drop(off);
}

const DeviceHandle* backendHandle() { return g.have_handle ? &g.handle : nullptr; }
int backendDeviceId() { return g.base ? g.dev : -1; }
int backendPesOnGpu() { return g.base ? g.pes_on_gpu : 1; }
bool backendAllPeersMapped() { return g.base && g.all_mapped; }

}  // namespace gshmem::device
