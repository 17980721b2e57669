// Teams made from a unique id (NVSHMEM's nvshmemx_team_get_uniqueid + nvshmemx_team_init): collective over the new
// team's members only, who share nothing but the id, the team size and each one's index.
//
// The id names the PE that made it (its board host) and a counter: (maker + 1) << 32 | counter, never 0. The members
// meet on board counter % kTeamBoards of the maker's control area: member k writes its entry {id, world PE + 1, used
// slots} into entry k (the id last, after a fence), polls the row until every entry carries the id, and so learns
// every member's world PE and the slots they use. Every member computes the same answer from the same row: the
// lowest slot below kMaxTeams free on all of them (such a team is for device code, whose ids are below kMaxTeams),
// or a failure when the members are not evenly spaced world PEs (gshmem teams are strided sets, as the device team
// table holds them). Entries are never cleared: ids are unique, so a later call on the row simply overwrites them.
// Contract: at most kTeamBoards calls with ids made by one PE in flight at once (a later call on a row must not
// overwrite an entry that a member of an earlier call has not read yet).
#include <sched.h>

#include <chrono>
#include <string>
#include <vector>

#include "base/config.hpp"
#include "core/rma/ops.hpp"
#include "core/sync/sync.hpp"
#include "core/team/team_internal.hpp"

namespace gshmem {

namespace {

struct BoardEntry {
  unsigned long long uid, pe_plus1, used, pad;
};
static_assert(sizeof(BoardEntry) == kTeamBoardEntry, "one board entry");

BoardEntry* boardRow(int b) {
  return reinterpret_cast<BoardEntry*>(reinterpret_cast<char*>(controlArea()) + teamBoardOffset(g_rt.n_pes)) +
         std::size_t(b) * g_rt.n_pes;
}

/// Read the first @p npes entries of the row from @p host until each carries @p uid; one line and the end when
/// GSHMEM_TIMEOUT passes first (naming the indices still missing), or when this PE's entry holds another PE.
std::vector<BoardEntry> awaitMembers(const char* call, int host, BoardEntry* row, uint64_t uid, int npes, int idx) {
  std::vector<BoardEntry> got(npes);
  const long timeout = params().TIMEOUT;
  const auto start = std::chrono::steady_clock::now();
  for (unsigned long spin = 0;; ++spin) {
    ops::get(call, ctxDefault(), got.data(), row, sizeof(BoardEntry) * npes, host);
    std::vector<int> missing;
    for (int k = 0; k < npes; ++k)
      if (got[k].uid != uid) missing.push_back(k);
    if (missing.empty()) break;
    if (g_rt.remote) g_rt.remote->progress();  // over UCX/TCP a member's entry lands here only as this PE progresses
    if (spin > 64) sched_yield();
    if (timeout <= 0 || (spin & 255) != 255) continue;
    const auto waited = std::chrono::steady_clock::now() - start;
    if (waited < std::chrono::seconds(timeout)) continue;
    std::string list;
    for (std::size_t i = 0; i < missing.size() && i < 8; ++i) list += (i ? ", " : "") + std::to_string(missing[i]);
    fatal(call, "the team of %d PEs made from id 0x%llx: members %s%s did not call it within GSHMEM_TIMEOUT (%ld s); "
          "every member must call it with the same id and size and its own index", npes,
          static_cast<unsigned long long>(uid), list.c_str(), missing.size() > 8 ? ", ..." : "", timeout);
  }
  if (got[idx].pe_plus1 != static_cast<unsigned long long>(g_rt.my_pe) + 1)
    fatal(call, "index %d of the team made from id 0x%llx is also taken by PE %llu; give every member its own index",
          idx, static_cast<unsigned long long>(uid), got[idx].pe_plus1 - 1);
  return got;
}

/// Whether the members' world PEs, in index order, are evenly spaced: *start and *stride describe them.
bool strided(const std::vector<BoardEntry>& e, int* start, int* stride) {
  *start = static_cast<int>(e[0].pe_plus1) - 1;
  *stride = e.size() > 1 ? static_cast<int>(e[1].pe_plus1) - static_cast<int>(e[0].pe_plus1) : 1;
  if (e.size() > 1 && *stride == 0) return false;
  for (std::size_t k = 0; k < e.size(); ++k)
    if (static_cast<long>(e[k].pe_plus1) - 1 != *start + static_cast<long>(*stride) * static_cast<long>(k))
      return false;
  return true;
}

}  // namespace

uint64_t teamUniqueIdMake() {
  static std::atomic<uint32_t> counter{0};
  uint32_t c = counter.fetch_add(1, std::memory_order_relaxed) + 1;
  if (c == 0) c = counter.fetch_add(1, std::memory_order_relaxed) + 1;  // 2^32 ids later: never 0
  return (uint64_t(g_rt.my_pe) + 1) << 32 | c;
}

int teamInitFromId(const char* call, uint64_t uid, int npes, int idx, long num_contexts, gshmem_team** out) {
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  *out = nullptr;
  const long host = static_cast<long>(uid >> 32) - 1;
  if (host < 0 || host >= g_rt.n_pes || (uid & 0xffffffffu) == 0)
    fatal(call, "0x%llx is not a team id made by nvshmemx_team_get_uniqueid in this job; make it on one member and "
          "pass it to the others", static_cast<unsigned long long>(uid));
  if (npes < 1 || npes > g_rt.n_pes || idx < 0 || idx >= npes)
    fatal(call, "a team of %d PEs with this PE at index %d: the size must be 1..%d and the index 0..size-1", npes, idx,
          g_rt.n_pes);
  BoardEntry* row = boardRow(static_cast<int>((uid & 0xffffffffu) % kTeamBoards));
  BoardEntry mine{0, static_cast<unsigned long long>(g_rt.my_pe) + 1, teamSlotsUsed(), 0};
  ops::put(call, ctxDefault(), &row[idx].pe_plus1, &mine.pe_plus1, 2 * sizeof(unsigned long long),
           static_cast<int>(host));
  ops::fence(ctxDefault());
  ops::amo<unsigned long long>(call, ctxDefault(), AmoOp::Set, &row[idx].uid, uid, 0, static_cast<int>(host));
  ops::quiet(ctxDefault());
  const std::vector<BoardEntry> members = awaitMembers(call, static_cast<int>(host), row, uid, npes, idx);
  int start = 0, stride = 1, slot = -1;
  uint64_t used = 0;
  for (const BoardEntry& e : members) used |= e.used;
  const int slots = g_rt.team_slots < kMaxTeams ? g_rt.team_slots : kMaxTeams;  // ids the device table holds
  for (int b = 0; b < slots && slot < 0; ++b)
    if (!(used & (uint64_t(1) << b))) slot = b;
  const bool ok = strided(members, &start, &stride);
  if (ok && slot >= 0) {
    *out = teamRegister(call, start, stride, npes, idx, slot, num_contexts);
    teamSyncImpl(*out, call);  // collective, as a split: no member uses the team before every member has it
    return 0;
  }
  if (idx == 0) {
    if (!ok)
      GSHMEM_LOG_WARN(TEAM, "%s: the %d members (world PEs %llu, %llu, ...) are not evenly spaced; gshmem teams are "
                      "strided sets of PEs: NVSHMEM_TEAM_INVALID", call, npes, members[0].pe_plus1 - 1,
                      members[npes > 1 ? 1 : 0].pe_plus1 - 1);
    else
      GSHMEM_LOG_WARN(TEAM, "%s: none of the %d team slots that device code can name is free on every member: "
                      "NVSHMEM_TEAM_INVALID", call, slots);
  }
  return -1;
}

}  // namespace gshmem
