// Layer 3: the NVSHMEM-style free functions over this translation unit's __constant__ copy of the handle.
// Included by <gshmem/device.cuh> (not by the library's own kernels, which take the handle by value).
#pragma once
#include <shmem.h>
#include <shmemx.h>

#include <nv/target>

#include "gshmem/device/impl/api__funcs.cuh"
#include "gshmem/device/impl/types__list.cuh"

// ============================================================================================ free functions
// This translation unit's copy of the handle. The runtime fills it at shmem_init through the registration below
// (every TU that includes this header registers its own copy; nothing needs -rdc).
static __constant__ gshmem::DeviceHandle gshmemi_device_state;

namespace {
inline void gshmemi_device_state_sync(const void* handle, int device) {
  int prev = -1;
  cudaGetDevice(&prev);
  cudaSetDevice(device);
  cudaMemcpyToSymbol(gshmemi_device_state, handle, sizeof(gshmem::DeviceHandle));
  if (prev >= 0) cudaSetDevice(prev);
}
struct GshmemiDeviceStateRegistrar {
  GshmemiDeviceStateRegistrar() { gshmemx_device_register_state_sync(&gshmemi_device_state_sync); }
};
[[maybe_unused]] GshmemiDeviceStateRegistrar gshmemi_device_state_registrar;
}  // namespace

#define GSHMEMI_H gshmemi_device_state

__host__ __device__ inline int gshmem_my_pe() {
#ifdef __CUDA_ARCH__
  return GSHMEMI_H.my_pe;
#else
  return shmem_my_pe();
#endif
}
__host__ __device__ inline int gshmem_n_pes() {
#ifdef __CUDA_ARCH__
  return GSHMEMI_H.n_pes;
#else
  return shmem_n_pes();
#endif
}
__host__ __device__ inline void* gshmem_ptr(const void* addr, int pe) {
#ifdef __CUDA_ARCH__
  return gshmem::dev::ptr(GSHMEMI_H, addr, pe);
#else
  return shmem_ptr(addr, pe);
#endif
}

// Host calls. As in NVSHMEM, the thread-scope RMA (bytes and typed), the standard and extended atomics, fence and
// quiet may also be called from host code of a CUDA translation unit: there they are the OpenSHMEM host routines,
// which reach device symmetric memory through the runtime (blocking, ordered with the host's other operations; not
// with kernels in flight). Warp and block forms, signals, waits and the bitwise atomics are device-only.
#define GSHMEMI_EITHER(DEV, HOST) NV_IF_ELSE_TARGET(NV_IS_DEVICE, DEV, HOST)

// ---- bytes
__host__ __device__ inline void gshmem_putmem(void* d, const void* s, size_t n, int pe) { GSHMEMI_EITHER((gshmem::dev::putmem<gshmem::kScopeThread>(GSHMEMI_H, d, s, n, pe);), (shmem_putmem(d, s, n, pe);)) }
__host__ __device__ inline void gshmem_getmem(void* d, const void* s, size_t n, int pe) { GSHMEMI_EITHER((gshmem::dev::getmem<gshmem::kScopeThread>(GSHMEMI_H, d, s, n, pe);), (shmem_getmem(d, s, n, pe);)) }
__host__ __device__ inline void gshmem_putmem_nbi(void* d, const void* s, size_t n, int pe) { GSHMEMI_EITHER((gshmem::dev::putmem<gshmem::kScopeThread>(GSHMEMI_H, d, s, n, pe, true);), (shmem_putmem_nbi(d, s, n, pe);)) }
__host__ __device__ inline void gshmem_getmem_nbi(void* d, const void* s, size_t n, int pe) { GSHMEMI_EITHER((gshmem::dev::getmem<gshmem::kScopeThread>(GSHMEMI_H, d, s, n, pe, true);), (shmem_getmem_nbi(d, s, n, pe);)) }
#define GSHMEMI_DEF_MEM_SCOPE(SFX, S)                                                                                  \
  __device__ inline void gshmemx_putmem_##SFX(void* d, const void* s, size_t n, int pe) { gshmem::dev::putmem<S>(GSHMEMI_H, d, s, n, pe); } \
  __device__ inline void gshmemx_getmem_##SFX(void* d, const void* s, size_t n, int pe) { gshmem::dev::getmem<S>(GSHMEMI_H, d, s, n, pe); } \
  __device__ inline void gshmemx_putmem_nbi_##SFX(void* d, const void* s, size_t n, int pe) { gshmem::dev::putmem<S>(GSHMEMI_H, d, s, n, pe, true); } \
  __device__ inline void gshmemx_getmem_nbi_##SFX(void* d, const void* s, size_t n, int pe) { gshmem::dev::getmem<S>(GSHMEMI_H, d, s, n, pe, true); } \
  __device__ inline void gshmemx_putmem_signal_##SFX(void* d, const void* s, size_t n, uint64_t* sig, uint64_t v, int op, int pe) { gshmem::dev::putmemSignal<S>(GSHMEMI_H, d, s, n, sig, v, op, pe, false); } \
  __device__ inline void gshmemx_putmem_signal_nbi_##SFX(void* d, const void* s, size_t n, uint64_t* sig, uint64_t v, int op, int pe) { gshmem::dev::putmemSignal<S>(GSHMEMI_H, d, s, n, sig, v, op, pe, true); }
GSHMEMI_DEF_MEM_SCOPE(warp, gshmem::kScopeWarp)
GSHMEMI_DEF_MEM_SCOPE(block, gshmem::kScopeBlock)

// ---- signals, waits, ordering, barriers
__device__ inline void gshmem_putmem_signal(void* d, const void* s, size_t n, uint64_t* sig, uint64_t v, int op, int pe) { gshmem::dev::putmemSignal<gshmem::kScopeThread>(GSHMEMI_H, d, s, n, sig, v, op, pe, false); }
__device__ inline void gshmem_putmem_signal_nbi(void* d, const void* s, size_t n, uint64_t* sig, uint64_t v, int op, int pe) { gshmem::dev::putmemSignal<gshmem::kScopeThread>(GSHMEMI_H, d, s, n, sig, v, op, pe, true); }
__device__ inline void gshmemx_signal_op(uint64_t* sig, uint64_t v, int op, int pe) { gshmem::dev::signalOp(GSHMEMI_H, sig, v, op, pe); }
__device__ inline uint64_t gshmem_signal_wait_until(uint64_t* sig, int cmp, uint64_t v) { return gshmem::dev::signalWaitUntil(sig, cmp, v); }
__device__ inline uint64_t gshmem_signal_fetch(const uint64_t* sig) { return gshmem::dev::detail::ldAcquireSys(reinterpret_cast<const unsigned long long*>(sig)); }
__host__ __device__ inline void gshmem_fence() { GSHMEMI_EITHER((gshmem::dev::fence(GSHMEMI_H);), (shmem_fence();)) }
__host__ __device__ inline void gshmem_quiet() { GSHMEMI_EITHER((gshmem::dev::quiet(GSHMEMI_H);), (shmem_quiet();)) }
__host__ __device__ inline void gshmem_barrier_all() {
#ifdef __CUDA_ARCH__
  gshmem::dev::barrierAll(GSHMEMI_H, true);
#else
  shmem_barrier_all();
#endif
}
__host__ __device__ inline void gshmem_sync_all() {
#ifdef __CUDA_ARCH__
  gshmem::dev::barrierAll(GSHMEMI_H, false);
#else
  shmem_sync_all();
#endif
}
__device__ inline void gshmemx_barrier_all_block() { gshmem::dev::barrierAllGroup<gshmem::kScopeBlock>(GSHMEMI_H, true); }
__device__ inline void gshmemx_barrier_all_warp() { gshmem::dev::barrierAllGroup<gshmem::kScopeWarp>(GSHMEMI_H, true); }
__device__ inline void gshmemx_sync_all_block() { gshmem::dev::barrierAllGroup<gshmem::kScopeBlock>(GSHMEMI_H, false); }

// ---- typed RMA: gshmem_T_{p,g,put,get,put_nbi,get_nbi}, gshmemx_T_{put,get}[_nbi]_{warp,block}, wait/test
// (T: the lists of impl/types__list.cuh; wait/test over the standard types)
#define GSHMEMI_DEF_RMA(N, T)                                                                                     \
  __host__ __device__ inline void gshmem_##N##_p(T* d, T v, int pe) { GSHMEMI_EITHER((gshmem::dev::p<T>(GSHMEMI_H, d, v, pe);), (shmem_putmem(d, &v, sizeof(T), pe);)) } \
  __host__ __device__ inline T gshmem_##N##_g(const T* s, int pe) { GSHMEMI_EITHER((return gshmem::dev::g<T>(GSHMEMI_H, s, pe);), (T r; shmem_getmem(&r, s, sizeof(T), pe); return r;)) } \
  __host__ __device__ inline void gshmem_##N##_put(T* d, const T* s, size_t n, int pe) { GSHMEMI_EITHER((gshmem::dev::putmem<gshmem::kScopeThread>(GSHMEMI_H, d, s, n * sizeof(T), pe);), (shmem_putmem(d, s, n * sizeof(T), pe);)) } \
  __host__ __device__ inline void gshmem_##N##_get(T* d, const T* s, size_t n, int pe) { GSHMEMI_EITHER((gshmem::dev::getmem<gshmem::kScopeThread>(GSHMEMI_H, d, s, n * sizeof(T), pe);), (shmem_getmem(d, s, n * sizeof(T), pe);)) } \
  __host__ __device__ inline void gshmem_##N##_put_nbi(T* d, const T* s, size_t n, int pe) { GSHMEMI_EITHER((gshmem::dev::putmem<gshmem::kScopeThread>(GSHMEMI_H, d, s, n * sizeof(T), pe, true);), (shmem_putmem_nbi(d, s, n * sizeof(T), pe);)) } \
  __host__ __device__ inline void gshmem_##N##_get_nbi(T* d, const T* s, size_t n, int pe) { GSHMEMI_EITHER((gshmem::dev::getmem<gshmem::kScopeThread>(GSHMEMI_H, d, s, n * sizeof(T), pe, true);), (shmem_getmem_nbi(d, s, n * sizeof(T), pe);)) } \
  __device__ inline void gshmemx_##N##_put_warp(T* d, const T* s, size_t n, int pe) { gshmem::dev::putmem<gshmem::kScopeWarp>(GSHMEMI_H, d, s, n * sizeof(T), pe); } \
  __device__ inline void gshmemx_##N##_put_block(T* d, const T* s, size_t n, int pe) { gshmem::dev::putmem<gshmem::kScopeBlock>(GSHMEMI_H, d, s, n * sizeof(T), pe); } \
  __device__ inline void gshmemx_##N##_get_warp(T* d, const T* s, size_t n, int pe) { gshmem::dev::getmem<gshmem::kScopeWarp>(GSHMEMI_H, d, s, n * sizeof(T), pe); } \
  __device__ inline void gshmemx_##N##_get_block(T* d, const T* s, size_t n, int pe) { gshmem::dev::getmem<gshmem::kScopeBlock>(GSHMEMI_H, d, s, n * sizeof(T), pe); } \
  __device__ inline void gshmemx_##N##_put_nbi_warp(T* d, const T* s, size_t n, int pe) { gshmem::dev::putmem<gshmem::kScopeWarp>(GSHMEMI_H, d, s, n * sizeof(T), pe, true); } \
  __device__ inline void gshmemx_##N##_put_nbi_block(T* d, const T* s, size_t n, int pe) { gshmem::dev::putmem<gshmem::kScopeBlock>(GSHMEMI_H, d, s, n * sizeof(T), pe, true); } \
  __device__ inline void gshmemx_##N##_get_nbi_warp(T* d, const T* s, size_t n, int pe) { gshmem::dev::getmem<gshmem::kScopeWarp>(GSHMEMI_H, d, s, n * sizeof(T), pe, true); } \
  __device__ inline void gshmemx_##N##_get_nbi_block(T* d, const T* s, size_t n, int pe) { gshmem::dev::getmem<gshmem::kScopeBlock>(GSHMEMI_H, d, s, n * sizeof(T), pe, true); }
GSHMEMI_RMA_TYPES(GSHMEMI_DEF_RMA)
#define GSHMEMI_DEF_WAIT1(N, T)                                                                                    \
  __device__ inline void gshmem_##N##_wait_until(T* ivar, int cmp, T v) { gshmem::dev::waitUntil<T>(ivar, cmp, v); } \
  __device__ inline int gshmem_##N##_test(T* ivar, int cmp, T v) { return gshmem::dev::test<T>(ivar, cmp, v); }
GSHMEMI_STD_TYPES(GSHMEMI_DEF_WAIT1)

// ---- typed atomics: gshmem_T_atomic_{fetch,set,swap,compare_swap,fetch_add,add,fetch_inc,inc,fetch_and,...}
#define GSHMEMI_DEF_AMO(N, T)                                                                                          \
  __host__ __device__ inline T gshmem_##N##_atomic_fetch(const T* d, int pe) { GSHMEMI_EITHER((return gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoFetch, const_cast<T*>(d), (T)0, (T)0, pe);), (return shmem_##N##_atomic_fetch(d, pe);)) } \
  __host__ __device__ inline void gshmem_##N##_atomic_set(T* d, T v, int pe) { GSHMEMI_EITHER((gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoSet, d, v, (T)0, pe);), (shmem_##N##_atomic_set(d, v, pe);)) } \
  __host__ __device__ inline T gshmem_##N##_atomic_swap(T* d, T v, int pe) { GSHMEMI_EITHER((return gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoSwap, d, v, (T)0, pe);), (return shmem_##N##_atomic_swap(d, v, pe);)) } \
  __host__ __device__ inline T gshmem_##N##_atomic_compare_swap(T* d, T c, T v, int pe) { GSHMEMI_EITHER((return gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoCompareSwap, d, v, c, pe);), (return shmem_##N##_atomic_compare_swap(d, c, v, pe);)) } \
  __host__ __device__ inline T gshmem_##N##_atomic_fetch_add(T* d, T v, int pe) { GSHMEMI_EITHER((return gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoFetchAdd, d, v, (T)0, pe);), (return shmem_##N##_atomic_fetch_add(d, v, pe);)) } \
  __host__ __device__ inline void gshmem_##N##_atomic_add(T* d, T v, int pe) { GSHMEMI_EITHER((gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoAdd, d, v, (T)0, pe);), (shmem_##N##_atomic_add(d, v, pe);)) } \
  __host__ __device__ inline T gshmem_##N##_atomic_fetch_inc(T* d, int pe) { GSHMEMI_EITHER((return gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoFetchInc, d, (T)0, (T)0, pe);), (return shmem_##N##_atomic_fetch_inc(d, pe);)) } \
  __host__ __device__ inline void gshmem_##N##_atomic_inc(T* d, int pe) { GSHMEMI_EITHER((gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoInc, d, (T)0, (T)0, pe);), (shmem_##N##_atomic_inc(d, pe);)) } \
  __device__ inline T gshmem_##N##_atomic_fetch_and(T* d, T v, int pe) { return gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoFetchAnd, d, v, (T)0, pe); } \
  __device__ inline void gshmem_##N##_atomic_and(T* d, T v, int pe) { gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoAnd, d, v, (T)0, pe); } \
  __device__ inline T gshmem_##N##_atomic_fetch_or(T* d, T v, int pe) { return gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoFetchOr, d, v, (T)0, pe); } \
  __device__ inline void gshmem_##N##_atomic_or(T* d, T v, int pe) { gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoOr, d, v, (T)0, pe); } \
  __device__ inline T gshmem_##N##_atomic_fetch_xor(T* d, T v, int pe) { return gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoFetchXor, d, v, (T)0, pe); } \
  __device__ inline void gshmem_##N##_atomic_xor(T* d, T v, int pe) { gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoXor, d, v, (T)0, pe); }
GSHMEMI_AMO_TYPES(GSHMEMI_DEF_AMO)

#include "gshmem/device/impl/coll_free__funcs.cuh"
#include "gshmem/device/impl/free_rma__funcs.cuh"
#include "gshmem/device/impl/free_wait__funcs.cuh"
#include "gshmem/device/impl/free_stream__funcs.cuh"
