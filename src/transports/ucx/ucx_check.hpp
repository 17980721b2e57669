// ucs_status_t -> gshmem::Status, and GSHMEM_UCS_CHECK: log a failing UCX call once, where it is detected, and
// return the mapped Status.
#pragma once
#include <ucp/api/ucp.h>

#include "base/log.hpp"
#include "base/status.hpp"

namespace gshmem {

/// Map a UCX status onto the gshmem groups: peer failures are RemoteError, a timed-out wait Timeout.
inline Status ucsToStatus(ucs_status_t s) {
  switch (s) {
    case UCS_OK:
      return Status::Ok;
    case UCS_INPROGRESS:
      return Status::InProgress;
    case UCS_ERR_NO_RESOURCE:
      return Status::NoResource;
    case UCS_ERR_NO_MEMORY:
      return Status::NoMemory;
    case UCS_ERR_INVALID_PARAM:
      return Status::InvalidArgument;
    case UCS_ERR_UNSUPPORTED:
    case UCS_ERR_NO_DEVICE:
      return Status::Unsupported;
    case UCS_ERR_TIMED_OUT:
    case UCS_ERR_ENDPOINT_TIMEOUT:
      return Status::Timeout;
    case UCS_ERR_UNREACHABLE:
    case UCS_ERR_CONNECTION_RESET:
    case UCS_ERR_NOT_CONNECTED:
    case UCS_ERR_REJECTED:
    case UCS_ERR_CANCELED:
    case UCS_ERR_IO_ERROR:
      return Status::RemoteError;
    default:
      return Status::Internal;
  }
}

}  // namespace gshmem

/// Evaluate a ucs_status_t expression; on failure log "<call> failed: <ucs string>" and return the mapped Status.
#define GSHMEM_UCS_CHECK(expr)                                                                 \
  do {                                                                                         \
    ucs_status_t _us = (expr);                                                                 \
    if (_us != UCS_OK) {                                                                       \
      GSHMEM_LOG_ERROR(UCX, "%s failed: %s", #expr, ucs_status_string(_us));                   \
      return ::gshmem::ucsToStatus(_us);                                                       \
    }                                                                                          \
  } while (0)
