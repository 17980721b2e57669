// The built-in transports, in probe order. A peer's host memory is reached by the first host transport that reports
// caps for it: this PE by self, PEs of the same node by shm, the rest by ucx (connected only when some PE needs it).
// GSHMEM_TRANSPORTS may leave shm or ucx out; self is always enabled. Device heaps: cuda_ipc maps those of the
// node's PEs whose GPUs this GPU can access; shm_channel reaches those of the other PEs of the node through their
// server threads (the staged protocol's requests and bounce buffers). The device layer connects both, in this
// order, when it makes the heap.
#include "transports/transport.hpp"

#include <cstring>

namespace gshmem {

namespace {
constexpr unsigned kHost = 1u << static_cast<int>(MemKind::Host);
constexpr unsigned kDevice = 1u << static_cast<int>(MemKind::Device);
}  // namespace

const TransportEntry kTransports[] = {
    {"self", selfTransportCreate, false, kHost},
    {"shm", shmTransportCreate, false, kHost},
    {"ucx", ucxTransportCreate, true, kHost},
    {"cuda_ipc", cudaIpcTransportCreate, false, kDevice},
    {"shm_channel", shmChannelTransportCreate, false, kDevice},
};
const int kNumTransports = static_cast<int>(sizeof kTransports / sizeof kTransports[0]);

const TransportEntry* transportEntry(const char* name) {
  for (const TransportEntry& e : kTransports)
    if (std::strcmp(e.name, name) == 0) return &e;
  return nullptr;
}

#ifndef GSHMEM_TRANSPORT_UCX
std::unique_ptr<Transport> ucxTransportCreate(const TransportConfig&) { return nullptr; }
#endif
#ifndef GSHMEM_TRANSPORT_CUDA_IPC
std::unique_ptr<Transport> cudaIpcTransportCreate(const TransportConfig&) { return nullptr; }
#endif

}  // namespace gshmem
