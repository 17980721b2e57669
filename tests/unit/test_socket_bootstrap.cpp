// Tier (a): the socket bootstrap (src/base/socket_bootstrap.cpp) with its PEs played by threads of this process:
// the rendezvous of a unique id, ring allgathers of small and large blocks, barriers, node ids, finalize; and the
// refusals that must come back as one line, not a hang (an id never made, a rank out of range, a rank that never
// checks in, a foreign nonce) and strangers at the rendezvous port, which are dropped.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/bootstrap.hpp"
#include "base/rendezvous.hpp"
#include "base/socket.hpp"

namespace gshmem {
namespace {

struct Made {
  unsigned char id[128];
};

Made makeId(long timeout_s) {
  Made m{};
  std::string err;
  EXPECT_EQ(uniqueIdMake(timeout_s, "", m.id, sizeof m.id, &err), Status::Ok) << err;
  return m;
}

/// Run `body` as PEs 0..started-1 of `n` over one id; each PE's create status and error line come back.
template <class Body>
void runPes(int started, int n, const Made& m, long timeout_s, Body body) {
  std::vector<std::thread> th;
  for (int r = 0; r < started; ++r)
    th.emplace_back([&, r] {
      SocketBootstrapArgs a;
      a.rank = r;
      a.nranks = n;
      a.timeout_s = timeout_s;
      std::unique_ptr<Bootstrap> bs;
      std::string err;
      const Status s = socketBootstrapCreate(m.id, sizeof m.id, a, &bs, &err);
      body(r, s, bs.get(), err);
      if (bs) {
        EXPECT_EQ(bs->finalize(), Status::Ok);
      }
    });
  for (auto& t : th) t.join();
}

class SocketBootstrapRing : public ::testing::TestWithParam<int> {};

TEST_P(SocketBootstrapRing, AllGatherBarrierNodes) {
  const int n = GetParam();
  runPes(n, n, makeId(10), 10, [n](int r, Status s, Bootstrap* bs, const std::string& err) {
    ASSERT_EQ(s, Status::Ok) << err;
    EXPECT_EQ(bs->rank(), r);
    EXPECT_EQ(bs->size(), n);
    ASSERT_EQ(bs->nodeOf().size(), std::size_t(n));
    for (int node : bs->nodeOf()) EXPECT_EQ(node, 0);  // one host
    for (int round = 0; round < 3; ++round) {
      const int mine = r * 100 + round;
      std::vector<int> all(n, -1);
      ASSERT_EQ(bs->allGather(&mine, all.data(), sizeof mine), Status::Ok);
      for (int q = 0; q < n; ++q) EXPECT_EQ(all[q], q * 100 + round);
      ASSERT_EQ(bs->barrier(), Status::Ok);
    }
    std::vector<char> big(256 << 10, char('a' + r)), bigall(big.size() * n);  // frames larger than socket buffers
    ASSERT_EQ(bs->allGather(big.data(), bigall.data(), big.size()), Status::Ok);
    for (int q = 0; q < n; ++q) EXPECT_EQ(bigall[std::size_t(q) * big.size() + 7], char('a' + q));
  });
}
INSTANTIATE_TEST_SUITE_P(Sizes, SocketBootstrapRing, ::testing::Values(1, 2, 3, 5));

TEST(SocketBootstrap, IdNeverMade) {
  unsigned char zero[128] = {};
  SocketBootstrapArgs a;
  a.rank = 0;
  a.nranks = 1;
  std::unique_ptr<Bootstrap> bs;
  std::string err;
  EXPECT_EQ(socketBootstrapCreate(zero, sizeof zero, a, &bs, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("not made by nvshmemx_get_uniqueid"), std::string::npos) << err;
}

TEST(SocketBootstrap, IdBufferTooSmall) {
  unsigned char small[16];
  std::string err;
  EXPECT_EQ(uniqueIdMake(5, "", small, sizeof small, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("nvshmemx_uniqueid_t"), std::string::npos) << err;
}

TEST(SocketBootstrap, RankOutOfRange) {
  const Made m = makeId(5);
  SocketBootstrapArgs a;
  a.rank = 2;
  a.nranks = 2;
  std::unique_ptr<Bootstrap> bs;
  std::string err;
  EXPECT_EQ(socketBootstrapCreate(m.id, sizeof m.id, a, &bs, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("rank 2 of 2 is out of range"), std::string::npos) << err;
}

TEST(SocketBootstrap, MissingRankNamedAfterTimeout) {
  runPes(1, 2, makeId(1), 1, [](int r, Status s, Bootstrap*, const std::string& err) {
    (void)r;
    EXPECT_TRUE(isError(s));
    EXPECT_NE(err.find("rank(s) 1 of 2 never checked in"), std::string::npos) << err;
  });
}

TEST(SocketBootstrap, ForeignNonceTurnedAway) {
  Made m = makeId(1);
  m.id[8] ^= 1;  // the nonce follows the magic and the version
  runPes(1, 1, m, 1, [](int, Status s, Bootstrap*, const std::string& err) {
    EXPECT_TRUE(isError(s));
    EXPECT_NE(err.find("names another job"), std::string::npos) << err;
  });
}

/// Connect to @p to and send @p n bytes of @p fill (n == 0: connect and close at once).
void stranger(const SockAddr& to, std::size_t n, unsigned char fill) {
  UniqueFd c;
  std::string err;
  ASSERT_EQ(socketConnect(to, Deadline::afterMs(5000), &c, &err), Status::Ok) << err;
  std::vector<unsigned char> junk(n, fill);
  if (n) {
    EXPECT_EQ(sendAll(c.get(), junk.data(), n, Deadline::afterMs(5000)), Status::Ok);
  }
}

// Strangers at the rendezvous port (junk, a closed connection, a check-in-sized block with no secret) are dropped
// without starting the job's clock: the job made afterwards, past its GSHMEM_TIMEOUT, still forms and works.
TEST(SocketBootstrap, StrangersAtRendezvousDropped) {
  const Made m = makeId(1);
  UniqueIdInfo info;
  std::string err;
  ASSERT_EQ(uniqueIdRead(m.id, sizeof m.id, &info, &err), Status::Ok) << err;
  stranger(info.root, 0, 0);
  stranger(info.root, 3, 0xff);
  stranger(info.root, 512, 0x47);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // longer than the id's timeout
  runPes(3, 3, m, 5, [](int, Status s, Bootstrap* bs, const std::string& e) {
    ASSERT_EQ(s, Status::Ok) << e;
    int mine = bs->rank(), all[3] = {};
    ASSERT_EQ(bs->allGather(&mine, all, sizeof mine), Status::Ok);
    for (int r = 0; r < 3; ++r) EXPECT_EQ(all[r], r);
  });
}

// A process holding a copy of the id with another secret is turned away by the root; the job with the right id
// forms all the same.
TEST(SocketBootstrap, WrongSecretDroppedJobCompletes) {
  const Made m = makeId(5);
  Made wrong = m;
  wrong.id[8] ^= 0x5a;  // the secret follows the magic and the version
  runPes(1, 2, wrong, 5, [](int, Status s, Bootstrap*, const std::string& e) {
    EXPECT_TRUE(isError(s));
    EXPECT_NE(e.find("names another job"), std::string::npos) << e;
  });
  runPes(2, 2, m, 5, [](int, Status s, Bootstrap* bs, const std::string& e) {
    ASSERT_EQ(s, Status::Ok) << e;
    EXPECT_EQ(bs->barrier(), Status::Ok);
  });
}

TEST(SocketBootstrap, InterfaceChoiceNamesWhatItSaw) {
  SockAddr a;
  std::string err;
  EXPECT_EQ(localAddressChoose("no-such-if", &a, &err), Status::Unsupported);
  EXPECT_NE(err.find("GSHMEM_BOOTSTRAP_IFNAME=no-such-if"), std::string::npos) << err;
  EXPECT_EQ(localAddressChoose("lo", &a, &err), Status::Ok);
  EXPECT_TRUE(a.loopback()) << a.str();
  EXPECT_EQ(localAddressChoose("", &a, &err), Status::Ok) << err;
}

}  // namespace
}  // namespace gshmem
