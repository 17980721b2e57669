// Ordering: fence orders puts to one PE, quiet completes everything; a receiver that sees the flag sees the data.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

class Ordering : public PeTest {};

TEST_F(Ordering, FenceOrdersDataBeforeFlag) {
  const int iters = npes_ > 2 ? 300 : 1000;
  const size_t n = 64;
  long* data = static_cast<long*>(shmem_calloc(n, sizeof(long)));
  long* flag = static_cast<long*>(shmem_calloc(1, sizeof(long)));
  long* ack = static_cast<long*>(shmem_calloc(1, sizeof(long)));
  ASSERT_TRUE(data && flag && ack);
  std::vector<long> src(n);
  size_t stale = 0;
  shmem_barrier_all();
  for (int it = 1; it <= iters; ++it) {
    for (size_t i = 0; i < n; ++i) src[i] = it * 1000 + static_cast<long>(i);
    shmem_long_put(data, src.data(), n, right());
    shmem_fence();
    shmem_long_p(flag, it, right());
    // Receive from the left: the flag implies the data.
    shmem_long_wait_until(flag, SHMEM_CMP_GE, it);
    for (size_t i = 0; i < n; ++i) stale += data[i] != it * 1000 + static_cast<long>(i);
    // Tell the left it may overwrite `data` (flow control), and wait for the right's permission.
    shmem_long_p(ack, it, left());
    shmem_long_wait_until(ack, SHMEM_CMP_GE, it);
  }
  EXPECT_EQ(stale, 0u) << "data seen stale after the flag, over " << iters << " iterations";
  shmem_barrier_all();
  shmem_free(ack);
  shmem_free(flag);
  shmem_free(data);
}

TEST_F(Ordering, FenceOrdersNbiPutsAndAtomics) {
  const int iters = npes_ > 2 ? 200 : 600;
  int* data = static_cast<int*>(shmem_calloc(256, sizeof(int)));
  uint64_t* flag = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  uint64_t* ack = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  ASSERT_TRUE(data && flag && ack);
  std::vector<int> src(256);
  size_t stale = 0;
  shmem_barrier_all();
  for (int it = 1; it <= iters; ++it) {
    for (int i = 0; i < 256; ++i) src[i] = it + i;
    shmem_int_put_nbi(data, src.data(), 256, right());
    shmem_fence();
    shmem_uint64_atomic_inc(flag, right());
    shmem_uint64_wait_until(flag, SHMEM_CMP_GE, static_cast<uint64_t>(it));
    for (int i = 0; i < 256; ++i) stale += data[i] != it + i;
    shmem_quiet();  // src reuse is allowed after quiet (put_nbi)
    shmem_uint64_atomic_inc(ack, left());
    shmem_uint64_wait_until(ack, SHMEM_CMP_GE, static_cast<uint64_t>(it));
  }
  EXPECT_EQ(stale, 0u);
  shmem_barrier_all();
  shmem_free(ack);
  shmem_free(flag);
  shmem_free(data);
}

TEST_F(Ordering, QuietCompletesPutsToEveryPe) {
  const int iters = 100;
  long* slots = static_cast<long*>(shmem_calloc(npes_, sizeof(long)));
  long* flags = static_cast<long*>(shmem_calloc(npes_, sizeof(long)));
  ASSERT_TRUE(slots && flags);
  size_t stale = 0;
  shmem_barrier_all();
  for (int it = 1; it <= iters; ++it) {
    long v = it * 10 + me_;
    for (int pe = 0; pe < npes_; ++pe) shmem_long_put_nbi(&slots[me_], &v, 1, pe);
    shmem_quiet();
    for (int pe = 0; pe < npes_; ++pe) shmem_long_atomic_set(&flags[me_], it, pe);
    for (int pe = 0; pe < npes_; ++pe) {
      shmem_long_wait_until(&flags[pe], SHMEM_CMP_GE, it);
      stale += slots[pe] < it * 10;  // may already be newer, never older
    }
    shmem_barrier_all();
  }
  EXPECT_EQ(stale, 0u);
  shmem_free(flags);
  shmem_free(slots);
}

TEST_F(Ordering, GetAfterPutToSamePeSeesThePut) {
  // A blocking put returns when the source is reusable; after quiet a get from the same PE must see it.
  int* x = static_cast<int*>(shmem_calloc(1, sizeof(int)));
  ASSERT_NE(x, nullptr);
  shmem_barrier_all();
  int mismatches = 0;
  // Only PE 0 writes to the last PE, so there is a single writer per target.
  if (me_ == 0) {
    for (int it = 1; it <= 500; ++it) {
      shmem_int_p(x, it, npes_ - 1);
      shmem_quiet();
      mismatches += shmem_int_g(x, npes_ - 1) != it;
    }
  }
  EXPECT_EQ(mismatches, 0);
  shmem_barrier_all();
  shmem_free(x);
}

TEST_F(Ordering, GetAfterPutWithoutQuietSeesThePut) {
  // Small puts to a UCX-reached PE wait in a batch (GSHMEM_UCX_AGGREGATE); a get to that PE sends the batch first.
  int* x = static_cast<int*>(shmem_calloc(1, sizeof(int)));
  ASSERT_NE(x, nullptr);
  shmem_barrier_all();
  int mismatches = 0;
  if (me_ == 0) {
    for (int it = 1; it <= 300; ++it) {
      shmem_int_p(x, it, npes_ - 1);
      mismatches += shmem_int_g(x, npes_ - 1) != it;
    }
  }
  EXPECT_EQ(mismatches, 0);
  shmem_barrier_all();
  shmem_free(x);
}

TEST_F(Ordering, BurstOfMixedSizePutsCompletesAtQuiet) {
  // Many puts of 1..1500 bytes at odd offsets (more than one batch of small puts, plus puts sent directly), later
  // ones overwriting parts of earlier ones: after quiet + barrier the target holds exactly the last writes.
  const size_t len = 64 * 1024;
  char* buf = static_cast<char*>(shmem_calloc(len, 1));
  ASSERT_NE(buf, nullptr);
  std::vector<char> expect(len, 0), src(2048);
  shmem_barrier_all();
  uint32_t rng = 12345u + static_cast<uint32_t>(me_);
  auto next = [&rng] { return rng = rng * 1103515245u + 12345u, rng >> 8; };
  for (int k = 0; k < 2000; ++k) {
    size_t n = 1 + next() % (k % 10 == 9 ? 1500 : 24);
    size_t off = next() % (len - n);
    for (size_t i = 0; i < n; ++i) src[i] = static_cast<char>(next());
    shmem_putmem(buf + off, src.data(), n, right());
    std::copy(src.begin(), src.begin() + static_cast<long>(n), expect.begin() + static_cast<long>(off));
  }
  shmem_quiet();
  // Check at the target: send our expectation to the right PE's scratch and compare there.
  char* want = static_cast<char*>(shmem_malloc(len));
  ASSERT_NE(want, nullptr);
  shmem_putmem(want, expect.data(), len, right());
  shmem_barrier_all();
  size_t bad = 0;
  for (size_t i = 0; i < len; ++i) bad += buf[i] != want[i];
  EXPECT_EQ(bad, 0u) << "bytes differing from the left PE's last writes";
  shmem_barrier_all();
  shmem_free(want);
  shmem_free(buf);
}

TEST_F(Ordering, CtxFenceAndQuietOnDefaultContext) {
  long* data = static_cast<long*>(shmem_calloc(8, sizeof(long)));
  long* flag = static_cast<long*>(shmem_calloc(1, sizeof(long)));
  ASSERT_TRUE(data && flag);
  shmem_barrier_all();
  long v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  shmem_ctx_long_put(SHMEM_CTX_DEFAULT, data, v, 8, right());
  shmem_ctx_fence(SHMEM_CTX_DEFAULT);
  shmem_ctx_long_p(SHMEM_CTX_DEFAULT, flag, 1, right());
  shmem_ctx_quiet(SHMEM_CTX_DEFAULT);
  shmem_long_wait_until(flag, SHMEM_CMP_EQ, 1);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(data[i], i + 1);
  shmem_barrier_all();
  shmem_free(flag);
  shmem_free(data);
}

}  // namespace
}  // namespace gshmem_test
