// Setup and identity queries: my_pe, n_pes, accessibility, shmem_ptr, info, version macros, deprecated names.
#include <cstring>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

int g_global_int = 3;  // symmetric because it is a global

class Setup : public PeTest {};

TEST_F(Setup, MyPeAndNPes) {
  EXPECT_GE(npes_, 1);
  EXPECT_GE(me_, 0);
  EXPECT_LT(me_, npes_);
  EXPECT_EQ(shmem_my_pe(), me_);  // stable across calls
  EXPECT_EQ(shmem_n_pes(), npes_);
}

TEST_F(Setup, PesHaveDistinctIds) {
  static int seen[1024];  // symmetric (static)
  ASSERT_LE(npes_, 1024);
  std::memset(seen, 0, sizeof(seen));
  shmem_barrier_all();
  for (int pe = 0; pe < npes_; ++pe) shmem_int_atomic_inc(&seen[me_], pe);
  shmem_barrier_all();
  for (int pe = 0; pe < npes_; ++pe) EXPECT_EQ(seen[pe], 1) << "slot of PE " << pe;  // one inc from each PE
}

TEST_F(Setup, PeAccessible) {
  for (int pe = 0; pe < npes_; ++pe) EXPECT_TRUE(shmem_pe_accessible(pe)) << pe;
  EXPECT_FALSE(shmem_pe_accessible(-1));
  EXPECT_FALSE(shmem_pe_accessible(npes_));
  EXPECT_FALSE(shmem_pe_accessible(npes_ + 100));
}

TEST_F(Setup, AddrAccessible) {
  int* heap = static_cast<int*>(shmem_malloc(64 * sizeof(int)));
  ASSERT_NE(heap, nullptr);
  int on_stack = 0;
  for (int pe = 0; pe < npes_; ++pe) {
    EXPECT_TRUE(shmem_addr_accessible(heap, pe)) << pe;
    EXPECT_TRUE(shmem_addr_accessible(heap + 63, pe)) << pe;
    EXPECT_TRUE(shmem_addr_accessible(&g_global_int, pe)) << pe;
    EXPECT_FALSE(shmem_addr_accessible(&on_stack, pe)) << pe;
  }
  shmem_free(heap);
}

TEST_F(Setup, PtrGivesDirectAccessOrNull) {
  long* buf = static_cast<long*>(shmem_malloc(npes_ * sizeof(long)));
  ASSERT_NE(buf, nullptr);
  for (int i = 0; i < npes_; ++i) buf[i] = -1;
  EXPECT_EQ(shmem_ptr(buf, me_), static_cast<void*>(buf)) << "shmem_ptr to myself must be the address itself";
  shmem_barrier_all();
  // Where a peer is load/store accessible, a plain store through shmem_ptr must be visible to it.
  for (int pe = 0; pe < npes_; ++pe) {
    long* p = static_cast<long*>(shmem_ptr(buf, pe));
    if (p) p[me_] = 1000 + me_;
    else shmem_long_p(&buf[me_], 1000 + me_, pe);
  }
  shmem_barrier_all();
  for (int pe = 0; pe < npes_; ++pe) EXPECT_EQ(buf[pe], 1000 + pe);
  shmem_barrier_all();
  shmem_free(buf);
}

TEST_F(Setup, InfoVersionMatchesMacros) {
  int major = -1, minor = -1;
  shmem_info_get_version(&major, &minor);
  EXPECT_EQ(major, SHMEM_MAJOR_VERSION);
  EXPECT_EQ(minor, SHMEM_MINOR_VERSION);
  EXPECT_EQ(SHMEM_MAJOR_VERSION, 1);
  EXPECT_GE(SHMEM_MINOR_VERSION, 5);
  EXPECT_EQ(_SHMEM_MAJOR_VERSION, SHMEM_MAJOR_VERSION);
  EXPECT_EQ(_SHMEM_MINOR_VERSION, SHMEM_MINOR_VERSION);
}

TEST_F(Setup, InfoName) {
  char name[SHMEM_MAX_NAME_LEN];
  std::memset(name, 'x', sizeof(name));
  shmem_info_get_name(name);
  size_t len = strnlen(name, SHMEM_MAX_NAME_LEN);
  EXPECT_LT(len, static_cast<size_t>(SHMEM_MAX_NAME_LEN)) << "name not NUL-terminated within SHMEM_MAX_NAME_LEN";
  EXPECT_GT(len, 0u);
  EXPECT_STREQ(SHMEM_VENDOR_STRING, name);
  EXPECT_EQ(_SHMEM_MAX_NAME_LEN, SHMEM_MAX_NAME_LEN);
}

TEST_F(Setup, ConstantTwins) {
  EXPECT_EQ(_SHMEM_CMP_EQ, SHMEM_CMP_EQ);
  EXPECT_EQ(_SHMEM_CMP_GE, SHMEM_CMP_GE);
  EXPECT_EQ(_SHMEM_BCAST_SYNC_SIZE, SHMEM_BCAST_SYNC_SIZE);
  EXPECT_EQ(_SHMEM_SYNC_VALUE, SHMEM_SYNC_VALUE);
  EXPECT_LT(SHMEM_THREAD_SINGLE, SHMEM_THREAD_FUNNELED);
  EXPECT_LT(SHMEM_THREAD_FUNNELED, SHMEM_THREAD_SERIALIZED);
  EXPECT_LT(SHMEM_THREAD_SERIALIZED, SHMEM_THREAD_MULTIPLE);
}

TEST_F(Setup, QueryThread) {
  int level = -1;
  shmem_query_thread(&level);
  EXPECT_GE(level, SHMEM_THREAD_SINGLE);
  EXPECT_LE(level, SHMEM_THREAD_MULTIPLE);
}

TEST_F(Setup, InitAgainIsHarmless) {
  // OpenSHMEM 1.5: multiple calls to shmem_init are allowed once the library is initialized.
  shmem_init();
  EXPECT_EQ(shmem_my_pe(), me_);
  EXPECT_EQ(shmem_n_pes(), npes_);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST_F(Setup, DeprecatedNames) {
  start_pes(0);  // after shmem_init: must not re-initialize
  EXPECT_EQ(_my_pe(), me_);
  EXPECT_EQ(_num_pes(), npes_);
  long* p = static_cast<long*>(shmalloc(sizeof(long) * 4));
  ASSERT_NE(p, nullptr);
  p[0] = me_;
  shmem_barrier_all();
  EXPECT_EQ(shmem_long_g(p, right()), right());
  shmem_barrier_all();
  shfree(p);
}
#pragma GCC diagnostic pop

}  // namespace
}  // namespace gshmem_test
