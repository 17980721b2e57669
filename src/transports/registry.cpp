// The built-in transports, in probe order. A peer is reached by the first transport that reports caps for it:
// this PE by self, PEs of the same node by shm, the rest by ucx (connected only when some PE needs it).
// GSHMEM_TRANSPORTS may leave shm or ucx out; self is always enabled.
#include "transports/transport.hpp"

namespace gshmem {

const TransportEntry kTransports[] = {
    {"self", selfTransportCreate, false},
    {"shm", shmTransportCreate, false},
    {"ucx", ucxTransportCreate, true},
};
const int kNumTransports = static_cast<int>(sizeof kTransports / sizeof kTransports[0]);

#ifndef GSHMEM_TRANSPORT_UCX
std::unique_ptr<Transport> ucxTransportCreate(const TransportConfig&) { return nullptr; }
#endif

}  // namespace gshmem
