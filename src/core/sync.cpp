// Barriers and locks.
// teamSyncImpl is a dissemination barrier: in round k, member i stores the team's epoch into round-k cell of member
// (i + 2^k) mod n and waits until its own round-k cell reaches the epoch. Each cell has exactly one writer per
// epoch and only grows, so no reset races exist between consecutive barriers. Cells are 64-byte apart.
// Locks are ticket locks on the user's symmetric long at PE 0: high 32 bits = next ticket, low 32 = now serving.
#include "core/api.hpp"
#include "core/team_internal.hpp"

namespace gshmem {

namespace {

std::atomic<uint64_t>* peerCell(int world_pe, int slot, int round) {
  return &peerControlArea(world_pe)->sync[slot][round].value;
}

constexpr uint64_t kTicket = uint64_t(1) << 32;
constexpr uint64_t kServingMask = kTicket - 1;
constexpr int kLockPe = 0;

}  // namespace

void teamSyncImpl(gshmem_team* t) {
  const int n = t->size;
  if (n <= 1) return;
  const uint64_t epoch = ++t->epoch;
  const int me = t->my_index;
  ControlArea* mine = controlArea();
  for (int k = 0, dist = 1; dist < n; ++k, dist <<= 1) {
    int to = t->worldPe((me + dist) % n);
    peerCell(to, t->slot, k)->store(epoch, std::memory_order_release);
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
  ops::requireInit(call);
  if (reinterpret_cast<uintptr_t>(lock) % 8) ops::errorMisaligned(call, lock, 8);
  auto* word = reinterpret_cast<uint64_t*>(peerPtr(call, "lock", lock, sizeof(long), kLockPe));
  uint64_t ticket = (__atomic_fetch_add(word, kTicket, __ATOMIC_ACQ_REL) >> 32) & kServingMask;
  waitFor([&] { return (__atomic_load_n(word, __ATOMIC_ACQUIRE) & kServingMask) == ticket; });
}

int testLock(const char* call, long* lock) {
  ops::requireInit(call);
  if (reinterpret_cast<uintptr_t>(lock) % 8) ops::errorMisaligned(call, lock, 8);
  auto* word = reinterpret_cast<uint64_t*>(peerPtr(call, "lock", lock, sizeof(long), kLockPe));
  uint64_t v = __atomic_load_n(word, __ATOMIC_ACQUIRE);
  if (((v >> 32) & kServingMask) != (v & kServingMask)) return 1;  // held or queued
  return __atomic_compare_exchange_n(word, &v, v + kTicket, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ? 0 : 1;
}

void clearLock(const char* call, long* lock) {
  ops::requireInit(call);
  if (reinterpret_cast<uintptr_t>(lock) % 8) ops::errorMisaligned(call, lock, 8);
  auto* word = reinterpret_cast<uint64_t*>(peerPtr(call, "lock", lock, sizeof(long), kLockPe));
  ops::quiet(ctxDefault());  // updates made under the lock complete before the next holder enters
  uint64_t v = __atomic_load_n(word, __ATOMIC_RELAXED), nv;
  do {
    if (((v >> 32) & kServingMask) == (v & kServingMask))
      fatal(call, "the lock at %p is not held", static_cast<void*>(lock));
    nv = (v & ~kServingMask) | ((v + 1) & kServingMask);  // bump "serving" without carrying into "next"
  } while (!__atomic_compare_exchange_n(word, &v, nv, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

}  // namespace gshmem
