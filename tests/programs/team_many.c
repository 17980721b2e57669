/* Many split teams alive at once (GSHMEM_MAX_TEAMS sizes the team table). argv[1] (default 40) teams are made by
 * shmem_team_split_strided from SHMEM_TEAM_WORLD, alternately of every PE and of every other PE (each takes a slot
 * free on every PE of the parent, so they hold argv[1] slots): each PE's teams have distinct ids, every member of a team sees the same id, and a sync
 * and a sum reduction on each give the right value. Then the world is split until a split fails: nonzero and
 * SHMEM_TEAM_INVALID on every PE at the same split, split_2d too; the teams made still work; destroying one lets one
 * split succeed. Everything is destroyed and a split works again. Prints "team_many: PE <n>: SUCCESS". */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>

#define CAPACITY 20000 /* teams this program holds at most (GSHMEM_MAX_TEAMS is at most 16384) */

static int errors;
static int me;

#define CHECK(cond, ...)                      \
  do {                                        \
    if (!(cond)) {                            \
      printf("team_many: PE %d: ", me);       \
      printf(__VA_ARGS__);                    \
      printf("\n");                           \
      errors++;                               \
    }                                         \
  } while (0)

static long src, dst;

static long teamSum(shmem_team_t t, long v) {
  src = v;
  shmem_long_sum_reduce(t, &dst, &src, 1);
  return dst;
}

/* The same id on every member, the right member count and sum of (world PE + 1). */
static void checkTeam(shmem_team_t t, int start, int stride, int size) {
  const int id = gshmemx_team_id(t);
  src = id;
  shmem_long_max_reduce(t, &dst, &src, 1);
  const long most = dst;
  shmem_long_min_reduce(t, &dst, &src, 1);
  CHECK(most == id && dst == id, "team (%d, %d, %d) id %d: its members hold ids %ld to %ld", start, stride, size, id,
        dst, most);
  shmem_team_sync(t);
  long want = 0;
  for (int i = 0; i < size; ++i) want += start + i * stride + 1;
  const long got = teamSum(t, me + 1);
  CHECK(shmem_team_n_pes(t) == size && got == want, "team (%d, %d, %d): %d PEs, sum %ld, expected %ld", start, stride,
        size, shmem_team_n_pes(t), got, want);
}

int main(int argc, char** argv) {
  shmem_init();
  me = shmem_my_pe();
  const int npes = shmem_n_pes();
  /* The default fits the default GSHMEM_MAX_TEAMS (64 slots, 60 for splits), as a program run without arguments. */
  const int want = argc > 1 ? atoi(argv[1]) : 40;
  shmem_team_t* teams = calloc(CAPACITY, sizeof(shmem_team_t));
  int* starts = calloc(CAPACITY, sizeof(int));
  char* ids = calloc(CAPACITY, 1);
  int mine = 0; /* teams of this PE, in teams[0 .. mine) */

  for (int i = 0; i < want; ++i) {
    const int half = i % 2;  /* odd splits: every other PE, from PE 0 or PE 1 by turns */
    const int start = half ? (i / 2) % 2 : 0;
    const int stride = half ? 2 : 1;
    const int size = half ? (npes - start + 1) / 2 : npes;
    shmem_team_t t = SHMEM_TEAM_INVALID;
    const int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, start, stride, size, NULL, 0, &t);
    const int member = me >= start && (me - start) % stride == 0;
    CHECK(rc == 0 && (t != SHMEM_TEAM_INVALID) == member, "split %d (%d, %d, %d) returned %d", i, start, stride, size,
          rc);
    if (t == SHMEM_TEAM_INVALID) continue;
    const int id = gshmemx_team_id(t);
    CHECK(id >= 0 && id < CAPACITY && !ids[id], "split %d: id %d is already one of this PE's teams", i, id);
    if (id >= 0 && id < CAPACITY) ids[id] = 1;
    starts[mine] = start;
    teams[mine++] = t;
  }
  for (int k = 0; k < mine; ++k) {
    const int stride = shmem_team_n_pes(teams[k]) == npes ? 1 : 2;
    checkTeam(teams[k], starts[k], stride, stride == 1 ? npes : (npes - starts[k] + 1) / 2);
  }
  printf("team_many: PE %d: %d teams alive\n", me, mine);

  /* Split the world until a split fails: it fails on every PE at the same split. */
  const int before = mine;
  int rc = 0;
  while (mine < CAPACITY) {
    rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &teams[mine]);
    if (rc != 0) break;
    CHECK(teams[mine] != SHMEM_TEAM_INVALID, "split returned 0 and SHMEM_TEAM_INVALID");
    starts[mine++] = 0;
  }
  CHECK(rc != 0 && teams[mine < CAPACITY ? mine : 0] == SHMEM_TEAM_INVALID, "no split failed (%d teams)", mine);
  src = mine - before;
  shmem_long_max_reduce(SHMEM_TEAM_WORLD, &dst, &src, 1);
  const long most = dst;
  shmem_long_min_reduce(SHMEM_TEAM_WORLD, &dst, &src, 1);
  CHECK(most == dst, "PEs disagree on the failing split: %ld to %ld more teams", dst, most);
  printf("team_many: PE %d: %d teams alive when a split failed\n", me, mine);
  shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
  rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, 1, NULL, 0, &x, NULL, 0, &y);
  CHECK(rc != 0 && x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID, "split_2d with no free slot returned %d", rc);
  if (mine > before) checkTeam(teams[mine - 1], 0, 1, npes);  /* the last world team made by the loop above */
  if (mine > 0) checkTeam(teams[0], 0, 1, npes);

  /* Destroying one team frees its slot for one split. */
  if (mine > before) {
    shmem_team_destroy(teams[--mine]);
    rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &teams[mine]);
    CHECK(rc == 0 && teams[mine] != SHMEM_TEAM_INVALID, "split after a destroy returned %d", rc);
    if (rc == 0) checkTeam(teams[mine++], 0, 1, npes);
  }
  while (mine > 0) shmem_team_destroy(teams[--mine]);
  shmem_team_t again = SHMEM_TEAM_INVALID;
  rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &again);
  CHECK(rc == 0 && again != SHMEM_TEAM_INVALID, "split after destroying every team returned %d", rc);
  if (rc == 0) checkTeam(again, 0, 1, npes);
  shmem_team_destroy(again);
  free(ids);
  free(starts);
  free(teams);
  printf("team_many: PE %d: %s\n", me, errors ? "FAILURE" : "SUCCESS");
  shmem_finalize();
  return errors ? 1 : 0;
}
