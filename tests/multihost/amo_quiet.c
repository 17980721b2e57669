/* An atomic to a PE on another host is complete when shmem_quiet returns, even while that PE makes no progress:
 * the first atomic to a peer (which the transport waits for, to learn whether UCX has a protocol for it) and a
 * later one (posted).
 *
 * Run with 4 PEs on two hosts (run_multihost.sh --np 4: PEs 0 and 1 on one host, 2 and 3 on the other). In each
 * round PE 1 sleeps without calling the library, so over TCP, where UCX applies an atomic in the target's progress,
 * nothing is applied at PE 1 until it wakes. PE 2 increments a word of PE 1, quiets, then puts a flag to PE 0. PE 0,
 * on PE 1's host, waits for the flag and reads the word through shared memory: it must already hold the increment.
 * A quiet that returned before the increment was applied shows as a count short by one. */
#include <shmem.h>
#include <stdio.h>
#include <unistd.h>

static int counter;
static int flag;

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (npes != 4) {
    if (me == 0) fprintf(stderr, "amo_quiet: needs 4 PEs on two hosts (2+2), got %d\n", npes);
    shmem_finalize();
    return 2;
  }
  int bad = 0;
  for (int round = 1; round <= 2; ++round) {
    shmem_barrier_all();
    if (me == 1) usleep(300 * 1000);  /* no library call: no progress at PE 1 */
    if (me == 2) {
      shmem_int_atomic_inc(&counter, 1);
      shmem_quiet();
      shmem_int_p(&flag, round, 0);
      shmem_quiet();
    }
    if (me == 0) {
      shmem_int_wait_until(&flag, SHMEM_CMP_EQ, round);
      const volatile int* c = (const volatile int*)shmem_ptr(&counter, 1);
      if (c == NULL) {
        fprintf(stderr, "amo_quiet: PE 1 is not mapped at PE 0: run the PEs 2+2 on two hosts\n");
        bad = 1;
      } else if (*c != round) {
        fprintf(stderr, "amo_quiet: round %d: PE 1's counter reads %d after PE 2's quiet, expected %d\n", round, *c,
                round);
        bad = 1;
      }
    }
  }
  shmem_barrier_all();
  if (me == 0 && !bad) printf("amo_quiet: SUCCESS\n");
  shmem_finalize();
  return bad;
}
