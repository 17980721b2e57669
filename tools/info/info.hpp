// The sections of gshmem-info besides the configuration table (tools/gshmem_info.cpp).
#pragma once

namespace gshmem_info {

/// Build: version, configured and running prefix, git revision, compiler, dependency versions, transports and
/// memory kinds built in (each line starts with "# ").
void printBuild();

/// Machine: GPUs seen by the CUDA runtime (CUDA builds), the hwloc topology with the PCIe path class of each
/// GPU/NIC pair (hwloc builds), network interfaces (/sys/class/net) and RDMA devices (/sys/class/infiniband).
/// Never fails: what cannot be read is reported as such.
void printMachine();

}  // namespace gshmem_info
