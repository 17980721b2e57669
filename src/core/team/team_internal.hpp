// Team bookkeeping shared by the init phases (runtime/init.cpp), sync/sync.cpp and memory/heap.cpp.
#pragma once
#include "core/runtime/runtime.hpp"

namespace gshmem {

/// Create WORLD (slot 0) and SHARED (slot 1). Called once at init, after the peer table exists.
void teamsInit();
/// Release every user team and reset the predefined ones.
void teamsFinalize();
/// Barrier over the team's members through their control areas (no quiet; algorithms in sync/sync.cpp).
void teamSyncImpl(gshmem_team* t, const char* call = "shmem_team_sync");  ///< `call`: for the watchdog
/// The team's last sync (before its slot is reset): after it no member reads or writes any other member's cells.
void teamSyncLast(gshmem_team* t, const char* call);
/// Forget heap allocations (after the heap is unmapped at finalize).
void heapReset();
/// The team slots this PE uses (bit per slot).
uint64_t teamSlotsUsed();
/// Make this PE's team object for a new team whose members agreed on @p slot (a free slot on every member) and
/// publish it to the device team table. Not collective.
gshmem_team* teamRegister(const char* call, int start, int stride, int size, int my_index, int slot, long num_contexts);

}  // namespace gshmem
