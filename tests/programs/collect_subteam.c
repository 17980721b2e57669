/* collect on teams smaller than SHMEM_TEAM_WORLD: variable-size contributions concatenated in team PE order, on
 * the even PEs, the odd PEs, all PEs but PE 0, a one-PE team and the world, typed and
 * collectmem, back to back on one team with no synchronization in between. */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

#define MAXPE 64
#define MAXOUT (MAXPE * (MAXPE + 1))

static int errors, me;

/* Team member i contributes i + 1 + round longs of value 1000 * round + world PE. */
static void check_collect(shmem_team_t team, const char* name, long* src, long* dst, int rounds) {
  if (team == SHMEM_TEAM_INVALID) return;
  int n = shmem_team_n_pes(team), i = shmem_team_my_pe(team);
  for (int r = 0; r < rounds; ++r) {
    size_t count = (size_t)(i + 1 + r);
    for (size_t k = 0; k < count; ++k) src[k] = 1000L * r + me;
    memset(dst, 0xff, MAXOUT * sizeof(long));
    if (r % 2) shmem_long_collect(team, dst, src, count);
    else shmem_collectmem(team, dst, src, count * sizeof(long));
    int at = 0;
    for (int m = 0; m < n; ++m) {
      long want = 1000L * r + shmem_team_translate_pe(team, m, SHMEM_TEAM_WORLD);
      for (int k = 0; k < m + 1 + r; ++k, ++at)
        if (dst[at] != want) {
          printf("collect_subteam: PE %d: %s round %d: dst[%d] = %ld, want %ld\n", me, name, r, at, dst[at], want);
          ++errors;
          return;
        }
    }
    if (dst[at] != -1) printf("collect_subteam: PE %d: %s wrote past its end\n", me, name), ++errors;
  }
}

int main(void) {
  shmem_init();
  me = shmem_my_pe();
  int npes = shmem_n_pes();
  if (npes > MAXPE) shmem_global_exit(2);
  long* src = shmem_malloc(2 * MAXPE * sizeof(long));
  long* dst = shmem_malloc(MAXOUT * sizeof(long));
  shmem_team_t even, odd, tail, self;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even);
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, npes - 1, NULL, 0, &tail);
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &self);

  check_collect(even, "even PEs", src, dst, 4);
  check_collect(odd, "odd PEs", src, dst, 4);
  check_collect(tail, "PEs 1..n-1", src, dst, 3);
  check_collect(self, "PE 0 alone", src, dst, 2);
  check_collect(SHMEM_TEAM_WORLD, "world", src, dst, 2);
  check_collect(even, "even PEs after world", src, dst, 1);

  if (even != SHMEM_TEAM_INVALID) shmem_team_destroy(even);
  if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
  if (tail != SHMEM_TEAM_INVALID) shmem_team_destroy(tail);
  if (self != SHMEM_TEAM_INVALID) shmem_team_destroy(self);
  shmem_barrier_all();
  shmem_free(src);
  shmem_free(dst);
  if (me == 0) printf("collect_subteam: %d PEs: %s\n", npes, errors ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return errors != 0;
}
