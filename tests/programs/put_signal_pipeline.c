/* Put-with-signal: each PE streams NCHUNK chunks to its right neighbour with shmem_putmem_signal_nbi and
 * SHMEM_SIGNAL_ADD; the receiver waits for the signal to count the chunks in with shmem_signal_wait_until and
 * checks each chunk as soon as the signal says it is there (the data must be visible no later than the signal). */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

#define NCHUNK 16
#define CHUNK 512

static long inbox[NCHUNK][CHUNK];
static uint64_t arrived;

int main(void) {
  long out[CHUNK];
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes(), errors = 0;
  int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  shmem_barrier_all();
  for (int c = 0; c < NCHUNK; ++c) {
    for (int i = 0; i < CHUNK; ++i) out[i] = (long)me * 1000000 + c * 1000 + i;
    shmem_putmem_signal_nbi(inbox[c], out, sizeof out, &arrived, 1, SHMEM_SIGNAL_ADD, right);
    shmem_quiet(); /* `out` is reused for the next chunk */
  }
  for (uint64_t c = 0; c < NCHUNK; ++c) {
    shmem_signal_wait_until(&arrived, SHMEM_CMP_GT, c); /* at least c+1 chunks are in */
    for (int i = 0; i < CHUNK; ++i) {
      long want = (long)left * 1000000 + (long)c * 1000 + i;
      if (inbox[c][i] != want) {
        if (errors++ < 4) printf("put_signal_pipeline: PE %d: chunk %d [%d] = %ld, want %ld\n", me, (int)c, i,
                                 inbox[c][i], want);
      }
    }
  }
  if (shmem_signal_fetch(&arrived) != NCHUNK) errors++;
  shmem_barrier_all();
  if (me == 0) printf("put_signal_pipeline: %d PEs: %s\n", npes, errors ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return errors != 0;
}
