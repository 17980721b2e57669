// The shared-memory mechanism under the shm transport and the shm request channel: exchange memfds through the
// bootstrap and map those of the PEs on this node. Private to src/transports/shm.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

#include "transports/transport.hpp"

namespace gshmem {

/// A mapping made by shmMapPeers; the owner unmaps it (munmap) when it disconnects.
using ShmMapping = std::pair<void*, std::size_t>;

/// Collective over all PEs: every PE passes its memfd-backed `regions` (same count everywhere). On return
/// (*mapped)[pe][r] is the base of region r of PE pe as mapped here: this PE's own base for itself, nullptr for PEs
/// on other nodes and for regions a peer could not share (fd < 0). New mappings are appended to *maps. The fds may
/// be closed after the call: the mappings keep the memory alive.
Status shmMapPeers(Bootstrap& bs, const std::vector<LocalRegion>& regions, std::vector<std::vector<char*>>* mapped,
                   std::vector<ShmMapping>* maps);

}  // namespace gshmem
