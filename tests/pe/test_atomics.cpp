// Atomics: every AMO on int, long, int32, uint64 (plus the bitwise ones where the type has them), fetch/set/swap on
// float and double, nbi forms, concurrent fetch_add from every PE, and the deprecated names.
#include <cstdint>
#include <vector>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

class Atomics : public PeTest {};

// Standard AMOs (AMO12 set). Target: one counter per PE on PE 0 plus one on the right neighbour.
#define GSHMEM_AMO_STANDARD_TEST(NAME, T)                                                   \
  TEST_F(Atomics, Standard_##NAME) {                                                        \
    T* v = static_cast<T*>(shmem_calloc(4, sizeof(T)));                                     \
    ASSERT_NE(v, nullptr);                                                                  \
    const int r = right();                                                                  \
    shmem_barrier_all();                                                                    \
    /* set / fetch */                                                                       \
    shmem_##NAME##_atomic_set(&v[0], static_cast<T>(100 + me_), r);                         \
    shmem_barrier_all();                                                                    \
    EXPECT_EQ(v[0], static_cast<T>(100 + left()));                                          \
    EXPECT_EQ(shmem_##NAME##_atomic_fetch(&v[0], r), static_cast<T>(100 + me_));            \
    shmem_barrier_all();                                                                    \
    /* swap */                                                                              \
    EXPECT_EQ(shmem_##NAME##_atomic_swap(&v[0], static_cast<T>(7), r), static_cast<T>(100 + me_)); \
    shmem_barrier_all();                                                                    \
    EXPECT_EQ(v[0], static_cast<T>(7));                                                     \
    shmem_barrier_all();                                                                    \
    /* compare_swap: failing then succeeding */                                             \
    EXPECT_EQ(shmem_##NAME##_atomic_compare_swap(&v[0], static_cast<T>(8), static_cast<T>(9), r), \
              static_cast<T>(7));                                                           \
    EXPECT_EQ(shmem_##NAME##_atomic_fetch(&v[0], r), static_cast<T>(7)) << "failed cswap wrote"; \
    EXPECT_EQ(shmem_##NAME##_atomic_compare_swap(&v[0], static_cast<T>(7), static_cast<T>(9), r), \
              static_cast<T>(7));                                                           \
    shmem_barrier_all();                                                                    \
    EXPECT_EQ(v[0], static_cast<T>(9));                                                     \
    shmem_barrier_all();                                                                    \
    /* add / inc / fetch_add / fetch_inc from every PE onto PE 0 */                         \
    shmem_##NAME##_atomic_add(&v[1], static_cast<T>(5), 0);                                 \
    shmem_##NAME##_atomic_inc(&v[1], 0);                                                    \
    T f1 = shmem_##NAME##_atomic_fetch_add(&v[2], static_cast<T>(3), 0);                    \
    T f2 = shmem_##NAME##_atomic_fetch_inc(&v[3], 0);                                       \
    EXPECT_EQ(f1 % 3, static_cast<T>(0));                                                   \
    EXPECT_LT(f1, static_cast<T>(3 * npes_));                                               \
    EXPECT_LT(f2, static_cast<T>(npes_));                                                   \
    shmem_barrier_all();                                                                    \
    if (me_ == 0) {                                                                         \
      EXPECT_EQ(v[1], static_cast<T>(6 * npes_));                                           \
      EXPECT_EQ(v[2], static_cast<T>(3 * npes_));                                           \
      EXPECT_EQ(v[3], static_cast<T>(npes_));                                               \
    }                                                                                       \
    shmem_barrier_all();                                                                    \
    /* nbi forms, completed by quiet */                                                     \
    T nf = 0, ns = 0, nc = 0, na = 0, ni = 0;                                               \
    shmem_##NAME##_atomic_fetch_nbi(&nf, &v[0], r);                                         \
    shmem_quiet();                                                                          \
    EXPECT_EQ(nf, static_cast<T>(9));                                                       \
    shmem_barrier_all();                                                                    \
    shmem_##NAME##_atomic_swap_nbi(&ns, &v[0], static_cast<T>(20), r);                      \
    shmem_quiet();                                                                          \
    EXPECT_EQ(ns, static_cast<T>(9));                                                       \
    shmem_##NAME##_atomic_compare_swap_nbi(&nc, &v[0], static_cast<T>(20), static_cast<T>(21), r); \
    shmem_quiet();                                                                          \
    EXPECT_EQ(nc, static_cast<T>(20));                                                      \
    shmem_##NAME##_atomic_fetch_add_nbi(&na, &v[0], static_cast<T>(2), r);                  \
    shmem_quiet();                                                                          \
    EXPECT_EQ(na, static_cast<T>(21));                                                      \
    shmem_##NAME##_atomic_fetch_inc_nbi(&ni, &v[0], r);                                     \
    shmem_quiet();                                                                          \
    EXPECT_EQ(ni, static_cast<T>(23));                                                      \
    shmem_barrier_all();                                                                    \
    EXPECT_EQ(v[0], static_cast<T>(24));                                                    \
    shmem_barrier_all();                                                                    \
    shmem_free(v);                                                                          \
  }

GSHMEM_AMO_STANDARD_TEST(int, int)
GSHMEM_AMO_STANDARD_TEST(long, long)
GSHMEM_AMO_STANDARD_TEST(longlong, long long)
GSHMEM_AMO_STANDARD_TEST(uint, unsigned int)
GSHMEM_AMO_STANDARD_TEST(ulong, unsigned long)
GSHMEM_AMO_STANDARD_TEST(ulonglong, unsigned long long)
GSHMEM_AMO_STANDARD_TEST(int32, int32_t)
GSHMEM_AMO_STANDARD_TEST(int64, int64_t)
GSHMEM_AMO_STANDARD_TEST(uint32, uint32_t)
GSHMEM_AMO_STANDARD_TEST(uint64, uint64_t)
GSHMEM_AMO_STANDARD_TEST(size, size_t)
GSHMEM_AMO_STANDARD_TEST(ptrdiff, ptrdiff_t)

// Bitwise AMOs (BIT7 set). Each PE owns one bit of a word on PE 0.
#define GSHMEM_AMO_BITWISE_TEST(NAME, T)                                                   \
  TEST_F(Atomics, Bitwise_##NAME) {                                                        \
    T* w = static_cast<T*>(shmem_calloc(4, sizeof(T)));                                    \
    ASSERT_NE(w, nullptr);                                                                 \
    ASSERT_LE(npes_, 16);                                                                  \
    const T all = static_cast<T>((static_cast<T>(1) << npes_) - 1);                                     \
    w[1] = all;                                                                            \
    w[2] = static_cast<T>(0x5555);                                                         \
    shmem_barrier_all();                                                                   \
    const T bit = static_cast<T>(static_cast<T>(1) << me_);                                             \
    shmem_##NAME##_atomic_or(&w[0], bit, 0);                                               \
    shmem_##NAME##_atomic_and(&w[1], static_cast<T>(~bit), 0);                             \
    shmem_##NAME##_atomic_xor(&w[2], bit, 0);                                              \
    shmem_barrier_all();                                                                   \
    if (me_ == 0) {                                                                        \
      EXPECT_EQ(w[0], all);                                                                \
      EXPECT_EQ(w[1], static_cast<T>(0));                                                  \
      EXPECT_EQ(w[2], static_cast<T>(0x5555 ^ all));                                       \
    }                                                                                      \
    shmem_barrier_all();                                                                   \
    /* fetching forms: each PE toggles its bit back; the fetched value always has the other bits consistent */ \
    T f_or = shmem_##NAME##_atomic_fetch_or(&w[1], bit, 0);                                \
    T f_and = shmem_##NAME##_atomic_fetch_and(&w[0], static_cast<T>(~bit), 0);             \
    T f_xor = shmem_##NAME##_atomic_fetch_xor(&w[2], bit, 0);                              \
    EXPECT_EQ(f_or & bit, static_cast<T>(0));                                              \
    EXPECT_EQ(f_and & bit, bit);                                                           \
    EXPECT_EQ(f_xor & bit, static_cast<T>(0x5555 ^ all) & bit);                            \
    shmem_barrier_all();                                                                   \
    if (me_ == 0) {                                                                        \
      EXPECT_EQ(w[1], all);                                                                \
      EXPECT_EQ(w[0], static_cast<T>(0));                                                  \
      EXPECT_EQ(w[2], static_cast<T>(0x5555));                                             \
    }                                                                                      \
    shmem_barrier_all();                                                                   \
    /* nbi fetching forms against the right neighbour's w[3] */                            \
    T n1 = 1, n2 = 1, n3 = 1;                                                              \
    shmem_##NAME##_atomic_fetch_or_nbi(&n1, &w[3], static_cast<T>(0xf0), right());         \
    shmem_quiet();                                                                         \
    shmem_##NAME##_atomic_fetch_and_nbi(&n2, &w[3], static_cast<T>(0x3c), right());        \
    shmem_quiet();                                                                         \
    shmem_##NAME##_atomic_fetch_xor_nbi(&n3, &w[3], static_cast<T>(0xff), right());        \
    shmem_quiet();                                                                         \
    EXPECT_EQ(n1, static_cast<T>(0));                                                      \
    EXPECT_EQ(n2, static_cast<T>(0xf0));                                                   \
    EXPECT_EQ(n3, static_cast<T>(0x30));                                                   \
    shmem_barrier_all();                                                                   \
    EXPECT_EQ(w[3], static_cast<T>(0xcf));                                                 \
    shmem_barrier_all();                                                                   \
    shmem_free(w);                                                                         \
  }

GSHMEM_AMO_BITWISE_TEST(uint, unsigned int)
GSHMEM_AMO_BITWISE_TEST(ulong, unsigned long)
GSHMEM_AMO_BITWISE_TEST(ulonglong, unsigned long long)
GSHMEM_AMO_BITWISE_TEST(int32, int32_t)
GSHMEM_AMO_BITWISE_TEST(int64, int64_t)
GSHMEM_AMO_BITWISE_TEST(uint32, uint32_t)
GSHMEM_AMO_BITWISE_TEST(uint64, uint64_t)

// Extended AMOs on floating point: fetch, set, swap (+ nbi).
#define GSHMEM_AMO_FLOAT_TEST(NAME, T)                                                  \
  TEST_F(Atomics, Extended_##NAME) {                                                    \
    T* v = static_cast<T*>(shmem_calloc(2, sizeof(T)));                                 \
    ASSERT_NE(v, nullptr);                                                              \
    shmem_barrier_all();                                                                \
    shmem_##NAME##_atomic_set(&v[0], static_cast<T>(me_ + 0.25), right());              \
    shmem_barrier_all();                                                                \
    EXPECT_EQ(v[0], static_cast<T>(left() + 0.25));                                     \
    EXPECT_EQ(shmem_##NAME##_atomic_fetch(&v[0], right()), static_cast<T>(me_ + 0.25)); \
    shmem_barrier_all();                                                                \
    EXPECT_EQ(shmem_##NAME##_atomic_swap(&v[0], static_cast<T>(-1.5), right()),         \
              static_cast<T>(me_ + 0.25));                                              \
    shmem_barrier_all();                                                                \
    EXPECT_EQ(v[0], static_cast<T>(-1.5));                                              \
    shmem_barrier_all();                                                                \
    T nf = 0, ns = 0;                                                                   \
    shmem_##NAME##_atomic_fetch_nbi(&nf, &v[0], right());                               \
    shmem_quiet();                                                                      \
    EXPECT_EQ(nf, static_cast<T>(-1.5));                                                \
    shmem_barrier_all();                                                                \
    shmem_##NAME##_atomic_swap_nbi(&ns, &v[0], static_cast<T>(2.5), right());           \
    shmem_quiet();                                                                      \
    EXPECT_EQ(ns, static_cast<T>(-1.5));                                                \
    shmem_barrier_all();                                                                \
    EXPECT_EQ(v[0], static_cast<T>(2.5));                                               \
    shmem_barrier_all();                                                                \
    shmem_free(v);                                                                      \
  }

GSHMEM_AMO_FLOAT_TEST(float, float)
GSHMEM_AMO_FLOAT_TEST(double, double)

TEST_F(Atomics, ConcurrentFetchAddSumsAndNeverRepeats) {
  const int iters = npes_ > 2 ? 300 : 500;
  long* counter = static_cast<long*>(shmem_calloc(1, sizeof(long)));
  int* seen = static_cast<int*>(shmem_calloc(iters * npes_, sizeof(int)));
  ASSERT_TRUE(counter && seen);
  shmem_barrier_all();
  std::vector<long> fetched;
  for (int i = 0; i < iters; ++i) fetched.push_back(shmem_long_atomic_fetch_add(counter, 1, 0));
  for (long f : fetched) {
    EXPECT_GE(f, 0);
    EXPECT_LT(f, static_cast<long>(iters) * npes_);
    if (f >= 0 && f < static_cast<long>(iters) * npes_) shmem_int_atomic_inc(&seen[f], 0);
  }
  shmem_barrier_all();
  if (me_ == 0) {
    EXPECT_EQ(*counter, static_cast<long>(iters) * npes_);
    int dup = 0, missing = 0;
    for (int i = 0; i < iters * npes_; ++i) {
      dup += seen[i] > 1;
      missing += seen[i] == 0;
    }
    EXPECT_EQ(dup, 0) << "fetch_add returned the same old value twice";
    EXPECT_EQ(missing, 0);
  }
  shmem_barrier_all();
  shmem_free(seen);
  shmem_free(counter);
}

TEST_F(Atomics, ConcurrentMixedOpsOnEveryPe) {
  // Every PE adds to every PE's counters with different AMO forms at once.
  const int iters = 60 * npes_;  // a multiple of npes_: every PE is targeted equally often
  uint64_t* c = static_cast<uint64_t*>(shmem_calloc(2, sizeof(uint64_t)));
  int32_t* d = static_cast<int32_t*>(shmem_calloc(1, sizeof(int32_t)));
  ASSERT_TRUE(c && d);
  shmem_barrier_all();
  for (int i = 0; i < iters; ++i) {
    int pe = (me_ + i) % npes_;
    shmem_uint64_atomic_inc(&c[0], pe);
    (void)shmem_uint64_atomic_fetch_add(&c[1], 2, pe);
    shmem_int32_atomic_add(d, -1, pe);
  }
  shmem_barrier_all();
  // Each PE receives iters ops in total from all PEs combined, spread evenly.
  EXPECT_EQ(c[0], static_cast<uint64_t>(iters));
  EXPECT_EQ(c[1], static_cast<uint64_t>(2 * iters));
  EXPECT_EQ(*d, -iters);
  shmem_barrier_all();
  shmem_free(d);
  shmem_free(c);
}

TEST_F(Atomics, CompareSwapElectsOneWinner) {
  int* slot = static_cast<int*>(shmem_calloc(1, sizeof(int)));
  static int winners;  // symmetric
  winners = 0;
  ASSERT_NE(slot, nullptr);
  shmem_barrier_all();
  int old = shmem_int_atomic_compare_swap(slot, 0, me_ + 1, 0);
  if (old == 0) shmem_int_atomic_inc(&winners, 0);
  shmem_barrier_all();
  if (me_ == 0) {
    EXPECT_EQ(winners, 1);
    EXPECT_GE(*slot, 1);
    EXPECT_LE(*slot, npes_);
  }
  shmem_barrier_all();
  shmem_free(slot);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST_F(Atomics, DeprecatedNames) {
  long* v = static_cast<long*>(shmem_calloc(2, sizeof(long)));
  int* w = static_cast<int*>(shmem_calloc(1, sizeof(int)));
  ASSERT_TRUE(v && w);
  shmem_barrier_all();
  shmem_long_add(&v[0], 2, 0);
  shmem_long_inc(&v[0], 0);
  long f = shmem_long_fadd(&v[1], 1, 0);
  EXPECT_GE(f, 0);
  (void)shmem_long_finc(&v[1], 0);
  shmem_int_inc(w, 0);
  (void)shmem_int_fadd(w, 1, 0);
  shmem_barrier_all();
  if (me_ == 0) {
    EXPECT_EQ(v[0], 3L * npes_);
    EXPECT_EQ(v[1], 2L * npes_);
    EXPECT_EQ(*w, 2 * npes_);
  }
  shmem_barrier_all();
  shmem_long_set(&v[0], me_, right());
  shmem_barrier_all();
  EXPECT_EQ(shmem_long_fetch(&v[0], right()), me_);
  EXPECT_EQ(shmem_long_swap(&v[0], 40, right()), me_);
  EXPECT_EQ(shmem_long_cswap(&v[0], 40, 41, right()), 40);
  shmem_barrier_all();
  EXPECT_EQ(v[0], 41);
  shmem_barrier_all();
  shmem_free(w);
  shmem_free(v);
}
#pragma GCC diagnostic pop

}  // namespace
}  // namespace gshmem_test
