/* PEs that leave without shmem_finalize (argv[1] names how) must never block in a destructor:
 *   return_all   every PE returns from main: the job ends at once with status 0 (and a warning per PE)
 *   exit_all     every PE calls exit(0): the same
 *   one_leaves   PE 1 returns while the others wait in shmem_barrier_all: the job ends (GSHMEM_TIMEOUT after the
 *                exit at most) with a message naming PE 1, never hangs
 *   one_exits3   PE 1 calls exit(3) while the others wait in shmem_barrier_all: the job ends at once with status 3
 *   one_returns3 the same with PE 1 returning 3 from main */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long cell;

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes();
  shmem_long_p(&cell, me, (me + 1) % npes); /* some traffic, so there is state to release */
  shmem_barrier_all();
  printf("exit_without_finalize: PE %d leaves (%s)\n", me, mode);
  fflush(stdout);
  if (strcmp(mode, "return_all") == 0) return 0;
  if (strcmp(mode, "exit_all") == 0) exit(0);
  if (strcmp(mode, "one_leaves") == 0) {
    if (me == 1 % npes) return 0;
    shmem_barrier_all();
    printf("exit_without_finalize: PE %d passed a barrier without PE 1\n", me);
    shmem_finalize();
    return 0;
  }
  if (strcmp(mode, "one_exits3") == 0 || strcmp(mode, "one_returns3") == 0) {
    if (me == 1 % npes) {
      if (mode[4] == 'e') exit(3);
      return 3;
    }
    shmem_barrier_all();
    printf("exit_without_finalize: PE %d passed a barrier without PE 1\n", me);
    shmem_finalize();
    return 0;
  }
  printf("exit_without_finalize: unknown mode '%s'\n", mode);
  shmem_finalize();
  return 2;
}
