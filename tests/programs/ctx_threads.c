/* Contexts and threads: with SHMEM_THREAD_MULTIPLE, each of NT threads creates a private context, puts its slice
 * of a block into the right neighbour with shmem_ctx_long_put_nbi and completes it with shmem_ctx_quiet, then
 * destroys the context; after a barrier every slice must be there. */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>

#define NT 4
#define SLICE 256

static long block[NT * SLICE];
static int right;

static void *worker(void *arg) {
  int t = (int)(long)arg;
  long mine[SLICE];
  for (int i = 0; i < SLICE; ++i) mine[i] = (long)shmem_my_pe() * 100000 + t * SLICE + i;
  shmem_ctx_t ctx;
  if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) ctx = SHMEM_CTX_DEFAULT; /* allowed to fail: use default */
  shmem_ctx_long_put_nbi(ctx, &block[t * SLICE], mine, SLICE, right);
  shmem_ctx_quiet(ctx);
  if (ctx != SHMEM_CTX_DEFAULT) shmem_ctx_destroy(ctx);
  return NULL;
}

int main(void) {
  int provided = -1;
  if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0 || provided != SHMEM_THREAD_MULTIPLE) {
    printf("ctx_threads: SHMEM_THREAD_MULTIPLE not provided (%d)\n", provided);
    return 1;
  }
  int me = shmem_my_pe(), npes = shmem_n_pes(), errors = 0;
  right = (me + 1) % npes;
  int left = (me + npes - 1) % npes;
  shmem_barrier_all();
  pthread_t th[NT];
  for (long t = 0; t < NT; ++t) pthread_create(&th[t], NULL, worker, (void *)t);
  for (int t = 0; t < NT; ++t) pthread_join(th[t], NULL);
  shmem_barrier_all();
  for (int i = 0; i < NT * SLICE; ++i)
    if (block[i] != (long)left * 100000 + i) {
      if (errors++ < 4) printf("ctx_threads: PE %d: block[%d] = %ld\n", me, i, block[i]);
    }
  shmem_barrier_all();
  if (me == 0) printf("ctx_threads: %d PEs: %s\n", npes, errors ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return errors != 0;
}
