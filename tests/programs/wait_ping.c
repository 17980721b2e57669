/* Ping-pong with shmem_wait_until: PE 0 and PE 1 pass a counter back and forth. Other PEs just wait at the end. */
#include <shmem.h>
#include <stdio.h>

#define ROUNDS 500

int main(void) {
  static long ping;  /* symmetric flag written by the peer */
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  int ok = 1;
  if (npes >= 2 && me < 2) {
    int peer = 1 - me;
    for (long r = 1; r <= ROUNDS; r++) {
      if ((r % 2 == 1) == (me == 0)) {
        shmem_long_atomic_set(&ping, r, peer);
      } else {
        shmem_long_wait_until(&ping, SHMEM_CMP_EQ, r);
      }
    }
    if (me == (ROUNDS % 2 == 1 ? 1 : 0) && ping != ROUNDS) ok = 0;
  }
  static int failures;
  if (!ok) shmem_int_atomic_inc(&failures, 0);
  shmem_barrier_all();
  if (me == 0) printf("wait_ping: %d rounds: %s\n", ROUNDS, failures == 0 ? "SUCCESS" : "FAILED");
  ok = failures == 0;
  shmem_finalize();
  return ok ? 0 : 1;
}
