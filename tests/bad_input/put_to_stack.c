/* Bad input: PE 1 puts to a stack address, which is not symmetric. The runtime must stop the job with a message
 * naming the PE, the call and the problem. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  long on_stack[4] = {0, 0, 0, 0};
  long src = 42;
  if (shmem_my_pe() == 1 % shmem_n_pes()) shmem_putmem(&on_stack[1], &src, sizeof(src), 0);
  shmem_barrier_all();
  printf("put_to_stack: the bad call returned (%ld)\n", on_stack[1]);
  shmem_finalize();
  return 0;
}
