// Public C API: remote memory access (typed, sized and byte put/get, strided, nbi, put-with-signal).
// Each routine is a thin forward to the inline templates of core/ops.hpp: no allocation, lock or syscall here.
// The _nbi forms share the blocking path: the core completes transfers before returning.
#include "api/api_common.hpp"

using gshmem::ops::putSignal;
// The public calls reach the user range only (ops::Reach): the runtime's control area is not theirs.
namespace {
constexpr auto kUser = gshmem::ops::Reach::User;
template <typename... A>
__attribute__((always_inline)) inline void put(A... a) { gshmem::ops::put<kUser>(a...); }
template <typename... A>
__attribute__((always_inline)) inline void get(A... a) { gshmem::ops::get<kUser>(a...); }
template <typename... A>
__attribute__((always_inline)) inline void iput(A... a) { gshmem::ops::iput<kUser>(a...); }
template <typename... A>
__attribute__((always_inline)) inline void iget(A... a) { gshmem::ops::iget<kUser>(a...); }
}  // namespace

// shmem_[ctx_]NAME(dest, source, nelems, sig_addr, signal, sig_op, pe) for elements of ESIZE bytes.
#define GSHMEM_DEF_SIGNAL(NAME, DT, ESIZE)                                                                           \
  GSHMEM_API2(void, NAME,                                                                                            \
              (DT * dest, const DT* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe), \
              putSignal(call_, ctx_, dest, source, nelems*(ESIZE), sig_addr, signal, sig_op, pe))

extern "C" {

// ---- typed: shmem_[ctx_]TYPENAME_{put,get,put_nbi,get_nbi,p,g,iput,iget,put_signal,put_signal_nbi}
#define GSHMEM_DEF_RMA_TYPED(T, N)                                                                              \
  GSHMEM_API2(void, N##_put, (T * dest, const T* source, size_t nelems, int pe),                                \
              put(call_, ctx_, dest, source, nelems * sizeof(T), pe))                                           \
  GSHMEM_API2(void, N##_get, (T * dest, const T* source, size_t nelems, int pe),                                \
              get(call_, ctx_, dest, source, nelems * sizeof(T), pe))                                           \
  GSHMEM_API2(void, N##_put_nbi, (T * dest, const T* source, size_t nelems, int pe),                            \
              put(call_, ctx_, dest, source, nelems * sizeof(T), pe))                                           \
  GSHMEM_API2(void, N##_get_nbi, (T * dest, const T* source, size_t nelems, int pe),                            \
              get(call_, ctx_, dest, source, nelems * sizeof(T), pe))                                           \
  GSHMEM_API2(void, N##_p, (T * dest, T value, int pe), gshmem::ops::p<T>(call_, ctx_, dest, value, pe))        \
  GSHMEM_API2(T, N##_g, (const T* source, int pe), gshmem::ops::g<T>(call_, ctx_, source, pe))                  \
  GSHMEM_API2(void, N##_iput, (T * dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
              iput(call_, ctx_, dest, source, dst, sst, nelems, sizeof(T), pe))                                 \
  GSHMEM_API2(void, N##_iget, (T * dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
              iget(call_, ctx_, dest, source, dst, sst, nelems, sizeof(T), pe))                                 \
  GSHMEM_DEF_SIGNAL(N##_put_signal, T, sizeof(T))                                                               \
  GSHMEM_DEF_SIGNAL(N##_put_signal_nbi, T, sizeof(T))
GSHMEM_RMA_TYPES(GSHMEM_DEF_RMA_TYPED)

// ---- sized: shmem_[ctx_]{put,get}BITS[_nbi], shmem_[ctx_]i{put,get}BITS, shmem_[ctx_]putBITS_signal[_nbi]
#define GSHMEM_DEF_RMA_SIZED(BITS, BYTES)                                                                              \
  GSHMEM_API2(void, put##BITS, (void* dest, const void* source, size_t nelems, int pe),                                \
              put(call_, ctx_, dest, source, nelems*(BYTES), pe))                                                      \
  GSHMEM_API2(void, get##BITS, (void* dest, const void* source, size_t nelems, int pe),                                \
              get(call_, ctx_, dest, source, nelems*(BYTES), pe))                                                      \
  GSHMEM_API2(void, put##BITS##_nbi, (void* dest, const void* source, size_t nelems, int pe),                          \
              put(call_, ctx_, dest, source, nelems*(BYTES), pe))                                                      \
  GSHMEM_API2(void, get##BITS##_nbi, (void* dest, const void* source, size_t nelems, int pe),                          \
              get(call_, ctx_, dest, source, nelems*(BYTES), pe))                                                      \
  GSHMEM_API2(void, iput##BITS, (void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
              iput(call_, ctx_, dest, source, dst, sst, nelems, (BYTES), pe))                                          \
  GSHMEM_API2(void, iget##BITS, (void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
              iget(call_, ctx_, dest, source, dst, sst, nelems, (BYTES), pe))                                          \
  GSHMEM_DEF_SIGNAL(put##BITS##_signal, void, (BYTES))                                                                 \
  GSHMEM_DEF_SIGNAL(put##BITS##_signal_nbi, void, (BYTES))
GSHMEM_SIZED_RMA(GSHMEM_DEF_RMA_SIZED)

// ---- bytes: shmem_[ctx_]{putmem,getmem}[_nbi], shmem_[ctx_]putmem_signal[_nbi]
GSHMEM_API2(void, putmem, (void* dest, const void* source, size_t nelems, int pe),
            put(call_, ctx_, dest, source, nelems, pe))
GSHMEM_API2(void, getmem, (void* dest, const void* source, size_t nelems, int pe),
            get(call_, ctx_, dest, source, nelems, pe))
GSHMEM_API2(void, putmem_nbi, (void* dest, const void* source, size_t nelems, int pe),
            put(call_, ctx_, dest, source, nelems, pe))
GSHMEM_API2(void, getmem_nbi, (void* dest, const void* source, size_t nelems, int pe),
            get(call_, ctx_, dest, source, nelems, pe))
GSHMEM_DEF_SIGNAL(putmem_signal, void, 1)
GSHMEM_DEF_SIGNAL(putmem_signal_nbi, void, 1)

}  // extern "C"
