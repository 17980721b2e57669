// Overrides of the automatic choice: GSHMEM_PATH (one protocol everywhere it reaches) and GSHMEM_TUNE
// (a protocol per direction, memory pair and size range, after UCC's <TL>_TUNE strings).
//
// GSHMEM_TUNE grammar (docs/PATH-SELECTION.md):
//   tune  := rule { (',' | ';') rule }
//   rule  := dir ':' mem ':' range ':' '@' protocol
//   dir   := 'put' | 'get' | '*'
//   mem   := 'hh' | 'hd' | 'dh' | 'dd' | '*'
//   range := '*' | size '-' size            sizes: digits with K/M/G/T (powers of 1024), or 'inf'; hi exclusive
// e.g. "put:dd:0-64K:@p2p_sm,put:dd:64K-inf:@p2p_ce;get:*:*:@staged". Later rules win where they overlap.
#pragma once

#include <string>
#include <vector>

#include "core/select/protocol.hpp"

namespace gshmem {

/// One rule of GSHMEM_TUNE.
struct TuneRule {
  int dir = -1;  ///< Direction as int, or -1 for any
  int mem = -1;  ///< MemPair as int, or -1 for any
  uint64_t lo = 0, hi = kSizeInf;
  ProtocolId proto = ProtocolId::None;
  size_t pos = 0;  ///< 1-based character position of the rule in the string, for messages

  bool matches(MemPair m, Direction d) const {
    return (dir < 0 || dir == static_cast<int>(d)) && (mem < 0 || mem == static_cast<int>(m));
  }
};

/// Parse a GSHMEM_TUNE string (empty: no rules).
/// @return InvalidArgument with *err = "GSHMEM_TUNE: at character <n> ('<rule>'): <what>"; *out set on success.
[[nodiscard]] Status tuneParse(const std::string& s, std::vector<TuneRule>* out, std::string* err);

/// Parse GSHMEM_PATH: "auto" (or empty) gives ProtocolId::None, else a protocol name.
/// @return InvalidArgument naming the known protocols when unknown.
[[nodiscard]] Status pathParse(const std::string& s, ProtocolId* out, std::string* err);

}  // namespace gshmem
