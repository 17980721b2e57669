/* Initializes and finalizes; used to check that a malformed environment is rejected at shmem_init. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  if (shmem_my_pe() == 0) printf("init_only: shmem_init returned\n");
  shmem_finalize();
  return 0;
}
