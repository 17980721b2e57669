// Topology model: pair classification, nearest-NIC choice and the GSHMEM_INFO summary (see topology.hpp).
#include "base/topology/topology.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "base/log.hpp"

namespace gshmem {

const char* pathName(PathType t) {
  switch (t) {
    case PathType::Self:
      return "SELF";
    case PathType::NvLink:
      return "NVL";
    case PathType::Pix:
      return "PIX";
    case PathType::Pxb:
      return "PXB";
    case PathType::Phb:
      return "PHB";
    case PathType::Node:
      return "NODE";
    case PathType::Sys:
      return "SYS";
    case PathType::Net:
      return "NET";
  }
  return "?";
}

double pathDefaultBandwidth(PathType t) {
  switch (t) {
    case PathType::Self:
      return 0.0;
    case PathType::NvLink:
      return kNvLinkPerLinkGBps;
    case PathType::Pix:
      return 24.0;
    case PathType::Pxb:
      return 24.0;
    case PathType::Phb:
      return 20.0;
    case PathType::Node:
      return 16.0;
    case PathType::Sys:
      return 10.0;
    case PathType::Net:
      return 12.0;
  }
  return 0.0;
}

/// Parse the whole of @p s as 1..maxDigits hex digits. @return false otherwise.
static bool parseHex(const std::string& s, size_t maxDigits, unsigned* out) {
  if (s.empty() || s.size() > maxDigits) return false;
  unsigned v = 0;
  for (char c : s) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    v = v * 16 + static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  *out = v;
  return true;
}

std::string pciBusIdNormalize(const std::string& busId) {
  // Accepted: [domain:]bus:device.function, all hex; the domain may have up to 8 digits (NVML writes 8).
  size_t dot = busId.rfind('.');
  size_t c2 = busId.rfind(':');
  if (dot == std::string::npos || c2 == std::string::npos || c2 > dot) return {};
  size_t c1 = c2 == 0 ? std::string::npos : busId.rfind(':', c2 - 1);
  unsigned dom = 0, bus = 0, dev = 0, fn = 0;
  if (c1 != std::string::npos && !parseHex(busId.substr(0, c1), 8, &dom)) return {};
  size_t busStart = c1 == std::string::npos ? 0 : c1 + 1;
  if (!parseHex(busId.substr(busStart, c2 - busStart), 2, &bus) ||
      !parseHex(busId.substr(c2 + 1, dot - c2 - 1), 2, &dev) || !parseHex(busId.substr(dot + 1), 1, &fn))
    return {};
  if (dom > 0xffff || dev > 0x1f || fn > 0x7) return {};
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
  return buf;
}

// ---------------------------------------------------------------- Topology queries

const TopoCpu* Topology::gpuCpu(int g) const {
  int c = gpus_[g].cpuDomain;
  return c < 0 ? nullptr : &cpus_[c];
}

int Topology::gpuByBusId(const std::string& busId) const {
  std::string want = pciBusIdNormalize(busId);
  if (want.empty()) return -1;
  for (int i = 0; i < gpuCount(); ++i)
    if (gpus_[i].busId == want) return i;
  return -1;
}

static std::string cpuListString(const std::vector<int>& cpus) {
  std::string s;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!s.empty()) s += ',';
    s += std::to_string(cpus[i]);
    if (j > i) s += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return s.empty() ? "-" : s;
}

static std::string cpuLabel(const TopoCpu& c) {
  std::string s = "numa ";
  for (size_t i = 0; i < c.numaNodes.size(); ++i) s += (i ? "," : "") + std::to_string(c.numaNodes[i]);
  if (c.numaNodes.empty()) s += "?";
  return s;
}

std::string Topology::summary() const {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "topology: %d GPU(s), %d NIC(s), %zu CPU domain(s)\n", gpuCount(), nicCount(),
                cpus_.size());
  out += line;
  for (size_t c = 0; c < cpus_.size(); ++c) {
    std::snprintf(line, sizeof line, "  CPU%zu  %s package %d cpus %s\n", c, cpuLabel(cpus_[c]).c_str(),
                  cpus_[c].package, cpuListString(cpus_[c].cpus).c_str());
    out += line;
  }
  for (int g = 0; g < gpuCount(); ++g) {
    const TopoGpu& gpu = gpus_[g];
    int n = nearestNic_[g];
    std::snprintf(line, sizeof line, "  GPU%d  %s%s%s  CPU%d  nic %s\n", g, gpu.busId.c_str(),
                  gpu.osName.empty() ? "" : " ", gpu.osName.c_str(), gpu.cpuDomain,
                  n < 0 ? "none" : nics_[n].name.c_str());
    out += line;
  }
  for (int n = 0; n < nicCount(); ++n) {
    const TopoNic& nic = nics_[n];
    double gbps = nodes_[nic.node].upLinkGBps;
    char speed[32] = "link speed unknown";
    if (gbps > 0) std::snprintf(speed, sizeof speed, "%.1f GB/s", gbps);
    std::snprintf(line, sizeof line, "  NIC%d  %s %s%s%s  CPU%d  %s\n", n, nic.busId.c_str(), nic.name.c_str(),
                  nic.netdev.empty() || nic.netdev == nic.name ? "" : " ",
                  nic.netdev == nic.name ? "" : nic.netdev.c_str(), nic.cpuDomain, speed);
    out += line;
  }
  auto matrix = [&](const char* title, int cols, const char* colPrefix, auto cell) {
    out += title;
    out += "\n        ";
    for (int j = 0; j < cols; ++j) {
      std::snprintf(line, sizeof line, "%-6s", (colPrefix + std::to_string(j)).c_str());
      out += line;
    }
    while (out.back() == ' ') out.pop_back();
    out += '\n';
    for (int g = 0; g < gpuCount(); ++g) {
      std::snprintf(line, sizeof line, "  GPU%-3d", g);
      out += line;
      for (int j = 0; j < cols; ++j) {
        std::snprintf(line, sizeof line, "%-6s", cell(g, j));
        out += line;
      }
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += '\n';
    }
  };
  if (gpuCount() > 0) {
    matrix("GPU/GPU paths:", gpuCount(), "GPU",
           [&](int a, int b) { return a == b ? "X" : pathName(gpuPath(a, b).type); });
    if (nicCount() > 0)
      matrix("GPU/NIC paths:", nicCount(), "NIC", [&](int g, int n) { return pathName(gpuNicPath(g, n).type); });
  }
  return out;
}

// ---------------------------------------------------------------- TopologyBuilder

int TopologyBuilder::add(TopoNodeType type, int parent, const std::string& busId, double gbps) {
  TopoNode n;
  n.type = type;
  n.parent = parent;
  n.busId = busId;
  n.upLinkGBps = gbps > 0 ? gbps : 0;
  nodes_.push_back(n);
  osNames_.emplace_back();
  nicNames_.emplace_back();
  netdevs_.emplace_back();
  return static_cast<int>(nodes_.size()) - 1;
}

int TopologyBuilder::addCpu(std::vector<int> numaNodes, int package, std::vector<int> cpus) {
  int id = add(TopoNodeType::Cpu, -1, "", 0);
  TopoCpu c;
  c.node = id;
  std::sort(numaNodes.begin(), numaNodes.end());
  std::sort(cpus.begin(), cpus.end());
  c.numaNodes = std::move(numaNodes);
  c.package = package;
  c.cpus = std::move(cpus);
  nodes_[id].name =
      c.numaNodes.empty() ? "CPU" + std::to_string(cpus_.size()) : "NUMA" + std::to_string(c.numaNodes[0]);
  cpus_.push_back(std::move(c));
  return id;
}

int TopologyBuilder::addHostBridge(int cpu) {
  if (cpu < 0 || cpu >= static_cast<int>(nodes_.size()) || nodes_[cpu].type != TopoNodeType::Cpu) {
    GSHMEM_LOG_WARN(INIT, "topology: host bridge parent %d is not a CPU domain", cpu);
    failed_ = true;
    return -1;
  }
  int hb = 0;
  for (const TopoNode& n : nodes_) hb += n.type == TopoNodeType::HostBridge;
  int id = add(TopoNodeType::HostBridge, cpu, "", 0);
  nodes_[id].name = "HB" + std::to_string(hb);
  return id;
}

static bool isPciParent(const std::vector<TopoNode>& nodes, int p) {
  return p >= 0 && p < static_cast<int>(nodes.size()) &&
         (nodes[p].type == TopoNodeType::HostBridge || nodes[p].type == TopoNodeType::PciSwitch);
}

int TopologyBuilder::addPciSwitch(int parent, const std::string& busId, double upLinkGBps) {
  if (!isPciParent(nodes_, parent)) {
    GSHMEM_LOG_WARN(INIT, "topology: PCIe switch %s: parent %d is not a host bridge or a switch", busId.c_str(),
                    parent);
    failed_ = true;
    return -1;
  }
  int sw = 0;
  for (const TopoNode& n : nodes_) sw += n.type == TopoNodeType::PciSwitch;
  int id = add(TopoNodeType::PciSwitch, parent, pciBusIdNormalize(busId), upLinkGBps);
  nodes_[id].name = "SW" + std::to_string(sw);
  return id;
}

int TopologyBuilder::addGpu(int parent, const std::string& busId, double linkGBps, const std::string& osName) {
  std::string id = pciBusIdNormalize(busId);
  if (!isPciParent(nodes_, parent) || id.empty()) {
    GSHMEM_LOG_WARN(INIT, "topology: GPU %s: bad bus id or parent %d is not a host bridge or a switch", busId.c_str(),
                    parent);
    failed_ = true;
    return -1;
  }
  int n = add(TopoNodeType::Gpu, parent, id, linkGBps);
  osNames_[n] = osName;
  return n;
}

int TopologyBuilder::addNic(int parent, const std::string& busId, double linkGBps, const std::string& name,
                            const std::string& netdev) {
  std::string id = pciBusIdNormalize(busId);
  if (!isPciParent(nodes_, parent) || id.empty()) {
    GSHMEM_LOG_WARN(INIT, "topology: NIC %s: bad bus id or parent %d is not a host bridge or a switch", busId.c_str(),
                    parent);
    failed_ = true;
    return -1;
  }
  int n = add(TopoNodeType::Nic, parent, id, linkGBps);
  nicNames_[n] = name.empty() ? (netdev.empty() ? id : netdev) : name;
  netdevs_[n] = netdev;
  return n;
}

namespace {

/// Walks the tree once per pair; topologies have tens of devices, so O(depth) per pair is plenty.
class PairClassifier {
 public:
  explicit PairClassifier(const std::vector<TopoNode>& nodes) : nodes_(nodes) {}

  TopoPath classify(int a, int b) const {
    if (a == b) return {PathType::Self, 0.0};
    std::vector<int> upA = chain(a), upB = chain(b);
    // Lowest common ancestor: the first node of a's chain that is also on b's chain.
    int lca = -1;
    for (int x : upA)
      if (std::find(upB.begin(), upB.end(), x) != upB.end()) {
        lca = x;
        break;
      }
    PathType type;
    std::vector<double> links;
    int switches = 0;
    auto collect = [&](const std::vector<int>& up) {
      for (int x : up) {
        if (x == lca || nodes_[x].type == TopoNodeType::HostBridge || nodes_[x].type == TopoNodeType::Cpu) break;
        links.push_back(nodes_[x].upLinkGBps);
        if (x != up.front() && nodes_[x].type == TopoNodeType::PciSwitch) ++switches;
      }
    };
    collect(upA);
    collect(upB);
    if (lca < 0) {
      type = PathType::Sys;
    } else if (nodes_[lca].type == TopoNodeType::PciSwitch) {
      type = switches + 1 <= 1 ? PathType::Pix : PathType::Pxb;
    } else if (nodes_[lca].type == TopoNodeType::HostBridge) {
      type = PathType::Phb;
    } else {
      type = PathType::Node;
    }
    double bw = pathDefaultBandwidth(type);
    bool known = !links.empty();
    double minKnown = 1e30;
    for (double l : links) {
      if (l <= 0)
        known = false;
      else
        minKnown = std::min(minKnown, l);
    }
    if (known)
      bw = minKnown;
    else if (minKnown < 1e30)
      bw = std::min(bw, minKnown);
    if (type == PathType::Sys) bw = std::min(bw, kSysBandwidthCapGBps);
    return {type, bw};
  }

 private:
  std::vector<int> chain(int x) const {
    std::vector<int> up;
    for (; x >= 0; x = nodes_[x].parent) up.push_back(x);
    return up;
  }
  const std::vector<TopoNode>& nodes_;
};

}  // namespace

Status TopologyBuilder::build(Topology* out) {
  if (failed_) {
    GSHMEM_LOG_WARN(INIT, "topology: a node was rejected while describing the machine; not building");
    return Status::InvalidArgument;
  }
  Topology t;
  t.nodes_ = nodes_;
  t.cpus_ = cpus_;

  std::vector<int> gpuNodes, nicNodes;
  for (int i = 0; i < static_cast<int>(nodes_.size()); ++i) {
    if (nodes_[i].type == TopoNodeType::Gpu) gpuNodes.push_back(i);
    if (nodes_[i].type == TopoNodeType::Nic) nicNodes.push_back(i);
  }
  auto byBus = [&](int x, int y) {
    return nodes_[x].busId < nodes_[y].busId || (nodes_[x].busId == nodes_[y].busId && x < y);
  };
  std::sort(gpuNodes.begin(), gpuNodes.end(), byBus);
  std::sort(nicNodes.begin(), nicNodes.end(), byBus);

  auto cpuOf = [&](int x) {
    while (nodes_[x].parent >= 0) x = nodes_[x].parent;
    for (size_t c = 0; c < cpus_.size(); ++c)
      if (cpus_[c].node == x) return static_cast<int>(c);
    return -1;
  };
  for (size_t g = 0; g < gpuNodes.size(); ++g) {
    int n = gpuNodes[g];
    t.nodes_[n].name = "GPU" + std::to_string(g);
    t.gpus_.push_back({n, nodes_[n].busId, osNames_[n], cpuOf(n)});
  }
  for (int n : nicNodes) {
    t.nodes_[n].name = nicNames_[n];
    t.nics_.push_back({n, nodes_[n].busId, nicNames_[n], netdevs_[n], cpuOf(n)});
  }

  const size_t G = gpuNodes.size(), N = nicNodes.size();
  std::vector<double> nvl(G * G, 0.0);
  for (const NvLinkPair& p : nvlinks_) {
    int a = t.gpuByBusId(p.busIdA), b = t.gpuByBusId(p.busIdB);
    if (a < 0 || b < 0 || a == b) {
      GSHMEM_LOG_WARN(INIT, "topology: NVLink %s <-> %s does not join two known GPUs", p.busIdA.c_str(),
                      p.busIdB.c_str());
      return Status::InvalidArgument;
    }
    double gbps = p.gbps > 0 ? p.gbps : std::max(1, p.links) * kNvLinkPerLinkGBps;
    // The same connection may be reported by hwloc and by the CUDA layer: keep the larger figure, don't add.
    nvl[a * G + b] = std::max(nvl[a * G + b], gbps);
    nvl[b * G + a] = nvl[a * G + b];
  }

  PairClassifier pc(t.nodes_);
  t.gpuGpu_.resize(G * G);
  for (size_t a = 0; a < G; ++a)
    for (size_t b = 0; b < G; ++b)
      t.gpuGpu_[a * G + b] = a != b && nvl[a * G + b] > 0 ? TopoPath{PathType::NvLink, nvl[a * G + b]}
                                                          : pc.classify(gpuNodes[a], gpuNodes[b]);
  t.gpuNic_.resize(G * N);
  for (size_t g = 0; g < G; ++g)
    for (size_t n = 0; n < N; ++n) t.gpuNic_[g * N + n] = pc.classify(gpuNodes[g], nicNodes[n]);

  // Nearest NIC: best class, then bandwidth, then least used so far, then lowest index.
  std::vector<int> load(N, 0);
  t.nearestNic_.assign(G, -1);
  for (size_t g = 0; g < G; ++g) {
    int best = -1;
    for (size_t n = 0; n < N; ++n) {
      if (best < 0) {
        best = static_cast<int>(n);
        continue;
      }
      const TopoPath &c = t.gpuNic_[g * N + n], &b = t.gpuNic_[g * N + best];
      if (c.type != b.type) {
        if (c.type < b.type) best = static_cast<int>(n);
      } else if (c.gbps != b.gbps) {
        if (c.gbps > b.gbps) best = static_cast<int>(n);
      } else if (load[n] < load[best]) {
        best = static_cast<int>(n);
      }
    }
    if (best >= 0) ++load[best];
    t.nearestNic_[g] = best;
  }
  *out = std::move(t);
  return Status::Ok;
}

}  // namespace gshmem
