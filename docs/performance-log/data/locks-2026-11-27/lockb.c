/* Lock probe: time per shmem_set_lock + shmem_clear_lock pair.
 *   uncontended: PE 0 alone takes and releases the lock (others wait at a barrier);
 *   contended:   every PE takes the lock ITERS times, with a 1-put critical section.
 * Prints one line per mode: median of REPS repetitions, microseconds per pair (contended: per handoff). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long lock;
static long counter;

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}
static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 2000;
  enum { REPS = 7 };
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  double un[REPS], co[REPS];
  for (int r = 0; r < REPS; r++) {
    shmem_barrier_all();
    double t0 = now_us();
    if (me == 0)
      for (int i = 0; i < iters; i++) {
        shmem_set_lock(&lock);
        shmem_clear_lock(&lock);
      }
    un[r] = (now_us() - t0) / iters;
    shmem_barrier_all();
    t0 = now_us();
    for (int i = 0; i < iters; i++) {
      shmem_set_lock(&lock);
      shmem_long_p(&counter, shmem_long_g(&counter, 0) + 1, 0);
      shmem_clear_lock(&lock);
    }
    shmem_barrier_all();
    co[r] = (now_us() - t0) / ((double)iters * n);
  }
  if (me == 0) {
    qsort(un, REPS, sizeof un[0], cmp);
    qsort(co, REPS, sizeof co[0], cmp);
    printf("lock %d PEs: uncontended set+clear %.3f us, contended per handoff %.3f us, counter %ld (expect %ld)\n", n,
           un[REPS / 2], co[REPS / 2], counter, (long)REPS * iters * n);
  }
  shmem_finalize();
  return 0;
}
