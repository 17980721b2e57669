/* Team collectives back to back on one team with no synchronization between the calls: each iteration writes
 * its source and clears its dest locally, calls broadcast, fcollect, collect, alltoall and a sum reduction, and
 * checks what arrived, while faster PEs are already in the next call. Sizes cover the one-round mailbox and the
 * synchronized algorithms (run it with GSHMEM_COLL_* forcing each). With 4 PEs or more, first on the teams of
 * the even and of the odd PEs at once (same symmetric buffers, disjoint PEs), then on WORLD. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <shmem.h>

static int me, failures;

#define CHECK(cond, ...)                                                               \
  do {                                                                                 \
    if (!(cond) && failures++ < 10) {                                                  \
      fprintf(stderr, "coll_back_to_back: PE %d: FAIL line %d: ", me, __LINE__);        \
      fprintf(stderr, __VA_ARGS__);                                                    \
      fputc('\n', stderr);                                                             \
    }                                                                                  \
  } while (0)

static long value(int pe, int it, size_t i) { return (long)pe * 1000003L + it * 131L + (long)i; }

static void round_trip(shmem_team_t team, long* src, long* dst, size_t n, int it) {
  const int tn = shmem_team_n_pes(team), ti = shmem_team_my_pe(team), root = it % tn;
  for (size_t i = 0; i < n * (size_t)tn; i++) src[i] = value(ti, it, i), dst[i] = -1;
  shmem_long_broadcast(team, dst, src, n, root);
  for (size_t i = 0; i < n; i++) CHECK(dst[i] == value(root, it, i), "broadcast it %d n %zu [%zu]", it, n, i);

  for (size_t i = 0; i < n * (size_t)tn; i++) dst[i] = -1;
  shmem_long_fcollect(team, dst, src, n);
  for (int p = 0; p < tn; p++)
    for (size_t i = 0; i < n; i++)
      CHECK(dst[p * n + i] == value(p, it, i), "fcollect it %d n %zu [%d][%zu]", it, n, p, i);

  const size_t mine = (size_t)(ti + it) % 3 == 0 ? 0 : n;  /* some members contribute nothing */
  for (size_t i = 0; i < n * (size_t)tn; i++) dst[i] = -1;
  shmem_long_collect(team, dst, src, mine);
  size_t k = 0;
  for (int p = 0; p < tn; p++)
    for (size_t i = 0; i < ((size_t)(p + it) % 3 == 0 ? 0 : n); i++, k++)
      CHECK(dst[k] == value(p, it, i), "collect it %d n %zu [%d][%zu]", it, n, p, i);

  for (size_t i = 0; i < n * (size_t)tn; i++) dst[i] = -1;
  shmem_long_alltoall(team, dst, src, n);
  for (int p = 0; p < tn; p++)
    for (size_t i = 0; i < n; i++)
      CHECK(dst[p * n + i] == value(p, it, ti * n + i), "alltoall it %d n %zu [%d][%zu]", it, n, p, i);

  for (size_t i = 0; i < n; i++) dst[i] = -1;
  shmem_long_sum_reduce(team, dst, src, n);
  for (size_t i = 0; i < n; i++) {
    long want = 0;
    for (int p = 0; p < tn; p++) want += value(p, it, i);
    CHECK(dst[i] == want, "sum_reduce it %d n %zu [%zu] = %ld, want %ld", it, n, i, dst[i], want);
  }
}

int main(void) {
  shmem_init();
  me = shmem_my_pe();
  const int npes = shmem_n_pes();
  const size_t kMaxN = 4096; /* 32 KiB blocks: past the mailbox */
  long* src = shmem_malloc(kMaxN * sizeof(long) * (size_t)npes);
  long* dst = shmem_malloc(kMaxN * sizeof(long) * (size_t)npes);
  shmem_team_t half = SHMEM_TEAM_INVALID, odd = SHMEM_TEAM_INVALID;
  if (npes >= 4) {
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &half);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
    if (half == SHMEM_TEAM_INVALID) half = odd;
  }
  static const size_t sizes[] = {1, 8, 100, 1023, 4096};
  for (int s = 0; s < 5; s++) {
    const int iters = sizes[s] >= 1000 ? 40 : 300;
    if (half != SHMEM_TEAM_INVALID)
      for (int it = 0; it < iters; it++) round_trip(half, src, dst, sizes[s], it);
    for (int it = 0; it < iters; it++) round_trip(SHMEM_TEAM_WORLD, src, dst, sizes[s], it);
  }
  static int bad, any;
  bad = failures != 0;
  shmem_int_max_reduce(SHMEM_TEAM_WORLD, &any, &bad, 1);
  if (me == 0) printf("coll_back_to_back: %d PEs: %s\n", npes, any ? "FAILED" : "SUCCESS");
  shmem_free(dst);
  shmem_free(src);
  shmem_finalize();
  return any ? 1 : 0;
}
