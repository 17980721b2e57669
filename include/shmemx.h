/* gshmem extensions to OpenSHMEM (shmemx_*). Kept deliberately small: everything portable is in <shmem.h>. */
#ifndef SHMEMX_H
#define SHMEMX_H

#include "shmem.h"

#define GSHMEMX 1 /* this header is gshmem's */

#ifdef __cplusplus
extern "C" {
#endif

/** Wall-clock time in seconds since an arbitrary fixed point (monotonic, not synchronized across PEs). */
double shmemx_wtime(void);

#ifdef __cplusplus
}
#endif

#endif /* SHMEMX_H */
