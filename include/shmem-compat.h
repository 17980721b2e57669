/* <shmem-compat.h>: the pre-1.0 names (start_pes, _my_pe, _num_pes, shmalloc, shfree, shmemalign, shrealloc),
 * which gshmem's <shmem.h> already declares. Shipped so that a program including it gets gshmem's declarations,
 * never another implementation's. */
#ifndef GSHMEM_SHMEM_COMPAT_H
#define GSHMEM_SHMEM_COMPAT_H
#include "shmem.h"
#endif
