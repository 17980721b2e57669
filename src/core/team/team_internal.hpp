// Team bookkeeping of the init phases (lifecycle/init.cpp) and the team part.
#pragma once
#include "core/team/team.hpp"

namespace gshmem {

/// Contexts live in slabs of kCtxPerSlab that are never freed (team/team.cpp), at most kMaxCtxSlabs of them: a
/// process holds at most kCtxPerSlab * kMaxCtxSlabs live contexts (destroyed ones are reused).
constexpr int kCtxPerSlab = 256;
constexpr int kMaxCtxSlabs = 1024;

/// Where a team below kMaxTeams is mirrored besides the host: the device team table (core/device,
/// device::backendTeamSet and backendTeamClear). A split calls `set` on its members, a destroy `clear`; a failure
/// ends the job (the other members cannot undo their part).
struct TeamMirror {
  Status (*set)(int id, const gshmem_team& t);  ///< team @p t of this PE now holds id @p id
  Status (*clear)(int id);                      ///< id @p id's team is being destroyed
};
/// Take the public API's predefined objects, which teamsInit fills, and the mirror of the teams. Called by
/// runtimeInit before any init phase (the lifecycle sees both the team and the device parts).
void teamsBind(const PredefinedObjects& objs, const TeamMirror& mirror);
/// Create WORLD (slot 0) and SHARED (slot 1). Called once at init, after the peer table exists.
void teamsInit();
/// Release every user team and reset the predefined ones.
void teamsFinalize();
/// The team slots below 64 this PE uses (bit per slot).
uint64_t teamSlotsUsed();
/// Make this PE's team object for a new team whose members agreed on @p slot (a free slot on every member) and
/// publish it to the device team table. Not collective.
gshmem_team* teamRegister(const char* call, int start, int stride, int size, int my_index, int slot, long num_contexts);

}  // namespace gshmem
