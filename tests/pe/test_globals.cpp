// Global and static variables are symmetric: put, get and atomics on them must work (most real programs rely on it).
#include <cstring>

#include "pe_test.hpp"

namespace gshmem_test {

// Deliberately at namespace scope with external linkage, initialized (.data) and zeroed (.bss).
int g_int_array[64] = {1};
long g_long_bss[16];
struct Record {
  int id;
  double value;
  char tag[12];
  long counter;
};
Record g_record = {0, 0.0, "init", 0};
double g_doubles[8];

namespace {

class Globals : public PeTest {};

TEST_F(Globals, AddrAccessible) {
  static int s_local = 0;
  for (int pe = 0; pe < npes_; ++pe) {
    EXPECT_TRUE(shmem_addr_accessible(g_int_array, pe)) << pe;
    EXPECT_TRUE(shmem_addr_accessible(&g_long_bss[15], pe)) << pe;
    EXPECT_TRUE(shmem_addr_accessible(&g_record, pe)) << pe;
    EXPECT_TRUE(shmem_addr_accessible(&s_local, pe)) << pe;
  }
}

TEST_F(Globals, InitializedDataKeepsItsValue) {
  // .data contents are visible locally and remotely after init.
  EXPECT_EQ(g_int_array[0], 1);
  EXPECT_STREQ(g_record.tag, "init");
  shmem_barrier_all();
  EXPECT_EQ(shmem_int_g(&g_int_array[0], right()), 1);
  shmem_barrier_all();
}

TEST_F(Globals, PutGetOnGlobalIntArray) {
  std::memset(g_int_array, 0, sizeof(g_int_array));
  shmem_barrier_all();
  int src[64];
  for (int i = 0; i < 64; ++i) src[i] = me_ * 100 + i;
  shmem_int_put(g_int_array, src, 64, right());
  shmem_barrier_all();
  GSHMEM_EXPECT_ALL(64, i, (g_int_array[i]) == (left() * 100 + i));
  int got[64];
  shmem_int_get(got, g_int_array, 64, right());  // right's array holds my values
  GSHMEM_EXPECT_ALL(64, i, (got[i]) == (me_ * 100 + i));
  shmem_barrier_all();
  g_int_array[0] = 1;
  shmem_barrier_all();
}

TEST_F(Globals, PAndGOnBss) {
  for (int i = 0; i < 16; ++i) g_long_bss[i] = 0;
  shmem_barrier_all();
  shmem_long_p(&g_long_bss[me_ % 16], 5000 + me_, right());
  shmem_barrier_all();
  EXPECT_EQ(g_long_bss[left() % 16], 5000 + left());
  EXPECT_EQ(shmem_long_g(&g_long_bss[me_ % 16], right()), 5000 + me_);
  shmem_barrier_all();
}

TEST_F(Globals, StaticLocal) {
  static int s_counter = 0;
  static double s_vals[4] = {0, 0, 0, 0};
  s_counter = 0;
  shmem_barrier_all();
  for (int i = 0; i < 10; ++i) shmem_int_atomic_inc(&s_counter, 0);
  double v[4] = {me_ + 0.5, me_ + 1.5, me_ + 2.5, me_ + 3.5};
  shmem_double_put(s_vals, v, 4, right());
  shmem_barrier_all();
  if (me_ == 0) EXPECT_EQ(s_counter, 10 * npes_);
  for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(s_vals[i], left() + i + 0.5) << i;
  shmem_barrier_all();
}

TEST_F(Globals, GlobalStructPutmemAndFieldAtomics) {
  g_record = Record{0, 0.0, "", 0};
  shmem_barrier_all();
  Record r{me_, me_ * 1.25, "", 0};
  std::snprintf(r.tag, sizeof(r.tag), "pe%d", me_);
  // Whole struct except the counter, then an atomic on the counter from everyone.
  shmem_putmem(&g_record, &r, offsetof(Record, counter), right());
  shmem_barrier_all();
  for (int i = 0; i < 25; ++i) shmem_long_atomic_add(&g_record.counter, 2, 0);
  shmem_barrier_all();
  EXPECT_EQ(g_record.id, left());
  EXPECT_DOUBLE_EQ(g_record.value, left() * 1.25);
  char want[12];
  std::snprintf(want, sizeof(want), "pe%d", left());
  EXPECT_STREQ(g_record.tag, want);
  if (me_ == 0) EXPECT_EQ(g_record.counter, 50L * npes_);
  Record remote;
  shmem_getmem(&remote, &g_record, sizeof(Record), right());
  EXPECT_EQ(remote.id, me_);
  shmem_barrier_all();
}

TEST_F(Globals, AtomicsOnGlobals) {
  g_long_bss[0] = 0;
  g_int_array[1] = 0;
  shmem_barrier_all();
  long before = shmem_long_atomic_fetch_add(&g_long_bss[0], 1, 0);
  EXPECT_GE(before, 0);
  EXPECT_LT(before, npes_);
  shmem_int_atomic_set(&g_int_array[1], me_ + 1, right());
  shmem_barrier_all();
  if (me_ == 0) EXPECT_EQ(g_long_bss[0], npes_);
  EXPECT_EQ(g_int_array[1], left() + 1);
  EXPECT_EQ(shmem_int_atomic_fetch(&g_int_array[1], right()), me_ + 1);
  shmem_barrier_all();  // everyone checked before anyone swaps
  int old = shmem_int_atomic_compare_swap(&g_int_array[1], me_ + 1, -7, right());
  EXPECT_EQ(old, me_ + 1);
  shmem_barrier_all();
  EXPECT_EQ(g_int_array[1], -7);
  shmem_barrier_all();
}

TEST_F(Globals, WaitOnGlobalFlag) {
  static long s_flag = 0;
  s_flag = 0;
  g_doubles[0] = 0;
  shmem_barrier_all();
  double payload = 3.25 + me_;
  shmem_double_put(&g_doubles[0], &payload, 1, right());
  shmem_fence();
  shmem_long_p(&s_flag, 1, right());
  shmem_long_wait_until(&s_flag, SHMEM_CMP_EQ, 1);
  EXPECT_DOUBLE_EQ(g_doubles[0], 3.25 + left());
  shmem_barrier_all();
}

}  // namespace
}  // namespace gshmem_test
