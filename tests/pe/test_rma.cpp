// RMA: typed put/get/p/g/iput/iget/put_nbi/get_nbi for several types, putmem/getmem, sized put/get, nbi + quiet.
#include <cstdint>
#include <cstring>
#include <vector>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

class Rma : public PeTest {
 protected:
  template <typename T>
  T* symAlloc(size_t n) {
    T* p = static_cast<T*>(shmem_calloc(n, sizeof(T)));
    EXPECT_NE(p, nullptr);
    return p;
  }
};

template <typename T>
T valueOf(int pe, size_t i) {
  return static_cast<T>((pe + 1) * 37 + static_cast<long>(i % 89));
}

// One test per type covering the typed families; the functions come from the C API names.
#define GSHMEM_RMA_TYPED_TEST(NAME, T)                                                              \
  TEST_F(Rma, Typed_##NAME) {                                                                       \
    const size_t n = 257;                                                                           \
    T* dst = symAlloc<T>(n);                                                                        \
    T* src = symAlloc<T>(n);                                                                        \
    ASSERT_TRUE(dst && src);                                                                        \
    for (size_t i = 0; i < n; ++i) src[i] = valueOf<T>(me_, i);                                     \
    shmem_barrier_all();                                                                            \
    /* put */                                                                                       \
    shmem_##NAME##_put(dst, src, n, right());                                                       \
    shmem_barrier_all();                                                                            \
    GSHMEM_EXPECT_ALL(n, i, dst[i] == valueOf<T>(left(), i));                                       \
    /* get */                                                                                       \
    std::vector<T> got(n);                                                                          \
    shmem_##NAME##_get(got.data(), src, n, right());                                                \
    GSHMEM_EXPECT_ALL(n, i, got[i] == valueOf<T>(right(), i));                                      \
    /* p / g */                                                                                     \
    shmem_barrier_all();                                                                            \
    shmem_##NAME##_p(&dst[n - 1], static_cast<T>(me_ + 3), right());                                \
    shmem_barrier_all();                                                                            \
    EXPECT_TRUE(dst[n - 1] == static_cast<T>(left() + 3));                                          \
    EXPECT_TRUE(shmem_##NAME##_g(&src[5], left()) == valueOf<T>(left(), 5));                        \
    /* nbi + quiet */                                                                               \
    shmem_barrier_all();                                                                            \
    for (size_t i = 0; i < n; ++i) src[i] = valueOf<T>(me_ + 10, i);                                \
    shmem_barrier_all();                                                                            \
    shmem_##NAME##_put_nbi(dst, src, n, right());                                                   \
    shmem_quiet();                                                                                  \
    std::vector<T> nb(n);                                                                           \
    shmem_##NAME##_get_nbi(nb.data(), src, n, left());                                              \
    shmem_quiet();                                                                                  \
    GSHMEM_EXPECT_ALL(n, i, nb[i] == valueOf<T>(left() + 10, i));                                       \
    shmem_barrier_all();                                                                            \
    GSHMEM_EXPECT_ALL(n, i, dst[i] == valueOf<T>(left() + 10, i));                                       \
    /* iput / iget: every 3rd element of src into every 2nd of dst */                               \
    shmem_barrier_all();                                                                            \
    for (size_t i = 0; i < n; ++i) dst[i] = static_cast<T>(0);                                      \
    shmem_barrier_all();                                                                            \
    const size_t m = 40;                                                                            \
    shmem_##NAME##_iput(dst, src, 2, 3, m, right());                                                \
    shmem_barrier_all();                                                                            \
    GSHMEM_EXPECT_ALL(2 * m, k,                                                                     \
                      dst[k] == ((k % 2 == 0) ? valueOf<T>(left() + 10, 3 * (k / 2)) : static_cast<T>(0))); \
    std::vector<T> ig(3 * m, static_cast<T>(0));                                                    \
    shmem_##NAME##_iget(ig.data(), src, 3, 2, m, right());                                          \
    GSHMEM_EXPECT_ALL(3 * m, k,                                                                     \
                      ig[k] == ((k % 3 == 0) ? valueOf<T>(right() + 10, 2 * (k / 3)) : static_cast<T>(0))); \
    shmem_barrier_all();                                                                            \
    shmem_free(dst);                                                                                \
    shmem_free(src);                                                                                \
  }

GSHMEM_RMA_TYPED_TEST(char, char)
GSHMEM_RMA_TYPED_TEST(schar, signed char)
GSHMEM_RMA_TYPED_TEST(short, short)
GSHMEM_RMA_TYPED_TEST(int, int)
GSHMEM_RMA_TYPED_TEST(long, long)
GSHMEM_RMA_TYPED_TEST(longlong, long long)
GSHMEM_RMA_TYPED_TEST(uchar, unsigned char)
GSHMEM_RMA_TYPED_TEST(ushort, unsigned short)
GSHMEM_RMA_TYPED_TEST(uint, unsigned int)
GSHMEM_RMA_TYPED_TEST(ulong, unsigned long)
GSHMEM_RMA_TYPED_TEST(ulonglong, unsigned long long)
GSHMEM_RMA_TYPED_TEST(int8, int8_t)
GSHMEM_RMA_TYPED_TEST(int16, int16_t)
GSHMEM_RMA_TYPED_TEST(int32, int32_t)
GSHMEM_RMA_TYPED_TEST(int64, int64_t)
GSHMEM_RMA_TYPED_TEST(uint8, uint8_t)
GSHMEM_RMA_TYPED_TEST(uint16, uint16_t)
GSHMEM_RMA_TYPED_TEST(uint32, uint32_t)
GSHMEM_RMA_TYPED_TEST(uint64, uint64_t)
GSHMEM_RMA_TYPED_TEST(size, size_t)
GSHMEM_RMA_TYPED_TEST(ptrdiff, ptrdiff_t)
GSHMEM_RMA_TYPED_TEST(float, float)
GSHMEM_RMA_TYPED_TEST(double, double)
GSHMEM_RMA_TYPED_TEST(longdouble, long double)

TEST_F(Rma, LongDoubleKeepsFullPrecision) {
  long double* d = symAlloc<long double>(4);
  ASSERT_NE(d, nullptr);
  long double v = 1.0L + 1.0L / 3.0L + me_;
  shmem_barrier_all();
  shmem_longdouble_p(&d[1], v, right());
  shmem_barrier_all();
  EXPECT_TRUE(d[1] == 1.0L + 1.0L / 3.0L + left()) << "long double truncated";
  shmem_free(d);
}

TEST_F(Rma, PutmemGetmemSizes) {
  const size_t max = 1 << 20;
  char* dst = symAlloc<char>(max);
  char* src = symAlloc<char>(max);
  ASSERT_TRUE(dst && src);
  for (size_t i = 0; i < max; ++i) src[i] = static_cast<char>((i * 7 + me_) & 0xff);
  for (size_t len : {size_t(1), size_t(3), size_t(8), size_t(63), size_t(4096), size_t(65537), max}) {
    std::memset(dst, 0, max);
    shmem_barrier_all();
    shmem_putmem(dst, src, len, right());
    shmem_barrier_all();
    size_t bad = 0;
    for (size_t i = 0; i < len; ++i) bad += dst[i] != static_cast<char>((i * 7 + left()) & 0xff);
    EXPECT_EQ(bad, 0u) << "putmem len " << len;
    if (len < max) EXPECT_EQ(dst[len], 0) << "putmem wrote past len " << len;
    std::vector<char> got(len);
    shmem_getmem(got.data(), src, len, left());
    bad = 0;
    for (size_t i = 0; i < len; ++i) bad += got[i] != static_cast<char>((i * 7 + left()) & 0xff);
    EXPECT_EQ(bad, 0u) << "getmem len " << len;
  }
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
}

TEST_F(Rma, PutmemNbiGetmemNbi) {
  const size_t n = 8192;
  char* dst = symAlloc<char>(n);
  char* src = symAlloc<char>(n);
  ASSERT_TRUE(dst && src);
  std::memset(src, 'a' + me_, n);
  shmem_barrier_all();
  for (size_t off = 0; off < n; off += 512) shmem_putmem_nbi(dst + off, src + off, 512, right());
  shmem_quiet();
  std::vector<char> got(n);
  shmem_getmem_nbi(got.data(), src, n, left());
  shmem_quiet();
  GSHMEM_EXPECT_ALL(n, i, (got[i]) == ('a' + left()));
  shmem_barrier_all();
  GSHMEM_EXPECT_ALL(n, i, (dst[i]) == ('a' + left()));
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
}

TEST_F(Rma, SizedPutGet) {
  const size_t n = 32;
  uint8_t* dst = symAlloc<uint8_t>(n * 16);
  uint8_t* src = symAlloc<uint8_t>(n * 16);
  ASSERT_TRUE(dst && src);
  for (size_t i = 0; i < n * 16; ++i) src[i] = static_cast<uint8_t>(i * 3 + me_);
  struct Case {
    int bits;
    void (*put)(void*, const void*, size_t, int);
    void (*get)(void*, const void*, size_t, int);
  };
  const Case cases[] = {{8, shmem_put8, shmem_get8},
                        {16, shmem_put16, shmem_get16},
                        {32, shmem_put32, shmem_get32},
                        {64, shmem_put64, shmem_get64},
                        {128, shmem_put128, shmem_get128}};
  for (const Case& c : cases) {
    const size_t bytes = n * c.bits / 8;
    std::memset(dst, 0, n * 16);
    shmem_barrier_all();
    c.put(dst, src, n, right());
    shmem_barrier_all();
    GSHMEM_EXPECT_ALL(bytes, i, (dst[i]) == (static_cast<uint8_t>(i * 3 + left())));
    GSHMEM_EXPECT_ALL(n * 16 - bytes, j, dst[bytes + j] == 0);  // nothing written past the end
    std::vector<uint8_t> got(n * 16, 0);
    c.get(got.data(), src, n, right());
    GSHMEM_EXPECT_ALL(bytes, i, (got[i]) == (static_cast<uint8_t>(i * 3 + right())));
    GSHMEM_EXPECT_ALL(n * 16 - bytes, j, got[bytes + j] == 0);  // nothing read past the end
  }
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
}

TEST_F(Rma, SizedIputIget) {
  uint64_t* dst = symAlloc<uint64_t>(64);
  uint64_t* src = symAlloc<uint64_t>(64);
  ASSERT_TRUE(dst && src);
  for (int i = 0; i < 64; ++i) src[i] = (uint64_t(me_) << 32) | i;
  shmem_barrier_all();
  shmem_iput64(dst, src, 4, 1, 16, right());
  shmem_barrier_all();
  GSHMEM_EXPECT_ALL(64, k, (dst[k]) == (k % 4 == 0 ? ((uint64_t(left()) << 32) | (k / 4)) : 0u));
  uint32_t got32[16];
  std::memset(got32, 0, sizeof(got32));
  shmem_iget32(got32, src, 1, 2, 16, right());  // every 2nd 32-bit word: the low halves on little-endian
  for (int k = 0; k < 16; ++k) EXPECT_EQ(got32[k], static_cast<uint32_t>(k)) << k;
  shmem_barrier_all();
  // 128-bit: elements are 16-byte pairs.
  std::memset(dst, 0, 64 * sizeof(uint64_t));
  shmem_barrier_all();
  shmem_iput128(dst, src, 2, 1, 8, right());  // src pairs 0..7 into dst pairs 0,2,4..14
  shmem_barrier_all();
  // dst[2p + h] is half h of pair p: pairs 0, 2, 4.. hold source pairs 0, 1, 2..
  GSHMEM_EXPECT_ALL(32, q, dst[q] == ((q / 2) % 2 == 0 ? ((uint64_t(left()) << 32) | (2 * (q / 4) + q % 2)) : 0u));
  shmem_barrier_all();
  shmem_free(dst);
  shmem_free(src);
}

TEST_F(Rma, PutToSelf) {
  long* a = symAlloc<long>(8);
  ASSERT_NE(a, nullptr);
  long v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  shmem_long_put(a, v, 8, me_);
  shmem_quiet();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(a[i], i + 1);
  EXPECT_EQ(shmem_long_g(&a[3], me_), 4);
  shmem_barrier_all();
  shmem_free(a);
}

TEST_F(Rma, AllToAllPuts) {
  // Every PE writes its slot on every PE, including itself.
  long* slots = symAlloc<long>(npes_ * 16);
  ASSERT_NE(slots, nullptr);
  long mine[16];
  for (int i = 0; i < 16; ++i) mine[i] = me_ * 1000 + i;
  shmem_barrier_all();
  for (int pe = 0; pe < npes_; ++pe) shmem_long_put_nbi(&slots[me_ * 16], mine, 16, pe);
  shmem_barrier_all();
  for (int pe = 0; pe < npes_; ++pe)
    GSHMEM_EXPECT_ALL(16, i, (slots[pe * 16 + i]) == (pe * 1000 + i));
  shmem_barrier_all();
  shmem_free(slots);
}

TEST_F(Rma, ZeroLengthIsNoop) {
  int* a = symAlloc<int>(4);
  ASSERT_NE(a, nullptr);
  a[0] = 11;
  shmem_barrier_all();
  int dummy = 99;
  shmem_int_put(a, &dummy, 0, right());
  shmem_putmem(a, &dummy, 0, right());
  shmem_int_get(&dummy, a, 0, right());
  shmem_barrier_all();
  EXPECT_EQ(a[0], 11);
  EXPECT_EQ(dummy, 99);
  shmem_free(a);
}

}  // namespace
}  // namespace gshmem_test
