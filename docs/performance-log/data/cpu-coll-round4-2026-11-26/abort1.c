#include <shmem.h>
#include <stdio.h>
int main(void) {
  shmem_init();
  static long x;
  if (shmem_my_pe() == 1) shmem_long_p(&x, 1, 99); /* PE 99 out of range: fatal line, then MPI_Abort */
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
