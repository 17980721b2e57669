// Type-generic calls from C++: shmem_put(dest, src, n, pe) and friends must resolve to the typed routine
// (the header provides C++ overloads where C11 uses _Generic).
#include <cstdint>
#include <type_traits>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

class GenericCxx : public PeTest {};

template <typename T>
void roundTrip(int me, int right, int left) {
  T* dst = static_cast<T*>(shmem_calloc(8, sizeof(T)));
  ASSERT_NE(dst, nullptr);
  T src[8];
  for (int i = 0; i < 8; ++i) src[i] = static_cast<T>(me * 10 + i);
  shmem_barrier_all();
  shmem_put(dst, src, 8, right);  // overload on T*
  shmem_barrier_all();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(dst[i], static_cast<T>(left * 10 + i)) << i;
  T got[8];
  shmem_get(got, dst, 8, right);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got[i], static_cast<T>(me * 10 + i)) << i;
  shmem_barrier_all();
  shmem_p(&dst[0], static_cast<T>(99), right);
  shmem_barrier_all();
  EXPECT_EQ(dst[0], static_cast<T>(99));
  auto g = shmem_g(&dst[1], right);
  static_assert(std::is_same<decltype(g), T>::value, "shmem_g must return the element type");
  EXPECT_EQ(g, static_cast<T>(me * 10 + 1));
  shmem_barrier_all();
  shmem_free(dst);
}

TEST_F(GenericCxx, PutGetPG) {
  roundTrip<char>(me_, right(), left());
  roundTrip<short>(me_, right(), left());
  roundTrip<int>(me_, right(), left());
  roundTrip<long>(me_, right(), left());
  roundTrip<long long>(me_, right(), left());
  roundTrip<unsigned int>(me_, right(), left());
  roundTrip<unsigned long>(me_, right(), left());
  roundTrip<float>(me_, right(), left());
  roundTrip<double>(me_, right(), left());
  roundTrip<long double>(me_, right(), left());
}

TEST_F(GenericCxx, Atomics) {
  long* l = static_cast<long*>(shmem_calloc(1, sizeof(long)));
  int* i = static_cast<int*>(shmem_calloc(1, sizeof(int)));
  uint64_t* u = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  double* d = static_cast<double*>(shmem_calloc(1, sizeof(double)));
  ASSERT_TRUE(l && i && u && d);
  shmem_barrier_all();
  shmem_atomic_add(l, 3L, 0);
  shmem_atomic_inc(i, 0);
  auto f = shmem_atomic_fetch_add(u, static_cast<uint64_t>(2), 0);
  static_assert(std::is_same<decltype(f), uint64_t>::value, "fetch_add returns the element type");
  shmem_atomic_set(d, 1.5, right());
  shmem_barrier_all();
  if (me_ == 0) {
    EXPECT_EQ(*l, 3L * npes_);
    EXPECT_EQ(*i, npes_);
    EXPECT_EQ(*u, 2u * npes_);
  }
  EXPECT_EQ(*d, 1.5);
  EXPECT_EQ(shmem_atomic_fetch(l, 0), 3L * npes_);
  shmem_barrier_all();  // everyone checked before anyone swaps
  EXPECT_EQ(shmem_atomic_swap(d, 2.5, right()), 1.5);
  shmem_barrier_all();
  if (me_ == 0) EXPECT_EQ(shmem_atomic_compare_swap(i, npes_, -1, 0), npes_);
  shmem_barrier_all();
  EXPECT_EQ(shmem_atomic_fetch(i, 0), -1);
  shmem_barrier_all();
  shmem_free(d);
  shmem_free(u);
  shmem_free(i);
  shmem_free(l);
}

TEST_F(GenericCxx, WaitUntilAndCtxForms) {
  long* flag = static_cast<long*>(shmem_calloc(1, sizeof(long)));
  int* buf = static_cast<int*>(shmem_calloc(4, sizeof(int)));
  ASSERT_TRUE(flag && buf);
  shmem_barrier_all();
  int src[4] = {me_, me_ + 1, me_ + 2, me_ + 3};
  shmem_put(SHMEM_CTX_DEFAULT, buf, src, 4, right());  // ctx overload
  shmem_fence();
  shmem_atomic_set(SHMEM_CTX_DEFAULT, flag, 1L, right());
  shmem_wait_until(flag, SHMEM_CMP_EQ, 1L);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(buf[k], left() + k);
  EXPECT_EQ(shmem_test(flag, SHMEM_CMP_EQ, 1L), 1);
  shmem_barrier_all();
  shmem_free(buf);
  shmem_free(flag);
}

// Code shared with C passes C complex arrays (float _Complex, double _Complex) to the complex reductions, and
// int8_t/int16_t arrays to the bitwise ones.
TEST_F(GenericCxx, CComplexAndSmallIntReductions) {
  auto* cd = static_cast<double _Complex*>(shmem_calloc(4, sizeof(double _Complex)));
  auto* cf = static_cast<float _Complex*>(shmem_calloc(4, sizeof(float _Complex)));
  auto* b = static_cast<int8_t*>(shmem_calloc(4, sizeof(int8_t)));
  auto* h = static_cast<int16_t*>(shmem_calloc(4, sizeof(int16_t)));
  ASSERT_TRUE(cd && cf && b && h);
  __real__ cd[0] = me_ + 1.0;
  __imag__ cd[0] = 1.0;
  __real__ cf[0] = 2.0f;
  __imag__ cf[0] = 0.0f;
  b[0] = static_cast<int8_t>(1 << (me_ % 7));
  h[0] = static_cast<int16_t>(1 << (me_ % 15));
  shmem_barrier_all();
  EXPECT_EQ(shmem_sum_reduce(SHMEM_TEAM_WORLD, cd + 2, cd, 1), 0);
  EXPECT_EQ(shmem_complexf_prod_reduce(SHMEM_TEAM_WORLD, cf + 2, cf, 1), 0);
  EXPECT_EQ(shmem_or_reduce(SHMEM_TEAM_WORLD, b + 2, b, 1), 0);
  EXPECT_EQ(shmem_xor_reduce(SHMEM_TEAM_WORLD, h + 2, h, 1), 0);
  double re = 0;
  int8_t bor = 0;
  int16_t hxor = 0;
  for (int p = 0; p < npes_; ++p) {
    re += p + 1.0;
    bor = static_cast<int8_t>(bor | (1 << (p % 7)));
    hxor = static_cast<int16_t>(hxor ^ (1 << (p % 15)));
  }
  EXPECT_EQ(__real__ cd[2], re);
  EXPECT_EQ(__imag__ cd[2], static_cast<double>(npes_));
  EXPECT_EQ(__real__ cf[2], static_cast<float>(1 << npes_));
  EXPECT_EQ(b[2], bor);
  EXPECT_EQ(h[2], hxor);
  shmem_barrier_all();
  shmem_free(h);
  shmem_free(b);
  shmem_free(cf);
  shmem_free(cd);
}

}  // namespace
}  // namespace gshmem_test
