/* Smallest useful OpenSHMEM program: every PE writes its number into the next PE's symmetric int. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  int* box = (int*)shmem_malloc(sizeof(int));
  *box = -1;
  shmem_barrier_all();
  shmem_int_p(box, me, (me + 1) % npes);
  shmem_barrier_all();
  int expect = (me + npes - 1) % npes;
  printf("hello from PE %d of %d: received %d from PE %d %s\n", me, npes, *box, expect,
         *box == expect ? "OK" : "WRONG");
  int ok = *box == expect;
  shmem_free(box);
  shmem_finalize();
  return ok ? 0 : 1;
}
