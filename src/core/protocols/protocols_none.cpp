// Device protocols in a build without CUDA: none is available, nothing is dispatched.
#include "core/protocols/device_path.hpp"

namespace gshmem::protocols {
bool deviceProtocolsAvailable() { return false; }
void devicePathInit(int, const std::vector<std::string>&, const std::vector<bool>&) {}
void devicePathFinalize() {}
bool deviceNearCpus(int, std::vector<int>* cpus) {
  cpus->clear();
  return false;
}
bool devicePeerPath(int, PeerPath*) { return false; }
ProtocolId deviceChoice(int, MemPair, Direction, std::size_t) { return ProtocolId::None; }
void deviceForce(ProtocolId) {}
}  // namespace gshmem::protocols
