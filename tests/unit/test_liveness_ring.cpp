// Ring watching of the heartbeats between nodes (core/sync/liveness_net.hpp): each PE watches its two ring
// successors and beats to its two predecessors, whatever N; every failure pattern leaves some live PE watching a
// dead one; the state in the count word only grows; and N PEs in one process (one thread each, an in-process
// bootstrap, UDP on this host) each send and receive at most two datagrams per tick and address, hear exactly their
// successors, and hear a successor's finalize.
#include <gtest/gtest.h>

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "base/bootstrap.hpp"
#include "core/sync/liveness_net.hpp"

namespace {

using namespace gshmem;
using namespace gshmem::liveness;

TEST(LivenessRing, NeighboursOfSmallAndLargeJobs) {
  int out[kRingPeers];
  EXPECT_EQ(ringPeers(0, 1, +1, out), 0);
  ASSERT_EQ(ringPeers(0, 2, +1, out), 1);
  EXPECT_EQ(out[0], 1);
  ASSERT_EQ(ringPeers(1, 2, -1, out), 1);
  EXPECT_EQ(out[0], 0);
  ASSERT_EQ(ringPeers(2, 3, +1, out), 2);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 1);
  ASSERT_EQ(ringPeers(0, 1024, -1, out), 2);
  EXPECT_EQ(out[0], 1023);
  EXPECT_EQ(out[1], 1022);
  // Predecessors mirror successors: q watches p exactly when p beats to q.
  for (int n = 1; n <= 9; ++n)
    for (int p = 0; p < n; ++p) {
      int succ[kRingPeers];
      const int k = ringPeers(p, n, +1, succ);
      EXPECT_LE(k, kRingPeers);
      for (int i = 0; i < k; ++i) {
        EXPECT_NE(succ[i], p);
        int pred[kRingPeers];
        const int m = ringPeers(succ[i], n, -1, pred);
        bool found = false;
        for (int j = 0; j < m; ++j) found = found || pred[j] == p;
        EXPECT_TRUE(found) << "n " << n << " pe " << p << " successor " << succ[i];
      }
    }
}

TEST(LivenessRing, EveryFailureIsWatchedBySomeLivePe) {
  for (int n = 2; n <= 12; ++n)
    for (unsigned dead = 1; dead + 1 < (1u << n); ++dead) {  // every set with someone dead and someone alive
      bool seen = false;
      for (int p = 0; p < n && !seen; ++p) {
        if (dead >> p & 1) continue;
        int succ[kRingPeers];
        const int k = ringPeers(p, n, +1, succ);
        for (int i = 0; i < k; ++i) seen = seen || (dead >> succ[i] & 1);
      }
      ASSERT_TRUE(seen) << "n " << n << " dead set " << dead;
    }
}

TEST(LivenessRing, CountWordCarriesTheState) {
  const uint64_t run = beatWord(123456, kWireRunning);
  EXPECT_EQ(wireState(run), kWireRunning);
  EXPECT_EQ(run & kWireCountMask, 123456u);
  EXPECT_GT(beatWord(123457, kWireRunning), run);
  // Leaving outranks any running count: the watcher keeps the largest word.
  EXPECT_GT(beatWord(1, kWireFinalized), beatWord(kWireCountMask, kWireRunning));
  EXPECT_GT(beatWord(1, kWireExited), beatWord(kWireCountMask, kWireFinalized));
  EXPECT_EQ(wireState(beatWord(7, kWireExited)), kWireExited);
}

/// N ranks as threads of this process.
class ThreadJob {
 public:
  explicit ThreadJob(int n) : n_(n), slots_(n), nodes_(n, 0) {
    for (int pe = 0; pe < n; ++pe) nodes_[pe] = pe;  // every PE its own node: every neighbour over UDP
  }
  void wait() {
    std::unique_lock<std::mutex> lk(mu_);
    const unsigned long gen = gen_;
    if (++arrived_ == n_) {
      arrived_ = 0;
      ++gen_;
      cv_.notify_all();
    } else {
      cv_.wait(lk, [&] { return gen_ != gen; });
    }
  }
  int n_;
  std::vector<std::vector<char>> slots_;
  std::vector<int> nodes_;

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int arrived_ = 0;
  unsigned long gen_ = 0;
};

class ThreadBootstrap : public Bootstrap {
 public:
  ThreadBootstrap(ThreadJob* job, int rank) : job_(job), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return job_->n_; }
  const std::vector<int>& nodeOf() const override { return job_->nodes_; }
  Status allGather(const void* in, void* out, std::size_t bytes) override {
    job_->slots_[rank_].assign(static_cast<const char*>(in), static_cast<const char*>(in) + bytes);
    job_->wait();
    for (int pe = 0; pe < job_->n_; ++pe)
      std::memcpy(static_cast<char*>(out) + pe * bytes, job_->slots_[pe].data(), bytes);
    job_->wait();
    return Status::Ok;
  }
  Status barrier() override {
    job_->wait();
    return Status::Ok;
  }
  Status finalize() override { return Status::Ok; }
  void leave(int) override {}
  [[noreturn]] void abortJob(int, const char*) override { std::abort(); }

 private:
  ThreadJob* job_;
  int rank_;
};

TEST(LivenessRing, TwoDatagramsPerTickWhateverN) {
  constexpr int kN = 16, kTicks = 20;
  ThreadJob job(kN);
  std::vector<NetBeats> beats(kN);
  std::vector<std::thread> threads;
  std::vector<int> failures(kN, 0);
  for (int pe = 0; pe < kN; ++pe)
    threads.emplace_back([&, pe] {
      ThreadBootstrap bs(&job, pe);
      NetBeats& nb = beats[pe];
      int& bad = failures[pe];
      if (isError(nb.setup(bs, true, 0)) || !nb.active()) ++bad;
      if (isError(nb.greet(bs, beatWord(1, kWireRunning)))) ++bad;
      (void)bs.barrier();
      nb.receive();  // late greetings
      (void)bs.barrier();
      const uint64_t greet_sent = nb.sentCount(), greet_received = nb.receivedCount();
      for (int t = 2; t < 2 + kTicks; ++t) {
        nb.send(beatWord(t, kWireRunning));
        (void)bs.barrier();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        nb.receive();
        (void)bs.barrier();
      }
      // Two successors and two predecessors on other "nodes": two datagrams each way per tick (per address).
      const uint64_t sent = nb.sentCount() - greet_sent, received = nb.receivedCount() - greet_received;
      if (sent == 0 || sent % (2 * kTicks) != 0 || sent > 2u * kTicks * kMaxBeatAddrs) ++bad;
      if (received > sent) ++bad;  // what the predecessors of the successors sent here: as much as this PE sends
      if (nb.watchedCount() != 2) ++bad;
      for (int i = 0; i < nb.watchedCount(); ++i) {
        const NetBeats::Peer& p = nb.watched(i);
        if (p.pe != (pe + 1 + i) % kN || !p.seen || p.word != beatWord(1 + kTicks, kWireRunning)) ++bad;
      }
      // The last word: finalized, heard as such by the watchers.
      nb.send(beatWord(2 + kTicks, kWireFinalized), 3);
      (void)bs.barrier();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      nb.receive();
      for (int i = 0; i < nb.watchedCount(); ++i)
        if (wireState(nb.watched(i).word) != kWireFinalized) ++bad;
    });
  for (auto& t : threads) t.join();
  for (int pe = 0; pe < kN; ++pe) EXPECT_EQ(failures[pe], 0) << "PE " << pe;
}

}  // namespace
