// Agreement checks around a group's ring (see agree.hpp).
#include "core/sync/agree.hpp"

#include <cinttypes>
#include <cstring>

namespace gshmem::agree {

namespace {

Claim* line0() { return reinterpret_cast<Claim*>(controlArea()->claims); }
Claim& slotOf(int line, uint64_t seq) { return line0()[line * 2 + (seq & 1)]; }

Claim make(const char* call, uint64_t seq, const uint64_t (&arg)[3]) {
  Claim c{};
  c.seq = seq;
  for (int i = 0; i < 3; ++i) c.arg[i] = arg[i];
  std::memcpy(c.call, call, strnlen(call, sizeof c.call));  // not NUL-terminated when it fills the field
  return c;
}

/// "shmem_malloc(bytes 64, alignment 64)"
void describe(const Claim& c, const Subject& sub, char* out, std::size_t n) {
  int k = snprintf(out, n, "%.*s(", int(strnlen(c.call, sizeof c.call)), c.call);
  const char* sep = "";
  for (int i = 0; i < 3 && k > 0 && std::size_t(k) < n; ++i) {
    if (!sub.arg_names[i] || c.arg[i] == kNotApplicable) continue;
    k += snprintf(out + k, n - k, "%s%s %" PRIu64, sep, sub.arg_names[i], c.arg[i]);
    sep = ", ";
  }
  if (k > 0 && std::size_t(k) < n) snprintf(out + k, n - k, ")");
}

}  // namespace

void post(const char* call, int line, int next_pe, uint64_t seq, const uint64_t (&arg)[3]) {
  const Claim c = make(call, seq, arg);
  Claim* mine = &slotOf(line, seq);
  RemoteAddr ra;
  char* p = resolve(call, "agreement claim", mine, sizeof c, next_pe, &ra);
  if (p) std::memcpy(p, &c, sizeof c);  // published by the sync's release
  else remotePut(call, ra, &c, sizeof c);
}

void verify(const char* call, int line, int prev_pe, uint64_t seq, const uint64_t (&arg)[3], const Subject& subject,
            bool ignore_call) {
  Claim got;
  std::memcpy(&got, &slotOf(line, seq), sizeof got);  // after the sync's acquire
  const bool same_args = got.arg[0] == arg[0] && got.arg[1] == arg[1] && got.arg[2] == arg[2];
  const bool same_call = ignore_call || strncmp(got.call, call, sizeof got.call) == 0;
  if (GSHMEM_LIKELY(got.seq == seq && same_args && same_call)) return;
  const Claim mine = make(call, seq, arg);
  char theirs[160], ours[160];
  describe(got, subject, theirs, sizeof theirs);
  describe(mine, subject, ours, sizeof ours);
  if (got.seq != seq) {
    char before[200] = "";
    if (got.seq) snprintf(before, sizeof before, " (its #%" PRIu64 " was %s)", got.seq, theirs);
    fatal(call, "PE %d did not make this PE's %s #%" PRIu64 ", %s%s; every PE must make the same %ss in the same "
                "order",
          prev_pe, subject.what, seq, ours, before, subject.what);
  }
  fatal(call, "PE %d's %s #%" PRIu64 " was %s where this PE's is %s; every PE must make the same %ss in the same "
              "order with the same arguments",
        prev_pe, subject.what, seq, theirs, ours, subject.what);
}

HeapCall::HeapCall(const char* call, int line, uint64_t* seq, uint64_t bytes, uint64_t align, uint64_t block)
    : call_(call), line_(line), arg_{bytes, align, block} {
  if (g_rt.check < 1 || g_rt.n_pes < 2) return;
  seq_ = ++*seq;
  post(call, line, (g_rt.my_pe + 1) % g_rt.n_pes, seq_, arg_);
}

void HeapCall::check() const {
  if (seq_ == 0) return;
  static const Subject kHost{"symmetric heap call", {"bytes", "alignment", "block offset"}};
  static const Subject kDevice{"device symmetric heap call", {"bytes", "alignment", "block offset"}};
  // The names may differ: shmem_malloc and shmem_calloc of one size agree.
  verify(call_, line_, (g_rt.my_pe + g_rt.n_pes - 1) % g_rt.n_pes, seq_, arg_,
         line_ == kDeviceHeapLine ? kDevice : kHost, true);
}

void reset(int line) {
  std::memset(&slotOf(line, 0), 0, sizeof(Claim));
  std::memset(&slotOf(line, 1), 0, sizeof(Claim));
}

}  // namespace gshmem::agree
