// Barriers and locks.
// teamSyncImpl is a dissemination barrier: in round k, member i stores the team's epoch into round-k cell of member
// (i + 2^k) mod n and waits until its own round-k cell reaches the epoch. Each cell has exactly one writer per
// epoch and only grows, so no reset races exist between consecutive barriers. Cells are 64-byte apart.
// Locks are ticket locks on the user's symmetric long at PE 0: high 32 bits = next ticket, low 32 = now serving.
#include "core/api.hpp"
#include "core/team_internal.hpp"

namespace gshmem {

namespace {

constexpr uint64_t kTicket = uint64_t(1) << 32;
constexpr uint64_t kServingMask = kTicket - 1;
constexpr int kLockPe = 0;

/// Store `epoch` into the round-k cell of world PE `to` (same offset in every heap).
inline void signalCell(gshmem_team* t, int k, int to, uint64_t epoch) {
  std::atomic<uint64_t>* mine = &controlArea()->sync[t->slot][k].value;
  RemoteAddr ra;
  char* p = resolve("shmem_sync", "sync cell", mine, sizeof(uint64_t), to, &ra);
  if (GSHMEM_LIKELY(p != nullptr))
    reinterpret_cast<std::atomic<uint64_t>*>(p)->store(epoch, std::memory_order_release);
  else
    remoteAmo("shmem_sync", ra, AmoOp::Set, sizeof(uint64_t), epoch, 0);
}

using Word = unsigned long long;
inline Word lockAmo(const char* call, AmoOp op, long* lock, Word value, Word cond = 0) {
  return ops::amo<Word>(call, ctxDefault(), op, reinterpret_cast<Word*>(lock), value, cond, kLockPe);
}

}  // namespace

void teamSyncImpl(gshmem_team* t) {
  const int n = t->size;
  if (n <= 1) return;
  const uint64_t epoch = ++t->epoch;
  const int me = t->my_index;
  ControlArea* mine = controlArea();
  for (int k = 0, dist = 1; dist < n; ++k, dist <<= 1) {
    signalCell(t, k, t->worldPe((me + dist) % n), epoch);
    std::atomic<uint64_t>& cell = mine->sync[t->slot][k].value;
    waitFor([&] { return cell.load(std::memory_order_acquire) >= epoch; });
  }
}

void barrierAll(const char* call) {
  ops::requireInit(call);
  ops::quiet(ctxDefault());
  teamSyncImpl(teamWorld());
}

void teamSync(const char* call, gshmem_team* team) {
  team = teamCheck(call, team);
  if (team->my_index < 0) fatal(call, "this PE is not a member of the team");
  std::atomic_thread_fence(std::memory_order_seq_cst);
  teamSyncImpl(team);
}

void setLock(const char* call, long* lock) {
  Word ticket = (lockAmo(call, AmoOp::FetchAdd, lock, kTicket) >> 32) & kServingMask;
  waitFor([&] { return (lockAmo(call, AmoOp::Fetch, lock, 0) & kServingMask) == ticket; });
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
