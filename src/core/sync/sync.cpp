// Barriers and locks.
// teamSyncImpl is a k-ary tree barrier (gather up, release down) over the team's members: member i waits until
// each child c has stored the team's epoch into cell c of i's slot, stores the epoch into its own cell in its parent,
// waits for the parent's epoch in its release cell, then releases its children. Every cell has exactly one writer
// and only grows, so consecutive barriers never race on a reset. Cells are 64 bytes apart (no false sharing).
// Teams with members reached through UCX use a dissemination barrier instead (see chooseSyncAlgo).
// Measured on the 2-core CI machine: a dissemination barrier, where both PEs store and poll at once, costs two
// cache-line transfers per barrier (~250 ns); the tree's one round trip costs ~130 ns; alternating the tree's root
// between epochs overlaps consecutive barriers (see teamSyncImpl).
// Locks are ticket locks on the user's symmetric long at PE 0: high 32 bits = next ticket, low 32 = now serving.
#include "base/config.hpp"
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
constexpr int kCountCell = kMaxRounds - 2;  ///< counter barrier: arrivals so far, on member 0
constexpr int kGoCell = kMaxRounds - 1;     ///< counter barrier: the last epoch released, on member 0
static_assert(kOddCells > kReleaseCell && kOddCells + kReleaseCell < kCountCell, "a slot holds kMaxRounds cells");

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

enum SyncAlgo { kSyncTree = 0, kSyncDissemination = 1, kSyncCounter = 2 };

/// GSHMEM_COLL_BARRIER, else: dissemination when some member is reached through the remote transport, where a hop
/// costs a message (~5 us over TCP): both PEs of a pair send at once, so a barrier of 2 hosts costs one hop instead
/// of the tree's arrival + release. With every member mapped: the counter when some machine runs more PEs than cores
/// (no member waits for a descheduled root), else the tree (one cache-line round trip per barrier). Every member
/// decides alike: "mapped" is the same-node relation (or nobody, under GSHMEM_TRANSPORTS=ucx), and oversubscribed
/// is agreed at init.
int chooseSyncAlgo(const gshmem_team* t) {
  const std::string& want = params().COLL_BARRIER;
  if (want == "dissemination" || anyUnmapped(t->start, t->stride, t->size)) return kSyncDissemination;
  if (want == "tree") return kSyncTree;
  if (want == "counter") return kSyncCounter;
  return g_rt.oversubscribed ? kSyncCounter : kSyncTree;
}

/// The team's sync cell k on member 0, as mapped here (the counter barrier runs only with every member mapped).
std::atomic<uint64_t>* rootCell(gshmem_team* t, int k, const char* call) {
  RemoteAddr ra;
  char* p = resolve(call, "sync cell", &controlArea()->sync[t->slot][k].value, sizeof(uint64_t), t->worldPe(0), &ra);
  if (GSHMEM_UNLIKELY(p == nullptr)) fatal(call, "the counter barrier needs member 0 of the team mapped");
  return reinterpret_cast<std::atomic<uint64_t>*>(p);
}

/// Counter barrier: every member adds 1 to the count cell of member 0; the member whose add brings it to
/// epoch * n (the last to arrive, whichever it is) stores the epoch into the go cell of member 0, which the others
/// poll. The count only grows (barrier e ends at e * n) and a member adds for barrier e + 1 only after it has seen go
/// reach e, so consecutive barriers never race on a reset. The add is acq_rel and go a release store: what every
/// member wrote before arriving is visible to every member that has seen go. Nobody waits for a fixed PE to be
/// scheduled: with more PEs than cores the running member that completes the count releases everyone at once.
void counterSync(gshmem_team* t, uint64_t epoch, const char* call) {
  std::atomic<uint64_t>* count = rootCell(t, kCountCell, call);
  std::atomic<uint64_t>* go = rootCell(t, kGoCell, call);
  if (count->fetch_add(1, std::memory_order_acq_rel) + 1 == epoch * static_cast<uint64_t>(t->size)) {
    go->store(epoch, std::memory_order_release);
    return;
  }
  // On a crowded machine a member that is not last yields at once: the barrier cannot end before every member
  // sharing this core has arrived, and spinning only delays them.
  waitForSpins([&] { return go->load(std::memory_order_acquire) >= epoch; }, call, g_rt.crowded ? 0 : g_rt.wait_spins);
}

/// Dissemination over cells 0..rounds-1 of the team's slot: in round r this PE stores the epoch into cell r of
/// member (me + 2^r) mod n and waits for its own cell r. Cells only grow, so barriers never reset them.
void disseminationSync(gshmem_team* t, uint64_t epoch, const char* call) {
  const int n = t->size;
  SyncCell* cells = controlArea()->sync[t->slot];
  for (int r = 0, dist = 1; dist < n; ++r, dist <<= 1) {
    signalCell(t, r, t->worldPe((t->my_index + dist) % n), epoch);
    waitFor([&] { return cells[r].value.load(std::memory_order_acquire) >= epoch; }, call);
  }
}

}  // namespace

void teamSyncImpl(gshmem_team* t, const char* call) {
  const int n = t->size;
  if (n <= 1) return;
  const uint64_t epoch = ++t->epoch;
  if (GSHMEM_UNLIKELY(t->sync_algo < 0)) t->sync_algo = chooseSyncAlgo(t);
  if (t->sync_algo == kSyncDissemination) return disseminationSync(t, epoch, call);
  if (t->sync_algo == kSyncCounter) return counterSync(t, epoch, call);
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
  // Gather: children first (their arrivals land in cells 0..kRadix-1 of this PE).
  const int first_child = kTreeRadix * vme + 1;
  for (int c = 0; c < kTreeRadix && first_child + c < n; ++c) waitFor([&] { return reached(cells[c]); }, call);
  if (vme > 0) {
    const int parent = (vme - 1) / kTreeRadix;
    signalCell(t, base + (vme - 1) % kTreeRadix, t->worldPe(real(parent)), epoch);
    waitFor([&] { return reached(cells[kReleaseCell]); }, call);
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
