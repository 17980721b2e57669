#include "core/select/profile.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "base/config.hpp"
#include "base/log.hpp"

namespace gshmem {

namespace {

bool parseDouble(const std::string& s, double* out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  double v = strtod(s.c_str(), &end);
  if (errno || *end || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

/// A count in a profile row: a non-negative integer of at most 10^9.
bool parseCount(const std::string& s, int* out) {
  long v;
  if (!parseInt(s, &v) || v < 0 || v > 1000000000) return false;
  *out = static_cast<int>(v);
  return true;
}

std::string fmt(double v) {
  char b[64];
  snprintf(b, sizeof b, "%.17g", v);
  return b;
}

}  // namespace

bool selectParseSize(const std::string& s, uint64_t* out) {
  std::size_t v;
  if (!parseSize(s, &v, /*allow_inf=*/true)) return false;
  *out = v;
  return true;
}

std::string selectFormatSize(uint64_t bytes) { return formatSize(bytes); }

const ProfileModel* Profile::find(ProtocolId p, MemPair m, Direction d, PathType cls) const {
  for (const ProfileModel& pm : models)
    if (pm.proto == p && pm.mem == m && pm.dir == d && pm.cls == cls) return &pm;
  return nullptr;
}

/// One model line's 10 fields into *pm and *r; false with the reason in *what.
static bool modelLineParse(const std::vector<std::string>& f, ProfileModel* pm, ModelRange* r, std::string* what) {
  auto bad = [&](const std::string& w) {
    *what = w;
    return false;
  };
  if (f.size() != 10)
    return bad("expected 10 fields (protocol mempair direction path_class range_lo range_hi overhead_us "
               "bandwidth_GBps samples r2), found " + std::to_string(f.size()));
  pm->proto = protocolByName(f[0]);
  if (pm->proto == ProtocolId::None)
    return bad("unknown protocol '" + f[0] + "' (known: " + protocolNames() + ")");
  if (!memPairParse(f[1], &pm->mem)) return bad("unknown memory pair '" + f[1] + "' (hh, hd, dh, dd)");
  if (!directionParse(f[2], &pm->dir)) return bad("unknown direction '" + f[2] + "' (put, get)");
  if (!pathTypeParse(f[3], &pm->cls))
    return bad("unknown path class '" + f[3] + "' (SELF, NVL, PIX, PXB, PHB, NODE, SYS, NET)");
  if (!selectParseSize(f[4], &r->lo) || r->lo == kSizeInf) return bad("range_lo '" + f[4] + "' is not a size");
  if (!selectParseSize(f[5], &r->hi)) return bad("range_hi '" + f[5] + "' is not a size or inf");
  if (r->hi <= r->lo) return bad("empty range " + f[4] + "-" + f[5]);
  if (!parseDouble(f[6], &r->line.overhead_us) || r->line.overhead_us < 0)
    return bad("overhead_us '" + f[6] + "' is not a non-negative number");
  if (!parseDouble(f[7], &r->line.bandwidth_GBps) || r->line.bandwidth_GBps <= 0)
    return bad("bandwidth_GBps '" + f[7] + "' is not a positive number");
  if (!parseCount(f[8], &r->samples)) return bad("samples '" + f[8] + "' is not a count");
  if (!parseDouble(f[9], &r->r2)) return bad("r2 '" + f[9] + "' is not a number");
  return true;
}

Status profileParse(std::istream& in, const std::string& name, Profile* out, std::string* err) {
  Profile prof;
  std::string text;
  int line = 0;
  bool have_magic = false;
  auto fail = [&](int at, const std::string& what) {
    *err = name + ":" + std::to_string(at) + ": " + what;
    return Status::InvalidArgument;
  };
  while (std::getline(in, text)) {
    ++line;
    size_t hash = text.find('#');
    if (hash != std::string::npos) text.resize(hash);
    std::istringstream ls(text);
    std::vector<std::string> f;
    for (std::string w; ls >> w;) f.push_back(w);
    if (f.empty()) continue;
    if (!have_magic) {
      if (f[0] != "gshmem-profile")
        return fail(line, "not a gshmem profile: the first line must be 'gshmem-profile 1'");
      int v = 0;
      if (f.size() != 2 || !parseCount(f[1], &v)) return fail(line, "expected 'gshmem-profile <version>'");
      if (v != kProfileVersion)
        return fail(line, "profile version " + f[1] + " is not supported (this gshmem reads version " +
                              std::to_string(kProfileVersion) + "); run gshmem-calibrate again");
      have_magic = true;
      continue;
    }
    if (f[0] == "meta") {
      if (f.size() < 2) return fail(line, "'meta' needs a key");
      std::string value;
      for (size_t i = 2; i < f.size(); ++i) value += (i > 2 ? " " : "") + f[i];
      prof.meta.emplace_back(f[1], value);
      continue;
    }
    ProfileModel pm;
    pm.line = line;
    ModelRange r;
    std::string what;
    if (!modelLineParse(f, &pm, &r, &what)) return fail(line, what);
    ProfileModel* cur = nullptr;
    for (ProfileModel& m : prof.models)
      if (m.proto == pm.proto && m.mem == pm.mem && m.dir == pm.dir && m.cls == pm.cls) cur = &m;
    if (!cur) {
      if (r.lo != 0)
        return fail(line, "the first range of " + f[0] + " " + f[1] + " " + f[2] + " " + f[3] + " must start at 0");
      pm.model.ranges.push_back(r);
      prof.models.push_back(pm);
      continue;
    }
    const ModelRange& last = cur->model.ranges.back();
    if (last.hi == kSizeInf)
      return fail(line, "a range after the one ending at inf (line " + std::to_string(cur->line) + ")");
    if (r.lo != last.hi)
      return fail(line, "range starts at " + f[4] + " but the previous range of this model ends at " +
                            selectFormatSize(last.hi) + " (ranges must be contiguous)");
    cur->model.ranges.push_back(r);
  }
  if (!have_magic) return fail(line, "empty file: no 'gshmem-profile 1' line");
  for (const ProfileModel& m : prof.models)
    if (m.model.ranges.back().hi != kSizeInf)
      return fail(m.line, std::string("the ranges of ") + protocolName(m.proto) + " " + memPairName(m.mem) + " " +
                              directionName(m.dir) + " " + pathName(m.cls) + " end at " +
                              selectFormatSize(m.model.ranges.back().hi) + ", not at inf");
  *out = std::move(prof);
  return Status::Ok;
}

Status profileLoad(const std::string& path, Profile* out, std::string* err) {
  std::string text;
  GSHMEM_CHECK(fileReadBounded(path, kProfileMaxBytes, "the profile", &text, err));
  std::istringstream in(text);
  return profileParse(in, path, out, err);
}

void profileWrite(const Profile& p, std::ostream& out) {
  out << "# gshmem path-selection profile (docs/PATH-SELECTION.md). T(s) = overhead_us + s / bandwidth_GBps.\n"
      << "gshmem-profile " << kProfileVersion << "\n";
  for (const auto& kv : p.meta) out << "meta " << kv.first << " " << kv.second << "\n";
  out << "# protocol mempair direction path_class range_lo range_hi overhead_us bandwidth_GBps samples r2\n";
  for (const ProfileModel& m : p.models)
    for (const ModelRange& r : m.model.ranges)
      out << protocolName(m.proto) << " " << memPairName(m.mem) << " " << directionName(m.dir) << " " << pathName(m.cls)
          << " " << selectFormatSize(r.lo) << " " << selectFormatSize(r.hi) << " " << fmt(r.line.overhead_us) << " "
          << fmt(r.line.bandwidth_GBps) << " " << r.samples << " " << fmt(r.r2) << "\n";
}

Status profileSave(const Profile& p, const std::string& path, std::string* err) {
  std::ofstream out(path);
  if (!out) {
    *err = path + ": cannot create: " + strerror(errno);
    return Status::SystemError;
  }
  profileWrite(p, out);
  out.flush();
  if (!out) {
    *err = path + ": write failed: " + strerror(errno);
    return Status::SystemError;
  }
  return Status::Ok;
}

}  // namespace gshmem
