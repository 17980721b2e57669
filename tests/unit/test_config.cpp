// Tier (a): the parsers of src/base/parse.hpp and paramsLoad() from src/base/config.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/config.hpp"

namespace gshmem {
namespace {

TEST(ParseSize, PlainBytes) {
  std::size_t v = 1;
  EXPECT_TRUE(parseSize("0", &v));
  EXPECT_EQ(v, 0u);
  EXPECT_TRUE(parseSize("4096", &v));
  EXPECT_EQ(v, 4096u);
}

TEST(ParseSize, Suffixes) {
  std::size_t v = 0;
  EXPECT_TRUE(parseSize("1K", &v));
  EXPECT_EQ(v, 1024u);
  EXPECT_TRUE(parseSize("64M", &v));
  EXPECT_EQ(v, 64u << 20);
  EXPECT_TRUE(parseSize("2G", &v));
  EXPECT_EQ(v, std::size_t(2) << 30);
  EXPECT_TRUE(parseSize("3T", &v));
  EXPECT_EQ(v, std::size_t(3) << 40);
}

TEST(ParseSize, LowercaseSuffixesAndSpaces) {
  std::size_t v = 0;
  EXPECT_TRUE(parseSize("512k", &v));
  EXPECT_EQ(v, 512u << 10);
  EXPECT_TRUE(parseSize("1g", &v));
  EXPECT_EQ(v, std::size_t(1) << 30);
  EXPECT_TRUE(parseSize(" 8M ", &v));
  EXPECT_EQ(v, 8u << 20);
}

TEST(ParseSize, MalformedIsRejectedAndOutputUntouched) {
  for (const char* bad : {"", " ", "abc", "M", "12X", "-1", "1.5G", "1 G G", "0x10", "1KK", "K1", "+5"}) {
    std::size_t v = 12345;
    EXPECT_FALSE(parseSize(bad, &v)) << "'" << bad << "'";
    EXPECT_EQ(v, 12345u) << "output written for '" << bad << "'";
  }
}

TEST(ParseSize, OverflowIsRejected) {
  std::size_t v = 7;
  EXPECT_FALSE(parseSize("99999999999999999999", &v));  // does not fit in 64 bits
  EXPECT_FALSE(parseSize("16777216T", &v));             // 2^24 * 2^40 = 2^64
  EXPECT_EQ(v, 7u);
  EXPECT_TRUE(parseSize("16777215T", &v));
  EXPECT_EQ(v, std::size_t(16777215) << 40);
}

TEST(ParseSizeTriple, OffOneOrThree) {
  uint64_t v[3];
  ASSERT_TRUE(parseSizeTriple("off", v));
  for (uint64_t x : v) EXPECT_EQ(x, UINT64_MAX);
  ASSERT_TRUE(parseSizeTriple("64K", v));
  for (uint64_t x : v) EXPECT_EQ(x, 65536u);
  ASSERT_TRUE(parseSizeTriple("20K,158K,off", v));
  EXPECT_EQ(v[0], 20u * 1024);
  EXPECT_EQ(v[1], 158u * 1024);
  EXPECT_EQ(v[2], UINT64_MAX);
  EXPECT_FALSE(parseSizeTriple("1K,2K", v));
  EXPECT_FALSE(parseSizeTriple("1K,,2K", v));
  EXPECT_FALSE(parseSizeTriple("lots", v));
  ASSERT_TRUE(parseSizeTriple("inf", v));
  for (uint64_t x : v) EXPECT_EQ(x, UINT64_MAX);
  ASSERT_TRUE(parseSizeTriple("1K, inf ,OFF", v));
  EXPECT_EQ(v[0], 1024u);
  EXPECT_EQ(v[1], UINT64_MAX);
  EXPECT_EQ(v[2], UINT64_MAX);
}

TEST(ParseSize, InfOnlyWhereAllowed) {
  std::size_t v = 7;
  EXPECT_FALSE(parseSize("inf", &v));
  EXPECT_EQ(v, 7u);  // untouched on failure
  ASSERT_TRUE(parseSize("inf", &v, true));
  EXPECT_EQ(v, kSizeInf);
  ASSERT_TRUE(parseSize(" INF ", &v, true));
  EXPECT_EQ(v, kSizeInf);
  EXPECT_FALSE(parseSize("18446744073709551615", &v, true));  // only "inf" spells infinity
  EXPECT_EQ(formatSize(kSizeInf), "inf");
}

TEST(ParseEnum, DeclaredValuesCaseInsensitive) {
  std::string v;
  ASSERT_TRUE(parseEnum(" UCX ", "auto|shm|ucx", &v));
  EXPECT_EQ(v, "ucx");
  ASSERT_TRUE(parseEnum("warn", "NONE|WARN", &v));
  EXPECT_EQ(v, "WARN");
  EXPECT_FALSE(parseEnum("tcp", "auto|shm|ucx", &v));
  EXPECT_FALSE(parseEnum("", "auto|shm|ucx", &v));
  EXPECT_FALSE(parseEnum("au", "auto|shm|ucx", &v));
  EXPECT_EQ(formatEnumValues("auto|shm|ucx"), "auto, shm, ucx");
}

TEST(ParseEnumList, MembersAndInversion) {
  std::string v;
  ASSERT_TRUE(parseEnumList("init,ucx", "INIT|MEM|UCX", &v));
  EXPECT_EQ(v, "INIT,UCX");
  ASSERT_TRUE(parseEnumList("^mem", "INIT|MEM|UCX", &v));
  EXPECT_EQ(v, "^MEM");
  EXPECT_FALSE(parseEnumList("INIT,FOO", "INIT|MEM|UCX", &v));
}

TEST(EditDistance, Levenshtein) {
  EXPECT_EQ(editDistance("", ""), 0u);
  EXPECT_EQ(editDistance("SYMMETRIC_SIZ", "SYMMETRIC_SIZE"), 1u);
  EXPECT_EQ(editDistance("WAIT_SPIN", "WAIT_SPINS"), 1u);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(editDistance("abc", ""), 3u);
}

TEST(ParseBool, AcceptedSpellings) {
  for (const char* t : {"1", "y", "yes", "on", "true", "TRUE", "Yes", "ON"}) {
    bool v = false;
    EXPECT_TRUE(parseBool(t, &v)) << t;
    EXPECT_TRUE(v) << t;
  }
  for (const char* f : {"0", "n", "no", "off", "false", "FALSE", "No", "Off"}) {
    bool v = true;
    EXPECT_TRUE(parseBool(f, &v)) << f;
    EXPECT_FALSE(v) << f;
  }
}

TEST(ParseBool, MalformedIsRejected) {
  for (const char* bad : {"", "2", "maybe", "yess", "tru", "-1", "o"}) {
    bool v = true;
    EXPECT_FALSE(parseBool(bad, &v)) << "'" << bad << "'";
    EXPECT_TRUE(v) << "output written for '" << bad << "'";
  }
}

TEST(ParseInt, Values) {
  long v = 0;
  EXPECT_TRUE(parseInt("0", &v));
  EXPECT_EQ(v, 0);
  EXPECT_TRUE(parseInt("2048", &v));
  EXPECT_EQ(v, 2048);
  EXPECT_TRUE(parseInt("-3", &v));
  EXPECT_EQ(v, -3);
  EXPECT_TRUE(parseInt(" 17 ", &v));
  EXPECT_EQ(v, 17);
}

TEST(ParseInt, MalformedIsRejected) {
  for (const char* bad : {"", "abc", "12abc", "1.5", "--1", "99999999999999999999999"}) {
    long v = 42;
    EXPECT_FALSE(parseInt(bad, &v)) << "'" << bad << "'";
    EXPECT_EQ(v, 42) << "output written for '" << bad << "'";
  }
}

TEST(FormatSize, LargestExactSuffix) {
  EXPECT_EQ(formatSize(0), "0");
  EXPECT_EQ(formatSize(7), "7");
  EXPECT_EQ(formatSize(1000), "1000");
  EXPECT_EQ(formatSize(1024), "1K");
  EXPECT_EQ(formatSize(1536 * 1024), "1536K");
  EXPECT_EQ(formatSize(256u << 20), "256M");
  EXPECT_EQ(formatSize(std::size_t(1) << 30), "1G");
  EXPECT_EQ(formatSize(std::size_t(5) << 40), "5T");
}

TEST(FormatSize, RoundTripsThroughParseSize) {
  for (std::size_t b : {std::size_t(1), std::size_t(1023), std::size_t(4096), std::size_t(3) << 20,
                        (std::size_t(1) << 30) + 1024, std::size_t(64) << 40}) {
    std::size_t back = 0;
    ASSERT_TRUE(parseSize(formatSize(b), &back)) << formatSize(b);
    EXPECT_EQ(back, b) << formatSize(b);
  }
}

// Sets an environment variable for one scope and restores the previous value.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = getenv(name)) {
      had_ = true;
      old_ = old;
    }
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_) setenv(name_.c_str(), old_.c_str(), 1);
    else unsetenv(name_.c_str());
  }

 private:
  std::string name_;
  std::string old_;
  bool had_ = false;
};

TEST(ParamsLoad, DefaultsLoad) {
  ScopedEnv size("GSHMEM_SYMMETRIC_SIZE", nullptr);
  std::string err;
  ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
  EXPECT_EQ(params().SYMMETRIC_SIZE, std::size_t(256) << 20);  // documented default "256M"
}

TEST(ParamsLoad, ReadsSymmetricSize) {
  ScopedEnv size("GSHMEM_SYMMETRIC_SIZE", "64M");
  std::string err;
  ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
  EXPECT_EQ(params().SYMMETRIC_SIZE, std::size_t(64) << 20);
}

TEST(ParamsLoad, MalformedSymmetricSizeNamesTheVariable) {
  {
    ScopedEnv size("GSHMEM_SYMMETRIC_SIZE", "32M");
    std::string err;
    ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
  }
  ScopedEnv size("GSHMEM_SYMMETRIC_SIZE", "abc");
  std::string err;
  EXPECT_EQ(paramsLoad(&err), Status::InvalidArgument);
  EXPECT_NE(err.find("GSHMEM_SYMMETRIC_SIZE"), std::string::npos) << err;
  EXPECT_NE(err.find("abc"), std::string::npos) << err;
  // A failed load leaves the previously loaded values in place.
  EXPECT_EQ(params().SYMMETRIC_SIZE, std::size_t(32) << 20);
}

// The specification's variables are aliases of their GSHMEM_* counterparts; GSHMEM_* wins when both are set.
TEST(SpecAliases, SymmetricSizeAndPrecedence) {
  ScopedEnv g("GSHMEM_SYMMETRIC_SIZE", nullptr);
  ScopedEnv s("SHMEM_SYMMETRIC_SIZE", "48m");
  std::string err;
  ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
  EXPECT_EQ(params().SYMMETRIC_SIZE, std::size_t(48) << 20);
  {
    ScopedEnv dec("SHMEM_SYMMETRIC_SIZE", "1.5G");  // the specification allows a decimal number
    ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
    EXPECT_EQ(params().SYMMETRIC_SIZE, std::size_t(3) << 29);
  }
  {
    ScopedEnv both("GSHMEM_SYMMETRIC_SIZE", "32M");
    ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
    EXPECT_EQ(params().SYMMETRIC_SIZE, std::size_t(32) << 20);
    EXPECT_EQ(paramSource(paramTable()[0]), "GSHMEM_SYMMETRIC_SIZE");
  }
  EXPECT_EQ(paramSource(paramTable()[0]), "SHMEM_SYMMETRIC_SIZE");
  ScopedEnv bad("SHMEM_SYMMETRIC_SIZE", "lots");
  EXPECT_EQ(paramsLoad(&err), Status::InvalidArgument);
  EXPECT_NE(err.find("SHMEM_SYMMETRIC_SIZE='lots' is not a valid size"), std::string::npos) << err;
  EXPECT_EQ(err.find("GSHMEM_"), std::string::npos) << err;
}

TEST(SpecAliases, FlagsMeanTheirValueUnlessFalse) {
  ScopedEnv level("GSHMEM_LOG_LEVEL", nullptr);
  ScopedEnv info("GSHMEM_INFO", nullptr);
  ScopedEnv version("GSHMEM_VERSION", nullptr);
  std::string err;
  {
    ScopedEnv d("SHMEM_DEBUG", "");
    ScopedEnv i("SHMEM_INFO", "anything");
    ScopedEnv v("SHMEM_VERSION", "1");
    ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
    EXPECT_EQ(params().LOG_LEVEL, "DEBUG");
    EXPECT_TRUE(params().INFO);
    EXPECT_TRUE(params().VERSION);
  }
  {
    ScopedEnv d("SHMEM_DEBUG", "0");
    ScopedEnv i("SHMEM_INFO", "no");
    ScopedEnv v("SHMEM_VERSION", "off");
    ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
    EXPECT_EQ(params().LOG_LEVEL, "WARN");
    EXPECT_FALSE(params().INFO);
    EXPECT_FALSE(params().VERSION);
  }
  ScopedEnv d("SHMEM_DEBUG", "1");
  ScopedEnv g("GSHMEM_LOG_LEVEL", "ERROR");  // GSHMEM_* wins
  ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
  EXPECT_EQ(params().LOG_LEVEL, "ERROR");
}

TEST(SpecAliases, EachNamesADeclaredParameterOncePerFamily) {
  for (const ParamAlias& a : paramAliases()) {
    int found = 0;
    for (const ParamInfo& p : paramTable())
      for (const ParamAlias* b : paramAliasesOf(p)) found += b == &a;
    EXPECT_EQ(found, 1) << a.variable;
    const bool spec = std::string(a.family) == "OpenSHMEM specification";
    EXPECT_EQ(std::string(a.variable).compare(0, spec ? 6 : 8, spec ? "SHMEM_" : "NVSHMEM_"), 0) << a.variable;
  }
  for (const ParamInfo& p : paramTable()) {
    const std::vector<const ParamAlias*> as = paramAliasesOf(p);
    for (std::size_t i = 1; i < as.size(); ++i) EXPECT_STRNE(as[i - 1]->family, as[i]->family) << p.name;
  }
}

// NVSHMEM's variables work for programs moved from NVSHMEM: NVSHMEM_SYMMETRIC_SIZE sizes the device heap, and the
// specification's variable, then GSHMEM_*, win over an NVSHMEM one.
TEST(NvshmemAliases, DeviceHeapSizeAndPrecedence) {
  ScopedEnv g("GSHMEM_SYMMETRIC_SIZE_DEVICE", nullptr);
  ScopedEnv gi("GSHMEM_INFO", nullptr);
  ScopedEnv si("SHMEM_INFO", nullptr);
  ScopedEnv n("NVSHMEM_SYMMETRIC_SIZE", "2.5G");
  std::string err;
  ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
  EXPECT_EQ(params().SYMMETRIC_SIZE_DEVICE, std::size_t(5) << 29);
  {
    ScopedEnv both("GSHMEM_SYMMETRIC_SIZE_DEVICE", "64M");
    ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
    EXPECT_EQ(params().SYMMETRIC_SIZE_DEVICE, std::size_t(64) << 20);
  }
  {
    ScopedEnv ni("NVSHMEM_INFO", "1");
    ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
    EXPECT_TRUE(params().INFO);
    ScopedEnv off("SHMEM_INFO", "0");  // the specification's alias comes first: a false value there is no setting
    ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
    EXPECT_TRUE(params().INFO);
    ScopedEnv gshmem("GSHMEM_INFO", "0");
    ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
    EXPECT_FALSE(params().INFO);
  }
  ScopedEnv bad("NVSHMEM_SYMMETRIC_SIZE", "huge");
  EXPECT_EQ(paramsLoad(&err), Status::InvalidArgument);
  EXPECT_NE(err.find("NVSHMEM_SYMMETRIC_SIZE='huge' is not a valid size"), std::string::npos) << err;
}

TEST(ParamsLoad, MalformedBoolAndIntAreRejected) {
  {
    ScopedEnv info("GSHMEM_INFO", "perhaps");
    std::string err;
    EXPECT_EQ(paramsLoad(&err), Status::InvalidArgument);
    EXPECT_NE(err.find("GSHMEM_INFO"), std::string::npos) << err;
  }
  {
    ScopedEnv spins("GSHMEM_WAIT_SPINS", "many");
    std::string err;
    EXPECT_EQ(paramsLoad(&err), Status::InvalidArgument);
    EXPECT_NE(err.find("GSHMEM_WAIT_SPINS"), std::string::npos) << err;
  }
}

/// paramsLoad() with @p name=@p value fails with one line naming the variable, the value and what it accepts.
void expectRejected(const char* name, const char* value, const char* accepted) {
  ScopedEnv env(name, value);
  std::string err;
  EXPECT_EQ(paramsLoad(&err), Status::InvalidArgument) << name << "=" << value;
  EXPECT_EQ(err.find(std::string(name) + "='" + value + "'"), 0u) << err;
  EXPECT_NE(err.find(accepted), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
}

TEST(ParamsLoad, OutOfRangeValuesAreRejected) {
  expectRejected("GSHMEM_WAIT_SPINS", "-1", "is out of range: use an integer from 0 to");
  expectRejected("GSHMEM_TIMEOUT", "-1", "is out of range: use an integer from 0 to");
  expectRejected("GSHMEM_CHECK", "7", "is out of range: use an integer from 0 to 2");
  expectRejected("GSHMEM_STAGED_DEPTH", "100", "is out of range: use an integer from 2 to 16");
  expectRejected("GSHMEM_STAGED_CHUNK", "64K", "is out of range: use a size from 256K to 256M");
  expectRejected("GSHMEM_MAX_TEAMS", "16385", "from 2 to 16384");
  expectRejected("GSHMEM_UCX_AGGREGATE", "8K", "from 0 to 2K");
  expectRejected("GSHMEM_SYMMETRIC_SIZE", "0", "from 1 to");
  expectRejected("GSHMEM_DEVICE", "-2", "from -1 to");
}

TEST(ParamsLoad, MalformedValuesOfEveryTypeAreRejected) {
  expectRejected("GSHMEM_TRANSPORTS", "tcp", "is not a valid value: use one of auto, shm, ucx");
  expectRejected("GSHMEM_SYMMETRIC_DATA", "on", "one of remap, off");
  expectRejected("GSHMEM_LOG_LEVEL", "LOUD", "one of NONE, ERROR, WARN, INFO, DEBUG, TRACE");
  expectRejected("GSHMEM_LOG_SUBSYS", "INIT,FOO", "is not a valid list");
  expectRejected("GSHMEM_PATH", "nvlink", "one of auto, shm, ucx");
  expectRejected("GSHMEM_DEVICE_CE_MIN", "1K,2K", "is not a valid size list");
  expectRejected("GSHMEM_PROGRESS_THREAD", "maybe", "is not a valid boolean");
  expectRejected("GSHMEM_CHECK", "2x", "is not a valid integer");
}

TEST(ParamsLoad, TypedValuesReachTheAccessor) {
  ScopedEnv tr("GSHMEM_TRANSPORTS", "UCX");
  ScopedEnv ce("GSHMEM_DEVICE_CE_MIN", "64K");
  ScopedEnv to("GSHMEM_TIMEOUT", "0");
  std::string err;
  ASSERT_EQ(paramsLoad(&err), Status::Ok) << err;
  EXPECT_EQ(params().TRANSPORTS, "ucx");
  for (uint64_t x : params().DEVICE_CE_MIN) EXPECT_EQ(x, 65536u);
  EXPECT_EQ(params().TIMEOUT, 0);
}

TEST(ParamsLoad, HeapLargerThanTheMachineIsRejected) {
  uint64_t mem = machineMemoryBytes();
  if (mem == 0) GTEST_SKIP() << "no MemTotal in /proc/meminfo";
  std::string big = std::to_string((mem >> 30) + 2) + "G";
  ScopedEnv size("GSHMEM_SYMMETRIC_SIZE", big.c_str());
  std::string err;
  EXPECT_EQ(paramsLoad(&err), Status::InvalidArgument);
  EXPECT_NE(err.find("GSHMEM_SYMMETRIC_SIZE='" + big + "' is larger than this machine's memory"), std::string::npos)
      << err;
}

TEST(ParamsUnknown, NamesTheClosestKnownVariable) {
  ScopedEnv typo("GSHMEM_SYMMETRIC_SIZ", "1G");
  ScopedEnv foo("GSHMEM_FOO", "1");
  ScopedEnv script("GSHMEM_TEST_NPROCS", "2");  // read by the test scripts, not by the library
  std::vector<std::string> w = paramsUnknown();
  ASSERT_EQ(w.size(), 2u);
  std::sort(w.begin(), w.end());
  EXPECT_EQ(w[0], "GSHMEM_FOO is not a gshmem variable (gshmem-info -c lists them)");
  EXPECT_EQ(w[1], "GSHMEM_SYMMETRIC_SIZ is not a gshmem variable (did you mean GSHMEM_SYMMETRIC_SIZE?)");
}

TEST(ParamTable, EveryRowSaysWhatItAccepts) {
  for (const ParamInfo& p : paramTable()) {
    std::string a = paramAccepted(p);
    EXPECT_FALSE(a.empty()) << p.name;
    std::string type = p.type;
    if (type == "Int" || type == "Size" || type == "ScopeSizes") {
      EXPECT_TRUE(p.accepts.ranged) << p.name;
    }
    if (type == "Enum" || type == "EnumList") {
      EXPECT_NE(p.accepts.values, nullptr) << p.name;
    }
  }
}

TEST(ParamTable, NamesAreUniqueAndDefaultsParse) {
  const auto& table = paramTable();
  ASSERT_FALSE(table.empty());
  for (size_t i = 0; i < table.size(); ++i) {
    for (size_t j = i + 1; j < table.size(); ++j) EXPECT_STRNE(table[i].name, table[j].name);
    std::string type = table[i].type;
    if (type == "Size") {
      std::size_t v;
      EXPECT_TRUE(parseSize(table[i].def, &v)) << table[i].name;
    } else if (type == "Int") {
      long v;
      EXPECT_TRUE(parseInt(table[i].def, &v)) << table[i].name;
    } else if (type == "Bool") {
      bool v;
      EXPECT_TRUE(parseBool(table[i].def, &v)) << table[i].name;
    }
  }
}

}  // namespace
}  // namespace gshmem
