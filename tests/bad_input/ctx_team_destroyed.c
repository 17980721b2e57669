/* Contexts die with their team: shmem_team_destroy destroys the contexts created from the team, and their handles
 * then act as SHMEM_CTX_INVALID. A new team made afterwards (which may reuse the old team's memory) and its context
 * are never reached through a stale handle. argv[1]:
 *   noop  shmem_ctx_quiet, shmem_ctx_fence and shmem_ctx_destroy on the stale handle do nothing,
 *         shmem_ctx_get_team returns nonzero and SHMEM_TEAM_INVALID; the new team's context works; prints SUCCESS
 *   put   a put through the stale handle ends the job with one line naming the call, before anything moves
 * Run on 2 or 4 PEs: the first team is world PEs 1, 3, ..., the second PEs 0, 2, ... (with 2 PEs: PE 1, then PE 0;
 * the second team is split so that a stale handle's team numbering would name a different PE). */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static long box[2];

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes(), ok = 1;
  shmem_team_t odds = SHMEM_TEAM_INVALID, evens = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odds);
  shmem_ctx_t stale = SHMEM_CTX_INVALID, fresh = SHMEM_CTX_INVALID;
  if (odds != SHMEM_TEAM_INVALID) {
    ok = shmem_team_create_ctx(odds, 0, &stale) == 0;
    int tme = shmem_team_my_pe(odds), tn = shmem_team_n_pes(odds);
    shmem_ctx_long_p(stale, &box[0], 100 + me, (tme + 1) % tn); /* team numbering: the next odd PE */
    shmem_ctx_quiet(stale);
    shmem_team_sync(odds);
    shmem_team_destroy(odds); /* destroys `stale` too */
  }
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
  if (evens != SHMEM_TEAM_INVALID) ok = ok && shmem_team_create_ctx(evens, 0, &fresh) == 0;
  shmem_barrier_all();
  if (stale != SHMEM_CTX_INVALID) {
    ok = ok && stale != fresh;
    if (strcmp(mode, "put") == 0) {
      shmem_ctx_long_p(stale, &box[1], 7, 0);
      printf("ctx_team_destroyed: PE %d: the bad call returned\n", me);
    }
    shmem_team_t t = SHMEM_TEAM_WORLD;
    ok = ok && shmem_ctx_get_team(stale, &t) != 0 && t == SHMEM_TEAM_INVALID;
    shmem_ctx_fence(stale);
    shmem_ctx_quiet(stale);
    shmem_ctx_destroy(stale);
  }
  if (fresh != SHMEM_CTX_INVALID) { /* the new team's context reaches its own members only */
    int tme = shmem_team_my_pe(evens), tn = shmem_team_n_pes(evens);
    shmem_ctx_long_p(fresh, &box[1], 200 + me, (tme + 1) % tn); /* team numbering: the next even PE */
    shmem_ctx_quiet(fresh);
  }
  shmem_barrier_all();
  if (me % 2 == 0) { /* box[1]: from the even PE before it, through the new team's context */
    int tn = (npes + 1) / 2, tme = me / 2;
    ok = ok && box[0] == 0 && box[1] == 200 + 2 * ((tme + tn - 1) % tn);
  } else { /* box[0]: from the odd PE before it, through the old team's context; box[1]: nothing */
    int tn = npes / 2, tme = me / 2;
    ok = ok && box[0] == 100 + 1 + 2 * ((tme + tn - 1) % tn) && box[1] == 0;
  }
  if (fresh != SHMEM_CTX_INVALID) shmem_ctx_destroy(fresh);
  if (evens != SHMEM_TEAM_INVALID) shmem_team_destroy(evens);
  printf("ctx_team_destroyed: PE %d: %s\n", me, ok ? "SUCCESS" : "FAILURE");
  shmem_finalize();
  return ok ? 0 : 1;
}
