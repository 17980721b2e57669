/* shmem_ctx_quiet, shmem_ctx_fence and shmem_ctx_destroy on SHMEM_CTX_INVALID perform no operation. PEs outside a
 * team keep SHMEM_CTX_INVALID for that team's context and still run the same quiet/fence/destroy sequence as the
 * members, which put through the team context. */
#include <shmem.h>
#include <stdio.h>

static long box;
static int failures;

int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  int bad = 0;

  /* Team of world PEs 1, 3, 5, ...; with 2 PEs it has one member and PE 0 stays outside. */
  shmem_team_t odds = SHMEM_TEAM_INVALID;
  if (npes >= 2) shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odds);

  shmem_ctx_t ctx = SHMEM_CTX_INVALID;
  if (odds != SHMEM_TEAM_INVALID && shmem_team_create_ctx(odds, 0, &ctx) != 0) ctx = SHMEM_CTX_INVALID;
  if ((me % 2 == 1) != (ctx != SHMEM_CTX_INVALID)) bad++;

  if (ctx != SHMEM_CTX_INVALID) {
    int tme = shmem_team_my_pe(odds);
    int tn = shmem_team_n_pes(odds);
    shmem_ctx_long_p(ctx, &box, 7000 + tme, (tme + 1) % tn);
  }
  shmem_ctx_fence(ctx); /* no-op where ctx is SHMEM_CTX_INVALID */
  shmem_ctx_quiet(ctx);
  shmem_sync_all();
  if (ctx != SHMEM_CTX_INVALID) {
    int tme = shmem_team_my_pe(odds);
    int tn = shmem_team_n_pes(odds);
    if (box != 7000 + (tme + tn - 1) % tn) bad++;
  } else if (box != 0) {
    bad++;
  }

  shmem_team_t got = SHMEM_TEAM_WORLD;
  if (ctx == SHMEM_CTX_INVALID && (shmem_ctx_get_team(ctx, &got) == 0 || got != SHMEM_TEAM_INVALID)) bad++;

  shmem_ctx_destroy(ctx);
  if (odds != SHMEM_TEAM_INVALID) shmem_team_destroy(odds);

  if (bad) shmem_int_atomic_add(&failures, bad, 0);
  shmem_barrier_all();
  if (me == 0) printf("ctx_invalid_noop: %d PEs: %s\n", npes, failures == 0 ? "SUCCESS" : "FAILED");
  int ok = failures == 0;
  shmem_finalize();
  return ok ? 0 : 1;
}
