/* Bad input and call mismatches for tests/fault/compare_openmpi.sh, one per run, at 2 PEs or more:
 *   mismatch <case>
 *   bcast_nelems      PE 0, the root, broadcasts 8 elements, the others expect 16
 *   bcast_root        PE 0 passes root 0, the others root 1; then every PE makes a sum reduction
 *   reduce_op         PE 0 sums, the others take the maximum
 *   skip_reduce       the last PE skips a sum reduction; then every PE enters shmem_barrier_all
 *   barrier_vs_bcast  PE 0 enters shmem_barrier_all, the others a broadcast from PE 0
 *   put_bad_source    PE 1 puts 8 bytes from the local address 0x1000 (never mapped) to PE 0
 *   put_pe_npes       PE 0 puts a long to PE shmem_n_pes()
 *   exit_three        PE 1 calls exit(3) without shmem_finalize while the others are in shmem_barrier_all
 * The PE that makes the bad call prints "mismatch: PE n: <case> now" first (run_fault.sh starts its clock there).
 * A PE whose call returns checks what it received against what its own arguments promise and prints
 * "mismatch: PE n: <case> returned, dest <values>: right" or "...: WRONG (expected <values>)".
 * Built with gshmem (team collectives) or, with -DMISMATCH_OPENSHMEM_14, with an OpenSHMEM 1.4 library such as
 * Open MPI's (active-set collectives with pSync/pWrk). */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 16
static long src[N], dst[N], target;
#ifdef MISMATCH_OPENSHMEM_14
static long bsync[SHMEM_BCAST_SYNC_SIZE], rsync[SHMEM_REDUCE_SYNC_SIZE], wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + N];
#endif

static void bcast(int n, int root) {
#ifdef MISMATCH_OPENSHMEM_14
  shmem_broadcast64(dst, src, (size_t)n, root, 0, 0, shmem_n_pes(), bsync);
#else
  shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, (size_t)n, root);
#endif
}
static void reduce(int max, int n) {
#ifdef MISMATCH_OPENSHMEM_14
  if (max)
    shmem_long_max_to_all(dst, src, n, 0, 0, shmem_n_pes(), wrk, rsync);
  else
    shmem_long_sum_to_all(dst, src, n, 0, 0, shmem_n_pes(), wrk, rsync);
#else
  if (max)
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, dst, src, (size_t)n);
  else
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, (size_t)n);
#endif
}
static void now(const char* c) {
  printf("mismatch: PE %d: %s now\n", shmem_my_pe(), c);
  fflush(stdout);
}
/* What this PE's dest must hold after a broadcast of n elements from root, by its own arguments (an OpenSHMEM 1.4
 * root does not write its own dest). */
static void bcast_expect(long* e, int n, int root) {
  const int me = shmem_my_pe();
  for (int i = 0; i < N; ++i) e[i] = -1;
#ifdef MISMATCH_OPENSHMEM_14
  if (me == root) return;
#endif
  for (int i = 0; i < n; ++i) e[i] = 100L * root + i;
}
/* What a sum reduction of 4 elements over every PE must give. */
static void sum_expect(long* e) {
  const long n = shmem_n_pes();
  for (int i = 0; i < N; ++i) e[i] = i < 4 ? 50 * n * (n - 1) + n * i : -1;
}
static void check(const char* c, const long* e) {
  char got[256], want[256];
  int g = 0, w = 0, ok = 1;
  for (int i = 0; i < N; ++i) {
    ok &= dst[i] == e[i];
    g += snprintf(got + g, sizeof got - (size_t)g, "%s%ld", i ? " " : "", dst[i]);
    w += snprintf(want + w, sizeof want - (size_t)w, "%s%ld", i ? " " : "", e[i]);
  }
  printf("mismatch: PE %d: %s returned, dest %s: %s%s%s\n", shmem_my_pe(), c, got, ok ? "right" : "WRONG (expected ",
         ok ? "" : want, ok ? "" : ")");
  fflush(stdout);
}

int main(int argc, char** argv) {
  const char* c = argc > 1 ? argv[1] : "";
  long e[N];
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  for (int i = 0; i < N; ++i) {
    src[i] = 100L * me + i;
    dst[i] = -1;
  }
#ifdef MISMATCH_OPENSHMEM_14
  for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; ++i) bsync[i] = SHMEM_SYNC_VALUE;
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) rsync[i] = SHMEM_SYNC_VALUE;
#endif
  shmem_barrier_all();
  if (!strcmp(c, "bcast_nelems")) {
    const int n = me == 0 ? 8 : 16;
    if (me == 0) now(c);
    bcast(n, 0);
    bcast_expect(e, n, 0);
    check(c, e);
  } else if (!strcmp(c, "bcast_root")) {
    const int root = me == 0 ? 0 : 1;
    if (me == 0) now(c);
    bcast(4, root);
    bcast_expect(e, 4, root);
    check(c, e);
    reduce(0, 4);
    sum_expect(e);
    check(c, e);
  } else if (!strcmp(c, "reduce_op") || !strcmp(c, "skip_reduce")) {
    const int max = !strcmp(c, "reduce_op") && me != 0;
    if (me == 0) now(c);
    if (strcmp(c, "skip_reduce") || me != npes - 1) {
      reduce(max, 4);
      sum_expect(e);
      for (int i = 0; max && i < 4; ++i) e[i] = 100L * (shmem_n_pes() - 1) + i;
      check(c, e);
    }
    if (!strcmp(c, "skip_reduce")) shmem_barrier_all();
  } else if (!strcmp(c, "barrier_vs_bcast")) {
    if (me == 0) {
      now(c);
      shmem_barrier_all();
      printf("mismatch: PE 0: %s: the barrier returned\n", c);
      fflush(stdout);
    } else {
      bcast(4, 0);
      bcast_expect(e, 4, 0);
      check(c, e);
    }
  } else if (!strcmp(c, "put_bad_source")) {
    if (me == 1) {
      now(c);
      shmem_putmem(&target, (const void*)(uintptr_t)0x1000, 8, 0);
      printf("mismatch: PE 1: %s: the bad call returned\n", c);
      fflush(stdout);
    }
    shmem_barrier_all();
  } else if (!strcmp(c, "put_pe_npes")) {
    if (me == 0) {
      now(c);
      shmem_long_p(&target, 1, npes);
      printf("mismatch: PE 0: %s: the bad call returned\n", c);
      fflush(stdout);
    }
    shmem_barrier_all();
  } else if (!strcmp(c, "exit_three")) {
    if (me == 1) {
      now(c);
      exit(3);
    }
    shmem_barrier_all();
    printf("mismatch: PE %d: %s: passed a barrier without PE 1\n", me, c);
    fflush(stdout);
  } else {
    fprintf(stderr, "mismatch: unknown case '%s'\n", c);
    shmem_finalize();
    return 2;
  }
  shmem_finalize();
  return 0;
}
