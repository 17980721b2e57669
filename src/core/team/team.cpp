// Teams and contexts. A team is a strided set of world PEs holding one synchronization slot of the control area;
// members agree on the slot when the team is split (the union of their used-slot masks, lowest free bit). There
// are GSHMEM_MAX_TEAMS slots (g_rt.team_slots), the same on every PE. The slot is also the team's id as device code
// names it (gshmem_team_t, gshmem/device/team_ids.h): slots 0-3 are the predefined teams (world, shared, node,
// same-mype-node), and the device layer mirrors every team of this PE in a slot below kMaxTeams into its team table
// (the TeamMirror given at init: device::backendTeamSet / backendTeamClear); teams in higher slots are host-only.
#include <algorithm>
#include <atomic>
#include <deque>
#include <mutex>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "base/config.hpp"
#include "core/rma/ops.hpp"
#include "core/sync/agree.hpp"
#include "core/sync/sync.hpp"
#include "core/team/team_internal.hpp"
#include "gshmem/device/team_ids.h"

namespace gshmem {

static_assert(GSHMEMI_TEAM_IDS == kMaxTeams, "a team's id is its slot");

namespace {
// The objects behind SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED and SHMEM_CTX_DEFAULT: the public API's (teamsBind).
gshmem_team* g_world = nullptr;
gshmem_team* g_shared = nullptr;
gshmem_ctx* g_ctx_default = nullptr;
TeamMirror g_mirror{};  ///< the device team table (teamsBind)
gshmem_team g_team_node;                 ///< GSHMEMX_TEAM_NODE (slot 2)
gshmem_team g_team_same_mype_node;       ///< GSHMEMX_TEAM_SAME_MYPE_NODE (slot 3)
std::vector<uint64_t> g_slots_used;        ///< slots held by teams this PE belongs to (slotMaskWords words)
std::vector<gshmem_team*> g_by_slot;       ///< this PE's team in each slot (its id), or nullptr
std::unordered_set<gshmem_team*> g_user_teams;  ///< live teams created by splits (this PE is a member)

/// Team slots: GSHMEM_MAX_TEAMS, and never fewer than the fixed part's (which holds the predefined teams).
int slotCount() { return g_rt.team_slots > kMaxTeams ? g_rt.team_slots : kMaxTeams; }
int maskWords() { return slotMaskWords(g_rt.team_slots); }
bool slotUsed(const std::vector<uint64_t>& mask, int slot) { return (mask[slot / 64] >> (slot % 64)) & 1; }

/// The split scratch: the first word of each member's used-slot mask, indexed by its number in the parent team.
uint64_t* scratch() { return reinterpret_cast<uint64_t*>(controlArea() + 1); }
/// The team extension's part at byte offset `off` from the control area (runtime.hpp: teamExtLayout).
uint64_t* extWords(std::size_t off) {
  return reinterpret_cast<uint64_t*>(reinterpret_cast<char*>(controlArea()) + off);
}
/// The team extension's collective scratch rows, one of n_pes words per slot from kMaxTeams up.
uint64_t* extRows() { return extWords(teamExtLayout(g_rt.n_pes, g_rt.team_slots).rows); }
/// The other words of member `i`'s used-slot mask (maskWords() - 1 of them).
uint64_t* maskTail(int i) {
  return extWords(teamExtLayout(g_rt.n_pes, g_rt.team_slots).masks) + std::size_t(i) * (maskWords() - 1);
}

uint64_t* collScratch(int slot) {
  if (slot < kMaxTeams) return scratch() + g_rt.n_pes + std::size_t(slot) * g_rt.n_pes;
  return extRows() + std::size_t(slot - kMaxTeams) * g_rt.n_pes;
}

void resetSlot(int slot) {
  for (int k = 0; k < kMaxRounds; ++k) slotCells(slot)[k].value.store(0, std::memory_order_relaxed);
  std::memset(collScratch(slot), 0, g_rt.n_pes * sizeof(uint64_t));
  agree::reset(slot);
}

/// Make @p t the predefined team of @p slot over @p members (ascending world PEs, this PE among them) when they
/// form a strided set; otherwise, after a warning naming @p what, the team of this PE alone. Every member computes
/// the same set, so every member decides alike.
void predefinedTeam(gshmem_team* t, int slot, const std::vector<int>& members, const char* what) {
  *t = gshmem_team{};
  t->predefined = true;
  t->slot = slot;
  const int stride = members.size() > 1 ? members[1] - members[0] : 1;
  bool strided = !members.empty();
  for (size_t i = 1; i < members.size(); ++i) strided &= (members[i] - members[i - 1] == stride);
  if (strided) {
    t->start = members[0];
    t->stride = stride;
    t->size = static_cast<int>(members.size());
    t->my_index = static_cast<int>(std::find(members.begin(), members.end(), g_rt.my_pe) - members.begin());
  } else {
    GSHMEM_LOG_WARN(TEAM, "the PEs of %s are not a strided set: it holds only this PE", what);
    t->start = g_rt.my_pe;
    t->size = 1;
    t->my_index = 0;
  }
  g_by_slot[slot] = t;
}
}  // namespace

void teamsBind(const PredefinedObjects& objs, const TeamMirror& mirror) {
  g_world = objs.world;
  g_shared = objs.shared;
  g_ctx_default = objs.ctx_default;
  g_mirror = mirror;
}

void teamsInit() {
  gshmem_team& w = *g_world;
  w = gshmem_team{};
  w.start = 0;
  w.stride = 1;
  w.size = g_rt.n_pes;
  w.my_index = g_rt.my_pe;
  w.slot = 0;
  w.predefined = true;
  g_by_slot.assign(slotCount(), nullptr);
  g_by_slot[GSHMEM_TEAM_WORLD] = &w;

  // SHARED: the PEs whose heap is mapped here (shmem_ptr works for them: the node's PEs unless
  // GSHMEM_TRANSPORTS=ucx), when they form a strided set (they do under Open MPI's by-slot and by-node mappings).
  // NODE: the PEs of this node. SAME_MYPE_NODE: the PEs whose rank among their node's PEs is this PE's.
  std::vector<int> local, node, same;
  auto nodeOf = [](int pe) { return g_rt.node_of.empty() ? 0 : g_rt.node_of[pe]; };  // dense node numbers
  std::vector<int> rank_in_node(g_rt.n_pes), seen(g_rt.n_pes, 0);
  for (int pe = 0; pe < g_rt.n_pes; ++pe) {
    rank_in_node[pe] = seen[nodeOf(pe)]++;
    if (g_rt.peers[pe].base[kRegionHeap] != nullptr) local.push_back(pe);
    if (nodeOf(pe) == nodeOf(g_rt.my_pe)) node.push_back(pe);
  }
  for (int pe = 0; pe < g_rt.n_pes; ++pe)
    if (rank_in_node[pe] == rank_in_node[g_rt.my_pe]) same.push_back(pe);
  predefinedTeam(g_shared, GSHMEM_TEAM_SHARED, local, "SHMEM_TEAM_SHARED");
  predefinedTeam(&g_team_node, GSHMEMX_TEAM_NODE, node, "this node (GSHMEMX_TEAM_NODE)");
  predefinedTeam(&g_team_same_mype_node, GSHMEMX_TEAM_SAME_MYPE_NODE, same, "GSHMEMX_TEAM_SAME_MYPE_NODE");
  g_slots_used.assign(maskWords(), 0);
  g_slots_used[0] = (uint64_t(1) << GSHMEMI_TEAM_FIRST_USER) - 1;
  *g_ctx_default = gshmem_ctx{&w, 0, true};
}

void teamsFinalize() {
  for (gshmem_team* t : g_user_teams) delete t;
  g_user_teams.clear();
  g_slots_used.clear();
  g_by_slot.clear();
}

gshmem_team* teamWorld() { return g_world; }
gshmem_team* teamShared() { return g_shared; }
gshmem_ctx* ctxDefault() { return g_ctx_default; }

void teamSync(const char* call, gshmem_team* team) {
  team = teamCheck(call, team);
  if (team->my_index < 0) fatal(call, "this PE is not a member of the team");
  std::atomic_thread_fence(std::memory_order_seq_cst);
  teamSyncImpl(team, call);
}

gshmem_team* teamOfId(int id) {
  return static_cast<std::size_t>(static_cast<unsigned>(id)) < g_by_slot.size() ? g_by_slot[id] : nullptr;
}

gshmem_team* teamCheck(const char* call, gshmem_team* team) {
  ops::requireInit(call);
  if (team == g_world || team == g_shared || team == &g_team_node || team == &g_team_same_mype_node)
    return team;
  if (team && g_user_teams.count(team)) return team;  // a hash lookup: thousands of teams may be alive
  fatal(call, "team %p is not a valid team (SHMEM_TEAM_INVALID, destroyed, or not a team of this PE)",
        static_cast<void*>(team));
}

namespace {

bool tripletValid(const gshmem_team* parent, int start, int stride, int size) {
  const long last = start + static_cast<long>(stride) * (size - 1);
  return size > 0 && start >= 0 && start < parent->size && (size == 1 || stride != 0) && last >= 0 &&
         last < parent->size;
}

/// A split's triplet in one nonzero word (start + 1: 21 bits, stride + 2^21: 22 bits, size: 21 bits); values out of
/// those ranges are clamped, which only blurs the message.
uint64_t packTriplet(int start, int stride, int size) {
  auto clamp = [](long v, long hi) { return uint64_t(v < 0 ? 0 : (v > hi ? hi : v)); };
  return clamp(start + 1L, (1L << 21) - 1) << 43 | clamp(stride + (1L << 21), (1L << 22) - 1) << 21 |
         clamp(size, (1L << 21) - 1);
}
std::string tripletText(uint64_t w) {
  char b[64];
  snprintf(b, sizeof b, "(start %ld, stride %ld, size %ld)", long(w >> 43) - 1, long((w >> 21) & ((1 << 22) - 1)) -
           (1L << 21), long(w & ((1 << 21) - 1)));
  return b;
}

/// Fatal unless every member's word in `row` equals `mine`: the members passed different triplets to one split.
void checkTriplets(const char* call, gshmem_team* parent, const uint64_t* row, uint64_t mine) {
  std::string others;
  int n = 0;
  for (int i = 0; i < parent->size; ++i) {
    const uint64_t w = __atomic_load_n(&row[i], __ATOMIC_ACQUIRE);
    if (w == mine || ++n > 4) continue;
    others += (n > 1 ? ", PE " : "PE ") + std::to_string(parent->worldPe(i)) + " " + tripletText(w);
  }
  if (GSHMEM_LIKELY(n == 0)) return;
  fatal(call, "this PE passed %s but %s%s; every member of the parent team must pass the same start, stride and "
        "size", tripletText(mine).c_str(), others.c_str(), n > 4 ? ", ..." : "");
}

/// Collective over `parent`: the lowest team slot free on every member (the union of their used-slot masks), or
/// -1 when none of the GSHMEM_MAX_TEAMS slots is. Every member computes the same answer. With GSHMEM_CHECK >= 1 the
/// members' triplets travel with their masks (through the parent's collective scratch row, zero again before the
/// second sync) and must agree.
int agreeSlot(const char* call, gshmem_team* parent, uint64_t triplet) {
  const int words = maskWords();
  uint64_t* row = g_rt.check > 0 ? collScratch(parent->slot) : nullptr;
  for (int i = 0; i < parent->size; ++i) {
    ops::amo<unsigned long long>(call, ctxDefault(), AmoOp::Set,
                                 reinterpret_cast<unsigned long long*>(&scratch()[parent->my_index]), g_slots_used[0],
                                 0, parent->worldPe(i));
    if (words > 1)
      ops::put(call, ctxDefault(), maskTail(parent->my_index), &g_slots_used[1], (words - 1) * sizeof(uint64_t),
               parent->worldPe(i));
    if (row)
      ops::amo<unsigned long long>(call, ctxDefault(), AmoOp::Set,
                                   reinterpret_cast<unsigned long long*>(&row[parent->my_index]), triplet, 0,
                                   parent->worldPe(i));
  }
  // The sync orders nothing across endpoints: complete the pushes first, or a member reached over UCX can pass
  // the sync and read a mask that has not landed, choose another slot, and hang in the new team's first sync.
  ops::quiet(ctxDefault());
  teamSyncImpl(parent, call);
  std::vector<uint64_t> all(words, 0);
  for (int i = 0; i < parent->size; ++i) {
    all[0] |= __atomic_load_n(&scratch()[i], __ATOMIC_ACQUIRE);
    const uint64_t* tail = words > 1 ? maskTail(i) : nullptr;
    for (int k = 1; k < words; ++k) all[k] |= __atomic_load_n(&tail[k - 1], __ATOMIC_RELAXED);
  }
  if (row) {
    checkTriplets(call, parent, row, triplet);
    for (int i = 0; i < parent->size; ++i) __atomic_store_n(&row[i], uint64_t(0), __ATOMIC_RELAXED);
  }
  teamSyncImpl(parent, call);  // scratch may be reused by the next split only after everyone has read it
  for (int b = 0; b < g_rt.team_slots; ++b)
    if (!slotUsed(all, b)) return b;
  return -1;
}

}  // namespace

int teamSplitStrided(const char* call, gshmem_team* parent, int start, int stride, int size, long num_contexts,
                     gshmem_team** out) {
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  *out = nullptr;
  parent = teamCheck(call, parent);
  if (parent->my_index < 0) fatal(call, "this PE is not a member of the parent team");
  if (size == 0) {  // an empty team: SHMEM_TEAM_INVALID everywhere, after the parent's members agree
    teamSyncImpl(parent, call);
    return 0;
  }
  // Members agree on a slot even for an invalid triplet, so that every member runs the same synchronizations
  // whatever the arguments, and every member returns the same failure.
  const bool valid = tripletValid(parent, start, stride, size);
  const int slot = agreeSlot(call, parent, packTriplet(start, stride, size));
  if (!valid) {
    GSHMEM_LOG_INFO(TEAM, "%s: start %d, stride %d, size %d do not describe PEs of the parent team (size %d): "
                    "SHMEM_TEAM_INVALID", call, start, stride, size, parent->size);
    return -1;
  }
  if (slot < 0) {
    if (g_rt.team_slots < kTeamSlotsLimit)
      GSHMEM_LOG_INFO(TEAM, "%s: all %d team slots are in use: SHMEM_TEAM_INVALID; destroy teams or raise "
                      "GSHMEM_MAX_TEAMS (at most %d)", call, g_rt.team_slots, kTeamSlotsLimit);
    else
      GSHMEM_LOG_INFO(TEAM, "%s: all %d team slots are in use: SHMEM_TEAM_INVALID; destroy teams no longer used",
                      call, g_rt.team_slots);
    return -1;
  }

  int my_parent = parent->my_index;
  int rel = my_parent - start;
  bool member = stride ? (rel % stride == 0 && rel / stride >= 0 && rel / stride < size) : (rel == 0);
  if (!member) return 0;
  *out = teamRegister(call, parent->worldPe(start), stride * parent->stride, size, stride ? rel / stride : 0, slot,
                      num_contexts);
  return 0;
}

uint64_t teamSlotsUsed() { return g_slots_used.empty() ? 0 : g_slots_used[0]; }

gshmem_team* teamRegister(const char* call, int start, int stride, int size, int my_index, int slot,
                          long num_contexts) {
  auto* t = new gshmem_team{};
  t->start = start;
  t->stride = stride;
  t->size = size;
  t->my_index = my_index;
  t->slot = slot;
  t->num_contexts = num_contexts;
  g_slots_used[slot / 64] |= uint64_t(1) << (slot % 64);
  g_user_teams.insert(t);
  g_by_slot[slot] = t;
  if (slot < kMaxTeams && isError(g_mirror.set(slot, *t)))
    fatal(call, "cannot publish the new team to the GPU (see above)");
  GSHMEM_LOG_DEBUG(TEAM, "team %p: start %d stride %d size %d slot %d", static_cast<void*>(t), t->start, t->stride,
                   t->size, slot);
  return t;
}

void teamDestroy(const char* call, gshmem_team* team) {
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  team = teamCheck(call, team);
  if (team->predefined) fatal(call, "the predefined teams (SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED, the node teams) cannot "
                              "be destroyed");
  ctxDestroyForTeam(team);  // the team's contexts die with it (quieted first)
  // After this sync no member signals our cells for this slot again, so they can be reset for reuse. The device
  // layer resets its words of the slot too: device and stream collectives on the team are complete by contract.
  teamSyncLast(team, call);
  resetSlot(team->slot);
  if (team->slot < kMaxTeams && isError(g_mirror.clear(team->slot)))
    fatal(call, "cannot reset the team's device synchronization words (see above)");
  g_by_slot[team->slot] = nullptr;
  g_slots_used[team->slot / 64] &= ~(uint64_t(1) << (team->slot % 64));
  g_user_teams.erase(team);
  delete team;
}

uint64_t* teamCollScratch(gshmem_team* team) { return collScratch(team->slot); }

int teamTranslate(gshmem_team* src, int src_pe, gshmem_team* dst) {
  if (!src || !dst || src_pe < 0 || src_pe >= src->size) return -1;
  int w = src->worldPe(src_pe);
  int rel = w - dst->start;
  if (dst->stride == 0) return rel == 0 ? 0 : -1;
  if (rel % dst->stride) return -1;
  int idx = rel / dst->stride;
  return (idx >= 0 && idx < dst->size) ? idx : -1;
}

namespace {
// Contexts live in slabs that are never freed, so a handle is checked by its address before it is read: a garbage
// shmem_ctx_t is an error message, not a fault. Slabs are published once (count after pointer) and read lock-free.
struct CtxSlab {
  gshmem_ctx ctx[kCtxPerSlab];
};
std::atomic<CtxSlab*> g_ctx_slabs[kMaxCtxSlabs];
std::atomic<int> g_ctx_nslabs{0};
std::mutex g_ctx_lock;               ///< create/destroy only
std::vector<gshmem_ctx*> g_ctx_free;  ///< destroyed slots, reused first
std::deque<gshmem_ctx*> g_ctx_orphans;  ///< slots destroyed with their team: reused last, oldest first

/// A free context slot, or nullptr (after a one-line warning, the first time) when every slot is alive.
gshmem_ctx* ctxSlot(const char* call) {
  std::lock_guard<std::mutex> guard(g_ctx_lock);
  if (g_ctx_free.empty()) {
    int n = g_ctx_nslabs.load(std::memory_order_relaxed);
    if (n == kMaxCtxSlabs && !g_ctx_orphans.empty()) {
      gshmem_ctx* c = g_ctx_orphans.front();
      g_ctx_orphans.pop_front();
      return c;
    }
    if (n == kMaxCtxSlabs) {
      static bool s_warned = false;
      if (!s_warned)
        fprintf(stderr, "gshmem: PE %d: %s: warning: %d contexts are alive, the most a PE may hold; returning nonzero "
                "(destroy contexts you no longer use)\n", g_rt.my_pe, call, n * kCtxPerSlab);
      s_warned = true;
      return nullptr;
    }
    auto* slab = new CtxSlab;
    for (int i = kCtxPerSlab - 1; i >= 0; --i) g_ctx_free.push_back(&slab->ctx[i]);
    g_ctx_slabs[n].store(slab, std::memory_order_relaxed);
    g_ctx_nslabs.store(n + 1, std::memory_order_release);
  }
  gshmem_ctx* c = g_ctx_free.back();
  g_ctx_free.pop_back();
  return c;
}
}  // namespace

bool ctxLive(const gshmem_ctx* ctx) {
  auto a = reinterpret_cast<uintptr_t>(ctx);
  int n = g_ctx_nslabs.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) {
    auto b = reinterpret_cast<uintptr_t>(g_ctx_slabs[i].load(std::memory_order_relaxed));
    if (a >= b && a < b + sizeof(CtxSlab)) return (a - b) % sizeof(gshmem_ctx) == 0 && ctx->live;
  }
  return false;
}

bool ctxOrphaned(const gshmem_ctx* ctx) {
  auto a = reinterpret_cast<uintptr_t>(ctx);
  int n = g_ctx_nslabs.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) {
    auto b = reinterpret_cast<uintptr_t>(g_ctx_slabs[i].load(std::memory_order_relaxed));
    if (a >= b && a < b + sizeof(CtxSlab)) return (a - b) % sizeof(gshmem_ctx) == 0 && !ctx->live && ctx->orphaned;
  }
  return false;
}

void ctxDestroyForTeam(gshmem_team* team) {
  std::lock_guard<std::mutex> guard(g_ctx_lock);
  int n = g_ctx_nslabs.load(std::memory_order_relaxed);
  for (int i = 0; i < n; ++i)
    for (gshmem_ctx& c : g_ctx_slabs[i].load(std::memory_order_relaxed)->ctx) {
      if (!c.live || c.team != team) continue;
      ops::quiet(&c);
      c.live = false;
      c.orphaned = true;
      g_ctx_orphans.push_back(&c);
    }
}

void errorBadCtx(const char* call, const gshmem_ctx* ctx) {
  if (ctxOrphaned(ctx))
    fatal(call, "context %p was destroyed with its team by shmem_team_destroy; like SHMEM_CTX_INVALID it cannot "
          "carry operations: create a context from a live team", static_cast<const void*>(ctx));
  fatal(call, "%p is not a valid context (never created, destroyed, or overwritten); pass SHMEM_CTX_DEFAULT or a "
        "context from shmem_ctx_create", static_cast<const void*>(ctx));
}

int ctxCreate(const char* call, gshmem_team* team, long options, gshmem_ctx** out) {
  team = teamCheck(call, team);
  if (team->my_index < 0) return -1;
  gshmem_ctx* c = ctxSlot(call);
  if (c == nullptr) return -1;
  *c = gshmem_ctx{team, options, team == g_world, true};
  *out = c;
  return 0;
}

void ctxDestroy(const char* call, gshmem_ctx* ctx) {
  if (ctx == nullptr) fatal(call, "context is SHMEM_CTX_INVALID");
  if (ctx == g_ctx_default) fatal(call, "SHMEM_CTX_DEFAULT cannot be destroyed");
  if (!ctxLive(ctx)) {
    if (ctxOrphaned(ctx)) return;  // destroyed with its team: a no-op, as for SHMEM_CTX_INVALID
    errorBadCtx(call, ctx);
  }
  ops::quiet(ctx);
  std::lock_guard<std::mutex> guard(g_ctx_lock);
  ctx->live = false;
  g_ctx_free.push_back(ctx);
}

}  // namespace gshmem
