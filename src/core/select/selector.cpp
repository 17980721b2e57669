#include "core/select/selector.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "base/log.hpp"

namespace gshmem {

namespace {

/// Replace [lo, hi) of @p ranges (contiguous, covering [0, inf)) by @p proto with source Override.
void paint(std::vector<DecisionRange>* ranges, uint64_t lo, uint64_t hi, ProtocolId proto) {
  std::vector<DecisionRange> out;
  for (const DecisionRange& r : *ranges) {
    if (r.hi <= lo || r.lo >= hi) {
      out.push_back(r);
      continue;
    }
    if (r.lo < lo) out.push_back(DecisionRange{r.lo, lo, r.proto, r.source});
    out.push_back(DecisionRange{std::max(r.lo, lo), std::min(r.hi, hi), proto, Source::Override});
    if (r.hi > hi) out.push_back(DecisionRange{hi, r.hi, r.proto, r.source});
  }
  // Merge neighbours that now say the same thing.
  std::vector<DecisionRange> merged;
  for (const DecisionRange& r : out) {
    if (!merged.empty() && merged.back().proto == r.proto && merged.back().source == r.source)
      merged.back().hi = r.hi;
    else
      merged.push_back(r);
  }
  *ranges = std::move(merged);
}

std::string rangeText(uint64_t lo, uint64_t hi) { return selectFormatSize(lo) + "-" + selectFormatSize(hi); }

std::string peerText(const PeerPath& p) {
  std::string s = pathName(p.path);
  s += p.sameNode ? " (same node" : " (other node";
  s += p.p2p ? ", p2p" : ", no p2p";
  if (!p.sameNode) s += std::string(", GPU-NIC ") + pathName(p.nicLocal) + "/" + pathName(p.nicRemote);
  return s + ")";
}

}  // namespace

double crossoverBytes(const LinkModel& a, const LinkModel& b) {
  double ka = a.usPerByte(), kb = b.usPerByte();
  if (ka == kb) return -1;
  double s = (b.overhead_us - a.overhead_us) / (ka - kb);
  return s > 0 ? s : -1;
}

std::vector<DecisionRange> lowerEnvelope(const std::vector<BoundProtocol>& cands, Direction d) {
  std::vector<DecisionRange> out;
  if (cands.empty()) return out;
  const int di = static_cast<int>(d);
  std::set<uint64_t> bounds = {0};
  for (const BoundProtocol& c : cands)
    for (const ModelRange& r : c.model[di].ranges) bounds.insert(r.lo);
  std::vector<uint64_t> b(bounds.begin(), bounds.end());
  for (size_t i = 0; i < b.size(); ++i) {
    uint64_t a = b[i], e = i + 1 < b.size() ? b[i + 1] : kSizeInf;
    // Inside [a, e) every model is one line: the order of the lines changes only at their crossings.
    std::vector<LinkModel> lines;
    for (const BoundProtocol& c : cands) lines.push_back(c.model[di].rangeFor(a).line);
    std::set<uint64_t> cuts = {a};
    for (size_t x = 0; x < lines.size(); ++x)
      for (size_t y = x + 1; y < lines.size(); ++y) {
        double s = crossoverBytes(lines[x], lines[y]);
        if (s <= static_cast<double>(a) || s >= static_cast<double>(e)) continue;
        double up = std::ceil(s);
        if (up < static_cast<double>(e) && up < 1.8e19) cuts.insert(static_cast<uint64_t>(up));
      }
    std::vector<uint64_t> c(cuts.begin(), cuts.end());
    for (size_t j = 0; j < c.size(); ++j) {
      uint64_t lo = c[j], hi = j + 1 < c.size() ? c[j + 1] : e;
      if (lo >= hi) continue;
      // A point strictly inside the sub-range, where no two lines cross.
      double at = hi == kSizeInf ? static_cast<double>(lo) * 2 + 1 : lo + (static_cast<double>(hi) - lo) / 2;
      size_t best = 0;
      for (size_t k = 1; k < lines.size(); ++k)
        if (lines[k].predictUs(at) < lines[best].predictUs(at)) best = k;
      DecisionRange r{lo, hi, cands[best].id, cands[best].source[di]};
      if (!out.empty() && out.back().proto == r.proto && out.back().source == r.source)
        out.back().hi = hi;
      else
        out.push_back(r);
    }
  }
  return out;
}

const DecisionRange& DecisionTable::rangeFor(MemPair m, Direction d, uint64_t bytes) const {
  static const DecisionRange kNone{0, kSizeInf, ProtocolId::None, Source::Default};
  const std::vector<DecisionRange>& r = ranges[static_cast<int>(m)][static_cast<int>(d)];
  if (r.empty()) return kNone;
  // First range whose hi exceeds bytes.
  auto it = std::upper_bound(r.begin(), r.end(), bytes, [](uint64_t v, const DecisionRange& x) { return v < x.hi; });
  return it == r.end() ? r.back() : *it;
}

Status selectorConfigLoad(const SelectParams& p, SelectorConfig* cfg, std::string* err) {
  SelectorConfig c = *cfg;
  GSHMEM_CHECK(pathParse(p.path, &c.forced, err));
  GSHMEM_CHECK(tuneParse(p.tune, &c.tune, err));
  c.tune_text = p.tune;
  if (!p.profile.empty()) {
    GSHMEM_CHECK(profileLoad(p.profile, &c.profile, err));
    c.profile_name = p.profile;
  }
  *cfg = std::move(c);
  return Status::Ok;
}

Selector::Selector(SelectorConfig cfg) : cfg_(std::move(cfg)) { std::fill(index_, index_ + kNumKeys, -1); }

BoundProtocol Selector::model(const PeerPath& peer, MemPair m, ProtocolId id) const {
  BoundProtocol b;
  b.id = id;
  PathType cls = modelClass(peer, m);
  for (int d = 0; d < kNumDirections; ++d) {
    const ProfileModel* pm = cfg_.profile.find(id, m, static_cast<Direction>(d), cls);
    if (pm) {
      b.model[d] = pm->model;
      b.source[d] = Source::Profile;
      b.origin[d] = "profile";
    } else {
      const Direction dir = static_cast<Direction>(d);
      b.model[d] = PiecewiseModel::single(protocolDesc(id).defaults(peer, cls, m, dir, &b.origin[d]));
      b.source[d] = Source::Default;
    }
  }
  return b;
}

const DecisionTable& Selector::addPeer(const PeerPath& peer) {
  int k = key(peer);
  if (index_[k] >= 0) return tables_[index_[k]];
  DecisionTable t;
  t.peer = peer;
  for (int mi = 0; mi < kNumMemPairs; ++mi) {
    MemPair m = static_cast<MemPair>(mi);
    std::vector<BoundProtocol>& cands = t.candidates[mi];
    for (int id = 0; id < kNumProtocols; ++id)
      if (cfg_.available[id] && protocolTable()[id].reaches(peer, m)) cands.push_back(model(peer, m, ProtocolId(id)));
    auto reachable = [&](ProtocolId p) {
      return std::any_of(cands.begin(), cands.end(), [p](const BoundProtocol& b) { return b.id == p; });
    };
    for (int di = 0; di < kNumDirections; ++di) {
      Direction d = static_cast<Direction>(di);
      std::vector<DecisionRange>& r = t.ranges[mi][di];
      r = lowerEnvelope(cands, d);
      if (r.empty()) continue;
      if (cfg_.forced != ProtocolId::None) {
        if (reachable(cfg_.forced))
          r = {DecisionRange{0, kSizeInf, cfg_.forced, Source::Override}};
        else
          GSHMEM_LOG_DEBUG(INIT, "GSHMEM_PATH=%s cannot reach %s for %s %s; automatic choice kept",
                           protocolName(cfg_.forced), peerText(peer).c_str(), memPairName(m), directionName(d));
      }
      for (const TuneRule& rule : cfg_.tune) {
        if (!rule.matches(m, d)) continue;
        if (reachable(rule.proto))
          paint(&r, rule.lo, rule.hi, rule.proto);
        else
          GSHMEM_LOG_DEBUG(INIT, "GSHMEM_TUNE rule at character %zu: %s cannot reach %s for %s %s; ignored", rule.pos,
                           protocolName(rule.proto), peerText(peer).c_str(), memPairName(m), directionName(d));
      }
    }
  }
  index_[k] = static_cast<int>(tables_.size());
  tables_.push_back(std::move(t));
  return tables_.back();
}

const DecisionTable* Selector::table(const PeerPath& peer) const {
  int i = index_[key(peer)];
  return i < 0 ? nullptr : &tables_[i];
}

ProtocolId Selector::choose(const PeerPath& peer, MemPair m, Direction d, uint64_t bytes) const {
  const DecisionTable* t = table(peer);
  return t ? t->lookup(m, d, bytes) : ProtocolId::None;
}

Status selectorCreate(const SelectParams& p, const bool (&available)[kNumProtocols], const std::vector<PeerPath>& peers,
                      std::unique_ptr<Selector>* out, std::string* err) {
  SelectorConfig cfg;
  for (int id = 0; id < kNumProtocols; ++id) cfg.available[id] = available[id] && protocolTable()[id].built;
  GSHMEM_CHECK(selectorConfigLoad(p, &cfg, err));
  auto sel = std::make_unique<Selector>(std::move(cfg));
  for (const PeerPath& peer : peers) {
    if (sel->table(peer)) continue;
    const DecisionTable& t = sel->addPeer(peer);
    for (int m = 0; m < kNumMemPairs; ++m)
      for (int d = 0; d < kNumDirections; ++d) {
        if (t.ranges[m][d].empty()) continue;
        std::string row;
        for (const DecisionRange& r : t.ranges[m][d])
          row += " " + rangeText(r.lo, r.hi) + " " + protocolName(r.proto) + " (" + sourceName(r.source) + ")";
        GSHMEM_LOG_INFO(INIT, "peers %s: %s %s:%s", peerText(peer).c_str(), memPairName(MemPair(m)),
                        directionName(Direction(d)), row.c_str());
      }
  }
  *out = std::move(sel);
  return Status::Ok;
}

std::string Selector::describe(const std::string& prefix) const {
  std::string out, s;
  char line[512];
  snprintf(line, sizeof line, "path selection: profile %s, GSHMEM_PATH %s, GSHMEM_TUNE %s\n",
           cfg_.profile_name.empty() ? "none (defaults)" : cfg_.profile_name.c_str(),
           cfg_.forced == ProtocolId::None ? "auto" : protocolName(cfg_.forced),
           cfg_.tune_text.empty() ? "none" : cfg_.tune_text.c_str());
  s += line;
  for (const DecisionTable& t : tables_) {
    s += "  peers " + peerText(t.peer) + ":\n";
    for (int mi = 0; mi < kNumMemPairs; ++mi) {
      if (t.candidates[mi].empty()) continue;
      for (int di = 0; di < kNumDirections; ++di) {
        std::string row = std::string("    ") + memPairName(MemPair(mi)) + " " + directionName(Direction(di)) + ":";
        for (const DecisionRange& r : t.ranges[mi][di])
          row += " " + rangeText(r.lo, r.hi) + " " + protocolName(r.proto) + " (" + sourceName(r.source) + ")";
        s += row + "\n";
      }
      for (const BoundProtocol& b : t.candidates[mi])
        for (int di = 0; di < kNumDirections; ++di)
          for (const ModelRange& r : b.model[di].ranges) {
            snprintf(line, sizeof line, "      model %s %s %s %s: %.3f us + s / %.4g GB/s (%s", protocolName(b.id),
                     memPairName(MemPair(mi)), directionName(Direction(di)), rangeText(r.lo, r.hi).c_str(),
                     r.line.overhead_us, r.line.bandwidth_GBps, sourceName(b.source[di]));
            s += line;
            if (b.source[di] == Source::Profile) {
              snprintf(line, sizeof line, ", %d samples, r2 %.4f)\n", r.samples, r.r2);
              s += line;
            } else {
              s += std::string(": ") + b.origin[di] + ")\n";
            }
          }
    }
  }
  for (size_t b = 0; b < s.size();) {
    size_t e = s.find('\n', b);
    out += prefix + s.substr(b, e - b + 1);
    b = e + 1;
  }
  return out;
}

}  // namespace gshmem
