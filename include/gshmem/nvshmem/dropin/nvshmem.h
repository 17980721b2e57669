/* NVSHMEM's <nvshmem.h> for programs and build systems pointed at a gshmem installation as if it were NVSHMEM
 * (NVSHMEM_HOME=<prefix>, or find_package(NVSHMEM) through <prefix>/lib/cmake/NVSHMEM): installed as
 * <prefix>/include/nvshmem.h. It includes what NVSHMEM's header includes (<assert.h>, <stddef.h>, <stdint.h>,
 * <cuda.h>, <cuda_runtime.h>), then gshmem's compatibility header. A file compiled by a host compiler (g++, no
 * nvcc) gets the host forms of the routines that NVSHMEM lets host code call (gshmem/nvshmem/host_only.h). */
#ifndef GSHMEM_NVSHMEM_DROPIN_NVSHMEM_H
#define GSHMEM_NVSHMEM_DROPIN_NVSHMEM_H
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include "gshmem/nvshmem_compat.h"
#ifndef __CUDACC__
#include "gshmem/nvshmem/host_only.h"
#endif
#endif
