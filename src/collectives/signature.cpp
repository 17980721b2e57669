// Decoding a call summary for the mismatch message (signature.hpp).
#include "collectives/signature.hpp"

#include <cstdio>
#include <string>

#include "core/api.hpp"

namespace gshmem::coll::sig {

namespace {

struct Parts {
  uint32_t family, op, cls, lg, count;
};
Parts split(uint32_t s) { return {s >> 21, (s >> 18) & 7, (s >> 16) & 3, (s >> 14) & 3, s & 0x3FFF}; }

const char* familyName(uint32_t f) {
  static const char* const kNames[] = {"no collective", "a broadcast", "an fcollect",
                                       "a collect",     "an alltoall", "a reduction"};
  return f < sizeof kNames / sizeof *kNames ? kNames[f] : "an unknown call";
}
const char* opName(uint32_t op) {
  static const char* const kNames[] = {"none", "max", "min", "sum", "prod", "and", "or", "xor"};
  return kNames[op & 7];
}
std::string typeName(const Parts& p) {
  static const char* const kClass[] = {"signed integer", "unsigned integer", "floating-point", "complex"};
  char b[64];
  snprintf(b, sizeof b, "%s%s elements",
           p.lg == 3   ? "8+ byte "
           : p.lg == 2 ? "4-byte "
           : p.lg == 1 ? "2-byte "
                       : "1-byte ",
           kClass[p.cls]);
  return b;
}
std::string count(uint32_t c) {
  if (c <= kExactMax) return std::to_string(c);
  return "more than " + std::to_string(kExactMax);
}

}  // namespace

void mismatch(const char* call, int pe, uint32_t here, uint32_t there) {
  static const char* const kFix =
      "every PE of a team or active set must make the same collective calls in the same order with the same "
      "element count, root, operator and type";
  const Parts h = split(here), t = split(there);
  const char* role = h.family == kBroadcast ? ", the root" : "";
  if (h.family != t.family)
    fatal(
        call, "%s here but PE %d sent %s%s; %s", familyName(h.family), pe, familyName(t.family),
        t.family == kBroadcast ? " (as its root: if this PE made that broadcast, the PEs passed different roots)" : "",
        kFix);
  if (h.op != t.op) fatal(call, "operator %s here but %s at PE %d; %s", opName(h.op), opName(t.op), pe, kFix);
  if (h.cls != t.cls || h.lg != t.lg)
    fatal(call, "%s here but %s at PE %d; %s", typeName(h).c_str(), typeName(t).c_str(), pe, kFix);
  if (h.count != t.count)
    fatal(call, "nelems %s here but %s at PE %d%s; %s", count(h.count).c_str(), count(t.count).c_str(), pe, role, kFix);
  fatal(call, "call summary %#x here but %#x at PE %d; %s", here, there, pe, kFix);
}

}  // namespace gshmem::coll::sig
