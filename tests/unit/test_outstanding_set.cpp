// The UCX transport's outstanding-peer set (transports/ucx/ucx_outstanding.hpp), without UCX: a scan visits the
// marked peers only, and, with threads posting and quieting at once, a quiet never skips a peer whose operations
// were counted before it began.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "transports/ucx/ucx_outstanding.hpp"

namespace gshmem::ucxt {
namespace {

std::vector<int> visited(const OutstandingSet& set) {
  std::vector<int> v;
  EXPECT_TRUE(set.forEach([&](int pe) {
    v.push_back(pe);
    return true;
  }));
  return v;
}

TEST(OutstandingSet, VisitsOnlyMarkedPeers) {
  OutstandingSet set;
  set.reset(16384);
  EXPECT_TRUE(set.empty());
  EXPECT_TRUE(visited(set).empty());
  set.mark(9000);
  EXPECT_EQ(visited(set), std::vector<int>{9000});
  set.mark(9000);  // marking twice keeps one entry
  set.mark(0);
  set.mark(16383);
  set.mark(63);
  set.mark(64);
  EXPECT_EQ(visited(set), (std::vector<int>{0, 63, 64, 9000, 16383}));
  set.unmark(9000, [] { return true; });  // still dirty: stays
  EXPECT_EQ(visited(set).size(), 5u);
  for (int pe : {0, 63, 64, 9000, 16383}) set.unmark(pe, [] { return false; });
  EXPECT_TRUE(visited(set).empty());
  EXPECT_TRUE(set.empty()) << "a summary bit outlived the last peer of its word";
}

TEST(OutstandingSet, OddSizesAndEarlyStop) {
  OutstandingSet set;
  set.reset(65);
  set.mark(64);
  set.mark(1);
  int n = 0;
  EXPECT_TRUE(set.forEach([&](int) { return ++n < 1; }));
  EXPECT_EQ(n, 1);
  EXPECT_EQ(visited(set), (std::vector<int>{1, 64}));
}

// The transport's protocol on simulated peers: a post bumps `posted` then marks; a quiet reads `posted` of each
// visited peer as its target, completes it (here at once), raises `done` and unmarks when clean. Each thread, after
// its quiet, checks that `done` covers every operation it posted before the quiet. Other threads quiet at the same
// time, so unmarks race with marks and scans.
TEST(OutstandingSet, ThreadsNeverLoseAnOperation) {
  constexpr int kPeers = 200, kThreads = 4, kRounds = 200000;
  OutstandingSet set;
  set.reset(kPeers);
  std::unique_ptr<std::atomic<uint64_t>[]> posted(new std::atomic<uint64_t>[kPeers]);
  std::unique_ptr<std::atomic<uint64_t>[]> done(new std::atomic<uint64_t>[kPeers]);
  for (int i = 0; i < kPeers; ++i) posted[i] = done[i] = 0;
  auto dirty = [&](int pe) { return posted[pe].load() != done[pe].load(); };
  auto complete = [&](int pe) {
    const uint64_t target = posted[pe].load();
    uint64_t cur = done[pe].load();
    while (cur < target && !done[pe].compare_exchange_weak(cur, target)) {
    }
    if (!dirty(pe)) set.unmark(pe, [&] { return dirty(pe); });
    return true;
  };
  std::atomic<long> lost{0}, fallbacks{0};
  std::vector<std::thread> threads;
  for (int th = 0; th < kThreads; ++th)
    threads.emplace_back([&, th] {
      std::vector<uint64_t> mine(kPeers, 0);  // the `posted` value of this thread's last op to each peer
      uint32_t x = 12345u + th;
      for (int r = 0; r < kRounds; ++r) {
        const int n = 1 + r % 3;
        for (int k = 0; k < n; ++k) {
          x = x * 1664525u + 1013904223u;
          const int pe = static_cast<int>((x >> 8) % kPeers);
          mine[pe] = posted[pe].fetch_add(1) + 1;
          set.mark(pe);
        }
        if (!set.forEach(complete)) {
          ++fallbacks;
          for (int pe = 0; pe < kPeers; ++pe) complete(pe);
        }
        for (int pe = 0; pe < kPeers; ++pe)
          if (done[pe].load() < mine[pe]) ++lost;
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(lost.load(), 0) << "a quiet returned before an operation counted before it was complete";
  for (int pe = 0; pe < kPeers; ++pe) complete(pe);
  EXPECT_TRUE(visited(set).empty()) << "peers stayed marked with nothing outstanding";
  RecordProperty("fallbacks", static_cast<int>(fallbacks.load()));
}

}  // namespace
}  // namespace gshmem::ucxt
