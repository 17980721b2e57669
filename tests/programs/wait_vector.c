/* Point-to-point synchronization on arrays: PE 0 owns one flag per other PE; each PE raises its flag to a value of
 * its own; PE 0 waits with shmem_long_wait_until_all_vector (per-element targets), then counts arrivals with
 * shmem_long_wait_until_some and shmem_long_test_any on a second round. */
#include <shmem.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#define MAXPE 64

static long flags[MAXPE];
static long second[MAXPE];

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes(), errors = 0;
  if (npes > MAXPE) shmem_global_exit(2);
  shmem_barrier_all();
  if (me != 0) {
    shmem_long_atomic_set(&flags[me], 10 + me, 0);
    shmem_long_atomic_set(&second[me], 1, 0);
  } else {
    long want[MAXPE];
    int status[MAXPE] = {0};
    status[0] = 1; /* PE 0 does not signal itself: excluded */
    for (int p = 0; p < npes; ++p) want[p] = 10 + p;
    shmem_long_wait_until_all_vector(flags, npes, status, SHMEM_CMP_EQ, want);
    for (int p = 1; p < npes; ++p)
      if (flags[p] != 10 + p) errors++;
    int seen = 0;
    size_t idx[MAXPE];
    int st2[MAXPE] = {0};
    st2[0] = 1;
    while (seen < npes - 1) {
      size_t k = shmem_long_wait_until_some(second, npes, idx, st2, SHMEM_CMP_EQ, 1);
      for (size_t i = 0; i < k; ++i) {
        if (st2[idx[i]] || idx[i] == 0) errors++; /* a satisfied or excluded element was reported */
        st2[idx[i]] = 1;
        seen++;
      }
    }
    if (shmem_long_test_any(second, npes, st2, SHMEM_CMP_EQ, 1) != SIZE_MAX) errors++; /* all excluded now */
    if (errors) printf("wait_vector: PE 0: %d errors\n", errors);
  }
  shmem_barrier_all();
  if (me == 0) printf("wait_vector: %d PEs: %s\n", npes, errors ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return errors != 0;
}
