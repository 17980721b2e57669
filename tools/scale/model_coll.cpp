// Scale model: messages per small collective, the loops of quiet and fence, and the limits that break (contract
// in model.hpp). A message count is the code's own loop, read off the function the row names; the algorithm is
// the one the runtime's choice functions (coll::chooseAlgo, syncAlgoFor) pick for that N under the current
// GSHMEM_* parameters, evaluated with no thread-multiple, not oversubscribed, the world team.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "base/config.hpp"
#include "collectives/coll.hpp"
#include "collectives/mailbox.hpp"
#include "core/runtime/runtime.hpp"
#include "core/sync/liveness.hpp"
#include "core/sync/sync.hpp"
#include "core/team/team_internal.hpp"
#include "gshmem/device/impl/handle__types.cuh"
#include "gshmem/device/team_ids.h"
#include "scale/model.hpp"
#if GSHMEM_SCALE_MODEL_UCX
#include "transports/ucx/ucx_internal.hpp"
#endif

namespace gshmem::scale {

namespace {

double remotePeers(const Config& c) { return double(c.n_pes - std::min(c.ppn, c.n_pes)); }

/// Rounds of a dissemination barrier over n members (sync.cpp: disseminationSync, dist = 1, 2, 4, ... < n).
long disseminationRounds(long n) {
  long r = 0;
  for (long dist = 1; dist < n; dist <<= 1) ++r;
  return r;
}

/// Messages one PE sends in a barrier over the world: {per PE, whole job, algorithm name}.
struct Barrier {
  double per_pe, job;
  const char* name;
};
Barrier worldBarrier(const Config& c) {
  const long n = c.n_pes;
  const long nodes = (n + c.ppn - 1) / std::max(c.ppn, 1L);
  const int algo = syncAlgoFor(static_cast<int>(n), n <= c.ppn, c.ppn > 1 ? static_cast<int>(nodes) : 0);
  if (algo == kSyncHier) {  // leaders only: dissemination among the nodes; the others store to their leader
    const double r = double(disseminationRounds(nodes));
    return {r, r * double(nodes), "hierarchical"};
  }
  if (algo == kSyncDissemination) {
    const double r = double(disseminationRounds(n));
    return {r, r * double(n), "dissemination"};
  }
  if (algo == kSyncCounter) return {1, double(n), "counter"};
  // Tree: every member but the root stores its arrival at its parent and is released by it.
  return {2.0 * double(n - 1) / double(n), 2.0 * double(n - 1), "tree"};
}

std::string num(double v) { return countText(v); }
std::string fmt2(double v) {
  char b[64];
  snprintf(b, sizeof b, "%.2f", v);
  return b;
}

/// Nodes of the job (blocks of ppn), the largest power of two not above that, and its log2.
struct Nodes {
  double k = 1, p2 = 1, log2p2 = 0;
};
Nodes nodesOf(const Config& c) {
  Nodes d;
  d.k = double((c.n_pes + c.ppn - 1) / std::max(c.ppn, 1L));
  while (d.p2 * 2 <= d.k) d.p2 *= 2, d.log2p2 += 1;
  return d;
}

void reduceRow(const Config& c, Result* r, Table* t) {
  const double n = double(c.n_pes), rem = remotePeers(c);
  const Nodes d = nodesOf(c);
  const coll::Algo a = coll::chooseAlgo(coll::Family::kReduce, 8, d.k > 1, static_cast<int>(c.n_pes));
  const std::string name = coll::algoName(a);
  if (a == coll::Algo::kTree) {
    // reduceTree: each non-leader sends its source to its leader and gets the result back. Up to kTreeFlatLeaders
    // leaders each send their partial to every other (one round); more run recursive doubling over P2 of them (one
    // message each per round), the K - P2 others folding in and getting the result back. Every message is
    // acknowledged by a release.
    const bool flat = d.k <= coll::kTreeFlatLeaders;
    const double fold = !flat && d.k > d.p2 ? 1 : 0, mates = std::min(double(c.ppn), n) - 1;
    const double between = flat ? d.k - 1 : d.log2p2 + fold;  // a leader's messages to other nodes
    const double leader = 2 * (mates + between);
    const double data = 2 * (n - d.k) + (flat ? d.k * (d.k - 1) : d.p2 * d.log2p2 + 2 * (d.k - d.p2));
    t->rows.push_back({"8-byte reduce (tree): rounds between nodes", num(flat ? 1 : d.log2p2 + 2 * fold),
                       "collectives/tree.cpp: leadersAllreduceFlat, leadersAllreduce", "one leader per node"});
    t->rows.push_back({"8-byte reduce (tree): per leader, the most of any PE", num(leader / 2) + " data + " +
                           num(leader / 2) + " acks (" + num(2 * between) + " to other nodes)",
                       "collectives/tree.cpp: reduceTree; mailbox.cpp: send, release",
                       "acks to other nodes are lazy signals (may ride on later messages)"});
    t->rows.push_back({"8-byte reduce: whole job", num(2 * data), "the same, summed", ""});
    r->values.emplace_back("reduce_msgs_per_pe", leader);
    r->values.emplace_back("reduce_msgs_job", 2 * data);
    return;
  }
  if (a != coll::Algo::kMailbox) {
    t->rows.push_back({"8-byte reduce (" + name + ")", "not modeled", "collectives/select.cpp: chooseAlgo", ""});
    return;
  }
  // reduceMailbox: a send to each other member, then a receive and a release (ack) per other member.
  t->rows.push_back({"8-byte reduce (mailbox): per PE", num(n - 1) + " data + " + num(n - 1) + " acks (" +
                         num(2 * rem) + " to other nodes)",
                     "collectives/reduce.hpp: reduceMailbox; mailbox.cpp: send, release",
                     "acks to other nodes are lazy signals (may ride on later messages)"});
  t->rows.push_back({"8-byte reduce: whole job, 2N(N-1)", num(2 * n * (n - 1)), "the same, x N", ""});
  r->values.emplace_back("reduce_msgs_per_pe", 2 * (n - 1));
  r->values.emplace_back("reduce_msgs_job", 2 * n * (n - 1));
}

void broadcastRow(const Config& c, Result* r, Table* t) {
  const double n = double(c.n_pes);
  const Nodes d = nodesOf(c);
  const coll::Algo a = coll::chooseAlgo(coll::Family::kBroadcast, 8, d.k > 1, static_cast<int>(c.n_pes));
  if (a == coll::Algo::kTree) {
    // broadcastTree: a k-nomial tree of radix kTreeRadix over the K leaders, then each leader to its node; the
    // root serves up to kTreeRadix - 1 leaders per level.
    const long k = long(d.k), radix = coll::kTreeRadix;
    long span = 1, remote = 0;
    while (span < k) span *= radix;
    for (long s = span / radix; s >= 1; s /= radix)
      for (long j = 1; j < radix && j * s < k; ++j) ++remote;
    const double mates = std::min(double(c.ppn), n) - 1;
    t->rows.push_back({"8-byte broadcast (tree): root sends, one after another", num(remote + mates) + " (" +
                           num(double(remote)) + " to other nodes)",
                       "collectives/tree.cpp: broadcastTree", "k-nomial over one leader per node"});
    t->rows.push_back({"8-byte broadcast: every other PE", "1 receive + 1 ack", "broadcastTree, mailbox::release",
                       ""});
    t->rows.push_back({"8-byte broadcast: whole job, 2(N-1)", num(2 * (n - 1)), "the same, summed", ""});
    r->values.emplace_back("bcast_root_msgs", remote + mates);
    return;
  }
  if (a != coll::Algo::kMailbox) {
    t->rows.push_back({std::string("8-byte broadcast (") + coll::algoName(a) + ")", "not modeled",
                       "collectives/select.cpp: chooseMove", ""});
    return;
  }
  t->rows.push_back({"8-byte broadcast (mailbox): root sends, one after another", num(n - 1),
                     "collectives/data_movement.cpp: broadcastMailbox", "flat: no tree"});
  t->rows.push_back({"8-byte broadcast: every other PE", "1 receive + 1 ack", "broadcastMailbox, mailbox::release",
                     ""});
  t->rows.push_back({"8-byte broadcast: whole job, 2(N-1)", num(2 * (n - 1)), "the same, summed", ""});
  r->values.emplace_back("bcast_root_msgs", n - 1);
}

void barrierSplitRows(const Config& c, Result* r, Table* t) {
  const double n = double(c.n_pes), rem = remotePeers(c);
  const Barrier bar = worldBarrier(c);
  t->rows.push_back({std::string("shmem_barrier_all (") + bar.name + "): per PE", num(bar.per_pe) +
                         " signals, after a quiet (see below)",
                     "core/sync/sync.cpp: barrierAll, syncAlgoFor, hierSync (leaders: ceil(log2 nodes) rounds) or "
                     "disseminationSync (ceil(log2 N) rounds)", "hierarchical: per leader; other PEs send none"});
  t->rows.push_back({"shmem_barrier_all: whole job", num(bar.job),
                     std::string("the same, x ") + (std::string(bar.name) == "hierarchical" ? "nodes" : "N"), ""});
  // agreeSlot: a Set AMO of the used-slot mask to every member (and of the triplet with GSHMEM_CHECK >= 1), a quiet
  // (one probe per peer with a posted AMO: every remote-node PE), then two barriers over the parent.
  // Past 64 team slots the mask's other words go to every member by one put.
  const double per_amo = params().CHECK > 0 ? 2 : 1;
  const double amos = per_amo * n, probes = rem;
  const double puts = slotMaskWords(static_cast<int>(params().MAX_TEAMS)) > 1 ? n : 0;
  const double split = amos + puts + probes + 2 * bar.per_pe;
  t->rows.push_back({"shmem_team_split_strided over the world: per PE",
                     num(amos) + " AMOs (" + num(per_amo * rem) + " to other nodes) + " +
                         (puts > 0 ? num(puts) + " puts of the mask's other words + " : std::string()) +
                         num(probes) + " quiet probes + 2 barriers = " + num(split),
                     "core/team/team.cpp: agreeSlot", "GSHMEM_CHECK = " + std::to_string(params().CHECK)});
  t->rows.push_back({"shmem_team_split_strided: whole job", num(split * n), "the same, x N", ""});
  // shmem_team_split_2d: one split per row, then one per column (api_setup.cpp), over a square grid.
  const double x = std::ceil(std::sqrt(n)), rows = std::ceil(n / x);
  const double free_slots = double(params().MAX_TEAMS - GSHMEMI_TEAM_FIRST_USER);
  const std::string fate = rows + x > free_slots ? "; **fails** at split " + num(free_slots + 1) + ": no team slot"
                                                 : "";
  t->rows.push_back({"shmem_team_split_2d, square grid (" + num(rows) + " x " + num(x) + "): splits",
                     num(rows + x) + " (x the split's messages: " + num((rows + x) * split) + " per PE)" + fate,
                     "src/api/api_setup.cpp: shmem_team_split_2d (one split per row and per column)",
                     "xrange = ceil(sqrt(N))"});
  r->values.emplace_back("barrier_msgs_per_pe", bar.per_pe);
  r->values.emplace_back("split_amos_per_pe", amos);
  r->values.emplace_back("split_msgs_per_pe", split);
  r->values.emplace_back("split2d_splits", rows + x);
}

#if GSHMEM_SCALE_MODEL_UCX
constexpr double kPeerBytes = double(sizeof(ucxt::Peer));
#else
constexpr double kPeerBytes = 0;
#endif

}  // namespace

void collectivesTable(const Config& c, const Env&, Result* r) {
  Table t{"Messages per small collective (world team, defaults)", {}};
  reduceRow(c, r, &t);
  broadcastRow(c, r, &t);
  barrierSplitRows(c, r, &t);
  r->tables.push_back(std::move(t));
}

void quietTable(const Config& c, const Env& e, Result* r) {
  Table t{"quiet and fence", {}};
  const bool spans = c.n_pes > c.ppn;
  const double loop = spans ? remotePeers(c) : 0;
  t.rows.push_back({"Peers looped over per shmem_quiet, at most", num(loop),
                    "transports/ucx/ucx_am.cpp: quietByProbe (for pe : linked(), the peers with an endpoint)",
                    spans ? "every remote-node PE addressed since init (endpoints are made on first use)"
                          : "one node: no remote transport"});
  t.rows.push_back({"Peer table bytes that loop walks", bytesText(loop * kPeerBytes),
                    "x sizeof(ucxt::Peer): one cache line read per peer", ""});
  t.rows.push_back({"Time of a quiet with nothing outstanding", fmt2(loop * e.peer_visit_ns / 1e3) + " us",
                    "the loop above", "**assumed** " + fmt2(e.peer_visit_ns) + " ns per peer (a cache miss)"});
  t.rows.push_back({"Probes (round trips) per quiet", "one per peer written since the last quiet",
                    "quietByProbe: a get after a worker fence", ""});
  t.rows.push_back({"Peers looped over per shmem_fence", "up to " + num(loop) + " (stops at the first with work)",
                    "transports/ucx/ucx_transport.cpp: UcxTransport::fence", ""});
  t.rows.push_back({"Quiets per shmem_barrier_all", "1", "core/sync/sync.cpp: barrierAll", ""});
  r->values.emplace_back("quiet_peers", loop);
  r->tables.push_back(std::move(t));
}

Table limits(long ppn, const Env& e) {
  Table t{"What breaks, and at which N (" + countText(double(ppn)) + " PEs per node)", {}};
  const long free_slots = params().MAX_TEAMS - GSHMEMI_TEAM_FIRST_USER;
  long grid = 0;  // the largest N whose square-ish grid fits: max over x of x * (free - x)
  for (long x = 1; x < free_slots; ++x) grid = std::max(grid, x * (free_slots - x));
  t.rows.push_back({"Team slots: " + std::to_string(free_slots) + " for split teams",
                    "shmem_team_split_2d fails (SHMEM_TEAM_INVALID) for every grid from N = " +
                        countText(double(grid + 1)) + "; any N: more than " + std::to_string(free_slots) +
                        " live split teams",
                    "core/team/team.cpp: agreeSlot (union of the members' masks, GSHMEM_MAX_TEAMS = " +
                        std::to_string(params().MAX_TEAMS) + "), team_ids.h: GSHMEMI_TEAM_FIRST_USER",
                    "rows + columns <= free slots; each split takes a new slot; GSHMEM_MAX_TEAMS (up to " +
                        std::to_string(kTeamSlotsLimit) + ") adds slots"});
  long n0 = 1;
  while (deviceCollSlotBytes(static_cast<int>(n0)) > 0 && n0 < (1L << 30)) n0 <<= 1;
  long lo = n0 / 2, hi = n0;  // slot > 0 at lo, 0 at hi: the first N with a 0-byte slot
  while (hi - lo > 1) (deviceCollSlotBytes(static_cast<int>((lo + hi) / 2)) > 0 ? lo : hi) = (lo + hi) / 2;
  t.rows.push_back({"GPU stream-collective scratch slot reaches 0 bytes", "N = " + countText(double(hi)),
                    "handle__types.cuh: deviceCollSlotBytes", "CUDA build"});
  long m = 1;
  while (mailboxPayload(static_cast<int>(m)) > 256) ++m;
  t.rows.push_back({"Mailbox payload at its 256-byte floor", "N = " + countText(double(m)),
                    "runtime.hpp: mailboxPayload", "larger collectives leave the mailbox"});
  const long fd_n = e.fd_limit - e.beat_addrs - e.base_fds + ppn + 1;
  t.rows.push_back({"File descriptors over the soft limit (" + countText(double(e.fd_limit)) + ")",
                    "N = " + countText(double(fd_n)) + " (rendezvous root: N = " +
                        countText(double(e.fd_limit - e.base_fds)) + ")",
                    "the fd table's total; rendezvous.cpp: Root", "the fd table's assumptions"});
  const long cap = static_cast<long>(std::floor(double(e.rmem_default) / double(e.skb_charge)));
  t.rows.push_back({"Heartbeats start to drop", cap >= 2L * e.beat_addrs ? std::string("never: at most ") +
                        std::to_string(2 * e.beat_addrs) + " arrive per period, any N" : std::string("any N"),
                    "liveness table: buffer < arrivals per period (ring: 2 successors)",
                    "the liveness table's assumptions"});
  t.rows.push_back({"Contexts per PE", countText(double(kCtxPerSlab) * kMaxCtxSlabs) + " live, any N",
                    "core/team/team_internal.hpp: kCtxPerSlab x kMaxCtxSlabs", ""});
  t.rows.push_back({"Dissemination rounds", "none below 2^" + std::to_string(kMaxRounds) + " PEs",
                    "runtime.hpp: kMaxRounds", ""});
  return t;
}

}  // namespace gshmem::scale
