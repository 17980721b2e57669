// Contexts: ctx_create/destroy, ctx RMA/AMO, ctx_quiet/fence, ctx_get_team, team_create_ctx with team-relative PEs.
#include <cstdint>
#include <vector>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

class Contexts : public PeTest {};

TEST_F(Contexts, CreateUseDestroy) {
  long* buf = static_cast<long*>(shmem_calloc(16, sizeof(long)));
  ASSERT_NE(buf, nullptr);
  shmem_ctx_t ctx;
  int rc = shmem_ctx_create(0, &ctx);
  EXPECT_EQ(rc, 0);
  if (rc != 0) ctx = SHMEM_CTX_DEFAULT;
  shmem_barrier_all();
  long src[16];
  for (int i = 0; i < 16; ++i) src[i] = me_ * 100 + i;
  shmem_ctx_long_put(ctx, buf, src, 16, right());
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  for (int i = 0; i < 16; ++i) EXPECT_EQ(buf[i], left() * 100 + i) << i;
  long got[16];
  shmem_ctx_long_get(ctx, got, buf, 16, right());
  for (int i = 0; i < 16; ++i) EXPECT_EQ(got[i], me_ * 100 + i) << i;
  EXPECT_EQ(shmem_ctx_long_g(ctx, &buf[3], left()), ((left() + npes_ - 1) % npes_) * 100 + 3) << "g through a context";
  shmem_barrier_all();
  if (rc == 0) shmem_ctx_destroy(ctx);
  shmem_free(buf);
}

TEST_F(Contexts, OptionsCombinations) {
  for (long opts : {0L, static_cast<long>(SHMEM_CTX_SERIALIZED), static_cast<long>(SHMEM_CTX_PRIVATE),
                    static_cast<long>(SHMEM_CTX_NOSTORE), static_cast<long>(SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE)}) {
    shmem_ctx_t ctx;
    ASSERT_EQ(shmem_ctx_create(opts, &ctx), 0) << "options " << opts;
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);
  }
}

TEST_F(Contexts, ManyContextsAndNbiOnEach) {
  const int nctx = 8;
  int* buf = static_cast<int*>(shmem_calloc(nctx * 64, sizeof(int)));
  ASSERT_NE(buf, nullptr);
  std::vector<shmem_ctx_t> ctxs(nctx);
  int created = 0;
  for (int c = 0; c < nctx; ++c) created += shmem_ctx_create(0, &ctxs[c]) == 0;
  ASSERT_EQ(created, nctx);
  shmem_barrier_all();
  std::vector<int> src(nctx * 64);
  for (int k = 0; k < nctx * 64; ++k) src[k] = me_ * 100000 + k;
  for (int c = 0; c < nctx; ++c) shmem_ctx_int_put_nbi(ctxs[c], buf + c * 64, src.data() + c * 64, 64, right());
  for (int c = 0; c < nctx; ++c) shmem_ctx_quiet(ctxs[c]);
  shmem_barrier_all();
  GSHMEM_EXPECT_ALL(nctx * 64, k, buf[k] == left() * 100000 + static_cast<int>(k));
  shmem_barrier_all();
  for (int c = 0; c < nctx; ++c) shmem_ctx_destroy(ctxs[c]);
  shmem_free(buf);
}

TEST_F(Contexts, CtxAtomicsAndFence) {
  long* data = static_cast<long*>(shmem_calloc(1, sizeof(long)));
  uint64_t* flag = static_cast<uint64_t*>(shmem_calloc(1, sizeof(uint64_t)));
  int* amo = static_cast<int*>(shmem_calloc(1, sizeof(int)));
  ASSERT_TRUE(data && flag && amo);
  shmem_ctx_t ctx;
  ASSERT_EQ(shmem_ctx_create(0, &ctx), 0);
  shmem_barrier_all();
  for (int i = 0; i < 10; ++i) {
    (void)shmem_ctx_int_atomic_fetch_add(ctx, amo, 2, 0);
    shmem_ctx_int_atomic_inc(ctx, amo, 0);
  }
  shmem_ctx_long_p(ctx, data, 4242 + me_, right());
  shmem_ctx_fence(ctx);
  shmem_ctx_uint64_atomic_set(ctx, flag, 1, right());
  shmem_ctx_quiet(ctx);
  shmem_uint64_wait_until(flag, SHMEM_CMP_EQ, 1);
  EXPECT_EQ(*data, 4242 + left());
  shmem_barrier_all();
  if (me_ == 0) EXPECT_EQ(*amo, 30 * npes_);
  EXPECT_EQ(shmem_ctx_int_atomic_fetch(ctx, amo, 0), 30 * npes_);
  shmem_barrier_all();
  shmem_ctx_destroy(ctx);
  shmem_free(amo);
  shmem_free(flag);
  shmem_free(data);
}

TEST_F(Contexts, DefaultContextTeamIsWorld) {
  shmem_team_t team = SHMEM_TEAM_INVALID;
  EXPECT_EQ(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &team), 0);
  EXPECT_EQ(team, SHMEM_TEAM_WORLD);
  shmem_ctx_t ctx;
  ASSERT_EQ(shmem_ctx_create(0, &ctx), 0);
  team = SHMEM_TEAM_INVALID;
  EXPECT_EQ(shmem_ctx_get_team(ctx, &team), 0);
  EXPECT_EQ(team, SHMEM_TEAM_WORLD);
  shmem_ctx_destroy(ctx);
}

TEST_F(Contexts, TeamContextUsesTeamRelativePes) {
  // Team of the odd world PEs (or of all PEs when there is only one odd PE): PE numbers are team-relative.
  shmem_team_t odd = SHMEM_TEAM_INVALID;
  int odd_count = npes_ / 2;
  int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, odd_count, nullptr, 0, &odd);
  EXPECT_EQ(rc, 0);
  long* buf = static_cast<long*>(shmem_calloc(2, sizeof(long)));
  ASSERT_NE(buf, nullptr);
  shmem_barrier_all();
  if (odd != SHMEM_TEAM_INVALID) {
    int tme = shmem_team_my_pe(odd);
    int tn = shmem_team_n_pes(odd);
    EXPECT_EQ(tme, me_ / 2);
    EXPECT_EQ(tn, odd_count);
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    int crc = shmem_team_create_ctx(odd, 0, &ctx);
    EXPECT_EQ(crc, 0);
    if (crc != 0) ctx = SHMEM_CTX_DEFAULT;  // keep going so that the team syncs match; checks below will fail
    shmem_team_t got = SHMEM_TEAM_INVALID;
    EXPECT_EQ(shmem_ctx_get_team(ctx, &got), 0);
    EXPECT_EQ(got, odd);
    // Team PE (tme + 1) % tn is world PE 2 * ((tme + 1) % tn) + 1.
    int tright = (tme + 1) % tn;
    shmem_ctx_long_p(ctx, &buf[0], 1000 + me_, tright);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(odd);
    int tleft = (tme + tn - 1) % tn;
    EXPECT_EQ(buf[0], 1000 + (2 * tleft + 1)) << "team ctx put went to the wrong PE";
    EXPECT_EQ(shmem_ctx_long_g(ctx, &buf[0], tright), 1000 + me_);
    shmem_team_sync(odd);
    if (crc == 0) shmem_ctx_destroy(ctx);
  } else {
    EXPECT_EQ(me_ % 2, 0) << "odd PE left out of the odd team";
  }
  shmem_barrier_all();
  if (me_ % 2 == 0) EXPECT_EQ(buf[0], 0) << "even PE written through the odd team's context";
  shmem_barrier_all();
  if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
  shmem_free(buf);
}

}  // namespace
}  // namespace gshmem_test
