/* shmem_sync in both spellings: the OpenSHMEM 1.5 team form shmem_sync(team) and the deprecated four-argument
 * active-set form shmem_sync(PE_start, logPE_stride, PE_size, pSync). Each PE of a team stores into its right-hand
 * neighbour with shmem_p + shmem_quiet, syncs, and checks what its left-hand neighbour wrote. */
#include <shmem.h>
#include <stdio.h>

static long psync[SHMEM_BARRIER_SYNC_SIZE];
static int slot_team;
static int slot_world;
static int slot_set;
static int failures;

int main(void) {
  for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++) psync[i] = SHMEM_SYNC_VALUE;
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  int bad = 0;

  /* 1. shmem_sync(team) on the even PEs. */
  shmem_team_t evens = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
  if (evens != SHMEM_TEAM_INVALID) {
    int tme = shmem_team_my_pe(evens);
    int tn = shmem_team_n_pes(evens);
    int right = shmem_team_translate_pe(evens, (tme + 1) % tn, SHMEM_TEAM_WORLD);
    shmem_int_p(&slot_team, 100 + me, right);
    shmem_quiet();
    if (shmem_sync(evens) != 0) bad++;
    int left = shmem_team_translate_pe(evens, (tme + tn - 1) % tn, SHMEM_TEAM_WORLD);
    if (slot_team != 100 + left) bad++;
  }

  /* 2. shmem_sync(SHMEM_TEAM_WORLD). */
  shmem_int_p(&slot_world, 200 + me, (me + 1) % npes);
  shmem_quiet();
  shmem_sync(SHMEM_TEAM_WORLD);
  if (slot_world != 200 + (me + npes - 1) % npes) bad++;

  /* 3. Active set {0, 2, 4, ...} (logPE_stride 1) with a user pSync, called twice with the same pSync. */
  int set_size = (npes + 1) / 2;
  if (me % 2 == 0) {
    for (int round = 0; round < 2; round++) {
      int idx = me / 2;
      int right = 2 * ((idx + 1) % set_size);
      int left = 2 * ((idx + set_size - 1) % set_size);
      shmem_int_p(&slot_set, 1000 * round + me, right);
      shmem_quiet();
      shmem_sync(0, 1, set_size, psync);
      if (slot_set != 1000 * round + left) bad++;
      shmem_sync(0, 1, set_size, psync); /* nobody overwrites slot_set before everyone has read it */
    }
  }

  if (bad) shmem_int_atomic_add(&failures, bad, 0);
  shmem_barrier_all();
  if (me == 0) printf("sync_forms: %d PEs: %s\n", npes, failures == 0 ? "SUCCESS" : "FAILED");
  int ok = failures == 0;
  if (evens != SHMEM_TEAM_INVALID) shmem_team_destroy(evens);
  shmem_finalize();
  return ok ? 0 : 1;
}
