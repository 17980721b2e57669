// Barriers and locks.
// teamSyncImpl is a k-ary tree barrier (gather up, release down) over the team's members: member i waits until
// each child c has stored the team's epoch into cell c of i's slot, stores the epoch into its own cell in its parent,
// waits for the parent's epoch in its release cell, then releases its children. Every cell has exactly one writer
// and only grows, so consecutive barriers never race on a reset. Cells are 64 bytes apart (no false sharing).
// Teams with members reached through UCX use a dissemination barrier instead at 2 members and above one tree level
// (see chooseSyncAlgo).
// A dissemination barrier, where both PEs store and poll at once, costs two cache-line transfers per barrier; the
// tree costs one round trip; alternating the tree's root between epochs overlaps consecutive barriers (see
// teamSyncImpl).
// On a crowded machine (more PEs than cores) a barrier cannot end before every PE sharing this core has run, so a
// waiting member yields the core at its first poll (barrierSpins). There a team whose members are all mapped uses a
// counter barrier (counterSync): each member adds one to a word in member 0's slot and waits for the count of this
// epoch. Every PE of a core must run once per barrier, and with a counter that is all: the last arriver of a core
// leaves at once and arrives first at the next barrier, so a core switches once per barrier. The tree needs its
// root to run after the last arrival and every child after the release: two switches per barrier on the root's core.
// What the tree gave for free, a running root after the barrier, a rooted collective asks for with teamLeadNextSync:
// the next counter barrier then holds the others until that member has left (a bounded wait: it is a scheduling
// hint, never needed for correctness), so the root is running when the next call from it starts.
// A team whose members span nodes, and where several members share a node, uses a hierarchical barrier
// (hierSync): the members of a node arrive at their node's leader (its lowest member) through shared memory, the
// leaders run a dissemination barrier among themselves, and each leader releases its node with one store that its
// members poll. Only leaders send messages between nodes (ceil(log2 K) each, K nodes), so a PE that is not a leader
// makes no endpoint for barriers, however many PEs the job has.
// Locks are MCS queue locks on the user's symmetric long (see setLock): a waiting PE polls its own memory, so a wait
// sends nothing, and the holder hands the lock to the next PE in line with one AMO.
#include <string>
#include <vector>

#include "base/config.hpp"
#include "core/rma/ops.hpp"
#include "core/sync/agree.hpp"
#include "core/sync/sync.hpp"

namespace gshmem {

namespace {

constexpr int kLockPe = 0;  ///< the PE whose copy of a lock holds the queue's tail
constexpr int kReleaseCell = kTreeRadix; ///< cell the parent writes to release this PE
constexpr int kOddCells = 16;            ///< odd epochs use cells 16..24 (the mirrored tree)
constexpr int kCounterCell = 25;         ///< counter barrier: arrivals, in member 0's slot
constexpr int kLeftCell = 26;            ///< counter barrier: the epoch the lead member last left, in member 0's slot
constexpr int kLeadWaitYields = 16;      ///< most yields a member gives the lead member before leaving anyway
constexpr int kHierArriveCell = 27;      ///< hierarchical barrier: arrivals of a node's members, in its leader's slot
constexpr int kHierReleaseCell = 28;     ///< hierarchical barrier: the epoch a leader has released, in its slot
static_assert(kOddCells > kReleaseCell && kOddCells + kReleaseCell < kCounterCell && kLeftCell < kHierArriveCell &&
              kHierReleaseCell < kMaxRounds, "a slot holds kMaxRounds cells");

/// A team's hierarchical layout, made at its first sync (every member makes its own from the same node map).
struct NodeLayout {
  int leader = -1;           ///< world PE of this PE's node leader (the node's lowest member)
  int node_members = 0;      ///< members of this PE's node, itself included
  int leader_index = -1;     ///< this PE's index among the leaders; -1 when it is not one
  std::vector<int> leaders;  ///< world PEs of the leaders, one per node, in member order
};
std::vector<NodeLayout> g_layouts;  ///< per team slot, for the team now in it that uses hierSync

/// The team's node layout as this PE sees it (its leaders, one per node, and this node's members), in its slot.
void layoutMake(const gshmem_team* t) {
  if (g_layouts.size() <= static_cast<std::size_t>(t->slot)) g_layouts.resize(t->slot + 1);
  NodeLayout& l = g_layouts[t->slot];
  l = NodeLayout{};
  const int my_node = g_rt.node_of[g_rt.my_pe];
  std::vector<char> seen;
  for (int i = 0; i < t->size; ++i) {
    const int pe = t->worldPe(i);
    const std::size_t node = static_cast<std::size_t>(g_rt.node_of[pe]);
    if (node >= seen.size()) seen.resize(node + 1, 0);
    if (!seen[node]) {
      seen[node] = 1;
      if (pe == g_rt.my_pe) l.leader_index = static_cast<int>(l.leaders.size());
      l.leaders.push_back(pe);
    }
    if (static_cast<int>(node) != my_node) continue;
    if (l.leader < 0) l.leader = pe;
    ++l.node_members;
  }
}

/// Wait until `ready()`; when it is not at once (the slow path), note in this PE's wait line (agree.hpp) that it
/// waits for sync `epoch` of `t` on world PE `peer`, for the hang diagnoser.
template <typename F>
void syncWait(gshmem_team* t, uint64_t epoch, int peer, const char* call, long spins, F&& ready) {
  if (ready()) return;
  const wait::Note note(call, wait::kSync, peer, epoch, t->slot, t->size);
  waitForSpins(ready, call, spins);
}

/// Store `epoch` into cell k of this team's slot on world PE `to` (same offset in every heap).
inline void signalCell(gshmem_team* t, int k, int to, uint64_t epoch) {
  std::atomic<uint64_t>* mine = &slotCells(t->slot)[k].value;
  RemoteAddr ra;
  char* p = resolve("shmem_sync", "sync cell", mine, sizeof(uint64_t), to, &ra);
  if (GSHMEM_LIKELY(p != nullptr))
    reinterpret_cast<std::atomic<uint64_t>*>(p)->store(epoch, std::memory_order_release);
  else
    remoteSignal("shmem_sync", ra, epoch);
}

// A lock's two 32-bit halves. The first, at every PE, is that PE's queue node: the next PE in line + 1 (bits 0-29,
// 0: none yet), kQueued (this PE holds the lock or waits for it) and kWait (it waits). The second, at kLockPe only,
// is the queue's tail: the last PE in line + 1, 0 when the lock is free. A zeroed long is a free lock.
constexpr uint32_t kNextMask = (uint32_t(1) << 30) - 1;
constexpr uint32_t kQueued = uint32_t(1) << 30;
constexpr uint32_t kWait = uint32_t(1) << 31;
inline uint32_t* lockNode(long* lock) { return reinterpret_cast<uint32_t*>(lock); }
inline uint32_t* lockTail(long* lock) { return reinterpret_cast<uint32_t*>(lock) + 1; }
inline uint32_t lockAmo(const char* call, AmoOp op, uint32_t* word, int pe, uint32_t value, uint32_t cond = 0) {
  return ops::amo<uint32_t>(call, ctxDefault(), op, word, value, cond, pe);
}
inline uint32_t nodeLoad(const uint32_t* node) { return __atomic_load_n(node, __ATOMIC_ACQUIRE); }

}  // namespace

namespace {

/// GSHMEM_BARRIER forces one (counter only where every member is mapped). Auto: counter when every member's heap
/// is mapped here and some machine is crowded (see the top of the file); then tree
/// when every member's heap is mapped here (one cache-line round trip per barrier), and with a member reached
/// through the remote transport when the tree is one level of 3 to kTreeRadix + 1 members: there a hop is a message
/// (~5 us over TCP) and the flat tree costs two (arrivals, then releases), as many as dissemination's two rounds at
/// 4 members and fewer above, while its root, member 0, leaves first, one hop ahead of the others, so a broadcast
/// from member 0 right after a barrier finds its data already on the way (2+2 PEs on two hosts, 8-32 KiB: 3.5-14 us
/// per call against 17-22 us after a dissemination barrier). Dissemination at 2 members (both send at once: one hop
/// where the tree pays two) and above one level. Every member decides alike: "mapped" is the same-node relation
/// (or nobody is mapped, under GSHMEM_TRANSPORTS=ucx).
int chooseSyncAlgo(const gshmem_team* t) {
  const bool mapped = !anyUnmapped(t->start, t->stride, t->size);
  int shared_nodes = 0;  // nodes, when one of them holds more than one member
  if (!mapped) {
    layoutMake(t);
    const int nodes = static_cast<int>(g_layouts[t->slot].leaders.size());
    shared_nodes = nodes < t->size ? nodes : 0;
  }
  const int algo = syncAlgoFor(t->size, mapped, shared_nodes);
  if (algo != kSyncHier && !mapped) g_layouts[t->slot] = NodeLayout{};  // kept only for the barrier that reads it
  return algo;
}

/// Dissemination over cells 0..rounds-1 of the team's slot: in round r this PE stores the epoch into cell r of
/// member (me + 2^r) mod n and waits for its own cell r. Cells only grow, so barriers never reset them.
void disseminationSync(gshmem_team* t, uint64_t epoch, const char* call) {
  const int n = t->size;
  SyncCell* cells = slotCells(t->slot);
  for (int r = 0, dist = 1; dist < n; ++r, dist <<= 1) {
    signalCell(t, r, t->worldPe((t->my_index + dist) % n), epoch);
    syncWait(t, epoch, t->worldPe((t->my_index + n - dist) % n), call, barrierSpins(),
             [&] { return cells[r].value.load(std::memory_order_acquire) >= epoch; });
  }
}

/// The word `cell` of world PE `pe`'s slot of team `t`, as mapped here (`pe` is on this PE's node; counterSync runs
/// only when every member is, and reads member 0's).
std::atomic<uint64_t>* nodeCell(gshmem_team* t, int cell, int pe, const char* call) {
  std::atomic<uint64_t>* mine = &slotCells(t->slot)[cell].value;
  return reinterpret_cast<std::atomic<uint64_t>*>(peerPtr(call, "sync cell", mine, sizeof(uint64_t), pe));
}

/// Hierarchical barrier (the top of the file). A member adds one to its leader's arrival count and waits for the
/// leader's release; a leader waits for node_members - 1 arrivals per epoch (the count only grows: every barrier
/// of the team adds exactly that), runs dissemination with the other leaders over cells 0..rounds-1, then
/// releases its node. `last` (the team's last sync, before its slot is reset): each member adds one more once it
/// has seen the release, and the leader leaves only after those, so no member reads its cells after that.
void hierSync(gshmem_team* t, uint64_t epoch, const char* call, bool last = false) {
  const NodeLayout& l = g_layouts[t->slot];
  SyncCell* cells = slotCells(t->slot);
  const long spins = barrierSpins();
  if (l.leader_index < 0) {
    std::atomic<uint64_t>* count = nodeCell(t, kHierArriveCell, l.leader, call);
    count->fetch_add(1, std::memory_order_acq_rel);
    std::atomic<uint64_t>* released = nodeCell(t, kHierReleaseCell, l.leader, call);
    syncWait(t, epoch, l.leader, call, spins, [&] { return released->load(std::memory_order_acquire) >= epoch; });
    if (last) count->fetch_add(1, std::memory_order_acq_rel);
    return;
  }
  const uint64_t arrivals = epoch * static_cast<uint64_t>(l.node_members - 1);
  syncWait(t, epoch, -1, call, spins,
           [&] { return cells[kHierArriveCell].value.load(std::memory_order_acquire) >= arrivals; });
  const int k = static_cast<int>(l.leaders.size());
  for (int r = 0, dist = 1; dist < k; ++r, dist <<= 1) {
    signalCell(t, r, l.leaders[(l.leader_index + dist) % k], epoch);
    syncWait(t, epoch, l.leaders[(l.leader_index + k - dist) % k], call, spins,
             [&] { return cells[r].value.load(std::memory_order_acquire) >= epoch; });
  }
  if (l.node_members > 1) cells[kHierReleaseCell].value.store(epoch, std::memory_order_release);
  const uint64_t left = arrivals + static_cast<uint64_t>(l.node_members - 1);
  if (last && l.node_members > 1)
    syncWait(t, epoch, -1, call, spins,
             [&] { return cells[kHierArriveCell].value.load(std::memory_order_acquire) >= left; });
}

/// Counter barrier: add one to member 0's counter and wait until it holds n * epoch (the slot is zeroed when the
/// team is made, and every barrier of the team adds exactly n). With a lead member (teamLeadNextSync) the lead
/// records the epoch it leaves, and the others give it up to kLeadWaitYields yields to do so first.
void counterSync(gshmem_team* t, uint64_t epoch, const char* call) {
  std::atomic<uint64_t>* count = nodeCell(t, kCounterCell, t->worldPe(0), call);
  const uint64_t target = epoch * static_cast<uint64_t>(t->size);
  const int lead = t->lead;
  t->lead = -1;
  if (count->fetch_add(1, std::memory_order_acq_rel) + 1 < target)
    syncWait(t, epoch, -1, call, barrierSpins(), [&] { return count->load(std::memory_order_acquire) >= target; });
  if (lead < 0) return;
  std::atomic<uint64_t>* left = nodeCell(t, kLeftCell, t->worldPe(0), call);
  if (lead == t->my_index) return left->store(epoch, std::memory_order_release);
  for (int y = 0; y < kLeadWaitYields && left->load(std::memory_order_acquire) < epoch; ++y) sched_yield();
}

}  // namespace

int syncAlgoFor(int size, bool mapped, int shared_nodes) {
  const std::string& want = params().BARRIER;
  if (want == "tree") return kSyncTree;
  if (want == "dissemination") return kSyncDissemination;
  if (mapped) return want == "counter" || g_rt.oversubscribed ? kSyncCounter : kSyncTree;
  // Same-node members are mapped unless GSHMEM_TRANSPORTS=ucx (the same on every PE).
  const bool hier_ok = shared_nodes > 1 && params().TRANSPORTS != "ucx";
  if (want == "hierarchical" && hier_ok) return kSyncHier;
  if (size > 2 && size <= kTreeRadix + 1) return kSyncTree;  // auto's choice, also where hierarchical cannot be
  return hier_ok ? kSyncHier : kSyncDissemination;
}

namespace {

/// The team's barrier algorithm, chosen at its first use (every member chooses alike).
int syncAlgo(gshmem_team* t) {
  if (GSHMEM_UNLIKELY(t->sync_algo < 0)) t->sync_algo = chooseSyncAlgo(t);
  return t->sync_algo;
}

}  // namespace

const char* teamSyncAlgoName(gshmem_team* t) {
  static const char* const kNames[] = {"tree", "dissemination", "counter", "hierarchical"};
  return t->size <= 1 ? "none (one member)" : kNames[syncAlgo(t)];
}

void teamLeadNextSync(gshmem_team* t, int member) {
  if (g_rt.oversubscribed) t->lead = member;
}

/// The k-ary tree barrier of epoch `epoch` (the top of the file).
static void treeSync(gshmem_team* t, uint64_t epoch, const char* call) {
  const int n = t->size;
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
  SyncCell* cells = slotCells(t->slot) + base;
  auto reached = [epoch](SyncCell& c) { return c.value.load(std::memory_order_acquire) >= epoch; };
  const long spins = barrierSpins();
  // Gather: children first (their arrivals land in cells 0..kRadix-1 of this PE).
  const int first_child = kTreeRadix * vme + 1;
  for (int c = 0; c < kTreeRadix && first_child + c < n; ++c)
    syncWait(t, epoch, t->worldPe(real(first_child + c)), call, spins, [&] { return reached(cells[c]); });
  if (vme > 0) {
    const int parent = (vme - 1) / kTreeRadix;
    signalCell(t, base + (vme - 1) % kTreeRadix, t->worldPe(real(parent)), epoch);
    syncWait(t, epoch, t->worldPe(real(parent)), call, spins, [&] { return reached(cells[kReleaseCell]); });
  }
  // Release: children wait in their release cell.
  for (int c = 0; c < kTreeRadix && first_child + c < n; ++c)
    signalCell(t, base + kReleaseCell, t->worldPe(real(first_child + c)), epoch);
}

void teamSyncImpl(gshmem_team* t, const char* call) {
  if (t->size <= 1) return;
  const uint64_t epoch = ++t->epoch;
  const int algo = syncAlgo(t);
  if (algo == kSyncDissemination) return disseminationSync(t, epoch, call);
  if (algo == kSyncCounter) return counterSync(t, epoch, call);
  if (algo == kSyncHier) return hierSync(t, epoch, call);
  treeSync(t, epoch, call);
}

void teamSyncLast(gshmem_team* t, const char* call) {
  if (t->size <= 1) return;
  if (syncAlgo(t) == kSyncHier) return hierSync(t, ++t->epoch, call, true);
  if (syncAlgo(t) != kSyncCounter) return teamSyncImpl(t, call);
  // The counter's members may still be reading member 0's word when member 0 leaves: end with the tree. Its cells
  // are written by the tree alone (the counter's are 25 and 26), so no store of an earlier barrier by another
  // writer can land after the tree's and lower a cell. (The hierarchical barrier ends with its own last form: its
  // leaders' dissemination shares cells 0..7 with the tree, with other writers.)
  treeSync(t, ++t->epoch, call);
}

void barrierAll(const char* call) {
  ops::requireInit(call);
  ops::quiet(ctxDefault());
  teamSyncImpl(teamWorld(), call);
}

// MCS (Mellor-Crummey and Scott): a PE marks its node queued and waiting, swaps itself in as the tail and, when a
// PE was ahead of it, ORs its own number into that PE's node and polls its own kWait bit, which that PE clears when
// it hands over. The holder with no successor swings the tail back to 0; when that fails because a PE is just
// joining, it waits for that PE's number. A node is written by its owner and by its two neighbours in line; the
// owner reaches its own node with plain atomics (the symmetric check comes with the tail's AMO), the neighbours
// with AMOs. The lock is held while kQueued is set and set_lock has returned (kWait is stale once it has).
void setLock(const char* call, long* lock) {
  const int me = g_rt.my_pe;
  uint32_t* node = lockNode(lock);
  if (__atomic_load_n(node, __ATOMIC_RELAXED) & kQueued)
    fatal(call, "this PE already holds or waits for the lock at %p (locks belong to PEs and do not nest: clear it "
          "first, and take a lock from one thread of a PE at a time)", static_cast<void*>(lock));
  __atomic_store_n(node, kQueued | kWait, __ATOMIC_RELAXED);  // in no line yet: nobody else writes it
  const uint32_t prev = lockAmo(call, AmoOp::Swap, lockTail(lock), kLockPe, uint32_t(me) + 1);
  if (prev == 0) return;
  lockAmo(call, AmoOp::Or, node, static_cast<int>(prev) - 1, uint32_t(me) + 1);  // the same offset at prev
  waitFor([&] { return (nodeLoad(node) & kWait) == 0; }, call);
}

int testLock(const char* call, long* lock) {
  const int me = g_rt.my_pe;
  uint32_t* node = lockNode(lock);
  if (__atomic_load_n(node, __ATOMIC_RELAXED) & kQueued) return 1;  // this PE holds it already
  __atomic_store_n(node, kQueued, __ATOMIC_RELAXED);  // before the tail: a successor may link at once
  if (lockAmo(call, AmoOp::CompareSwap, lockTail(lock), kLockPe, uint32_t(me) + 1, 0) == 0) return 0;
  __atomic_store_n(node, 0, __ATOMIC_RELAXED);  // not in line: nobody linked to it
  // A program may loop on test_lock while the holder's AMOs to this PE (the lock's home, or its counters) need this
  // PE's transport to progress: drive it, and watch the loop, as the shmem_test calls do.
  ops::pollProgress(call);
  return 1;
}

void clearLock(const char* call, long* lock) {
  const int me = g_rt.my_pe;
  uint32_t* node = lockNode(lock);
  ops::quiet(ctxDefault());  // updates made under the lock complete before the next holder enters
  uint32_t v = nodeLoad(node);
  if ((v & kQueued) == 0)
    fatal(call, "the lock at %p is not held by this PE (shmem_set_lock or a shmem_test_lock that returned 0 takes "
          "it)", static_cast<void*>(lock));
  if ((v & kNextMask) == 0) {
    if (lockAmo(call, AmoOp::CompareSwap, lockTail(lock), kLockPe, 0, uint32_t(me) + 1) == uint32_t(me) + 1) {
      __atomic_store_n(node, 0, __ATOMIC_RELAXED);  // out of line: nobody links to it any more
      return;
    }
    waitFor([&] { return (nodeLoad(node) & kNextMask) != 0; }, call);  // a PE joined behind us: its number comes
    v = nodeLoad(node);
  }
  __atomic_store_n(node, 0, __ATOMIC_RELAXED);  // both neighbours are done with it
  lockAmo(call, AmoOp::And, node, static_cast<int>(v & kNextMask) - 1, ~kWait);
}

}  // namespace gshmem
