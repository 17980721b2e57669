// Shared fixture for multi-PE GoogleTest binaries (main in mpi_main.cpp).
//
// Every PE runs every test. PeTest::TearDown() agrees on the verdict across PEs (a test fails everywhere when it
// fails on any PE) and ends with shmem_barrier_all(), so one test's traffic cannot leak into the next.
// Test bodies must make the same collective calls on every PE: prefer EXPECT_* over ASSERT_* before a collective,
// because an early return on one PE leaves the others waiting (the watchdog then names the hung test).
#pragma once
#include <gtest/gtest.h>
#include <shmem.h>

#include <chrono>
#include <cstdint>
#include <thread>

namespace gshmem_test {

/// Collective over all PEs: true when every PE passes ok_here == true (MPI_MIN reduction).
bool allPesAgree(bool ok_here);

class PeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    me_ = shmem_my_pe();
    npes_ = shmem_n_pes();
  }
  void TearDown() override;

  int right() const { return (me_ + 1) % npes_; }
  int left() const { return (me_ + npes_ - 1) % npes_; }

  int me_ = -1;
  int npes_ = 0;
};

inline void sleepMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

}  // namespace gshmem_test

/// Checks `cond` for every index `i` in [0, n) without leaving the test early (an early return before a collective
/// would leave the other PEs waiting); reports the number of mismatches and the first one.
#define GSHMEM_EXPECT_ALL(n, i, cond)                                                                 \
  do {                                                                                                \
    size_t bad_count_ = 0, first_bad_ = 0;                                                            \
    for (size_t i = 0; i < static_cast<size_t>(n); ++i)                                               \
      if (!(cond) && bad_count_++ == 0) first_bad_ = i;                                               \
    EXPECT_EQ(bad_count_, 0u) << "condition `" #cond "` fails for " << bad_count_ << " of " << (n)    \
                              << " indices, first " #i "=" << first_bad_;                             \
  } while (0)
