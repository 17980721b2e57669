/* <pshmemx.h>: the profiling names of gshmem's extensions (pshmemx_*), which <pshmem.h> declares with the rest. */
#ifndef GSHMEM_PSHMEMX_H
#define GSHMEM_PSHMEMX_H
#include "pshmem.h"
#endif
