// PROTO (issue 6): device-memory protocol choice and dispatch (design in device_path.hpp).
#include "core/protocols/device_path.hpp"

#include <cuda_runtime.h>

#include <atomic>
#include <cstring>
#include <vector>

#include "base/config.hpp"
#include "core/device/device.hpp"
#include "core/protocols/p2p_copy.hpp"
#include "core/protocols/staged_pipeline.hpp"
#include "core/runtime.hpp"

namespace gshmem::protocols {

namespace {

struct PathState {
  bool ready = false;
  std::vector<PeerPath> path;                // per PE
  std::vector<bool> has;                     // per PE: a device path exists (same node, device heap, not me)
  std::vector<const DecisionTable*> table;   // per PE
  std::atomic<int> forced{static_cast<int>(ProtocolId::None)};
};
PathState g;

struct Card {  // exchanged through the bootstrap
  char bus_id[32];
};

/// The GPU-GPU class of (this GPU, peer GPU). Without a topology fixture here: the same device is SELF; a pair
/// with P2P access and native atomics is NVLink (PCIe P2P has no native atomics on the GPUs we run on); P2P
/// without atomics is behind PCIe switches (PXB); no P2P is across the SMP interconnect (SYS), the conservative
/// class (src/base/topology's hwloc model refines PCIe classes where it is loaded).
PathType gpuClass(int me_dev, int peer_dev) {
  if (peer_dev < 0) return PathType::Sys;
  if (peer_dev == me_dev) return PathType::Self;
  int can = 0, atom = 0;
  if (cudaDeviceCanAccessPeer(&can, me_dev, peer_dev) != cudaSuccess) can = 0;
  if (can && cudaDeviceGetP2PAttribute(&atom, cudaDevP2PAttrNativeAtomicSupported, me_dev, peer_dev) != cudaSuccess)
    atom = 0;
  cudaGetLastError();
  return !can ? PathType::Sys : atom ? PathType::NvLink : PathType::Pxb;
}

bool isDevice(const void* p) {
  if (device::owns(p)) return true;
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

bool reaches(ProtocolId id, const PeerPath& p, MemPair m) {
  return id != ProtocolId::None && protocolDesc(id).reaches(p, m);
}

}  // namespace

bool deviceProtocolsAvailable() {
  int n = 0;
  if (params().SYMMETRIC_SIZE_DEVICE == 0) return false;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return n > 0;
}

void devicePathInit(const char* call, int dev, char* heap_base) {
  const int n = g_rt.n_pes, me = g_rt.my_pe;
  Card mine{};
  if (cudaDeviceGetPCIBusId(mine.bus_id, sizeof mine.bus_id, dev) != cudaSuccess)
    fatal(call, "cannot read the PCI bus id of GPU %d", dev);
  std::vector<Card> cards(n);
  if (isError(g_rt.bootstrap->allGather(&mine, cards.data(), sizeof mine))) fatal(call, "bootstrap allgather failed");
  stagedInit(call, dev, heap_base);  // collective
  if (cudaError_t e = loadSmCopy(); e != cudaSuccess) fatal(call, "cannot load the p2p_sm copy kernel: %s", cudaGetErrorString(e));
  g.path.assign(n, PeerPath{});
  g.has.assign(n, false);
  g.table.assign(n, nullptr);
  for (int pe = 0; pe < n; ++pe) {
    if (pe == me || g_rt.node_of[pe] != g_rt.node_of[me]) continue;
    int pdev = -1;
    if (cudaDeviceGetByPCIBusId(&pdev, cards[pe].bus_id) != cudaSuccess) {
      cudaGetLastError();
      pdev = -1;
    }
    g.path[pe] = PeerPath{gpuClass(dev, pdev), true, device::backendPeerPtr(pe, 0) != nullptr};
    g.has[pe] = true;
  }
  // Build every table first (addPeer may move earlier ones), then keep pointers.
  if (g_rt.selector)
    for (int pe = 0; pe < n; ++pe)
      if (g.has[pe]) g_rt.selector->addPeer(g.path[pe]);
  for (int pe = 0; pe < n; ++pe)
    if (g.has[pe] && g_rt.selector) g.table[pe] = g_rt.selector->table(g.path[pe]);
  g.ready = true;
  if (params().INFO && me == 0 && g_rt.selector) {
    for (int pe = 0; pe < n; ++pe)
      if (g.has[pe] && g.table[pe]) {
        std::string row;
        for (int m = 1; m < kNumMemPairs; ++m)
          for (int d = 0; d < kNumDirections; ++d) {
            row += std::string(" ") + memPairName(MemPair(m)) + " " + directionName(Direction(d)) + ":";
            for (const DecisionRange& r : g.table[pe]->ranges[m][d])
              row += " " + selectFormatSize(r.lo) + "-" + selectFormatSize(r.hi) + " " + protocolName(r.proto);
            row += ";";
          }
        fprintf(stderr, "gshmem:   device PE %d -> PE %d: class %s, %s;%s\n", me, pe, pathName(g.path[pe].path),
                g.path[pe].p2p ? "P2P mapped" : "no P2P", row.c_str());
      }
  }
}

void devicePathFinalize() {
  if (!g.ready) return;
  stagedFinalize();
  g.ready = false;
  g.table.clear();
}

bool devicePeerPath(int pe, PeerPath* out) {
  if (!g.ready || static_cast<unsigned>(pe) >= g.has.size() || !g.has[pe]) return false;
  *out = g.path[pe];
  return true;
}

void deviceForce(ProtocolId p) { g.forced.store(static_cast<int>(p), std::memory_order_relaxed); }

ProtocolId deviceChoice(int pe, MemPair m, Direction d, std::size_t n) {
  if (!g.ready || static_cast<unsigned>(pe) >= g.has.size() || !g.has[pe]) return ProtocolId::None;
  ProtocolId f = static_cast<ProtocolId>(g.forced.load(std::memory_order_relaxed));
  if (f != ProtocolId::None && reaches(f, g.path[pe], m)) return f;
  return g.table[pe] ? g.table[pe]->lookup(m, d, n) : ProtocolId::None;
}

bool deviceRma(const char* call, int pe, std::size_t off, void* local, std::size_t n, Direction d, CUstream_st* stream,
               bool blocking) {
  if (!g.ready || static_cast<unsigned>(pe) >= g.has.size() || !g.has[pe]) return false;
  const MemPair m = isDevice(local) ? MemPair::DevDev : MemPair::HostDev;
  const ProtocolId proto = deviceChoice(pe, m, d, n);
  const bool put = d == Direction::Put;
  switch (proto) {
    case ProtocolId::P2pCe:
    case ProtocolId::P2pSm: {
      char* peer = static_cast<char*>(device::backendPeerPtr(pe, off));
      if (!peer) return false;  // not mapped: the caller's path
      void* dst = put ? static_cast<void*>(peer) : local;
      const void* src = put ? static_cast<const void*>(local) : peer;
      cudaError_t e = proto == ProtocolId::P2pCe ? cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, stream)
                                                 : launchSmCopy(dst, src, n, stream);
      if (e == cudaSuccess && blocking) e = cudaStreamSynchronize(stream);
      if (e != cudaSuccess)
        fatal(call, "%s %s of %zu bytes to PE %d failed: %s", protocolName(proto), directionName(d), n, pe,
              cudaGetErrorString(e));
      return true;
    }
    case ProtocolId::Staged:
      if (!stagedReady()) return false;
      if (put) stagedPut(call, pe, off, local, n, stream);
      else stagedGet(call, pe, off, local, n, stream);
      return true;
    default:
      return false;
  }
}

}  // namespace gshmem::protocols
