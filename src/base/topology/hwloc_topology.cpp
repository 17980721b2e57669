// hwloc 2.x provider for the topology model: walks the PCI tree of the live machine or of an XML file and
// describes it to TopologyBuilder. Compiled to a stub returning Unsupported when gshmem is built without hwloc.
#include <gshmem/version.h>

#include "base/config.hpp"
#include "base/log.hpp"
#include "base/topology/topology.hpp"

#if GSHMEM_HAVE_HWLOC

#include <hwloc.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

namespace gshmem {
namespace {

constexpr unsigned kVendorNvidia = 0x10de;

/// Owns an hwloc topology handle (RAII replaces hwloc_topology_destroy on every error path).
struct HwlocTopologyDeleter {
  void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};
using HwlocTopologyPtr = std::unique_ptr<hwloc_topology, HwlocTopologyDeleter>;

std::vector<int> bitmapToVector(hwloc_const_bitmap_t set) {
  std::vector<int> v;
  if (!set || hwloc_bitmap_iszero(set)) return v;
  if (hwloc_bitmap_weight(set) < 0) return v;  // infinite set: no useful list
  for (int i = hwloc_bitmap_first(set); i >= 0; i = hwloc_bitmap_next(set, i)) v.push_back(i);
  return v;
}

std::string busIdOf(const hwloc_obj_attr_u::hwloc_pcidev_attr_s& p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%x", p.domain, p.bus, p.dev, p.func);
  return buf;
}

bool startsWith(const char* s, const char* prefix) { return s && std::strncmp(s, prefix, std::strlen(prefix)) == 0; }

bool isPciToPciBridge(hwloc_obj_t o) {
  return o && o->type == HWLOC_OBJ_BRIDGE && o->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_PCI;
}

/// What a PCI device is to us, with the names its OS devices carry.
struct DeviceRole {
  bool gpu = false, nic = false;
  std::string gpuName, verbsName, netdev;
};

DeviceRole classifyPciDevice(hwloc_obj_t pci) {
  DeviceRole r;
  const hwloc_obj_attr_u::hwloc_pcidev_attr_s& p = pci->attr->pcidev;
  r.gpu = p.vendor_id == kVendorNvidia && (p.class_id == 0x0300 || p.class_id == 0x0302);
  r.nic = p.class_id == 0x0200 || p.class_id == 0x0207;
  for (hwloc_obj_t c = pci->io_first_child; c; c = c->next_sibling) {
    if (c->type != HWLOC_OBJ_OS_DEVICE || !c->name) continue;
    switch (c->attr->osdev.type) {
      case HWLOC_OBJ_OSDEV_GPU:
      case HWLOC_OBJ_OSDEV_COPROC:
        if (startsWith(c->name, "cuda") || startsWith(c->name, "nvml")) {
          r.gpu = true;
          // Prefer the CUDA name: it is what the CUDA layer calls the device.
          if (r.gpuName.empty() || startsWith(c->name, "cuda")) r.gpuName = c->name;
        }
        break;
      case HWLOC_OBJ_OSDEV_OPENFABRICS:
        r.nic = true;
        if (r.verbsName.empty()) r.verbsName = c->name;
        break;
      case HWLOC_OBJ_OSDEV_NETWORK:
        r.nic = true;
        if (r.netdev.empty()) r.netdev = c->name;
        break;
      default:
        break;
    }
  }
  if (r.gpu) r.nic = false;
  return r;
}

/// Translates the hwloc tree into builder nodes, creating each CPU domain, host bridge and switch once.
class HwlocWalker {
 public:
  HwlocWalker(hwloc_topology_t topo, TopologyBuilder* b) : topo_(topo), b_(b) {}

  /// Describe every GPU and NIC. @return false when the builder rejected a node.
  bool run() {
    // One CPU domain per NUMA node first, so domain indices follow NUMA numbering even where no device sits.
    int nn = hwloc_get_nbobjs_by_type(topo_, HWLOC_OBJ_NUMANODE);
    for (int i = 0; i < nn; ++i) {
      hwloc_obj_t numa = hwloc_get_obj_by_type(topo_, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
      if (cpuDomain(numa->parent) < 0) return false;
    }
    for (hwloc_obj_t pci = hwloc_get_next_pcidev(topo_, nullptr); pci; pci = hwloc_get_next_pcidev(topo_, pci)) {
      DeviceRole role = classifyPciDevice(pci);
      if (!role.gpu && !role.nic) continue;
      int parent = pciParent(pci);
      if (parent < 0) return false;
      const hwloc_obj_attr_u::hwloc_pcidev_attr_s& p = pci->attr->pcidev;
      int id = role.gpu ? b_->addGpu(parent, busIdOf(p), p.linkspeed, role.gpuName)
                        : b_->addNic(parent, busIdOf(p), p.linkspeed, role.verbsName, role.netdev);
      if (id < 0) return false;
    }
    return true;
  }

 private:
  /// The builder node a PCI device hangs off: its innermost switch, else its host bridge.
  int pciParent(hwloc_obj_t pci) {
    // PCI-to-PCI bridges from the device up to the host bridge. A PCIe switch shows up as an upstream-port
    // bridge with one downstream-port bridge per slot, and a root port as one more bridge under the host
    // bridge; pairing the bridges from the device upwards (downstream port, upstream port) therefore finds
    // the switches, and an unpaired bridge left at the top is a root port, which adds no switch hop.
    std::vector<hwloc_obj_t> bridges;
    hwloc_obj_t o = pci->parent;
    for (; isPciToPciBridge(o); o = o->parent) bridges.push_back(o);
    int parent = hostBridge(o, pci);
    if (parent < 0) return -1;
    std::vector<hwloc_obj_t> switches;  // upstream ports, top first
    for (size_t i = 1; i < bridges.size(); i += 2) switches.insert(switches.begin(), bridges[i]);
    for (hwloc_obj_t up : switches) {
      auto it = nodeOf_.find(up);
      if (it == nodeOf_.end()) {
        const hwloc_obj_attr_u::hwloc_pcidev_attr_s& u = up->attr->bridge.upstream.pci;
        int id = b_->addPciSwitch(parent, busIdOf(u), u.linkspeed);
        if (id < 0) return -1;
        it = nodeOf_.emplace(up, id).first;
      }
      parent = it->second;
    }
    return parent;
  }

  /// Builder node for host bridge @p hb. When the tree has no host bridge above the device (hand-written
  /// XML, unusual platforms), one synthetic bridge per CPU-side ancestor stands in for it.
  int hostBridge(hwloc_obj_t hb, hwloc_obj_t dev) {
    bool real = hb && hb->type == HWLOC_OBJ_BRIDGE && hb->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST;
    hwloc_obj_t anchor = hwloc_get_non_io_ancestor_obj(topo_, real ? hb : dev);
    hwloc_obj_t key = real ? hb : anchor;
    auto it = nodeOf_.find(key);
    if (it != nodeOf_.end()) return it->second;
    int cpu = cpuDomain(anchor);
    int id = b_->addHostBridge(cpu);
    if (id >= 0) nodeOf_.emplace(key, id);
    return id;
  }

  /// CPU domain of a CPU-side object, keyed by its NUMA node set.
  int cpuDomain(hwloc_obj_t anchor) {
    std::vector<int> numa = bitmapToVector(anchor ? anchor->nodeset : nullptr);
    auto it = cpuOf_.find(numa);
    if (it != cpuOf_.end()) return it->second;
    hwloc_obj_t pkg = anchor;
    while (pkg && pkg->type != HWLOC_OBJ_PACKAGE) pkg = pkg->parent;
    int package = pkg ? static_cast<int>(pkg->os_index) : -1;
    if (!pkg && anchor) {
      // The anchor may sit above the packages (Machine); it has a package only if it covers exactly one.
      int n = hwloc_get_nbobjs_inside_cpuset_by_type(topo_, anchor->cpuset, HWLOC_OBJ_PACKAGE);
      if (n == 1)
        package = static_cast<int>(
            hwloc_get_obj_inside_cpuset_by_type(topo_, anchor->cpuset, HWLOC_OBJ_PACKAGE, 0)->os_index);
    }
    int id = b_->addCpu(numa, package, bitmapToVector(anchor ? anchor->cpuset : nullptr));
    cpuOf_.emplace(numa, id);
    return id;
  }

  hwloc_topology_t topo_;
  TopologyBuilder* b_;
  std::map<hwloc_obj_t, int> nodeOf_;
  std::map<std::vector<int>, int> cpuOf_;
};

/// NVLink connections that hwloc's NVML backend recorded as the "NVLinkBandwidth" distance matrix (values in
/// MB/s between NVML GPU OS devices, plus NVSwitches when there are any). A GPU pair is linked directly or
/// through a shared non-GPU member (an NVSwitch), whichever is faster.
std::vector<NvLinkPair> hwlocNvLinks(hwloc_topology_t topo) {
  std::vector<NvLinkPair> pairs;
  unsigned nr = 1;
  hwloc_distances_s* d = nullptr;
  if (hwloc_distances_get_by_name(topo, "NVLinkBandwidth", &nr, &d, 0) != 0 || nr == 0 || !d) return pairs;
  const unsigned n = d->nbobjs;
  std::vector<std::string> busOf(n);  // empty for members that are not GPUs
  for (unsigned i = 0; i < n; ++i) {
    hwloc_obj_t o = d->objs[i];
    if (o && o->type == HWLOC_OBJ_OS_DEVICE) o = o->parent;
    if (o && o->type == HWLOC_OBJ_PCI_DEVICE && classifyPciDevice(o).gpu) busOf[i] = busIdOf(o->attr->pcidev);
  }
  for (unsigned i = 0; i < n; ++i) {
    for (unsigned j = i + 1; j < n && !busOf[i].empty(); ++j) {
      if (busOf[j].empty()) continue;
      hwloc_uint64_t best = std::min(d->values[i * n + j], d->values[j * n + i]);
      for (unsigned k = 0; k < n; ++k)
        if (busOf[k].empty()) best = std::max(best, std::min(d->values[i * n + k], d->values[k * n + j]));
      if (best > 0) pairs.push_back({busOf[i], busOf[j], 0, static_cast<double>(best) / 1000.0});
    }
  }
  hwloc_distances_release(topo, d);
  return pairs;
}

}  // namespace

Status topologyLoad(const TopologySource& src, Topology* out) {
  hwloc_topology_t raw = nullptr;
  if (hwloc_topology_init(&raw) != 0) {
    GSHMEM_LOG_WARN(INIT, "topology: hwloc_topology_init failed: %s", std::strerror(errno));
    return Status::SystemError;
  }
  HwlocTopologyPtr topo(raw);
  if (hwloc_topology_set_io_types_filter(raw, HWLOC_TYPE_FILTER_KEEP_IMPORTANT) != 0) {
    GSHMEM_LOG_WARN(INIT, "topology: hwloc cannot keep I/O objects: %s", std::strerror(errno));
    return Status::SystemError;
  }
  const char* what = src.xmlPath.empty() ? "the live machine" : src.xmlPath.c_str();
  std::string why;
  if (!src.xmlPath.empty()) {
    const Status checked = fileCheckBounded(src.xmlPath, kTopologyXmlMaxBytes, "topology XML", &why);
    if (isError(checked)) {
      GSHMEM_LOG_WARN(INIT, "topology: %s", why.c_str());
      return checked;  // SystemError when it cannot be opened, InvalidArgument when it is not a file or too big
    }
  }
  if (!src.xmlPath.empty() && hwloc_topology_set_xml(raw, src.xmlPath.c_str()) != 0) {
    GSHMEM_LOG_WARN(INIT, "topology: hwloc cannot use XML file %s: %s", what, std::strerror(errno));
    return Status::SystemError;
  }
  if (hwloc_topology_load(raw) != 0) {
    GSHMEM_LOG_WARN(INIT, "topology: hwloc cannot load %s: %s", what, std::strerror(errno));
    return Status::SystemError;
  }
  TopologyBuilder builder;
  HwlocWalker walker(raw, &builder);
  if (!walker.run()) {
    GSHMEM_LOG_WARN(INIT, "topology: the PCI tree of %s could not be described", what);
    return Status::Internal;
  }
  for (const NvLinkPair& p : hwlocNvLinks(raw)) builder.addNvLink(p);
  for (const NvLinkPair& p : src.nvlinks) builder.addNvLink(p);
  Topology t;
  GSHMEM_CHECK(builder.build(&t));
  GSHMEM_LOG_DEBUG(INIT, "topology: loaded %s: %d GPU(s), %d NIC(s)", what, t.gpuCount(), t.nicCount());
  *out = std::move(t);
  return Status::Ok;
}

}  // namespace gshmem

#else  // !GSHMEM_HAVE_HWLOC

namespace gshmem {

Status topologyLoad(const TopologySource& src, Topology* out) {
  (void)out;
  GSHMEM_LOG_WARN(INIT,
                  "topology: gshmem was built without hwloc; cannot read %s (install hwloc 2.x "
                  "development files and reconfigure with GSHMEM_ENABLE_HWLOC=ON)",
                  src.xmlPath.empty() ? "the live machine" : src.xmlPath.c_str());
  return Status::Unsupported;
}

}  // namespace gshmem

#endif  // GSHMEM_HAVE_HWLOC
