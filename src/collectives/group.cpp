// Groups of a collective call and their synchronization; the deprecated active-set barrier.
//
// Active-set barrier design (pSync, no lost wake-ups)
// ---------------------------------------------------
// Members form a 4-ary tree rooted at member 0 (children of i: 4i+1 .. 4i+4). pSync[kPsArrive] of a member
// counts its children's arrivals; pSync[kPsRelease] is its release flag. One barrier is:
//   1. wait until my arrival counter reaches SYNC_VALUE + #children, then subtract #children (back to SYNC_VALUE);
//   2. non-root: atomically add 1 to my parent's arrival counter, wait for my release flag, reset it;
//   3. set each child's release flag.
// Why a fast PE cannot wake a slow one too early or be lost when the same pSync is reused at once:
//   - my arrival counter is only incremented by my children, and a child arrives at barrier k+1 only after I
//     released it in barrier k, which I do after step 1 restored the counter. Even an early increment would not
//     be lost: step 1 subtracts instead of storing.
//   - my release flag is only set by my parent, and in barrier k+1 only after I arrived there (step 2 of k+1),
//     which is after I reset the flag in barrier k.
// So every pSync word has exactly one "signal" in flight per barrier and is restored to SYNC_VALUE before the
// signal of the next barrier can be sent: consecutive barriers (and the two or three syncs inside one
// collective) may share one pSync. Arrivals are atomic adds and the release a store, both sent after a quiet as
// signals (ops::signal: a seq_cst CPU atomic into a mapped peer, else one transport message with no reply, applied
// by the owner's progress with release order), so every member's writes before the barrier are visible to every
// member after it. Over UCX a signal costs one message where an AMO cost a round trip. Active sets with a member
// reached through the remote transport use a dissemination barrier instead of the tree (psyncDissemination).
//
// Collect offsets on an active set use one more word, pSync[kPsChain]: member i waits for the running offset
// from member i-1 (encoded as SYNC_VALUE + 1 + offset), resets the word, and passes offset + its count to
// member i+1. The word of member i is written once per call, after the call's first barrier (so member i has
// entered the call), and reset by member i before the call's last barrier: the same argument applies.
#include <cstring>

#include "collectives/coll.hpp"
#include "core/sync/agree.hpp"

namespace gshmem::coll {

namespace {

constexpr int kRadix = 4;
constexpr long kSyncValue = SHMEM_SYNC_VALUE;

long loadAcquire(const long* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
/// pSync words are longs; signals move 64-bit words (same size, two's complement: adding 1 is the same).
uint64_t* word(long* p) { return reinterpret_cast<uint64_t*>(p); }

/// Dissemination over pSync words kPsDissem + r: in round r, add 1 to the word of member (me + 2^r) mod n, wait for
/// my own word to count one arrival, take it back. Counting (not flags) keeps a signal of the next barrier that
/// arrives early, so consecutive barriers may share the pSync. Used when some member is remote: both members of a
/// pair send at once, one message per round, where the tree costs an arrival and a release (two hops for 2 PEs).
void psyncDissemination(const Group& g) {
  long* ps = g.psync;
  for (int r = 0, dist = 1; dist < g.size; ++r, dist <<= 1) {
    ops::signal(g.call, word(&ps[kPsDissem + r]), 1, true, g.worldPe((g.me + dist) % g.size));
    waitForSpins([&] { return loadAcquire(&ps[kPsDissem + r]) > kSyncValue; }, g.call, barrierSpins());
    __atomic_fetch_sub(&ps[kPsDissem + r], 1L, __ATOMIC_SEQ_CST);
  }
}

void psyncBarrier(const Group& g) {
  if (anyUnmapped(g.start, g.stride, g.size)) return psyncDissemination(g);
  long* ps = g.psync;
  const int first_child = g.me * kRadix + 1;
  int nchild = g.size - first_child;
  nchild = nchild < 0 ? 0 : (nchild > kRadix ? kRadix : nchild);
  if (nchild > 0) {
    waitForSpins([&] { return loadAcquire(&ps[kPsArrive]) >= kSyncValue + nchild; }, g.call, barrierSpins());
    __atomic_fetch_sub(&ps[kPsArrive], static_cast<long>(nchild), __ATOMIC_SEQ_CST);
  }
  if (g.me != 0) {
    ops::signal(g.call, word(&ps[kPsArrive]), 1, true, g.worldPe((g.me - 1) / kRadix));
    waitForSpins([&] { return loadAcquire(&ps[kPsRelease]) != kSyncValue; }, g.call, barrierSpins());
    __atomic_store_n(&ps[kPsRelease], kSyncValue, __ATOMIC_SEQ_CST);
  }
  for (int c = 0; c < nchild; ++c)
    ops::signal(g.call, word(&ps[kPsRelease]), static_cast<uint64_t>(kSyncValue + 1), false,
                g.worldPe(first_child + c));
}

// ---- per-team count exchange for collect on teams, through the team's row of collective scratch (core,
// teamCollScratch: n_pes words per PE at the same offset everywhere, zero when the team is created).
// Each member stores its count into word [me] of every member's row, then syncs and sums words 0..me-1, then
// zeroes its own row. A word of member X is rewritten only by the next collect of a member that has left this
// call's final sync, which X enters after reading and zeroing: no word is overwritten while still being read, and
// the row is zero between calls, as the scratch contract asks.
}  // namespace

Group teamGroup(const char* call, gshmem_team* team, unsigned esize) {
  team = teamCheck(call, team);
  if (GSHMEM_UNLIKELY(team->my_index < 0)) fatal(call, "this PE is not a member of the team");
  Group g;
  g.call = call;
  g.start = team->start;
  g.stride = team->stride;
  g.size = team->size;
  g.me = team->my_index;
  g.team = team;
  g.esize = esize;
  return g;
}

Group activeSetGroup(const char* call, int PE_start, int logPE_stride, int PE_size, long* pSync, unsigned esize) {
  ops::requireInit(call);
  const int n = g_rt.n_pes;
  if (GSHMEM_UNLIKELY(logPE_stride < 0 || logPE_stride > 30))
    fatal(call, "logPE_stride %d is out of range (0..30)", logPE_stride);
  const long stride = 1L << logPE_stride;
  if (GSHMEM_UNLIKELY(PE_size < 1 || PE_start < 0 || PE_start >= n || PE_start + (PE_size - 1) * stride >= n))
    fatal(call, "active set PE_start %d, logPE_stride %d, PE_size %d does not fit in %d PEs", PE_start,
          logPE_stride, PE_size, n);
  const long rel = g_rt.my_pe - PE_start;
  if (GSHMEM_UNLIKELY(rel < 0 || rel % stride != 0 || rel / stride >= PE_size))
    fatal(call, "this PE is not in the active set (PE_start %d, logPE_stride %d, PE_size %d)", PE_start,
          logPE_stride, PE_size);
  if (GSHMEM_UNLIKELY(pSync == nullptr)) ops::errorNull(call, "pSync");
  if (GSHMEM_UNLIKELY(reinterpret_cast<uintptr_t>(pSync) % alignof(long)))
    ops::errorMisaligned(call, pSync, alignof(long));
  peerPtr(call, "pSync", pSync, kPsWords * sizeof(long), g_rt.my_pe);  // symmetric, or fatal
  Group g;
  g.call = call;
  g.start = PE_start;
  g.stride = static_cast<int>(stride);
  g.size = PE_size;
  g.me = static_cast<int>(rel / stride);
  g.psync = pSync;
  g.esize = esize;
  return g;
}

void groupSync(const Group& g) {
  ops::quiet(ctxDefault());
  if (g.size <= 1) return;
  if (g.team) teamSync(g.call, g.team);
  else psyncBarrier(g);
}

void checkRoot(const Group& g, int root) {
  if (GSHMEM_UNLIKELY(root < 0 || root >= g.size))
    fatal(g.call, "PE_root %d is out of range (the %s has %d PEs)", root, g.team ? "team" : "active set", g.size);
}

void leadNextSync(const Group& g, int root) {
  if (g.team) return teamLeadNextSync(g.team, root);
  if (g.start == 0 && g.stride == 1 && g.size == g_rt.n_pes) teamLeadNextSync(teamWorld(), root);
}

void checkAgreement(const Group& g, uint64_t a0, uint64_t a1) {
  if (GSHMEM_LIKELY(g_rt.check < 2) || g.team == nullptr || g.size < 2) return;
  const uint64_t arg[3] = {a0, a1, static_cast<uint64_t>(g.size)};
  const uint64_t seq = ++g.team->checked;
  agree::post(g.call, g.team->slot, g.worldPe((g.me + 1) % g.size), seq, arg);
  groupSync(g);
  static const agree::Subject kCollective{"team collective call", {"bytes", "root", "team size"}};
  agree::verify(g.call, g.team->slot, g.worldPe((g.me + g.size - 1) % g.size), seq, arg, kCollective, false);
}

std::size_t exclusivePrefix(const Group& g, std::size_t mine) {
  if (g.size == 1) return 0;
  if (g.team) {
    uint64_t* counts = teamCollScratch(g.team);
    for (int i = 0; i < g.size; ++i)
      ops::amo<uint64_t>(g.call, ctxDefault(), AmoOp::Set, &counts[g.me], mine, 0, g.worldPe(i));
    groupSync(g);
    std::size_t off = 0;
    for (int i = 0; i < g.me; ++i) off += __atomic_load_n(&counts[i], __ATOMIC_ACQUIRE);
    for (int i = 0; i < g.size; ++i) __atomic_store_n(&counts[i], uint64_t(0), __ATOMIC_RELAXED);
    return off;
  }
  groupSync(g);
  long* ps = g.psync;
  std::size_t off = 0;
  if (g.me > 0) {
    long v;
    waitFor([&] { return (v = loadAcquire(&ps[kPsChain])) != kSyncValue; }, g.call);
    __atomic_store_n(&ps[kPsChain], kSyncValue, __ATOMIC_SEQ_CST);
    off = static_cast<std::size_t>(v - kSyncValue - 1);
  }
  if (g.me + 1 < g.size)
    ops::signal(g.call, word(&ps[kPsChain]), static_cast<uint64_t>(kSyncValue + 1 + static_cast<long>(off + mine)),
                false, g.worldPe(g.me + 1));
  return off;
}

}  // namespace gshmem::coll
