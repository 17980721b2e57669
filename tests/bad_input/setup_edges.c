/* Setup and memory calls at their limits (argv[1] names the case). Each either returns the specification's failure
 * (NULL, nonzero, SHMEM_CTX_INVALID) with a one-line warning and the program goes on, or, where the specification
 * ends the program, ends it with the status asked for:
 *   global_exit_before_init  shmem_global_exit(5) before shmem_init: one line, exit status 5
 *   init_thread_bad          shmem_init_thread(99) returns nonzero and grants nothing; a valid level then works
 *   ctx_limit                shmem_ctx_create / shmem_team_create_ctx past the limit return nonzero and leave
 *                            SHMEM_CTX_INVALID; the contexts alive still carry puts; destroying one lets one
 *                            more be made; after destroying them all contexts can be made again
 *   calloc_overflow          shmem_calloc whose count x size overflows returns NULL
 *   align_huge               shmem_align(2^40, n) returns NULL
 *   shmemalign_zero/three    shmemalign(0 or 3, n) returns NULL, as shmem_align does
 * Every returning case prints "setup_edges: PE <n>: <case>: SUCCESS" on each PE, then finalizes. */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HAVE_SHMEMX_WTIME
#error "shmemx.h must define HAVE_SHMEMX_WTIME"
#endif

#define MAX_CTX 400000

static int ctxLimit(void) {
  shmem_ctx_t* ctx = malloc(sizeof(shmem_ctx_t) * MAX_CTX);
  int n = 0, ok = 1;
  while (n < MAX_CTX && shmem_ctx_create(0, &ctx[n]) == 0) ++n;
  shmem_ctx_t failed = ctx[n < MAX_CTX ? n : 0];
  ok = n > 0 && n < MAX_CTX && failed == SHMEM_CTX_INVALID;
  shmem_ctx_t t = (shmem_ctx_t)&n; /* garbage: must become SHMEM_CTX_INVALID */
  ok = ok && shmem_team_create_ctx(SHMEM_TEAM_WORLD, 0, &t) != 0 && t == SHMEM_CTX_INVALID;
  printf("setup_edges: PE %d: %d contexts made before the limit\n", shmem_my_pe(), n);
  static long cell, first;
  const int next = (shmem_my_pe() + 1) % shmem_n_pes();
  /* At the limit the contexts made before it still carry puts. */
  shmem_barrier_all();
  if (ok) shmem_ctx_long_p(ctx[0], &first, 5, next);
  if (ok) shmem_ctx_quiet(ctx[0]);
  shmem_barrier_all();
  ok = ok && first == 5;
  /* Destroying one context frees room for exactly one more. */
  if (ok) shmem_ctx_destroy(ctx[n - 1]);
  ok = ok && shmem_ctx_create(0, &ctx[n - 1]) == 0 && ctx[n - 1] != SHMEM_CTX_INVALID;
  t = (shmem_ctx_t)&n;
  ok = ok && shmem_ctx_create(0, &t) != 0 && t == SHMEM_CTX_INVALID;
  for (int i = 0; i < n; ++i) shmem_ctx_destroy(ctx[i]);
  shmem_ctx_t again = SHMEM_CTX_INVALID;
  ok = ok && shmem_team_create_ctx(SHMEM_TEAM_WORLD, 0, &again) == 0 && again != SHMEM_CTX_INVALID;
  shmem_barrier_all();
  if (ok) shmem_ctx_long_p(again, &cell, 7, next);
  if (ok) shmem_ctx_quiet(again);
  shmem_barrier_all();
  ok = ok && cell == 7;
  shmem_ctx_destroy(again);
  free(ctx);
  return ok;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "global_exit_before_init") == 0) {
    shmem_global_exit(5);
    printf("setup_edges: shmem_global_exit returned\n");
    return 0;
  }
  int ok = 1;
  if (strcmp(mode, "init_thread_bad") == 0) {
    int provided = -1;
    int rc = shmem_init_thread(99, &provided);
    ok = rc != 0 && provided != SHMEM_THREAD_MULTIPLE;
    printf("setup_edges: shmem_init_thread(99) returned %d, provided %d\n", rc, provided);
    ok = ok && shmem_init_thread(SHMEM_THREAD_SERIALIZED, &provided) == 0 && provided == SHMEM_THREAD_SERIALIZED;
  } else {
    shmem_init();
  }
  int me = shmem_my_pe();
  if (strcmp(mode, "ctx_limit") == 0) ok = ctxLimit();
  else if (strcmp(mode, "calloc_overflow") == 0) ok = shmem_calloc(SIZE_MAX / 2, 4) == NULL;
  else if (strcmp(mode, "align_huge") == 0) ok = shmem_align((size_t)1 << 40, 64) == NULL;
  else if (strcmp(mode, "shmemalign_zero") == 0) ok = shmemalign(0, 64) == NULL;
  else if (strcmp(mode, "shmemalign_three") == 0) ok = shmemalign(3, 64) == NULL;
  else if (strcmp(mode, "init_thread_bad") != 0) ok = 0;
  long* good = shmem_malloc(64); /* the heap still works after the failed call */
  ok = ok && good != NULL;
  shmem_free(good);
  printf("setup_edges: PE %d: %s: %s\n", me, mode, ok ? "SUCCESS" : "FAILURE");
  shmem_finalize();
  return ok ? 0 : 1;
}
