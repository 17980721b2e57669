#include "base/config.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/str_format.hpp"
#include "base/unique_fd.hpp"

extern char** environ;

namespace gshmem {

namespace {

// Compile-time guard against a name declared twice: each name becomes an enumerator.
enum class ParamId {
#define GSHMEM_PARAM(NAME, TYPE, DEF, CAT, ACCEPTS, HELP) NAME,
#include "base/params.def"
#undef GSHMEM_PARAM
};
// Every alias names a declared parameter (a typo is a compile error), at most once per family (a duplicate
// enumerator is one too).
enum class SpecAliasId {
#define GSHMEM_SPEC_ALIAS(NAME, VARIABLE, FLAG) NAME = static_cast<int>(ParamId::NAME),
#include "base/params.def"
#undef GSHMEM_SPEC_ALIAS
};
enum class NvshmemAliasId {
#define GSHMEM_NVSHMEM_ALIAS(NAME, VARIABLE, FLAG) NAME = static_cast<int>(ParamId::NAME),
#include "base/params.def"
#undef GSHMEM_NVSHMEM_ALIAS
};

enum class PType { Size, Int, Bool, Enum, EnumList, ScopeSizes, String };

#define GSHMEM_RANGE(LO, HI) ParamAccepts{(LO), (HI), nullptr, true}
#define GSHMEM_VALUES(V) ParamAccepts{0, 0, (V), false}
#define GSHMEM_ANY ParamAccepts{}

Params g_params;

PType typeOf(const char* name) {
  static const struct { const char* name; PType t; } kTypes[] = {
      {"Size", PType::Size}, {"Int", PType::Int}, {"Bool", PType::Bool}, {"Enum", PType::Enum},
      {"EnumList", PType::EnumList}, {"ScopeSizes", PType::ScopeSizes}, {"String", PType::String}};
  for (const auto& t : kTypes)
    if (strcmp(t.name, name) == 0) return t.t;
  return PType::String;
}

const char* typeWord(PType t) {
  switch (t) {
    case PType::Size: return "size";
    case PType::Int: return "integer";
    case PType::Bool: return "boolean";
    case PType::Enum: return "value";
    case PType::EnumList: return "list";
    case PType::ScopeSizes: return "size list";
    case PType::String: break;
  }
  return "string";
}

// Parse @p text as @p t into @p out; *range_ok is false when it parses but is outside the declared range.
bool parseValue(PType t, const std::string& text, const ParamAccepts& a, void* out, bool* range_ok) {
  *range_ok = true;
  auto inRange = [&](long long v) { return !a.ranged || (v >= a.lo && v <= a.hi); };
  switch (t) {
    case PType::Size: {
      std::size_t v;
      if (!parseSize(text, &v)) return false;
      *range_ok = v <= static_cast<uint64_t>(INT64_MAX) && inRange(static_cast<long long>(v));
      *static_cast<std::size_t*>(out) = v;
      return true;
    }
    case PType::Int: {
      long v;
      if (!parseInt(text, &v)) return false;
      *range_ok = inRange(v);
      *static_cast<long*>(out) = v;
      return true;
    }
    case PType::Bool: return parseBool(text, static_cast<bool*>(out));
    case PType::Enum: return parseEnum(text, a.values, static_cast<std::string*>(out));
    case PType::EnumList: return parseEnumList(text, a.values, static_cast<std::string*>(out));
    case PType::ScopeSizes: {
      auto* v = static_cast<ptype::ScopeSizes*>(out);
      if (!parseSizeTriple(text, v->data())) return false;
      for (uint64_t x : *v)
        *range_ok = *range_ok && (x == kSizeInf || (x <= static_cast<uint64_t>(INT64_MAX) &&
                                                    inRange(static_cast<long long>(x))));
      return true;
    }
    case PType::String: *static_cast<std::string*>(out) = text; return true;
  }
  return false;
}

/// Names under GSHMEM_ that gshmem's scripts, build and tests read (never the library): not reported as unknown.
bool readByScripts(const std::string& name) {
  static const char* kPrefixes[] = {"TEST_", "BUILD_", "ENABLE_", "CMAKE_", "OSU_", "APP_ARGS_", "BENCH_",
                                    "WRAPPER_", "ROOT", "MPIEXEC_FLAGS", "PEER_DIR", "ASAN"};
  for (const char* p : kPrefixes)
    if (name.compare(0, strlen(p), p) == 0) return true;
  return false;
}

}  // namespace

const std::vector<ParamInfo>& paramTable() {
  static const std::vector<ParamInfo> table = {
#define GSHMEM_PARAM(NAME, TYPE, DEF, CAT, ACCEPTS, HELP) {#NAME, #TYPE, DEF, #CAT, ACCEPTS, HELP},
#include "base/params.def"
#undef GSHMEM_PARAM
  };
  return table;
}

const std::vector<ParamAlias>& paramAliases() {
  static const std::vector<ParamAlias> aliases = {
#define GSHMEM_SPEC_ALIAS(NAME, VARIABLE, FLAG) {#NAME, VARIABLE, FLAG, "OpenSHMEM specification"},
#include "base/params.def"
#undef GSHMEM_SPEC_ALIAS
#define GSHMEM_NVSHMEM_ALIAS(NAME, VARIABLE, FLAG) {#NAME, VARIABLE, FLAG, "NVSHMEM"},
#include "base/params.def"
#undef GSHMEM_NVSHMEM_ALIAS
  };
  return aliases;
}

std::vector<const ParamAlias*> paramAliasesOf(const ParamInfo& p) {
  std::vector<const ParamAlias*> out;
  for (const ParamAlias& a : paramAliases())
    if (strcmp(a.name, p.name) == 0) out.push_back(&a);
  return out;
}

namespace {

/// A decimal size with an optional K/M/G/T suffix (either case), as the specification writes
/// SHMEM_SYMMETRIC_SIZE, as whole bytes; false when @p text is not one (it is then parsed, and reported, as is).
bool decimalSize(const std::string& text, std::string* bytes) {
  const char* b = text.c_str();
  char* end = nullptr;
  double v = strtod(b, &end);
  if (end == b || !(v >= 0) || !isdigit(static_cast<unsigned char>(*b))) return false;
  std::string suf(end);
  double scale = 1;
  if (suf.size() == 1) {
    const char* units = "KMGT";
    const char* u = strchr(units, toupper(static_cast<unsigned char>(suf[0])));
    if (!u) return false;
    for (const char* k = units; k <= u; ++k) scale *= 1024;
  } else if (!suf.empty()) {
    return false;
  }
  if (v * scale >= 18446744073709551615.0) return false;
  *bytes = std::to_string(static_cast<unsigned long long>(v * scale));
  return true;
}

/// The value an alias gives @p p when its variable is set to @p raw, or false when it does not apply.
bool aliasValue(const ParamInfo& p, const ParamAlias& a, const char* raw, std::string* out) {
  if (a.flag_value) {
    bool on = true;
    if (parseBool(raw, &on) && !on) return false;
    *out = a.flag_value;
    return true;
  }
  if (typeOf(p.type) == PType::Size && strchr(raw, '.') && decimalSize(raw, out)) return true;
  *out = raw;
  return true;
}

/// The first alias of @p p that is set and applies (its value in *value), or nullptr.
const ParamAlias* activeAlias(const ParamInfo& p, std::string* value) {
  for (const ParamAlias* a : paramAliasesOf(p))
    if (const char* raw = getenv(a->variable); raw && aliasValue(p, *a, raw, value)) return a;
  return nullptr;
}

}  // namespace

std::string paramSource(const ParamInfo& p) {
  std::string var = std::string("GSHMEM_") + p.name;
  if (getenv(var.c_str())) return var;
  std::string ignored;
  const ParamAlias* a = activeAlias(p, &ignored);
  return a ? a->variable : "";
}

std::string paramAccepted(const ParamInfo& p) {
  const ParamAccepts& a = p.accepts;
  auto size = [](long long v) { return formatSize(static_cast<std::size_t>(v)); };
  switch (typeOf(p.type)) {
    case PType::Size:
      return a.ranged ? "a size from " + size(a.lo) + " to " + size(a.hi) + " (K/M/G/T suffixes)"
                      : "a size (K/M/G/T suffixes)";
    case PType::Int:
      return a.ranged ? "an integer from " + std::to_string(a.lo) + " to " + std::to_string(a.hi) : "an integer";
    case PType::Bool: return "1/0, y/n, yes/no, on/off or true/false";
    case PType::Enum: return "one of " + formatEnumValues(a.values);
    case PType::EnumList: return "a comma-separated list of " + formatEnumValues(a.values) + " (^ first inverts it)";
    case PType::ScopeSizes:
      return "off, one size, or three sizes thread,warp,block, each off or from " + size(a.lo) + " to " + size(a.hi);
    case PType::String: break;
  }
  return "any text";
}

const Params& params() { return g_params; }

std::string paramCurrent(const ParamInfo& p) {
  std::string var = std::string("GSHMEM_") + p.name;
  if (const char* v = getenv(var.c_str())) return v;
  std::string value;
  if (activeAlias(p, &value)) return value;
  return p.def;
}

namespace {

const char* fileKind(mode_t m) {
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISDIR(m)) return "a directory";
  return "not a regular file";
}

std::string limitText(std::size_t limit) {
  return limit % (1u << 20) == 0 ? std::to_string(limit >> 20) + " MiB" : std::to_string(limit >> 10) + " KiB";
}

/// Opens @p path without blocking (a FIFO with no writer) and checks what it is and its size.
Status fileOpenBounded(const std::string& path, std::size_t limit, const char* what, UniqueFd* fd, std::string* err) {
  UniqueFd f(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (!f.valid()) {
    *err = strFormat("%s %s cannot be opened: %s", what, path.c_str(), strerror(errno));
    return Status::SystemError;
  }
  struct stat st;
  if (fstat(f.get(), &st) != 0) {
    *err = strFormat("%s %s cannot be examined: %s", what, path.c_str(), strerror(errno));
    return Status::SystemError;
  }
  if (!S_ISREG(st.st_mode)) {
    *err = strFormat("%s %s is %s, not a regular file; pass a file", what, path.c_str(), fileKind(st.st_mode));
    return Status::InvalidArgument;
  }
  if (static_cast<uint64_t>(st.st_size) > limit) {
    *err = strFormat("%s %s is %lld bytes, over the %s limit for it; pass a smaller file", what, path.c_str(),
                     static_cast<long long>(st.st_size), limitText(limit).c_str());
    return Status::InvalidArgument;
  }
  *fd = std::move(f);
  return Status::Ok;
}

}  // namespace

Status fileCheckBounded(const std::string& path, std::size_t limit, const char* what, std::string* err) {
  UniqueFd fd;
  return fileOpenBounded(path, limit, what, &fd, err);
}

Status fileReadBounded(const std::string& path, std::size_t limit, const char* what, std::string* out,
                       std::string* err) {
  UniqueFd fd;
  const Status opened = fileOpenBounded(path, limit, what, &fd, err);
  if (isError(opened)) return opened;
  std::string buf(limit + 1, '\0');
  std::size_t have = 0;
  while (have < buf.size()) {  // a regular file never blocks; read until EOF or one byte past the limit
    const ssize_t n = read(fd.get(), &buf[have], buf.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *err = strFormat("%s %s cannot be read: %s", what, path.c_str(), strerror(errno));
      return Status::SystemError;
    }
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
  }
  if (have > limit) {  // it grew after the size check, or is a pseudo-file of unknown size
    *err = strFormat("%s %s holds more than the %s limit for it; pass a smaller file", what, path.c_str(),
                     limitText(limit).c_str());
    return Status::InvalidArgument;
  }
  buf.resize(have);
  *out = std::move(buf);
  return Status::Ok;
}

uint64_t machineBootHash() {
  FILE* f = fopen("/proc/sys/kernel/random/boot_id", "r");
  if (!f) return 0;
  char id[64] = {};
  size_t n = fread(id, 1, sizeof id - 1, f);
  fclose(f);
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(id[i])) * 1099511628211ull;
  return n ? h : 0;
}

uint64_t machineMemoryBytes() {
  std::string text, err;
  if (isError(fileReadBounded("/proc/meminfo", kProcFileMaxBytes, "the memory table", &text, &err))) return 0;
  const char* at = std::strstr(text.c_str(), "MemTotal:");
  unsigned long long kb = 0;
  if (at == nullptr || sscanf(at, "MemTotal: %llu kB", &kb) != 1) return 0;
  return static_cast<uint64_t>(kb) << 10;
}

namespace {

Status loadOne(const ParamInfo& p, void* out, std::string* err) {
  std::string text = paramCurrent(p);
  PType t = typeOf(p.type);
  bool range_ok = true;
  bool parsed = parseValue(t, text, p.accepts, out, &range_ok);
  if (parsed && range_ok) return Status::Ok;
  std::string source = paramSource(p);
  if (source.empty()) source = std::string("GSHMEM_") + p.name;  // a default that does not parse: a table bug
  // An alias is reported with the text the user wrote.
  if (source.compare(0, 7, "GSHMEM_") != 0) text = getenv(source.c_str());
  *err = source + "='" + text + "' " +
         (parsed ? std::string("is out of range") : std::string("is not a valid ") + typeWord(t)) + ": use " +
         paramAccepted(p);
  return Status::InvalidArgument;
}

}  // namespace

Status paramsLoad(std::string* err) {
  Params loaded;
  const std::vector<ParamInfo>& table = paramTable();
  std::size_t i = 0;
#define GSHMEM_PARAM(NAME, TYPE, DEF, CAT, ACCEPTS, HELP) \
  if (isError(loadOne(table[i++], &loaded.NAME, err))) return Status::InvalidArgument;
#include "base/params.def"
#undef GSHMEM_PARAM
  uint64_t mem = machineMemoryBytes();
  if (mem && loaded.SYMMETRIC_SIZE > mem) {
    const ParamInfo& p = table[static_cast<int>(ParamId::SYMMETRIC_SIZE)];
    const std::string source = paramSource(p);
    const bool alias = !source.empty() && source.compare(0, 7, "GSHMEM_") != 0;
    *err = (source.empty() ? std::string("GSHMEM_SYMMETRIC_SIZE") : source) + "='" +
           (alias ? std::string(getenv(source.c_str())) : paramCurrent(p)) +
           "' is larger than this machine's memory (MemTotal " + formatSize(mem >> 20 << 20) +
           " in /proc/meminfo): use a smaller heap";
    return Status::InvalidArgument;
  }
  g_params = loaded;
  return Status::Ok;
}

std::vector<std::string> paramsUnknown() {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    const char* eq = strchr(*e, '=');
    if (strncmp(*e, "GSHMEM_", 7) != 0 || !eq) continue;
    std::string name(*e + 7, static_cast<std::size_t>(eq - (*e + 7)));
    if (readByScripts(name)) continue;
    const char* best = nullptr;
    std::size_t best_d = ~std::size_t(0);
    bool known = false;
    for (const ParamInfo& p : paramTable()) {
      if (name == p.name) known = true;
      std::size_t d = editDistance(name, p.name);
      if (d < best_d) best_d = d, best = p.name;
    }
    if (known) continue;
    std::string line = "GSHMEM_" + name + " is not a gshmem variable";
    if (best && best_d <= 3 && best_d * 2 < name.size())
      line += " (did you mean GSHMEM_" + std::string(best) + "?)";
    else
      line += " (gshmem-info -c lists them)";
    out.push_back(line);
  }
  return out;
}

}  // namespace gshmem
