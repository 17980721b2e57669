/* Team collectives of 1.5 on SHMEM_TEAM_WORLD and on a strided team of the even PEs: broadcast, fcollect,
 * collect (variable counts), alltoall, max/prod reductions, checked value by value. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXPE 64

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes(), errors = 0;
  if (npes > MAXPE) shmem_global_exit(2);
  long *src = shmem_malloc(MAXPE * sizeof(long)), *dst = shmem_malloc(MAXPE * MAXPE * sizeof(long));
  int *a2a_src = shmem_malloc(MAXPE * sizeof(int)), *a2a_dst = shmem_malloc(MAXPE * sizeof(int));
  double *x = shmem_malloc(sizeof(double)), *prod = shmem_malloc(sizeof(double));
#define CHECK(cond, ...)             \
  do {                               \
    if (!(cond)) {                   \
      printf("collectives_team: PE %d: ", me); \
      printf(__VA_ARGS__);           \
      printf("\n");                  \
      errors++;                      \
    }                                \
  } while (0)
  /* broadcast from team PE 1 (world PE 1) */
  for (int i = 0; i < 4; ++i) src[i] = me == 1 ? 100 + i : -1;
  shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 4, 1);
  for (int i = 0; i < 4; ++i) CHECK(dst[i] == 100 + i, "broadcast dst[%d] = %ld", i, dst[i]);
  /* fcollect: 2 values per PE */
  src[0] = me * 2;
  src[1] = me * 2 + 1;
  shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, 2);
  for (int i = 0; i < 2 * npes; ++i) CHECK(dst[i] == i, "fcollect dst[%d] = %ld", i, dst[i]);
  /* collect: PE p contributes p + 1 copies of p */
  for (int i = 0; i <= me; ++i) src[i] = me;
  shmem_long_collect(SHMEM_TEAM_WORLD, dst, src, (size_t)me + 1);
  for (int p = 0, at = 0; p < npes; ++p)
    for (int i = 0; i <= p; ++i, ++at) CHECK(dst[at] == p, "collect dst[%d] = %ld, want %d", at, dst[at], p);
  /* alltoall: element j of PE i goes to element i of PE j */
  for (int j = 0; j < npes; ++j) a2a_src[j] = me * 100 + j;
  shmem_int_alltoall(SHMEM_TEAM_WORLD, a2a_dst, a2a_src, 1);
  for (int i = 0; i < npes; ++i) CHECK(a2a_dst[i] == i * 100 + me, "alltoall dst[%d] = %d", i, a2a_dst[i]);
  /* reductions on the team of even PEs */
  shmem_team_t even;
  int neven = (npes + 1) / 2;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, neven, NULL, 0, &even);
  if (me % 2 == 0) {
    CHECK(even != SHMEM_TEAM_INVALID && shmem_team_my_pe(even) == me / 2, "even team index");
    src[0] = me;
    shmem_long_max_reduce(even, dst, src, 1);
    CHECK(dst[0] == 2 * (neven - 1), "max_reduce = %ld", dst[0]);
    *x = me + 1.0;
    shmem_double_prod_reduce(even, prod, x, 1);
    double want = 1;
    for (int p = 0; p < npes; p += 2) want *= p + 1.0;
    CHECK(*prod == want, "prod_reduce = %g, want %g", *prod, want);
    shmem_team_destroy(even);
  } else {
    CHECK(even == SHMEM_TEAM_INVALID, "odd PE got a team");
  }
  shmem_barrier_all();
  shmem_free(src);
  shmem_free(dst);
  shmem_free(a2a_src);
  shmem_free(a2a_dst);
  shmem_free(x);
  shmem_free(prod);
  if (me == 0) printf("collectives_team: %d PEs: %s\n", npes, errors ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return errors != 0;
}
