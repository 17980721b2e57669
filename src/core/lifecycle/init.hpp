// Init as a list of phases, each a small function with its undo: bootstrap -> parameters -> wait policy ->
// symmetric regions -> transports (the registry) -> path selection -> teams -> device. Teardown runs the undo of
// every completed phase in reverse order.
#pragma once
#include <memory>

#include "base/bootstrap.hpp"

namespace gshmem {

/// Run every init phase in order. The first failure is fatal: one line naming `call` and the fix.
/// Called once, under g_rt.alloc_lock, with g_rt.thread_level already set. The bootstrap phase adopts @p bs, or
/// makes the MPI bootstrap over MPI_COMM_WORLD when it is nullptr.
void initPhasesRun(const char* call, std::unique_ptr<Bootstrap> bs);
/// Undo the completed phases, last first. Collective when the phases were (device, transports).
void initPhasesTeardown();

}  // namespace gshmem
