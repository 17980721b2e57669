// Teams and contexts (team/team.cpp, team/team_init.cpp), for the public API, the collectives and the core. The
// predefined handles (teamWorld, teamShared, ctxDefault) are declared with the runtime state (runtime/runtime.hpp).
#pragma once
#include <cstdint>

#include "core/runtime/runtime.hpp"

namespace gshmem {

/// The public API's objects behind SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED and SHMEM_CTX_DEFAULT (exported data of
/// src/api): the core fills them at init and hands them out as teamWorld(), teamShared() and ctxDefault().
struct PredefinedObjects {
  gshmem_team* world;
  gshmem_team* shared;
  gshmem_ctx* ctx_default;
};

/// Returns the validated team; fatal when `team` is invalid.
gshmem_team* teamCheck(const char* call, gshmem_team* team);
/// shmem_team_sync: teamCheck, then a sync of the team (fatal when this PE is not a member).
void teamSync(const char* call, gshmem_team* team);
/// This PE's team of id @p id (its slot: gshmem/device/team_ids.h), or nullptr when this PE is in no team of that
/// id (or @p id is out of range). Not thread-safe against a concurrent split or destroy.
gshmem_team* teamOfId(int id);
/// Collective over `parent`. Returns 0 and sets *out to the new team, or to nullptr (SHMEM_TEAM_INVALID) on PEs
/// outside it. Returns -1 on every member, *out nullptr, when the team cannot be created: the triplet does not
/// describe PEs of `parent`, or no team slot is free (logged at INFO). Fatal only for an invalid `parent`.
int teamSplitStrided(const char* call, gshmem_team* parent, int start, int stride, int size, long num_contexts,
                     gshmem_team** out);
/// A unique id for teamInitFromId, made by this PE (no communication).
uint64_t teamUniqueIdMake();
/// Collective over the @p npes PEs that pass @p uid (one made by teamUniqueIdMake on any PE): this PE is member
/// @p idx of the new team. 0 with *out set, or -1 (*out null) on every member when the members are not a strided set
/// of world PEs or no team slot is free on all of them. Bad arguments, and members that do not all arrive within
/// GSHMEM_TIMEOUT, end the job with one line.
int teamInitFromId(const char* call, uint64_t uid, int npes, int idx, long num_contexts, gshmem_team** out);
void teamDestroy(const char* call, gshmem_team* team);
/// World PE of `src_pe` of `src` translated into `dst` numbering; -1 when not a member.
/// This PE's row of the team's collective scratch: n_pes uint64_t at the same offset on every PE, zero when the
/// team is created. Owned by the collectives layer; it must leave the row zeroed (or track its own epochs).
uint64_t* teamCollScratch(gshmem_team* team);
int teamTranslate(gshmem_team* src, int src_pe, gshmem_team* dst);
/// Returns 0 and a new context, or non-zero when none can be made.
int ctxCreate(const char* call, gshmem_team* team, long options, gshmem_ctx** out);
void ctxDestroy(const char* call, gshmem_ctx* ctx);
/// Whether @p ctx is a context created here and not destroyed (never SHMEM_CTX_DEFAULT). Reads @p ctx only once
/// its address is known to be one of the runtime's context slots, so a garbage handle cannot fault. No lock.
bool ctxLive(const gshmem_ctx* ctx);
/// Whether @p ctx is a context that shmem_team_destroy destroyed with its team: it then acts as SHMEM_CTX_INVALID
/// (quiet, fence and destroy do nothing; RMA and AMO calls end the job with one line). Checked as ctxLive is.
bool ctxOrphaned(const gshmem_ctx* ctx);
/// Destroys the live contexts created from @p team (shmem_team_destroy): each is quieted and becomes orphaned. Its
/// slot is reused only once no other slot is free and no slab can be added, so a stale handle stays invalid.
void ctxDestroyForTeam(gshmem_team* team);
/// The one-line error for a handle that is not a context.
[[noreturn]] void errorBadCtx(const char* call, const gshmem_ctx* ctx) __attribute__((cold));
/// Map a public ctx handle to the internal one (SHMEM_CTX_DEFAULT is the default object).
inline const gshmem_ctx* ctxOf(const gshmem_ctx* c) { return c; }

}  // namespace gshmem
