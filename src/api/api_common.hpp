// Shared by the public C API files: the context argument check and the macro that stamps a routine and its
// shmem_ctx_ twin. Private to src/api/api_*.cpp.
#pragma once
#include "core/api.hpp"
#include "core/rma/fault.hpp"
#include "shmem.h"

namespace gshmem {

/// The internal context behind a public handle; fatal for SHMEM_CTX_INVALID.
inline const gshmem_ctx* ctxArg(const char* call, shmem_ctx_t ctx) {
  if (GSHMEM_UNLIKELY(ctx == SHMEM_CTX_INVALID)) fatal(call, "the context is SHMEM_CTX_INVALID");
  if (GSHMEM_UNLIKELY(ctx != SHMEM_CTX_DEFAULT && !ctxLive(ctx))) errorBadCtx(call, ctx);
  return ctx;
}

/// For the calls that do nothing on SHMEM_CTX_INVALID (fence, quiet, destroy, get_team): nullptr for it and for a
/// context destroyed with its team, which acts as it does; else as ctxArg.
inline const gshmem_ctx* ctxArgOrInvalid(const char* call, shmem_ctx_t ctx) {
  if (ctx == SHMEM_CTX_INVALID) return nullptr;
  if (GSHMEM_UNLIKELY(ctx != SHMEM_CTX_DEFAULT && !ctxLive(ctx))) {
    if (ctxOrphaned(ctx)) return nullptr;
    errorBadCtx(call, ctx);
  }
  return ctx;
}

/// The objects behind SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED and SHMEM_CTX_DEFAULT (api_objects.cpp), for runtimeInit.
inline PredefinedObjects predefinedObjects() {
  return PredefinedObjects{&gshmem_team_world_obj, &gshmem_team_shared_obj, &gshmem_ctx_default_obj};
}

}  // namespace gshmem

#define GSHMEM_STRIP(...) __VA_ARGS__
// GSHMEM_API2(RET, NAME, (params), expr): defines shmem_NAME(params) and shmem_ctx_NAME(ctx, params), both
// returning `expr`, which may use `call_` (the public name) and `ctx_` (the internal context). The thread is marked
// as inside `call_` meanwhile (core/rma/fault.hpp), so a bad local buffer is reported as this call's error.
#define GSHMEM_API2(RET, NAME, PARAMS, ...)                    \
  RET shmem_##NAME PARAMS {                                    \
    const char* const call_ = "shmem_" #NAME;                  \
    const gshmem::ApiCallScope scope_(call_);                  \
    const gshmem_ctx* const ctx_ = SHMEM_CTX_DEFAULT;          \
    return __VA_ARGS__;                                        \
  }                                                            \
  RET shmem_ctx_##NAME(shmem_ctx_t ctx, GSHMEM_STRIP PARAMS) { \
    const char* const call_ = "shmem_ctx_" #NAME;              \
    const gshmem::ApiCallScope scope_(call_);                  \
    const gshmem_ctx* const ctx_ = gshmem::ctxArg(call_, ctx); \
    return __VA_ARGS__;                                        \
  }
