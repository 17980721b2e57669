// The shared-memory mechanism under the shm transport and the shm request channel: every PE hands the memfds of
// its regions to the other PEs of its node and maps theirs. Private to src/transports/shm.
//
// How segments travel: each PE that shares something listens on an abstract Unix socket named after a random
// nonce it publishes through the bootstrap (fd_exchange.hpp); every other PE of the node connects, proves it
// belongs to the job, and receives the descriptors by SCM_RIGHTS. Both ends check that the other runs as the same
// uid. No PE ever opens another process's descriptor by number, so PID namespaces do not matter, and the memfds
// can stay mode 0600. The listening socket and every connection are closed before shmMapPeers returns.
//
// Contract on "same node": the bootstrap's node (the launcher's view) decides who is mapped. Abstract sockets
// live in a network namespace, so PEs of one node must share one: a peer of this node found in another network
// namespace (compared through the bootstrap before any connection) is an error naming it, not a silent fallback
// to another transport. A peer that does not answer within the timeout, or that exits, is an error naming it.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "transports/transport.hpp"

namespace gshmem {

/// A mapping made by shmMapPeers; the owner unmaps it (munmap) when it disconnects.
using ShmMapping = std::pair<void*, std::size_t>;

/// What shmMapPeers shares and how long it may wait.
struct ShmMapSpec {
  std::vector<LocalRegion> regions;  ///< memfd-backed, same count on every PE (at most 4); fd < 0: not shared
  std::vector<const char*> names;    ///< per region, for messages ("heap", "data"); missing: "region <r>"
  long timeout_s = 60;               ///< bound of the whole exchange, in seconds (0: none)
};

/// Collective over all PEs. On return (*mapped)[pe][r] is the base of region r of PE pe as mapped here: this PE's
/// own base for itself, nullptr for PEs on other nodes and for regions a peer does not share. New mappings are
/// appended to *maps. The fds may be closed after the call: the mappings keep the memory alive. On failure *err
/// holds one line naming the peer PE, the segment, the reason and a fix.
Status shmMapPeers(Bootstrap& bs, const ShmMapSpec& spec, std::vector<std::vector<char*>>* mapped,
                   std::vector<ShmMapping>* maps, std::string* err);

}  // namespace gshmem
