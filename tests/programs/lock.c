/* Distributed lock: every PE increments a counter on PE 0 with a get and a put inside shmem_set_lock. */
#include <shmem.h>
#include <stdio.h>

#define ITERS 100

long lock = 0;    /* symmetric lock, zero-initialized */
long counter = 0; /* protected by lock; lives on PE 0 */

int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  for (int i = 0; i < ITERS; i++) {
    shmem_set_lock(&lock);
    long v = shmem_long_g(&counter, 0);
    shmem_long_p(&counter, v + 1, 0);
    shmem_quiet();
    shmem_clear_lock(&lock);
  }
  shmem_barrier_all();
  int ok = 1;
  if (me == 0) {
    ok = counter == (long)ITERS * npes;
    printf("lock: counter %ld, expected %ld: %s\n", counter, (long)ITERS * npes, ok ? "SUCCESS" : "FAILED");
  }
  shmem_finalize();
  return ok ? 0 : 1;
}
