/* NVSHMEM's <nvshmemx.h> for programs built against gshmem: put include/gshmem/nvshmem on the include path (before any
 * NVSHMEM installation) and the program's #include <nvshmemx.h> takes gshmem's compatibility header. */
#ifndef GSHMEM_NVSHMEM_FORWARD_NVSHMEMX_H
#define GSHMEM_NVSHMEM_FORWARD_NVSHMEMX_H
#include "../nvshmem_compat.h"
#endif
