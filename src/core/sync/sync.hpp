// Barriers and locks (sync/sync.cpp), for the public API and the core. The checked team sync of the public API,
// teamSync, is team/team.hpp's.
#pragma once
#include "core/runtime/runtime.hpp"

namespace gshmem {

void barrierAll(const char* call);  ///< quiet + sync of the world team
/// A scheduling hint for a crowded machine (more PEs than cores): the next sync of `team` lets member `member` leave
/// first, so that it is running when the next call starts (a rooted collective names its root). Every member must
/// give the same hint between the same two syncs; it never changes what a sync guarantees.
void teamLeadNextSync(gshmem_team* team, int member);
/// The barrier algorithm of `team` ("tree", "dissemination", "counter", "hierarchical"; GSHMEM_BARRIER), for
/// GSHMEM_INFO.
const char* teamSyncAlgoName(gshmem_team* team);
void setLock(const char* call, long* lock);
void clearLock(const char* call, long* lock);
int testLock(const char* call, long* lock);  ///< 0 when acquired

/// Children per node of the barrier tree; cells 0..7 of a slot take arrivals. A team with a member behind the
/// remote transport uses the tree only at 3 to kTreeRadix + 1 members, else dissemination.
constexpr int kTreeRadix = 8;
/// Barrier algorithms.
enum SyncAlgo : int { kSyncTree = 0, kSyncDissemination = 1, kSyncCounter = 2, kSyncHier = 3 };
/// The barrier algorithm of a team of `size` members, `mapped` when every member's heap is mapped here (the
/// same-node relation); `shared_nodes`: the nodes the members span when some node holds more than one of them, else
/// 0. GSHMEM_BARRIER when set, else counter (mapped, oversubscribed), tree (mapped, or 3 to kTreeRadix + 1
/// members), hierarchical (members on several nodes, some sharing one, same-node members mapped), dissemination.
/// Every member computes the same answer.
int syncAlgoFor(int size, bool mapped, int shared_nodes = 0);
/// Barrier over the team's members through their control areas (no quiet). `call`: for the watchdog.
void teamSyncImpl(gshmem_team* t, const char* call = "shmem_team_sync");
/// The team's last sync (before its slot is reset): after it no member reads or writes any other member's cells.
void teamSyncLast(gshmem_team* t, const char* call);

}  // namespace gshmem
