// Signals: put_signal with SET and ADD, nbi forms, signal_fetch, signal_wait_until.
#include <cstdint>
#include <vector>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

class Signals : public PeTest {};

TEST_F(Signals, PutmemSignalSetDeliversDataBeforeSignal) {
  const size_t n = 4096;
  const int rounds = 50;
  char* buf = static_cast<char*>(shmem_calloc(n, 1));
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  ASSERT_TRUE(buf && sig);
  std::vector<char> src(n);
  shmem_barrier_all();
  for (int r = 1; r <= rounds; ++r) {
    for (size_t i = 0; i < n; ++i) src[i] = static_cast<char>(r + me_ + i);
    shmem_putmem_signal(buf, src.data(), n, sig, static_cast<uint64_t>(r), SHMEM_SIGNAL_SET, right());
    uint64_t got = shmem_signal_wait_until(sig, SHMEM_CMP_EQ, static_cast<uint64_t>(r));
    EXPECT_EQ(got, static_cast<uint64_t>(r));
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) bad += buf[i] != static_cast<char>(r + left() + i);
    EXPECT_EQ(bad, 0u) << "round " << r << ": data not complete when the signal arrived";
    // The left neighbour may overwrite buf only after I say so.
    shmem_barrier_all();
  }
  shmem_free(sig);
  shmem_free(buf);
}

// Sizes on both sides of each way a transport may carry a put-with-signal (over UCX: the batch up to 2 KiB, one
// active message up to 64 KiB, RMA and a signal atomic above), odd lengths included; the signal counts deliveries.
TEST_F(Signals, PutmemSignalAddEverySizeClass) {
  static const size_t kSizes[] = {1, 7, 2047, 2048, 2049, 4099, 65535, 65536, 65537, 200003};
  const size_t max = 200003;
  char* buf = static_cast<char*>(shmem_calloc(max, 1));
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  ASSERT_TRUE(buf && sig);
  std::vector<char> src(max);
  shmem_barrier_all();
  uint64_t round = 0;
  for (size_t n : kSizes) {
    ++round;
    for (size_t i = 0; i < n; ++i) src[i] = static_cast<char>(round * 31 + me_ + i);
    shmem_putmem_signal(buf, src.data(), n, sig, 1, SHMEM_SIGNAL_ADD, right());
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, round);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) bad += buf[i] != static_cast<char>(round * 31 + left() + i);
    EXPECT_EQ(bad, 0u) << n << " bytes: data not complete when the signal arrived";
    shmem_barrier_all();  // the left neighbour overwrites buf only after this
  }
  shmem_free(sig);
  shmem_free(buf);
}

TEST_F(Signals, SignalAddFromEveryPe) {
  long* slots = static_cast<long*>(shmem_calloc(npes_, sizeof(long)));
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  ASSERT_TRUE(slots && sig);
  shmem_barrier_all();
  long mine = 1000 + me_;
  for (int pe = 0; pe < npes_; ++pe) shmem_long_put_signal(&slots[me_], &mine, 1, sig, 1, SHMEM_SIGNAL_ADD, pe);
  shmem_signal_wait_until(sig, SHMEM_CMP_GE, static_cast<uint64_t>(npes_));
  EXPECT_EQ(shmem_signal_fetch(sig), static_cast<uint64_t>(npes_));
  for (int pe = 0; pe < npes_; ++pe) EXPECT_EQ(slots[pe], 1000 + pe) << pe;
  shmem_barrier_all();
  shmem_free(sig);
  shmem_free(slots);
}

TEST_F(Signals, TypedPutSignalNbi) {
  const size_t n = 333;
  double* buf = static_cast<double*>(shmem_calloc(n, sizeof(double)));
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  ASSERT_TRUE(buf && sig);
  std::vector<double> src(n);
  for (size_t i = 0; i < n; ++i) src[i] = me_ + i * 0.5;
  shmem_barrier_all();
  shmem_double_put_signal_nbi(buf, src.data(), n, sig, 0xabcdef, SHMEM_SIGNAL_SET, right());
  shmem_quiet();  // src may be reused after quiet
  shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 0xabcdef);
  GSHMEM_EXPECT_ALL(n, i, (buf[i]) == (left() + i * 0.5));
  shmem_barrier_all();
  shmem_free(sig);
  shmem_free(buf);
}

TEST_F(Signals, SignalOnlyWithZeroLengthPayload) {
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  char* dummy = static_cast<char*>(shmem_calloc(8, 1));
  ASSERT_TRUE(sig && dummy);
  shmem_barrier_all();
  shmem_putmem_signal(dummy, dummy, 0, sig, 42, SHMEM_SIGNAL_SET, right());
  EXPECT_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_NE, 0), 42u);
  shmem_barrier_all();
  shmem_free(dummy);
  shmem_free(sig);
}

TEST_F(Signals, SignalFetchSeesLocalAndRemoteUpdates) {
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  ASSERT_NE(sig, nullptr);
  EXPECT_EQ(shmem_signal_fetch(sig), 0u);
  shmem_barrier_all();
  shmem_uint64_atomic_add(sig, 5, right());  // signals are updated with AMOs too
  shmem_barrier_all();
  EXPECT_EQ(shmem_signal_fetch(sig), 5u);
  shmem_barrier_all();
  shmem_free(sig);
}

TEST_F(Signals, PingPongWithSignals) {
  // PE 0 and PE 1 bounce a counter through put_signal; others idle.
  const int rounds = 200;
  int* data = static_cast<int*>(shmem_calloc(1, sizeof(int)));
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  ASSERT_TRUE(data && sig);
  shmem_barrier_all();
  if (npes_ >= 2 && me_ < 2) {
    int peer = 1 - me_;
    for (int r = 1; r <= rounds; ++r) {
      if ((r % 2 == 1) == (me_ == 0)) {
        int v = r * 10;
        shmem_int_put_signal(data, &v, 1, sig, r, SHMEM_SIGNAL_SET, peer);
      } else {
        shmem_signal_wait_until(sig, SHMEM_CMP_EQ, static_cast<uint64_t>(r));
        EXPECT_EQ(*data, r * 10) << "round " << r;
      }
    }
  }
  shmem_barrier_all();
  shmem_free(sig);
  shmem_free(data);
}

}  // namespace
}  // namespace gshmem_test
