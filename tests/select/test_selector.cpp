// Unit tests of protocol selection: crossovers, decision tables, GSHMEM_PATH / GSHMEM_TUNE overrides.
#include <gtest/gtest.h>

#include <cmath>

#include "core/select/selector.hpp"

namespace gshmem {
namespace {

constexpr PeerPath kNvl{PathType::NvLink, true, true};
constexpr PeerPath kNode = PeerPath{PathType::Node, true, false};

SelectorConfig allAvailable() {
  SelectorConfig c;
  for (bool& a : c.available) a = true;
  return c;
}

/// A profile row set: one single-range model per direction.
void addModel(Profile* p, ProtocolId id, MemPair m, PathType cls, LinkModel put, LinkModel get) {
  for (int d = 0; d < 2; ++d) {
    ProfileModel pm;
    pm.proto = id;
    pm.mem = m;
    pm.dir = static_cast<Direction>(d);
    pm.cls = cls;
    pm.model = PiecewiseModel::single(d == 0 ? put : get);
    pm.model.ranges[0].samples = 20;
    pm.model.ranges[0].r2 = 0.999;
    p->models.push_back(pm);
  }
}

TEST(Selector, CrossoverIsAnalytic) {
  LinkModel a{2.0, 10}, b{5.0, 100};  // a cheaper at first, b faster
  double s = crossoverBytes(a, b);
  // 2 + s/1e4 = 5 + s/1e5  ->  s = 3 / (1e-4 - 1e-5)
  EXPECT_NEAR(s, 3.0 / (1e-4 - 1e-5), 1e-6);
  EXPECT_NEAR(a.predictUs(s), b.predictUs(s), 1e-9);
  EXPECT_LT(crossoverBytes(a, LinkModel{1.0, 20}), 0);  // the second is better everywhere
  EXPECT_LT(crossoverBytes(a, LinkModel{3.0, 10}), 0);  // parallel
}

TEST(Selector, TableCrossoverMatchesTheAnalyticOne) {
  SelectorConfig c = allAvailable();
  LinkModel sm{2.3, 369}, ce{3.7, 395};
  addModel(&c.profile, ProtocolId::P2pSm, MemPair::DevDev, PathType::NvLink, sm, sm);
  addModel(&c.profile, ProtocolId::P2pCe, MemPair::DevDev, PathType::NvLink, ce, ce);
  addModel(&c.profile, ProtocolId::Staged, MemPair::DevDev, PathType::NvLink, {15, 48}, {15, 48});
  Selector sel(c);
  const DecisionTable& t = sel.addPeer(kNvl);
  const auto& r = t.ranges[int(MemPair::DevDev)][int(Direction::Put)];
  ASSERT_EQ(r.size(), 2u);
  uint64_t cross = static_cast<uint64_t>(std::ceil(crossoverBytes(sm, ce)));
  EXPECT_EQ(r[0].proto, ProtocolId::P2pSm);
  EXPECT_EQ(r[0].lo, 0u);
  EXPECT_EQ(r[0].hi, cross);
  EXPECT_EQ(r[1].proto, ProtocolId::P2pCe);
  EXPECT_EQ(r[1].hi, kSizeInf);
  EXPECT_EQ(r[0].source, Source::Profile);
  // Lookups on both sides of the crossover and far out.
  EXPECT_EQ(sel.choose(kNvl, MemPair::DevDev, Direction::Put, 8), ProtocolId::P2pSm);
  EXPECT_EQ(sel.choose(kNvl, MemPair::DevDev, Direction::Put, cross - 1), ProtocolId::P2pSm);
  EXPECT_EQ(sel.choose(kNvl, MemPair::DevDev, Direction::Put, cross), ProtocolId::P2pCe);
  EXPECT_EQ(sel.choose(kNvl, MemPair::DevDev, Direction::Put, 256ull << 20), ProtocolId::P2pCe);
  // Host memory on this peer is out of reach of every device protocol, and shm/ucx reach it with defaults.
  EXPECT_EQ(sel.choose(kNvl, MemPair::HostHost, Direction::Put, 8), ProtocolId::Shm);
  EXPECT_EQ(t.rangeFor(MemPair::HostHost, Direction::Put, 8).source, Source::Default);
}

TEST(Selector, EnvelopeAgreesWithBruteForceOnPiecewiseModels) {
  BoundProtocol a, b, c;
  a.id = ProtocolId::Shm;
  b.id = ProtocolId::Ucx;
  c.id = ProtocolId::Staged;
  a.model[0].ranges = {{0, 4096, {0.1, 5}, 0, 1}, {4096, kSizeInf, {1.0, 2}, 0, 1}};
  b.model[0].ranges = {{0, 1 << 20, {3, 30}, 0, 1}, {1 << 20, kSizeInf, {30, 40}, 0, 1}};
  c.model[0] = PiecewiseModel::single({50, 60});
  std::vector<BoundProtocol> cands = {a, b, c};
  std::vector<DecisionRange> env = lowerEnvelope(cands, Direction::Put);
  ASSERT_FALSE(env.empty());
  EXPECT_EQ(env.front().lo, 0u);
  EXPECT_EQ(env.back().hi, kSizeInf);
  for (size_t i = 1; i < env.size(); ++i) {
    EXPECT_EQ(env[i].lo, env[i - 1].hi);
    EXPECT_NE(env[i].proto, env[i - 1].proto);  // merged
  }
  for (uint64_t s = 1; s < (1ull << 32); s = s * 3 / 2 + 1) {
    size_t best = 0;
    for (size_t k = 1; k < cands.size(); ++k)
      if (cands[k].estimate(s, Direction::Put) < cands[best].estimate(s, Direction::Put)) best = k;
    ProtocolId got = ProtocolId::None;
    for (const DecisionRange& r : env)
      if (s >= r.lo && s < r.hi) got = r.proto;
    // At an exact crossover both are optimal; compare predicted times, not names.
    double t_got = 0;
    for (const BoundProtocol& x : cands)
      if (x.id == got) t_got = x.estimate(s, Direction::Put);
    EXPECT_NEAR(t_got, cands[best].estimate(s, Direction::Put), 1e-9 * t_got) << "size " << s;
  }
}

TEST(Selector, LookupOnHostOnlyPeers) {
  SelectorConfig c;
  c.available[int(ProtocolId::Shm)] = true;
  Selector sel(c);
  sel.addPeer(kNode);
  EXPECT_EQ(sel.choose(kNode, MemPair::HostHost, Direction::Get, 1 << 30), ProtocolId::Shm);
  EXPECT_EQ(sel.choose(kNode, MemPair::DevDev, Direction::Put, 8), ProtocolId::None);  // nothing available
  EXPECT_EQ(sel.choose(peerPathHost(false), MemPair::HostHost, Direction::Put, 8), ProtocolId::None);  // no table
  EXPECT_EQ(&sel.addPeer(kNode), sel.table(kNode));                                                    // built once
}

TEST(Selector, ForcedPathWhereItReaches) {
  SelectorConfig c = allAvailable();
  c.forced = ProtocolId::Staged;
  Selector sel(c);
  sel.addPeer(kNvl);
  for (uint64_t s : {8ull, 1ull << 20, 256ull << 20}) {
    EXPECT_EQ(sel.choose(kNvl, MemPair::DevDev, Direction::Put, s), ProtocolId::Staged);
    EXPECT_EQ(sel.choose(kNvl, MemPair::HostDev, Direction::Get, s), ProtocolId::Staged);
  }
  EXPECT_EQ(sel.table(kNvl)->rangeFor(MemPair::DevDev, Direction::Put, 8).source, Source::Override);
  // staged cannot move host-to-host: the automatic choice stays.
  EXPECT_EQ(sel.choose(kNvl, MemPair::HostHost, Direction::Put, 8), ProtocolId::Shm);
  EXPECT_EQ(sel.table(kNvl)->rangeFor(MemPair::HostHost, Direction::Put, 8).source, Source::Default);
}

TEST(Selector, ForcedFromParams) {
  SelectorConfig c = allAvailable();
  SelectParams p;
  p.path = "p2p_ce";
  std::string err;
  ASSERT_EQ(selectorConfigLoad(p, &c, &err), Status::Ok) << err;
  Selector sel(c);
  sel.addPeer(kNvl);
  EXPECT_EQ(sel.choose(kNvl, MemPair::DevDev, Direction::Get, 8), ProtocolId::P2pCe);
  p.path = "nvlink";
  EXPECT_EQ(selectorConfigLoad(p, &c, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("GSHMEM_PATH='nvlink'"), std::string::npos) << err;
  EXPECT_NE(err.find("p2p_sm"), std::string::npos) << err;
}

TEST(Selector, TuneRangesOverrideAndSplit) {
  SelectorConfig c = allAvailable();
  std::string err;
  ASSERT_EQ(tuneParse("put:dd:0-64K:@p2p_sm,put:dd:64K-inf:@p2p_ce;get:*:*:@staged", &c.tune, &err), Status::Ok) << err;
  Selector sel(c);
  const DecisionTable& t = sel.addPeer(kNvl);
  EXPECT_EQ(sel.choose(kNvl, MemPair::DevDev, Direction::Put, 65535), ProtocolId::P2pSm);
  EXPECT_EQ(sel.choose(kNvl, MemPair::DevDev, Direction::Put, 65536), ProtocolId::P2pCe);
  EXPECT_EQ(t.ranges[int(MemPair::DevDev)][int(Direction::Put)].size(), 2u);
  EXPECT_EQ(sel.choose(kNvl, MemPair::DevHost, Direction::Get, 8), ProtocolId::Staged);
  EXPECT_EQ(t.rangeFor(MemPair::DevDev, Direction::Get, 8).source, Source::Override);
  // get:*:* names staged, which cannot do host-host: left automatic.
  EXPECT_EQ(sel.choose(kNvl, MemPair::HostHost, Direction::Get, 8), ProtocolId::Shm);
}

TEST(Selector, TunePartialRangeKeepsTheRest) {
  SelectorConfig c = allAvailable();
  std::string err;
  ASSERT_EQ(tuneParse("put:dd:1M-2M:@staged", &c.tune, &err), Status::Ok);
  Selector sel(c);
  sel.addPeer(kNvl);
  // Outside 1M-2M the automatic choice stands: the same as a selector without the rule.
  Selector plain(allAvailable());
  plain.addPeer(kNvl);
  for (std::size_t s : {std::size_t(8), std::size_t((1 << 20) - 1), std::size_t(2 << 20), std::size_t(1) << 30})
    EXPECT_EQ(sel.choose(kNvl, MemPair::DevDev, Direction::Put, s), plain.choose(kNvl, MemPair::DevDev, Direction::Put, s))
        << s;
  EXPECT_EQ(sel.choose(kNvl, MemPair::DevDev, Direction::Put, 1 << 20), ProtocolId::Staged);
  EXPECT_EQ(sel.choose(kNvl, MemPair::DevDev, Direction::Put, (2 << 20) - 1), ProtocolId::Staged);
  // Defaults (as calibrated on two NVLink-connected GPUs): host-initiated device puts over NVLink use the copy engine at every size.
  EXPECT_EQ(plain.choose(kNvl, MemPair::DevDev, Direction::Put, 8), ProtocolId::P2pCe);
  EXPECT_EQ(plain.choose(kNvl, MemPair::DevDev, Direction::Put, std::size_t(1) << 30), ProtocolId::P2pCe);
}

TEST(Selector, DescribeNamesSources) {
  SelectorConfig c;
  c.available[int(ProtocolId::Shm)] = true;
  addModel(&c.profile, ProtocolId::Shm, MemPair::HostHost, PathType::Node, {0.06, 4}, {0.05, 5});
  c.profile_name = "x.prof";
  std::string err;
  ASSERT_EQ(tuneParse("get:hh:1G-inf:@shm", &c.tune, &err), Status::Ok);
  c.tune_text = "get:hh:1G-inf:@shm";
  Selector sel(c);
  sel.addPeer(kNode);
  std::string d = sel.describe();
  EXPECT_NE(d.find("profile x.prof"), std::string::npos) << d;
  EXPECT_NE(d.find("hh put: 0-inf shm (profile)"), std::string::npos) << d;
  EXPECT_NE(d.find("hh get: 0-1G shm (profile) 1G-inf shm (override)"), std::string::npos) << d;
  EXPECT_NE(d.find("20 samples"), std::string::npos) << d;
}

TEST(Selector, CreateForTheRuntime) {
  bool avail[kNumProtocols] = {};
  avail[int(ProtocolId::Shm)] = avail[int(ProtocolId::Ucx)] = true;
  std::vector<PeerPath> peers = {peerPathHost(true), peerPathHost(true), peerPathHost(false)};
  std::unique_ptr<Selector> sel;
  std::string err;
  SelectParams p;
  ASSERT_EQ(selectorCreate(p, avail, peers, &sel, &err), Status::Ok) << err;
  EXPECT_EQ(sel->choose(peers[0], MemPair::HostHost, Direction::Put, 8), ProtocolId::Shm);
  EXPECT_EQ(sel->choose(peers[2], MemPair::HostHost, Direction::Put, 8), ProtocolId::Ucx);
  std::string d = sel->describe("gshmem: ");
  EXPECT_EQ(d.rfind("gshmem: path selection", 0), 0u) << d;
  EXPECT_EQ(d.find("\n  peers"), std::string::npos) << "every line carries the prefix:\n" << d;
  p.tune = "put:hh:0-1K:@nvlink";
  std::unique_ptr<Selector> bad;
  EXPECT_EQ(selectorCreate(p, avail, peers, &bad, &err), Status::InvalidArgument);
  EXPECT_FALSE(bad);
  EXPECT_NE(err.find("GSHMEM_TUNE: at character 1"), std::string::npos) << err;
}

}  // namespace
}  // namespace gshmem

namespace gshmem {
namespace {
Status runCounted(const Transfer& t) { return t.n == 3 ? Status::Ok : Status::InvalidArgument; }
}  // namespace

/// The descriptor carries the run the dispatch calls: unbound until the layer that implements it binds it, for
/// the device protocols only (shm and ucx move host memory on the inline RMA path; nic_direct has no transport).
TEST(ProtocolTable, RunIsBoundByTheImplementingLayer) {
  for (ProtocolId id : {ProtocolId::Shm, ProtocolId::Ucx, ProtocolId::NicDirect})
    EXPECT_EQ(protocolDesc(id).run, nullptr) << protocolName(id);
  protocolBindRun(ProtocolId::Staged, runCounted);
  ASSERT_NE(protocolDesc(ProtocolId::Staged).run, nullptr);
  EXPECT_EQ(protocolDesc(ProtocolId::Staged).run(Transfer{1, 0, nullptr, 3, Direction::Put, nullptr, true}),
            Status::Ok);
  protocolBindRun(ProtocolId::Staged, nullptr);
  EXPECT_EQ(protocolDesc(ProtocolId::Staged).run, nullptr);
  protocolBindRun(ProtocolId::None, runCounted);  // ignored
}
}  // namespace gshmem
