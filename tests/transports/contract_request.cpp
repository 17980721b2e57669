// The transport contract for a request channel (shm_channel): a transport that reaches its peers' memory through
// their server threads, and so moves no data through the Transport data path. Its requests arrive in order with
// their fields, each reply carries its own result, and chunks placed in its pipeline slots arrive byte-exact behind
// the producer's counter. Each PE plays initiator and server in turn (no thread of its own), on the same cases for
// every transport that reports kCapRequest; the others skip.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <vector>

#include "transports/contract_harness.hpp"
#include "transports/shm/shm_channel.hpp"

namespace gshmem::contract {
namespace {

constexpr int kRequests = 3;  // per (sender, target) pair: fewer than ShmChannel::kQueue, so posting never waits

uint64_t requestValue(int src, int dst, int k) { return (uint64_t(src) << 32) ^ (uint64_t(dst) << 16) ^ uint64_t(k); }

/// Polls `done` for up to 20 s; false on timeout.
template <typename Pred>
bool pollFor(Pred done) {
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; !done(); ++i)
    if (i % 1024 == 1023 && std::chrono::steady_clock::now() - start > std::chrono::seconds(20)) return false;
  return true;
}

TEST_P(TransportContract, RequestChannelCarriesRequestsAndChunks) {
  auto* ch = dynamic_cast<ShmChannel*>(&link_.transport());
  if (!link_.request || !ch) GTEST_SKIP() << GetParam() << " moves data itself: it has no request channel";
  const std::vector<int> targets = link_.targets(), sources = link_.sources();
  for (int t : targets) EXPECT_EQ(link_.caps(link_.me, t), unsigned(kCapRequest)) << "PE " << t;
  // Requests: post, serve (answer each with its value + 1), then read the replies.
  std::vector<std::vector<uint64_t>> seqs(link_.npes);
  for (int t : targets)
    for (int k = 0; k < kRequests; ++k) {
      EXPECT_TRUE(ch->room(t));  // kRequests < kQueue
      ChannelRequest r;
      r.op = uint32_t(k);
      r.off = uint64_t(link_.me);
      r.value = requestValue(link_.me, t, k);
      seqs[t].push_back(ch->post(t, r));
    }
  for (int s : sources)
    for (int k = 0; k < kRequests; ++k) {
      ChannelRequest r;
      const bool came = pollFor([&] { return ch->next(s, &r); });
      EXPECT_TRUE(came) << "request " << k << " of PE " << s << " never came";
      if (!came) break;
      EXPECT_EQ(r.op, uint32_t(k)) << "requests of PE " << s << " out of order";
      EXPECT_EQ(r.off, uint64_t(s));
      EXPECT_EQ(r.value, requestValue(s, link_.me, k));
      ch->reply(s, r.value + 1);
    }
  for (int t : targets)
    for (int k = 0; k < kRequests; ++k) {
      uint64_t result = 0;
      EXPECT_TRUE(pollFor([&] { return ch->replied(t, seqs[t][k], &result); })) << "no reply from PE " << t;
      EXPECT_EQ(result, requestValue(link_.me, t, k) + 1) << "reply " << k << " of PE " << t;
    }
  link_.syncAll();
  // The pipeline: fill every slot of this PE's channel to each target, publish; drain what the sources placed.
  const int depth = ch->depth();
  const std::size_t bytes = ch->slotBytes();
  for (int t : targets) {
    for (int c = 0; c < depth; ++c) {
      patternFill(ch->slot(t, link_.me, uint64_t(c)), bytes, requestValue(link_.me, t, c));
      ch->produced(t, link_.me).store(uint64_t(c) + 1, std::memory_order_release);
    }
  }
  for (int s : sources) {
    std::atomic<uint64_t>& produced = ch->produced(link_.me, s);
    EXPECT_TRUE(pollFor([&] { return produced.load(std::memory_order_acquire) == uint64_t(depth); }))
        << "PE " << s << " published " << produced.load() << " of " << depth << " chunks";
    for (int c = 0; c < depth; ++c)
      EXPECT_EQ(patternMismatch(ch->slot(link_.me, s, uint64_t(c)), bytes, requestValue(s, link_.me, c)), bytes)
          << "chunk " << c << " from PE " << s << ": first wrong byte";
    ch->consumed(link_.me, s).store(uint64_t(depth), std::memory_order_release);
  }
  for (int t : targets) {
    std::atomic<uint64_t>& consumed = ch->consumed(t, link_.me);
    EXPECT_TRUE(pollFor([&] { return consumed.load(std::memory_order_acquire) == uint64_t(depth); }))
        << "PE " << t << " drained " << consumed.load() << " of " << depth << " chunks";
  }
}

}  // namespace
}  // namespace gshmem::contract
