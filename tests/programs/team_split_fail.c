/* A team that cannot be created is SHMEM_TEAM_INVALID with a nonzero return on every PE, and the job goes on
 * (OpenSHMEM 1.5, shmem_team_split_strided and shmem_team_split_2d): invalid triplets, then every team slot in
 * use. After the teams are destroyed, splits work again. */
#include <shmem.h>
#include <stdio.h>

#define MAXTEAMS 128

static int errors;
static int me;

#define CHECK(cond, ...)                          \
  do {                                            \
    if (!(cond)) {                                \
      printf("team_split_fail: PE %d: ", me);     \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
      errors++;                                   \
    }                                             \
  } while (0)

static void expectInvalid(int start, int stride, int size) {
  shmem_team_t t = SHMEM_TEAM_WORLD;
  int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0, &t);
  CHECK(rc != 0 && t == SHMEM_TEAM_INVALID, "split(%d, %d, %d) returned %d, team %s", start, stride, size, rc,
        t == SHMEM_TEAM_INVALID ? "invalid" : "valid");
}

int main(void) {
  shmem_init();
  me = shmem_my_pe();
  int npes = shmem_n_pes();

  /* invalid triplets: past the parent, negative start, stride 0 with size > 1, last PE before 0 */
  expectInvalid(0, 1, npes + 5);
  expectInvalid(-1, 1, 1);
  expectInvalid(0, 0, 2);
  expectInvalid(npes - 1, -1, npes + 1);
  expectInvalid(npes, 1, 1);
  shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
  int rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, NULL, 0, &x, NULL, 0, &y);
  CHECK(rc != 0 && x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID, "split_2d with xrange 0 returned %d", rc);

  /* every slot in use: split the world until a split fails; it fails on every PE at the same split */
  static shmem_team_t teams[MAXTEAMS];
  int made = 0;
  for (; made < MAXTEAMS; ++made) {
    rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &teams[made]);
    if (rc != 0) {
      CHECK(teams[made] == SHMEM_TEAM_INVALID, "failed split %d returned a team", made);
      break;
    }
    CHECK(teams[made] != SHMEM_TEAM_INVALID, "split %d returned 0 and SHMEM_TEAM_INVALID", made);
  }
  CHECK(made > 0 && made < MAXTEAMS, "made %d teams before a split failed", made);
  long mine = made, most = 0, least = 0;
  static long src, dst;
  src = mine;
  shmem_long_max_reduce(SHMEM_TEAM_WORLD, &dst, &src, 1);
  most = dst;
  shmem_long_min_reduce(SHMEM_TEAM_WORLD, &dst, &src, 1);
  least = dst;
  CHECK(most == least, "PEs disagree on the failing split: %ld to %ld teams", least, most);
  /* split_2d needs at least one more slot: both outputs invalid, nonzero, and nothing leaks */
  x = y = SHMEM_TEAM_WORLD;
  rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, 1, NULL, 0, &x, NULL, 0, &y);
  CHECK(rc != 0 && x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID,
        "split_2d with no free slot returned %d (x %s, y %s)", rc, x ? "valid" : "invalid", y ? "valid" : "invalid");
  /* the teams made still work */
  if (made > 0) {
    shmem_team_sync(teams[made - 1]);
    CHECK(shmem_team_n_pes(teams[made - 1]) == npes, "last team has %d PEs", shmem_team_n_pes(teams[made - 1]));
  }
  /* split_2d with xrange = npes makes one row and npes single-PE columns: it needs 1 + npes free slots */
  const int need = 1 + npes;
  CHECK(made >= need, "only %d teams fit; the test needs %d", made, need);
  for (int i = 0; i < need && made > 0; ++i) shmem_team_destroy(teams[--made]);
  rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, npes, NULL, 0, &x, NULL, 0, &y);
  CHECK(rc == 0 && x != SHMEM_TEAM_INVALID && y != SHMEM_TEAM_INVALID, "split_2d with %d free slots returned %d",
        need, rc);
  if (rc == 0) {
    CHECK(shmem_team_n_pes(x) == npes && shmem_team_n_pes(y) == 1, "split_2d sizes %d, %d", shmem_team_n_pes(x),
          shmem_team_n_pes(y));
    shmem_team_destroy(x);
    shmem_team_destroy(y);
  }
  /* one slot short: split_2d fails on every PE and gives back the teams it made on the way */
  rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &teams[made]);
  CHECK(rc == 0, "split into a free slot failed");
  if (rc == 0) ++made;
  rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, npes, NULL, 0, &x, NULL, 0, &y);
  CHECK(rc != 0 && x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID, "split_2d one slot short returned %d", rc);
  for (int i = 0; i < need - 1; ++i) {
    rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &teams[made]);
    CHECK(rc == 0 && teams[made] != SHMEM_TEAM_INVALID, "slot %d of a failed split_2d was not given back", i);
    if (rc == 0) ++made;
  }
  for (int i = 0; i < made; ++i) shmem_team_destroy(teams[i]);

  /* after destroying everything, a split works again */
  shmem_team_t even;
  rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even);
  CHECK(rc == 0, "split after destroy returned %d", rc);
  CHECK((me % 2 == 0) == (even != SHMEM_TEAM_INVALID), "even team membership");
  if (even != SHMEM_TEAM_INVALID) shmem_team_destroy(even);

  shmem_barrier_all();
  if (me == 0) printf("team_split_fail: %d PEs: %s\n", npes, errors ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return errors != 0;
}
