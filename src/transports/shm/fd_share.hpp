// Handing descriptors to chosen PEs of this node in one collective step, over fd_exchange's sockets. For memory
// that is not a memfd (CUDA VMM chunks exported as descriptors): shm_map.hpp does the same for the host segments,
// with their sizes and network namespaces in its own card.
#pragma once
#include <string>
#include <vector>

#include "transports/shm/fd_exchange.hpp"
#include "transports/transport.hpp"

namespace gshmem {

/// Collective over all PEs of the bootstrap (a PE with nothing to share still calls it). This PE sends @p fds (all
/// of them, in order) to every PE in @p to, and receives, from every PE in @p from, @p from_count descriptors into
/// (*got)[pe]. The lists must match across PEs: PE a lists b in `to` exactly when b lists a in `from`. Every wait
/// is bounded by @p timeout_s (0: none); a peer that does not answer, or exits, is named in *err with @p what
/// ("device heap chunk"). The sockets are closed on return; the descriptors sent stay the caller's.
Status fdShare(Bootstrap& bs, const std::vector<int>& to, const std::vector<int>& fds, const std::vector<int>& from,
               std::size_t from_count, double timeout_s, const char* what, std::vector<std::vector<UniqueFd>>* got,
               std::string* err);

}  // namespace gshmem
