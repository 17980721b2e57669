/* Bad input, one case per run (argv[1] names it): PE 0 (or every PE, for collective misuse) makes one wrong call;
 * the job must end with a non-zero status and one line naming the PE, the call and the problem, never a crash,
 * a hang or a silent success. "the bad call returned" on stdout means it was not caught. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long target[8];

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  if (strcmp(c, "fence_before_init") == 0) {
    shmem_fence();
    printf("misuse: the bad call returned\n");
    return 0;
  }
  if (strcmp(c, "before_init") == 0) {
    shmem_long_p(&target[0], 1, 0); /* no shmem_init yet */
    printf("misuse: the bad call returned\n");
    return 0;
  }
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes();
  long src[8] = {0};
  long *heap = shmem_malloc(8 * sizeof(long));
  shmem_barrier_all();
  if (strcmp(c, "put_past_heap_end") == 0) {
    /* starts inside the symmetric data segment, runs past its end */
    if (me == 0) shmem_putmem(&target[4], src, 1 << 20, 1 % npes);
  } else if (strcmp(c, "free_not_heap") == 0) {
    shmem_free(&target[0]); /* a global, not from shmem_malloc */
  } else if (strcmp(c, "free_twice") == 0) {
    shmem_free(heap);
    shmem_free(heap);
  } else if (strcmp(c, "clear_unheld_lock") == 0) {
    static long lock;
    if (me == 0) shmem_clear_lock(&lock);
  } else if (strcmp(c, "set_lock_twice") == 0) {
    static long lock;
    if (me == 0) {
      shmem_set_lock(&lock);
      shmem_set_lock(&lock); /* locks do not nest: an error, not a PE waiting for itself forever */
    }
  } else if (strcmp(c, "clear_lock_of_other_pe") == 0) {
    static long lock;
    shmem_barrier_all();
    if (me == 0) shmem_set_lock(&lock);
    shmem_barrier_all();
    if (me == npes - 1 && npes > 1) shmem_clear_lock(&lock); /* held, but by PE 0 */
  } else if (strcmp(c, "destroyed_team") == 0) {
    shmem_team_t t;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t);
    shmem_team_destroy(t);
    shmem_team_sync(t);
  } else if (strcmp(c, "negative_pe_get") == 0) {
    if (me == 0) shmem_long_get(src, target, 1, -1);
  } else if (strcmp(c, "iput_past_end") == 0) {
    /* a stride that walks the target out of the symmetric region */
    if (me == 0) shmem_long_iput(heap, src, (ptrdiff_t)1 << 30, 1, 8, 1 % npes);
  } else if (strcmp(c, "wait_on_stack") == 0) {
    long local = 0;
    if (me == 0) shmem_long_wait_until(&local, SHMEM_CMP_EQ, 1);
  } else if (strcmp(c, "ctx_destroy_default") == 0) {
    shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
  } else if (strcmp(c, "broadcast_bad_root") == 0) {
    shmem_long_broadcast(SHMEM_TEAM_WORLD, heap, src, 1, npes + 3);
  } else if (strcmp(c, "realloc_not_heap") == 0) {
    shmem_realloc(&target[0], 128);
  } else if (strcmp(c, "barrier_after_finalize") == 0) {
    shmem_finalize();
    shmem_barrier_all();
  } else if (strcmp(c, "put_huge_len") == 0) {
    if (me == 0) shmem_putmem(heap, src, (size_t)-8, 1 % npes);
  } else if (strcmp(c, "reduce_nonmember") == 0) {
    shmem_team_t t;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &t); /* PE 0 only */
    if (me == 1 % npes && npes > 1) shmem_long_sum_reduce(t, heap, heap + 4, 1);
    else if (npes == 1) shmem_long_sum_reduce(SHMEM_TEAM_INVALID, heap, heap + 4, 1);
  } else if (strcmp(c, "malloc_mismatch") == 0) {
    shmem_malloc(me == 0 ? 64 : 128); /* collective with different sizes */
  } else if (strcmp(c, "malloc_order") == 0) {
    shmem_malloc(me == 0 ? 64 : 4096); /* the same two sizes, in a different order */
    shmem_malloc(me == 0 ? 4096 : 64);
  } else if (strcmp(c, "malloc_skipped") == 0) {
    if (me == 0) shmem_malloc(64); /* the others are in a barrier */
    else shmem_barrier_all();
  } else if (strcmp(c, "align_mismatch") == 0) {
    shmem_align(me == 0 ? 64 : 4096, 256);
  } else if (strcmp(c, "free_mismatch") == 0) {
    long *a = shmem_malloc(64), *b = shmem_malloc(64);
    shmem_free(me == 0 ? a : b);
  } else if (strcmp(c, "realloc_mismatch") == 0) {
    shmem_realloc(heap, me == 0 ? 256 : 512);
  } else if (strcmp(c, "broadcast_nelems") == 0) { /* GSHMEM_CHECK=2 */
    shmem_long_broadcast(SHMEM_TEAM_WORLD, heap, heap + 4, me == 0 ? 4 : 2, 0);
  } else if (strcmp(c, "broadcast_root") == 0) { /* GSHMEM_CHECK=2 */
    shmem_long_broadcast(SHMEM_TEAM_WORLD, heap, heap + 4, 2, me == 0 ? 0 : 1);
  } else if (strcmp(c, "broadcast_empty") == 0) { /* GSHMEM_CHECK=2: one PE's call is empty */
    shmem_long_broadcast(SHMEM_TEAM_WORLD, heap, heap + 4, me == 0 ? 0 : 2, 0);
  } else if (strcmp(c, "reduce_nelems") == 0) { /* GSHMEM_CHECK=2 */
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, heap, heap + 4, me == 0 ? 4 : 3);
  } else if (strcmp(c, "reduce_op") == 0) { /* GSHMEM_CHECK=2 */
    if (me == 0) shmem_long_sum_reduce(SHMEM_TEAM_WORLD, heap, heap + 4, 4);
    else shmem_long_max_reduce(SHMEM_TEAM_WORLD, heap, heap + 4, 4);
  } else if (strcmp(c, "reduce_vs_barrier") == 0) { /* GSHMEM_CHECK=2: PE 1 skips the reduce */
    if (me == 0) shmem_long_sum_reduce(SHMEM_TEAM_WORLD, heap, heap + 4, 4);
  } else if (strcmp(c, "fcollect_nelems") == 0) { /* GSHMEM_CHECK=2 */
    long *d = shmem_malloc(64 * sizeof(long));
    shmem_long_fcollect(SHMEM_TEAM_WORLD, d, heap, me == 0 ? 2 : 1);
  } else if (strcmp(c, "alltoall_nelems") == 0) { /* GSHMEM_CHECK=2 */
    long *d = shmem_malloc(64 * sizeof(long)), *s = shmem_malloc(64 * sizeof(long));
    shmem_long_alltoall(SHMEM_TEAM_WORLD, d, s, me == 0 ? 2 : 1);
  } else if (strcmp(c, "get_from_stack") == 0) {
    long local = 0;
    if (me == 0) (void)shmem_long_g(&local, 1 % npes);
  } else if (strcmp(c, "getmem_bad_pe") == 0) {
    if (me == 0) shmem_getmem(src, heap, 8, npes);
  } else if (strcmp(c, "fetch_misaligned") == 0) {
    if (me == 0) (void)shmem_long_atomic_fetch((long *)((char *)heap + 4), 1 % npes);
  } else if (strcmp(c, "cswap_bad_pe") == 0) {
    if (me == 0) (void)shmem_long_atomic_compare_swap(heap, 0, 1, npes + 7);
  } else if (strcmp(c, "swap_on_stack") == 0) {
    long local = 0;
    if (me == 0) (void)shmem_long_atomic_swap(&local, 1, 1 % npes);
  } else if (strcmp(c, "inc_misaligned") == 0) {
    if (me == 0) shmem_long_atomic_inc((long *)((char *)heap + 2), 1 % npes);
  } else if (strcmp(c, "wait_bad_cmp") == 0) {
    if (me == 0) shmem_long_wait_until(heap, 99, 0);
  } else if (strcmp(c, "test_bad_cmp") == 0) {
    if (me == 0) (void)shmem_long_test(heap, -3, 0);
  } else if (strcmp(c, "signal_bad_op") == 0) {
    if (me == 0) shmem_putmem_signal(heap, src, 8, (uint64_t *)(heap + 1), 1, 42, 1 % npes);
  } else if (strcmp(c, "signal_on_stack") == 0) {
    uint64_t sig = 0;
    if (me == 0) shmem_putmem_signal(heap, src, 8, &sig, 1, SHMEM_SIGNAL_SET, 1 % npes);
  } else if (strcmp(c, "signal_wait_on_stack") == 0) {
    uint64_t sig = 0;
    if (me == 0) (void)shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1);
  } else if (strcmp(c, "put_nbi_to_stack") == 0) {
    long local[4];
    if (me == 0) shmem_long_put_nbi(local, src, 4, 1 % npes);
  } else if (strcmp(c, "get_nbi_from_stack") == 0) {
    long local[4];
    if (me == 0) shmem_long_get_nbi(src, local, 4, 1 % npes);
  } else if (strcmp(c, "iget_past_end") == 0) {
    if (me == 0) shmem_long_iget(src, heap, 1, (ptrdiff_t)1 << 30, 4, 1 % npes);
  } else if (strcmp(c, "set_lock_on_stack") == 0) {
    long lock = 0;
    if (me == 0) shmem_set_lock(&lock);
  } else if (strcmp(c, "test_lock_on_stack") == 0) {
    long lock = 0;
    if (me == 0) (void)shmem_test_lock(&lock);
  } else if (strcmp(c, "p_bad_pe") == 0) {
    if (me == 0) shmem_int_p((int *)heap, 1, npes);
  } else if (strcmp(c, "add_negative_pe") == 0) {
    if (me == 0) shmem_long_atomic_add(heap, 1, -5);
  } else if (strcmp(c, "reduce_overlap") == 0) {
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, heap + 1, heap, 4);
  } else if (strcmp(c, "broadcastmem_bad_root") == 0) {
    shmem_broadcastmem(SHMEM_TEAM_WORLD, heap, heap + 4, 8, -1);
  } else if (strcmp(c, "fcollect_to_stack") == 0) {
    long local[16];
    shmem_long_fcollect(SHMEM_TEAM_WORLD, local, heap, 1);
  } else if (strcmp(c, "quiet_after_finalize") == 0) {
    shmem_finalize();
    shmem_quiet();
  } else if (strcmp(c, "fence_before_init") == 0) {
    /* handled before shmem_init below: never reached */
  } else if (strcmp(c, "malloc_after_finalize") == 0) {
    shmem_finalize();
    (void)shmem_malloc(64);
  } else if (strcmp(c, "active_set_bad_size") == 0) {
    static long psync[SHMEM_BARRIER_SYNC_SIZE];
    shmem_barrier(0, 0, npes + 2, psync);
  } else if (strcmp(c, "active_set_null_psync") == 0) {
    shmem_barrier(0, 0, npes, NULL);
  } else if (strcmp(c, "active_set_stack_psync") == 0) {
    long psync[SHMEM_BARRIER_SYNC_SIZE];
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier(0, 0, npes, psync);
  } else if (strcmp(c, "split_invalid_parent") == 0) {
    shmem_team_t t;
    shmem_team_split_strided((shmem_team_t)(uintptr_t)0x777, 0, 1, npes, NULL, 0, &t);
  } else if (strcmp(c, "ctx_garbage_quiet") == 0) {
    if (me == 0) shmem_ctx_quiet((shmem_ctx_t)(uintptr_t)0x99);
  } else if (strcmp(c, "atomic_on_stack") == 0) {
    long local = 0;
    if (me == 0) shmem_long_atomic_add(&local, 1, 1 % npes);
  } else if (strcmp(c, "init_after_finalize") == 0) {
    shmem_finalize();
    shmem_init();
  } else if (strcmp(c, "garbage_ctx") == 0) {
    if (me == 0) shmem_ctx_long_p((shmem_ctx_t)(uintptr_t)0x1234, &target[0], 1, 1 % npes);
  } else if (strcmp(c, "destroyed_ctx") == 0) {
    shmem_ctx_t ctx;
    if (shmem_ctx_create(0, &ctx) != 0) return 3;
    shmem_ctx_destroy(ctx);
    if (me == 0) shmem_ctx_quiet(ctx);
  } else if (strcmp(c, "garbage_team") == 0) {
    shmem_team_sync((shmem_team_t)(uintptr_t)0x4321);
  } else if (strcmp(c, "garbage_team_collective") == 0) {
    shmem_long_broadcast((shmem_team_t)(uintptr_t)0x4321, heap, src, 1, 0);
  } else {
    printf("misuse: unknown case '%s'\n", c);
    return 2;
  }
  shmem_barrier_all();
  printf("misuse: the bad call returned\n");
  shmem_finalize();
  return 0;
}
