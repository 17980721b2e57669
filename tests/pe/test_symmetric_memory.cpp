// Symmetric heap: malloc, calloc, align, realloc, free, symmetric offsets, malloc(0), exhaustion.
#include <cstdint>
#include <cstring>
#include <vector>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

class SymmetricMemory : public PeTest {};

TEST_F(SymmetricMemory, MallocIsUsableRemotely) {
  const size_t n = 1000;
  int* a = static_cast<int*>(shmem_malloc(n * sizeof(int)));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 8, 0u) << "malloc must be suitably aligned";
  for (size_t i = 0; i < n; ++i) a[i] = -1;
  shmem_barrier_all();
  std::vector<int> src(n);
  for (size_t i = 0; i < n; ++i) src[i] = static_cast<int>(me_ * 100000 + i);
  shmem_int_put(a, src.data(), n, right());
  shmem_barrier_all();
  GSHMEM_EXPECT_ALL(n, i, (a[i]) == (static_cast<int>(left() * 100000 + i)));
  shmem_barrier_all();
  shmem_free(a);
}

TEST_F(SymmetricMemory, SameOffsetOnEveryPe) {
  // The same sequence of calls gives the same offset from a reference block on every PE.
  char* base = static_cast<char*>(shmem_malloc(64));
  ASSERT_NE(base, nullptr);
  void* blocks[6];
  size_t sizes[6] = {8, 1000, 1 << 16, 24, 4096, 3};
  for (int i = 0; i < 6; ++i) blocks[i] = shmem_malloc(sizes[i]);
  shmem_free(blocks[2]);
  shmem_free(blocks[4]);
  void* again = shmem_malloc(5000);
  long mine[7];
  for (int i = 0; i < 6; ++i) mine[i] = static_cast<char*>(blocks[i]) - base;
  mine[6] = static_cast<char*>(again) - base;
  static long published[7];  // symmetric: every PE reads PE 0's copy
  std::memcpy(published, mine, sizeof(mine));
  shmem_barrier_all();
  long pe0[7];
  shmem_long_get(pe0, published, 7, 0);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(mine[i], pe0[i]) << "block " << i;
  shmem_barrier_all();
  for (int i : {0, 1, 3, 5}) shmem_free(blocks[i]);
  shmem_free(again);
  shmem_free(base);
}

TEST_F(SymmetricMemory, CallocIsZeroed) {
  // Dirty the heap first so that zeroing is observable.
  char* dirty = static_cast<char*>(shmem_malloc(1 << 16));
  ASSERT_NE(dirty, nullptr);
  std::memset(dirty, 0xab, 1 << 16);
  shmem_free(dirty);
  const size_t n = 4096;
  long* z = static_cast<long*>(shmem_calloc(n, sizeof(long)));
  ASSERT_NE(z, nullptr);
  size_t nonzero = 0;
  for (size_t i = 0; i < n; ++i) nonzero += z[i] != 0;
  EXPECT_EQ(nonzero, 0u);
  shmem_barrier_all();
  shmem_long_p(&z[n - 1], me_ + 1, right());
  shmem_barrier_all();
  EXPECT_EQ(z[n - 1], left() + 1);
  shmem_free(z);
}

TEST_F(SymmetricMemory, AlignHonoursAlignment) {
  // Large alignments catch a heap whose base address is only page aligned (offset alignment is not enough).
  for (size_t align : {size_t(16), size_t(64), size_t(256), size_t(4096), size_t(1) << 16, size_t(1) << 20,
                       size_t(2) << 20}) {
    void* p = shmem_align(align, 100);
    ASSERT_NE(p, nullptr) << align;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u) << align;
    shmem_free(p);
  }
}

TEST_F(SymmetricMemory, ReallocKeepsData) {
  int* a = static_cast<int*>(shmem_malloc(16 * sizeof(int)));
  ASSERT_NE(a, nullptr);
  for (int i = 0; i < 16; ++i) a[i] = me_ * 1000 + i;
  // Block the space after `a` so that growing usually has to move.
  void* blocker = shmem_malloc(64);
  int* b = static_cast<int*>(shmem_realloc(a, 100000 * sizeof(int)));
  ASSERT_NE(b, nullptr);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], me_ * 1000 + i) << i;
  b[99999] = me_;
  shmem_barrier_all();
  // The grown block is symmetric.
  EXPECT_EQ(shmem_int_g(&b[99999], right()), right());
  EXPECT_EQ(shmem_int_g(&b[15], right()), right() * 1000 + 15);
  shmem_barrier_all();
  int* c = static_cast<int*>(shmem_realloc(b, 8 * sizeof(int)));  // shrink
  ASSERT_NE(c, nullptr);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(c[i], me_ * 1000 + i) << i;
  shmem_barrier_all();
  EXPECT_EQ(shmem_int_g(&c[7], left()), left() * 1000 + 7);
  shmem_barrier_all();
  shmem_free(c);
  shmem_free(blocker);
}

TEST_F(SymmetricMemory, ReallocNullIsMallocAndZeroIsFree) {
  long* p = static_cast<long*>(shmem_realloc(nullptr, 32 * sizeof(long)));
  ASSERT_NE(p, nullptr);
  p[0] = 7;
  shmem_barrier_all();
  EXPECT_EQ(shmem_long_g(p, right()), 7);
  shmem_barrier_all();
  EXPECT_EQ(shmem_realloc(p, 0), nullptr);
}

TEST_F(SymmetricMemory, MallocZeroIsNullAndFreeNullIsNoop) {
  EXPECT_EQ(shmem_malloc(0), nullptr);
  EXPECT_EQ(shmem_calloc(0, 8), nullptr);
  EXPECT_EQ(shmem_calloc(8, 0), nullptr);
  shmem_free(nullptr);
}

TEST_F(SymmetricMemory, FreeMakesSpaceReusable) {
  // GSHMEM_SYMMETRIC_SIZE=64M in ctest: 100 rounds of 16 MiB only fit if free really releases.
  for (int round = 0; round < 100; ++round) {
    void* p = shmem_malloc(16 << 20);
    ASSERT_NE(p, nullptr) << "round " << round;
    static_cast<char*>(p)[(16 << 20) - 1] = 1;
    shmem_free(p);
  }
}

TEST_F(SymmetricMemory, ExhaustionReturnsNull) {
  void* keep = shmem_malloc(1024);
  ASSERT_NE(keep, nullptr);
  size_t huge = size_t(1) << 40;  // larger than any test heap
  void* p = shmem_malloc(huge);
  EXPECT_EQ(p, nullptr);
  if (p) shmem_free(p);
  EXPECT_EQ(shmem_align(4096, huge), nullptr);
  EXPECT_EQ(shmem_calloc(huge / 8, 8), nullptr);
  // The heap still works afterwards.
  static_cast<int*>(keep)[0] = me_;
  shmem_barrier_all();
  EXPECT_EQ(shmem_int_g(static_cast<int*>(keep), right()), right());
  shmem_barrier_all();
  shmem_free(keep);
}

TEST_F(SymmetricMemory, ManySmallBlocks) {
  std::vector<long*> blocks;
  for (int i = 0; i < 500; ++i) {
    long* p = static_cast<long*>(shmem_malloc(sizeof(long) * (1 + i % 7)));
    ASSERT_NE(p, nullptr);
    *p = me_ * 10000 + i;
    blocks.push_back(p);
  }
  shmem_barrier_all();
  for (int i = 0; i < 500; i += 37) EXPECT_EQ(shmem_long_g(blocks[i], right()), right() * 10000 + i) << i;
  shmem_barrier_all();
  for (long* p : blocks) shmem_free(p);
}

}  // namespace
}  // namespace gshmem_test
