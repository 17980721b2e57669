// Typed access to the GSHMEM_* variables declared in params.def.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.hpp"

namespace gshmem {

namespace ptype {
using Size = std::size_t;
using Int = long;
using Bool = bool;
using String = std::string;
}  // namespace ptype

/// Parsed values of every parameter; filled by paramsLoad().
struct Params {
#define GSHMEM_PARAM(NAME, TYPE, DEF, CAT, HELP) ptype::TYPE NAME{};
#include "base/params.def"
#undef GSHMEM_PARAM
};

/// One row of the declarative table, for gshmem-info and GSHMEM_INFO.
struct ParamInfo {
  const char* name;      ///< without the GSHMEM_ prefix
  const char* type;
  const char* def;
  const char* category;
  const char* help;
};

const std::vector<ParamInfo>& paramTable();

/// The loaded parameters. Valid after paramsLoad() succeeded.
const Params& params();

/// Read every GSHMEM_* variable from the environment (defaults where unset).
/// On a malformed value returns InvalidArgument and writes "GSHMEM_X: why" to *err.
Status paramsLoad(std::string* err);

/// The current value of a parameter as a string (environment or default).
std::string paramCurrent(const ParamInfo& p);

// Parsers, exposed for unit tests. Each returns false on malformed input.
bool parseSize(const std::string& s, std::size_t* out);
/// A per-scope size list (GSHMEM_DEVICE_CE_MIN): "off", one size for all three, or "a,b,c"; "off" for an entry
/// (or the whole value) is UINT64_MAX. False when malformed.
bool parseSizeTriple(const std::string& s, uint64_t out[3]);
bool parseInt(const std::string& s, long* out);
bool parseBool(const std::string& s, bool* out);

/// Format a byte count with the largest exact suffix ("256M", "1536K", "7").
std::string formatSize(std::size_t bytes);

}  // namespace gshmem
