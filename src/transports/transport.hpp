// The transport contract: the only header a transport includes from above base/.
// A transport is one mechanism (shared memory, UCX, loopback) that can reach some peers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/bootstrap.hpp"
#include "base/status.hpp"

namespace gshmem {

/// What a transport can do for one peer.
enum TransportCaps : unsigned {
  kCapLoadStore = 1u << 0,  ///< the peer's regions are mapped here: put/get are memcpy, AMOs CPU atomics
  kCapRma = 1u << 1,        ///< putNbi/getNbi through the transport
  kCapAmo = 1u << 2,        ///< remote atomics through the transport
};

/// A region of this PE's memory that peers address by offset (the heap, the data segment).
struct LocalRegion {
  char* base = nullptr;
  std::size_t size = 0;
  int fd = -1;  ///< memfd backing the region, or -1 when not shareable
};

/// How one peer is reached, decided once at init.
struct PeerReach {
  unsigned caps = 0;
  std::vector<char*> mapped;  ///< per region: base of the peer's region as mapped here (nullptr when not mapped)
  std::string why;            ///< one line for GSHMEM_INFO: why this transport was chosen
};

/// Host-side transport interface. Methods are grouped by lifecycle phase.
/// Threading: setup methods are called by the initializing thread only; data-path methods
/// (when a transport has them) must be callable concurrently from any thread.
class Transport {
 public:
  virtual ~Transport() = default;
  virtual const char* name() const = 0;

  /// Setup (collective over all PEs): make `regions` reachable and return, per PE, how it is reached
  /// by this transport (caps == 0 means unreachable by this transport).
  virtual Status connect(Bootstrap& bs, const std::vector<LocalRegion>& regions, std::vector<PeerReach>* out) = 0;

  /// Release peer mappings and resources; called in reverse order of creation.
  virtual void disconnect() = 0;
};

/// Shared-memory transport: maps the memfd-backed regions of every PE on the same node.
std::unique_ptr<Transport> shmTransportCreate();

}  // namespace gshmem
