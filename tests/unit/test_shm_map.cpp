// Tier (a): shmMapPeers (src/transports/shm/shm_map.hpp) between PEs played by threads of this process, over an
// in-process bootstrap: the segments travel over the Unix sockets, and a PE in another network namespace is a
// one-line error naming it.
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "transports/shm/shm_map.hpp"
#include "unit/thread_bootstrap.hpp"

namespace gshmem {
namespace {

using test_support::Rendezvous;
using test_support::ThreadBootstrap;

/// A memfd-backed region whose first byte is `tag`.
struct Region {
  LocalRegion r;
  Region(std::size_t size, char tag) {
    r.fd = memfd_create("gshmem-test", MFD_CLOEXEC);
    EXPECT_EQ(ftruncate(r.fd, static_cast<off_t>(size)), 0);
    r.base = static_cast<char*>(mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, r.fd, 0));
    r.size = size;
    r.base[0] = tag;
  }
  ~Region() {
    munmap(r.base, r.size);
    close(r.fd);
  }
};

/// What one PE saw.
struct PeResult {
  Status st = Status::Internal;
  std::string err;
  std::vector<std::vector<char*>> mapped;
  std::vector<ShmMapping> maps;
};

/// Run shmMapPeers on `n` thread PEs, each sharing a heap tagged 'A'+pe and a data region tagged 'a'+pe;
/// `before` runs first on each PE's thread.
std::vector<PeResult> runJob(int n, void (*before)(int pe) = nullptr) {
  Rendezvous rv(n);
  std::vector<PeResult> res(n);
  std::vector<std::thread> threads;
  for (int pe = 0; pe < n; ++pe)
    threads.emplace_back([&, pe] {
      if (before) before(pe);
      ThreadBootstrap bs(&rv, pe);
      Region heap(1 << 16, static_cast<char>('A' + pe)), data(4096, static_cast<char>('a' + pe));
      ShmMapSpec spec;
      spec.regions = {heap.r, data.r};
      spec.names = {"heap", "data"};
      spec.timeout_s = 10;
      PeResult& r = res[pe];
      r.st = shmMapPeers(bs, spec, &r.mapped, &r.maps, &r.err);
      if (r.st == Status::Ok) (void)bs.barrier();  // every PE has read its peers before their regions go
    });
  for (auto& t : threads) t.join();
  return res;
}

TEST(ShmMap, EveryPeMapsEveryOtherPesRegions) {
  std::vector<PeResult> res = runJob(3);
  for (int pe = 0; pe < 3; ++pe) {
    PeResult& r = res[pe];
    ASSERT_EQ(r.st, Status::Ok) << "PE " << pe << ": " << r.err;
    ASSERT_EQ(r.mapped.size(), 3u);
    EXPECT_EQ(r.maps.size(), 4u);  // two regions of each of the two peers
    for (int peer = 0; peer < 3; ++peer) {
      ASSERT_EQ(r.mapped[peer].size(), 2u);
      ASSERT_NE(r.mapped[peer][0], nullptr);
      ASSERT_NE(r.mapped[peer][1], nullptr);
      if (peer == pe) continue;  // its own regions are unmapped by now
      EXPECT_EQ(r.mapped[peer][0][0], 'A' + peer) << "PE " << pe << " reads PE " << peer << "'s heap";
      EXPECT_EQ(r.mapped[peer][1][0], 'a' + peer) << "PE " << pe << " reads PE " << peer << "'s data";
    }
    for (auto& m : r.maps) munmap(m.first, m.second);
  }
}

TEST(ShmMap, APeInAnotherNetworkNamespaceIsNamed) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give a thread its own network namespace";
  std::vector<PeResult> res = runJob(2, [](int pe) {
    if (pe == 1) {
      EXPECT_EQ(unshare(CLONE_NEWNET), 0) << strerror(errno);  // this thread only
    }
  });
  for (int pe = 0; pe < 2; ++pe) {
    const int other = 1 - pe;
    EXPECT_EQ(res[pe].st, Status::Unsupported);
    const std::string want = "cannot receive PE " + std::to_string(other) +
                             "'s heap and data segments over the Unix socket @gshmem-";
    EXPECT_NE(res[pe].err.find(want), std::string::npos) << res[pe].err;
    EXPECT_NE(res[pe].err.find("runs on this node in another network namespace"), std::string::npos) << res[pe].err;
    EXPECT_NE(res[pe].err.find("GSHMEM_TRANSPORTS=ucx"), std::string::npos) << res[pe].err;
    for (auto& m : res[pe].maps) munmap(m.first, m.second);
  }
}

TEST(ShmMap, TheShmTransportGivesTheLineForTheApiEdge) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give a thread its own network namespace";
  Rendezvous rv(2);
  std::string why[2];
  std::vector<std::thread> threads;
  for (int pe = 0; pe < 2; ++pe)
    threads.emplace_back([&, pe] {
      if (pe == 1) {
        EXPECT_EQ(unshare(CLONE_NEWNET), 0) << strerror(errno);  // and take part all the same
      }
      ThreadBootstrap bs(&rv, pe);
      Region heap(4096, 'H'), data(4096, 'D');
      TransportConfig cfg;
      cfg.timeout_s = 10;
      auto t = shmTransportCreate(cfg);
      std::vector<PeerReach> reach;
      if (isError(t->connect(bs, {heap.r, data.r}, &reach))) why[pe] = t->lastError();
    });
  for (auto& t : threads) t.join();
  EXPECT_NE(why[0].find("cannot receive PE 1's heap and data segments over the Unix socket @gshmem-"),
            std::string::npos) << why[0];
  EXPECT_NE(why[1].find("cannot receive PE 0's heap and data segments"), std::string::npos) << why[1];
}

TEST(ShmMap, RegionsNotSharedAreNotMapped) {
  Rendezvous rv(2);
  std::vector<PeResult> res(2);
  std::vector<std::thread> threads;
  for (int pe = 0; pe < 2; ++pe)
    threads.emplace_back([&, pe] {
      ThreadBootstrap bs(&rv, pe);
      Region heap(4096, 'H');
      LocalRegion unshared{nullptr, 0, -1, MemKind::Host};  // e.g. no data segment on this PE
      ShmMapSpec spec;
      spec.regions = {heap.r, unshared};
      spec.timeout_s = 10;
      PeResult& r = res[pe];
      r.st = shmMapPeers(bs, spec, &r.mapped, &r.maps, &r.err);
      (void)bs.barrier();
    });
  for (auto& t : threads) t.join();
  for (int pe = 0; pe < 2; ++pe) {
    ASSERT_EQ(res[pe].st, Status::Ok) << res[pe].err;
    EXPECT_NE(res[pe].mapped[1 - pe][0], nullptr);
    EXPECT_EQ(res[pe].mapped[1 - pe][1], nullptr);
    EXPECT_EQ(res[pe].maps.size(), 1u);
    for (auto& m : res[pe].maps) munmap(m.first, m.second);
  }
}

}  // namespace
}  // namespace gshmem
