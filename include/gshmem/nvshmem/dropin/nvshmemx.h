/* NVSHMEM's <nvshmemx.h> for programs pointed at a gshmem installation (see nvshmem.h next to it): installed as
 * <prefix>/include/nvshmemx.h. gshmem's compatibility header declares the nvshmemx_* names with the others. */
#ifndef GSHMEM_NVSHMEM_DROPIN_NVSHMEMX_H
#define GSHMEM_NVSHMEM_DROPIN_NVSHMEMX_H
#include "nvshmem.h"
#endif
