/* The check a test program runs on every PE once gshmem is initialized, whichever way it was started: a ring of
 * puts, a get from the next PE, a sum reduction over the world team, barriers around them. */
#pragma once
#include <shmem.h>
#include <stdio.h>

static int g_ring = -1, g_src, g_sum;

/* 1 when every check passed on PE `me` of `n`; otherwise 0 and one line on stderr led by `who`. */
static int ring_exercise(const char* who, int me, int n) {
  int good = 1;
  g_src = me + 1;
  shmem_barrier_all();
  shmem_int_p(&g_ring, me, (me + 1) % n);
  shmem_barrier_all();
  good &= g_ring == (me + n - 1) % n;
  good &= shmem_int_g(&g_src, (me + 1) % n) == (me + 1) % n + 1;
  good &= shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &g_sum, &g_src, 1) == 0 && g_sum == n * (n + 1) / 2;
  shmem_barrier_all();
  if (!good) fprintf(stderr, "%s: PE %d of %d: ring %d, sum %d\n", who, me, n, g_ring, g_sum);
  return good;
}
