// Tier (a): the topology model (src/base/topology/topology.hpp), from hand-built trees and from hwloc XML fixtures.
#include <gshmem/version.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "base/topology/topology.hpp"
#include "topology/fixtures.hpp"

namespace gshmem {
namespace {

using Ints = std::vector<int>;

/// gtest-only substring check (no gmock dependency); prints the whole text on failure.
::testing::AssertionResult hasSubstr(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "missing:\n" << part << "\nin:\n" << text;
}

// ---------------------------------------------------------------- helpers and names

TEST(TopologyNames, PathNames) {
  EXPECT_STREQ(pathName(PathType::Self), "SELF");
  EXPECT_STREQ(pathName(PathType::NvLink), "NVL");
  EXPECT_STREQ(pathName(PathType::Pix), "PIX");
  EXPECT_STREQ(pathName(PathType::Pxb), "PXB");
  EXPECT_STREQ(pathName(PathType::Phb), "PHB");
  EXPECT_STREQ(pathName(PathType::Node), "NODE");
  EXPECT_STREQ(pathName(PathType::Sys), "SYS");
  EXPECT_STREQ(pathName(PathType::Net), "NET");
  EXPECT_LT(PathType::NvLink, PathType::Pix);  // the order is "closer first"
  EXPECT_LT(PathType::Node, PathType::Sys);
}

TEST(TopologyNames, BusIdNormalize) {
  EXPECT_EQ(pciBusIdNormalize("0000:07:00.0"), "0000:07:00.0");
  EXPECT_EQ(pciBusIdNormalize("00000000:AF:00.1"), "0000:af:00.1");  // NVML spelling
  EXPECT_EQ(pciBusIdNormalize("3b:00.0"), "0000:3b:00.0");
  EXPECT_EQ(pciBusIdNormalize("0000:07:00"), "");
  EXPECT_EQ(pciBusIdNormalize("0000:07:00.0x"), "");
  EXPECT_EQ(pciBusIdNormalize("0000:100:00.0"), "");
  EXPECT_EQ(pciBusIdNormalize(""), "");
  EXPECT_EQ(pciBusIdNormalize("0000:07:20.0"), "");  // device > 0x1f
  EXPECT_EQ(pciBusIdNormalize("0000:07:00.8"), "");  // function > 7
  EXPECT_EQ(pciBusIdNormalize("0:0:07:00.0"), "");
  EXPECT_EQ(pciBusIdNormalize("07.00.0"), "");
}

// ---------------------------------------------------------------- builder: classification rules

/// Two CPU domains; domain 0 has two host bridges.
struct Tree {
  TopologyBuilder b;
  int cpu0 = b.addCpu({0}, 0, {0, 1, 2, 3});
  int cpu1 = b.addCpu({1}, 1, {4, 5, 6, 7});
  int hb0 = b.addHostBridge(cpu0);
  int hb1 = b.addHostBridge(cpu0);
  int hb2 = b.addHostBridge(cpu1);
};

TEST(TopologyBuilder, ClassifiesEveryLevel) {
  Tree t;
  int sw = t.b.addPciSwitch(t.hb0, "0000:01:00.0", 0);
  int inner = t.b.addPciSwitch(sw, "0000:03:00.0", 0);
  ASSERT_GE(t.b.addGpu(sw, "0000:02:00.0", 0), 0);     // GPU0: on the outer switch
  ASSERT_GE(t.b.addGpu(sw, "0000:02:01.0", 0), 0);     // GPU1: same switch        -> PIX
  ASSERT_GE(t.b.addGpu(inner, "0000:04:00.0", 0), 0);  // GPU2: nested switch      -> PXB
  ASSERT_GE(t.b.addGpu(t.hb0, "0000:05:00.0", 0), 0);  // GPU3: on the host bridge -> PHB
  ASSERT_GE(t.b.addGpu(t.hb1, "0000:40:00.0", 0), 0);  // GPU4: other host bridge  -> NODE
  ASSERT_GE(t.b.addGpu(t.hb2, "0000:80:00.0", 0), 0);  // GPU5: other socket       -> SYS
  Topology topo;
  ASSERT_EQ(t.b.build(&topo), Status::Ok);
  ASSERT_EQ(topo.gpuCount(), 6);
  EXPECT_EQ(topo.gpuPath(0, 0).type, PathType::Self);
  EXPECT_EQ(topo.gpuPath(0, 1).type, PathType::Pix);
  EXPECT_EQ(topo.gpuPath(0, 2).type, PathType::Pxb);
  EXPECT_EQ(topo.gpuPath(2, 0).type, PathType::Pxb);
  EXPECT_EQ(topo.gpuPath(0, 3).type, PathType::Phb);
  EXPECT_EQ(topo.gpuPath(2, 3).type, PathType::Phb);
  EXPECT_EQ(topo.gpuPath(0, 4).type, PathType::Node);
  EXPECT_EQ(topo.gpuPath(0, 5).type, PathType::Sys);
  EXPECT_EQ(topo.gpuPath(4, 5).type, PathType::Sys);
  // No link speed anywhere: the documented class defaults.
  EXPECT_DOUBLE_EQ(topo.gpuPath(0, 1).gbps, pathDefaultBandwidth(PathType::Pix));
  EXPECT_DOUBLE_EQ(topo.gpuPath(0, 4).gbps, pathDefaultBandwidth(PathType::Node));
  EXPECT_DOUBLE_EQ(topo.gpuPath(0, 5).gbps, pathDefaultBandwidth(PathType::Sys));
  EXPECT_EQ(topo.nearestNic(0), -1);
  ASSERT_NE(topo.gpuCpu(5), nullptr);
  EXPECT_EQ(topo.gpuCpu(5)->numaNodes, Ints({1}));
  EXPECT_EQ(topo.gpuCpu(0)->cpus, Ints({0, 1, 2, 3}));
}

TEST(TopologyBuilder, BandwidthFromLinkSpeeds) {
  Tree t;
  int sw = t.b.addPciSwitch(t.hb0, "0000:01:00.0", 31.5);
  ASSERT_GE(t.b.addGpu(sw, "0000:02:00.0", 31.5), 0);
  ASSERT_GE(t.b.addGpu(sw, "0000:03:00.0", 15.75), 0);    // slower link bounds the pair
  ASSERT_GE(t.b.addGpu(t.hb2, "0000:80:00.0", 63.0), 0);  // SYS: capped whatever the links
  ASSERT_GE(t.b.addGpu(t.hb1, "0000:40:00.0", 0), 0);     // unknown link: class default bounds the pair
  Topology topo;
  ASSERT_EQ(t.b.build(&topo), Status::Ok);
  // GPU indices follow bus ids: 02, 03, 40, 80.
  EXPECT_DOUBLE_EQ(topo.gpuPath(0, 1).gbps, 15.75);
  EXPECT_DOUBLE_EQ(topo.gpuPath(0, 3).gbps, kSysBandwidthCapGBps);
  EXPECT_DOUBLE_EQ(topo.gpuPath(1, 3).gbps, 15.75);
  EXPECT_DOUBLE_EQ(topo.gpuPath(0, 2).gbps, pathDefaultBandwidth(PathType::Node));
  EXPECT_DOUBLE_EQ(topo.gpuPath(2, 3).gbps, pathDefaultBandwidth(PathType::Sys));  // an unknown link: class default
}

TEST(TopologyBuilder, GpusFollowBusOrderWhateverTheInsertionOrder) {
  Tree t;
  ASSERT_GE(t.b.addGpu(t.hb2, "0000:80:00.0", 0, "cuda1"), 0);
  ASSERT_GE(t.b.addGpu(t.hb0, "0000:07:00.0", 0, "cuda0"), 0);
  Topology topo;
  ASSERT_EQ(t.b.build(&topo), Status::Ok);
  EXPECT_EQ(topo.gpus()[0].busId, "0000:07:00.0");
  EXPECT_EQ(topo.gpus()[0].osName, "cuda0");
  EXPECT_EQ(topo.nodes()[topo.gpus()[1].node].name, "GPU1");
  EXPECT_EQ(topo.gpuByBusId("80:00.0"), 1);
  EXPECT_EQ(topo.gpuByBusId("0000:99:00.0"), -1);
}

TEST(TopologyBuilder, NearestNicSpreadsGpusOverEquivalentNics) {
  Tree t;
  int sw = t.b.addPciSwitch(t.hb0, "0000:01:00.0", 0);
  for (const char* id : {"0000:02:00.0", "0000:03:00.0", "0000:04:00.0"}) ASSERT_GE(t.b.addGpu(sw, id, 0), 0);
  ASSERT_GE(t.b.addNic(sw, "0000:05:00.0", 0, "mlx5_0", "ib0"), 0);
  ASSERT_GE(t.b.addNic(sw, "0000:06:00.0", 0, "mlx5_1", "ib1"), 0);
  ASSERT_GE(t.b.addNic(t.hb2, "0000:81:00.0", 0, "mlx5_2"), 0);  // worse class: never chosen here
  Topology topo;
  ASSERT_EQ(t.b.build(&topo), Status::Ok);
  EXPECT_EQ(topo.nearestNic(0), 0);
  EXPECT_EQ(topo.nearestNic(1), 1);
  EXPECT_EQ(topo.nearestNic(2), 0);
}

TEST(TopologyBuilder, NearestNicPrefersClassThenBandwidth) {
  Tree t;
  ASSERT_GE(t.b.addGpu(t.hb0, "0000:02:00.0", 31.5), 0);
  ASSERT_GE(t.b.addNic(t.hb1, "0000:40:00.0", 31.5, "fast_node"), 0);  // NODE
  ASSERT_GE(t.b.addNic(t.hb0, "0000:03:00.0", 7.8, "slow_phb"), 0);    // PHB, slow
  ASSERT_GE(t.b.addNic(t.hb0, "0000:04:00.0", 15.7, "mid_phb"), 0);    // PHB, faster
  Topology topo;
  ASSERT_EQ(t.b.build(&topo), Status::Ok);
  EXPECT_EQ(topo.nics()[topo.nearestNic(0)].name, "mid_phb");
}

TEST(TopologyBuilder, NvLinkOverridesThePciClass) {
  Tree t;
  ASSERT_GE(t.b.addGpu(t.hb0, "0000:02:00.0", 0), 0);
  ASSERT_GE(t.b.addGpu(t.hb2, "0000:80:00.0", 0), 0);
  t.b.addNvLink({"00000000:02:00.0", "0000:80:00.0", 4, 0});
  Topology topo;
  ASSERT_EQ(t.b.build(&topo), Status::Ok);
  EXPECT_EQ(topo.gpuPath(0, 1).type, PathType::NvLink);
  EXPECT_EQ(topo.gpuPath(1, 0).type, PathType::NvLink);
  EXPECT_DOUBLE_EQ(topo.gpuPath(1, 0).gbps, 4 * kNvLinkPerLinkGBps);
}

TEST(TopologyBuilder, RejectsBadInputWithoutTouchingTheOutput) {
  {
    Tree t;
    ASSERT_GE(t.b.addGpu(t.hb0, "0000:02:00.0", 0), 0);
    t.b.addNvLink({"0000:02:00.0", "0000:99:00.0", 1, 0});
    Topology topo;
    EXPECT_EQ(t.b.build(&topo), Status::InvalidArgument);
    EXPECT_EQ(topo.gpuCount(), 0);
  }
  {
    Tree t;
    EXPECT_EQ(t.b.addGpu(t.cpu0, "0000:02:00.0", 0), -1);  // a GPU needs a PCI parent
    Topology topo;
    EXPECT_EQ(t.b.build(&topo), Status::InvalidArgument);
  }
  {
    Tree t;
    EXPECT_EQ(t.b.addNic(t.hb0, "not-a-bus-id", 0, "x"), -1);
    EXPECT_EQ(t.b.addHostBridge(t.hb0), -1);
  }
}

// ---------------------------------------------------------------- hwloc XML fixtures

TEST(TopologyXml, EightGpusFourSwitchesTwoSockets) {
  SKIP_WITHOUT_HWLOC();
  Topology t;
  ASSERT_EQ(loadFixture("8gpu_4switch_2socket.xml", &t), Status::Ok);
  ASSERT_EQ(t.gpuCount(), 8);  // the BMC's ASPEED VGA is not a GPU
  ASSERT_EQ(t.nicCount(), 4);
  EXPECT_EQ(t.gpus()[0].busId, "0000:03:00.0");
  EXPECT_EQ(t.gpus()[0].osName, "cuda0");
  EXPECT_EQ(t.gpus()[7].busId, "0000:a4:00.0");
  EXPECT_EQ(t.nics()[0].name, "mlx5_0");
  EXPECT_EQ(t.nics()[0].netdev, "ib0");
  EXPECT_EQ(t.nics()[3].name, "mlx5_3");

  EXPECT_EQ(t.gpuPath(0, 1).type, PathType::Pix);   // same switch
  EXPECT_EQ(t.gpuPath(0, 2).type, PathType::Node);  // other host bridge, same socket
  EXPECT_EQ(t.gpuPath(0, 4).type, PathType::Sys);   // other socket
  EXPECT_EQ(t.gpuPath(5, 4).type, PathType::Pix);
  EXPECT_EQ(t.gpuPath(6, 4).type, PathType::Node);
  EXPECT_NEAR(t.gpuPath(0, 1).gbps, 31.5, 0.1);  // Gen4 x16 links, from hwloc's linkspeed
  EXPECT_NEAR(t.gpuPath(0, 4).gbps, kSysBandwidthCapGBps, 1e-9);

  for (int g = 0; g < 8; ++g) {
    EXPECT_EQ(t.gpuNicPath(g, g / 2).type, PathType::Pix) << "GPU" << g;
    EXPECT_EQ(t.nearestNic(g), g / 2) << "GPU" << g;
  }
  EXPECT_EQ(t.gpuNicPath(0, 1).type, PathType::Node);
  EXPECT_EQ(t.gpuNicPath(0, 2).type, PathType::Sys);

  // NUMA affinity: GPUs 0-3 on socket 0 (NUMA 0), 4-7 on socket 1.
  for (int g = 0; g < 8; ++g) {
    const TopoCpu* cpu = t.gpuCpu(g);
    ASSERT_NE(cpu, nullptr);
    EXPECT_EQ(cpu->numaNodes, Ints({g < 4 ? 0 : 1}));
    EXPECT_EQ(cpu->package, g < 4 ? 0 : 1);
    ASSERT_EQ(cpu->cpus.size(), 32u);
    EXPECT_EQ(cpu->cpus.front(), g < 4 ? 0 : 16);
    EXPECT_EQ(cpu->cpus.back(), g < 4 ? 47 : 63);
  }
}

TEST(TopologyXml, EightGpusSummary) {
  SKIP_WITHOUT_HWLOC();
  Topology t;
  ASSERT_EQ(loadFixture("8gpu_4switch_2socket.xml", &t), Status::Ok);
  std::string s = t.summary();
  EXPECT_TRUE(hasSubstr(s, "topology: 8 GPU(s), 4 NIC(s), 2 CPU domain(s)\n"));
  EXPECT_TRUE(hasSubstr(s, "  CPU1  numa 1 package 1 cpus 16-31,48-63\n"));
  EXPECT_TRUE(hasSubstr(s, "  GPU5  0000:84:00.0 cuda5  CPU1  nic mlx5_2\n"));
  EXPECT_TRUE(hasSubstr(s, "  NIC0  0000:05:00.0 mlx5_0 ib0  CPU0  31.5 GB/s\n"));
  EXPECT_TRUE(hasSubstr(s,
                        "GPU/GPU paths:\n        GPU0  GPU1  GPU2  GPU3  GPU4  GPU5  GPU6  GPU7\n"
                        "  GPU0  X     PIX   NODE  NODE  SYS   SYS   SYS   SYS\n"));
  EXPECT_TRUE(hasSubstr(s,
                        "GPU/NIC paths:\n        NIC0  NIC1  NIC2  NIC3\n"
                        "  GPU0  PIX   NODE  SYS   SYS\n"));
  EXPECT_TRUE(hasSubstr(s, "  GPU7  SYS   SYS   NODE  PIX\n"));
}

TEST(TopologyXml, InjectedNvLinks) {
  SKIP_WITHOUT_HWLOC();
  Topology t;
  ASSERT_EQ(loadFixture("8gpu_4switch_2socket.xml", &t,
                        {{"0000:03:00.0", "0000:83:00.0", 2, 0}, {"0000:04:00.0", "0000:84:00.0", 1, 50.0}}),
            Status::Ok);
  EXPECT_EQ(t.gpuPath(0, 4).type, PathType::NvLink);
  EXPECT_DOUBLE_EQ(t.gpuPath(0, 4).gbps, 2 * kNvLinkPerLinkGBps);
  EXPECT_DOUBLE_EQ(t.gpuPath(5, 1).gbps, 50.0);
  EXPECT_EQ(t.gpuPath(0, 5).type, PathType::Sys);  // not declared
  EXPECT_EQ(t.gpuPath(0, 1).type, PathType::Pix);
  EXPECT_TRUE(hasSubstr(t.summary(), "  GPU0  X     PIX   NODE  NODE  NVL   SYS   SYS   SYS\n"));

  Topology untouched;
  EXPECT_EQ(loadFixture("8gpu_4switch_2socket.xml", &untouched, {{"0000:03:00.0", "0000:ee:00.0", 1, 0}}),
            Status::InvalidArgument);
  EXPECT_EQ(untouched.gpuCount(), 0);
}

TEST(TopologyXml, NvLinksFromHwlocDistances) {
  SKIP_WITHOUT_HWLOC();
  Topology t;
  // The fixture carries hwloc's NVML "NVLinkBandwidth" matrix (MB/s): bridges 0-1, 2-3, 4-5, 6-7 at 100 GB/s.
  ASSERT_EQ(loadFixture("8gpu_4switch_2socket_nvlink.xml", &t, {{"0000:03:00.0", "0000:04:00.0", 1, 0}}), Status::Ok);
  for (int g = 0; g < 8; g += 2) {
    EXPECT_EQ(t.gpuPath(g, g + 1).type, PathType::NvLink) << "GPU" << g;
    EXPECT_DOUBLE_EQ(t.gpuPath(g + 1, g).gbps, 100.0) << "GPU" << g;  // the injected 20 GB/s doesn't add up
  }
  EXPECT_EQ(t.gpuPath(1, 2).type, PathType::Node);
  EXPECT_EQ(t.gpuPath(0, 4).type, PathType::Sys);
  EXPECT_EQ(t.nearestNic(1), 0);
  EXPECT_TRUE(hasSubstr(t.summary(), "  GPU1  NVL   X     NODE  NODE  SYS   SYS   SYS   SYS\n"));
}

TEST(TopologyXml, TwoSocketsPcieOnly) {
  SKIP_WITHOUT_HWLOC();
  Topology t;
  ASSERT_EQ(loadFixture("2gpu_2socket_pcie.xml", &t), Status::Ok);
  ASSERT_EQ(t.gpuCount(), 2);
  ASSERT_EQ(t.nicCount(), 1);
  EXPECT_EQ(t.nics()[0].name, "mlx5_0");
  EXPECT_EQ(t.nics()[0].netdev, "ens1f0");
  EXPECT_EQ(t.gpuPath(0, 1).type, PathType::Sys);
  EXPECT_NEAR(t.gpuPath(0, 1).gbps, 7.88, 0.01);      // GPU1 sits on a Gen3 x8 link
  EXPECT_EQ(t.gpuNicPath(0, 0).type, PathType::Phb);  // two root ports of one host bridge
  EXPECT_NEAR(t.gpuNicPath(0, 0).gbps, 15.75, 0.01);
  EXPECT_EQ(t.gpuNicPath(1, 0).type, PathType::Sys);
  EXPECT_EQ(t.nearestNic(0), 0);
  EXPECT_EQ(t.nearestNic(1), 0);  // the only NIC, even across sockets
  EXPECT_EQ(t.gpuCpu(0)->numaNodes, Ints({0}));
  EXPECT_EQ(t.gpuCpu(1)->numaNodes, Ints({1}));
  EXPECT_EQ(t.gpuCpu(1)->cpus.front(), 8);
  EXPECT_EQ(t.nics()[0].cpuDomain, t.gpus()[0].cpuDomain);
  std::string s = t.summary();
  EXPECT_TRUE(hasSubstr(s, "  GPU1  SYS   X\n"));
  EXPECT_TRUE(hasSubstr(s, "GPU/NIC paths:\n        NIC0\n  GPU0  PHB\n  GPU1  SYS\n"));
}

TEST(TopologyXml, DevelopmentVmWithoutGpu) {
  SKIP_WITHOUT_HWLOC();
  Topology t;
  ASSERT_EQ(loadFixture("vm_2cpu_nogpu.xml", &t), Status::Ok);
  EXPECT_EQ(t.gpuCount(), 0);
  ASSERT_EQ(t.nicCount(), 1);  // virtio-net, class 0x0200, no verbs device
  EXPECT_EQ(t.nics()[0].name, "eth0");
  EXPECT_EQ(t.nics()[0].busId, "0000:00:03.0");
  ASSERT_EQ(t.cpus().size(), 1u);
  EXPECT_EQ(t.cpus()[0].cpus, Ints({0, 1}));
  EXPECT_EQ(t.cpus()[0].package, 0);
  EXPECT_EQ(t.summary(),
            "topology: 0 GPU(s), 1 NIC(s), 1 CPU domain(s)\n"
            "  CPU0  numa 0 package 0 cpus 0-1\n"
            "  NIC0  0000:00:03.0 eth0  CPU0  link speed unknown\n");
}

TEST(TopologyXml, RealH200VirtualMachine) {
  SKIP_WITHOUT_HWLOC();
  Topology t;
  // Exported by hwloc 2.9 on a 16-core VM with one H200 (nvidia-smi topo: CPU affinity 0-15, NUMA 0).
  ASSERT_EQ(loadFixture("h200_vm_1gpu.xml", &t), Status::Ok);
  ASSERT_EQ(t.gpuCount(), 1);
  EXPECT_EQ(t.gpus()[0].busId, "0000:00:06.0");
  EXPECT_EQ(t.gpus()[0].osName, "");  // no CUDA/NVML hwloc plugin there: found by PCI class and vendor
  ASSERT_EQ(t.nicCount(), 1);
  EXPECT_EQ(t.gpuNicPath(0, 0).type, PathType::Phb);
  EXPECT_DOUBLE_EQ(t.gpuNicPath(0, 0).gbps, pathDefaultBandwidth(PathType::Phb));  // virtio link speed unknown
  EXPECT_EQ(t.nearestNic(0), 0);
  ASSERT_NE(t.gpuCpu(0), nullptr);
  EXPECT_EQ(t.gpuCpu(0)->numaNodes, Ints({0}));
  EXPECT_EQ(t.gpuCpu(0)->cpus.size(), 16u);
  EXPECT_NEAR(t.nodes()[t.gpus()[0].node].upLinkGBps, 63.0, 0.1);  // PCIe Gen5 x16
  EXPECT_TRUE(hasSubstr(t.summary(), "  GPU0  0000:00:06.0  CPU0  nic eth0\n"));
}

TEST(TopologyXml, MissingOrBrokenFile) {
  SKIP_WITHOUT_HWLOC();
  Topology t;
  EXPECT_EQ(loadFixture("no_such_file.xml", &t), Status::SystemError);
  std::string path = ::testing::TempDir() + "gshmem_topo_broken.xml";
  FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("<?xml version=\"1.0\"?>\n<topology version=\"2.0\"><object type=\"Machine\"", f);
  std::fclose(f);
  TopologySource src;
  src.xmlPath = path;
  EXPECT_EQ(topologyLoad(src, &t), Status::SystemError);
  std::remove(path.c_str());
  EXPECT_EQ(t.gpuCount(), 0);
  EXPECT_TRUE(t.cpus().empty());
}

TEST(TopologyLive, LoadsThisMachine) {
  Topology t;
  Status s = topologyLoad(TopologySource{}, &t);
  if (!GSHMEM_HAVE_HWLOC) {
    EXPECT_EQ(s, Status::Unsupported);
    return;
  }
  ASSERT_EQ(s, Status::Ok);
  EXPECT_GE(t.cpus().size(), 1u);
  for (int g = 0; g < t.gpuCount(); ++g) EXPECT_NE(t.gpuCpu(g), nullptr);
  EXPECT_TRUE(hasSubstr(t.summary(), "GPU(s)"));
  std::printf("%s", t.summary().c_str());
}

}  // namespace
}  // namespace gshmem
