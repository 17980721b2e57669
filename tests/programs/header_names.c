/* Every header name an OpenSHMEM program may include is gshmem's: <mpp/shmem.h>, <mpp/shmemx.h>, <pshmem.h>,
 * <pshmemx.h>, <shmem-compat.h> next to <shmem.h> and <shmemx.h>. Built by the install test with the installed
 * gshmemcc, where Open MPI's include directory (which has its own shmem.h, mpp/shmem.h and pshmem.h) is also on
 * the path: a header found there instead would not define gshmem's marks, or would disagree on the constants. */
#include <mpp/shmem.h>
#include <mpp/shmemx.h>
#include <pshmem.h>
#include <pshmemx.h>
#include <shmem-compat.h>
#include <stdio.h>

#if !defined(GSHMEM_SHMEM_H) || !defined(GSHMEMX) || !defined(GSHMEM_PSHMEM) || !defined(GSHMEM_MPP_SHMEM_H) || \
    !defined(GSHMEM_MPP_SHMEMX_H) || !defined(GSHMEM_PSHMEMX_H) || !defined(GSHMEM_SHMEM_COMPAT_H)
#error "an OpenSHMEM header of another implementation was found before gshmem's"
#endif
/* The constants where implementations differ (Open MPI: SHMEM_SYNC_VALUE -1, pSync sizes 1-3). */
#if SHMEM_SYNC_VALUE != 0 || SHMEM_SYNC_SIZE != 64 || SHMEM_BCAST_SYNC_SIZE != 64 || SHMEM_CTX_PRIVATE != (1L << 1)
#error "SHMEM_SYNC_VALUE, SHMEM_SYNC_SIZE or SHMEM_CTX_PRIVATE are not gshmem's"
#endif

static long psync[SHMEM_BCAST_SYNC_SIZE];
static long value;

int main(void) {
  start_pes(0); /* the pre-1.0 init of programs written for <mpp/shmem.h> */
  int me = _my_pe(), npes = _num_pes(), errors = 0;
  for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  value = me == 0 ? 42 : 0;
  shmem_barrier_all();
  shmem_broadcast64(&value, &value, 1, 0, 0, 0, npes, psync);
  if (value != 42) printf("header_names: PE %d: broadcast gave %ld\n", me, value), ++errors;
  pshmem_barrier_all();
  if (me == 0) printf("header_names: %d PEs: %s\n", npes, errors ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return errors != 0;
}
