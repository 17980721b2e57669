// Point-to-point synchronization: wait_until wake-ups, the all/any/some and vector forms, test forms, status masks.
#include <cstdint>
#include <vector>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

class Wait : public PeTest {};

TEST_F(Wait, WaitUntilWakesOnDelayedRemoteWrite) {
  long* flag = static_cast<long*>(shmem_calloc(1, sizeof(long)));
  ASSERT_NE(flag, nullptr);
  shmem_barrier_all();
  if (me_ == 0) {
    shmem_long_wait_until(flag, SHMEM_CMP_EQ, 77);
    EXPECT_EQ(*flag, 77);
  } else if (me_ == 1) {
    sleepMs(200);
    shmem_long_p(flag, 77, 0);
  }
  shmem_barrier_all();
  shmem_free(flag);
}

TEST_F(Wait, WaitUntilEveryComparison) {
  int* v = static_cast<int*>(shmem_calloc(6, sizeof(int)));
  ASSERT_NE(v, nullptr);
  shmem_barrier_all();
  if (me_ == 1) {
    sleepMs(50);
    shmem_int_p(&v[0], 5, 0);    // EQ 5
    shmem_int_p(&v[1], 1, 0);    // NE 0
    shmem_int_p(&v[2], 10, 0);   // GT 9
    shmem_int_p(&v[3], 9, 0);    // GE 9
    shmem_int_p(&v[4], -3, 0);   // LT 0
    shmem_int_p(&v[5], 0, 0);    // LE 0 (already true)
  } else if (me_ == 0) {
    shmem_int_wait_until(&v[0], SHMEM_CMP_EQ, 5);
    shmem_int_wait_until(&v[1], SHMEM_CMP_NE, 0);
    shmem_int_wait_until(&v[2], SHMEM_CMP_GT, 9);
    shmem_int_wait_until(&v[3], SHMEM_CMP_GE, 9);
    shmem_int_wait_until(&v[4], SHMEM_CMP_LT, 0);
    shmem_int_wait_until(&v[5], SHMEM_CMP_LE, 0);
    EXPECT_EQ(v[0], 5);
    EXPECT_EQ(v[4], -3);
  }
  shmem_barrier_all();
  shmem_free(v);
}

TEST_F(Wait, WaitUntilOtherTypes) {
  uint64_t* u = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  short* s = static_cast<short*>(shmem_calloc(1, sizeof(short)));
  long long* ll = static_cast<long long*>(shmem_calloc(1, sizeof(long long)));
  size_t* sz = static_cast<size_t*>(shmem_calloc(1, sizeof(size_t)));
  ASSERT_TRUE(u && s && ll && sz);
  shmem_barrier_all();
  shmem_uint64_atomic_set(u, 1ull << 40, right());
  shmem_short_p(s, 300, right());
  shmem_longlong_p(ll, -5, right());
  shmem_size_p(sz, 12345, right());
  shmem_uint64_wait_until(u, SHMEM_CMP_EQ, 1ull << 40);
  shmem_short_wait_until(s, SHMEM_CMP_EQ, 300);
  shmem_longlong_wait_until(ll, SHMEM_CMP_LT, 0);
  shmem_size_wait_until(sz, SHMEM_CMP_GE, 12345);
  shmem_barrier_all();
  shmem_free(sz);
  shmem_free(ll);
  shmem_free(s);
  shmem_free(u);
}

// Every PE but 0 sets its slot of PE 0's array after a delay; PE 0 uses the set forms.
TEST_F(Wait, WaitUntilAllAnySome) {
  long* ivars = static_cast<long*>(shmem_calloc(npes_, sizeof(long)));
  ASSERT_NE(ivars, nullptr);
  shmem_barrier_all();
  if (me_ == 0) {
    std::vector<int> status(npes_, 0);
    status[0] = 1;  // my own slot is excluded
    // any: returns an index of a slot that satisfies the comparison
    size_t idx = shmem_long_wait_until_any(ivars, npes_, status.data(), SHMEM_CMP_NE, 0);
    EXPECT_GE(idx, 1u);
    EXPECT_LT(idx, static_cast<size_t>(npes_));
    if (idx < static_cast<size_t>(npes_)) EXPECT_EQ(ivars[idx], static_cast<long>(idx) * 10);
    // some: returns how many and which
    std::vector<size_t> indices(npes_);
    size_t n = shmem_long_wait_until_some(ivars, npes_, indices.data(), status.data(), SHMEM_CMP_NE, 0);
    EXPECT_GE(n, 1u);
    EXPECT_LE(n, static_cast<size_t>(npes_ - 1));
    for (size_t k = 0; k < n && k < indices.size(); ++k) {
      EXPECT_NE(indices[k], 0u) << "status mask ignored";
      EXPECT_NE(ivars[indices[k]], 0);
    }
    // all
    shmem_long_wait_until_all(ivars, npes_, status.data(), SHMEM_CMP_NE, 0);
    for (int pe = 1; pe < npes_; ++pe) EXPECT_EQ(ivars[pe], pe * 10) << pe;
    EXPECT_EQ(ivars[0], 0);
  } else {
    sleepMs(20 * me_);
    shmem_long_atomic_set(&ivars[me_], me_ * 10, 0);
  }
  shmem_barrier_all();
  shmem_free(ivars);
}

TEST_F(Wait, NullStatusMeansAllIncluded) {
  int* ivars = static_cast<int*>(shmem_calloc(npes_, sizeof(int)));
  ASSERT_NE(ivars, nullptr);
  shmem_barrier_all();
  for (int pe = 0; pe < npes_; ++pe) shmem_int_atomic_set(&ivars[me_], 1, pe);
  shmem_int_wait_until_all(ivars, npes_, nullptr, SHMEM_CMP_EQ, 1);
  for (int pe = 0; pe < npes_; ++pe) EXPECT_EQ(ivars[pe], 1) << pe;
  shmem_barrier_all();
  shmem_free(ivars);
}

TEST_F(Wait, VectorForms) {
  // PE 0 waits for per-element values: ivars[i] == cmp_values[i].
  int* ivars = static_cast<int*>(shmem_calloc(npes_, sizeof(int)));
  ASSERT_NE(ivars, nullptr);
  shmem_barrier_all();
  if (me_ == 0) {
    std::vector<int> want(npes_);
    for (int pe = 0; pe < npes_; ++pe) want[pe] = 100 + pe;
    std::vector<int> status(npes_, 0);
    status[0] = 1;
    size_t idx = shmem_int_wait_until_any_vector(ivars, npes_, status.data(), SHMEM_CMP_EQ, want.data());
    EXPECT_GE(idx, 1u);
    EXPECT_LT(idx, static_cast<size_t>(npes_));
    std::vector<size_t> indices(npes_);
    size_t n = shmem_int_wait_until_some_vector(ivars, npes_, indices.data(), status.data(), SHMEM_CMP_EQ,
                                                want.data());
    EXPECT_GE(n, 1u);
    shmem_int_wait_until_all_vector(ivars, npes_, status.data(), SHMEM_CMP_EQ, want.data());
    for (int pe = 1; pe < npes_; ++pe) EXPECT_EQ(ivars[pe], 100 + pe);
    // test_*_vector on satisfied data
    EXPECT_EQ(shmem_int_test_all_vector(ivars, npes_, status.data(), SHMEM_CMP_EQ, want.data()), 1);
    EXPECT_NE(shmem_int_test_any_vector(ivars, npes_, status.data(), SHMEM_CMP_EQ, want.data()), SIZE_MAX);
    EXPECT_EQ(shmem_int_test_some_vector(ivars, npes_, indices.data(), status.data(), SHMEM_CMP_EQ, want.data()),
              static_cast<size_t>(npes_ - 1));
  } else {
    sleepMs(30 * me_);
    shmem_int_atomic_set(&ivars[me_], 100 + me_, 0);
  }
  shmem_barrier_all();
  shmem_free(ivars);
}

TEST_F(Wait, TestFormsDoNotBlock) {
  long* ivars = static_cast<long*>(shmem_calloc(4, sizeof(long)));
  ASSERT_NE(ivars, nullptr);
  shmem_barrier_all();
  // Nothing written yet: every test form reports "not satisfied".
  EXPECT_EQ(shmem_long_test(&ivars[0], SHMEM_CMP_NE, 0), 0);
  EXPECT_EQ(shmem_long_test(&ivars[0], SHMEM_CMP_EQ, 0), 1);
  EXPECT_EQ(shmem_long_test_all(ivars, 4, nullptr, SHMEM_CMP_NE, 0), 0);
  EXPECT_EQ(shmem_long_test_any(ivars, 4, nullptr, SHMEM_CMP_NE, 0), SIZE_MAX);
  size_t idx[4];
  EXPECT_EQ(shmem_long_test_some(ivars, 4, idx, nullptr, SHMEM_CMP_NE, 0), 0u);
  shmem_barrier_all();
  shmem_long_p(&ivars[2], 9, right());
  // Poll with test until the remote write lands.
  while (!shmem_long_test(&ivars[2], SHMEM_CMP_EQ, 9)) {
  }
  EXPECT_EQ(shmem_long_test_any(ivars, 4, nullptr, SHMEM_CMP_NE, 0), 2u);
  EXPECT_EQ(shmem_long_test_some(ivars, 4, idx, nullptr, SHMEM_CMP_NE, 0), 1u);
  EXPECT_EQ(idx[0], 2u);
  EXPECT_EQ(shmem_long_test_all(ivars, 4, nullptr, SHMEM_CMP_NE, 0), 0);
  int status[4] = {1, 1, 0, 1};  // only index 2 counts
  EXPECT_EQ(shmem_long_test_all(ivars, 4, status, SHMEM_CMP_NE, 0), 1);
  int all_masked[4] = {1, 1, 1, 1};
  EXPECT_EQ(shmem_long_test_any(ivars, 4, all_masked, SHMEM_CMP_NE, 0), SIZE_MAX);
  shmem_barrier_all();
  shmem_free(ivars);
}

TEST_F(Wait, AllMaskedReturnsImmediately) {
  long* ivars = static_cast<long*>(shmem_calloc(3, sizeof(long)));
  ASSERT_NE(ivars, nullptr);
  int mask[3] = {1, 1, 1};
  shmem_long_wait_until_all(ivars, 3, mask, SHMEM_CMP_EQ, 5);  // nothing to wait for
  EXPECT_EQ(shmem_long_wait_until_any(ivars, 3, mask, SHMEM_CMP_EQ, 5), SIZE_MAX);
  size_t idx[3];
  EXPECT_EQ(shmem_long_wait_until_some(ivars, 3, idx, mask, SHMEM_CMP_EQ, 5), 0u);
  shmem_long_wait_until_all(ivars, 0, nullptr, SHMEM_CMP_EQ, 5);  // nelems 0
  shmem_barrier_all();
  shmem_free(ivars);
}

TEST_F(Wait, ManyWakeUpsPingPong) {
  const int rounds = npes_ > 2 ? 200 : 500;
  int* ball = static_cast<int*>(shmem_calloc(1, sizeof(int)));
  ASSERT_NE(ball, nullptr);
  shmem_barrier_all();
  // A token goes around the ring `rounds` times.
  for (int r = 0; r < rounds; ++r) {
    int expect = r * npes_ + me_;
    if (!(r == 0 && me_ == 0)) shmem_int_wait_until(ball, SHMEM_CMP_EQ, expect);
    shmem_int_atomic_set(ball, expect + 1, right());
  }
  shmem_barrier_all();
  if (me_ == 0) EXPECT_EQ(*ball, rounds * npes_);
  shmem_barrier_all();
  shmem_free(ball);
}

}  // namespace
}  // namespace gshmem_test
