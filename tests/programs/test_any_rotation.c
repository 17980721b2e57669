/* shmem_TYPE_test_any / wait_until_any with no status mask: when several elements are ready, repeated calls must
 * not keep answering the lowest index. Every PE sets its own slot on every PE; then each PE polls without a mask
 * and must see every index within a bounded number of calls. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  int bad = 0;
  const size_t n = (size_t)npes * 3; /* a few spare slots so that ready and not-ready elements mix */

  long *slots = shmem_calloc(n, sizeof(long));
  int *seen = calloc(n, sizeof(int));
  for (int pe = 0; pe < npes; pe++) shmem_long_atomic_set(&slots[3 * me], 1, pe);
  shmem_barrier_all();

  /* test_any: all npes ready slots must come back within 4 * n calls. */
  int distinct = 0;
  for (size_t call = 0; call < 4 * n && distinct < npes; call++) {
    size_t i = shmem_long_test_any(slots, n, NULL, SHMEM_CMP_EQ, 1);
    if (i == SIZE_MAX || i >= n || i % 3 != 0) {
      bad++;
      break;
    }
    if (!seen[i]) {
      seen[i] = 1;
      distinct++;
    }
  }
  if (distinct != npes) bad++;

  /* wait_until_any: the same with the blocking form. */
  for (size_t i = 0; i < n; i++) seen[i] = 0;
  distinct = 0;
  for (size_t call = 0; call < 4 * n && distinct < npes; call++) {
    size_t i = shmem_long_wait_until_any(slots, n, NULL, SHMEM_CMP_EQ, 1);
    if (i >= n || i % 3 != 0) {
      bad++;
      break;
    }
    if (!seen[i]) {
      seen[i] = 1;
      distinct++;
    }
  }
  if (distinct != npes) bad++;

  /* Masked forms still honour status, and nothing ready gives SIZE_MAX. */
  int *status = calloc(n, sizeof(int));
  for (size_t i = 0; i < n; i++) status[i] = (i != 0);
  if (shmem_long_test_any(slots, n, status, SHMEM_CMP_EQ, 1) != 0) bad++;
  if (shmem_long_wait_until_any(slots, n, status, SHMEM_CMP_EQ, 1) != 0) bad++;
  if (shmem_long_test_any(slots, n, NULL, SHMEM_CMP_EQ, 2) != SIZE_MAX) bad++;
  for (size_t i = 0; i < n; i++) status[i] = 1;
  if (shmem_long_wait_until_any(slots, n, status, SHMEM_CMP_EQ, 1) != SIZE_MAX) bad++;

  if (bad) shmem_int_atomic_add(&failures, bad, 0);
  shmem_barrier_all();
  if (me == 0) printf("test_any_rotation: %d PEs: %s\n", npes, failures == 0 ? "SUCCESS" : "FAILED");
  int ok = failures == 0;
  free(status);
  free(seen);
  shmem_free(slots);
  shmem_finalize();
  return ok ? 0 : 1;
}
