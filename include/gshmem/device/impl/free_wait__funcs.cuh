// Layer 3, more NVSHMEM-style free functions (free__funcs.cuh): the multi-variable waits and tests, the
// floating-point extended AMOs and the warpgroup barrier. Included by free__funcs.cuh.
#pragma once
#include "gshmem/device/impl/types__list.cuh"

// ---- gshmem_T_{wait_until,test}_{all,any,some}[_vector]: one thread (contract in gshmem/device/api.cuh)
#define GSHMEMI_DEF_WAITN(N, T)                                                                                     \
  __device__ inline void gshmem_##N##_wait_until_all(T* iv, size_t n, const int* st, int cmp, T v) {              \
    gshmem::dev::waitAll<T>(iv, n, st, cmp, nullptr, v);                                                           \
  }                                                                                                                \
  __device__ inline size_t gshmem_##N##_wait_until_any(T* iv, size_t n, const int* st, int cmp, T v) {            \
    return gshmem::dev::waitAny<T>(iv, n, st, cmp, nullptr, v);                                                    \
  }                                                                                                                \
  __device__ inline size_t gshmem_##N##_wait_until_some(T* iv, size_t n, size_t* idx, const int* st, int cmp,     \
                                                         T v) {                                                    \
    return gshmem::dev::waitSome<T>(iv, n, idx, st, cmp, nullptr, v);                                              \
  }                                                                                                                \
  __device__ inline void gshmem_##N##_wait_until_all_vector(T* iv, size_t n, const int* st, int cmp, T* vs) {     \
    gshmem::dev::waitAll<T>(iv, n, st, cmp, vs, static_cast<T>(0));                                                              \
  }                                                                                                                \
  __device__ inline size_t gshmem_##N##_wait_until_any_vector(T* iv, size_t n, const int* st, int cmp, T* vs) {   \
    return gshmem::dev::waitAny<T>(iv, n, st, cmp, vs, static_cast<T>(0));                                                       \
  }                                                                                                                \
  __device__ inline size_t gshmem_##N##_wait_until_some_vector(T* iv, size_t n, size_t* idx, const int* st,       \
                                                                int cmp, T* vs) {                                  \
    return gshmem::dev::waitSome<T>(iv, n, idx, st, cmp, vs, static_cast<T>(0));                                                 \
  }                                                                                                                \
  __device__ inline int gshmem_##N##_test_all(T* iv, size_t n, const int* st, int cmp, T v) {                     \
    return gshmem::dev::testAll<T>(iv, n, st, cmp, nullptr, v);                                                    \
  }                                                                                                                \
  __device__ inline size_t gshmem_##N##_test_any(T* iv, size_t n, const int* st, int cmp, T v) {                  \
    return gshmem::dev::testAny<T>(iv, n, st, cmp, nullptr, v);                                                    \
  }                                                                                                                \
  __device__ inline size_t gshmem_##N##_test_some(T* iv, size_t n, size_t* idx, const int* st, int cmp, T v) {    \
    return gshmem::dev::testSome<T>(iv, n, idx, st, cmp, nullptr, v);                                              \
  }                                                                                                                \
  __device__ inline int gshmem_##N##_test_all_vector(T* iv, size_t n, const int* st, int cmp, T* vs) {            \
    return gshmem::dev::testAll<T>(iv, n, st, cmp, vs, static_cast<T>(0));                                                       \
  }                                                                                                                \
  __device__ inline size_t gshmem_##N##_test_any_vector(T* iv, size_t n, const int* st, int cmp, T* vs) {         \
    return gshmem::dev::testAny<T>(iv, n, st, cmp, vs, static_cast<T>(0));                                                       \
  }                                                                                                                \
  __device__ inline size_t gshmem_##N##_test_some_vector(T* iv, size_t n, size_t* idx, const int* st, int cmp,     \
                                                          T* vs) {                                                 \
    return gshmem::dev::testSome<T>(iv, n, idx, st, cmp, vs, static_cast<T>(0));                                                \
  }
GSHMEMI_WAIT_TYPES(GSHMEMI_DEF_WAITN)

// ---- extended AMOs on float and double: fetch, set, swap (bitwise exchanges of the value's bits)
#define GSHMEMI_DEF_AMO_EXT(N, T)                                                                                   \
  __device__ inline T gshmem_##N##_atomic_fetch(const T* d, int pe) {                                              \
    return gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoFetch, const_cast<T*>(d), (T)0, (T)0, pe);                \
  }                                                                                                                \
  __device__ inline void gshmem_##N##_atomic_set(T* d, T v, int pe) {                                              \
    gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoSet, d, v, (T)0, pe);                                            \
  }                                                                                                                \
  __device__ inline T gshmem_##N##_atomic_swap(T* d, T v, int pe) {                                                \
    return gshmem::dev::atomic<T>(GSHMEMI_H, gshmem::kAmoSwap, d, v, (T)0, pe);                                    \
  }
GSHMEMI_AMO_EXT_TYPES(GSHMEMI_DEF_AMO_EXT)

// ---- barrier over a warpgroup (4 consecutive warps of the block, 128 threads, every one of them calling): a named
// barrier (id 8 + the warpgroup's index; programs that use named barriers 8..15 must not mix them with this call),
// the team barrier by the warpgroup's first thread, and the named barrier again.
__device__ inline void gshmemi_warpgroup_bar() {
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  asm volatile("bar.sync %0, 128;" ::"r"(8u + t / 128u) : "memory");
}
__device__ inline void gshmemx_barrier_warpgroup(gshmem_team_t t) {
  gshmemi_warpgroup_bar();
  const unsigned r = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if (r % 128u == 0) gshmem::dev::teamBarrier<gshmem::kScopeThread>(GSHMEMI_H, t, true);
  gshmemi_warpgroup_bar();
}
