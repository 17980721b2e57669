/* Zero-length RMA is a no-op whatever the pointers: every put/get form (blocking, nbi, typed, sized, mem, strided,
 * ctx_) with nelems 0 and NULL dest/source returns and changes nothing; put-with-signal of 0 bytes still delivers
 * its signal (OpenSHMEM 1.5, 9.8.1). Every collective (team, mem and deprecated active-set forms: broadcast,
 * collect, fcollect, alltoall, alltoalls, reduce) with nelems 0 and NULL dest/source returns on every PE and changes
 * nothing. Run at every GSHMEM_CHECK level. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

static long psync[SHMEM_SYNC_SIZE];

/* Every zero-length collective with NULL buffers, one after another, on SHMEM_TEAM_WORLD and on the active set of
 * every PE; a barrier between the active-set calls lets them share one pSync. */
static void zeroLengthCollectives(int npes) {
  shmem_team_t w = SHMEM_TEAM_WORLD;
  shmem_int_broadcast(w, NULL, NULL, 0, 0);
  shmem_int_collect(w, NULL, NULL, 0);
  shmem_int_fcollect(w, NULL, NULL, 0);
  shmem_int_alltoall(w, NULL, NULL, 0);
  shmem_int_alltoalls(w, NULL, NULL, 1, 1, 0);
  shmem_long_broadcast(w, NULL, NULL, 0, npes - 1);
  shmem_double_collect(w, NULL, NULL, 0);
  shmem_broadcastmem(w, NULL, NULL, 0, 0);
  shmem_collectmem(w, NULL, NULL, 0);
  shmem_fcollectmem(w, NULL, NULL, 0);
  shmem_alltoallmem(w, NULL, NULL, 0);
  shmem_alltoallsmem(w, NULL, NULL, 1, 1, 0);
  shmem_int_sum_reduce(w, NULL, NULL, 0);
  shmem_long_max_reduce(w, NULL, NULL, 0);
  shmem_uint_and_reduce(w, NULL, NULL, 0);
  shmem_double_prod_reduce(w, NULL, NULL, 0);
  shmem_barrier_all();
  shmem_broadcast32(NULL, NULL, 0, 0, 0, 0, npes, psync);
  shmem_barrier_all();
  shmem_broadcast64(NULL, NULL, 0, 0, 0, 0, npes, psync);
  shmem_barrier_all();
  shmem_collect32(NULL, NULL, 0, 0, 0, npes, psync);
  shmem_barrier_all();
  shmem_collect64(NULL, NULL, 0, 0, 0, npes, psync);
  shmem_barrier_all();
  shmem_fcollect32(NULL, NULL, 0, 0, 0, npes, psync);
  shmem_barrier_all();
  shmem_fcollect64(NULL, NULL, 0, 0, 0, npes, psync);
  shmem_barrier_all();
  shmem_alltoall32(NULL, NULL, 0, 0, 0, npes, psync);
  shmem_barrier_all();
  shmem_alltoall64(NULL, NULL, 0, 0, 0, npes, psync);
  shmem_barrier_all();
  shmem_alltoalls32(NULL, NULL, 1, 1, 0, 0, 0, npes, psync);
  shmem_barrier_all();
  shmem_alltoalls64(NULL, NULL, 1, 1, 0, 0, 0, npes, psync);
  shmem_barrier_all();
  shmem_int_sum_to_all(NULL, NULL, 0, 0, 0, npes, NULL, psync);
  shmem_barrier_all();
  shmem_long_max_to_all(NULL, NULL, 0, 0, 0, npes, NULL, psync);
  shmem_barrier_all();
}

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes(), errors = 0;
  int peer = (me + 1) % npes;
  long *sym = shmem_malloc(4 * sizeof(long));
  uint64_t *sig = shmem_calloc(2, sizeof(uint64_t));
  for (int i = 0; i < 4; ++i) sym[i] = 100 + me;
  shmem_barrier_all();

  long *nl = NULL;
  void *nv = NULL;
  shmem_putmem(nv, nv, 0, peer);
  shmem_getmem(nv, nv, 0, peer);
  shmem_putmem_nbi(nv, nv, 0, peer);
  shmem_getmem_nbi(nv, nv, 0, peer);
  shmem_long_put(nl, nl, 0, peer);
  shmem_long_get(nl, nl, 0, peer);
  shmem_long_put_nbi(nl, nl, 0, peer);
  shmem_long_get_nbi(nl, nl, 0, peer);
  shmem_int_put(NULL, NULL, 0, peer);
  shmem_double_get(NULL, NULL, 0, peer);
  shmem_put32(nv, nv, 0, peer);
  shmem_get64(nv, nv, 0, peer);
  shmem_put128_nbi(nv, nv, 0, peer);
  shmem_get8_nbi(nv, nv, 0, peer);
  shmem_long_iput(nl, nl, 1, 1, 0, peer);
  shmem_long_iget(nl, nl, 1, 1, 0, peer);
  shmem_iput64(nv, nv, 2, 2, 0, peer);
  shmem_iget32(nv, nv, 2, 2, 0, peer);
  shmem_ctx_putmem(SHMEM_CTX_DEFAULT, nv, nv, 0, peer);
  shmem_ctx_long_get_nbi(SHMEM_CTX_DEFAULT, nl, nl, 0, peer);
  shmem_ctx_long_iput(SHMEM_CTX_DEFAULT, nl, nl, 1, 1, 0, peer);
  /* Zero bytes with the signal: the signal arrives, nothing else moves. */
  shmem_putmem_signal(nv, nv, 0, &sig[0], 7, SHMEM_SIGNAL_SET, peer);
  shmem_long_put_signal_nbi(nl, nl, 0, &sig[1], 5, SHMEM_SIGNAL_ADD, peer);
  shmem_long_put_signal(nl, nl, 0, &sig[1], 6, SHMEM_SIGNAL_ADD, peer);
  shmem_quiet();
  shmem_barrier_all();
  for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  zeroLengthCollectives(npes);
  printf("zero_length: PE %d: every zero-length collective returned\n", me);

  if (sig[0] != 7) printf("zero_length: PE %d: signal set by a 0-byte put_signal is %lu, want 7\n", me,
                          (unsigned long)sig[0]), ++errors;
  if (sig[1] != 11) printf("zero_length: PE %d: signal added by 0-byte put_signals is %lu, want 11\n", me,
                           (unsigned long)sig[1]), ++errors;
  for (int i = 0; i < 4; ++i)
    if (sym[i] != 100 + me) printf("zero_length: PE %d: sym[%d] = %ld changed\n", me, i, sym[i]), ++errors;
  shmem_barrier_all();
  shmem_free(sig);
  shmem_free(sym);
  if (me == 0) printf("zero_length: %d PEs: %s\n", npes, errors ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return errors != 0;
}
