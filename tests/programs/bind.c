/* GSHMEM_BIND: shmem_init leaves this PE's main thread on one CPU, the k-th of the set it started with (k: its
 * index among the PEs of its machine, modulo the set's size), when the mode is core and the set has several CPUs,
 * or when the mode is auto (the default) and in addition the machine runs more PEs than it has CPUs and the set is
 * every CPU (the launcher bound nothing); otherwise the set is unchanged. Run on one host, where the machine's PEs
 * are SHMEM_TEAM_SHARED, at the default thread level (SINGLE). */
#define _GNU_SOURCE
#include <sched.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
  cpu_set_t before, after;
  CPU_ZERO(&before);
  CPU_ZERO(&after);
  if (sched_getaffinity(0, sizeof before, &before) != 0) return 2;
  shmem_init();
  if (sched_getaffinity(0, sizeof after, &after) != 0) return 2;
  const int me = shmem_my_pe(), local = shmem_team_my_pe(SHMEM_TEAM_SHARED);
  const int nlocal = shmem_team_n_pes(SHMEM_TEAM_SHARED), count = CPU_COUNT(&before);
  const char *env = getenv("GSHMEM_BIND");
  const char *mode = env && *env ? env : "auto";
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  int bind = 0;
  if (strcmp(mode, "core") == 0) bind = count > 1;
  if (strcmp(mode, "auto") == 0) bind = count > 1 && nlocal > online && count == online;
  int errors = 0, want = -1;
  if (bind) {
    for (int c = 0, k = local % count; c < CPU_SETSIZE && want < 0; ++c)
      if (CPU_ISSET(c, &before) && k-- == 0) want = c;
    if (CPU_COUNT(&after) != 1 || !CPU_ISSET(want, &after)) {
      printf("bind: PE %d (mode %s, %d PEs here, %d CPUs in its set): expected to be bound to CPU %d, its set has %d "
             "CPUs\n", me, mode, nlocal, count, want, CPU_COUNT(&after));
      ++errors;
    }
  } else if (!CPU_EQUAL(&before, &after)) {
    printf("bind: PE %d (mode %s, %d PEs here, %d CPUs in its set): the set changed to %d CPUs\n", me, mode, nlocal,
           count, CPU_COUNT(&after));
    ++errors;
  }
  static long total;
  shmem_long_atomic_add(&total, errors, 0);
  shmem_barrier_all();
  if (me == 0)
    printf("bind: mode %s, %d PEs on %ld CPUs, PE 0's set %d -> %d CPUs: %s\n", mode, nlocal, online, count,
           CPU_COUNT(&after), total ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return total ? 1 : 0;
}
