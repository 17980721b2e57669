// The dispatch site for device-memory transfers (contract in dispatch.hpp).
#include "core/protocols/dispatch.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "base/config.hpp"
#include "base/cuda_check.hpp"
#include "core/protocols/device_path.hpp"
#include "core/protocols/kernels.hpp"
#include "core/protocols/mem_kind.hpp"
#include "core/protocols/staged_pipeline.hpp"
#include "core/protocols/staged_ucx.hpp"
#include "core/runtime/runtime.hpp"
#include "transports/cuda_ipc/cuda_ipc.hpp"
#include "transports/shm/shm_channel.hpp"

namespace gshmem::protocols {

namespace {

struct State {
  bool ready = false;
  int me = -1;
  DeviceHeapDesc heap;
  std::unique_ptr<CudaIpcTransport> ipc;
  std::unique_ptr<ShmChannel> channel;
  std::vector<const char*> why;  // per PE: the cuda_ipc transport's reason (static text), for GSHMEM_INFO
};
State g;

constexpr const char* kWho = "device dispatch";

/// The direct protocols: a copy through the peer's mapping (p2p_ce: the copy engine; p2p_sm: an SM copy kernel).
Status direct(bool sm, const Transfer& t) {
  char* peer = g.ipc->peerBase(t.pe);
  if (!peer) return Status::Unsupported;
  peer += t.off;
  const bool put = t.dir == Direction::Put;
  void* dst = put ? static_cast<void*>(peer) : t.local;
  const void* src = put ? static_cast<const void*>(t.local) : peer;
  if (sm) {
    if (cudaError_t e = launchSmCopy(dst, src, t.n, t.stream); e != cudaSuccess)
      return cudaFailed(kWho, "p2p_sm copy", e);
  } else {
    GSHMEM_CHECK(g.ipc->copyOnStream(dst, src, t.n, t.stream));
  }
  return t.blocking ? g.ipc->syncStream(t.stream) : Status::Ok;
}
Status runP2pCe(const Transfer& t) { return direct(false, t); }
Status runP2pSm(const Transfer& t) { return direct(true, t); }
/// The staged pipeline over the transport that reaches the peer: the node's request channel, else UCX. Complete
/// when it returns.
Status runStaged(const Transfer& t) {
  if (stagedReaches(t.pe)) return stagedTransfer(t.pe, t.off, t.local, t.n, t.dir, t.stream);
  if (stagedUcxReaches(t.pe)) return stagedUcxTransfer(t.pe, t.off, t.local, t.n, t.dir, t.stream);
  return Status::Unsupported;
}

/// The one place a device transfer's protocol is picked. Host-initiated transfers to another PE take the
/// selector's table (deviceChoice: calibrated or default models, GSHMEM_PATH, GSHMEM_TUNE) where the protocol it
/// names reaches the peer; a proxied request (the GPU asked for the copy engine, or the peer is not mapped), this
/// PE and a peer without a table take the copy engine where the peer is mapped, else the staged pipeline.
ProtocolId choose(int pe, void* local, std::size_t n, Direction d, Initiator who) {
  const bool mapped = g.ipc->peerBase(pe) != nullptr;
  const bool staged = stagedReaches(pe) || stagedUcxReaches(pe);
  if (who == Initiator::Host && pe != g.me) {
    const MemPair m = localIsDevice(local) ? MemPair::DevDev : MemPair::HostDev;
    const ProtocolId c = deviceChoice(pe, m, d, n);
    if (c == ProtocolId::Staged && staged) return c;
    if (mapped && (c == ProtocolId::P2pCe || c == ProtocolId::P2pSm)) return c;
  }
  if (mapped) return ProtocolId::P2pCe;
  return staged ? ProtocolId::Staged : ProtocolId::None;
}

/// The device transports' configuration: the device heap (cuda_ipc) and the staged pipeline's slots (shm_channel).
Status transportConfig(const Params& p, const DeviceHeapDesc& heap, TransportConfig* cfg, std::string* err) {
  cfg->device = heap.device;
  cfg->p2p = heap.p2p;
  cfg->vmm = heap.vmm;
  cfg->timeout_s = p.TIMEOUT;
  cfg->channel_depth = static_cast<int>(p.STAGED_DEPTH);
  if (cfg->channel_depth < 2 || cfg->channel_depth > 16) {
    *err = "GSHMEM_STAGED_DEPTH=" + std::to_string(cfg->channel_depth) + " is not between 2 and 16";
    return Status::InvalidArgument;
  }
  cfg->channel_slot_bytes = (p.STAGED_CHUNK + 4095) & ~std::size_t(4095);
  if (cfg->channel_slot_bytes < (std::size_t(256) << 10) || cfg->channel_slot_bytes > (std::size_t(256) << 20)) {
    *err = "GSHMEM_STAGED_CHUNK=" + formatSize(p.STAGED_CHUNK) + " is not between 256K and 256M";
    return Status::InvalidArgument;
  }
  cfg->channel_reach = p.TRANSPORTS != "ucx";  // forced UCX: device memory of unmapped peers over UCX
  return Status::Ok;
}

/// A device transport from the registry: the entry named `name` makes a `T` (cuda_ipc: CudaIpcTransport,
/// shm_channel: ShmChannel), or nullptr when this build lacks it.
template <typename T>
std::unique_ptr<T> deviceTransport(const char* name, const TransportConfig& cfg) {
  const TransportEntry* e = transportEntry(name);
  std::unique_ptr<Transport> t = e ? e->create(cfg) : nullptr;
  return std::unique_ptr<T>(static_cast<T*>(t.release()));
}

void printRoutes() {
  for (int pe = 0; pe < g_rt.n_pes; ++pe)
    fprintf(stderr, "gshmem:   device PE %d -> PE %d: %s (%s)\n", g.me, pe, deviceRoute(pe), g.why[pe]);
}

}  // namespace

Status deviceInit(const DeviceHeapDesc& heap, std::string* err) {
  Bootstrap& bs = *g_rt.bootstrap;
  g.me = bs.rank();
  g.heap = heap;
  setDeviceHeapKind(heap.base, heap.bytes);  // host-initiated calls classify the heap without a driver query
  TransportConfig tcfg;
  GSHMEM_CHECK(transportConfig(params(), heap, &tcfg, err));
  if (cudaError_t e = loadKernels(); e != cudaSuccess) return cudaFailed(kWho, "loading the protocol kernels", e);
  g.ipc = deviceTransport<CudaIpcTransport>("cuda_ipc", tcfg);
  g.channel = deviceTransport<ShmChannel>("shm_channel", tcfg);
  if (!g.ipc || !g.channel) {
    *err = "this build has no cuda_ipc or shm_channel transport for the device heap";
    return Status::Unsupported;
  }
  *err = "cannot connect the device transports (cuda_ipc, shm_channel); run with GSHMEM_LOG_LEVEL=INFO for details";
  std::vector<PeerReach> reach, channel_reach;
  GSHMEM_CHECK(g.ipc->connect(bs, {LocalRegion{heap.base, heap.bytes, -1, MemKind::Device}}, &reach));
  GSHMEM_CHECK(g.channel->connect(bs, {}, &channel_reach));
  GSHMEM_CHECK(stagedInit(bs, StagedConfig{heap.device, heap.base, g.channel.get()}));
  const int n = bs.size();
  StagedUcxConfig ucfg;
  ucfg.device = heap.device;
  ucfg.heap = heap.base;
  ucfg.depth = tcfg.channel_depth;
  ucfg.slot_bytes = std::min(tcfg.channel_slot_bytes, std::size_t(1) << 20);
  ucfg.need.assign(n, false);
  for (int pe = 0; pe < n; ++pe) ucfg.need[pe] = pe != g.me && !g.ipc->peerBase(pe) && !g.channel->reaches(pe);
  if (Status st = stagedUcxInit(bs, ucfg); isError(st)) {
    *err = st == Status::Unsupported ? "device memory of PEs no device transport reaches needs UCX, and this build "
                                       "has no UCX"
                                     : "cannot set up the staged protocol over UCX; run with GSHMEM_LOG_LEVEL=INFO";
    return st;
  }
  std::vector<std::string> bus(n);
  std::vector<bool> mapped(n);
  g.why.assign(n, "");
  for (int pe = 0; pe < n; ++pe) {
    bus[pe] = g.ipc->peerBusId(pe);
    mapped[pe] = g.ipc->peerBase(pe) != nullptr;
    g.why[pe] = reach[pe].why;
  }
  devicePathInit(heap.device, bus, mapped);
  protocolBindRun(ProtocolId::P2pCe, runP2pCe);
  protocolBindRun(ProtocolId::P2pSm, runP2pSm);
  protocolBindRun(ProtocolId::Staged, runStaged);
  g.ready = true;
  err->clear();
  if (params().INFO && g.me == 0) printRoutes();
  return Status::Ok;
}

Status deviceHeapGrow(std::size_t offset, std::size_t bytes, std::string* err) {
  if (!g.ready) return Status::Internal;
  return g.ipc->grow(*g_rt.bootstrap, offset, bytes, err);
}

void deviceHeapDrop(std::size_t offset) {
  if (g.ready) g.ipc->dropPeerChunks(offset);
}

void deviceFinalize() {
  if (!g.ready) return;
  Bootstrap& bs = *g_rt.bootstrap;
  devicePathFinalize();
  stagedUcxFinalize(bs);  // collective
  stagedFinalize(bs);     // collective: no request in flight after it
  g.channel->disconnect();
  g.ipc->disconnect();
  (void)bs.barrier();  // every PE closed its mappings before any heap is freed
  g.channel.reset();
  g.ipc.reset();
  g.ready = false;
  g.heap = DeviceHeapDesc{};
  setDeviceHeapKind(nullptr, 0);
}

char* devicePeerBase(int pe) { return g.ready ? g.ipc->peerBase(pe) : nullptr; }

const char* deviceRoute(int pe) {
  if (!g.ready) return "none";
  if (pe == g.me) return "self";
  if (g.ipc->peerBase(pe)) return "p2p/cuda_ipc";
  if (stagedReaches(pe)) return "staged/shm";
  if (stagedUcxReaches(pe)) return "staged/ucx";
  return "none";
}

Status deviceRma(int pe, std::size_t off, void* local, std::size_t n, Direction d, CUstream_st* stream, bool blocking,
                 Initiator who) {
  if (!g.ready) return Status::Unsupported;
  if (!n) return Status::Ok;
  const ProtocolId p = choose(pe, local, n, d, who);
  if (p == ProtocolId::None) return Status::Unsupported;
  GSHMEM_LOG_TRACE(TRANSPORT, "device %s of %zu bytes with PE %d: %s", directionName(d), n, pe, protocolName(p));
  return protocolDesc(p).run(Transfer{pe, off, local, n, d, stream, blocking});
}

bool deviceFusesPutAmo(int pe) { return g.ready && pe != g.me && !g.ipc->peerBase(pe) && stagedReaches(pe); }

Status devicePutAmoStart(int pe, std::size_t off, const void* local, std::size_t n, std::size_t amo_off, AmoOp op,
                         unsigned size, uint64_t value, uint64_t* token) {
  if (!deviceFusesPutAmo(pe)) return Status::Unsupported;
  return stagedPutAmoStart(pe, off, local, n, amo_off, op, size, value, token);
}

Status devicePutAmoComplete(int pe, uint64_t token) { return stagedComplete(pe, token); }

Status deviceAmo(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond, CUstream_st* stream,
                 uint64_t* pinned, uint64_t* result) {
  if (!g.ready) return Status::Unsupported;
  if (char* peer = g.ipc->peerBase(pe)) {
    if (cudaError_t e = launchAmo(peer + off, static_cast<uint32_t>(op), size, value, cond, pinned, stream);
        e != cudaSuccess)
      return cudaFailed(kWho, "atomic kernel", e);
    GSHMEM_CHECK(g.ipc->syncStream(stream));
    *result = *reinterpret_cast<volatile uint64_t*>(pinned);
    return Status::Ok;
  }
  if (stagedReaches(pe)) return stagedAmo(pe, off, op, size, value, cond, result);
  return stagedUcxAmo(pe, off, op, size, value, cond, result);
}

}  // namespace gshmem::protocols
