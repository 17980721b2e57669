/* PEs that disagree on a collective (agreement.cmake): each case makes one mistake on some PEs; the job must end with
 * a line naming it (the mailbox call summaries at GSHMEM_CHECK=1, the split's triplet check, or the hang diagnoser
 * after GSHMEM_TIMEOUT), never print "returned". Usage: agreement <case>. */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static long src[64], dst[64];

static void done(const char* c) {
  printf("agreement: PE %d: %s: the bad call returned\n", shmem_my_pe(), c);
  fflush(stdout);
}

int main(int argc, char** argv) {
  const char* c = argc > 1 ? argv[1] : "";
  shmem_init();
  const int me = shmem_my_pe();
  for (int i = 0; i < 64; ++i) src[i] = me + i;
  shmem_barrier_all();
  if (!strcmp(c, "bcast_nelems")) { /* the root sends 8 elements, the others expect 16 */
    shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, me == 0 ? 8 : 16, 0);
    shmem_barrier_all();
  } else if (!strcmp(c, "bcast_root")) { /* PE 0 says root 0, the others root 1; then a reduction */
    shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 4, me == 0 ? 0 : 1);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
  } else if (!strcmp(c, "reduce_op")) {
    if (me == 0)
      shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
    else
      shmem_long_max_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
  } else if (!strcmp(c, "reduce_nelems")) {
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, me == 0 ? 4 : 8);
  } else if (!strcmp(c, "diff_coll")) { /* PE 0 broadcasts, the others reduce */
    if (me == 0)
      shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 4, 0);
    else
      shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
    shmem_barrier_all();
  } else if (!strcmp(c, "barrier_vs_reduce")) { /* PE 0 enters a barrier, the others a reduction */
    if (me == 0)
      shmem_barrier_all();
    else
      shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
  } else if (!strcmp(c, "skip_reduce")) { /* the last PE skips the reduction */
    if (me != shmem_n_pes() - 1) shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 4);
    shmem_barrier_all();
  } else if (!strcmp(c, "split_triplets")) { /* PE 0 asks for every PE, the others for the first one only */
    shmem_team_t t;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, me == 0 ? shmem_n_pes() : 1, NULL, 0, &t);
    if (t != SHMEM_TEAM_INVALID) shmem_team_sync(t);
  } else if (!strcmp(c,
                     "bcast_two_teams")) { /* two identical teams; PE 0 broadcasts on the first, others on the second */
    shmem_team_t a, b;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &a);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &b);
    shmem_long_broadcast(me == 0 ? a : b, dst, src, 4, 0);
  } else {
    fprintf(stderr, "agreement: unknown case '%s'\n", c);
    return 2;
  }
  done(c);
  shmem_finalize();
  return 0;
}
