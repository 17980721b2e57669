#include "base/parse.hpp"

#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <vector>

namespace gshmem {

namespace {

/// Split "a|b|c" (or "a,b,c" with @p sep ',') into its members.
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (;;) {
    std::size_t c = s.find(sep, at);
    out.push_back(s.substr(at, c == std::string::npos ? std::string::npos : c - at));
    if (c == std::string::npos) return out;
    at = c + 1;
  }
}

bool isInf(const std::string& s) { return strcasecmp(s.c_str(), "inf") == 0; }

}  // namespace

std::string trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

bool parseSize(const std::string& in, std::size_t* out, bool allow_inf) {
  std::string s = trim(in);
  if (allow_inf && isInf(s)) return *out = kSizeInf, true;
  if (s.empty() || !isdigit(static_cast<unsigned char>(s[0]))) return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long v = strtoull(s.c_str(), &end, 10);
  if (errno) return false;
  std::string suf(end);
  if (suf.size() > 1 && (suf.back() == 'B' || suf.back() == 'b')) suf.pop_back();
  unsigned shift = 0;
  if (suf.size() == 1) {
    switch (toupper(static_cast<unsigned char>(suf[0]))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      case 'T': shift = 40; break;
      case 'B': shift = 0; break;
      default: return false;
    }
  } else if (!suf.empty()) {
    return false;
  }
  if (shift && v > (~0ULL >> shift)) return false;
  uint64_t bytes = static_cast<uint64_t>(v) << shift;
  if (allow_inf && bytes == kSizeInf) return false;  // only "inf" spells infinity
  *out = static_cast<std::size_t>(bytes);
  return true;
}

bool parseInt(const std::string& in, long* out) {
  std::string s = trim(in);
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  long v = strtol(s.c_str(), &end, 0);
  if (errno || *end != '\0') return false;
  *out = v;
  return true;
}

bool parseBool(const std::string& in, bool* out) {
  static const char* yes[] = {"1", "y", "yes", "on", "true"};
  static const char* no[] = {"0", "n", "no", "off", "false"};
  std::string s = trim(in);
  for (auto* y : yes)
    if (strcasecmp(s.c_str(), y) == 0) return *out = true, true;
  for (auto* n : no)
    if (strcasecmp(s.c_str(), n) == 0) return *out = false, true;
  return false;
}

bool parseEnum(const std::string& in, const char* values, std::string* out) {
  std::string s = trim(in);
  for (const std::string& v : split(values, '|'))
    if (strcasecmp(s.c_str(), v.c_str()) == 0) return *out = v, true;
  return false;
}

bool parseEnumList(const std::string& in, const char* values, std::string* out) {
  std::string s = trim(in), list;
  bool invert = !s.empty() && s[0] == '^';
  for (const std::string& item : split(invert ? s.substr(1) : s, ',')) {
    if (trim(item).empty()) continue;
    std::string v;
    if (!parseEnum(item, values, &v)) return false;
    list += (list.empty() ? "" : ",") + v;
  }
  *out = (invert ? "^" : "") + list;
  return true;
}

bool parseSizeTriple(const std::string& in, uint64_t out[3]) {
  std::string v = trim(in);
  uint64_t r[3] = {kSizeInf, kSizeInf, kSizeInf};
  if (v.empty() || strcasecmp(v.c_str(), "off") == 0 || isInf(v)) {
    std::copy(r, r + 3, out);
    return true;
  }
  std::vector<std::string> parts = split(v, ',');
  if (parts.size() != 1 && parts.size() != 3) return false;
  for (int k = 0; k < 3; ++k) {
    std::string part = trim(parts[parts.size() == 1 ? 0 : k]);
    if (strcasecmp(part.c_str(), "off") == 0) continue;
    std::size_t x = 0;
    if (!parseSize(part, &x, true)) return false;
    r[k] = x;
  }
  std::copy(r, r + 3, out);
  return true;
}

std::string formatSize(std::size_t b) {
  if (b == kSizeInf) return "inf";
  static const char suf[] = {'T', 'G', 'M', 'K'};
  static const unsigned shifts[] = {40, 30, 20, 10};
  for (int i = 0; i < 4; ++i)
    if (b && (b & ((std::size_t(1) << shifts[i]) - 1)) == 0) return std::to_string(b >> shifts[i]) + suf[i];
  return std::to_string(b);
}

std::string formatEnumValues(const char* values) {
  std::string out;
  for (const std::string& v : split(values, '|')) out += (out.empty() ? "" : ", ") + v;
  return out;
}

std::size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace gshmem
