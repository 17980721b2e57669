// Device-memory path classes and decision tables (design in device_path.hpp).
#include "core/protocols/device_path.hpp"

#include <cuda_runtime.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "base/config.hpp"
#include "base/log.hpp"
#include "base/topology/topology.hpp"
#include "core/runtime/runtime.hpp"

namespace gshmem::protocols {

namespace {

struct PathState {
  bool ready = false;
  std::vector<PeerPath> path;                // per PE
  std::vector<bool> has;                     // per PE: a device path exists (same node, device heap, not me)
  std::vector<const DecisionTable*> table;   // per PE
  std::vector<bool> fromTopo;                // per PE: path class read from the hwloc topology, not the heuristic
  std::atomic<int> forced{static_cast<int>(ProtocolId::None)};
};
PathState g;

/// The machine topology, loaded at most once per process (the machine does not change between init and
/// finalize, so it outlives devicePathFinalize). ok and topo are written only inside loadOnce's call_once and
/// are read-only after it.
struct TopoState {
  std::once_flag once;
  bool ok = false;       // topo is valid
  Topology topo;
  bool printed = false;  // the GSHMEM_INFO summary went out (PE 0, main thread only)
};
TopoState g_topo;

/// Whether CUDA reports NVLink-like peer access between visible devices @p a and @p b: P2P access plus native
/// atomics (PCIe P2P has no native atomics on the GPUs we run on). Clears any CUDA error it provokes.
bool cudaNvLinkLike(int a, int b) {
  int can = 0, atom = 0;
  if (cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess) can = 0;
  if (can && cudaDeviceGetP2PAttribute(&atom, cudaDevP2PAttrNativeAtomicSupported, a, b) != cudaSuccess) atom = 0;
  cudaGetLastError();
  return can && atom;
}

/// Load the live machine's topology with hwloc, then add the NVLink pairs CUDA reports among the visible GPUs
/// that hwloc did not report itself (hwloc without its NVML backend sees only the PCIe tree). Pairs naming a GPU
/// hwloc does not know are left out (they would fail the whole load). Never fatal: on failure g_topo.ok stays
/// false and callers fall back to the CUDA heuristic. Thread-safe and idempotent (the proxy thread may get here
/// before devicePathInit does).
const TopoState& loadOnce() {
  std::call_once(g_topo.once, [] {
    TopologySource src;
    Topology first;
    if (Status st = topologyLoad(src, &first); isError(st)) {
      GSHMEM_LOG_INFO(INIT, "topology: hwloc topology not available (%s); GPU path classes from the CUDA heuristic",
                      statusString(st));
      return;
    }
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess) {
      cudaGetLastError();
      ndev = 0;
    }
    std::vector<std::string> bus(ndev);
    for (int d = 0; d < ndev; ++d) {
      char b[32] = {};
      if (cudaDeviceGetPCIBusId(b, sizeof b, d) == cudaSuccess) bus[d] = b;
      else cudaGetLastError();
    }
    for (int a = 0; a < ndev; ++a) {
      int ga = bus[a].empty() ? -1 : first.gpuByBusId(bus[a]);
      for (int b = a + 1; b < ndev && ga >= 0; ++b) {
        int gb = bus[b].empty() ? -1 : first.gpuByBusId(bus[b]);
        if (gb < 0 || gb == ga || first.gpuPath(ga, gb).type == PathType::NvLink || !cudaNvLinkLike(a, b)) continue;
        src.nvlinks.push_back(NvLinkPair{bus[a], bus[b], 1, 0});
      }
    }
    if (!src.nvlinks.empty()) {
      // Topology is immutable: reload with the missing pairs (only on machines where hwloc lacks NVLink data).
      Topology withNvl;
      if (Status st = topologyLoad(src, &withNvl); isError(st))
        GSHMEM_LOG_INFO(INIT, "topology: reload with %zu CUDA NVLink pair(s) failed (%s); using hwloc's PCIe view",
                        src.nvlinks.size(), statusString(st));
      else
        first = std::move(withNvl);
    }
    GSHMEM_LOG_DEBUG(INIT, "topology: %d GPU(s), %d NIC(s), %zu NVLink pair(s) added from CUDA", first.gpuCount(),
                     first.nicCount(), src.nvlinks.size());
    g_topo.topo = std::move(first);
    g_topo.ok = true;
  });
  return g_topo;
}

/// Fallback GPU-GPU class of (this GPU, peer GPU), used when the hwloc topology is not loaded or does not know
/// one of the GPUs: the same device is SELF; a pair with P2P access and native atomics is NVLink; P2P without
/// atomics is behind PCIe switches (PXB); no P2P (or a peer GPU this process cannot see, @p peer_dev < 0) is
/// across the SMP interconnect (SYS), the conservative class.
PathType gpuClass(int me_dev, int peer_dev) {
  if (peer_dev < 0) return PathType::Sys;
  if (peer_dev == me_dev) return PathType::Self;
  int can = 0;
  if (cudaDeviceCanAccessPeer(&can, me_dev, peer_dev) != cudaSuccess) can = 0;
  cudaGetLastError();
  if (!can) return PathType::Sys;
  return cudaNvLinkLike(me_dev, peer_dev) ? PathType::NvLink : PathType::Pxb;
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

void devicePathInit(int dev, const std::vector<std::string>& bus_of, const std::vector<bool>& mapped) {
  const int n = g_rt.n_pes, me = g_rt.my_pe;
  const TopoState& ts = loadOnce();
  if (params().INFO && me == 0 && !g_topo.printed) {
    g_topo.printed = true;
    if (ts.ok) {
      std::string text = ts.topo.summary();
      for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        fprintf(stderr, "gshmem: %.*s\n", static_cast<int>(end - at), text.c_str() + at);
        at = end + 1;
      }
    } else {
      fprintf(stderr, "gshmem:   topology: hwloc topology not available; GPU classes from the CUDA heuristic\n");
    }
  }
  const int myGpu = ts.ok ? ts.topo.gpuByBusId(bus_of[me]) : -1;
  g.path.assign(n, PeerPath{});
  g.has.assign(n, false);
  g.table.assign(n, nullptr);
  g.fromTopo.assign(n, false);
  for (int pe = 0; pe < n; ++pe) {
    if (pe == me || g_rt.node_of[pe] != g_rt.node_of[me] || bus_of[pe].empty()) continue;
    PathType cls;
    const int peerGpu = myGpu >= 0 ? ts.topo.gpuByBusId(bus_of[pe]) : -1;
    if (peerGpu >= 0) {
      cls = ts.topo.gpuPath(myGpu, peerGpu).type;
      g.fromTopo[pe] = true;
    } else {
      int pdev = -1;
      if (cudaDeviceGetByPCIBusId(&pdev, bus_of[pe].c_str()) != cudaSuccess) {
        cudaGetLastError();
        pdev = -1;
      }
      cls = gpuClass(dev, pdev);
    }
    g.path[pe] = PeerPath{cls, true, mapped[pe]};
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
        fprintf(stderr, "gshmem:   device PE %d -> PE %d: class %s (from %s), %s;%s\n", me, pe,
                pathName(g.path[pe].path), g.fromTopo[pe] ? "hwloc" : "CUDA heuristic",
                g.path[pe].p2p ? "P2P mapped" : "no P2P", row.c_str());
      }
  }
}

void devicePathFinalize() {
  if (!g.ready) return;
  g.ready = false;
  g.table.clear();
}

bool deviceNearCpus(int dev, std::vector<int>* cpus) {
  cpus->clear();
  const TopoState& ts = loadOnce();
  if (!ts.ok) return false;
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, dev) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  const int gpu = ts.topo.gpuByBusId(bus);
  const TopoCpu* near = gpu >= 0 ? ts.topo.gpuCpu(gpu) : nullptr;
  if (!near || near->cpus.empty()) return false;
  *cpus = near->cpus;
  return true;
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

}  // namespace gshmem::protocols
