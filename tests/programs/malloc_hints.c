/* shmem_malloc_with_hints serves every hint mask from the symmetric heap: the 1.5 hints, and bits it does not know
 * (ignored, as the specification reserves them; bit 20 was once gshmem's device-memory request). Each block is
 * symmetric: a put and an atomic add to the next PE land there. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes(), errors = 0;
  const long masks[] = {0,
                        SHMEM_MALLOC_ATOMICS_REMOTE,
                        SHMEM_MALLOC_SIGNAL_REMOTE,
                        SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE,
                        1L << 20,
                        (1L << 20) | SHMEM_MALLOC_ATOMICS_REMOTE,
                        1L << 40,
                        -1L};
  const int n = (int)(sizeof masks / sizeof masks[0]);
  long* blocks[sizeof masks / sizeof masks[0]];
  for (int i = 0; i < n; ++i) {
    blocks[i] = shmem_malloc_with_hints(4 * sizeof(long), masks[i]);
    if (blocks[i] == NULL) {
      printf("malloc_hints: PE %d: hints %#lx returned NULL\n", me, (unsigned long)masks[i]);
      ++errors;
      continue;
    }
    blocks[i][0] = 0;
    blocks[i][1] = -1;
  }
  shmem_barrier_all();
  int next = (me + 1) % npes;
  for (int i = 0; i < n; ++i)
    if (blocks[i]) {
      shmem_long_p(&blocks[i][1], 1000 * i + me, next);
      shmem_long_atomic_add(&blocks[i][0], i + 1, next);
    }
  shmem_barrier_all();
  int prev = (me + npes - 1) % npes;
  for (int i = 0; i < n; ++i)
    if (blocks[i] && (blocks[i][0] != i + 1 || blocks[i][1] != 1000 * i + prev)) {
      printf("malloc_hints: PE %d: block of hints %#lx holds %ld, %ld\n", me, (unsigned long)masks[i], blocks[i][0],
             blocks[i][1]);
      ++errors;
    }
  shmem_barrier_all();
  for (int i = n - 1; i >= 0; --i) shmem_free(blocks[i]);
  if (me == 0) printf("malloc_hints: %d PEs: %s\n", npes, errors ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return errors != 0;
}
