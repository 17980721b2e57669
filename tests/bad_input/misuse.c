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
  } else if (strcmp(c, "split_bad_stride") == 0) {
    shmem_team_t t;
    int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes + 5, NULL, 0, &t); /* more PEs than exist */
    printf("misuse: PE %d: split returned %d, team %s\n", me, rc, t == SHMEM_TEAM_INVALID ? "invalid" : "valid");
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
    shmem_malloc(me == 0 ? 64 : 128); /* collective with different sizes (caught with GSHMEM_CHECK=2) */
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
