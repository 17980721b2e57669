// The calibration profile: cost models measured by gshmem-calibrate, loaded at init (GSHMEM_PROFILE).
//
// Text format, version 1 (docs/PATH-SELECTION.md):
//   # comment (anywhere; blank lines ignored)
//   gshmem-profile 1                      first non-comment line: magic and version
//   meta <key> <value...>                 free-form provenance (host, date, tool); kept, not interpreted
//   <protocol> <mempair> <direction> <path_class> <range_lo> <range_hi> <overhead_us> <bandwidth_GBps> <samples> <r2>
// e.g. "shm hh put NODE 0 4096 0.061 3.9 9 0.998". range_hi is exclusive; "inf" for the last range. The rows
// of one (protocol, mempair, direction, path_class) must cover [0, inf) in order without gaps.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/select/protocol.hpp"

namespace gshmem {

inline constexpr int kProfileVersion = 1;

/// The cost model of one protocol for one memory pair, direction and path class.
struct ProfileModel {
  ProtocolId proto = ProtocolId::None;
  MemPair mem = MemPair::HostHost;
  Direction dir = Direction::Put;
  PathType cls = PathType::Node;
  PiecewiseModel model;
  int line = 0;  ///< line of its first row in the file (0 when built in memory)
};

struct Profile {
  std::vector<std::pair<std::string, std::string>> meta;
  std::vector<ProfileModel> models;

  /// The model for this key, or nullptr.
  const ProfileModel* find(ProtocolId p, MemPair m, Direction d, PathType cls) const;
};

/// Bytes of a profile file read at most (a calibrated profile is a few KiB).
constexpr std::size_t kProfileMaxBytes = std::size_t(4) << 20;

/// Parse a profile from @p in. @p name is used in messages ("name:line: what").
/// @return Ok, or InvalidArgument with *err = "<name>:<line>: <what>" (first problem only); *out set on success.
[[nodiscard]] Status profileParse(std::istream& in, const std::string& name, Profile* out, std::string* err);
/// Read the file @p path. @return SystemError (with strerror in *err) when it cannot be opened.
[[nodiscard]] Status profileLoad(const std::string& path, Profile* out, std::string* err);
/// Write @p p in the format above (numbers with enough digits that a re-read gives the same table).
void profileWrite(const Profile& p, std::ostream& out);
/// Write to the file @p path. @return SystemError when it cannot be written.
[[nodiscard]] Status profileSave(const Profile& p, const std::string& path, std::string* err);

/// Parse a size with K/M/G/T suffixes (powers of 1024) or "inf" (kSizeInf). @return false when malformed.
bool selectParseSize(const std::string& s, uint64_t* out);
/// Format a size as selectParseSize reads it, with the largest exact suffix: "64K", "inf", "1000".
std::string selectFormatSize(uint64_t bytes);

}  // namespace gshmem
