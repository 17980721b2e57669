#include "base/config.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>

namespace gshmem {

namespace {

// Compile-time guard against a name declared twice: each name becomes an enumerator.
enum class ParamId {
#define GSHMEM_PARAM(NAME, TYPE, DEF, CAT, HELP) NAME,
#include "base/params.def"
#undef GSHMEM_PARAM
};

Params g_params;

bool parseValue(const std::string& s, std::size_t* out) { return parseSize(s, out); }
bool parseValue(const std::string& s, long* out) { return parseInt(s, out); }
bool parseValue(const std::string& s, bool* out) { return parseBool(s, out); }
bool parseValue(const std::string& s, std::string* out) { return *out = s, true; }

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

}  // namespace

const std::vector<ParamInfo>& paramTable() {
  static const std::vector<ParamInfo> table = {
#define GSHMEM_PARAM(NAME, TYPE, DEF, CAT, HELP) {#NAME, #TYPE, DEF, #CAT, HELP},
#include "base/params.def"
#undef GSHMEM_PARAM
  };
  return table;
}

const Params& params() { return g_params; }

std::string paramCurrent(const ParamInfo& p) {
  std::string var = std::string("GSHMEM_") + p.name;
  const char* v = getenv(var.c_str());
  return v ? v : p.def;
}

Status paramsLoad(std::string* err) {
  Params loaded;
#define GSHMEM_PARAM(NAME, TYPE, DEF, CAT, HELP)                                                    \
  {                                                                                                 \
    const char* env = getenv("GSHMEM_" #NAME);                                                      \
    std::string text = env ? env : DEF;                                                             \
    if (!parseValue(trim(text), &loaded.NAME)) {                                                    \
      *err = std::string("GSHMEM_" #NAME "='") + text + "' is not a valid " #TYPE " (" HELP ")";   \
      return Status::InvalidArgument;                                                               \
    }                                                                                               \
  }
#include "base/params.def"
#undef GSHMEM_PARAM
  g_params = loaded;
  return Status::Ok;
}

bool parseSizeTriple(const std::string& v, uint64_t out[3]) {
  for (int k = 0; k < 3; ++k) out[k] = UINT64_MAX;
  if (v == "off" || v.empty()) return true;
  std::vector<std::string> parts;
  std::size_t at = 0;
  for (;;) {
    std::size_t c = v.find(',', at);
    parts.push_back(v.substr(at, c == std::string::npos ? std::string::npos : c - at));
    if (c == std::string::npos) break;
    at = c + 1;
  }
  if (parts.size() != 1 && parts.size() != 3) return false;
  for (int k = 0; k < 3; ++k) {
    const std::string& part = parts[parts.size() == 1 ? 0 : k];
    if (part == "off") continue;
    std::size_t x = 0;
    if (!parseSize(part, &x)) return false;
    out[k] = x;
  }
  return true;
}

bool parseSize(const std::string& in, std::size_t* out) {
  std::string s = trim(in);
  if (s.empty() || !isdigit(static_cast<unsigned char>(s[0]))) return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long v = strtoull(s.c_str(), &end, 10);
  if (errno) return false;
  std::string suf(end);
  if (!suf.empty() && (suf.back() == 'B' || suf.back() == 'b') && suf.size() > 1) suf.pop_back();
  unsigned shift = 0;
  if (suf.empty()) shift = 0;
  else if (suf.size() == 1) {
    switch (toupper(static_cast<unsigned char>(suf[0]))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      case 'T': shift = 40; break;
      case 'B': shift = 0; break;
      default: return false;
    }
  } else {
    return false;
  }
  if (shift && v > (~0ULL >> shift)) return false;
  *out = static_cast<std::size_t>(v << shift);
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

std::string formatSize(std::size_t b) {
  static const char suf[] = {'T', 'G', 'M', 'K'};
  static const unsigned shifts[] = {40, 30, 20, 10};
  for (int i = 0; i < 4; ++i)
    if (b && (b & ((std::size_t(1) << shifts[i]) - 1)) == 0) return std::to_string(b >> shifts[i]) + suf[i];
  return std::to_string(b);
}

}  // namespace gshmem
