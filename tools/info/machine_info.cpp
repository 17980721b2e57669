// gshmem-info -m: what this machine offers gshmem: GPUs, the PCIe topology, network and RDMA devices.
#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "base/topology/topology.hpp"
#include "gshmem/version.h"
#include "info.hpp"
#if GSHMEM_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace gshmem_info {
namespace {

/// Entries of a directory, sorted, without "." and ".."; empty when it cannot be read.
std::vector<std::string> listDir(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d))
      if (e->d_name[0] != '.') names.push_back(e->d_name);
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// First line of a small sysfs file, or @p dflt.
std::string readLine(const std::string& path, const char* dflt = "?") {
  std::ifstream f(path);
  std::string line;
  if (!f || !std::getline(f, line)) return dflt;
  return line;
}

void printGpus() {
#if GSHMEM_HAVE_CUDA
  int n = 0;
  cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    std::printf("# GPUs: none usable (%s)\n", cudaGetErrorString(err));
    return;
  }
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  std::printf("# GPUs: %d (CUDA runtime %d.%d, driver %d.%d)\n", n, rt / 1000, rt % 1000 / 10, drv / 1000,
              drv % 1000 / 10);
  for (int d = 0; d < n; ++d) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
    char bus[32] = "?";
    cudaDeviceGetPCIBusId(bus, sizeof bus, d);
    std::printf("#   GPU%d  %s  %s  sm_%d%d  %.1f GiB\n", d, p.name, bus, p.major, p.minor,
                static_cast<double>(p.totalGlobalMem) / (1u << 30));
  }
#else
  std::printf("# GPUs: not reported (gshmem built without CUDA)\n");
#endif
}

void printTopology() {
#if GSHMEM_HAVE_HWLOC
  gshmem::Topology t;
  if (gshmem::topologyLoad(gshmem::TopologySource{}, &t) != gshmem::Status::Ok) {
    std::printf("# topology: hwloc could not load this machine\n");
    return;
  }
  // PCIe path classes (PIX, PXB, PHB, NODE, SYS) of every GPU pair and GPU/NIC pair.
  std::string s = t.summary();
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    std::printf("# %s\n", s.substr(start, end - start).c_str());
    start = end + 1;
  }
#else
  std::printf("# topology: not reported (gshmem built without hwloc)\n");
#endif
}

void printNics() {
  std::vector<std::string> nets = listDir("/sys/class/net");
  std::printf("# network interfaces: %zu\n", nets.size());
  for (const std::string& n : nets) {
    std::string base = "/sys/class/net/" + n;
    std::printf("#   %-12s state %-8s mtu %-6s speed %s Mb/s  numa %s\n", n.c_str(),
                readLine(base + "/operstate").c_str(), readLine(base + "/mtu").c_str(),
                readLine(base + "/speed").c_str(), readLine(base + "/device/numa_node", "-").c_str());
  }
  std::vector<std::string> ibs = listDir("/sys/class/infiniband");
  std::printf("# RDMA devices: %zu\n", ibs.size());
  for (const std::string& d : ibs) {
    std::string base = "/sys/class/infiniband/" + d;
    std::string ports;
    for (const std::string& p : listDir(base + "/ports"))
      ports += " port " + p + " " + readLine(base + "/ports/" + p + "/state") + " " +
               readLine(base + "/ports/" + p + "/link_layer");
    std::printf("#   %-12s numa %s%s\n", d.c_str(), readLine(base + "/device/numa_node", "-").c_str(), ports.c_str());
  }
}

}  // namespace

void printMachine() {
  printGpus();
  printTopology();
  printNics();
}

}  // namespace gshmem_info
