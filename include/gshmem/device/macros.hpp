// The one place that decides "are we compiled by nvcc" for the device API.
#pragma once
#if defined(__CUDACC__)
#define GSHMEM_HOST_DEVICE __host__ __device__
#define GSHMEM_DEVICE_INLINE __device__ __forceinline__
#define GSHMEM_DEVICE_NOINLINE __device__ __noinline__
#else
#define GSHMEM_HOST_DEVICE
#define GSHMEM_DEVICE_INLINE inline
#define GSHMEM_DEVICE_NOINLINE
#endif
