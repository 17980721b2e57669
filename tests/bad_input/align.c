/* shmem_align with an alignment that is not a power of two (argv[1]: "zero" or "three") returns NULL on every PE
 * with a one-line warning, and the program goes on: a good allocation afterwards still works. */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  size_t alignment = argc > 1 && strcmp(argv[1], "three") == 0 ? 3 : 0;
  shmem_init();
  int me = shmem_my_pe();
  void *bad = shmem_align(alignment, 64);
  long *good = shmem_align(4096, 64);
  int ok = bad == NULL && good != NULL && ((size_t)good % 4096) == 0;
  if (good) {
    *good = me;
    shmem_barrier_all();
    ok = ok && shmem_long_g(good, (me + 1) % shmem_n_pes()) == (me + 1) % shmem_n_pes();
    shmem_barrier_all();
    shmem_free(good);
  }
  printf("align: PE %d: shmem_align(%zu) returned %s: %s\n", me, alignment, bad ? "a pointer" : "NULL",
         ok ? "SUCCESS" : "FAILURE");
  shmem_finalize();
  return ok ? 0 : 1;
}
