/* Every PE increments a counter on PE 0 many times, with fetch_add and inc; PE 0 checks the total. */
#include <shmem.h>
#include <stdio.h>

#define ITERS 1000

int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  long *counter = (long *)shmem_calloc(2, sizeof(long));
  if (counter == NULL) {
    printf("atomic_counter: FAILED: shmem_calloc returned NULL\n");
    shmem_global_exit(1);
  }
  long max_seen = -1;
  for (int i = 0; i < ITERS; i++) {
    long old = shmem_long_atomic_fetch_add(&counter[0], 1, 0);
    if (old > max_seen) max_seen = old;
    shmem_long_atomic_inc(&counter[1], 0);
  }
  shmem_barrier_all();
  int ok = 1;
  if (me == 0) {
    ok = counter[0] == (long)ITERS * npes && counter[1] == (long)ITERS * npes;
    printf("atomic_counter: counters %ld %ld, expected %ld: %s\n", counter[0], counter[1], (long)ITERS * npes,
           ok ? "SUCCESS" : "FAILED");
  }
  if (max_seen >= (long)ITERS * npes) ok = 0;
  shmem_free(counter);
  shmem_finalize();
  return ok ? 0 : 1;
}
