// Path classes and decision tables for device memory. At init (devicePathInit, called by the dispatch once the
// transports are connected) every same-node peer with a device heap gets a PeerPath (GPU path class, P2P mapped
// or not) and the selector builds its decision table once. The GPU path class comes from the hwloc topology
// (src/base/topology, loaded once per process, with the NVLink pairs CUDA reports added) and falls back to a CUDA
// P2P heuristic where hwloc is missing or lacks a GPU. Per call, the dispatch (dispatch.hpp) asks deviceChoice(),
// which looks the protocol up in the peer's table (no model is evaluated):
//   p2p_ce  cudaMemcpyAsync through the peer's IPC-mapped heap (transports/cuda_ipc)
//   p2p_sm  an SM copy kernel storing into (or loading from) the peer's IPC-mapped heap (kernels.cu)
//   staged  the pinned-host pipeline (staged_pipeline.hpp), also the path when P2P is off
// Private to src/core. No CUDA types here.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "core/select/protocol.hpp"

namespace gshmem::protocols {

/// Whether this build and process can run device protocols at all (CUDA build, a visible GPU, a device heap
/// requested). The runtime marks p2p_ce/p2p_sm/staged available in the selector with it. Not collective.
bool deviceProtocolsAvailable();

/// At the dispatch's init (the heap exists and peers are mapped; not collective): compute each peer's device
/// PeerPath from its GPU's PCI bus id (@p bus_of, "" when it has none) and whether its heap is mapped here
/// (@p mapped), build its decision table, print the tables under GSHMEM_INFO.
void devicePathInit(int device, const std::vector<std::string>& bus_of, const std::vector<bool>& mapped);
/// The OS indices of the CPUs near CUDA device @p dev (its CPU domain in the hwloc topology), for pinning the
/// device proxy thread. Loads the topology on first use; thread-safe, not collective.
/// @return false (and @p cpus empty) when the topology is not available or does not know the GPU.
bool deviceNearCpus(int dev, std::vector<int>* cpus);
void devicePathFinalize();

/// The PeerPath of @p pe's device memory as seen from this PE. @return false when there is none.
bool devicePeerPath(int pe, PeerPath* out);

/// The protocol the table picks for @p pe (after any forcing); ProtocolId::None when the peer has no device path
/// class (this PE, another node, init not run): the dispatch then takes the only protocol that reaches it.
ProtocolId deviceChoice(int pe, MemPair m, Direction d, std::size_t n);

/// Force one protocol for every later device transfer where it reaches (None: back to the tables). For
/// gshmem-calibrate, which times every protocol in one run; applications use GSHMEM_PATH / GSHMEM_TUNE.
void deviceForce(ProtocolId p);

}  // namespace gshmem::protocols
