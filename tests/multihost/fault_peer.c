/* Fault injection for the multi-host tests.
 *   fault_peer kill   PE 1 kills itself with SIGKILL after setup while the other PEs wait in shmem_barrier_all:
 *                     every surviving PE must end with a message naming PE 1 (never hang).
 *   fault_peer link   every PE gets from and puts to the next PE in a loop and prints a marker once it is
 *                     communicating; the harness then brings the link between the hosts down: every PE must end
 *                     with a message naming a lost peer within GSHMEM_TIMEOUT. */
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long cell[8];

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "kill";
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes();
  int peer = (me + npes / 2) % npes; /* a PE on the other host */
  shmem_barrier_all();
  if (strcmp(mode, "kill") == 0) {
    if (me == 1) {
      printf("fault_peer: PE 1 kills itself\n");
      fflush(stdout);
      raise(SIGKILL);
    }
    /* Make sure PE 1 is gone before waiting on it: a get from PE 1 would also do. */
    shmem_barrier_all();
    printf("fault_peer: PE %d: barrier returned although PE 1 is dead (BUG)\n", me);
  } else {
    double t0 = now();
    long i = 0;
    while (now() - t0 < 120) {
      long v = shmem_long_g(&cell[0], peer);
      shmem_long_p(&cell[1], v + i, peer);
      shmem_quiet();
      if (++i == 200) {
        printf("fault_peer: PE %d communicating with PE %d\n", me, peer);
        fflush(stdout);
      }
    }
    printf("fault_peer: PE %d: still running after 120 s with the link down (BUG)\n", me);
  }
  fflush(stdout);
  shmem_finalize();
  return 1;
}
