// Unit tests of the profile file format and the GSHMEM_TUNE parser: round trips and error positions.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <sstream>

#include "core/select/selector.hpp"

namespace gshmem {
namespace {

Status parse(const std::string& text, Profile* p, std::string* err) {
  std::istringstream in(text);
  return profileParse(in, "t.prof", p, err);
}

const char* kHeader = "gshmem-profile 1\n";

TEST(Profile, SizesParseAndFormat) {
  uint64_t v;
  ASSERT_TRUE(selectParseSize("64K", &v));
  EXPECT_EQ(v, 65536u);
  ASSERT_TRUE(selectParseSize("2M", &v));
  EXPECT_EQ(v, 2u << 20);
  ASSERT_TRUE(selectParseSize("1GB", &v));
  EXPECT_EQ(v, 1u << 30);
  ASSERT_TRUE(selectParseSize("inf", &v));
  EXPECT_EQ(v, kSizeInf);
  EXPECT_FALSE(selectParseSize("64X", &v));
  EXPECT_FALSE(selectParseSize("-1", &v));
  EXPECT_FALSE(selectParseSize("", &v));
  EXPECT_EQ(selectFormatSize(65536), "64K");
  EXPECT_EQ(selectFormatSize(1000), "1000");
  EXPECT_EQ(selectFormatSize(0), "0");
  EXPECT_EQ(selectFormatSize(kSizeInf), "inf");
}

TEST(Profile, WriteReadRoundTripGivesTheSameTable) {
  SelectorConfig c;
  c.available[int(ProtocolId::Shm)] = c.available[int(ProtocolId::Ucx)] = true;
  std::vector<Sample> s;
  for (uint64_t b = 8; b <= (1 << 24); b *= 2) s.push_back({double(b), 0.0613 + b / 3.71e3 + (b > 65536 ? 7.3 : 0)});
  for (int d = 0; d < 2; ++d)
    for (ProtocolId id : {ProtocolId::Shm, ProtocolId::Ucx}) {
      ProfileModel pm{id, MemPair::HostHost, Direction(d), PathType::Node, {}, 0};
      std::vector<Sample> x = s;
      if (id == ProtocolId::Ucx)
        for (Sample& e : x) e.us = e.us * 0.7 + 0.31;
      ASSERT_TRUE(fitPiecewise(x, &pm.model));
      c.profile.models.push_back(pm);
    }
  c.profile.meta.push_back({"host", "test machine"});
  std::ostringstream out;
  profileWrite(c.profile, out);
  SelectorConfig c2 = c;
  std::string err;
  std::istringstream in(out.str());
  ASSERT_EQ(profileParse(in, "mem", &c2.profile, &err), Status::Ok) << err << "\n" << out.str();
  EXPECT_EQ(c2.profile.meta.at(0).second, "test machine");
  PeerPath peer = peerPathHost(true);
  Selector a(c), b(c2);
  const DecisionTable& ta = a.addPeer(peer);
  const DecisionTable& tb = b.addPeer(peer);
  for (int m = 0; m < kNumMemPairs; ++m)
    for (int d = 0; d < kNumDirections; ++d) {
      ASSERT_EQ(ta.ranges[m][d].size(), tb.ranges[m][d].size());
      for (size_t i = 0; i < ta.ranges[m][d].size(); ++i) {
        EXPECT_EQ(ta.ranges[m][d][i].lo, tb.ranges[m][d][i].lo);
        EXPECT_EQ(ta.ranges[m][d][i].hi, tb.ranges[m][d][i].hi);
        EXPECT_EQ(ta.ranges[m][d][i].proto, tb.ranges[m][d][i].proto);
        EXPECT_EQ(tb.ranges[m][d][i].source, Source::Profile);
      }
    }
  // Writing again gives the same text.
  std::ostringstream out2;
  profileWrite(c2.profile, out2);
  EXPECT_EQ(out.str(), out2.str());
}

TEST(Profile, FileRoundTripThroughLoadAndSelectorConfig) {
  Profile p;
  ProfileModel pm{
      ProtocolId::Shm, MemPair::HostHost, Direction::Put, PathType::Node, PiecewiseModel::single({0.05, 6}), 0};
  p.models.push_back(pm);
  pm.dir = Direction::Get;
  p.models.push_back(pm);
  char path[] = "/tmp/gshmem-select-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  std::string err;
  ASSERT_EQ(profileSave(p, path, &err), Status::Ok) << err;
  SelectParams sp;
  sp.profile = path;
  SelectorConfig c;
  c.available[int(ProtocolId::Shm)] = true;
  ASSERT_EQ(selectorConfigLoad(sp, &c, &err), Status::Ok) << err;
  Selector sel(c);
  EXPECT_EQ(sel.addPeer(peerPathHost(true)).rangeFor(MemPair::HostHost, Direction::Get, 8).source, Source::Profile);
  unlink(path);
  EXPECT_EQ(selectorConfigLoad(sp, &c, &err), Status::SystemError);
  EXPECT_NE(err.find(path), std::string::npos) << err;
}

struct BadProfile {
  const char* text;
  const char* where;  ///< expected "t.prof:<line>:"
  const char* what;   ///< expected substring
};

TEST(Profile, MalformedLinesNameFileAndLine) {
  const BadProfile cases[] = {
      {"", "t.prof:0:", "empty file"},
      {"shm hh put NODE 0 inf 1 2 3 1\n", "t.prof:1:", "first line must be"},
      {"gshmem-profile 2\n", "t.prof:1:", "version 2 is not supported"},
      {"# c\n\ngshmem-profile 1\nshm hh put NODE 0 inf 1 2 3\n", "t.prof:4:", "expected 10 fields"},
      {"gshmem-profile 1\nnvl hh put NODE 0 inf 1 2 3 1\n", "t.prof:2:", "unknown protocol 'nvl'"},
      {"gshmem-profile 1\nshm xx put NODE 0 inf 1 2 3 1\n", "t.prof:2:", "memory pair 'xx'"},
      {"gshmem-profile 1\nshm hh send NODE 0 inf 1 2 3 1\n", "t.prof:2:", "direction 'send'"},
      {"gshmem-profile 1\nshm hh put LAN 0 inf 1 2 3 1\n", "t.prof:2:", "path class 'LAN'"},
      {"gshmem-profile 1\nshm hh put NODE 0 4Q 1 2 3 1\n", "t.prof:2:", "range_hi '4Q'"},
      {"gshmem-profile 1\nshm hh put NODE 8 inf 1 2 3 1\n", "t.prof:2:", "must start at 0"},
      {"gshmem-profile 1\nshm hh put NODE 0 inf x 2 3 1\n", "t.prof:2:", "overhead_us 'x'"},
      {"gshmem-profile 1\nshm hh put NODE 0 inf 1 0 3 1\n", "t.prof:2:", "bandwidth_GBps '0'"},
      {"gshmem-profile 1\nshm hh put NODE 0 4K 1 2 3 1\nshm hh put NODE 8K inf 1 2 3 1\n", "t.prof:3:", "contiguous"},
      {"gshmem-profile 1\nshm hh put NODE 0 4K 1 2 3 1\n", "t.prof:2:", "not at inf"},
      {"gshmem-profile 1\nshm hh put NODE 0 inf 1 2 3 1\nshm hh put NODE 4K 8K 1 2 3 1\n",
       "t.prof:3:", "after the one ending at inf"},
      {"gshmem-profile 1\nmeta\n", "t.prof:2:", "needs a key"},
  };
  for (const BadProfile& c : cases) {
    Profile p;
    std::string err;
    EXPECT_EQ(parse(c.text, &p, &err), Status::InvalidArgument) << c.text;
    EXPECT_EQ(err.rfind(c.where, 0), 0u) << "text: " << c.text << "\nerror: " << err;
    EXPECT_NE(err.find(c.what), std::string::npos) << "text: " << c.text << "\nerror: " << err;
  }
}

TEST(Profile, CommentsAndMultiRangeRowsParse) {
  Profile p;
  std::string err;
  std::string text = std::string("# x\n") + kHeader +
                     "meta host a b c\n"
                     "shm hh put NODE 0 64K 0.05 4 10 0.99  # first\n"
                     "shm hh put NODE 64K inf 3 2.5 12 0.98\n";
  ASSERT_EQ(parse(text, &p, &err), Status::Ok) << err;
  ASSERT_EQ(p.models.size(), 1u);
  EXPECT_EQ(p.models[0].model.ranges.size(), 2u);
  EXPECT_EQ(p.models[0].model.ranges[1].lo, 65536u);
  EXPECT_EQ(p.meta[0].second, "a b c");
  EXPECT_TRUE(p.models[0].model.valid());
}

TEST(Tune, ParsesRulesWithWildcardsAndSuffixes) {
  std::vector<TuneRule> r;
  std::string err;
  ASSERT_EQ(tuneParse("put:dd:0-64K:@p2p_sm, put:dd:64K-inf:@p2p_ce;get:*:*:@staged;", &r, &err), Status::Ok) << err;
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].dir, int(Direction::Put));
  EXPECT_EQ(r[0].mem, int(MemPair::DevDev));
  EXPECT_EQ(r[0].hi, 65536u);
  EXPECT_EQ(r[1].lo, 65536u);
  EXPECT_EQ(r[1].hi, kSizeInf);
  EXPECT_EQ(r[2].dir, int(Direction::Get));
  EXPECT_EQ(r[2].mem, -1);
  EXPECT_EQ(r[2].proto, ProtocolId::Staged);
  EXPECT_EQ(r[2].lo, 0u);
  EXPECT_TRUE(r[2].matches(MemPair::HostDev, Direction::Get));
  EXPECT_FALSE(r[2].matches(MemPair::HostDev, Direction::Put));
  ASSERT_EQ(tuneParse("", &r, &err), Status::Ok);
  EXPECT_TRUE(r.empty());
}

TEST(Tune, ErrorsNameThePosition) {
  struct Bad {
    const char* text;
    const char* what;
  } cases[] = {
      {"put:dd:0-64K:@p2p_sm,put:dd:64X-inf:@p2p_ce", "at character 22 ('put:dd:64X-inf:@p2p_ce'): size '64X'"},
      {"put:dd:0-64K", "at character 1 ('put:dd:0-64K'): expected 4 fields"},
      {"send:dd:*:@shm", "direction 'send'"},
      {"put:gpu:*:@shm", "memory pair 'gpu'"},
      {"put:dd:64K:@shm", "range '64K' is not lo-hi"},
      {"put:dd:64K-1K:@shm", "is empty"},
      {"put:dd:*:shm", "must be written @name"},
      {"put:dd:*:@nvlink", "unknown protocol 'nvlink'"},
      {"put:dd:*:@shm,,get:*:*:@shm", "at character 15 (''): empty rule"},
  };
  for (const Bad& c : cases) {
    std::vector<TuneRule> r;
    std::string err;
    EXPECT_EQ(tuneParse(c.text, &r, &err), Status::InvalidArgument) << c.text;
    EXPECT_EQ(err.rfind("GSHMEM_TUNE: ", 0), 0u) << err;
    EXPECT_NE(err.find(c.what), std::string::npos) << "text: " << c.text << "\nerror: " << err;
  }
}

TEST(Tune, PathParse) {
  ProtocolId p;
  std::string err;
  ASSERT_EQ(pathParse("auto", &p, &err), Status::Ok);
  EXPECT_EQ(p, ProtocolId::None);
  ASSERT_EQ(pathParse("", &p, &err), Status::Ok);
  EXPECT_EQ(p, ProtocolId::None);
  ASSERT_EQ(pathParse("staged", &p, &err), Status::Ok);
  EXPECT_EQ(p, ProtocolId::Staged);
  EXPECT_EQ(pathParse("p2p", &p, &err), Status::InvalidArgument);
}

}  // namespace
}  // namespace gshmem
