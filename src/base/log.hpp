// Logging with a level, a subsystem mask and a PE prefix: "gshmem: PE 3: ...".
#pragma once
#include <cstdarg>

namespace gshmem {

enum class LogLevel : int { None = 0, Error, Warn, Info, Debug, Trace };

enum LogSubsys : unsigned {
  kLogINIT = 1u << 0,
  kLogMEM = 1u << 1,
  kLogTRANSPORT = 1u << 2,
  kLogSHM = 1u << 3,
  kLogUCX = 1u << 4,
  kLogCOLL = 1u << 5,
  kLogTEAM = 1u << 6,
  kLogPROXY = 1u << 7,
  kLogALL = ~0u,
};

struct LogState {
  int level = static_cast<int>(LogLevel::Warn);
  unsigned mask = kLogALL;
  int pe = -1;  ///< -1 until the bootstrap knows the rank
};
extern LogState g_log;

/// Parse level and subsystem strings; returns false (and leaves state unchanged) when malformed.
bool logConfigure(const char* level, const char* subsys);
void logWrite(LogLevel lvl, const char* subsys, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

}  // namespace gshmem

#define GSHMEM_LOG_AT(LVL, SUB, ...)                                                       \
  do {                                                                                     \
    if (static_cast<int>(::gshmem::LogLevel::LVL) <= ::gshmem::g_log.level &&              \
        (::gshmem::g_log.mask & ::gshmem::kLog##SUB))                                      \
      ::gshmem::logWrite(::gshmem::LogLevel::LVL, #SUB, __VA_ARGS__);                      \
  } while (0)
#define GSHMEM_LOG_ERROR(SUB, ...) GSHMEM_LOG_AT(Error, SUB, __VA_ARGS__)
#define GSHMEM_LOG_WARN(SUB, ...) GSHMEM_LOG_AT(Warn, SUB, __VA_ARGS__)
#define GSHMEM_LOG_INFO(SUB, ...) GSHMEM_LOG_AT(Info, SUB, __VA_ARGS__)
#define GSHMEM_LOG_DEBUG(SUB, ...) GSHMEM_LOG_AT(Debug, SUB, __VA_ARGS__)
#define GSHMEM_LOG_TRACE(SUB, ...) GSHMEM_LOG_AT(Trace, SUB, __VA_ARGS__)
