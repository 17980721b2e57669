// Teams: WORLD and SHARED queries, translate_pe, split_strided (even/odd), split_2d, get_config, team_sync, destroy,
// the team ids of <shmemx.h> (the predefined node teams included), and teams made from a unique id.
#include <shmemx.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

class Teams : public PeTest {};

TEST_F(Teams, WorldQueries) {
  EXPECT_EQ(shmem_team_my_pe(SHMEM_TEAM_WORLD), me_);
  EXPECT_EQ(shmem_team_n_pes(SHMEM_TEAM_WORLD), npes_);
  EXPECT_EQ(shmem_team_my_pe(SHMEM_TEAM_INVALID), -1);
  EXPECT_EQ(shmem_team_n_pes(SHMEM_TEAM_INVALID), -1);
}

TEST_F(Teams, SharedTeam) {
  // SHMEM_TEAM_SHARED holds exactly the PEs whose memory this PE can load/store (shmem_ptr is not NULL): every PE
  // on one node over shared memory; fewer across hosts or with GSHMEM_TRANSPORTS=ucx.
  int n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
  int my = shmem_team_my_pe(SHMEM_TEAM_SHARED);
  EXPECT_GE(n, 1);
  EXPECT_GE(my, 0);
  EXPECT_LT(my, n);
  static long probe;
  int mapped = 0;
  for (int pe = 0; pe < npes_; ++pe) mapped += shmem_ptr(&probe, pe) != nullptr;
  EXPECT_EQ(n, mapped) << "SHARED must be the PEs reachable by shmem_ptr";
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_SHARED, my, SHMEM_TEAM_WORLD), me_);
  // Every member of SHARED is reachable with shmem_ptr.
  long* x = static_cast<long*>(shmem_malloc(sizeof(long)));
  ASSERT_NE(x, nullptr);
  *x = me_;
  shmem_barrier_all();
  for (int t = 0; t < n; ++t) {
    long* p = static_cast<long*>(shmem_team_ptr(SHMEM_TEAM_SHARED, x, t));
    EXPECT_NE(p, nullptr) << "team_ptr to shared PE " << t;
    if (p) EXPECT_EQ(*p, shmem_team_translate_pe(SHMEM_TEAM_SHARED, t, SHMEM_TEAM_WORLD));
  }
  shmem_barrier_all();
  shmem_free(x);
}

TEST_F(Teams, TranslateWorldToWorld) {
  for (int pe = 0; pe < npes_; ++pe) EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_WORLD), pe);
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, npes_, SHMEM_TEAM_WORLD), -1);
  EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD), -1);
}

TEST_F(Teams, SplitStridedEvenOdd) {
  shmem_team_t even = SHMEM_TEAM_INVALID, odd = SHMEM_TEAM_INVALID;
  int n_even = (npes_ + 1) / 2, n_odd = npes_ / 2;
  EXPECT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, n_even, nullptr, 0, &even), 0);
  EXPECT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n_odd, nullptr, 0, &odd), 0);
  shmem_team_t mine = me_ % 2 == 0 ? even : odd;
  shmem_team_t other = me_ % 2 == 0 ? odd : even;
  EXPECT_NE(mine, SHMEM_TEAM_INVALID);
  EXPECT_EQ(other, SHMEM_TEAM_INVALID);
  if (mine != SHMEM_TEAM_INVALID) {
    EXPECT_EQ(shmem_team_my_pe(mine), me_ / 2);
    EXPECT_EQ(shmem_team_n_pes(mine), me_ % 2 == 0 ? n_even : n_odd);
    for (int t = 0; t < shmem_team_n_pes(mine); ++t) {
      EXPECT_EQ(shmem_team_translate_pe(mine, t, SHMEM_TEAM_WORLD), 2 * t + me_ % 2) << t;
    }
    EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me_, mine), me_ / 2);
    // A world PE of the other parity is not in my team.
    if (npes_ > 1) EXPECT_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, (me_ + 1) % npes_, mine), -1);
    shmem_team_config_t cfg;
    cfg.num_contexts = -1;
    EXPECT_EQ(shmem_team_get_config(mine, SHMEM_TEAM_NUM_CONTEXTS, &cfg), 0);
    EXPECT_EQ(cfg.num_contexts, 0);
    shmem_team_sync(mine);
  }
  shmem_barrier_all();
  if (even != SHMEM_TEAM_INVALID) shmem_team_destroy(even);
  if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
}

TEST_F(Teams, SplitWithConfig) {
  shmem_team_config_t cfg;
  cfg.num_contexts = 2;
  shmem_team_t t = SHMEM_TEAM_INVALID;
  EXPECT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes_, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &t), 0);
  ASSERT_NE(t, SHMEM_TEAM_INVALID);
  shmem_team_config_t back;
  back.num_contexts = -1;
  EXPECT_EQ(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &back), 0);
  EXPECT_EQ(back.num_contexts, 2);
  EXPECT_EQ(shmem_team_my_pe(t), me_);
  shmem_ctx_t c1, c2;
  EXPECT_EQ(shmem_team_create_ctx(t, 0, &c1), 0);
  EXPECT_EQ(shmem_team_create_ctx(t, 0, &c2), 0);
  shmem_ctx_destroy(c2);
  shmem_ctx_destroy(c1);
  shmem_team_sync(t);
  shmem_team_destroy(t);
}

TEST_F(Teams, SplitOfASplit) {
  // Evens, then every other even: world PEs 0, 4, 8..
  shmem_team_t even = SHMEM_TEAM_INVALID, quarter = SHMEM_TEAM_INVALID;
  int n_even = (npes_ + 1) / 2;
  EXPECT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, n_even, nullptr, 0, &even), 0);
  if (even != SHMEM_TEAM_INVALID) {
    int n_q = (n_even + 1) / 2;
    EXPECT_EQ(shmem_team_split_strided(even, 0, 2, n_q, nullptr, 0, &quarter), 0);
    if (me_ % 4 == 0) {
      EXPECT_NE(quarter, SHMEM_TEAM_INVALID);
      EXPECT_EQ(shmem_team_my_pe(quarter), me_ / 4);
      EXPECT_EQ(shmem_team_translate_pe(quarter, shmem_team_my_pe(quarter), SHMEM_TEAM_WORLD), me_);
      EXPECT_EQ(shmem_team_translate_pe(quarter, 0, even), 0);
    } else {
      EXPECT_EQ(quarter, SHMEM_TEAM_INVALID);
    }
    if (quarter != SHMEM_TEAM_INVALID) shmem_team_destroy(quarter);
    shmem_team_destroy(even);
  }
  shmem_barrier_all();
}

TEST_F(Teams, Split2d) {
  // xrange 2: x = me % 2, y = me / 2. x-team holds PEs of one row, y-team PEs of one column.
  shmem_team_t xteam = SHMEM_TEAM_INVALID, yteam = SHMEM_TEAM_INVALID;
  const int xrange = 2;
  EXPECT_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, xrange, nullptr, 0, &xteam, nullptr, 0, &yteam), 0);
  ASSERT_NE(xteam, SHMEM_TEAM_INVALID);
  ASSERT_NE(yteam, SHMEM_TEAM_INVALID);
  int x = me_ % xrange, y = me_ / xrange;
  int rows = (npes_ + xrange - 1) / xrange;
  EXPECT_EQ(shmem_team_my_pe(xteam), x);
  EXPECT_EQ(shmem_team_n_pes(xteam), std::min(xrange, npes_ - y * xrange));
  EXPECT_EQ(shmem_team_my_pe(yteam), y);
  EXPECT_EQ(shmem_team_n_pes(yteam), rows - (x >= npes_ - (rows - 1) * xrange ? 1 : 0));
  EXPECT_EQ(shmem_team_translate_pe(xteam, 0, SHMEM_TEAM_WORLD), y * xrange);
  EXPECT_EQ(shmem_team_translate_pe(yteam, 0, SHMEM_TEAM_WORLD), x);
  shmem_team_sync(xteam);
  shmem_team_sync(yteam);
  shmem_team_destroy(xteam);
  shmem_team_destroy(yteam);
}

TEST_F(Teams, TeamSyncOrdersWithinTeam) {
  shmem_team_t even = SHMEM_TEAM_INVALID, odd = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes_ + 1) / 2, nullptr, 0, &even);
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes_ / 2, nullptr, 0, &odd);
  shmem_team_t mine = me_ % 2 == 0 ? even : odd;
  int* slots = static_cast<int*>(shmem_calloc(npes_, sizeof(int)));
  ASSERT_NE(slots, nullptr);
  if (mine != SHMEM_TEAM_INVALID) {
    int tn = shmem_team_n_pes(mine);
    for (int r = 1; r <= 20; ++r) {
      for (int t = 0; t < tn; ++t) shmem_int_p(&slots[me_], r, shmem_team_translate_pe(mine, t, SHMEM_TEAM_WORLD));
      shmem_quiet();
      shmem_team_sync(mine);
      for (int t = 0; t < tn; ++t) EXPECT_EQ(slots[shmem_team_translate_pe(mine, t, SHMEM_TEAM_WORLD)], r);
      shmem_team_sync(mine);
    }
  }
  shmem_barrier_all();
  if (even != SHMEM_TEAM_INVALID) shmem_team_destroy(even);
  if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
  shmem_free(slots);
}

TEST_F(Teams, CreateAndDestroyRepeatedly) {
  // Team slots are finite (GSHMEM_MAX_TEAMS); destroy must give them back.
  for (int i = 0; i < 100; ++i) {
    shmem_team_t t = SHMEM_TEAM_INVALID;
    int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes_, nullptr, 0, &t);
    if (rc != 0 || t == SHMEM_TEAM_INVALID) {
      ADD_FAILURE() << "split failed at iteration " << i;
      break;
    }
    shmem_team_sync(t);
    shmem_team_destroy(t);
  }
  shmem_barrier_all();
}

TEST_F(Teams, IdsNameTheSameTeamOnEveryMember) {
  // The predefined ids: world 0, shared 1, the node's PEs 2, this PE's rank on every node 3.
  EXPECT_EQ(gshmemx_team_id(SHMEM_TEAM_WORLD), 0);
  EXPECT_EQ(gshmemx_team_id(SHMEM_TEAM_SHARED), 1);
  EXPECT_EQ(gshmemx_team_id(SHMEM_TEAM_INVALID), -1);
  EXPECT_EQ(gshmemx_team_from_id(0), SHMEM_TEAM_WORLD);
  EXPECT_EQ(gshmemx_team_from_id(1), SHMEM_TEAM_SHARED);
  EXPECT_EQ(gshmemx_team_from_id(-1), SHMEM_TEAM_INVALID);
  EXPECT_EQ(gshmemx_team_from_id(64), SHMEM_TEAM_INVALID);
  for (int id = 2; id <= 3; ++id) {
    shmem_team_t t = gshmemx_team_from_id(id);
    ASSERT_NE(t, SHMEM_TEAM_INVALID) << "id " << id;
    EXPECT_EQ(gshmemx_team_id(t), id);
    const int my = shmem_team_my_pe(t);
    EXPECT_GE(my, 0);
    EXPECT_EQ(shmem_team_translate_pe(t, my, SHMEM_TEAM_WORLD), me_);
    shmem_team_sync(t);  // a usable team: its slot is its own
  }
  // On one node (every PE in SHARED over shared memory) the node team is the world and SAME_MYPE_NODE this PE.
  if (shmem_team_n_pes(SHMEM_TEAM_SHARED) == npes_) {
    EXPECT_EQ(shmem_team_n_pes(gshmemx_team_from_id(2)), npes_);
    EXPECT_EQ(shmem_team_n_pes(gshmemx_team_from_id(3)), 1);
  }
  // A split's id is the same on its members, names the team until it is destroyed, and is then free.
  shmem_team_t rev = SHMEM_TEAM_INVALID;
  ASSERT_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes_ - 1, -1, npes_, nullptr, 0, &rev), 0);
  ASSERT_NE(rev, SHMEM_TEAM_INVALID);
  const int id = gshmemx_team_id(rev);
  EXPECT_GE(id, 4);
  EXPECT_EQ(gshmemx_team_from_id(id), rev);
  static int ids[1024];
  for (int pe = 0; pe < npes_; ++pe) shmem_int_p(&ids[me_], id, pe);
  shmem_barrier_all();
  for (int pe = 0; pe < npes_; ++pe) EXPECT_EQ(ids[pe], id) << "PE " << pe;
  shmem_team_destroy(rev);
  EXPECT_EQ(gshmemx_team_from_id(id), SHMEM_TEAM_INVALID);
  shmem_barrier_all();
}

/// The world's ids made on @p maker, two of them, handed to every PE (broadcast through symmetric memory).
void idsFrom(int maker, uint64_t out[2]) {
  static uint64_t ids[2];
  if (shmem_my_pe() == maker) {
    ASSERT_EQ(gshmemx_team_uniqueid_make(&ids[0]), 0);
    ASSERT_EQ(gshmemx_team_uniqueid_make(&ids[1]), 0);
    EXPECT_NE(ids[0], ids[1]);
    for (int pe = 0; pe < shmem_n_pes(); ++pe) shmem_putmem(ids, ids, sizeof ids, pe);
  }
  shmem_barrier_all();
  out[0] = ids[0], out[1] = ids[1];
}

TEST_F(Teams, InitFromUniqueIdWithoutAParent) {
  // Two teams at once from ids made on the last PE: the even PEs in order, the odd ones highest first.
  uint64_t id[2];
  idsFrom(npes_ - 1, id);
  const bool even = me_ % 2 == 0;
  const int n_even = (npes_ + 1) / 2, n_odd = npes_ / 2;
  const int size = even ? n_even : n_odd, idx = even ? me_ / 2 : (n_odd - 1) - me_ / 2;
  shmem_team_t t = SHMEM_TEAM_INVALID;
  ASSERT_EQ(gshmemx_team_init_uniqueid(even ? id[0] : id[1], size, idx, nullptr, 0, &t), 0);
  ASSERT_NE(t, SHMEM_TEAM_INVALID);
  EXPECT_EQ(shmem_team_n_pes(t), size);
  EXPECT_EQ(shmem_team_my_pe(t), idx);
  for (int k = 0; k < size; ++k) {
    const int want = even ? 2 * k : 2 * (n_odd - 1 - k) + 1;
    EXPECT_EQ(shmem_team_translate_pe(t, k, SHMEM_TEAM_WORLD), want) << "member " << k;
  }
  // A collective on it: the sum of the members' world PEs.
  static long src, dst;
  src = me_;
  shmem_barrier_all();
  EXPECT_EQ(shmem_long_sum_reduce(t, &dst, &src, 1), 0);
  long want = 0;
  for (int pe = even ? 0 : 1; pe < npes_; pe += 2) want += pe;
  EXPECT_EQ(dst, want);
  shmem_team_sync(t);
  shmem_team_destroy(t);
  shmem_barrier_all();
}

TEST_F(Teams, InitFromUniqueIdRefusesMembersNotEvenlySpaced) {
  if (npes_ < 3) GTEST_SKIP() << "needs 3 PEs";
  uint64_t id[2];
  idsFrom(0, id);
  // PEs 0, 1 and npes-1 (3 PEs: 0, 1, 2 would be even; so with 3 PEs take the order 0, 2, 1).
  const int members[3] = {0, npes_ == 3 ? 2 : 1, npes_ == 3 ? 1 : npes_ - 1};
  int idx = -1;
  for (int k = 0; k < 3; ++k)
    if (members[k] == me_) idx = k;
  if (idx >= 0) {
    shmem_team_t t = gshmemx_team_from_id(0);
    EXPECT_EQ(gshmemx_team_init_uniqueid(id[0], 3, idx, nullptr, 0, &t), -1);
    EXPECT_EQ(t, SHMEM_TEAM_INVALID);
  }
  shmem_barrier_all();
}

}  // namespace
}  // namespace gshmem_test
