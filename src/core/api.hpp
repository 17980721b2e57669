// The core's entry points for the layers above it: the public C API (src/api) and the collectives. Out of line;
// defined in core/runtime, core/memory, core/sync and core/team.
// Every function takes the public call's name for its error messages; errors in user input are fatal
// (one line naming PE, call and fix; the whole job ends), as the OpenSHMEM C API has no error returns.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "base/bootstrap.hpp"
#include "core/rma/ops.hpp"

namespace gshmem {

// ---- lifecycle (runtime/runtime.cpp)
/// Initialize once per process; later calls only return the thread level. Returns the provided level.
/// @param bs the bootstrap to start over (made by the caller: a communicator's, a unique id's); nullptr starts
///        through MPI_COMM_WORLD, initializing MPI when the program has not.
int runtimeInit(const char* call, int requested_thread_level, std::unique_ptr<Bootstrap> bs = nullptr);
/// Collective: barrier, then release everything. Safe to call twice.
void runtimeFinalize();
bool runtimeInitialized();
int runtimeThreadLevel();
[[noreturn]] void globalExit(int status);
/// Address usable here for symmetric `addr` on world `pe`, or nullptr if it cannot be loaded/stored directly.
void* ptrOf(const void* addr, int pe);
/// As ptrOf over the user range (shmem_ptr): nullptr for the heap's control area, which is the runtime's.
void* userPtrOf(const void* addr, int pe);
bool peAccessible(int pe);
/// shmem_addr_accessible: `addr` is in the user range of a symmetric region and `pe` is reachable.
bool addrAccessible(const void* addr, int pe);

// ---- symmetric heap (memory/heap.cpp); all collective over the world, with a barrier, as the spec requires
/// NULL, after one line naming the PE, the call and the fix, when the heap cannot hold @p size bytes or @p align is
/// not a power of two up to kHeapAlign (the allocator raises smaller alignments to 64): the job goes on.
void* heapAlloc(const char* call, std::size_t size, std::size_t align, bool zero);
/// Zeroed @p count x @p size bytes; NULL, after one line, when the product overflows or does not fit.
void* heapCalloc(const char* call, std::size_t count, std::size_t size);
void* heapRealloc(const char* call, void* ptr, std::size_t size);
void heapFree(const char* call, void* ptr);

// ---- synchronization (sync/sync.cpp)
void barrierAll(const char* call);  ///< quiet + sync of the world team
void teamSync(const char* call, gshmem_team* team);
/// A scheduling hint for a crowded machine (more PEs than cores): the next sync of `team` lets member `member` leave
/// first, so that it is running when the next call starts (a rooted collective names its root). Every member must
/// give the same hint between the same two syncs; it never changes what a sync guarantees.
void teamLeadNextSync(gshmem_team* team, int member);
/// The barrier algorithm of `team` ("tree", "dissemination", "counter"; GSHMEM_BARRIER), for GSHMEM_INFO.
const char* teamSyncAlgoName(gshmem_team* team);
void setLock(const char* call, long* lock);
void clearLock(const char* call, long* lock);
int testLock(const char* call, long* lock);  ///< 0 when acquired

// ---- teams and contexts (team/team.cpp)
gshmem_team* teamWorld();
gshmem_team* teamShared();
gshmem_ctx* ctxDefault();
/// Returns the validated team; fatal when `team` is invalid.
gshmem_team* teamCheck(const char* call, gshmem_team* team);
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
