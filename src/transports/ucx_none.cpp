// Built when UCX is not found: no inter-node transport.
#include "transports/transport.hpp"

namespace gshmem {
std::unique_ptr<Transport> ucxTransportCreate() { return nullptr; }
}  // namespace gshmem
