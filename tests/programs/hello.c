/* Hello world in the style of the OpenSHMEM specification's first example. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  static int reported;  /* symmetric: PE 0 counts the PEs that said hello */
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  printf("Hello from PE %d of %d\n", me, npes);
  shmem_int_atomic_inc(&reported, 0);
  shmem_barrier_all();
  int ok = 1;
  if (me == 0) {
    ok = reported == npes;
    if (ok)
      printf("hello: SUCCESS (%d PEs)\n", npes);
    else
      printf("hello: FAILED: %d of %d PEs reported\n", reported, npes);
  }
  shmem_finalize();
  return ok ? 0 : 1;
}
