// The one grammar for configuration values: sizes, integers, booleans, enumerations and lists of them.
// Every GSHMEM_* variable (base/config.hpp) and every size in a profile or GSHMEM_TUNE rule is read through these.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

namespace gshmem {

/// A size that means "no limit": spelled "inf" where a size accepts it.
inline constexpr uint64_t kSizeInf = std::numeric_limits<uint64_t>::max();

/// Leading and trailing blanks removed.
std::string trim(const std::string& s);

/// A byte count: digits with an optional K/M/G/T suffix (powers of 1024; an extra B is allowed: "64KB"), case
/// insensitive, blanks around ignored. With @p allow_inf, "inf" is kSizeInf (and no number spells kSizeInf).
/// @return false when malformed or when the value does not fit in 64 bits; *out is set only on success.
bool parseSize(const std::string& s, std::size_t* out, bool allow_inf = false);
/// A decimal (or 0x hexadecimal) integer with an optional sign. @return false when malformed.
bool parseInt(const std::string& s, long* out);
/// 1/0, y/n, yes/no, on/off, true/false, case insensitive. @return false when malformed.
bool parseBool(const std::string& s, bool* out);
/// One of @p values ("a|b|c"), case insensitive; *out is the declared spelling. @return false when not one of them.
bool parseEnum(const std::string& s, const char* values, std::string* out);
/// Comma-separated members of @p values ("a|b|c"), optionally led by ^ (inversion); empty members are skipped.
/// *out is the list in declared spellings. @return false when a member is not one of the values.
bool parseEnumList(const std::string& s, const char* values, std::string* out);
/// One size per cooperation scope (thread, warp, block): "off", one size for all three, or "a,b,c"; "off" or
/// "inf" for an entry (or the whole value) is kSizeInf. @return false when malformed.
bool parseSizeTriple(const std::string& s, uint64_t out[3]);

/// A byte count with the largest exact suffix ("256M", "1536K", "7"); kSizeInf is "inf".
std::string formatSize(std::size_t bytes);
/// "a|b|c" as "a, b, c".
std::string formatEnumValues(const char* values);

/// Levenshtein distance, for "did you mean" suggestions.
std::size_t editDistance(const std::string& a, const std::string& b);

}  // namespace gshmem
