// SHMEM_THREAD_MULTIPLE: several std::threads per PE issue puts, gets and atomics concurrently.
// This binary is initialized with shmem_init_thread(SHMEM_THREAD_MULTIPLE) (see mpi_main.cpp).
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

constexpr int kThreads = 4;

class Threads : public PeTest {};

TEST_F(Threads, ProvidedLevelIsMultiple) {
  int level = -1;
  shmem_query_thread(&level);
  EXPECT_EQ(level, SHMEM_THREAD_MULTIPLE);
}

TEST_F(Threads, ConcurrentAtomicIncrements) {
  const int iters = npes_ > 2 ? 200 : 400;
  long* counter = static_cast<long*>(shmem_calloc(1, sizeof(long)));
  ASSERT_NE(counter, nullptr);
  shmem_barrier_all();
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t)
    ts.emplace_back([&, t] {
      for (int i = 0; i < iters; ++i) shmem_long_atomic_inc(counter, (me_ + t + i) % npes_);
    });
  for (auto& th : ts) th.join();
  shmem_barrier_all();
  // Each PE receives kThreads * iters increments in total from all PEs (targets rotate evenly).
  long total_expected = static_cast<long>(kThreads) * iters;
  long sum = 0;
  for (int pe = 0; pe < npes_; ++pe) sum += shmem_long_g(counter, pe);
  EXPECT_EQ(sum, total_expected * npes_);
  shmem_barrier_all();
  shmem_free(counter);
}

TEST_F(Threads, ConcurrentPutsToDisjointSlices) {
  const size_t per_thread = 2048;
  int* buf = static_cast<int*>(shmem_calloc(kThreads * per_thread, sizeof(int)));
  ASSERT_NE(buf, nullptr);
  shmem_barrier_all();
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t)
    ts.emplace_back([&, t] {
      std::vector<int> src(per_thread);
      for (int round = 0; round < 20; ++round) {
        for (size_t i = 0; i < per_thread; ++i) src[i] = me_ * 1000000 + t * 10000 + round * 100 + int(i % 100);
        shmem_int_put(buf + t * per_thread, src.data(), per_thread, right());
        shmem_int_put_nbi(buf + t * per_thread, src.data(), per_thread / 2, right());
        shmem_quiet();
      }
    });
  for (auto& th : ts) th.join();
  shmem_barrier_all();
  GSHMEM_EXPECT_ALL(kThreads * per_thread, k,
                    buf[k] == left() * 1000000 + int(k / per_thread) * 10000 + 19 * 100 + int((k % per_thread) % 100));
  shmem_barrier_all();
  shmem_free(buf);
}

TEST_F(Threads, ConcurrentFetchAddIsUnique) {
  const int iters = 150;
  uint64_t* counter = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  ASSERT_NE(counter, nullptr);
  shmem_barrier_all();
  std::vector<std::vector<uint64_t>> got(kThreads);
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t)
    ts.emplace_back([&, t] {
      for (int i = 0; i < iters; ++i) got[t].push_back(shmem_uint64_atomic_fetch_add(counter, 1, 0));
    });
  for (auto& th : ts) th.join();
  // Values seen by my threads must be distinct (and globally they are, checked via the total).
  std::vector<char> seen(static_cast<size_t>(iters) * kThreads * npes_, 0);
  int dups = 0, out_of_range = 0;
  for (auto& v : got)
    for (uint64_t x : v) {
      if (x >= seen.size()) {
        ++out_of_range;
        continue;
      }
      dups += seen[x]++ != 0;
    }
  EXPECT_EQ(dups, 0);
  EXPECT_EQ(out_of_range, 0);
  shmem_barrier_all();
  if (me_ == 0) EXPECT_EQ(*counter, static_cast<uint64_t>(iters) * kThreads * npes_);
  shmem_barrier_all();
  shmem_free(counter);
}

TEST_F(Threads, ThreadsWithOwnContexts) {
  const int iters = 200;
  long* counters = static_cast<long*>(shmem_calloc(kThreads, sizeof(long)));
  ASSERT_NE(counters, nullptr);
  shmem_barrier_all();
  std::atomic<int> ctx_failures{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t)
    ts.emplace_back([&, t] {
      shmem_ctx_t ctx;
      if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) {
        ++ctx_failures;
        ctx = SHMEM_CTX_DEFAULT;
      }
      for (int i = 0; i < iters; ++i) {
        shmem_ctx_long_atomic_add(ctx, &counters[t], 1, right());
        long v = t;
        if (i % 50 == 0) shmem_ctx_long_put_nbi(ctx, &counters[t], &v, 0, right());  // zero-length: no effect
      }
      shmem_ctx_quiet(ctx);
      if (ctx != SHMEM_CTX_DEFAULT) shmem_ctx_destroy(ctx);
    });
  for (auto& th : ts) th.join();
  EXPECT_EQ(ctx_failures.load(), 0) << "shmem_ctx_create(SHMEM_CTX_PRIVATE) failed";
  shmem_barrier_all();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(counters[t], iters) << t;
  shmem_barrier_all();
  shmem_free(counters);
}

TEST_F(Threads, LocksFromThreadsOfDifferentPes) {
  // One thread per PE uses the lock while the main thread waits; locks are per PE, not per thread.
  const int iters = 50;
  static long lock;
  static long counter;
  lock = 0;
  counter = 0;
  shmem_barrier_all();
  std::thread worker([&] {
    for (int i = 0; i < iters; ++i) {
      shmem_set_lock(&lock);
      long v = shmem_long_g(&counter, 0);
      shmem_long_p(&counter, v + 1, 0);
      shmem_quiet();
      shmem_clear_lock(&lock);
    }
  });
  worker.join();
  shmem_barrier_all();
  if (me_ == 0) EXPECT_EQ(counter, static_cast<long>(iters) * npes_);
  shmem_barrier_all();
}

}  // namespace
}  // namespace gshmem_test
