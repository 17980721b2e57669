// Typed access to the GSHMEM_* variables declared in params.def.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/parse.hpp"
#include "base/status.hpp"

namespace gshmem {

namespace ptype {
using Size = std::size_t;
using Int = long;
using Bool = bool;
using Enum = std::string;        ///< one of the declared values, in the declared spelling
using EnumList = std::string;    ///< comma-separated declared values, optionally led by ^
using ScopeSizes = std::array<uint64_t, 3>;  ///< thread, warp, block; kSizeInf is "off"
using String = std::string;
}  // namespace ptype

/// Parsed values of every parameter; filled by paramsLoad().
struct Params {
#define GSHMEM_PARAM(NAME, TYPE, DEF, CAT, ACCEPTS, HELP) ptype::TYPE NAME{};
#include "base/params.def"
#undef GSHMEM_PARAM
};

/// What a parameter accepts besides its type's grammar: an inclusive range (Int, Size, ScopeSizes) or the declared
/// values (Enum, EnumList).
struct ParamAccepts {
  long long lo = 0, hi = 0;
  const char* values = nullptr;
  bool ranged = false;
};

/// One row of the declarative table, for gshmem-info and GSHMEM_INFO.
struct ParamInfo {
  const char* name;      ///< without the GSHMEM_ prefix
  const char* type;
  const char* def;
  const char* category;
  ParamAccepts accepts;
  const char* help;
};

const std::vector<ParamInfo>& paramTable();

/// Another library's variable read as an alias of a GSHMEM_* one: the OpenSHMEM specification's (GSHMEM_SPEC_ALIAS
/// in params.def) or NVSHMEM's (GSHMEM_NVSHMEM_ALIAS).
struct ParamAlias {
  const char* name;        ///< the parameter, without the GSHMEM_ prefix
  const char* variable;    ///< the other name, e.g. SHMEM_SYMMETRIC_SIZE
  const char* flag_value;  ///< nullptr: the value as is; else the parameter's value when the alias is set
  const char* family;      ///< whose name it is: "OpenSHMEM specification" or "NVSHMEM"
};
/// Every alias, in precedence order: the specification's before NVSHMEM's.
const std::vector<ParamAlias>& paramAliases();
/// The aliases of @p p in precedence order (at most one per family).
std::vector<const ParamAlias*> paramAliasesOf(const ParamInfo& p);
/// The variable the current value of @p p comes from: "GSHMEM_<NAME>" when set, else the first of its aliases that
/// is set and applies, else "" (the default).
std::string paramSource(const ParamInfo& p);

/// What @p p accepts, in words: "an integer from 0 to 2", "one of auto, shm, ucx", "a size from 0 to 2K".
std::string paramAccepted(const ParamInfo& p);

/// The loaded parameters. Valid after paramsLoad() succeeded.
const Params& params();

/// Read every GSHMEM_* variable from the environment (defaults where unset) and check it against the table.
/// On a malformed or out-of-range value returns InvalidArgument and writes one line to *err:
/// "GSHMEM_X='v' is not a valid <type>: use <accepted>" or "GSHMEM_X='v' is out of range: use <accepted>".
/// A failed load leaves the previous values in place.
Status paramsLoad(std::string* err);

/// One warning per GSHMEM_* variable of the environment that is not in the table, naming the closest known
/// variable when one is near ("GSHMEM_SYMMETRIC_SIZ is not a gshmem variable (did you mean GSHMEM_SYMMETRIC_SIZE?)").
/// Names read by gshmem's build, test and benchmark scripts (not by the library) are not reported.
std::vector<std::string> paramsUnknown();

/// The current value of a parameter as a string: GSHMEM_<NAME>, else its specification alias, else the default.
std::string paramCurrent(const ParamInfo& p);

/// Files gshmem reads are bounded: at most @p limit bytes of @p path into *out. A path that is not a regular file
/// (a device such as /dev/zero, a FIFO, a directory) is refused without reading or waiting, as is a file of more than
/// @p limit bytes; *err then names the file, what it is and the limit. Pseudo-files of /proc and /sys (regular, of
/// size 0) are read up to the limit. @p what names the file's role in messages ("the profile").
Status fileReadBounded(const std::string& path, std::size_t limit, const char* what, std::string* out,
                       std::string* err);
/// As fileReadBounded, without reading: for a file another library reads by name (hwloc's XML).
Status fileCheckBounded(const std::string& path, std::size_t limit, const char* what, std::string* err);
/// Bytes read at most from a /proc or /sys file.
constexpr std::size_t kProcFileMaxBytes = std::size_t(64) << 10;

/// Bytes of memory of this machine (MemTotal in /proc/meminfo); 0 when unknown.
uint64_t machineMemoryBytes();
/// A hash of the kernel's boot id: equal for every process of one running machine, whatever its namespaces; 0 when
/// unreadable.
uint64_t machineBootHash();

}  // namespace gshmem
