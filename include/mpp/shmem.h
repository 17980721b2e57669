/* <mpp/shmem.h>: the header name of SGI SHMEM and of OpenSHMEM before 1.1, which older programs and libraries
 * still include. gshmem's <shmem.h>, reached by a path relative to this file, so that no other implementation's
 * shmem.h on the include path can be found in its place. */
#ifndef GSHMEM_MPP_SHMEM_H
#define GSHMEM_MPP_SHMEM_H
#include "../shmem.h"
#endif
