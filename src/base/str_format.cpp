// printf-style formatting into a std::string (contract in str_format.hpp).
#include "base/str_format.hpp"

#include <cstdio>

namespace gshmem {

std::string strFormatV(const char* fmt, va_list ap) {
  char small[256];
  va_list again;
  va_copy(again, ap);
  const int n = vsnprintf(small, sizeof small, fmt, ap);
  std::string out;
  if (n < 0) {
    out = fmt;  // an encoding error: the format itself still says what happened
  } else if (static_cast<std::size_t>(n) < sizeof small) {
    out.assign(small, static_cast<std::size_t>(n));
  } else {
    out.resize(static_cast<std::size_t>(n) + 1);
    vsnprintf(&out[0], out.size(), fmt, again);
    out.resize(static_cast<std::size_t>(n));
  }
  va_end(again);
  return out;
}

std::string strFormat(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string out = strFormatV(fmt, ap);
  va_end(ap);
  return out;
}

}  // namespace gshmem
