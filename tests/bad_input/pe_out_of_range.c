/* Bad input: PE 0 writes to a PE number past the end of the world. */
#include <shmem.h>
#include <stdio.h>

int target;

int main(void) {
  shmem_init();
  if (shmem_my_pe() == 0) shmem_int_p(&target, 1, shmem_n_pes() + 5);
  shmem_barrier_all();
  printf("pe_out_of_range: the bad call returned\n");
  shmem_finalize();
  return 0;
}
