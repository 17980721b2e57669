// PROTO (issue 6): protocol choice for host-initiated operations on device memory (blocking shmem_putmem/getmem
// on the device heap and gshmemx_{put,get}mem_on_stream). At init (devicePathInit, called at the end of the
// device backend's init) every same-node peer with a device heap gets a PeerPath (GPU path class, P2P mapped or
// not), the selector builds its decision table once, and the staged pipeline (staged_pipeline.hpp) is set up.
// The GPU path class comes from the hwloc topology (src/base/topology, loaded once per process, with the NVLink
// pairs CUDA reports added) and falls back to a CUDA P2P heuristic where hwloc is missing or lacks a GPU.
// Per call, deviceRma() looks the protocol up in the peer's table (no model is evaluated) and runs it:
//   p2p_ce  cudaMemcpyAsync through the peer's IPC-mapped heap
//   p2p_sm  an SM copy kernel storing into (or loading from) the peer's IPC-mapped heap (p2p_copy.cu)
//   staged  the pinned-host pipeline (staged_pipeline.cpp), also the path when P2P is off
// Private to src/core. No CUDA types here: the stream is passed as CUstream_st*.
#pragma once
#include <cstddef>
#include <vector>

#include "core/select/protocol.hpp"

struct CUstream_st;

namespace gshmem::protocols {

/// Whether this build and process can run device protocols at all (CUDA build, a visible GPU, a device heap
/// requested). The runtime marks p2p_ce/p2p_sm/staged available in the selector with it. Not collective.
bool deviceProtocolsAvailable();

/// Collective, at the end of the device backend's init (the heap exists and peers are mapped): compute each
/// peer's device PeerPath, build its decision table, set up the staged pipeline and its server thread.
void devicePathInit(const char* call, int device, char* heap_base);
/// The OS indices of the CPUs near CUDA device @p dev (its CPU domain in the hwloc topology), for pinning the
/// device proxy thread. Loads the topology on first use; thread-safe, not collective.
/// @return false (and @p cpus empty) when the topology is not available or does not know the GPU.
bool deviceNearCpus(int dev, std::vector<int>* cpus);
/// Collective, at the start of the device backend's finalize.
void devicePathFinalize();

/// Move @p n bytes between local memory @p local (host or device) and offset @p off of PE @p pe's device heap
/// (put: local -> remote; get: remote -> local) with the protocol the table picks. Ordered after earlier work
/// on @p stream; with @p blocking the data has arrived when it returns (staged always completes before return).
/// @return false when no device protocol applies (the peer is this PE, on another node, or init did not run):
/// the caller keeps its own path.
bool deviceRma(const char* call, int pe, std::size_t off, void* local, std::size_t n, Direction d, CUstream_st* stream,
               bool blocking);

/// The PeerPath of @p pe's device memory as seen from this PE. @return false when there is none.
bool devicePeerPath(int pe, PeerPath* out);

/// The protocol deviceRma would use (after any forcing). ProtocolId::None when deviceRma would return false.
ProtocolId deviceChoice(int pe, MemPair m, Direction d, std::size_t n);

/// Force one protocol for every later deviceRma where it reaches (None: back to the tables). For
/// gshmem-calibrate, which times every protocol in one run; applications use GSHMEM_PATH / GSHMEM_TUNE.
void deviceForce(ProtocolId p);

}  // namespace gshmem::protocols
