/* Several threads of PE 0 make a fatal call at the same moment: the job must end with exactly one message and one
 * clean abort, not one message per thread or a crash inside the abort. */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>

#define NTHREADS 8

static long target;
static pthread_barrier_t start;

static void *bad_call(void *arg) {
  pthread_barrier_wait(&start);
  shmem_long_p(&target, 1, -1 - (int)(long)arg); /* PE out of range: fatal */
  return NULL;
}

int main(void) {
  int provided = 0;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  if (shmem_my_pe() == 0) {
    pthread_t t[NTHREADS];
    pthread_barrier_init(&start, NULL, NTHREADS);
    for (long i = 0; i < NTHREADS; ++i) pthread_create(&t[i], NULL, bad_call, (void *)i);
    for (int i = 0; i < NTHREADS; ++i) pthread_join(t[i], NULL);
  }
  shmem_barrier_all();
  printf("concurrent_fatal: the bad call returned\n");
  shmem_finalize();
  return 0;
}
