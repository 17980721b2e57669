/* Bad input: an atomic on a long that is not 8-byte aligned. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  char *buf = (char *)shmem_malloc(64);
  long *misaligned = (long *)(buf + 4);
  if (shmem_my_pe() == 0) shmem_long_atomic_add(misaligned, 1, shmem_n_pes() - 1);
  shmem_barrier_all();
  printf("misaligned_atomic: the bad call returned\n");
  shmem_free(buf);
  shmem_finalize();
  return 0;
}
