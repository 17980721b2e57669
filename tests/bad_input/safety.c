/* Runtime safety against bad addresses, one case per run (argv[1]); PE 1 makes the bad call at PE 0.
 *  - local buffers that are not memory: the job ends with the call's one-line error, not a signal;
 *  - a crash of the program itself, outside gshmem, still ends it by the signal, as without gshmem;
 *  - the runtime's control area just past the last allocatable heap byte is not symmetric to user calls
 *    (RMA, AMO, signals, waits, collectives, shmem_ptr, shmem_addr_accessible).
 * The heap's user part starts at a 1 GiB-aligned base and is GSHMEM_SYMMETRIC_SIZE long (1 MiB in these tests):
 * heapEnd() is the first byte past it. A case that must fail prints "the bad call returned" if it does not. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define BAD ((void*)(uintptr_t)0x1000) /* the first page is never mapped */

static char* heapEnd(void* any_heap_ptr) {
  const uintptr_t gib = (uintptr_t)1 << 30;
  return (char*)(((uintptr_t)any_heap_ptr & ~(gib - 1)) + ((uintptr_t)1 << 20));
}

static int run(const char* c, long* heap, uint64_t* sig, char* end) {
  long v = 7;
  if (!strcmp(c, "put_bad_source")) shmem_putmem(heap, BAD, 8, 0);
  else if (!strcmp(c, "put_nbi_bad_source")) shmem_putmem_nbi(heap, BAD, 64, 0);
  else if (!strcmp(c, "get_bad_dest")) shmem_getmem(BAD, heap, 8, 0);
  else if (!strcmp(c, "iput_bad_source")) shmem_long_iput(heap, (const long*)BAD, 1, 2, 4, 0);
  else if (!strcmp(c, "put_signal_bad_source")) shmem_putmem_signal(heap, BAD, 8, sig, 1, SHMEM_SIGNAL_SET, 0);
  else if (!strcmp(c, "fetch_nbi_bad_fetch")) shmem_long_atomic_fetch_nbi((long*)BAD, heap, 0);
  else if (!strcmp(c, "user_crash")) *(volatile long*)BAD = v; /* not in a gshmem call */
  else if (!strcmp(c, "put_control")) shmem_putmem(end, &v, sizeof v, 0);
  else if (!strcmp(c, "put_straddle")) shmem_putmem(end - 4, &v, sizeof v, 0);
  else if (!strcmp(c, "get_control")) shmem_getmem(&v, end + 64, sizeof v, 0);
  else if (!strcmp(c, "amo_control")) shmem_long_atomic_add((long*)end, 1, 0);
  else if (!strcmp(c, "signal_control")) shmem_putmem_signal(heap, &v, 8, (uint64_t*)end, 1, SHMEM_SIGNAL_SET, 0);
  else if (!strcmp(c, "test_control")) (void)shmem_long_test((long*)end, SHMEM_CMP_EQ, 0);
  else if (!strcmp(c, "bcast_control")) shmem_broadcastmem(SHMEM_TEAM_WORLD, end, heap, 8, 0);
  else if (!strcmp(c, "ptr_control")) { /* shmem_ptr and shmem_addr_accessible see only the user range */
    const int ok = shmem_ptr(end, 0) == NULL && !shmem_addr_accessible(end, 0) && shmem_ptr(end - 8, 0) != NULL &&
                   shmem_addr_accessible(end - 8, 0);
    printf("safety: PE 1: %s: %s\n", c, ok ? "SUCCESS" : "FAILURE");
    return ok ? 0 : 1;
  } else if (!strcmp(c, "put_last_byte")) {
    shmem_putmem(end - sizeof v, &v, sizeof v, 0); /* the last allocatable bytes stay reachable */
    return 0;
  } else {
    printf("safety: unknown case %s: FAILURE\n", c);
    return 1;
  }
  printf("safety: PE 1: %s: the bad call returned\n", c);
  return 1;
}

int main(int argc, char** argv) {
  const char* c = argc > 1 ? argv[1] : "";
  shmem_init();
  long* heap = shmem_malloc(4 * sizeof(long));
  uint64_t* sig = shmem_calloc(1, sizeof(uint64_t));
  char* end = heapEnd(heap);
  if (shmem_my_pe() == 0) *(long*)(end - sizeof(long)) = 0;
  shmem_barrier_all();
  int rc = shmem_my_pe() == 1 ? run(c, heap, sig, end) : 0;
  shmem_barrier_all();
  if (shmem_my_pe() == 0 && !strcmp(c, "put_last_byte"))
    printf("safety: PE 0: %s: %s\n", c, *(long*)(end - sizeof(long)) == 7 ? "SUCCESS" : "FAILURE");
  shmem_finalize();
  return rc;
}
