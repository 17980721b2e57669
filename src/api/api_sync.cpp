// Public C API: point-to-point synchronization (wait_until/test and their all/any/some[_vector] forms), signals,
// fence/quiet and barriers. Thin forwards to core/ops.hpp and core/api.hpp.
#include "core/api.hpp"
#include "api/api_common.hpp"
#include "shmem.h"

namespace {

// shmem_ctx_fence/shmem_ctx_quiet on SHMEM_CTX_INVALID perform no operation (OpenSHMEM 1.5): a PE outside a team
// holds SHMEM_CTX_INVALID for that team's context and may still quiet it, as the specification's team-context
// example does. A context destroyed with its team acts the same. RMA and AMO calls on either stay fatal
// (api_rma.cpp, api_amo.cpp).

/// The cmp_values array of a _vector form: nullptr would silently select the scalar compare of ops.hpp.
template <typename T>
inline const T* vecArg(const char* call, const T* values, size_t nelems) {
  if (GSHMEM_UNLIKELY(values == nullptr && nelems)) gshmem::ops::errorNull(call, "cmp_values");
  return values;
}

}  // namespace

#define GSHMEM_STRIP(...) __VA_ARGS__
// GSHMEM_API1(RET, NAME, (params), expr): defines shmem_NAME(params) returning `expr`, which may use `call_`.
#define GSHMEM_API1(RET, NAME, PARAMS, ...)   \
  RET shmem_##NAME PARAMS {                   \
    const char* const call_ = "shmem_" #NAME; \
    return __VA_ARGS__;                       \
  }
#define GSHMEM_ZERO(T) static_cast<T>(0)  // `T{}` does not parse for multi-word types such as `long long`

using namespace gshmem::ops;

extern "C" {

// ---- SYNC14: value forms pass cmp_values == nullptr (scalar compare), vector forms pass the array.
#define GSHMEM_DEF_SYNC(T, N)                                                                                          \
  GSHMEM_API1(void, N##_wait_until, (T * ivar, int cmp, T cmp_value), waitUntil<T>(call_, ivar, cmp, cmp_value))       \
  GSHMEM_API1(int, N##_test, (T * ivar, int cmp, T cmp_value), test<T>(call_, ivar, cmp, cmp_value))                   \
  GSHMEM_API1(void, N##_wait_until_all, (T * ivars, size_t nelems, const int* status, int cmp, T cmp_value),           \
              waitUntilAll<T>(call_, ivars, nelems, status, cmp, nullptr, cmp_value))                                  \
  GSHMEM_API1(size_t, N##_wait_until_any, (T * ivars, size_t nelems, const int* status, int cmp, T cmp_value),         \
              waitUntilAny<T>(call_, ivars, nelems, status, cmp, nullptr, cmp_value))                              \
  GSHMEM_API1(size_t, N##_wait_until_some,                                                                             \
              (T * ivars, size_t nelems, size_t * indices, const int* status, int cmp, T cmp_value),                   \
              waitUntilSome<T>(call_, ivars, nelems, indices, status, cmp, nullptr, cmp_value))                        \
  GSHMEM_API1(void, N##_wait_until_all_vector, (T * ivars, size_t nelems, const int* status, int cmp, T* cmp_values),  \
              waitUntilAll<T>(call_, ivars, nelems, status, cmp, vecArg(call_, cmp_values, nelems), GSHMEM_ZERO(T)))   \
  GSHMEM_API1(                                                                                                         \
      size_t, N##_wait_until_any_vector, (T * ivars, size_t nelems, const int* status, int cmp, T* cmp_values),        \
      waitUntilAny<T>(call_, ivars, nelems, status, cmp, vecArg(call_, cmp_values, nelems), GSHMEM_ZERO(T)))       \
  GSHMEM_API1(                                                                                                         \
      size_t, N##_wait_until_some_vector,                                                                              \
      (T * ivars, size_t nelems, size_t * indices, const int* status, int cmp, T* cmp_values),                         \
      waitUntilSome<T>(call_, ivars, nelems, indices, status, cmp, vecArg(call_, cmp_values, nelems), GSHMEM_ZERO(T))) \
  GSHMEM_API1(int, N##_test_all, (T * ivars, size_t nelems, const int* status, int cmp, T cmp_value),                  \
              testAll<T>(call_, ivars, nelems, status, cmp, nullptr, cmp_value))                                       \
  GSHMEM_API1(size_t, N##_test_any, (T * ivars, size_t nelems, const int* status, int cmp, T cmp_value),               \
              testAny<T>(call_, ivars, nelems, status, cmp, nullptr, cmp_value))                                   \
  GSHMEM_API1(size_t, N##_test_some,                                                                                   \
              (T * ivars, size_t nelems, size_t * indices, const int* status, int cmp, T cmp_value),                   \
              testSome<T>(call_, ivars, nelems, indices, status, cmp, nullptr, cmp_value))                             \
  GSHMEM_API1(int, N##_test_all_vector, (T * ivars, size_t nelems, const int* status, int cmp, T* cmp_values),         \
              testAll<T>(call_, ivars, nelems, status, cmp, vecArg(call_, cmp_values, nelems), GSHMEM_ZERO(T)))        \
  GSHMEM_API1(size_t, N##_test_any_vector, (T * ivars, size_t nelems, const int* status, int cmp, T* cmp_values),      \
              testAny<T>(call_, ivars, nelems, status, cmp, vecArg(call_, cmp_values, nelems), GSHMEM_ZERO(T)))    \
  GSHMEM_API1(                                                                                                         \
      size_t, N##_test_some_vector,                                                                                    \
      (T * ivars, size_t nelems, size_t * indices, const int* status, int cmp, T* cmp_values),                         \
      testSome<T>(call_, ivars, nelems, indices, status, cmp, vecArg(call_, cmp_values, nelems), GSHMEM_ZERO(T)))
GSHMEM_SYNC_TYPES(GSHMEM_DEF_SYNC)

// ---- signals
uint64_t shmem_signal_fetch(const uint64_t* sig_addr) { return signalFetch("shmem_signal_fetch", sig_addr); }
uint64_t shmem_signal_wait_until(uint64_t* sig_addr, int cmp, uint64_t cmp_value) {
  return signalWaitUntil("shmem_signal_wait_until", sig_addr, cmp, cmp_value);
}

// ---- ordering and completion
void shmem_fence(void) {
  gshmem::ops::requireInit("shmem_fence");
  fence(SHMEM_CTX_DEFAULT);
}
void shmem_ctx_fence(shmem_ctx_t ctx) {
  if (const gshmem_ctx* c = gshmem::ctxArgOrInvalid("shmem_ctx_fence", ctx)) fence(c);
}
void shmem_quiet(void) {
  gshmem::ops::requireInit("shmem_quiet");
  quiet(SHMEM_CTX_DEFAULT);
}
void shmem_ctx_quiet(shmem_ctx_t ctx) {
  if (const gshmem_ctx* c = gshmem::ctxArgOrInvalid("shmem_ctx_quiet", ctx)) quiet(c);
}

// ---- barriers
void shmem_barrier_all(void) { gshmem::barrierAll("shmem_barrier_all"); }
void shmem_sync_all(void) { gshmem::teamSync("shmem_sync_all", SHMEM_TEAM_WORLD); }
int shmem_team_sync(shmem_team_t team) {
  gshmem::teamSync("shmem_team_sync", team);
  return 0;
}

}  // extern "C"
