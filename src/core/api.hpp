// The core's entry points for the layers above it: the public C API (src/api) and the collectives: the lifecycle
// calls here (runtime/runtime.cpp), and the headers of the parts they call (memory/heap.hpp, sync/sync.hpp,
// team/team.hpp). Inside the core a file includes the header of the part it calls, never this one (it sits above
// every part: tests/lint/check_layers.cmake).
// Every function takes the public call's name for its error messages; errors in user input are fatal
// (one line naming PE, call and fix; the whole job ends), as the OpenSHMEM C API has no error returns.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "base/bootstrap.hpp"
#include "core/memory/heap.hpp"
#include "core/rma/ops.hpp"
#include "core/sync/sync.hpp"
#include "core/team/team.hpp"

namespace gshmem {

// ---- lifecycle (runtime/runtime.cpp)
/// Initialize once per process; later calls only return the thread level. Returns the provided level.
/// @param objs the predefined objects, the same on every call.
/// @param bs the bootstrap to start over (made by the caller: a communicator's, a unique id's); nullptr starts
///        through MPI_COMM_WORLD, initializing MPI when the program has not.
int runtimeInit(const char* call, int requested_thread_level, const PredefinedObjects& objs,
                std::unique_ptr<Bootstrap> bs = nullptr);
/// Collective: barrier, then release everything. Safe to call twice.
void runtimeFinalize();
bool runtimeInitialized();
int runtimeThreadLevel();
[[noreturn]] void globalExit(int status);

}  // namespace gshmem
