// Node topology model: GPUs, NICs, PCIe switches, host bridges and CPU (NUMA) domains, independent of hwloc.
//
// Providers (hwloc_topology.cpp today) describe the machine through TopologyBuilder; build() classifies every
// GPU-GPU and GPU-NIC pair once, so queries are O(1) table look-ups. Path selection (docs/PATH-SELECTION.md) reads
// the class and bandwidth estimate of a pair; the proxy reads the CPUs near a GPU to pin itself.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/status.hpp"

namespace gshmem {

/// How two devices reach each other, best first (the order is meaningful: a lower value is a closer path).
/// The classes follow the usual PCIe/NVLink taxonomy (nvidia-smi topo, NCCL PATH_*).
enum class PathType : int {
  Self = 0,    ///< the same device
  NvLink = 1,  ///< a direct NVLink connection between two GPUs
  Pix = 2,     ///< through at most one PCIe switch
  Pxb = 3,     ///< through several PCIe switches, without crossing a host bridge
  Phb = 4,     ///< through a PCIe host bridge (root complex) of one CPU
  Node = 5,    ///< across host bridges inside one NUMA domain
  Sys = 6,     ///< across the SMP interconnect between NUMA domains / sockets (UPI, xGMI)
  Net = 7,     ///< another node, over the network
};

/// Short upper-case name of a path class: "SELF", "NVL", "PIX", "PXB", "PHB", "NODE", "SYS", "NET".
const char* pathName(PathType t);

/// Bandwidth estimate (GB/s, one direction) used for a path class when no link speed is known on the path.
/// Documented defaults: NVL 20 (one NVLink), PIX/PXB 24 (PCIe Gen4 x16 after protocol overhead), PHB 20,
/// NODE 16, SYS 10 (peer traffic through the SMP interconnect), NET 12 (100 Gb/s), SELF 0 (not a transfer).
double pathDefaultBandwidth(PathType t);

/// Bandwidth ceiling (GB/s) applied to SYS paths even when every PCIe link speed is known: inter-socket peer
/// traffic rarely beats this whatever the PCIe generation.
inline constexpr double kSysBandwidthCapGBps = 20.0;
/// Bandwidth of one NVLink (GB/s, one direction) when the caller gives a link count but no bandwidth.
inline constexpr double kNvLinkPerLinkGBps = 20.0;

enum class TopoNodeType : int { Cpu, HostBridge, PciSwitch, Gpu, Nic };

/// A node of the tree CPU domain -> host bridge -> PCIe switch* -> GPU/NIC.
struct TopoNode {
  TopoNodeType type = TopoNodeType::Cpu;
  int parent = -1;        ///< node id of the parent; -1 for CPU domains (the roots)
  std::string name;       ///< "GPU0", "mlx5_0", "NUMA0", "HB0", "SW0"
  std::string busId;      ///< PCI bus id "dddd:bb:dd.f" (GPU, NIC, switch upstream port); empty otherwise
  double upLinkGBps = 0;  ///< speed of the PCIe link to the parent (GB/s); 0 when unknown or not PCIe
};

/// A GPU. Indices are dense and follow PCI bus id order, like CUDA_DEVICE_ORDER=PCI_BUS_ID.
struct TopoGpu {
  int node = -1;       ///< id in Topology::nodes()
  std::string busId;   ///< "0000:07:00.0" (lower case)
  std::string osName;  ///< the provider's OS device name ("cuda0", "nvml0"), empty when unknown
  int cpuDomain = -1;  ///< index into Topology::cpus()
};

/// A network interface. Indices follow PCI bus id order.
struct TopoNic {
  int node = -1;
  std::string busId;
  std::string name;    ///< verbs device ("mlx5_0") when known, else the netdev name, else the bus id
  std::string netdev;  ///< kernel network interface ("ib0", "eth0"), empty when unknown
  int cpuDomain = -1;
};

/// A CPU locality domain: the NUMA node(s) and CPUs that a host bridge hangs off.
struct TopoCpu {
  int node = -1;
  std::vector<int> numaNodes;  ///< OS indices of the NUMA nodes (usually one; several when the provider
                               ///< only knows that I/O is local to the whole machine)
  int package = -1;            ///< socket OS index; -1 when unknown
  std::vector<int> cpus;       ///< OS indices of the CPUs, sorted
};

/// An NVLink connection between two GPUs, as the CUDA/NVML layer or a test declares it.
struct NvLinkPair {
  std::string busIdA, busIdB;  ///< PCI bus ids of the GPUs (case-insensitive; "0000:" domain optional)
  int links = 1;               ///< number of NVLinks between them
  double gbps = 0;             ///< total bandwidth one direction; 0 -> links * kNvLinkPerLinkGBps
};

/// Classified pair of devices.
struct TopoPath {
  PathType type = PathType::Sys;
  double gbps = 0;  ///< estimated bandwidth, GB/s one direction
};

/// Immutable topology. Construct with TopologyBuilder or topologyLoad(). Queries are const and thread-safe.
class Topology {
 public:
  const std::vector<TopoNode>& nodes() const { return nodes_; }
  const std::vector<TopoGpu>& gpus() const { return gpus_; }
  const std::vector<TopoNic>& nics() const { return nics_; }
  const std::vector<TopoCpu>& cpus() const { return cpus_; }
  int gpuCount() const { return static_cast<int>(gpus_.size()); }
  int nicCount() const { return static_cast<int>(nics_.size()); }

  /// Path between GPUs @p a and @p b (indices, both < gpuCount()).
  const TopoPath& gpuPath(int a, int b) const { return gpuGpu_[a * gpus_.size() + b]; }
  /// Path between GPU @p g and NIC @p n.
  const TopoPath& gpuNicPath(int g, int n) const { return gpuNic_[g * nics_.size() + n]; }
  /// The NIC a GPU should use: best class, then highest bandwidth, then the NIC serving the fewest GPUs so far
  /// (GPUs assigned in index order, which spreads GPUs over equivalent NICs), then the lowest index.
  /// @return NIC index, or -1 when there is no NIC.
  int nearestNic(int g) const { return nearestNic_[g]; }
  /// CPU domain near GPU @p g (for pinning its proxy thread); nullptr when unknown.
  const TopoCpu* gpuCpu(int g) const;
  /// GPU index with this PCI bus id (case-insensitive, "0000:" optional), or -1.
  int gpuByBusId(const std::string& busId) const;

  /// Human-readable description for GSHMEM_INFO: devices, then the GPUxGPU and GPUxNIC matrices of classes.
  std::string summary() const;

 private:
  friend class TopologyBuilder;
  std::vector<TopoNode> nodes_;
  std::vector<TopoGpu> gpus_;
  std::vector<TopoNic> nics_;
  std::vector<TopoCpu> cpus_;
  std::vector<TopoPath> gpuGpu_;  ///< gpuCount x gpuCount
  std::vector<TopoPath> gpuNic_;  ///< gpuCount x nicCount
  std::vector<int> nearestNic_;
};

/// Describes a machine node by node, then classifies it. Not thread-safe; one builder per topology.
/// Every add* returns the new node id, or -1 when the parent is not of an acceptable type (logged).
class TopologyBuilder {
 public:
  /// A CPU locality domain (tree root). @param numaNodes OS indices, @param cpus OS CPU indices.
  int addCpu(std::vector<int> numaNodes, int package, std::vector<int> cpus);
  /// A PCIe host bridge (root complex) under CPU domain @p cpu.
  int addHostBridge(int cpu);
  /// A PCIe switch under a host bridge or another switch. @param upLinkGBps speed of its upstream link, 0 if
  /// unknown.
  int addPciSwitch(int parent, const std::string& busId, double upLinkGBps);
  /// A GPU under a host bridge or a switch. @param osName provider name such as "cuda0" (may be empty).
  int addGpu(int parent, const std::string& busId, double linkGBps, const std::string& osName = "");
  /// A NIC under a host bridge or a switch. @param name verbs name, @param netdev kernel interface name.
  int addNic(int parent, const std::string& busId, double linkGBps, const std::string& name,
             const std::string& netdev = "");
  /// Declare an NVLink connection; GPUs are matched by bus id at build() time. A pair declared twice (say by
  /// hwloc and by the CUDA layer) keeps the larger bandwidth.
  void addNvLink(const NvLinkPair& pair) { nvlinks_.push_back(pair); }

  /// Classify every pair and write the result to @p out (only on success).
  /// @return InvalidArgument when an NVLink names an unknown GPU or a node was rejected earlier.
  [[nodiscard]] Status build(Topology* out);

 private:
  int add(TopoNodeType type, int parent, const std::string& busId, double gbps);
  std::vector<TopoNode> nodes_;
  std::vector<TopoCpu> cpus_;
  std::vector<std::string> osNames_, nicNames_, netdevs_;  ///< per node id
  std::vector<NvLinkPair> nvlinks_;
  bool failed_ = false;
};

/// Where to read the topology from.
/// Bytes of a topology XML file gshmem lets hwloc read at most.
constexpr std::size_t kTopologyXmlMaxBytes = std::size_t(64) << 20;

struct TopologySource {
  std::string xmlPath;              ///< hwloc 2.x XML file (at most kTopologyXmlMaxBytes); empty -> the live machine
  std::vector<NvLinkPair> nvlinks;  ///< NVLink connections the caller knows about (CUDA/NVML, fixtures);
                                    ///< added to those hwloc reports as its "NVLinkBandwidth" distances
};

/// Load and classify a topology.
/// @param src  live machine or XML file, plus NVLink pairs to inject.
/// @param out  set only on success.
/// @return Ok; Unsupported when gshmem was built without hwloc; SystemError when hwloc cannot load the source;
///         InvalidArgument when an NVLink pair names an unknown GPU.
[[nodiscard]] Status topologyLoad(const TopologySource& src, Topology* out);

/// Canonical form of a PCI bus id: lower case with a 4-digit domain ("7:0.0" is not accepted, "07:00.0" is).
/// @return empty string when @p busId is malformed.
std::string pciBusIdNormalize(const std::string& busId);

}  // namespace gshmem
