// Tier (a): the shm request channel (src/transports/shm/shm_channel.hpp) between two PEs played by threads of this
// process: a sender may have kQueue requests posted and unanswered, the server takes them in order, and each reply
// carries its own result.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "transports/shm/shm_channel.hpp"
#include "unit/thread_bootstrap.hpp"

namespace gshmem {
namespace {

using test_support::Rendezvous;
using test_support::ThreadBootstrap;

constexpr uint64_t kQ = ShmChannel::kQueue;

/// Connect a channel on each of two thread PEs, run body(pe, channel, bootstrap) on each, then disconnect.
template <class Body>
void runPair(Body body) {
  Rendezvous rv(2);
  std::vector<std::thread> threads;
  for (int pe = 0; pe < 2; ++pe)
    threads.emplace_back([&, pe] {
      ThreadBootstrap bs(&rv, pe);
      TransportConfig cfg;
      cfg.channel_slot_bytes = 4096;
      cfg.timeout_s = 10;
      ShmChannel ch(cfg);
      std::vector<PeerReach> reach;
      ASSERT_EQ(ch.connect(bs, {}, &reach), Status::Ok) << "PE " << pe;
      ASSERT_EQ(reach.size(), 2u);
      EXPECT_EQ(reach[1 - pe].capsFor(MemKind::Device), unsigned(kCapRequest)) << "the other PE's device memory";
      EXPECT_EQ(reach[1 - pe].capsFor(MemKind::Host), 0u);
      EXPECT_EQ(reach[pe].capsFor(MemKind::Device), 0u) << "this PE";
      body(pe, ch, bs);
      (void)bs.barrier();  // neither PE still touches the other's segment
      ch.disconnect();
    });
  for (auto& t : threads) t.join();
}

TEST(ShmChannel, ASenderQueuesUpToKQueueRequestsAndEachReplyCarriesItsResult) {
  runPair([](int pe, ShmChannel& ch, Bootstrap& bs) {
    if (pe == 0) {
      ASSERT_TRUE(ch.reaches(1));
      std::vector<uint64_t> seq;
      for (uint64_t i = 0; i < kQ; ++i) {  // no reply yet: every post finds room
        ASSERT_TRUE(ch.room(1)) << "request " << i;
        ChannelRequest r;
        r.op = 7;
        r.value = 100 + i;
        seq.push_back(ch.post(1, r));
      }
      EXPECT_FALSE(ch.room(1)) << "a full queue has no room";
      (void)bs.barrier();  // the server may start now
      uint64_t result = 0;
      while (!ch.replied(1, seq.back(), &result)) std::this_thread::yield();
      EXPECT_EQ(result, 2 * (100 + kQ - 1));
      for (uint64_t i = 0; i < kQ; ++i) {  // answered in order: every earlier one is answered too
        ASSERT_TRUE(ch.replied(1, seq[i], &result)) << "request " << i;
        EXPECT_EQ(result, 2 * (100 + i)) << "request " << i << " carries its own result";
      }
      EXPECT_TRUE(ch.room(1));
    } else {
      (void)bs.barrier();  // every request is queued before the first is served
      for (uint64_t i = 0; i < kQ; ++i) {
        ChannelRequest r;
        while (!ch.next(0, &r)) std::this_thread::yield();
        EXPECT_EQ(r.op, 7u);
        EXPECT_EQ(r.value, 100 + i) << "requests are served in the order they were posted";
        ch.reply(0, 2 * r.value);
      }
      ChannelRequest extra;
      EXPECT_FALSE(ch.next(0, &extra)) << "nothing more was posted";
    }
  });
}

TEST(ShmChannel, RequestsKeepFlowingPastTheQueueLength) {
  constexpr uint64_t kTotal = 5 * kQ + 3;  // wraps the queue several times
  runPair([](int pe, ShmChannel& ch, Bootstrap&) {
    if (pe == 0) {
      uint64_t posted = 0, checked = 0, result = 0;
      std::vector<uint64_t> seq(kTotal);
      while (checked < kTotal) {
        // A result stays readable until kQueue further requests were posted: read each before that.
        if (posted < kTotal && posted - checked < kQ && ch.room(1)) {
          ChannelRequest r;
          r.value = posted;
          seq[posted++] = ch.post(1, r);
        } else if (checked < posted && ch.replied(1, seq[checked], &result)) {
          EXPECT_EQ(result, checked + 1000) << "request " << checked;
          ++checked;
        } else {
          std::this_thread::yield();
        }
      }
    } else {
      for (uint64_t i = 0; i < kTotal; ++i) {
        ChannelRequest r;
        while (!ch.next(0, &r)) std::this_thread::yield();
        EXPECT_EQ(r.value, i);
        ch.reply(0, r.value + 1000);
      }
    }
  });
}

}  // namespace
}  // namespace gshmem
