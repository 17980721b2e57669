// Agreement checks: a collective call that every PE of a group must make with the same arguments (the symmetric
// heap calls, and with GSHMEM_CHECK=2 the team collectives) is verified around the group's ring, folded into the
// synchronization the call does anyway. Before the sync each member stores a Claim (its sequence number on that
// line, the public call and up to three argument words) into the next member's control area; after the sync each
// member compares the claim its previous member left with its own. A difference anywhere shows at some member,
// which ends the job naming both PEs and both calls.
// Lines: one per team slot, one for the host heap, one for the device heap. Two claim slots per line, by sequence parity: the previous member
// can post claim k+2 only after this member has entered sync k+1, which it does after reading claim k.
#pragma once
#include <cstdint>

#include "core/runtime/runtime.hpp"

namespace gshmem::agree {

/// One PE's account of one collective call. 64 bytes, written by one PE into another's control area.
struct alignas(64) Claim {
  uint64_t seq;       ///< 1, 2, ... per line on each PE; 0: never posted
  uint64_t arg[3];    ///< what must match (sizes, root, offsets)
  char call[32];      ///< public name, for the message (truncated)
};
static_assert(sizeof(Claim) == 64, "a claim is one cache line");

/// Claim lines: one per team slot (the line is the slot: 0 .. g_rt.team_slots - 1), and the host heap's and the
/// device heap's. The fixed control area holds the first kMaxTeams slots' lines then the two heap lines; the team
/// extension holds the other slots' lines.
constexpr int kHeapLine = -1;
constexpr int kDeviceHeapLine = -2;
constexpr int kFixedLines = kMaxTeams + 2;
static_assert(sizeof(ControlArea::claims) == kFixedLines * 2 * sizeof(Claim),
              "the control area holds the fixed claim lines");

/// An argument word that names nothing for this call (no block, no root, counts that may differ): compared like
/// any other word, never shown in the message.
constexpr uint64_t kNotApplicable = ~uint64_t(0);

/// What the agreement is about, for the message: `what` ("symmetric heap call") and the names of the argument words
/// (nullptr: never shown; a kNotApplicable word is not shown).
struct Subject {
  const char* what;
  const char* arg_names[3];
};

/// Store this PE's claim for call number `seq` on `line` into `next_pe`'s control area (a put when not mapped; the
/// sync that follows completes it). Not thread-safe per line: callers hold the lock of their collective.
void post(const char* call, int line, int next_pe, uint64_t seq, const uint64_t (&arg)[3]);
/// After the sync: fatal unless `prev_pe` posted the same seq and arguments on `line`, and (unless `ignore_call`:
/// shmem_malloc and shmem_calloc of one size agree) the same call.
void verify(const char* call, int line, int prev_pe, uint64_t seq, const uint64_t (&arg)[3], const Subject& subject,
            bool ignore_call);
/// One collective heap call (host or device heap, world PEs): the constructor posts this PE's claim (bytes,
/// alignment, block offset; kNotApplicable where one does not apply) before the call's barrier, check() verifies
/// the previous PE's after it. Nothing with GSHMEM_CHECK=0 or one PE. `seq` counts the calls of the line on this
/// PE.
class HeapCall {
 public:
  HeapCall(const char* call, int line, uint64_t* seq, uint64_t bytes, uint64_t align, uint64_t block);
  void check() const;

 private:
  const char* call_;
  int line_;
  uint64_t seq_ = 0;  ///< 0: not checked
  uint64_t arg_[3];
};

/// Forget the claims of `line` on this PE (a team slot being reused).
void reset(int line);

}  // namespace gshmem::agree

// Where each PE waits: the hang diagnoser. A PE entering a blocking wait of a collective or a synchronization that is
// not over at once (the slow path) notes in the wait line of its own control area (runtime.hpp, kWaitLineBytes) the
// public call, what it waits for (a team sync and its number, a mailbox message and its number, a peer's release)
// and from which PE; leaving the wait clears it. When a wait has lasted GSHMEM_TIMEOUT while every PE is alive (the
// liveness watchdog's stuck hook), the PE reads every PE's wait line (in place when mapped, else with a get); when every
// PE waits and no line changes for a second (a deadlock, not a long computation on some PE while the others wait),
// the job ends with one line per PE: the PEs that made different or missing calls are named.
namespace gshmem::wait {

enum Kind : uint32_t { kNone = 0, kSync = 1, kMessage = 2, kRelease = 3, kOther = 4 };

/// The wait line. One writer: its PE.
struct alignas(64) Line {
  uint32_t kind;     ///< Kind; kNone: not waiting (stored last on entry, first on exit)
  int32_t peer;      ///< world PE waited for, or -1
  int32_t team;      ///< team slot, or -1
  int32_t team_size; ///< members of that team
  uint64_t seq;      ///< sync number on the team, or message number on the channel
  char call[40];     ///< public name (truncated, NUL-terminated)
};
static_assert(sizeof(Line) == kWaitLineBytes, "the wait line is one cache line");

/// RAII: this PE waits in `call` for `kind` number `seq` from world PE `peer` (team slot `team` of `team_size`).
class Note {
 public:
  Note(const char* call, Kind kind, int peer, uint64_t seq, int team = -1, int team_size = 0) __attribute__((cold));
  ~Note();
  Note(const Note&) = delete;
  Note& operator=(const Note&) = delete;
};

}  // namespace gshmem::wait
