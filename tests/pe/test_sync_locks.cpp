// Barriers (barrier_all, sync_all) and distributed locks (set/clear/test) under contention.
#include <cstdint>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

class SyncLocks : public PeTest {};

TEST_F(SyncLocks, BarrierAllCompletesPutsAndSynchronizes) {
  const int rounds = 50;
  int* slots = static_cast<int*>(shmem_calloc(npes_, sizeof(int)));
  ASSERT_NE(slots, nullptr);
  int stale = 0;
  for (int r = 1; r <= rounds; ++r) {
    for (int pe = 0; pe < npes_; ++pe) shmem_int_p(&slots[me_], r, pe);
    shmem_barrier_all();  // completes the puts and waits for everyone
    for (int pe = 0; pe < npes_; ++pe) stale += slots[pe] != r;
    shmem_barrier_all();  // nobody starts round r + 1 before everyone checked round r
  }
  EXPECT_EQ(stale, 0);
  shmem_free(slots);
}

TEST_F(SyncLocks, BarrierAllReallyWaits) {
  // A PE that arrives late delays everybody: a counter incremented before the barrier is complete after it.
  static long arrived;
  arrived = 0;
  shmem_barrier_all();
  for (int r = 1; r <= 20; ++r) {
    if (me_ == r % npes_) sleepMs(10);
    shmem_long_atomic_inc(&arrived, 0);
    shmem_barrier_all();
    EXPECT_GE(shmem_long_atomic_fetch(&arrived, 0), static_cast<long>(r) * npes_) << "round " << r;
    shmem_barrier_all();
  }
}

TEST_F(SyncLocks, SyncAllSynchronizes) {
  static int token;
  token = 0;
  shmem_barrier_all();
  for (int r = 1; r <= 20; ++r) {
    shmem_int_atomic_add(&token, 1, 0);
    shmem_quiet();  // sync_all, unlike barrier_all, does not complete outstanding operations
    shmem_sync_all();
    EXPECT_GE(shmem_int_atomic_fetch(&token, 0), r * npes_) << "round " << r;
    shmem_sync_all();
  }
}

TEST_F(SyncLocks, LockProtectsNonAtomicIncrements) {
  const int iters = npes_ > 2 ? 100 : 200;
  static long lock;     // symmetric, zero-initialized as the spec requires
  static long counter;  // incremented with get + put inside the lock: only correct with mutual exclusion
  lock = 0;
  counter = 0;
  shmem_barrier_all();
  for (int i = 0; i < iters; ++i) {
    shmem_set_lock(&lock);
    long v = shmem_long_g(&counter, 0);
    shmem_long_p(&counter, v + 1, 0);
    shmem_quiet();
    shmem_clear_lock(&lock);
  }
  shmem_barrier_all();
  if (me_ == 0) EXPECT_EQ(counter, static_cast<long>(iters) * npes_) << "lost updates: lock not exclusive";
  shmem_barrier_all();
}

TEST_F(SyncLocks, LockOnHeapAndOnEveryPeCounter) {
  const int iters = 50;
  long* lock = static_cast<long*>(shmem_calloc(1, sizeof(long)));
  int* counters = static_cast<int*>(shmem_calloc(npes_, sizeof(int)));
  ASSERT_TRUE(lock && counters);
  shmem_barrier_all();
  // Inside the lock, read-modify-write counters[pe] on every PE pe.
  for (int i = 0; i < iters; ++i) {
    shmem_set_lock(lock);
    for (int pe = 0; pe < npes_; ++pe) {
      int v = shmem_int_g(&counters[pe], pe);
      shmem_int_p(&counters[pe], v + 1, pe);
    }
    shmem_quiet();
    shmem_clear_lock(lock);
  }
  shmem_barrier_all();
  EXPECT_EQ(counters[me_], iters * npes_) << "lost updates: lock not exclusive";
  shmem_barrier_all();
  shmem_free(counters);
  shmem_free(lock);
}

TEST_F(SyncLocks, TestLock) {
  static long lock;
  static int holders;
  lock = 0;
  holders = 0;
  shmem_barrier_all();
  if (me_ == 0) {
    EXPECT_EQ(shmem_test_lock(&lock), 0) << "free lock not acquired";
  }
  shmem_barrier_all();
  if (me_ != 0) {
    EXPECT_NE(shmem_test_lock(&lock), 0) << "held lock acquired by PE " << me_;
  }
  shmem_barrier_all();
  if (me_ == 0) shmem_clear_lock(&lock);
  shmem_barrier_all();
  // Everyone spins on test_lock; each gets the lock exactly once.
  while (shmem_test_lock(&lock) != 0) {
  }
  int inside = shmem_int_atomic_fetch_inc(&holders, 0);
  EXPECT_EQ(inside, 0) << "another PE was inside the critical section";
  shmem_int_atomic_add(&holders, -1, 0);
  shmem_quiet();
  shmem_clear_lock(&lock);
  shmem_barrier_all();
}

TEST_F(SyncLocks, CriticalSectionIsExclusive) {
  const int iters = npes_ > 2 ? 60 : 120;
  static long lock;
  static int inside;
  static int violations;
  lock = 0;
  inside = 0;
  violations = 0;
  shmem_barrier_all();
  for (int i = 0; i < iters; ++i) {
    shmem_set_lock(&lock);
    int before = shmem_int_atomic_fetch_inc(&inside, 0);
    if (before != 0) shmem_int_atomic_inc(&violations, 0);
    shmem_int_atomic_add(&inside, -1, 0);
    shmem_quiet();
    shmem_clear_lock(&lock);
  }
  shmem_barrier_all();
  if (me_ == 0) EXPECT_EQ(violations, 0);
  shmem_barrier_all();
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST_F(SyncLocks, DeprecatedActiveSetBarrier) {
  static long psync[SHMEM_BARRIER_SYNC_SIZE];
  for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  static int hits;
  hits = 0;
  shmem_barrier_all();
  shmem_int_atomic_inc(&hits, 0);
  shmem_barrier(0, 0, npes_, psync);
  if (me_ == 0) EXPECT_EQ(hits, npes_);
  shmem_barrier_all();
}
#pragma GCC diagnostic pop

}  // namespace
}  // namespace gshmem_test
