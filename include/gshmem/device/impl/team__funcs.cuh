// Device teams (layer 3 bodies): the team queries and the barrier of a team other than the world. Included by
// api.cuh under nvcc, after api__funcs.cuh.
//
// Contract:
//   * A team id (gshmem_team_t, team_ids.h) names, on each PE, the team of that id this PE belongs to; the table
//     behind it (DeviceHandle::teams) is written by the host when a team is made or destroyed, so a kernel sees the
//     teams that existed when it was launched.
//   * GSHMEM_TEAM_WORLD never reads the table: its queries and its barrier use the handle's own fields and words.
//   * The barrier of another team is a flat all-to-all over the team's row of synchronization words
//     (deviceTeamSyncOffset): each member announces its epoch in every member's row, then waits for every member's
//     announcement in its own. Members whose heap is not mapped are reached through the proxy, as barrier_all does.
#pragma once

namespace gshmem {
namespace dev {

/// The world as a team: no table read.
GSHMEM_DEVICE_INLINE DeviceTeam worldTeam(const DeviceHandle& h) { return DeviceTeam{0, 1, h.n_pes, h.my_pe}; }

/// The team of id @p team as this PE sees it; DeviceTeam::size == 0 when this PE is in no team of that id.
GSHMEM_DEVICE_INLINE DeviceTeam teamOf(const DeviceHandle& h, gshmem_team_t team) {
  if (team == GSHMEM_TEAM_WORLD) return worldTeam(h);
  if (static_cast<unsigned>(team) >= static_cast<unsigned>(kDeviceTeams) || h.teams == nullptr) return DeviceTeam{};
  return h.teams[team];
}

/// This PE's index in @p team, or -1 when it is not a member (NVSHMEM's nvshmem_team_my_pe).
GSHMEM_DEVICE_INLINE int teamMyPe(const DeviceHandle& h, gshmem_team_t team) {
  const DeviceTeam t = teamOf(h, team);
  return t.size > 0 ? t.my_index : -1;
}
/// The number of PEs of @p team, or -1 when this PE is not a member.
GSHMEM_DEVICE_INLINE int teamNPes(const DeviceHandle& h, gshmem_team_t team) {
  const DeviceTeam t = teamOf(h, team);
  return t.size > 0 ? t.size : -1;
}
/// The index in @p dst of member @p src_pe of @p src; -1 when either team is not one of this PE's, src_pe is out of
/// range, or that PE is not in @p dst (as shmem_team_translate_pe).
GSHMEM_DEVICE_INLINE int teamTranslatePe(const DeviceHandle& h, gshmem_team_t src, int src_pe, gshmem_team_t dst) {
  const DeviceTeam s = teamOf(h, src), d = teamOf(h, dst);
  if (s.size <= 0 || d.size <= 0 || src_pe < 0 || src_pe >= s.size) return -1;
  const int rel = s.pe(src_pe) - d.start;
  if (d.stride == 0) return rel == 0 ? 0 : -1;
  if (rel % d.stride != 0) return -1;
  const int idx = rel / d.stride;
  return idx >= 0 && idx < d.size ? idx : -1;
}

namespace detail {

/// The team a collective named @p call runs on, checked: this PE is a member, and (need_mapped) every member's heap
/// is mapped here. Otherwise one line and the kernel stops.
GSHMEM_DEVICE_INLINE DeviceTeam collTeam(const DeviceHandle& h, gshmem_team_t team, const char* call,
                                         bool need_mapped) {
  const DeviceTeam t = teamOf(h, team);
  if (t.size <= 0) {
    printf("gshmem: PE %d: %s: team %d is not a team of this PE (GSHMEM_TEAM_INVALID, destroyed, or this PE is not "
           "a member); call it on a team from a split that included this PE\n", h.my_pe, call, static_cast<int>(team));
    __trap();
  }
  if (need_mapped)
    for (int k = 0; k < t.size; ++k)
      if (peerPtr(h, h.heap_base, t.pe(k)) == nullptr) {
        printf("gshmem: PE %d: %s: PE %d's device heap is not mapped here; device collectives need every PE of the "
               "team on this node with GSHMEM_P2P=1\n", h.my_pe, call, t.pe(k));
        __trap();
      }
  return t;
}

GSHMEM_DEVICE_INLINE unsigned long long* teamEpoch(const DeviceHandle& h, gshmem_team_t team) {
  return reinterpret_cast<unsigned long long*>(h.heap_base + h.sync_offset + deviceTeamSyncOffset(h.n_pes)) + team;
}
/// This PE's row of the team's flags (member k's announcement at [k]).
GSHMEM_DEVICE_INLINE unsigned long long* teamFlags(const DeviceHandle& h, gshmem_team_t team) {
  return reinterpret_cast<unsigned long long*>(h.heap_base + h.sync_offset + deviceTeamFlagsOffset(h.n_pes)) +
         static_cast<size_t>(team) * h.n_pes;
}

}  // namespace detail

/// Barrier over team @p team (not the world: barrierAll), whose view is @p t; one calling thread per member.
/// `do_quiet`: barrier (quiet first), else sync.
GSHMEM_DEVICE_INLINE void teamBarrierThread(const DeviceHandle& h, const DeviceTeam& t, gshmem_team_t team,
                                            bool do_quiet) {
  if (do_quiet) quiet(h);
  unsigned long long* ep = detail::teamEpoch(h, team);
  const unsigned long long e = *ep + 1;
  *ep = e;
  unsigned long long* row = detail::teamFlags(h, team);
  for (int i = 1; i <= t.size; ++i) {
    const int pe = t.pe((t.my_index + i) % t.size);
    unsigned long long* f = row + t.my_index;
    detail::onWord(
        h, f, pe,
        [&](char* q) { detail::stReleaseSys(reinterpret_cast<unsigned long long*>(q), e); },
        [&] { detail::proxyPost(h.ring, kProxyAmo, pe, kAmoSet | (1u << 4), detail::offsetOf(h, f), e); });
  }
  for (int k = 0; k < t.size; ++k)
    while (detail::ldAcquire(&row[k]) < e) {
    }
}

/// The barrier of any team (the world's is barrierAll), at group scope S: one group per member.
template <int S>
GSHMEM_DEVICE_INLINE void teamBarrierGroup(const DeviceHandle& h, const DeviceTeam& t, gshmem_team_t team,
                                           bool do_quiet) {
  detail::groupSync<S>();
  if (t.size == 1 && !do_quiet) return;  // a team of one: the group's own order is the whole synchronization
  if (detail::groupRank<S>() == 0) {
    if (team == GSHMEM_TEAM_WORLD) barrierAll(h, do_quiet);
    else teamBarrierThread(h, t, team, do_quiet);
  }
  detail::groupSync<S>();
}

}  // namespace dev
}  // namespace gshmem
