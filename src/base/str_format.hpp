// printf-style formatting into a std::string, for one-line error messages and reports.
#pragma once
#include <cstdarg>
#include <string>

namespace gshmem {

/// @p fmt formatted as printf would, of any length (no truncation).
std::string strFormat(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
/// strFormat over a va_list; @p ap is left as vsnprintf leaves it.
std::string strFormatV(const char* fmt, va_list ap) __attribute__((format(printf, 1, 0)));

}  // namespace gshmem
