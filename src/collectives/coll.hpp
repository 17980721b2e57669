// Collectives layer internals: the group a collective runs over, its synchronization, and peer access helpers.
// A group is either a team (1.5 API; synchronized by the core's team sync) or a deprecated active set
// (synchronized through the user's pSync array, see group.cpp). Every algorithm here is written once over a
// Group, so the 1.5 and 1.4 entry points share it.
//
// Data is moved with ops::put/get (world PE numbers, default context), and reductions read peers' sources in place
// through ptrOf() when the peer is mapped, with an ops::get fallback: both keep working when a remote transport
// arrives. Every algorithm brackets its data movement with group syncs; groupSync() completes this PE's puts
// first (quiet), so data written before a sync is visible to every member after it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/api.hpp"
#include "collectives/signature.hpp"
#include "core/sync/agree.hpp"
#include "gshmem/c/types.h"

namespace gshmem::coll {

/// The PEs of one collective call, numbered 0..size-1 (PE i is world PE start + i * stride).
struct Group {
  const char* call = nullptr;   ///< public name, for errors
  int start = 0, stride = 1, size = 1;
  int me = 0;                   ///< this PE's number in the group
  gshmem_team* team = nullptr;  ///< team-based: synchronized by teamSync
  long* psync = nullptr;        ///< active set: the user's pSync (SHMEM_SYNC_SIZE longs)
  unsigned esize = 1;           ///< bytes per element of the public call (its nelems = bytes / esize)
  /// Summary of the call carried by its mailbox messages (signature.hpp); set by the family's entry point (broadcast,
  /// fcollect, collect, alltoall, reduce) before its first message, 0 before.
  mutable uint32_t sig = 0;
  int worldPe(int i) const { return start + i * stride; }
};

/// Validated group of a team-based collective; fatal (naming `call`) for an invalid team or a non-member.
Group teamGroup(const char* call, gshmem_team* team, unsigned esize = 1);
/// Validated group of a deprecated active-set collective; fatal when the set is out of range, this PE is not in
/// it, or pSync is not a symmetric long array.
Group activeSetGroup(const char* call, int PE_start, int logPE_stride, int PE_size, long* pSync,
                     unsigned esize = 1);
/// quiet, then a barrier over the group. Safe to call back-to-back on the same group/pSync.
void groupSync(const Group& g);
/// Fatal (naming `what`) unless [p, p + bytes) is symmetric: the mailbox algorithms only touch dest and source
/// locally, so this keeps their misuse errors those of the put/get-based ones.
inline void checkSymmetric(const Group& g, const char* what, const void* p, std::size_t bytes) {
  std::size_t off;
  if (GSHMEM_UNLIKELY(userRegionOf(p, bytes, &off) < 0)) errorNotSymmetric(g.call, what, p, bytes);
}
/// Fatal unless 0 <= root < g.size.
void checkRoot(const Group& g, int root);
/// On a crowded machine, the next sync of the team this call spans (its team, or the world for an active set of
/// every PE) lets `root` leave first (teamLeadNextSync): a following call from the same root finds it running.
void leadNextSync(const Group& g, int root);
/// With GSHMEM_CHECK=2, on a team: every member makes this call (same name, same team size) with the same `a0` and
/// `a1` (the root; agree::kNotApplicable: none), or the job ends naming the member that does not
/// (core/sync/agree.hpp). Costs one group sync. Call it before any early return, so a member whose arguments make
/// the call empty still takes part. Active sets: not checked.
void checkAgreement(const Group& g, uint64_t a0, uint64_t a1 = agree::kNotApplicable);

/// pSync words used by the active-set protocols (the rest of the array is untouched).
enum PsyncWord : int {
  kPsArrive = 0,   ///< tree barrier: children's arrivals, counted at the parent
  kPsRelease = 1,  ///< tree barrier: release flag set by the parent
  kPsChain = 2,    ///< collect: running offset handed from member i to member i+1
  kPsWords = 3,    ///< words every active-set call uses (checked symmetric at entry)
  kPsDissem = 3,   ///< dissemination barrier (active sets with remote members): round r uses word kPsDissem + r
};
static_assert(kPsDissem + 31 <= SHMEM_BARRIER_SYNC_SIZE && kPsDissem + 31 <= SHMEM_REDUCE_SYNC_SIZE &&
                  kPsDissem + 31 <= SHMEM_BCAST_SYNC_SIZE && kPsDissem + 31 <= SHMEM_COLLECT_SYNC_SIZE &&
                  kPsDissem + 31 <= SHMEM_ALLTOALL_SYNC_SIZE && kPsDissem + 31 <= SHMEM_ALLTOALLS_SYNC_SIZE,
              "the dissemination barrier needs up to 31 rounds of pSync words");
static_assert(SHMEM_COLLECT_SYNC_SIZE >= kPsWords && SHMEM_BARRIER_SYNC_SIZE >= kPsWords &&
                  SHMEM_BCAST_SYNC_SIZE >= kPsWords && SHMEM_REDUCE_SYNC_SIZE >= kPsWords &&
                  SHMEM_ALLTOALL_SYNC_SIZE >= kPsWords && SHMEM_ALLTOALLS_SYNC_SIZE >= kPsWords,
              "the pSync protocols need kPsWords longs");

/// Exclusive prefix sum over the group: returns the sum of `mine` over members 0..me-1. Collective, and it
/// contains the call's first group sync: on return every member has entered the call.
std::size_t exclusivePrefix(const Group& g, std::size_t mine);

// ---- algorithm choice (select.cpp): from the block size, the group and GSHMEM_COLL_*; the same on every member
// of a call (it depends only on arguments every member passes alike, the PE count and the environment).
enum class Algo {
  kMailbox,  ///< one round through the collective mailboxes (mailbox.hpp); needs the message to fit
  kSync,     ///< synchronize, move the data with put/get, synchronize
  kDirect,   ///< reduce: synchronize, read every member's source in place, synchronize
  kScatter,  ///< reduce: reduce-scatter, then allgather (three synchronizations)
  kPull,     ///< one round of mailbox notices, blocks read in place from the owners' sources (pull.cpp)
  kPush,     ///< blocks stored into the peers' dests, then a mailbox notice (pull.cpp); broadcast: active sets only
  kTree,     ///< reduce, broadcast, fcollect: node-aware mailbox messages through node leaders (tree.cpp)
};
enum class Family { kBroadcast, kCollect, kAlltoall, kReduce };
/// The algorithm for a call of `family` whose largest message is `bytes` (a forced mailbox that cannot carry it
/// falls back to what auto picks without it).
Algo chooseAlgo(Family family, std::size_t bytes);
/// chooseAlgo for a data-movement call over `g` (every member computes the same answer). On an active set auto
/// takes the mailbox up to its own crossover (GSHMEM_COLL_MAILBOX_MAX or 256 B, alltoall 64 B) and kPush past it.
/// A broadcast on a team never pushes (it pulls). With a member not mapped here kPull becomes kPush (fcollect,
/// alltoall) or kSync (broadcast); without a usable mailbox both become kSync.
Algo chooseMove(const Group& g, Family family, std::size_t bytes);
/// chooseAlgo for reduce and broadcast over a group of `members` PEs that span more than one node (`spans_nodes`)
/// or not: auto takes kTree for a spanning group up to treeMax() (where some machine runs more PEs than cores, only
/// from kCrowdedTreeMembers members on); forced tree takes it whenever the block fits a message.
Algo chooseAlgo(Family family, std::size_t bytes, bool spans_nodes, int members);
/// Where PEs outnumber the cores of some machine, the smallest group for which auto takes the reduce and broadcast
/// trees: below it the flat mailbox's one hop is as fast as the trees' two or more scheduler turns.
constexpr int kCrowdedTreeMembers = 9;
/// chooseAlgo for a reduction over `g`: auto takes kTree when the members span more than one node and the array
/// fits treeMax(), else what chooseAlgo picks.
Algo chooseReduce(const Group& g, std::size_t bytes);
/// The largest block auto sends through the trees (GSHMEM_COLL_TREE_MAX, or the mailbox size).
std::size_t treeMax();
const char* algoName(Algo a);
/// The choice table, one line per family, for the GSHMEM_INFO report (each line starts with `prefix`).
std::string describeAlgos(const char* prefix);
/// After init: with GSHMEM_INFO, PE 0 prints describeAlgos once (the public init calls call it).
void infoReport();

// ---- data movement (data_movement.cpp), byte-based; `bytes` counts bytes per block
void broadcastBytes(const Group& g, void* dest, const void* source, std::size_t bytes, int root, bool write_root);
void fcollectBytes(const Group& g, void* dest, const void* source, std::size_t bytes);
void collectBytes(const Group& g, void* dest, const void* source, std::size_t bytes);
void alltoallBytes(const Group& g, void* dest, const void* source, std::size_t bytes);
/// Strided all-to-all: `nelems` elements of `esize` bytes per peer; strides in elements.
void alltoallsBytes(const Group& g, void* dest, const void* source, std::ptrdiff_t dst, std::ptrdiff_t sst,
                    std::size_t nelems, std::size_t esize);

// ---- node-aware trees (tree.cpp; algorithms and their contract there): every message is a mailbox message, so
// they need mailbox::usable() and a block of at most mailbox::capacity() bytes.
constexpr std::size_t kTreeMaxBytes = 8192;  ///< the largest mailbox message (runtime.hpp: mailboxPayload)
/// Reduce: up to this many node leaders exchange their partials in one round (each posts to every other); more run
/// recursive doubling.
constexpr int kTreeFlatLeaders = 8;
/// Broadcast: radix of the k-nomial tree over the node leaders (a leader serves up to kTreeRadix - 1 per level).
constexpr int kTreeRadix = 8;
/// acc[i] = op(acc[i], src[i]) for i < n, for one element type and operator.
using CombineFn = void (*)(void* acc, const void* src, std::size_t n);
/// True when the members of `g` live on more than one node (g_rt.node_of of their world PEs).
bool spansNodes(const Group& g);
/// All-reduce of `bytes` (= `nelems` elements) through one leader per node and recursive doubling between the
/// leaders; bitwise the same result on every member. dest may be source.
void reduceTree(const Group& g, void* dest, const void* source, std::size_t bytes, std::size_t nelems,
                CombineFn combine);
/// The bytes of the largest node's blocks in an fcollect of `bytes` per member (one message of fcollectTree).
std::size_t treeBundleBytes(const Group& g, std::size_t bytes);
/// Each node's blocks gathered at its leader, exchanged between the leaders, stored by each leader into its node.
void fcollectTree(const Group& g, void* dest, const void* source, std::size_t bytes);
/// Binomial tree over the node leaders from the root's node, then each leader to its node.
void broadcastTree(const Group& g, void* dest, const void* source, std::size_t bytes, int root, bool write_root);

// ---- pull algorithms (pull.cpp; protocol and contract there)
/// True when the pull algorithms can run over `g`: every member mapped here, mailbox usable.
bool pullUsable(const Group& g);
/// True when the push algorithms can run (the mailbox is usable; members may be remote).
bool pushUsable();
void broadcastPull(const Group& g, void* dest, const void* source, std::size_t bytes, int root, bool write_root);
/// Member j's block for member i is the `bytes` at i * `stride` in j's source, landing in block j of i's dest
/// (fcollect: stride 0; alltoall: stride bytes).
void exchangePull(const Group& g, void* dest, const void* source, std::size_t bytes, std::size_t stride);
/// The root stores its source into the dest of every member of its node and of one leader per other node, which
/// stores it into its node's other members' dests (active sets only: the caller guarantees every dest ready).
void broadcastPush(const Group& g, void* dest, const void* source, std::size_t bytes, int root, bool write_root);
/// Same blocks as exchangePull, each stored by its owner into the reader's dest (on a team, once the reader has
/// entered the call; on an active set at once, as the caller guarantees dest ready).
void exchangePush(const Group& g, void* dest, const void* source, std::size_t bytes, std::size_t stride);

}  // namespace gshmem::coll
