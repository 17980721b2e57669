// Layer 3, the host stream-ordered forms of the typed and sized RMA, signals and waits (gshmemx_*_on_stream).
// Contiguous puts and gets forward to the library's byte forms (gshmemx_putmem_on_stream & co.); the forms with a
// value, a stride or a wait are a one-block kernel of this translation unit on `stream`, running the device free
// function of the same name (so they take the same paths: P2P stores or the proxy ring). The _nbi forms are the
// blocking ones: both are complete, in stream order, when later work on the stream runs. Pointers a kernel reads
// on the GPU (ivars, status, cmp_values) must be device-accessible. Included by free__funcs.cuh.
#pragma once
#include <cstdio>

#include "gshmem/device/impl/types__list.cuh"

namespace {
constexpr int kGshmemiStreamThreads = 256;

/// After a launch: a launch that failed (no device heap, bad stream) ends the job with one line.
inline void gshmemi_stream_check(const char* call) {
  const cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return;
  fprintf(stderr, "gshmem: PE %d: %s: kernel launch failed (%s); call it after shmem_init on a PE with a GPU\n",
          shmem_my_pe(), call, cudaGetErrorString(e));
  shmem_global_exit(1);
}
/// This host thread's pinned word for the value a g_on_stream kernel returns (allocated on first use, kept).
inline void* gshmemi_stream_result() {
  static thread_local void* r = nullptr;
  if (r == nullptr && cudaMallocHost(&r, sizeof(gshmemi_b128)) != cudaSuccess) r = nullptr;
  return r;
}

template <typename T>
__global__ void gshmemi_p_kernel(T* d, T v, int pe) { gshmem::dev::p<T>(GSHMEMI_H, d, v, pe); }
template <typename T>
__global__ void gshmemi_g_kernel(T* r, const T* s, int pe) { *r = gshmem::dev::g<T>(GSHMEMI_H, s, pe); }
template <typename E>
__global__ void gshmemi_istride_kernel(bool put, E* d, const E* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {
  if (put) gshmem::dev::iput<gshmem::kScopeBlock, E>(GSHMEMI_H, d, s, dst, sst, n, pe);
  else gshmem::dev::iget<gshmem::kScopeBlock, E>(GSHMEMI_H, d, s, dst, sst, n, pe);
}
__global__ void gshmemi_signal_op_kernel(uint64_t* sig, uint64_t v, int op, int pe) {
  gshmem::dev::signalOp(GSHMEMI_H, sig, v, op, pe);
}
template <typename T>
__global__ void gshmemi_wait_all_kernel(T* iv, size_t n, const int* st, int cmp, const T* vs, T v) {
  gshmem::dev::waitAll<T>(iv, n, st, cmp, vs, v);
}

template <typename T>
void gshmemi_p_on_stream(const char* call, T* d, T v, int pe, cudaStream_t st) {
  gshmemi_p_kernel<T><<<1, 1, 0, st>>>(d, v, pe);
  gshmemi_stream_check(call);
}
template <typename T>
T gshmemi_g_on_stream(const char* call, const T* s, int pe, cudaStream_t st) {
  T* r = static_cast<T*>(gshmemi_stream_result());
  if (r == nullptr) {
    fprintf(stderr, "gshmem: PE %d: %s: no pinned host memory for the result\n", shmem_my_pe(), call);
    shmem_global_exit(1);
  }
  gshmemi_g_kernel<T><<<1, 1, 0, st>>>(r, s, pe);
  gshmemi_stream_check(call);
  cudaStreamSynchronize(st);
  return *r;
}
template <typename E>
void gshmemi_istride_on_stream(const char* call, bool put, E* d, const E* s, ptrdiff_t dst, ptrdiff_t sst, size_t n,
                               int pe, cudaStream_t st) {
  gshmemi_istride_kernel<E><<<1, kGshmemiStreamThreads, 0, st>>>(put, d, s, dst, sst, n, pe);
  gshmemi_stream_check(call);
}
template <typename T>
void gshmemi_wait_all_on_stream(const char* call, T* iv, size_t n, const int* sts, int cmp, const T* vs, T v,
                                cudaStream_t st) {
  gshmemi_wait_all_kernel<T><<<1, 1, 0, st>>>(iv, n, sts, cmp, vs, v);
  gshmemi_stream_check(call);
}
}  // namespace

inline void gshmemx_putmem_signal_nbi_on_stream(void* d, const void* s, size_t n, uint64_t* sig, uint64_t v, int op,
                                                int pe, cudaStream_t st) {
  gshmemx_putmem_signal_on_stream(d, s, n, sig, v, op, pe, st);
}
inline void gshmemx_signal_op_on_stream(uint64_t* sig, uint64_t v, int op, int pe, cudaStream_t st) {
  gshmemi_signal_op_kernel<<<1, 1, 0, st>>>(sig, v, op, pe);
  gshmemi_stream_check("gshmemx_signal_op_on_stream");
}

// ---- typed: gshmemx_T_{put,get}[_nbi]_on_stream, p, g, iput, iget, put_signal[_nbi]
#define GSHMEMI_DEF_RMA_STREAM(N, T)                                                                               \
  inline void gshmemx_##N##_put_on_stream(T* d, const T* s, size_t n, int pe, cudaStream_t st) {                  \
    gshmemx_putmem_on_stream(d, s, n * sizeof(T), pe, st);                                                         \
  }                                                                                                                \
  inline void gshmemx_##N##_get_on_stream(T* d, const T* s, size_t n, int pe, cudaStream_t st) {                  \
    gshmemx_getmem_on_stream(d, s, n * sizeof(T), pe, st);                                                         \
  }                                                                                                                \
  inline void gshmemx_##N##_put_nbi_on_stream(T* d, const T* s, size_t n, int pe, cudaStream_t st) {              \
    gshmemx_putmem_on_stream(d, s, n * sizeof(T), pe, st);                                                         \
  }                                                                                                                \
  inline void gshmemx_##N##_get_nbi_on_stream(T* d, const T* s, size_t n, int pe, cudaStream_t st) {              \
    gshmemx_getmem_on_stream(d, s, n * sizeof(T), pe, st);                                                         \
  }                                                                                                                \
  inline void gshmemx_##N##_p_on_stream(T* d, const T v, int pe, cudaStream_t st) {                               \
    gshmemi_p_on_stream<T>("gshmemx_" #N "_p_on_stream", d, v, pe, st);                                            \
  }                                                                                                                \
  inline T gshmemx_##N##_g_on_stream(const T* s, int pe, cudaStream_t st) {                                       \
    return gshmemi_g_on_stream<T>("gshmemx_" #N "_g_on_stream", s, pe, st);                                        \
  }                                                                                                                \
  inline void gshmemx_##N##_iput_on_stream(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe,      \
                                           cudaStream_t st) {                                                      \
    gshmemi_istride_on_stream<T>("gshmemx_" #N "_iput_on_stream", true, d, s, dst, sst, n, pe, st);                \
  }                                                                                                                \
  inline void gshmemx_##N##_iget_on_stream(T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe,      \
                                           cudaStream_t st) {                                                      \
    gshmemi_istride_on_stream<T>("gshmemx_" #N "_iget_on_stream", false, d, s, dst, sst, n, pe, st);               \
  }                                                                                                                \
  inline void gshmemx_##N##_put_signal_on_stream(T* d, const T* s, size_t n, uint64_t* sig, uint64_t v, int op,   \
                                                 int pe, cudaStream_t st) {                                        \
    gshmemx_putmem_signal_on_stream(d, s, n * sizeof(T), sig, v, op, pe, st);                                      \
  }                                                                                                                \
  inline void gshmemx_##N##_put_signal_nbi_on_stream(T* d, const T* s, size_t n, uint64_t* sig, uint64_t v,       \
                                                     int op, int pe, cudaStream_t st) {                            \
    gshmemx_putmem_signal_on_stream(d, s, n * sizeof(T), sig, v, op, pe, st);                                      \
  }
GSHMEMI_RMA_TYPES(GSHMEMI_DEF_RMA_STREAM)

// ---- sized: gshmemx_putB/getB[_nbi]_on_stream, iputB, igetB, putB_signal[_nbi]_on_stream
#define GSHMEMI_DEF_SIZED_STREAM(B, E)                                                                             \
  inline void gshmemx_put##B##_on_stream(void* d, const void* s, size_t n, int pe, cudaStream_t st) {             \
    gshmemx_putmem_on_stream(d, s, n * sizeof(E), pe, st);                                                         \
  }                                                                                                                \
  inline void gshmemx_get##B##_on_stream(void* d, const void* s, size_t n, int pe, cudaStream_t st) {             \
    gshmemx_getmem_on_stream(d, s, n * sizeof(E), pe, st);                                                         \
  }                                                                                                                \
  inline void gshmemx_put##B##_nbi_on_stream(void* d, const void* s, size_t n, int pe, cudaStream_t st) {         \
    gshmemx_putmem_on_stream(d, s, n * sizeof(E), pe, st);                                                         \
  }                                                                                                                \
  inline void gshmemx_get##B##_nbi_on_stream(void* d, const void* s, size_t n, int pe, cudaStream_t st) {         \
    gshmemx_getmem_on_stream(d, s, n * sizeof(E), pe, st);                                                         \
  }                                                                                                                \
  inline void gshmemx_iput##B##_on_stream(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe, \
                                          cudaStream_t st) {                                                       \
    gshmemi_istride_on_stream<E>("gshmemx_iput" #B "_on_stream", true, static_cast<E*>(d),                         \
                                 static_cast<const E*>(s), dst, sst, n, pe, st);                                   \
  }                                                                                                                \
  inline void gshmemx_iget##B##_on_stream(void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe, \
                                          cudaStream_t st) {                                                       \
    gshmemi_istride_on_stream<E>("gshmemx_iget" #B "_on_stream", false, static_cast<E*>(d),                        \
                                 static_cast<const E*>(s), dst, sst, n, pe, st);                                   \
  }                                                                                                                \
  inline void gshmemx_put##B##_signal_on_stream(void* d, const void* s, size_t n, uint64_t* sig, uint64_t v,      \
                                                int op, int pe, cudaStream_t st) {                                 \
    gshmemx_putmem_signal_on_stream(d, s, n * sizeof(E), sig, v, op, pe, st);                                      \
  }                                                                                                                \
  inline void gshmemx_put##B##_signal_nbi_on_stream(void* d, const void* s, size_t n, uint64_t* sig, uint64_t v,  \
                                                    int op, int pe, cudaStream_t st) {                             \
    gshmemx_putmem_signal_on_stream(d, s, n * sizeof(E), sig, v, op, pe, st);                                      \
  }
GSHMEMI_SIZED(GSHMEMI_DEF_SIZED_STREAM)

// ---- waits: gshmemx_T_wait_until_on_stream, _all_on_stream, _all_vector_on_stream
#define GSHMEMI_DEF_WAIT_STREAM(N, T)                                                                              \
  inline void gshmemx_##N##_wait_until_on_stream(T* iv, int cmp, T v, cudaStream_t st) {                          \
    gshmemi_wait_all_on_stream<T>("gshmemx_" #N "_wait_until_on_stream", iv, 1, nullptr, cmp, nullptr, v, st);     \
  }                                                                                                                \
  inline void gshmemx_##N##_wait_until_all_on_stream(T* iv, size_t n, const int* sts, int cmp, T v,               \
                                                     cudaStream_t st) {                                            \
    gshmemi_wait_all_on_stream<T>("gshmemx_" #N "_wait_until_all_on_stream", iv, n, sts, cmp, nullptr, v, st);     \
  }                                                                                                                \
  inline void gshmemx_##N##_wait_until_all_vector_on_stream(T* iv, size_t n, const int* sts, int cmp, T* vs,      \
                                                            cudaStream_t st) {                                     \
    gshmemi_wait_all_on_stream<T>("gshmemx_" #N "_wait_until_all_vector_on_stream", iv, n, sts, cmp, vs, static_cast<T>(0), st); \
  }
GSHMEMI_WAIT_TYPES(GSHMEMI_DEF_WAIT_STREAM)
