// Agreement checks around a group's ring (see agree.hpp).
#include "core/sync/agree.hpp"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/rma/ops.hpp"
#include "core/sync/liveness.hpp"

namespace gshmem::agree {

namespace {

/// The two claims of `line` (agree.hpp: the heap lines after the first kMaxTeams slots' in the fixed area, the
/// other slots' lines in the team extension after its sync cells).
Claim* lineClaims(int line) {
  if (line < 0) return reinterpret_cast<Claim*>(controlArea()->claims) + (kMaxTeams - 1 - line) * 2;
  if (line < kMaxTeams) return reinterpret_cast<Claim*>(controlArea()->claims) + line * 2;
  char* claims = reinterpret_cast<char*>(controlArea()) + teamExtLayout(g_rt.n_pes, g_rt.team_slots).claims;
  return reinterpret_cast<Claim*>(claims) + std::size_t(line - kMaxTeams) * 2;
}
Claim& slotOf(int line, uint64_t seq) { return lineClaims(line)[seq & 1]; }

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

namespace gshmem::wait {

namespace {

/// The wait line of this PE's control area; the same offset in every PE's heap.
Line* lineOf() {
  return reinterpret_cast<Line*>(reinterpret_cast<char*>(controlArea()) + g_rt.control_bytes -
                                 liveness::kBeatBytes - kWaitLineBytes);
}

std::atomic<uint32_t>& kindOf(Line* l) { return *reinterpret_cast<std::atomic<uint32_t>*>(&l->kind); }

/// PE `pe`'s wait line as it stands (a copy): loaded where its heap is mapped here, else fetched with a get.
bool readLine(const char* call, int pe, Line* out) {
  Line* mine = lineOf();
  RemoteAddr ra;
  if (const char* p = resolve(call, "wait line", mine, sizeof *out, pe, &ra)) {
    std::memcpy(out, p, sizeof *out);
    out->kind = __atomic_load_n(&reinterpret_cast<const Line*>(p)->kind, __ATOMIC_ACQUIRE);
    return true;
  }
  ops::get(call, ctxDefault(), out, mine, sizeof *out, pe);
  return true;
}

/// "waits in shmem_barrier_all: sync #4 of team slot 0 (4 PEs), for PE 2"
std::string describe(int pe, const Line& l) {
  char b[256];
  const int n = snprintf(b, sizeof b, "PE %d: ", pe);
  char* o = b + n;
  const std::size_t left = sizeof b - n;
  switch (l.kind) {
    case kSync:
      snprintf(o, left, "waits in %s: sync #%" PRIu64 " of team slot %d (%d PEs), for PE %d", l.call, l.seq, l.team,
               l.team_size, l.peer);
      break;
    case kMessage:
      snprintf(o, left, "waits in %s: message #%" PRIu64 " from PE %d", l.call, l.seq, l.peer);
      break;
    case kRelease:
      snprintf(o, left, "waits in %s: for PE %d to take message #%" PRIu64, l.call, l.peer, l.seq);
      break;
    case kOther:
      snprintf(o, left, "waits in %s", l.call);
      break;
    default:
      snprintf(o, left, "not in a collective or synchronization wait (running, or waiting on a user variable)");
  }
  return b;
}

bool sameWait(const Line& a, const Line& b) {
  return a.kind == b.kind && a.peer == b.peer && a.team == b.team && a.seq == b.seq &&
         strncmp(a.call, b.call, sizeof a.call) == 0;
}

/// Stuck hook. Ends the job only on a deadlock: every PE waits, and every PE's wait line stayed the same for a
/// second of this PE's scans (a PE that computes, or whose waits come and go, may still release the others: a long
/// computation on one PE while the others wait is not reported). The lowest-numbered PE reports at once, any other
/// after 2 s more (in case the lowest cannot). A wait the library did not note (a wait on a user variable) is noted
/// here, by its call.
void diagnose(const char* call, uint64_t waited_ns) {
  static std::atomic<bool> busy{false};
  static std::vector<Line> prev;
  static uint64_t stable_since_ns = 0;
  if (busy.exchange(true)) return;  // another thread of this PE is here
  Line* mine = lineOf();
  if (kindOf(mine).load(std::memory_order_relaxed) == kNone) {
    mine->peer = -1;
    mine->team = -1;
    snprintf(mine->call, sizeof mine->call, "%s", call);
    kindOf(mine).store(kOther, std::memory_order_release);
  }
  const int n = g_rt.n_pes;
  std::vector<Line> lines(n);
  std::vector<bool> known(n);
  bool all_wait = true, same = prev.size() == std::size_t(n);
  for (int pe = 0; pe < n; ++pe) {
    known[pe] = readLine(call, pe, &lines[pe]);
    if (known[pe] && lines[pe].kind == kNone) all_wait = false;
    if (same && !sameWait(lines[pe], prev[pe])) same = false;
  }
  if (!all_wait || !same) {
    prev = all_wait ? lines : std::vector<Line>();
    stable_since_ns = waited_ns;
    busy.store(false);
    return;
  }
  const uint64_t stable_ns = waited_ns - stable_since_ns;
  if (stable_ns < 1000000000ull || (g_rt.my_pe != 0 && stable_ns < 3000000000ull)) {
    busy.store(false);
    return;
  }
  std::string all;
  for (int pe = 0; pe < n; ++pe) {
    all += "gshmem: ";
    all += known[pe] ? describe(pe, lines[pe]) : "PE " + std::to_string(pe) + ": wait line not readable";
    all += "\n";
  }
  fputs(all.c_str(), stderr);
  fflush(stderr);
  fatal(call, "every PE is alive but this PE has waited %.0f s (GSHMEM_TIMEOUT) and every PE waits (listed "
              "above): the PEs must make the same collective and synchronization calls, on the same teams, in the "
              "same order",
        double(waited_ns) / 1e9);
}

const bool kHookSet = (liveness::setStuckHook(&diagnose), true);

}  // namespace

Note::Note(const char* call, Kind kind, int peer, uint64_t seq, int team, int team_size) {
  (void)kHookSet;
  Line* l = lineOf();
  l->peer = peer;
  l->team = team;
  l->team_size = team_size;
  l->seq = seq;
  snprintf(l->call, sizeof l->call, "%s", call);
  kindOf(l).store(kind, std::memory_order_release);
}

Note::~Note() { kindOf(lineOf()).store(kNone, std::memory_order_release); }

}  // namespace gshmem::wait
