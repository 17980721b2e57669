// The NIC-direct protocol in the selector: between nodes, device memory may go NIC-direct only where the GPU and its
// NIC share a PCIe switch (PIX, PXB), read and write ends are modelled apart, and a build without a NIC-direct
// transport never offers it at run time. The GPU-NIC classes come from hwloc XML fixtures of real server layouts.
#include <gshmem/version.h>
#include <gtest/gtest.h>

#include <string>

#include "core/select/selector.hpp"
#include "topology/fixtures.hpp"

namespace gshmem {
namespace {

Topology load(const char* name) {
  Topology t;
  EXPECT_EQ(loadFixture(name, &t), Status::Ok) << name;
  return t;
}

/// A peer on another node whose hardware is the same as ours (the usual cluster), seen from GPU @p g.
PeerPath remoteTwin(const Topology& t, int g) {
  PeerPath p{PathType::Net, false, false};
  p.nicLocal = p.nicRemote = gpuNicClass(t, g);
  return p;
}

/// What a run between nodes with device memory has: ucx for host memory, staged for device memory; nic_direct
/// as a NIC-direct transport would mark it.
SelectorConfig betweenNodes() {
  SelectorConfig c;
  c.available[static_cast<int>(ProtocolId::Ucx)] = true;
  c.available[static_cast<int>(ProtocolId::Staged)] = true;
  c.available[static_cast<int>(ProtocolId::NicDirect)] = true;
  return c;
}

bool candidate(const DecisionTable& t, MemPair m, ProtocolId id) {
  for (const BoundProtocol& b : t.candidates[static_cast<int>(m)])
    if (b.id == id) return true;
  return false;
}

TEST(NicDirect, EightGpuEightNicServerUsesTheNicBehindEachGpusSwitches) {
  SKIP_WITHOUT_HWLOC();
  Topology t = load("8gpu_8nic_pxb_nvswitch.xml");
  ASSERT_EQ(t.gpuCount(), 8);
  ASSERT_EQ(t.nicCount(), 8);
  Selector sel(betweenNodes());
  for (int g = 0; g < 8; ++g) {
    EXPECT_EQ(t.nearestNic(g), g) << "GPU " << g;
    EXPECT_EQ(gpuNicClass(t, g), PathType::Pxb) << "GPU " << g;
    PeerPath peer = remoteTwin(t, g);
    sel.addPeer(peer);
    for (MemPair m : {MemPair::HostDev, MemPair::DevHost, MemPair::DevDev})
      for (uint64_t bytes : {8ull, 64ull << 10, 64ull << 20}) {
        EXPECT_EQ(sel.choose(peer, m, Direction::Put, bytes), ProtocolId::NicDirect) << memPairName(m) << bytes;
        EXPECT_EQ(sel.choose(peer, m, Direction::Get, bytes), ProtocolId::NicDirect) << memPairName(m) << bytes;
      }
    EXPECT_EQ(sel.choose(peer, MemPair::HostHost, Direction::Put, 8), ProtocolId::Ucx);
  }
}

TEST(NicDirect, GpuAndNicOnOneSwitchArePix) {
  SKIP_WITHOUT_HWLOC();
  Topology t = load("8gpu_4switch_2socket.xml");
  Selector sel(betweenNodes());
  for (int g = 0; g < t.gpuCount(); ++g) {
    EXPECT_EQ(gpuNicClass(t, g), PathType::Pix) << "GPU " << g;
    if (g == 0) {  // every GPU of this node has the same twin: one table serves them all
      EXPECT_EQ(sel.choose(remoteTwin(t, g), MemPair::DevDev, Direction::Put, 1 << 20), ProtocolId::None)
          << "no table before addPeer";
    }
    sel.addPeer(remoteTwin(t, g));
    EXPECT_EQ(sel.choose(remoteTwin(t, g), MemPair::DevDev, Direction::Put, 1 << 20), ProtocolId::NicDirect);
  }
}

TEST(NicDirect, GpuAndNicAcrossAHostBridgeOrSocketsStayStaged) {
  SKIP_WITHOUT_HWLOC();
  Topology t = load("2gpu_2socket_pcie.xml");
  ASSERT_EQ(t.gpuCount(), 2);
  ASSERT_EQ(t.nicCount(), 1);
  EXPECT_EQ(gpuNicClass(t, 0), PathType::Phb);  // two root ports of one host bridge
  EXPECT_EQ(gpuNicClass(t, 1), PathType::Sys);  // the NIC hangs off the other socket
  Selector sel(betweenNodes());
  for (int g = 0; g < 2; ++g) {
    const DecisionTable& tab = sel.addPeer(remoteTwin(t, g));
    for (MemPair m : {MemPair::HostDev, MemPair::DevHost, MemPair::DevDev}) {
      EXPECT_FALSE(candidate(tab, m, ProtocolId::NicDirect)) << "GPU " << g << " " << memPairName(m);
      EXPECT_EQ(tab.lookup(m, Direction::Put, 1 << 20), ProtocolId::Staged);
      EXPECT_EQ(tab.lookup(m, Direction::Get, 8), ProtocolId::Staged);
    }
  }
}

TEST(NicDirect, OnlyTheDeviceEndsMustBeNearTheirNic) {
  PeerPath p{PathType::Net, false, false};
  p.nicLocal = PathType::Pix;
  p.nicRemote = PathType::Phb;
  const ProtocolDesc& nd = protocolDesc(ProtocolId::NicDirect);
  EXPECT_TRUE(nd.reaches(p, MemPair::DevHost));   // our GPU (PIX) to the peer's host memory
  EXPECT_FALSE(nd.reaches(p, MemPair::HostDev));  // the peer's GPU is behind its host bridge
  EXPECT_FALSE(nd.reaches(p, MemPair::DevDev));
  EXPECT_FALSE(nd.reaches(p, MemPair::HostHost));  // host memory is ucx's
  PeerPath sameNode{PathType::Pix, true, true};
  sameNode.nicLocal = sameNode.nicRemote = PathType::Pix;
  EXPECT_FALSE(nd.reaches(sameNode, MemPair::DevDev));  // on the node: cuda_ipc or staged
}

TEST(NicDirect, ReadsAndWritesAreModelledApart) {
  // Our GPU shares a switch with its NIC, the peer's GPU sits behind a switch hierarchy: a put reads our GPU
  // (PIX) and writes the peer's (PXB); a get reads the peer's GPU through its hierarchy, which is slower.
  PeerPath p{PathType::Net, false, false};
  p.nicLocal = PathType::Pix;
  p.nicRemote = PathType::Pxb;
  Selector sel(betweenNodes());
  BoundProtocol b = sel.model(p, MemPair::DevDev, ProtocolId::NicDirect);
  const LinkModel put = b.model[static_cast<int>(Direction::Put)].rangeFor(1 << 20).line;
  const LinkModel get = b.model[static_cast<int>(Direction::Get)].rangeFor(1 << 20).line;
  EXPECT_LE(get.bandwidth_GBps, put.bandwidth_GBps);  // both at the wire's 12 GB/s with default class bandwidths
  EXPECT_GT(get.overhead_us, put.overhead_us);
  // Host memory at the reading end: no GPU read at all, so the get from the peer's host memory is not slowed.
  BoundProtocol dh = sel.model(p, MemPair::DevHost, ProtocolId::NicDirect);
  EXPECT_GE(dh.model[static_cast<int>(Direction::Get)].rangeFor(1 << 20).line.bandwidth_GBps, put.bandwidth_GBps);
}

TEST(NicDirect, NeverAvailableWithoutATransportThatRunsIt) {
  EXPECT_FALSE(protocolDesc(ProtocolId::NicDirect).built);
  EXPECT_EQ(protocolByName("nic_direct"), ProtocolId::NicDirect);
  bool avail[kNumProtocols];
  for (bool& a : avail) a = true;
  PeerPath p{PathType::Net, false, false};
  p.nicLocal = p.nicRemote = PathType::Pix;
  std::unique_ptr<Selector> sel;
  std::string err;
  SelectParams params;
  params.path = "nic_direct";  // forcing it cannot make it run
  ASSERT_EQ(selectorCreate(params, avail, {p}, &sel, &err), Status::Ok) << err;
  const DecisionTable* t = sel->table(p);
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(candidate(*t, MemPair::DevDev, ProtocolId::NicDirect));
  EXPECT_EQ(t->lookup(MemPair::DevDev, Direction::Put, 1 << 20), ProtocolId::Staged);
  EXPECT_NE(sel->describe().find("GPU-NIC PIX/PIX"), std::string::npos) << sel->describe();
}

TEST(NicDirect, ForcedWhereItReaches) {
  SelectorConfig c = betweenNodes();
  c.forced = ProtocolId::NicDirect;
  Selector sel(c);
  PeerPath near{PathType::Net, false, false}, far{PathType::Net, false, false};
  near.nicLocal = near.nicRemote = PathType::Pxb;
  far.nicLocal = far.nicRemote = PathType::Sys;
  sel.addPeer(near);
  sel.addPeer(far);
  EXPECT_EQ(sel.choose(near, MemPair::DevDev, Direction::Get, 8), ProtocolId::NicDirect);
  EXPECT_EQ(sel.choose(far, MemPair::DevDev, Direction::Get, 8), ProtocolId::Staged);  // automatic choice kept
}

}  // namespace
}  // namespace gshmem
