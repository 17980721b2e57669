// Which network devices UCX may open: by default UCX's TCP transport listens on every interface of the host. The
// job needs one, the interface of the address gshmem chooses for its own wire-up (GSHMEM_BOOTSTRAP_IFNAME, or the
// one that routes to this host's name), so UCX gets that interface plus the RDMA ports, which open no TCP listener.
// A user who sets UCX_NET_DEVICES keeps full control (UCX_NET_DEVICES=all restores UCX's default).
#include <dirent.h>

#include <cstdlib>
#include <string>

#include "base/config.hpp"
#include "base/socket.hpp"
#include "transports/ucx/ucx_internal.hpp"

namespace gshmem {
namespace ucxt {

namespace {

constexpr int kMaxRdmaPorts = 64;  ///< RDMA ports named at most (a bound on the /sys listing)

/// "mlx5_0:1,mlx5_1:1,...": every port under /sys/class/infiniband (InfiniBand and RoCE devices).
std::string rdmaPorts() {
  std::string list;
  int n = 0;
  DIR* devs = opendir("/sys/class/infiniband");
  if (devs == nullptr) return list;
  for (dirent* d = readdir(devs); d != nullptr && n < kMaxRdmaPorts; d = readdir(devs)) {
    if (d->d_name[0] == '.') continue;
    const std::string dev = d->d_name;
    DIR* ports = opendir(("/sys/class/infiniband/" + dev + "/ports").c_str());
    if (ports == nullptr) continue;
    for (dirent* p = readdir(ports); p != nullptr && n < kMaxRdmaPorts; p = readdir(ports)) {
      if (p->d_name[0] == '.') continue;
      list += (list.empty() ? "" : ",") + dev + ":" + p->d_name;
      ++n;
    }
    closedir(ports);
  }
  closedir(devs);
  return list;
}

}  // namespace

void netDevicesRestrict(ucp_config_t* cfg) {
  if (getenv("UCX_NET_DEVICES") != nullptr) return;
  SockAddr a;
  std::string err, ifname;
  if (isError(localAddressChoose(params().BOOTSTRAP_IFNAME, &a, &err)) || isError(interfaceOf(a, &ifname))) {
    GSHMEM_LOG_DEBUG(UCX, "UCX keeps every network device: the job's interface is unknown (%s)", err.c_str());
    return;
  }
  std::string list = ifname;
  const std::string rdma = rdmaPorts();
  if (!rdma.empty()) list += "," + rdma;
  const ucs_status_t s = ucp_config_modify(cfg, "NET_DEVICES", list.c_str());
  if (s != UCS_OK) {
    GSHMEM_LOG_DEBUG(UCX, "ucp_config_modify(NET_DEVICES=%s): %s", list.c_str(), ucs_status_string(s));
    return;
  }
  GSHMEM_LOG_INFO(UCX, "UCX network devices: %s (the job's interface; set UCX_NET_DEVICES to choose)", list.c_str());
}

}  // namespace ucxt
}  // namespace gshmem
