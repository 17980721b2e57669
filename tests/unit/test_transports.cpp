// Tier (a): the transport registry and the transports that need no peer process, over a one-rank bootstrap.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "transports/transport.hpp"

namespace gshmem {
namespace {

/// One rank alone on its node: every collective is a copy.
class SoloBootstrap final : public Bootstrap {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  const std::vector<int>& nodeOf() const override { return node_; }
  Status allGather(const void* in, void* out, std::size_t bytes) override {
    std::memcpy(out, in, bytes);
    return Status::Ok;
  }
  Status barrier() override { return Status::Ok; }
  Status finalize() override { return Status::Ok; }
  void leave(int) override {}
  [[noreturn]] void abortJob(int, const char*) override { std::abort(); }

 private:
  std::vector<int> node_{0};
};

/// A memfd-backed region, as the core makes the heap.
struct Region {
  LocalRegion r;
  explicit Region(std::size_t size) {
    r.fd = memfd_create("gshmem-test", MFD_CLOEXEC);
    EXPECT_GE(r.fd, 0);
    EXPECT_EQ(ftruncate(r.fd, static_cast<off_t>(size)), 0);
    r.base = static_cast<char*>(mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, r.fd, 0));
    r.size = size;
  }
  ~Region() {
    munmap(r.base, r.size);
    close(r.fd);
  }
};

TEST(TransportRegistry, ListsSelfThenShmThenUcxOnDemandThenCudaIpcAndShmChannelForDevice) {
  constexpr unsigned kHost = 1u << int(MemKind::Host), kDevice = 1u << int(MemKind::Device);
  ASSERT_EQ(kNumTransports, 5);
  EXPECT_STREQ(kTransports[0].name, "self");
  EXPECT_STREQ(kTransports[1].name, "shm");
  EXPECT_STREQ(kTransports[2].name, "ucx");
  EXPECT_STREQ(kTransports[3].name, "cuda_ipc");
  EXPECT_FALSE(kTransports[0].on_demand);
  EXPECT_FALSE(kTransports[1].on_demand);
  EXPECT_TRUE(kTransports[2].on_demand);  // connected only when some PE has a peer the others do not reach
  for (int i = 0; i < 3; ++i) EXPECT_EQ(kTransports[i].mem_kinds, kHost) << kTransports[i].name;
  EXPECT_STREQ(kTransports[4].name, "shm_channel");
  EXPECT_EQ(kTransports[3].mem_kinds, kDevice);  // the device layer connects these two, never the host init
  EXPECT_EQ(kTransports[4].mem_kinds, kDevice);
  for (int i = 0; i < kNumTransports; ++i) {
    EXPECT_NE(kTransports[i].create, nullptr) << kTransports[i].name;
    EXPECT_EQ(transportEntry(kTransports[i].name), &kTransports[i]);
  }
  EXPECT_EQ(transportEntry("verbs"), nullptr);
}

TEST(TransportRegistry, EachTransportServesTheMemoryKindsItsEntrySays) {
  TransportConfig cfg;
  for (int i = 0; i < kNumTransports; ++i) {
    std::unique_ptr<Transport> t = kTransports[i].create(cfg);
    if (!t) continue;  // not in this build (ucx without UCX, cuda_ipc without CUDA)
    EXPECT_STREQ(t->name(), kTransports[i].name);
    EXPECT_EQ(t->memKinds(), kTransports[i].mem_kinds) << kTransports[i].name;
  }
}

TEST(TransportRegistry, SelfReachesThisPeByLoadStore) {
  SoloBootstrap bs;
  Region heap(1 << 16);
  auto t = kTransports[0].create(TransportConfig{});
  ASSERT_NE(t, nullptr);
  std::vector<PeerReach> reach;
  ASSERT_EQ(t->connect(bs, {heap.r}, &reach), Status::Ok);
  ASSERT_EQ(reach.size(), 1u);
  EXPECT_EQ(reach[0].caps, unsigned(kCapLoadStore));
  EXPECT_EQ(reach[0].mapped[0], heap.r.base);
  EXPECT_EQ(reach[0].mapped[1], nullptr);  // one region given
  EXPECT_EQ(t->setAggregate(SIZE_MAX), 0u);  // batches nothing
  t->disconnect();
}

TEST(TransportRegistry, ShmMapsTheRegionsOfItsNode) {
  SoloBootstrap bs;
  Region heap(1 << 16), data(1 << 12);
  auto t = kTransports[1].create(TransportConfig{});
  ASSERT_NE(t, nullptr);
  std::vector<PeerReach> reach;
  ASSERT_EQ(t->connect(bs, {heap.r, data.r}, &reach), Status::Ok);
  ASSERT_EQ(reach.size(), 1u);
  EXPECT_TRUE(reach[0].caps & kCapLoadStore);
  ASSERT_NE(reach[0].mapped[0], nullptr);
  ASSERT_NE(reach[0].mapped[1], nullptr);
  EXPECT_EQ(reach[0].mapped[2], nullptr);  // two regions given
  reach[0].mapped[0][100] = 42;  // a store through the mapping lands in the region
  EXPECT_EQ(heap.r.base[100], 42);
  t->disconnect();
}

}  // namespace
}  // namespace gshmem
