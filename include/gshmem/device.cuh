// gshmem device API umbrella: include from CUDA sources compiled by nvcc (sm_70+; built and tuned for sm_90).
// Contracts: gshmem/device/api.cuh and gshmem/device/handle.cuh; bodies in gshmem/device/impl/.
#pragma once
#include <shmem.h>
#include <shmemx.h>

#include "gshmem/device/api.cuh"
#if defined(__CUDACC__)
#include "gshmem/device/impl/free__funcs.cuh"
#endif
