/* Teams: split the world into a 2-column grid with shmem_team_split_2d (as the specification's example does),
 * then reduce over each row and each column team, and translate PE numbers between the teams and the world. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  static int mine, row_sum, col_sum;
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes(), errors = 0;
  const int xrange = 2;
  shmem_team_t xteam, yteam;
  shmem_team_config_t *cfg = NULL;
  if (shmem_team_split_2d(SHMEM_TEAM_WORLD, xrange, cfg, 0, &xteam, cfg, 0, &yteam) != 0) {
    printf("team_split_2d: PE %d: split failed\n", me);
    shmem_global_exit(1);
  }
  int x = shmem_team_my_pe(xteam), y = shmem_team_my_pe(yteam);
  if (x != me % xrange || y != me / xrange) {
    printf("team_split_2d: PE %d: at (%d, %d), expected (%d, %d)\n", me, x, y, me % xrange, me / xrange);
    errors++;
  }
  /* Row team member 0 is the first PE of my row; column team member 0 is PE x of the world. */
  if (shmem_team_translate_pe(xteam, 0, SHMEM_TEAM_WORLD) != me - x) errors++;
  if (shmem_team_translate_pe(yteam, 0, SHMEM_TEAM_WORLD) != x) errors++;
  mine = me;
  shmem_int_sum_reduce(xteam, &row_sum, &mine, 1);
  shmem_int_sum_reduce(yteam, &col_sum, &mine, 1);
  int row_want = 0, col_want = 0;
  for (int p = 0; p < npes; ++p) {
    if (p / xrange == me / xrange) row_want += p;
    if (p % xrange == me % xrange) col_want += p;
  }
  if (row_sum != row_want || col_sum != col_want) {
    printf("team_split_2d: PE %d: row sum %d (want %d), column sum %d (want %d)\n", me, row_sum, row_want, col_sum,
           col_want);
    errors++;
  }
  shmem_team_destroy(xteam);
  shmem_team_destroy(yteam);
  shmem_barrier_all();
  if (me == 0) printf("team_split_2d: %d PEs: %s\n", npes, errors ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return errors != 0;
}
