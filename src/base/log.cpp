#include "base/log.hpp"

#include <cstdio>
#include <cstring>
#include <string>

#include "base/status.hpp"

namespace gshmem {

LogState g_log;

const char* statusString(Status s) {
  switch (s) {
    case Status::Ok: return "success";
    case Status::InProgress: return "in progress";
    case Status::NoResource: return "no resource";
    case Status::InvalidArgument: return "invalid argument";
    case Status::NoMemory: return "out of memory";
    case Status::Unsupported: return "unsupported";
    case Status::SystemError: return "system error";
    case Status::RemoteError: return "remote error";
    case Status::Timeout: return "timeout";
    case Status::Internal: return "internal error";
  }
  return "unknown status";
}

static bool parseLevel(const char* s, int* out) {
  static const char* names[] = {"NONE", "ERROR", "WARN", "INFO", "DEBUG", "TRACE"};
  for (int i = 0; i < 6; ++i)
    if (strcasecmp(s, names[i]) == 0) return *out = i, true;
  return false;
}

static bool parseSubsys(const char* s, unsigned* out) {
  static const struct { const char* name; unsigned bit; } table[] = {
      {"INIT", kLogINIT}, {"MEM", kLogMEM},   {"TRANSPORT", kLogTRANSPORT}, {"SHM", kLogSHM},
      {"UCX", kLogUCX},   {"COLL", kLogCOLL}, {"TEAM", kLogTEAM},           {"PROXY", kLogPROXY},
      {"ALL", kLogALL}};
  bool invert = (*s == '^');
  if (invert) ++s;
  unsigned mask = 0;
  std::string str(s);
  size_t pos = 0;
  while (pos <= str.size()) {
    size_t end = str.find(',', pos);
    if (end == std::string::npos) end = str.size();
    std::string tok = str.substr(pos, end - pos);
    if (!tok.empty()) {
      bool found = false;
      for (auto& e : table)
        if (strcasecmp(tok.c_str(), e.name) == 0) mask |= e.bit, found = true;
      if (!found) return false;
    }
    pos = end + 1;
  }
  *out = invert ? ~mask : mask;
  return true;
}

bool logConfigure(const char* level, const char* subsys) {
  int lvl;
  unsigned mask;
  if (!parseLevel(level, &lvl) || !parseSubsys(subsys, &mask)) return false;
  g_log.level = lvl;
  g_log.mask = mask;
  return true;
}

void logWrite(LogLevel lvl, const char* subsys, const char* fmt, ...) {
  static const char* names[] = {"", "ERROR", "WARN", "INFO", "DEBUG", "TRACE"};
  char buf[1024];
  int n;
  if (g_log.pe >= 0)
    n = snprintf(buf, sizeof buf, "gshmem: PE %d: %s %s: ", g_log.pe, names[static_cast<int>(lvl)], subsys);
  else
    n = snprintf(buf, sizeof buf, "gshmem: %s %s: ", names[static_cast<int>(lvl)], subsys);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + n, sizeof buf - n, fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s\n", buf);
}

}  // namespace gshmem
