/* Each PE puts a block into its right neighbour's symmetric array, then gets it back from its left neighbour. */
#include <shmem.h>
#include <stdio.h>

#define N 16

long dest[N];  /* global, therefore symmetric */

int main(void) {
  long source[N];
  long back[N];
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  for (int i = 0; i < N; i++) source[i] = me * 100 + i;
  shmem_long_put(dest, source, N, right);
  shmem_barrier_all();
  int errors = 0;
  for (int i = 0; i < N; i++) {
    if (dest[i] != left * 100 + i) {
      printf("put_get: PE %d: dest[%d] = %ld, expected %d\n", me, i, dest[i], left * 100 + i);
      errors++;
    }
  }
  shmem_long_get(back, dest, N, right); /* the right neighbour's dest holds my source */
  for (int i = 0; i < N; i++) {
    if (back[i] != source[i]) {
      printf("put_get: PE %d: back[%d] = %ld, expected %ld\n", me, i, back[i], source[i]);
      errors++;
    }
  }
  static int total_errors;
  shmem_int_atomic_add(&total_errors, errors, 0);
  shmem_barrier_all();
  int ok = total_errors == 0;
  if (me == 0) printf("put_get: %s\n", ok ? "SUCCESS" : "FAILED");
  shmem_finalize();
  return ok ? 0 : 1;
}
