// Process-wide runtime state and the inline hot path shared by every public call.
// Contract: everything here is valid between a successful init and finalize; the hot path performs no
// allocation, syscall or lock (UCX optimization rules). Paths are decided at init: a peer whose regions are
// mapped here is reached by load/store; anything else goes to the remote transport (g_rt.remote), both chosen from
// the transport registry at init (core/lifecycle/init.cpp).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <sched.h>
#include <vector>

#include "base/bootstrap.hpp"
#include "base/log.hpp"
#include "core/select/selector.hpp"
#include "core/runtime/wait_watch.hpp"
#include "transports/transport.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define GSHMEM_CPU_RELAX() _mm_pause()
#elif defined(__aarch64__)
#define GSHMEM_CPU_RELAX() asm volatile("yield" ::: "memory")
#else
#define GSHMEM_CPU_RELAX() std::atomic_signal_fence(std::memory_order_seq_cst)
#endif

#define GSHMEM_LIKELY(x) __builtin_expect(!!(x), 1)
#define GSHMEM_UNLIKELY(x) __builtin_expect(!!(x), 0)

namespace gshmem {

/// Symmetric regions: addresses inside them are translated by offset to any PE.
enum Region : int { kRegionHeap = 0, kRegionData = 1, kNumRegions = 2 };

/// Per-peer hot table entry: base of each of the peer's regions as mapped here, nullptr if not mapped.
struct PeerEntry {
  char* base[kNumRegions];
};

}  // namespace gshmem

/// A team (OpenSHMEM shmem_team_t points at one). PEs of a team are world PEs start + i*stride.
struct gshmem_team {
  int start = 0, stride = 1, size = 0;
  int my_index = -1;               ///< this PE's number in the team, -1 when not a member
  int slot = -1;                   ///< synchronization slot in the control area (same on every member)
  uint64_t epoch = 0;              ///< team_sync calls completed by this PE
  uint64_t checked = 0;            ///< collective calls verified on this team (GSHMEM_CHECK=2, core/sync/agree)
  int sync_algo = -1;              ///< barrier algorithm, chosen at the first sync (core/sync/sync.cpp); -1: not yet
  int lead = -1;                   ///< member the next sync lets leave first (teamLeadNextSync); -1: none
  long num_contexts = 0;           ///< from shmem_team_config_t
  bool predefined = false;         ///< WORLD/SHARED cannot be destroyed
  int worldPe(int team_pe) const { return start + team_pe * stride; }
};

/// A communication context (shmem_ctx_t points at one). PEs given to ctx calls are numbers in `team`.
struct gshmem_ctx {
  gshmem_team* team = nullptr;
  long options = 0;
  bool is_world = true;  ///< team is WORLD: PE numbers need no translation
  bool live = false;     ///< between shmem_ctx_create and shmem_ctx_destroy (core/team/team.cpp: ctxLive)
  bool orphaned = false;  ///< destroyed with its team by shmem_team_destroy (core/team/team.cpp: ctxOrphaned)
};

namespace gshmem {

/// Control area at the start of every PE's heap (not visible to shmem_malloc).
struct alignas(64) SyncCell {
  std::atomic<uint64_t> value;
  char pad[64 - sizeof(uint64_t)];
};
/// Team slots in the fixed part of the control area, which are also the ids the device team table holds
/// (GSHMEMI_TEAM_IDS). GSHMEM_MAX_TEAMS above it adds slots in the team extension (teamExtOffset, below).
constexpr int kMaxTeams = 64;
constexpr int kTeamSlotsLimit = 16384;  ///< most team slots GSHMEM_MAX_TEAMS may ask for (params.def)
constexpr int kMaxRounds = 32;  ///< dissemination rounds: supports 2^32 PEs
struct ControlArea {
  SyncCell sync[kMaxTeams][kMaxRounds];
  /// Agreement claims (core/sync/agree.hpp): two per team slot, then two each for the host and the device heap.
  /// Raw bytes here: the Claim type lives with its protocol.
  alignas(64) unsigned char claims[(kMaxTeams + 2) * 2][64];
  // followed by: split scratch, n_pes uint64_t (team split agreement);
  //              collective scratch, kMaxTeams x n_pes uint64_t (one row per team slot, zeroed with the slot);
  //              collective mailboxes (mailboxOffset: see below);
  //              team boards (teamBoardOffset: below);
  //              the team extension, for slots from kMaxTeams up (teamExtOffset: below);
  //              then padding; the wait line (kWaitLineBytes, core/sync/agree.hpp: where this PE waits), then
  //              the heartbeat line, the last kBeatLineBytes (core/sync/liveness)
};

// Collective mailboxes, owned by the collectives layer (collectives/mailbox.cpp): for every world PE s, this PE
// holds two message slots that only s writes (slot = 64-byte-aligned lines: the message's sequence number, then from
// byte 16 the payload, aligned for every C type a reduction reads in place, long double included), and one
// acknowledgement cell per world PE d that only d writes (how many of this PE's messages d has consumed). Zero when
// the heap is created.
constexpr std::size_t kMailboxLine = 64;
constexpr std::size_t kMailboxHeader = 16;  ///< the sequence word at the start of a slot, padded to 16 bytes
/// Payload bytes per mailbox slot: 8 KiB up to 64 PEs, then less so that the slots stay near 1 MiB per PE
/// (never under 256 bytes). A multiple of kMailboxLine; every PE computes the same value.
inline std::size_t mailboxPayload(int n_pes) {
  std::size_t per = (std::size_t(1) << 20) / (2 * std::size_t(n_pes > 0 ? n_pes : 1));
  per = per > 8192 ? 8192 : per;
  per = per < 256 ? 256 : per;
  return per & ~(kMailboxLine - 1);
}
/// The header, the payload, and padding to whole lines.
inline std::size_t mailboxSlotBytes(int n_pes) { return mailboxPayload(n_pes) + kMailboxLine; }
/// Offset of the mailboxes from the start of the control area (the acknowledgement cells, then the slots).
inline std::size_t mailboxOffset(int n_pes) {
  return (sizeof(ControlArea) + std::size_t(n_pes) * (1 + kMaxTeams) * sizeof(uint64_t) + kMailboxLine - 1) &
         ~(kMailboxLine - 1);
}
inline std::size_t mailboxBytes(int n_pes) {
  return std::size_t(n_pes) * kMailboxLine + std::size_t(n_pes) * 2 * mailboxSlotBytes(n_pes);
}
/// Boards where the members of a team made from a unique id meet (core/team/team_init.cpp): kTeamBoards rows of
/// n_pes entries of 32 bytes, after the mailboxes; on the PE that made the id.
constexpr int kTeamBoards = 8;
constexpr std::size_t kTeamBoardEntry = 32;
inline std::size_t teamBoardOffset(int n_pes) { return mailboxOffset(n_pes) + mailboxBytes(n_pes); }
inline std::size_t teamBoardBytes(int n_pes) { return kTeamBoards * std::size_t(n_pes) * kTeamBoardEntry; }
/// Words of a used-slot mask over `slots` team slots (bit s of word s / 64: slot s).
inline int slotMaskWords(int slots) { return (slots + 63) / 64; }
/// The team extension, present when there are more than kMaxTeams team slots (GSHMEM_MAX_TEAMS), E of them past
/// kMaxTeams: E x kMaxRounds sync cells, E x 2 claim lines (core/sync/agree), E collective scratch rows of n_pes
/// words, then the split scratch's mask words past the first (n_pes x (slotMaskWords - 1) words, member-major).
/// Every PE computes the same layout from the same GSHMEM_MAX_TEAMS (init checks that they agree).
inline std::size_t teamExtOffset(int n_pes) {
  return (teamBoardOffset(n_pes) + teamBoardBytes(n_pes) + kMailboxLine - 1) & ~(kMailboxLine - 1);
}
/// Byte offsets from the control area of the team extension's parts, in order; `end` - `cells` is its size.
struct TeamExtLayout {
  std::size_t cells, claims, rows, masks, end;
};
inline TeamExtLayout teamExtLayout(int n_pes, int slots) {
  const std::size_t extra = slots > kMaxTeams ? std::size_t(slots - kMaxTeams) : 0;
  TeamExtLayout l;
  l.cells = teamExtOffset(n_pes);
  l.claims = l.cells + extra * kMaxRounds * sizeof(SyncCell);
  l.rows = l.claims + extra * 2 * sizeof(ControlArea::claims[0]);
  l.masks = l.rows + extra * std::size_t(n_pes) * sizeof(uint64_t);
  l.end = extra ? l.masks + std::size_t(n_pes) * std::size_t(slotMaskWords(slots) - 1) * sizeof(uint64_t) : l.cells;
  return l;
}
inline std::size_t teamExtBytes(int n_pes, int slots) {
  const TeamExtLayout l = teamExtLayout(n_pes, slots);
  return l.end - l.cells;
}
/// The line before the heartbeat line: where this PE waits (core/sync/agree.hpp, wait::Note).
constexpr std::size_t kWaitLineBytes = 64;
/// Bytes of the control area for `n_pes` PEs and `slots` team slots (page-rounded).
inline std::size_t controlBytes(int n_pes, int slots = kMaxTeams) {
  return (teamExtOffset(n_pes) + teamExtBytes(n_pes, slots) + kWaitLineBytes + kBeatLineBytes + 4095) &
         ~std::size_t(4095);
}

struct Runtime {
  // Hot, read-only after init.
  int my_pe = -1;
  int n_pes = 0;
  char* base[kNumRegions] = {nullptr, nullptr};
  std::size_t size[kNumRegions] = {0, 0};
  PeerEntry* peers = nullptr;
  int check = 1;
  long wait_spins = 2048;
  int team_slots = kMaxTeams;  ///< GSHMEM_MAX_TEAMS: team slots of the control area (the same on every PE)
  bool oversubscribed = false;  ///< some machine of the job runs more PEs than it has cores (same on every PE)
  bool crowded = false;         ///< this PE's machine runs more PEs than it has cores
  Transport* remote = nullptr;  ///< reaches the peers whose regions are not mapped here (UCX), or nullptr
  /// Waits sleep in remote->waitInput instead of yielding: every other PE is behind `remote`, whose messages wake
  /// the sleeper (GSHMEM_WAIT_BLOCK).
  bool wait_block = false;

  // Cold state.
  std::atomic<int> initialized{0};
  bool finalized = false;  ///< shmem_finalize ran (errors then say "after shmem_finalize", not "before init")
  int thread_level = 0;
  std::size_t control_bytes = 0;    ///< bytes at the end of the heap used by the ControlArea + scratch
  std::unique_ptr<Bootstrap> bootstrap;
  std::vector<std::unique_ptr<Transport>> transports;
  std::vector<PeerEntry> peer_table;
  std::vector<int> node_of;
  std::vector<const char*> peer_via;  ///< transport name per PE (Transport::name()), for GSHMEM_INFO
  std::unique_ptr<Selector> selector;  ///< path-selection tables (core/select), built at init
  std::vector<PeerPath> peer_path;     ///< each PE's path class: the selector's key
  std::recursive_mutex alloc_lock;  ///< collective calls (malloc, team split) from several threads
};

extern Runtime g_rt;

// ---- the predefined teams and context: the public API's objects, bound and filled at init (team/team.cpp)
gshmem_team* teamWorld();
gshmem_team* teamShared();
gshmem_ctx* ctxDefault();

/// Print "gshmem: PE <n>: <call>: <message>" and end the job on every PE with a non-zero exit.
[[noreturn]] void fatal(const char* call, const char* fmt, ...) __attribute__((format(printf, 2, 3), cold));
/// As fatal(), but the job ends with exit status @p status (not 0): a PE leaving with that status ends the job.
[[noreturn]] void endJobWithStatus(int status, const char* call, const char* fmt, ...)
    __attribute__((format(printf, 3, 4), cold));
/// For a service thread (the device proxy, a staged server), which has no caller to return a failure to: print
/// "gshmem: PE <n>: <service>: <message>; ending the job" and end the job as fatal() does. The message names what
/// failed (the request, its peer). Only the first failure of the process reports.
[[noreturn]] void serviceFailed(const char* service, const char* fmt, ...)
    __attribute__((format(printf, 2, 3), cold));

// Out-of-line error paths.
[[noreturn]] void errorNotSymmetric(const char* call, const char* what, const void* addr, std::size_t len) __attribute__((cold));
[[noreturn]] void errorBadPe(const char* call, int pe, int n) __attribute__((cold));
[[noreturn]] void errorUnreachable(const char* call, int pe) __attribute__((cold));
/// The core's handler of TransportConfig::on_peer_lost and the bootstrap's: one line naming the lost PE, then the
/// job ends.
[[noreturn]] void peerLost(int pe, const char* why) __attribute__((cold));
[[noreturn]] void errorNotInitialized(const char* call) __attribute__((cold));
[[noreturn]] void errorBadAlignment(const char* call, std::size_t align) __attribute__((cold));
/// @p ptr was not returned by @p allocator ("shmem_malloc/calloc/align/realloc") or was already freed.
[[noreturn]] void errorNotAllocated(const char* call, const void* ptr, const char* allocator) __attribute__((cold));
[[noreturn]] void errorNoDeviceHeap(const char* call) __attribute__((cold));
[[noreturn]] void errorNotInDeviceHeap(const char* call, const char* what, const void* addr, std::size_t len)
    __attribute__((cold));

/// The heap region is [user heap | control area]: the user part starts at the (kHeapAlign-aligned) base, so
/// shmem_align offsets are aligned addresses on every PE; the control area sits at the same offset everywhere.
constexpr std::size_t kHeapAlign = std::size_t(1) << 30;
inline std::size_t controlOffset() { return g_rt.size[kRegionHeap] - g_rt.control_bytes; }
inline ControlArea* controlArea() { return reinterpret_cast<ControlArea*>(g_rt.base[kRegionHeap] + controlOffset()); }
/// The kMaxRounds synchronization cells of team slot `slot` (below g_rt.team_slots), at the same offset in every
/// PE's heap: in the fixed part below kMaxTeams, else in the team extension.
inline SyncCell* slotCells(int slot) {
  if (GSHMEM_LIKELY(slot < kMaxTeams)) return controlArea()->sync[slot];
  return reinterpret_cast<SyncCell*>(reinterpret_cast<char*>(controlArea()) + teamExtOffset(g_rt.n_pes)) +
         std::size_t(slot - kMaxTeams) * kMaxRounds;
}
/// This PE's acknowledgement cell for messages it sent to world PE `d` (written by `d`).
inline uint64_t* mailboxAck(int d) {
  return reinterpret_cast<uint64_t*>(reinterpret_cast<char*>(controlArea()) + mailboxOffset(g_rt.n_pes) +
                                     std::size_t(d) * kMailboxLine);
}
/// Slot `parity` (0 or 1) of the messages from world PE `s`, at the same offset in every PE's heap.
inline char* mailboxSlot(int s, int parity) {
  return reinterpret_cast<char*>(controlArea()) + mailboxOffset(g_rt.n_pes) + std::size_t(g_rt.n_pes) * kMailboxLine +
         (std::size_t(s) * 2 + parity) * mailboxSlotBytes(g_rt.n_pes);
}


/// Which symmetric region holds [addr, addr+len), and the offset in it. Returns -1 if none.
__attribute__((always_inline)) inline int regionOf(const void* addr, std::size_t len, std::size_t* off) {
  for (int r = 0; r < kNumRegions; ++r) {
    std::size_t o = reinterpret_cast<uintptr_t>(addr) - reinterpret_cast<uintptr_t>(g_rt.base[r]);
    if (o < g_rt.size[r] && len <= g_rt.size[r] - o) {
      *off = o;
      return r;
    }
  }
  return -1;
}

/// Which symmetric region holds [addr, addr+len) as the user's calls see it, and the offset in it; -1 if none. The
/// heap's control area (its last g_rt.control_bytes) belongs to the runtime and is outside every user range, so a
/// user RMA, AMO, signal or wait on it gets the same "not symmetric" error as any other bad address.
__attribute__((always_inline)) inline int userRegionOf(const void* addr, std::size_t len, std::size_t* off) {
  const std::size_t heap = g_rt.size[kRegionHeap] - g_rt.control_bytes;
  std::size_t o = reinterpret_cast<uintptr_t>(addr) - reinterpret_cast<uintptr_t>(g_rt.base[kRegionHeap]);
  if (o < heap && len <= heap - o) {
    *off = o;
    return kRegionHeap;
  }
  o = reinterpret_cast<uintptr_t>(addr) - reinterpret_cast<uintptr_t>(g_rt.base[kRegionData]);
  if (o < g_rt.size[kRegionData] && len <= g_rt.size[kRegionData] - o) {
    *off = o;
    return kRegionData;
  }
  return -1;
}

// The device (GPU) symmetric heap is region kRegionDevice. It is never in the host peer table
// (its mapped peer pointers are device addresses, unusable by memcpy): host addresses resolve exactly as before,
// and only an address outside the host regions takes the out-of-line resolveCold(), which returns nullptr with
// *ra naming the device region, so the existing "not mapped" branch hands it to offPut/offGet/offAmo below.
constexpr int kRegionDevice = kNumRegions;
/// Out of line (core/device): a device-heap address fills *ra and returns nullptr; anything else is fatal.
char* resolveCold(const char* call, const char* what, const void* addr, std::size_t len, int pe, RemoteAddr* ra)
    __attribute__((cold, noinline));
void devicePut(const char* call, const RemoteAddr& ra, const void* src, std::size_t n) __attribute__((cold));
void deviceGet(const char* call, const RemoteAddr& ra, void* dst, std::size_t n) __attribute__((cold));
uint64_t deviceAmo(const char* call, const RemoteAddr& ra, AmoOp op, unsigned size, uint64_t value, uint64_t cond)
    __attribute__((cold));

/// Locate symmetric [addr, addr+len) on world PE `pe`. Returns a pointer usable here when the peer's region is
/// mapped; otherwise nullptr, with *ra naming the remote location for the transport.
/// Fatal (naming `call`) when `pe` is out of range or the range is not symmetric.
__attribute__((always_inline)) inline char* resolve(const char* call, const char* what, const void* addr,
                                                    std::size_t len, int pe, RemoteAddr* ra) {
  if (GSHMEM_UNLIKELY(static_cast<unsigned>(pe) >= static_cast<unsigned>(g_rt.n_pes))) errorBadPe(call, pe, g_rt.n_pes);
  std::size_t off;
  int r = regionOf(addr, len, &off);
  if (GSHMEM_UNLIKELY(r < 0)) return resolveCold(call, what, addr, len, pe, ra);  // device heap or fatal
  char* b = g_rt.peers[pe].base[r];
  if (GSHMEM_LIKELY(b != nullptr)) return b + off;
  *ra = RemoteAddr{pe, r, off};
  return nullptr;
}

/// Like resolve(), for callers that need load/store access: fatal when `pe` is not mapped here.
__attribute__((always_inline)) inline char* peerPtr(const char* call, const char* what, const void* addr,
                                                    std::size_t len, int pe) {
  RemoteAddr ra;
  char* p = resolve(call, what, addr, len, pe, &ra);
  if (GSHMEM_UNLIKELY(p == nullptr)) errorUnreachable(call, pe);
  return p;
}

// Remote path (core/rma/remote.cpp), out of line: each is fatal with a one-line message when the transport fails.
void remotePut(const char* call, const RemoteAddr& ra, const void* src, std::size_t n);
void remoteGet(const char* call, const RemoteAddr& ra, void* dst, std::size_t n);
uint64_t remoteAmo(const char* call, const RemoteAddr& ra, AmoOp op, unsigned size, uint64_t value, uint64_t cond);
/// Post an 8-byte store into a synchronization cell the target polls (not waited for by quiet).
/// Store (or atomically add, `add`) `value` into a 64-bit word a remote PE polls: not tracked by quiet, ordered
/// after earlier signals to that PE (Transport::signalNbi / signalAddNbi).
void remoteSignal(const char* call, const RemoteAddr& ra, uint64_t value, bool add = false);
/// remoteSignal's store for a word nobody waits for at once (Transport::signalLazy): it may travel with this PE's
/// next message to that PE, or leave at the next fence or wait poll.
void remoteSignalLazy(const char* call, const RemoteAddr& ra, uint64_t value);
/// Data then signal (set or add) to one PE through the remote transport (Transport::putSignal).
void remotePutSignal(const char* call, const RemoteAddr& rd, const void* src, std::size_t n, const RemoteAddr& rs,
                     uint64_t value, bool add);
void remoteFence(const char* call);
void remoteQuiet(const char* call);
/// True when some of the `size` world PEs start, start + stride, ... is reached through the remote transport (its
/// heap is not mapped here). Every one of them computes the same answer: mapped is the same-node relation (or
/// nobody, under GSHMEM_TRANSPORTS=ucx). Without a remote transport, no loop.
inline bool anyUnmapped(int start, int stride, int size) {
  if (g_rt.remote == nullptr) return false;
  for (int i = 0; i < size; ++i)
    if (g_rt.peers[start + i * stride].base[kRegionHeap] == nullptr) return true;
  return false;
}
/// Calibration hook: Transport::setAggregate on the remote transport (0 when there is none). See transport.hpp.
std::size_t remoteSetAggregate(std::size_t bytes);

// The not-mapped branch of every op: the device heap (core/device) or the remote transport.
inline void offPut(const char* call, const RemoteAddr& ra, const void* src, std::size_t n) {
  if (ra.region == kRegionDevice) devicePut(call, ra, src, n);
  else remotePut(call, ra, src, n);
}
inline void offGet(const char* call, const RemoteAddr& ra, void* dst, std::size_t n) {
  if (ra.region == kRegionDevice) deviceGet(call, ra, dst, n);
  else remoteGet(call, ra, dst, n);
}
inline uint64_t offAmo(const char* call, const RemoteAddr& ra, AmoOp op, unsigned size, uint64_t value, uint64_t cond) {
  if (ra.region == kRegionDevice) return deviceAmo(call, ra, op, size, value, cond);
  return remoteAmo(call, ra, op, size, value, cond);
}

/// The world PE of `pe` in the context's team; fatal when out of range.
inline int ctxWorldPe(const char* call, const gshmem_ctx* ctx, int pe) {
  if (GSHMEM_LIKELY(ctx->is_world)) return pe;
  const gshmem_team* t = ctx->team;
  if (GSHMEM_UNLIKELY(static_cast<unsigned>(pe) >= static_cast<unsigned>(t->size))) errorBadPe(call, pe, t->size);
  return t->worldPe(pe);
}

/// Copy for the load/store path. From 256 KiB up, `rep movsb` (fast-strings microcode) is as fast as glibc's memcpy
/// or faster, most of all where glibc switches to non-temporal stores; below it memcpy is as fast or faster.
/// benchmarks/micro measures both.
constexpr std::size_t kMovsbMin = std::size_t(256) << 10;
__attribute__((always_inline)) inline void copyBytes(void* dst, const void* src, std::size_t n) {
#if defined(__x86_64__)
  if (GSHMEM_UNLIKELY(n >= kMovsbMin)) {
    asm volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
    return;
  }
#endif
  std::memcpy(dst, src, n);
}

/// Longest sleep of one poll of a wait in Transport::waitInput: it bounds a wait whose flag is stored by no message
/// (another thread of this process), and the watchdog's look at the clock every kWaitPollStride polls.
constexpr int kWaitBlockMs = 1;

/// Poll `ready()` until true: `max_spins` polls, then give up the core at every poll (PEs may outnumber cores):
/// sleep until a message arrives when every other PE is behind the remote transport (g_rt.wait_block), else yield.
/// Every kWaitPollStride polls the watchdog looks at the clock; a PE silent for GSHMEM_TIMEOUT ends the job
/// naming `call`.
template <typename F>
inline void waitForSpins(F&& ready, const char* call, long max_spins) {
  long spins = 0;
  WaitWatch watch;
  while (!ready()) {
    if (GSHMEM_UNLIKELY(++watch.polls % kWaitPollStride == 0)) waitPoll(call, &watch);
    if (g_rt.remote) g_rt.remote->progress();
    if (spins < max_spins) {
      ++spins;
      GSHMEM_CPU_RELAX();
    } else if (g_rt.wait_block) {
      if (!ready()) g_rt.remote->waitInput(kWaitBlockMs);
    } else {
      sched_yield();
    }
  }
}

/// Polls before a barrier's wait yields: none on a crowded machine, where a barrier cannot end before every PE
/// sharing this core has run (core/sync/sync.cpp), else GSHMEM_WAIT_SPINS.
inline long barrierSpins() { return g_rt.crowded ? 0 : g_rt.wait_spins; }

/// waitForSpins with GSHMEM_WAIT_SPINS polls before the first yield (at most 4 on a crowded machine).
template <typename F>
inline void waitFor(F&& ready, const char* call = "a blocking wait") {
  waitForSpins(static_cast<F&&>(ready), call, g_rt.wait_spins);
}

}  // namespace gshmem
