// CUDA runtime failures as Status. Header-only, for the translation units built against the CUDA runtime.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "base/log.hpp"
#include "base/status.hpp"
#include "base/str_format.hpp"

namespace gshmem {

/// Log "<who>: <what> failed: <CUDA's reason>" once, where the failure is detected (subsystem TRANSPORT), and
/// return Status::SystemError.
inline Status cudaFailed(const char* who, const char* what, cudaError_t e) {
  GSHMEM_LOG_ERROR(TRANSPORT, "%s: %s failed: %s", who, what, cudaGetErrorString(e));
  return Status::SystemError;
}

/// A CUDA driver function through cudart's entry-point lookup (no link against libcuda): true and *out set when
/// this driver has it, false (and the sticky CUDA error cleared) when it does not.
template <class F>
bool driverEntry(const char* name, F* out) {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q{};
  if (cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess || f == nullptr) {
    cudaGetLastError();
    return false;
  }
  *out = reinterpret_cast<F>(f);
  return true;
}

/// For a call whose caller prints the reason itself (an init phase): "<what> failed: <CUDA's reason>" into *err,
/// and Status::SystemError.
inline Status cudaFailedWhy(std::string* err, const char* what, cudaError_t e) {
  *err = strFormat("%s failed: %s", what, cudaGetErrorString(e));
  return Status::SystemError;
}

}  // namespace gshmem

/// Return ::gshmem::cudaFailed(who, #expr, e) from the enclosing Status function when @p expr fails.
#define GSHMEM_CUDA_TRY(who, expr)                                                \
  do {                                                                            \
    cudaError_t e_ = (expr);                                                      \
    if (e_ != cudaSuccess) return ::gshmem::cudaFailed((who), #expr, e_);         \
  } while (0)

/// Return ::gshmem::cudaFailedWhy(err, #expr, e) from the enclosing Status function when @p expr fails.
#define GSHMEM_CUDA_TRY_WHY(err, expr)                                            \
  do {                                                                            \
    cudaError_t e_ = (expr);                                                      \
    if (e_ != cudaSuccess) return ::gshmem::cudaFailedWhy((err), #expr, e_);      \
  } while (0)
