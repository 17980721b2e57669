// Status codes used inside gshmem. Public C calls turn a failure into a one-line fatal error.
#pragma once

namespace gshmem {

/// Grouped by the largest entity permanently affected (UCX style).
enum class [[nodiscard]] Status : int {
  Ok = 0,
  InProgress = 1,       ///< operation posted, completes later
  NoResource = -1,      ///< transient back-pressure; retry
  InvalidArgument = -2, ///< the caller's input is wrong
  NoMemory = -3,        ///< allocation failed (heap or system)
  Unsupported = -4,     ///< not built or not available here
  SystemError = -5,     ///< a syscall failed; errno logged at detection
  RemoteError = -6,     ///< a peer failed or is unreachable
  Timeout = -7,
  Internal = -8,
};

const char* statusString(Status s);

inline bool isError(Status s) { return static_cast<int>(s) < 0; }

}  // namespace gshmem

/// Propagate a failing Status, leaving a one-line trail at DEBUG level.
#define GSHMEM_CHECK(expr)                                                       \
  do {                                                                           \
    ::gshmem::Status _s = (expr);                                                \
    if (::gshmem::isError(_s)) {                                                 \
      GSHMEM_LOG_DEBUG(INIT, "%s:%d -> %s", __FILE__, __LINE__, ::gshmem::statusString(_s)); \
      return _s;                                                                 \
    }                                                                            \
  } while (0)
