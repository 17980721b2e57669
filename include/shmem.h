/* gshmem: OpenSHMEM 1.5 C API (C99, C11 with _Generic names, and C++ with overloads).
 *
 * The pieces, all included here:
 *   gshmem/c/types.h        constants, handles, X-macro type lists
 *   gshmem/c/setup.h        init/finalize/query, symmetric memory, teams, contexts
 *   gshmem/c/rma.h          put/get (typed, sized, mem), strided, nbi, put-with-signal
 *   gshmem/c/amo.h          atomics and locks
 *   gshmem/c/sync.h         wait_until/test, signals, fence/quiet, barrier_all/sync
 *   gshmem/c/collectives.h  team-based and active-set collectives
 *   gshmem/c/deprecated.h   pre-1.5 names kept for older programs
 *   gshmem/c/generic.h      C11 _Generic macros / C++ overloads
 * Errors in arguments (bad PE, non-symmetric address, ...) end the whole job with a one-line message that names
 * the PE and the call: the OpenSHMEM C API has no error returns for them. */
#ifndef SHMEM_H
#define SHMEM_H

#define GSHMEM_SHMEM_H 1 /* this header is gshmem's (<mpp/shmem.h> and <shmem-compat.h> include it too) */

#include "gshmem/c/types.h"
#include "gshmem/c/setup.h"
#include "gshmem/c/rma.h"
#include "gshmem/c/amo.h"
#include "gshmem/c/sync.h"
#include "gshmem/c/collectives.h"
#include "gshmem/c/deprecated.h"
#include "gshmem/c/generic.h"

#endif /* SHMEM_H */
