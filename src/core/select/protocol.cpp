#include "core/select/protocol.hpp"

#include <algorithm>
#include <cctype>

namespace gshmem {

namespace {

// Default models. They are conservative figures, each with its origin (a typical measured figure for that kind of
// link, or the topology model's per-class bandwidths); a calibrated profile (gshmem-calibrate) replaces them.
// Defaults are direction-independent: reads of peer GPU memory are often slower than writes, and only
// calibration can say by how much on a given machine.

constexpr double kPinnedPcieGBps = 55;  // pinned host <-> GPU, large copies, PCIe Gen5 x16

/// Bandwidth of a GPU-GPU class; Self (two PEs on one GPU) is a device-local copy, bounded here conservatively.
double gpuClassGBps(PathType cls) { return cls == PathType::Self ? 500.0 : pathDefaultBandwidth(cls); }

bool shmReaches(const PeerPath& p, MemPair m) { return p.sameNode && m == MemPair::HostHost; }
LinkModel shmDefaults(const PeerPath&, PathType, MemPair, Direction, const char** origin) {
  *origin = "CPU put+quiet 8 B 0.03 us, 1 MiB memcpy-bound ~25 GB/s, rounded down";
  return LinkModel{0.05, 20};
}

bool ucxReaches(const PeerPath&, MemPair m) { return m == MemPair::HostHost; }
LinkModel ucxDefaults(const PeerPath&, PathType cls, MemPair, Direction, const char** origin) {
  if (cls == PathType::Net) {
    *origin = "UCX put latency floor 6.5 us over TCP; NET class 12 GB/s (topology.hpp)";
    return LinkModel{7.0, pathDefaultBandwidth(PathType::Net)};
  }
  *origin = "UCX put over shared memory 0.17 us; memcpy-bound 20 GB/s";
  return LinkModel{0.2, 20};
}

bool p2pCeReaches(const PeerPath& p, MemPair m) { return p.sameNode && p.p2p && m != MemPair::HostHost; }
LinkModel p2pCeDefaults(const PeerPath&, PathType cls, MemPair m, Direction, const char** origin) {
  double bw = cls == PathType::NvLink ? 395.0 : gpuClassGBps(cls);
  if (m != MemPair::DevDev) bw = std::min(bw, kPinnedPcieGBps);
  if (m != MemPair::DevDev)
    *origin = "host put on stream 3.7 us; host side bounded by pinned PCIe 55 GB/s";
  else if (cls == PathType::NvLink)
    *origin = "cudaMemcpyPeer 395 GB/s over NVLink, host put on stream 8 B 3.7 us";
  else
    *origin = "host put on stream 3.7 us; class bandwidth (topology.hpp)";
  return LinkModel{3.7, bw};
}

bool p2pSmReaches(const PeerPath& p, MemPair m) { return p.sameNode && p.p2p && m == MemPair::DevDev; }
LinkModel p2pSmDefaults(const PeerPath&, PathType cls, MemPair, Direction, const char** origin) {
  // A host-initiated SM copy pays a kernel launch on top of what the copy engine pays (as a calibrated profile of two
  // NVLink-connected GPUs shows).
  double bw = cls == PathType::NvLink ? 369.0 : gpuClassGBps(cls) * 0.9;
  *origin = cls == PathType::NvLink ? "SM stores 369 GB/s over NVLink; launch +3.4 us over p2p_ce"
                                    : "launch +3.4 us over p2p_ce; 0.9 x class bandwidth (topology.hpp)";
  return LinkModel{3.7 + 3.4, bw};
}

bool stagedReaches(const PeerPath&, MemPair m) { return m != MemPair::HostHost; }
LinkModel stagedDefaults(const PeerPath&, PathType cls, MemPair, Direction, const char** origin) {
  *origin = cls == PathType::Net ? "two PCIe copies + proxy ~15 us; NET class 12 GB/s (topology.hpp)"
                                 : "two PCIe copies + proxy 2.6 us ~15 us; pipeline 48 GB/s of pinned 55";
  return LinkModel{15.0, cls == PathType::Net ? pathDefaultBandwidth(PathType::Net) : 48.0};
}

// NIC-direct (GPUDirect RDMA): the NIC on each side reads or writes GPU memory across the GPU-NIC path. Every
// transfer has one NIC read (at the source) and one NIC write (at the destination); the two are modelled apart.
// Writes are posted and stream at the class bandwidth. Reads wait for completions across every switch they
// cross, so a NIC sustains less of them: the factors are conservative, calibration replaces them.
constexpr double kNicDirectUs = 4.0;         // proxy + work request + wire, one side's NIC reading GPU memory
constexpr double kNicReadPixFactor = 0.9;    // reads through one switch
constexpr double kNicReadPxbFactor = 0.75;   // reads through a switch hierarchy
constexpr double kNicReadPxbExtraUs = 0.5;   // completion latency of those reads

double nicWriteGBps(PathType c) { return pathDefaultBandwidth(c); }
double nicReadGBps(PathType c) {
  return pathDefaultBandwidth(c) * (c == PathType::Pix ? kNicReadPixFactor : kNicReadPxbFactor);
}

bool localIsDevice(MemPair m) { return m == MemPair::DevHost || m == MemPair::DevDev; }
bool remoteIsDevice(MemPair m) { return m == MemPair::HostDev || m == MemPair::DevDev; }

bool nicDirectReaches(const PeerPath& p, MemPair m) {
  if (p.sameNode || m == MemPair::HostHost) return false;
  return (!localIsDevice(m) || nicDirectClass(p.nicLocal)) && (!remoteIsDevice(m) || nicDirectClass(p.nicRemote));
}
LinkModel nicDirectDefaults(const PeerPath& p, PathType, MemPair m, Direction d, const char** origin) {
  // The source of the data: this PE's memory for a put, the peer's for a get.
  const bool srcLocal = d == Direction::Put;
  const bool srcDev = srcLocal ? localIsDevice(m) : remoteIsDevice(m);
  const bool dstDev = srcLocal ? remoteIsDevice(m) : localIsDevice(m);
  const PathType srcCls = srcLocal ? p.nicLocal : p.nicRemote, dstCls = srcLocal ? p.nicRemote : p.nicLocal;
  double bw = pathDefaultBandwidth(PathType::Net), us = kNicDirectUs;
  if (srcDev) bw = std::min(bw, nicReadGBps(srcCls));
  if (dstDev) bw = std::min(bw, nicWriteGBps(dstCls));
  if (srcDev && srcCls == PathType::Pxb) us += kNicReadPxbExtraUs;
  *origin = "NET class 12 GB/s; NIC reads of GPU memory 0.9 (PIX) / 0.75 (PXB) of the class bandwidth, writes 1.0";
  return LinkModel{us, bw};
}

ProtocolDesc kProtocols[kNumProtocols] = {  // run: bound by protocolBindRun
    {ProtocolId::Shm, "shm", "load/store (memcpy) into the peer's memory mapped on this node", shmReaches, shmDefaults,
     true},
    {ProtocolId::Ucx, "ucx", "UCX RMA (another node, or GSHMEM_TRANSPORTS=ucx)", ucxReaches, ucxDefaults,
     true},
    {ProtocolId::P2pCe, "p2p_ce", "copy engine (cudaMemcpyAsync) on the peer's IPC-mapped device memory", p2pCeReaches,
     p2pCeDefaults, true},
    {ProtocolId::P2pSm, "p2p_sm", "SM stores by a kernel into the peer's IPC-mapped device memory", p2pSmReaches,
     p2pSmDefaults, true},
    {ProtocolId::Staged, "staged", "pipeline through pinned host buffers: D2H, host transport, H2D", stagedReaches,
     stagedDefaults, true},
    {ProtocolId::NicDirect, "nic_direct",
     "the NIC reads and writes GPU memory directly (GPUDirect RDMA); not built: no transport implements it yet",
     nicDirectReaches, nicDirectDefaults, false},
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

const ProtocolDesc* protocolTable() { return kProtocols; }

void protocolBindRun(ProtocolId id, ProtocolRun run) {
  if (id != ProtocolId::None && id != ProtocolId::Count) kProtocols[static_cast<int>(id)].run = run;
}

PathType gpuNicClass(const Topology& t, int gpu) {
  if (gpu < 0 || gpu >= t.gpuCount()) return PathType::Sys;
  const int n = t.nearestNic(gpu);
  return n < 0 ? PathType::Sys : t.gpuNicPath(gpu, n).type;
}

ProtocolId protocolByName(const std::string& name) {
  for (const ProtocolDesc& d : kProtocols)
    if (name == d.name) return d.id;
  return ProtocolId::None;
}

std::string protocolNames() {
  std::string s;
  for (const ProtocolDesc& d : kProtocols) s += (s.empty() ? "" : ", ") + std::string(d.name);
  return s;
}

const char* directionName(Direction d) { return d == Direction::Put ? "put" : "get"; }

const char* memPairName(MemPair m) {
  static const char* names[kNumMemPairs] = {"hh", "hd", "dh", "dd"};
  return names[static_cast<int>(m)];
}

bool directionParse(const std::string& s, Direction* out) {
  if (s == "put") return *out = Direction::Put, true;
  if (s == "get") return *out = Direction::Get, true;
  return false;
}

bool memPairParse(const std::string& s, MemPair* out) {
  for (int i = 0; i < kNumMemPairs; ++i)
    if (s == memPairName(static_cast<MemPair>(i))) return *out = static_cast<MemPair>(i), true;
  return false;
}

bool pathTypeParse(const std::string& s, PathType* out) {
  for (int i = 0; i <= static_cast<int>(PathType::Net); ++i)
    if (lower(s) == lower(pathName(static_cast<PathType>(i)))) return *out = static_cast<PathType>(i), true;
  return false;
}

const char* sourceName(Source s) {
  switch (s) {
    case Source::Default:
      return "default";
    case Source::Profile:
      return "profile";
    case Source::Override:
      return "override";
  }
  return "?";
}

}  // namespace gshmem
