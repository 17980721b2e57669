// Team bookkeeping shared by the init phases (runtime/init.cpp), sync/sync.cpp and memory/heap.cpp.
#pragma once
#include "core/runtime/runtime.hpp"

namespace gshmem {

/// Children per node of the barrier tree (sync/sync.cpp); cells 0..7 of a slot take arrivals. A team with a member
/// behind the remote transport uses the tree only at 3 to kTreeRadix + 1 members, else dissemination.
constexpr int kTreeRadix = 8;
/// Barrier algorithms (sync/sync.cpp).
enum SyncAlgo : int { kSyncTree = 0, kSyncDissemination = 1, kSyncCounter = 2 };
/// The barrier algorithm of a team of `size` members, `mapped` when every member's heap is mapped here (the
/// same-node relation): GSHMEM_BARRIER when set, else counter (mapped, oversubscribed), tree (mapped, or 3 to
/// kTreeRadix + 1 members), dissemination. Every member computes the same answer.
int syncAlgoFor(int size, bool mapped);
/// Contexts live in slabs of kCtxPerSlab that are never freed (team/team.cpp), at most kMaxCtxSlabs of them: a
/// process holds at most kCtxPerSlab * kMaxCtxSlabs live contexts (destroyed ones are reused).
constexpr int kCtxPerSlab = 256;
constexpr int kMaxCtxSlabs = 1024;

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
/// The team slots below 64 this PE uses (bit per slot).
uint64_t teamSlotsUsed();
/// Make this PE's team object for a new team whose members agreed on @p slot (a free slot on every member) and
/// publish it to the device team table. Not collective.
gshmem_team* teamRegister(const char* call, int start, int stride, int size, int my_index, int slot, long num_contexts);

}  // namespace gshmem
