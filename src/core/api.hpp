// The core's entry points for the layers above it: the public C API (src/api) and the collectives: the lifecycle
// calls here (lifecycle/lifecycle.cpp), and the headers of the parts they call (memory/heap.hpp, sync/sync.hpp,
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

// ---- lifecycle (lifecycle/lifecycle.cpp)
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

// ---- queries across the parts (lifecycle/lifecycle.cpp): host regions and the device heap
/// Address usable here for symmetric `addr` on world `pe`, or nullptr if it cannot be loaded/stored directly.
void* ptrOf(const void* addr, int pe);
/// As ptrOf over the user range (shmem_ptr): nullptr for the heap's control area, which is the runtime's.
void* userPtrOf(const void* addr, int pe);
bool peAccessible(int pe);
/// shmem_addr_accessible: `addr` is in the user range of a symmetric region and `pe` is reachable.
bool addrAccessible(const void* addr, int pe);

}  // namespace gshmem
