// Tier (a): the symmetric heap's offset allocator (src/core/memory/heap_allocator.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/memory/heap_allocator.hpp"

namespace gshmem {
namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;

TEST(HeapAllocator, EmptyState) {
  HeapAllocator h(kMiB);
  EXPECT_EQ(h.capacity(), kMiB);
  EXPECT_EQ(h.bytesFree(), kMiB);
  EXPECT_EQ(h.largestFree(), kMiB);
  EXPECT_EQ(h.blocksUsed(), 0u);
}

TEST(HeapAllocator, MinimumAlignment) {
  HeapAllocator h(kMiB, 64);
  for (std::size_t size : {1, 3, 63, 64, 65, 100, 1000}) {
    std::size_t off = h.alloc(size, 1);
    ASSERT_NE(off, HeapAllocator::kFail) << size;
    EXPECT_EQ(off % 64, 0u) << "size " << size << " offset " << off;
    EXPECT_GE(h.sizeOf(off), size);
  }
}

TEST(HeapAllocator, RequestedAlignment) {
  HeapAllocator h(16 * kMiB, 64);
  ASSERT_NE(h.alloc(100, 64), HeapAllocator::kFail);  // leaves the next free byte misaligned for large alignments
  for (std::size_t align : {128, 256, 4096, 65536, 1 << 20}) {
    std::size_t off = h.alloc(10, align);
    ASSERT_NE(off, HeapAllocator::kFail) << align;
    EXPECT_EQ(off % align, 0u) << "align " << align << " offset " << off;
  }
}

TEST(HeapAllocator, BlocksDoNotOverlap) {
  HeapAllocator h(kMiB);
  std::vector<std::pair<std::size_t, std::size_t>> blocks;
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    std::size_t size = 1 + rng() % 3000;
    std::size_t off = h.alloc(size, std::size_t(64) << (rng() % 4));
    if (off == HeapAllocator::kFail) break;
    blocks.push_back({off, h.sizeOf(off)});
    EXPECT_GE(h.sizeOf(off), size);
    EXPECT_LE(off + size, h.capacity());
  }
  std::sort(blocks.begin(), blocks.end());
  for (size_t i = 1; i < blocks.size(); ++i)
    EXPECT_LE(blocks[i - 1].first + blocks[i - 1].second, blocks[i].first) << "blocks " << i - 1 << " and " << i;
  EXPECT_EQ(h.blocksUsed(), blocks.size());
}

TEST(HeapAllocator, FirstFitReusesTheLowestHole) {
  HeapAllocator h(kMiB);
  std::size_t a = h.alloc(4096, 64);
  std::size_t b = h.alloc(4096, 64);
  std::size_t c = h.alloc(4096, 64);
  std::size_t d = h.alloc(4096, 64);
  ASSERT_NE(d, HeapAllocator::kFail);
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_LT(c, d);
  ASSERT_TRUE(h.free(a));
  ASSERT_TRUE(h.free(c));
  // Both holes fit; first fit takes the lowest one.
  EXPECT_EQ(h.alloc(1024, 64), a);
  // The next request still fits in what is left of a's hole (a + 1024 .. b).
  EXPECT_EQ(h.alloc(1024, 64), a + 1024);
  // Too big for the rest of a's hole: goes to c's.
  EXPECT_EQ(h.alloc(3000, 64), c);
}

TEST(HeapAllocator, FreeCoalescesNeighbours) {
  HeapAllocator h(64 * 1024, 64);
  std::vector<std::size_t> offs;
  for (int i = 0; i < 16; ++i) offs.push_back(h.alloc(4096, 64));
  for (auto o : offs) ASSERT_NE(o, HeapAllocator::kFail);
  EXPECT_EQ(h.alloc(64, 64), HeapAllocator::kFail);  // exactly full
  EXPECT_EQ(h.bytesFree(), 0u);
  // Free in an order that needs left, right and both-sided merging.
  for (int i : {1, 3, 2, 0, 5, 7, 6, 4, 15, 8, 9, 10, 12, 11, 14, 13}) ASSERT_TRUE(h.free(offs[i]));
  EXPECT_EQ(h.blocksUsed(), 0u);
  EXPECT_EQ(h.bytesFree(), h.capacity());
  EXPECT_EQ(h.largestFree(), h.capacity()) << "free space not coalesced";
  EXPECT_EQ(h.alloc(64 * 1024, 64), 0u) << "whole heap should be allocatable again";
}

TEST(HeapAllocator, ExhaustionReturnsFail) {
  HeapAllocator h(kMiB);
  EXPECT_EQ(h.alloc(kMiB + 1, 64), HeapAllocator::kFail);
  EXPECT_EQ(h.alloc(SIZE_MAX - 8, 64), HeapAllocator::kFail);  // must not wrap around
  EXPECT_EQ(h.alloc(SIZE_MAX, 64), HeapAllocator::kFail);
  std::size_t a = h.alloc(kMiB / 2, 64);
  ASSERT_NE(a, HeapAllocator::kFail);
  std::size_t before = h.bytesFree();
  EXPECT_EQ(h.alloc(kMiB / 2 + 64, 64), HeapAllocator::kFail);
  EXPECT_EQ(h.bytesFree(), before) << "a failed alloc must not change the heap";
  EXPECT_NE(h.alloc(kMiB / 2, 64), HeapAllocator::kFail);
  EXPECT_EQ(h.alloc(1, 64), HeapAllocator::kFail);
}

TEST(HeapAllocator, AlignmentCanExhaust) {
  HeapAllocator h(kMiB, 64);
  ASSERT_NE(h.alloc(64, 64), HeapAllocator::kFail);
  // The only 1 MiB-aligned offset that leaves room for 1 MiB is 0, and it is taken.
  EXPECT_EQ(h.alloc(kMiB, kMiB), HeapAllocator::kFail);
}

TEST(HeapAllocator, ZeroSizeGetsABlock) {
  HeapAllocator h(kMiB, 64);
  std::size_t a = h.alloc(0, 64);
  std::size_t b = h.alloc(0, 64);
  ASSERT_NE(a, HeapAllocator::kFail);
  ASSERT_NE(b, HeapAllocator::kFail);
  EXPECT_NE(a, b);
  EXPECT_EQ(h.sizeOf(a), 64u);
}

TEST(HeapAllocator, FreeRejectsUnknownOffsets) {
  HeapAllocator h(kMiB);
  std::size_t a = h.alloc(1000, 64);
  ASSERT_NE(a, HeapAllocator::kFail);
  EXPECT_FALSE(h.free(a + 64));   // inside a block
  EXPECT_FALSE(h.free(a + 4096)); // never allocated
  EXPECT_TRUE(h.free(a));
  EXPECT_FALSE(h.free(a)) << "double free accepted";
  EXPECT_EQ(h.bytesFree(), h.capacity());
  EXPECT_EQ(h.sizeOf(a), 0u);
}

TEST(HeapAllocator, ResizeInPlaceGrowsIntoFreeSpace) {
  HeapAllocator h(kMiB);
  std::size_t a = h.alloc(1000, 64);
  ASSERT_NE(a, HeapAllocator::kFail);
  EXPECT_TRUE(h.resizeInPlace(a, 8000));
  EXPECT_GE(h.sizeOf(a), 8000u);
  std::size_t b = h.alloc(64, 64);
  EXPECT_GE(b, a + 8000) << "the grown block's bytes were handed out again";
  EXPECT_EQ(h.bytesFree(), h.capacity() - h.sizeOf(a) - h.sizeOf(b));
}

TEST(HeapAllocator, ResizeInPlaceFailsWhenBlockedAndLeavesBlockUnchanged) {
  HeapAllocator h(kMiB);
  std::size_t a = h.alloc(1024, 64);
  std::size_t b = h.alloc(1024, 64);
  ASSERT_NE(b, HeapAllocator::kFail);
  std::size_t size_a = h.sizeOf(a);
  std::size_t free_before = h.bytesFree();
  EXPECT_FALSE(h.resizeInPlace(a, 4096));
  EXPECT_EQ(h.sizeOf(a), size_a);
  EXPECT_EQ(h.sizeOf(b), 1024u);
  EXPECT_EQ(h.bytesFree(), free_before);
  EXPECT_FALSE(h.resizeInPlace(b, 2 * kMiB)) << "grew past the end of the heap";
  EXPECT_FALSE(h.resizeInPlace(a + 64, 64)) << "resized a non-block offset";
}

TEST(HeapAllocator, ResizeInPlaceShrinksAndReleasesTheTail) {
  HeapAllocator h(kMiB);
  std::size_t a = h.alloc(64 * 1024, 64);
  ASSERT_NE(a, HeapAllocator::kFail);
  std::size_t free_before = h.bytesFree();
  EXPECT_TRUE(h.resizeInPlace(a, 1024));
  EXPECT_GE(h.sizeOf(a), 1024u);
  EXPECT_LT(h.sizeOf(a), 64u * 1024);
  EXPECT_EQ(h.bytesFree(), free_before + (64 * 1024 - h.sizeOf(a)));
  // The released tail is reusable and coalesced with what follows.
  ASSERT_TRUE(h.free(a));
  EXPECT_EQ(h.largestFree(), h.capacity());
}

// Every PE replays the same calls on its own allocator; the heap is symmetric only if the offsets agree.
TEST(HeapAllocator, DeterministicAcrossInstances) {
  HeapAllocator h1(8 * kMiB), h2(8 * kMiB);
  std::mt19937 rng(12345);
  std::vector<std::size_t> live;
  for (int step = 0; step < 2000; ++step) {
    unsigned op = rng() % 10;
    if (op < 6 || live.empty()) {
      std::size_t size = rng() % 20000;
      std::size_t align = std::size_t(1) << (rng() % 13);
      std::size_t o1 = h1.alloc(size, align), o2 = h2.alloc(size, align);
      ASSERT_EQ(o1, o2) << "step " << step;
      if (o1 != HeapAllocator::kFail) live.push_back(o1);
    } else if (op < 9) {
      std::size_t i = rng() % live.size();
      ASSERT_EQ(h1.free(live[i]), h2.free(live[i]));
      live.erase(live.begin() + i);
    } else {
      std::size_t i = rng() % live.size();
      std::size_t size = rng() % 40000;
      ASSERT_EQ(h1.resizeInPlace(live[i], size), h2.resizeInPlace(live[i], size)) << "step " << step;
    }
    ASSERT_EQ(h1.bytesFree(), h2.bytesFree());
  }
  for (auto o : live) {
    EXPECT_TRUE(h1.free(o));
    EXPECT_TRUE(h2.free(o));
  }
  EXPECT_EQ(h1.largestFree(), h1.capacity());
}

}  // namespace
}  // namespace gshmem
