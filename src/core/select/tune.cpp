#include "core/select/tune.hpp"

#include "core/select/profile.hpp"

namespace gshmem {


Status tuneParse(const std::string& s, std::vector<TuneRule>* out, std::string* err) {
  std::vector<TuneRule> rules;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find_first_of(",;", start);
    if (end == std::string::npos) end = s.size();
    std::string text = trim(s.substr(start, end - start));
    TuneRule r;
    r.pos = start + 1;
    auto fail = [&](const std::string& what) {
      *err = "GSHMEM_TUNE: at character " + std::to_string(r.pos) + " ('" + text + "'): " + what;
      return Status::InvalidArgument;
    };
    if (text.empty()) {
      if (s.find_first_not_of(" \t") == std::string::npos) break;  // an empty string: no rules
      if (end == s.size() && start > 0) break;                     // a trailing separator
      return fail("empty rule; expected dir:mem:range:@protocol");
    }
    std::vector<std::string> f;
    for (size_t b = 0;;) {
      size_t c = text.find(':', b);
      f.push_back(trim(text.substr(b, c == std::string::npos ? std::string::npos : c - b)));
      if (c == std::string::npos) break;
      b = c + 1;
    }
    if (f.size() != 4) return fail("expected 4 fields dir:mem:range:@protocol, found " + std::to_string(f.size()));
    Direction d;
    if (f[0] == "*")
      r.dir = -1;
    else if (directionParse(f[0], &d))
      r.dir = static_cast<int>(d);
    else
      return fail("direction '" + f[0] + "' is not put, get or *");
    MemPair m;
    if (f[1] == "*")
      r.mem = -1;
    else if (memPairParse(f[1], &m))
      r.mem = static_cast<int>(m);
    else
      return fail("memory pair '" + f[1] + "' is not hh, hd, dh, dd or *");
    if (f[2] != "*") {
      size_t dash = f[2].find('-');
      if (dash == std::string::npos) return fail("range '" + f[2] + "' is not lo-hi (e.g. 0-64K, 64K-inf) or *");
      std::string lo = trim(f[2].substr(0, dash)), hi = trim(f[2].substr(dash + 1));
      if (!selectParseSize(lo, &r.lo) || r.lo == kSizeInf)
        return fail("size '" + lo + "' is not a size (e.g. 512, 64K, 2M)");
      if (!selectParseSize(hi, &r.hi)) return fail("size '" + hi + "' is not a size or inf");
      if (r.hi <= r.lo) return fail("range '" + f[2] + "' is empty (hi is exclusive and must exceed lo)");
    }
    if (f[3].size() < 2 || f[3][0] != '@') return fail("protocol '" + f[3] + "' must be written @name");
    r.proto = protocolByName(f[3].substr(1));
    if (r.proto == ProtocolId::None)
      return fail("unknown protocol '" + f[3].substr(1) + "' (known: " + protocolNames() + ")");
    rules.push_back(r);
    start = end + 1;
  }
  *out = std::move(rules);
  return Status::Ok;
}

Status pathParse(const std::string& s, ProtocolId* out, std::string* err) {
  std::string v = trim(s);
  if (v.empty() || v == "auto") return *out = ProtocolId::None, Status::Ok;
  ProtocolId p = protocolByName(v);
  if (p == ProtocolId::None) {
    *err = "GSHMEM_PATH='" + s + "' is not auto or a protocol (" + protocolNames() + ")";
    return Status::InvalidArgument;
  }
  *out = p;
  return Status::Ok;
}

}  // namespace gshmem
