/* Heap exhaustion is not fatal: shmem_malloc returns NULL (and the runtime explains why); the program goes on. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  void *p = shmem_malloc((size_t)1 << 40);
  int ok = p == NULL;
  void *q = shmem_malloc(1024); /* the heap is still usable */
  ok = ok && q != NULL;
  shmem_barrier_all();
  if (shmem_my_pe() == 0) printf("heap_exhaustion: %s\n", ok ? "returned NULL, heap still usable: SUCCESS" : "FAILED");
  shmem_free(q);
  shmem_finalize();
  return ok ? 0 : 1;
}
