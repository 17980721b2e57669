/* Host forms of the NVSHMEM routines that host code may call, for translation units compiled by a host compiler
 * (g++, clang, gcc: no __CUDACC__), where gshmem/device.cuh (which defines them __host__ __device__) is not
 * included. Each is the OpenSHMEM host routine of the same semantics. Included by the drop-in <nvshmem.h>
 * (gshmem/nvshmem/dropin/nvshmem.h) after gshmem/nvshmem_compat.h, whose aliases map nvshmem_X to gshmem_X. */
#ifndef GSHMEM_NVSHMEM_HOST_ONLY_H
#define GSHMEM_NVSHMEM_HOST_ONLY_H
#ifndef __CUDACC__
#include <shmem.h>

static inline int gshmem_my_pe(void) { return shmem_my_pe(); }
static inline int gshmem_n_pes(void) { return shmem_n_pes(); }
static inline void* gshmem_ptr(const void* addr, int pe) { return shmem_ptr(addr, pe); }
static inline void gshmem_barrier_all(void) { shmem_barrier_all(); }
static inline void gshmem_sync_all(void) { shmem_sync_all(); }
static inline void gshmem_quiet(void) { shmem_quiet(); }
static inline void gshmem_fence(void) { shmem_fence(); }
static inline void gshmem_putmem(void* dest, const void* src, size_t n, int pe) { shmem_putmem(dest, src, n, pe); }
static inline void gshmem_getmem(void* dest, const void* src, size_t n, int pe) { shmem_getmem(dest, src, n, pe); }
static inline void gshmem_int_p(int* dest, int value, int pe) { shmem_int_p(dest, value, pe); }
static inline int gshmem_int_g(const int* src, int pe) { return shmem_int_g(src, pe); }

#endif /* __CUDACC__ */
#endif /* GSHMEM_NVSHMEM_HOST_ONLY_H */
