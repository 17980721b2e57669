// Public C API: names deprecated by OpenSHMEM 1.5 (pre-1.2 setup and memory, pre-1.4 AMO names,
// shmem_TYPENAME_wait, cache management), each forwarding to the same core path as its replacement.
// Deprecated collectives live with the collectives.
#include "api/api_common.hpp"
#include "collectives/coll.hpp"
#include "core/api.hpp"
#include "shmem.h"

#define GSHMEM_ZERO(T) static_cast<T>(0)  // `T{}` does not parse for multi-word types such as `long long`

using gshmem::AmoOp;
using gshmem::ops::amo;

extern "C" {

// ---- setup and memory
void start_pes(int npes) {
  (void)npes;  // the PE count comes from the launcher
  gshmem::runtimeInit("start_pes", SHMEM_THREAD_SINGLE, gshmem::predefinedObjects());
  gshmem::coll::infoReport();
}
int _my_pe(void) { return gshmem::g_rt.my_pe; }
int _num_pes(void) { return gshmem::g_rt.n_pes; }
void* shmalloc(size_t size) { return gshmem::heapAlloc("shmalloc", size, 64, false); }
void shfree(void* ptr) { gshmem::heapFree("shfree", ptr); }
void* shmemalign(size_t alignment, size_t size) {
  return gshmem::heapAlloc("shmemalign", size, alignment, false);  // as shmem_align
}
void* shrealloc(void* ptr, size_t size) { return gshmem::heapRealloc("shrealloc", ptr, size); }

// ---- cache management: the memory is always coherent
void shmem_clear_cache_inv(void) {}
void shmem_set_cache_inv(void) {}
void shmem_clear_cache_line_inv(void* dest) { (void)dest; }
void shmem_set_cache_line_inv(void* dest) { (void)dest; }
void shmem_udcflush(void) {}
void shmem_udcflush_line(void* dest) { (void)dest; }

// ---- AMO: shmem_TYPENAME_{fetch,set,swap} and shmem_TYPENAME_{cswap,finc,inc,fadd,add}
#define GSHMEM_AMO_CALL(OP, DEST, VALUE, COND, PE) amo(call, SHMEM_CTX_DEFAULT, AmoOp::OP, DEST, VALUE, COND, PE)
#define GSHMEM_DEF_DEPR_AMO_EXT(T, N)                                                          \
  T shmem_##N##_fetch(const T* source, int pe) {                                               \
    const char* call = "shmem_" #N "_fetch";                                                   \
    return GSHMEM_AMO_CALL(Fetch, const_cast<T*>(source), GSHMEM_ZERO(T), GSHMEM_ZERO(T), pe); \
  }                                                                                            \
  void shmem_##N##_set(T* dest, T value, int pe) {                                             \
    const char* call = "shmem_" #N "_set";                                                     \
    GSHMEM_AMO_CALL(Set, dest, value, GSHMEM_ZERO(T), pe);                                     \
  }                                                                                            \
  T shmem_##N##_swap(T* dest, T value, int pe) {                                               \
    const char* call = "shmem_" #N "_swap";                                                    \
    return GSHMEM_AMO_CALL(Swap, dest, value, GSHMEM_ZERO(T), pe);                             \
  }
#define GSHMEM_DEF_DEPR_AMO_STD(T, N)                                           \
  T shmem_##N##_cswap(T* dest, T cond, T value, int pe) {                       \
    const char* call = "shmem_" #N "_cswap";                                    \
    return GSHMEM_AMO_CALL(CompareSwap, dest, value, cond, pe);                 \
  }                                                                             \
  T shmem_##N##_finc(T* dest, int pe) {                                         \
    const char* call = "shmem_" #N "_finc";                                     \
    return GSHMEM_AMO_CALL(FetchInc, dest, GSHMEM_ZERO(T), GSHMEM_ZERO(T), pe); \
  }                                                                             \
  void shmem_##N##_inc(T* dest, int pe) {                                       \
    const char* call = "shmem_" #N "_inc";                                      \
    GSHMEM_AMO_CALL(Inc, dest, GSHMEM_ZERO(T), GSHMEM_ZERO(T), pe);             \
  }                                                                             \
  T shmem_##N##_fadd(T* dest, T value, int pe) {                                \
    const char* call = "shmem_" #N "_fadd";                                     \
    return GSHMEM_AMO_CALL(FetchAdd, dest, value, GSHMEM_ZERO(T), pe);          \
  }                                                                             \
  void shmem_##N##_add(T* dest, T value, int pe) {                              \
    const char* call = "shmem_" #N "_add";                                      \
    GSHMEM_AMO_CALL(Add, dest, value, GSHMEM_ZERO(T), pe);                      \
  }
GSHMEM_DEPR_AMO_EXT_TYPES(GSHMEM_DEF_DEPR_AMO_EXT)
GSHMEM_DEPR_AMO_STD_TYPES(GSHMEM_DEF_DEPR_AMO_STD)

// ---- shmem_TYPENAME_wait: block while *ivar == cmp_value
#define GSHMEM_DEF_DEPR_WAIT(T, N)                                                 \
  void shmem_##N##_wait(T* ivar, T cmp_value) {                                    \
    gshmem::ops::waitUntil<T>("shmem_" #N "_wait", ivar, SHMEM_CMP_NE, cmp_value); \
  }
GSHMEM_DEPR_WAIT_TYPES(GSHMEM_DEF_DEPR_WAIT)

}  // extern "C"
