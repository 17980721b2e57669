// Barriers and locks.
// teamSyncImpl is a k-ary tree barrier (gather up, release down) over the team's members: member i waits until
// each child c has stored the team's epoch into cell c of i's slot, stores the epoch into its own cell in its parent,
// waits for the parent's epoch in its release cell, then releases its children. Every cell has exactly one writer
// and only grows, so consecutive barriers never race on a reset. Cells are 64 bytes apart (no false sharing).
// Teams with members reached through UCX use a dissemination barrier instead at 2 members and above one tree level
// (see chooseSyncAlgo).
// Measured on the 2-core CI machine: a dissemination barrier, where both PEs store and poll at once, costs two
// cache-line transfers per barrier (~250 ns); the tree's one round trip costs ~130 ns; alternating the tree's root
// between epochs overlaps consecutive barriers (see teamSyncImpl).
// On a crowded machine (more PEs than cores) a barrier cannot end before every PE sharing this core has run, so a
// waiting member yields the core at its first poll (barrierSpins): each PE then costs one context switch per
// barrier, the least two PEs on one core can cost, and no polls are burnt before it. A last arriver that releases
// the others (a "counter" barrier) measured the same on a barrier alone, but leaves member 0 descheduled after the
// barrier half of the time, which costs a broadcast from member 0 a context switch (0.16 -> 1.3 us at 4 PEs on 2
// cores); the tree's root is running when it releases.
// Locks are ticket locks on the user's symmetric long at PE 0: high 32 bits = next ticket, low 32 = now serving.
#include "core/api.hpp"
#include "core/team/team_internal.hpp"

namespace gshmem {

namespace {

constexpr uint64_t kTicket = uint64_t(1) << 32;
constexpr uint64_t kServingMask = kTicket - 1;
constexpr int kLockPe = 0;
constexpr int kTreeRadix = 8;            ///< children per node of the barrier tree; cells 0..7 take arrivals
constexpr int kReleaseCell = kTreeRadix; ///< cell the parent writes to release this PE
constexpr int kOddCells = 16;            ///< odd epochs use cells 16..24 (the mirrored tree)
static_assert(kOddCells > kReleaseCell && kOddCells + kReleaseCell < kMaxRounds, "a slot holds kMaxRounds cells");

/// Store `epoch` into cell k of this team's slot on world PE `to` (same offset in every heap).
inline void signalCell(gshmem_team* t, int k, int to, uint64_t epoch) {
  std::atomic<uint64_t>* mine = &controlArea()->sync[t->slot][k].value;
  RemoteAddr ra;
  char* p = resolve("shmem_sync", "sync cell", mine, sizeof(uint64_t), to, &ra);
  if (GSHMEM_LIKELY(p != nullptr))
    reinterpret_cast<std::atomic<uint64_t>*>(p)->store(epoch, std::memory_order_release);
  else
    remoteSignal("shmem_sync", ra, epoch);
}

using Word = unsigned long long;
inline Word lockAmo(const char* call, AmoOp op, long* lock, Word value, Word cond = 0) {
  return ops::amo<Word>(call, ctxDefault(), op, reinterpret_cast<Word*>(lock), value, cond, kLockPe);
}

}  // namespace

namespace {

enum SyncAlgo { kSyncTree = 0, kSyncDissemination = 1 };

/// Tree when every member's heap is mapped here (one cache-line round trip per barrier), and with a member reached
/// through the remote transport when the tree is one level of 3 to kTreeRadix + 1 members: there a hop is a message
/// (~5 us over TCP) and the flat tree costs two (arrivals, then releases), as many as dissemination's two rounds at
/// 4 members and fewer above, while its root, member 0, leaves first, one hop ahead of the others, so a broadcast
/// from member 0 right after a barrier finds its data already on the way (2+2 PEs on two hosts, 8-32 KiB: 3.5-14 us
/// per call against 17-22 us after a dissemination barrier). Dissemination at 2 members (both send at once: one hop
/// where the tree pays two) and above one level. Every member decides alike: "mapped" is the same-node relation
/// (or nobody is mapped, under GSHMEM_TRANSPORTS=ucx).
int chooseSyncAlgo(const gshmem_team* t) {
  if (!anyUnmapped(t->start, t->stride, t->size)) return kSyncTree;
  return t->size > 2 && t->size <= kTreeRadix + 1 ? kSyncTree : kSyncDissemination;
}

/// Dissemination over cells 0..rounds-1 of the team's slot: in round r this PE stores the epoch into cell r of
/// member (me + 2^r) mod n and waits for its own cell r. Cells only grow, so barriers never reset them.
void disseminationSync(gshmem_team* t, uint64_t epoch, const char* call) {
  const int n = t->size;
  SyncCell* cells = controlArea()->sync[t->slot];
  for (int r = 0, dist = 1; dist < n; ++r, dist <<= 1) {
    signalCell(t, r, t->worldPe((t->my_index + dist) % n), epoch);
    waitForSpins([&] { return cells[r].value.load(std::memory_order_acquire) >= epoch; }, call, barrierSpins());
  }
}

}  // namespace

void teamSyncImpl(gshmem_team* t, const char* call) {
  const int n = t->size;
  if (n <= 1) return;
  const uint64_t epoch = ++t->epoch;
  if (GSHMEM_UNLIKELY(t->sync_algo < 0)) t->sync_algo = chooseSyncAlgo(t);
  if (t->sync_algo == kSyncDissemination) return disseminationSync(t, epoch, call);
  // Odd epochs use the mirrored tree (root = last member) and their own cells. In back-to-back barriers the PE that
  // left last (a leaf) is then the root, whose children have already arrived: the arrival of one barrier overlaps
  // the release of the previous one, so a steady stream of barriers costs about one one-way latency each.
  // With more PEs than cores the root stays member 0: the root is the member sure to be running when the barrier
  // ends, and a fixed one lets the work after a barrier start on a known PE (a broadcast from member 0 at 4 PEs on
  // 2 cores: 0.8-2.4 us with the alternating root, 0.1-0.2 us with this; the barrier itself costs the same).
  const bool odd = (epoch & 1) && !g_rt.oversubscribed;
  const int vme = odd ? n - 1 - t->my_index : t->my_index;
  auto real = [n, odd](int v) { return odd ? n - 1 - v : v; };
  const int base = odd ? kOddCells : 0;
  SyncCell* cells = controlArea()->sync[t->slot] + base;
  auto reached = [epoch](SyncCell& c) { return c.value.load(std::memory_order_acquire) >= epoch; };
  const long spins = barrierSpins();
  // Gather: children first (their arrivals land in cells 0..kRadix-1 of this PE).
  const int first_child = kTreeRadix * vme + 1;
  for (int c = 0; c < kTreeRadix && first_child + c < n; ++c) waitForSpins([&] { return reached(cells[c]); }, call, spins);
  if (vme > 0) {
    const int parent = (vme - 1) / kTreeRadix;
    signalCell(t, base + (vme - 1) % kTreeRadix, t->worldPe(real(parent)), epoch);
    waitForSpins([&] { return reached(cells[kReleaseCell]); }, call, spins);
  }
  // Release: children wait in their release cell.
  for (int c = 0; c < kTreeRadix && first_child + c < n; ++c)
    signalCell(t, base + kReleaseCell, t->worldPe(real(first_child + c)), epoch);
}

void barrierAll(const char* call) {
  ops::requireInit(call);
  ops::quiet(ctxDefault());
  teamSyncImpl(teamWorld(), call);
}

void teamSync(const char* call, gshmem_team* team) {
  team = teamCheck(call, team);
  if (team->my_index < 0) fatal(call, "this PE is not a member of the team");
  std::atomic_thread_fence(std::memory_order_seq_cst);
  teamSyncImpl(team, call);
}

void setLock(const char* call, long* lock) {
  Word ticket = (lockAmo(call, AmoOp::FetchAdd, lock, kTicket) >> 32) & kServingMask;
  waitFor([&] { return (lockAmo(call, AmoOp::Fetch, lock, 0) & kServingMask) == ticket; }, call);
}

int testLock(const char* call, long* lock) {
  Word v = lockAmo(call, AmoOp::Fetch, lock, 0);
  if (((v >> 32) & kServingMask) != (v & kServingMask)) return 1;  // held or queued
  return lockAmo(call, AmoOp::CompareSwap, lock, v + kTicket, v) == v ? 0 : 1;
}

void clearLock(const char* call, long* lock) {
  ops::quiet(ctxDefault());  // updates made under the lock complete before the next holder enters
  Word v = lockAmo(call, AmoOp::Fetch, lock, 0);
  for (;;) {
    if (((v >> 32) & kServingMask) == (v & kServingMask))
      fatal(call, "the lock at %p is not held", static_cast<void*>(lock));
    Word nv = (v & ~kServingMask) | ((v + 1) & kServingMask);  // bump "serving" without carrying into "next"
    Word old = lockAmo(call, AmoOp::CompareSwap, lock, nv, v);
    if (old == v) return;
    v = old;
  }
}

}  // namespace gshmem
