// UCX: quiet visits only the peers with outstanding operations, and completes every operation posted before it,
// also when several threads post and quiet at once (SHMEM_THREAD_MULTIPLE). Built into the contract binary (its
// harness and main), run by ctest as transport_contract.ucx_outstanding.np4 with --gtest_filter=UcxOutstanding.*.
#include <cstring>
#include <thread>
#include <vector>

#include "transports/contract_harness.hpp"
#include "transports/ucx/ucx_internal.hpp"

namespace gshmem::contract {
namespace {

/// The UCX transport behind a link, or nullptr (another transport, or this build has no UCX).
ucxt::UcxTransport* ucxOf(Link& L) { return dynamic_cast<ucxt::UcxTransport*>(&L.transport()); }

/// Opens ucx at `level` on every PE; false (the caller skips) where this build has no UCX.
bool openUcx(Link& L, int level) {
  const Status s = L.open("ucx", level);
  if (s == Status::Unsupported) return false;
  EXPECT_EQ(s, Status::Ok) << L.error;
  return s == Status::Ok;
}

// One dirty peer out of many: a quiet after a put to one peer visits that peer only (small puts batched and large
// ones by RMA), a quiet with nothing outstanding visits none, and the data is there after the quiet.
TEST(UcxOutstanding, QuietVisitsOnlyTheDirtyPeer) {
  Link L;
  if (!openUcx(L, 0)) GTEST_SKIP() << "no ucx in this build";
  ucxt::UcxTransport* t = ucxOf(L);
  ASSERT_NE(t, nullptr);
  const int to = (L.me + 1) % L.npes;
  for (std::size_t n : {std::size_t(8), std::size_t(64) << 10}) {
    std::memset(L.local(0), 0, std::size_t(L.npes) * 16 + n);
    L.syncAll();
    EXPECT_EQ(L.quiet(), Status::Ok);
    uint64_t v0 = t->quietVisits();
    EXPECT_EQ(L.quiet(), Status::Ok);
    EXPECT_EQ(t->quietVisits() - v0, 0u) << "a quiet with nothing outstanding visited a peer";
    std::vector<char> src(n, char(0x40 + L.me));
    EXPECT_EQ(L.put(to, 0, std::size_t(L.me) * 16, src.data(), n), Status::Ok);
    v0 = t->quietVisits();
    EXPECT_EQ(L.quiet(), Status::Ok);
    EXPECT_EQ(t->quietVisits() - v0, 1u) << "a quiet after a " << n << "-byte put to one peer of " << L.npes;
    v0 = t->quietVisits();
    EXPECT_EQ(L.quiet(), Status::Ok);
    EXPECT_EQ(t->quietVisits() - v0, 0u) << "the peer stayed outstanding after its quiet";
    L.syncAll();
    const int from = (L.me + L.npes - 1) % L.npes;
    const char* at = L.local(0) + std::size_t(from) * 16;
    EXPECT_EQ(byteMismatch(at, n, static_cast<unsigned char>(0x40 + from)), n) << n << " bytes from PE " << from;
    L.syncAll();
  }
  L.close();
}

// Several threads put to every peer and quiet, each then reads back what it put: the quiet of each thread
// completed that thread's puts, whatever the other threads' quiets took out of the outstanding set meanwhile.
TEST(UcxOutstanding, ThreadsPutAndQuietToSeveralPeers) {
  Link L;
  if (!openUcx(L, 3)) GTEST_SKIP() << "no ucx in this build";
  constexpr int kThreads = 3, kRounds = 30;
  std::memset(L.local(0), 0, std::size_t(L.npes) * kThreads * 8);
  L.syncAll();
  std::vector<int> peers;
  for (int pe = 0; pe < L.npes; ++pe)
    if (pe != L.me) peers.push_back(pe);
  std::vector<std::thread> threads;
  std::vector<int> wrong(kThreads, 0);
  for (int th = 0; th < kThreads; ++th)
    threads.emplace_back([&, th] {
      // This thread's word in each peer: slot (me, th).
      const std::size_t off = (std::size_t(L.me) * kThreads + th) * 8;
      for (uint64_t r = 1; r <= kRounds; ++r) {
        const uint64_t v = (uint64_t(L.me) << 48) | (uint64_t(th) << 32) | r;
        // Each round a different subset of peers: all of them, or one.
        const bool all = r % 3 != 0;
        const int one = peers[r % peers.size()];
        for (int pe : peers)
          if (all || pe == one) (void)L.put(pe, 0, off, &v, sizeof v);
        if (L.quiet() != Status::Ok) ++wrong[th];
        for (int pe : peers) {
          if (!all && pe != one) continue;
          uint64_t got = 0;
          if (L.get(pe, 0, off, &got, sizeof got, false) != Status::Ok || got != v) ++wrong[th];
        }
      }
    });
  for (auto& th : threads) th.join();
  for (int th = 0; th < kThreads; ++th) EXPECT_EQ(wrong[th], 0) << "thread " << th << ": puts not complete after quiet";
  L.syncAll();
  L.close();
}

}  // namespace
}  // namespace gshmem::contract
