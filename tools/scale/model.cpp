// Scale model: the tables (contract in model.hpp). Each Row's `source` names where its number comes from; numbers
// computed here from a formula say so in the row ("per PE: ...") and the formula is the code's own loop, read off
// the named function.
#include "scale/model.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "base/config.hpp"
#include "collectives/coll.hpp"
#include "collectives/mailbox.hpp"
#include "core/runtime/runtime.hpp"
#include "core/sync/liveness.hpp"
#include "core/sync/liveness_net.hpp"
#include "core/team/team_internal.hpp"
#include "gshmem/device/impl/handle__types.cuh"
#include "gshmem/device/team_ids.h"
#if GSHMEM_SCALE_MODEL_UCX
#include "transports/ucx/ucx_internal.hpp"
#endif

namespace gshmem::scale {

namespace {

/// Rows and values of one table under construction.
struct Builder {
  Result* res;
  Table table;
  void row(std::string q, std::string v, std::string src, std::string as = "") {
    table.rows.push_back(Row{std::move(q), std::move(v), std::move(src), std::move(as)});
  }
  void val(const char* key, double v) { res->values.emplace_back(key, v); }
  void done() { res->tables.push_back(std::move(table)); }
};

/// PEs on other nodes than a PE of a full node (block placement).
double remotePeers(const Config& c) { return double(c.n_pes - std::min(c.ppn, c.n_pes)); }

std::string fmt(const char* f, double a) {
  char b[96];
  snprintf(b, sizeof b, f, a);
  return b;
}

void memoryRuntime(const Config& c, Builder& b, double* total) {
  const int n = static_cast<int>(c.n_pes);
  const int slots = static_cast<int>(params().MAX_TEAMS);
  const double ctrl = double(controlBytes(n, slots));
  b.row("Control area: sync cells and agreement claims", bytesText(sizeof(ControlArea)),
        "runtime.hpp: ControlArea (kMaxTeams x kMaxRounds SyncCell, claims)", "fixed");
  b.row("Control area: split scratch + collective scratch", bytesText(double(n) * (1 + kMaxTeams) * 8),
        "runtime.hpp: mailboxOffset (n_pes x (1 + kMaxTeams) words)");
  b.row("Control area: mailboxes (payload " + bytesText(double(mailboxPayload(n))) + " per slot)",
        bytesText(double(mailboxBytes(n))), "runtime.hpp: mailboxBytes, mailboxSlotBytes, mailboxPayload");
  b.row("Control area: team boards", bytesText(double(teamBoardBytes(n))),
        "runtime.hpp: teamBoardBytes (kTeamBoards x n_pes x kTeamBoardEntry)", "reserved on every PE");
  if (slots > kMaxTeams)
    b.row("Control area: team extension (" + std::to_string(slots - kMaxTeams) + " slots past " +
              std::to_string(kMaxTeams) + ")",
          bytesText(double(teamExtBytes(n, slots))),
          "runtime.hpp: teamExtBytes (sync cells, claims, a scratch row of n_pes words and mask words per slot)",
          "GSHMEM_MAX_TEAMS = " + std::to_string(slots));
  b.row("Control area: wait line + heartbeat line", bytesText(double(kWaitLineBytes + liveness::kBeatBytes)),
        "runtime.hpp: kWaitLineBytes; liveness.hpp: kBeatBytes", "fixed");
  b.row("**Control area total** (in the symmetric heap, on top of GSHMEM_SYMMETRIC_SIZE)", bytesText(ctrl),
        "runtime.hpp: controlBytes", "upper bound: resident once touched (mailbox slots: by collectives)");
  const double peer_rt = double(n) * (sizeof(PeerEntry) + sizeof(int) + sizeof(const char*) + sizeof(PeerPath));
  b.row("Peer table and per-peer runtime vectors", bytesText(peer_rt),
        "runtime.hpp: Runtime::peer_table, node_of, peer_via, peer_path (sizeof each element x N)",
        "peer_via: a pointer to the transport's name");
  const double live = double(liveness::watchdogBytes(static_cast<int>(std::min<long>(c.ppn, c.n_pes))));
  b.row("Liveness watchdog state", bytesText(live),
        "sync/liveness.cpp: liveness::watchdogBytes(PEs per node)",
        "per PE of the node and 2 ring successors; nothing per PE of the job after init");
  const double mbox = double(n) * coll::mailbox::bytesPerPeer();
  b.row("Mailbox sequence counters", bytesText(mbox), "collectives/mailbox.cpp: mailbox::bytesPerPeer x N");
  b.val("control_bytes", ctrl);
  b.val("mailbox_payload", double(mailboxPayload(n)));
  b.val("peer_runtime_bytes", peer_rt);
  b.val("liveness_bytes", live);
  *total += ctrl + peer_rt + live + mbox;
}

void memoryUcx(const Config& c, const Env& e, Builder& b, double* total) {
#if GSHMEM_SCALE_MODEL_UCX
  const double n = double(c.n_pes);
  const double slots = n * sizeof(std::atomic<ucxt::Peer*>);
  b.row("UCX peer slots (a pointer per PE)", bytesText(slots), "ucx_internal.hpp: UcxTransport::peers_");
  const double peers = remotePeers(c) * sizeof(ucxt::Peer);
  b.row("UCX peer entries, once every remote-node PE was addressed (none at init)", bytesText(peers),
        "ucx_internal.hpp: peer() makes a Peer at the first operation to, or answered message from, a PE; "
        "sizeof(ucxt::Peer) = " + countText(sizeof(ucxt::Peer)) + " B (kAmoSlots AMO slots)");
  const double cards = n * double(e.card_bytes);
  b.row("UCX cards kept for endpoints made on first use (N)", bytesText(cards),
        "ucx_transport.cpp: connect -> exchangeCards (kept in cards_ for link)",
        "**assumed** " + bytesText(double(e.card_bytes)) + " per card (worker address and packed remote keys)");
  const double eps = remotePeers(c) * (double(e.ep_bytes) + kNumRegions * double(e.rkey_bytes));
  b.row("UCX endpoints and remote keys, once every remote-node PE was addressed (none at init)", bytesText(eps),
        "ucx_link.cpp: link -> connectPeer at the first operation to a peer (ucp_ep_create; ucp_ep_rkey_unpack "
        "per region)",
        "**assumed** " + bytesText(double(e.ep_bytes)) + " per endpoint and " + bytesText(double(e.rkey_bytes)) +
            " per remote key, " + std::to_string(kNumRegions) + " regions; same-node PEs go by shared memory and "
            "get none (GSHMEM_TRANSPORTS=ucx: up to N - 1); kernel socket buffers not counted");
  const double batch = remotePeers(c) * ucxt::kBatchBytes;
  b.row("UCX batch buffers, once a batched message went to every remote-node PE", bytesText(batch),
        "ucx_am.cpp: batch allocated at the first batched put/signal to a peer; ucx_internal.hpp: kBatchBytes",
        "one 8-byte alltoall over the world is enough (a flat reduce or fcollect too); single-threaded worker");
  b.val("ucx_peer_bytes", peers);
  b.val("ucx_batch_bytes", batch);
  b.val("ucx_card_bytes", cards);
  b.val("ucx_endpoints", remotePeers(c));
  *total += slots + peers + cards + eps + batch;
#else
  (void)c;
  (void)e;
  (void)total;
  b.row("UCX transport", "not in this build", "src/CMakeLists.txt: GSHMEM_HAVE_UCX");
#endif
}

void memoryTable(const Config& c, const Env& e, Result* r) {
  Builder b{r, {"Memory per PE", {}}};
  double total = 0;
  memoryRuntime(c, b, &total);
  memoryUcx(c, e, b, &total);
  b.row("**Host total per PE** (runtime state above, without the user heap)", bytesText(total), "sum of the rows");
  b.row("Host total per node", bytesText(total * double(c.ppn)), "x PEs per node");
  const int n = static_cast<int>(c.n_pes);
  b.row("GPU: device sync area per PE", bytesText(double(deviceSyncBytes(n))),
        "include/gshmem/device/impl/handle__types.cuh: deviceSyncBytes", "CUDA build, one device heap per PE");
  b.row("GPU: stream-collective scratch slot per source PE", bytesText(double(deviceCollSlotBytes(n))),
        "handle__types.cuh: deviceCollSlotBytes (kCollScratchBytes / 2N, 256-aligned)");
  b.val("host_total_bytes", total);
  b.val("device_sync_bytes", double(deviceSyncBytes(n)));
  b.val("device_slot_bytes", double(deviceCollSlotBytes(n)));
  b.done();
}

void fdTable(const Config& c, const Env& e, Result* r) {
  Builder b{r, {"File descriptors per PE", {}}};
  const double tcp = remotePeers(c);
  b.row("TCP sockets of UCX endpoints, once every remote-node PE was addressed (none at init)", countText(tcp),
        "ucx_link.cpp: link (an endpoint at the first operation to a peer)",
        "UCX over TCP between nodes, one socket per remote-node peer this PE exchanged with (its endpoint, or the "
        "peer's to it); same-node PEs go by shared memory (GSHMEM_TRANSPORTS=ucx with UCX_TLS=tcp: up to N - 1)");
  b.row("UDP heartbeat sockets", countText(e.beat_addrs),
        "liveness_net.cpp: NetBeats::openSockets (one per address, at most kMaxBeatAddrs = " +
            std::to_string(liveness::kMaxBeatAddrs) + ")",
        "the host advertises " + std::to_string(e.beat_addrs) + " address(es)");
  b.row("Other descriptors", countText(double(e.base_fds)), "-", "**assumed**: stdio, UCX worker, MPI");
  const double total = tcp + e.beat_addrs + double(e.base_fds);
  b.row("**Total per PE**", countText(total) + " (soft limit " + countText(double(e.fd_limit)) + ")",
        "sum; limit: getrlimit(RLIMIT_NOFILE) or --fd-limit");
  b.row("Rendezvous root, during init (unique-id launch only)", countText(double(c.n_pes) + 1),
        "base/rendezvous.cpp: Root (one connection per rank held until all check in, + the listener)",
        "on the process that made the id, on top of its own");
  b.row("Socket bootstrap (unique-id launch only)", "2", "base/socket_bootstrap.cpp: ring to the next and previous PE");
  b.val("ucx_sockets", tcp);
  b.val("fds_total", total);
  b.val("root_fds", double(c.n_pes) + 1);
  b.done();
}

/// Ring edges of the PEs of node 0 (block placement) that cross to another node: `most` the largest number of
/// remote successors one PE has, the return value their sum over the node (each edge: one datagram per period).
double ringRemoteEdges(const Config& c, double* most) {
  const int n = static_cast<int>(c.n_pes), ppn = static_cast<int>(std::min<long>(c.ppn, c.n_pes));
  double sum = 0;
  *most = 0;
  for (int pe = 0; pe < ppn; ++pe) {
    int succ[liveness::kRingPeers];
    const int k = liveness::ringPeers(pe, n, +1, succ);
    double remote = 0;
    for (int i = 0; i < k; ++i) remote += succ[i] / ppn != 0 ? 1 : 0;
    sum += remote;
    *most = std::max(*most, remote);
  }
  return sum;
}

void livenessTable(const Config& c, const Env& e, Result* r) {
  Builder b{r, {"Liveness heartbeats (UDP)", {}}};
  const double period_s = double(liveness::heartbeatPeriodNs(e.timeout_s)) / 1e9;
  double peers = 0;
  const double edges = ringRemoteEdges(c, &peers);
  // Predecessors mirror successors: the PE with the most remote predecessors has as many as the most successors.
  const double tx = peers * e.beat_addrs / period_s, rx = tx, node = edges * e.beat_addrs / period_s;
  const double arrivals = peers * e.beat_addrs;
  const double cap = std::floor(double(e.rmem_default) / double(e.skb_charge));
  const double drop = arrivals > cap ? 1.0 - cap / arrivals : 0.0;
  b.row("Heartbeat period", fmt("%.0f ms", period_s * 1e3),
        "liveness.hpp: heartbeatPeriodNs(GSHMEM_TIMEOUT = " + std::to_string(e.timeout_s) + " s)");
  b.row("Peers watched over UDP, most per PE", countText(peers),
        "liveness_net.cpp: ringPeers (its ring successors me+1, me+2 that are on another node)", "any N");
  b.row("Datagrams sent per PE per second, most", countText(tx),
        "liveness_net.cpp: NetBeats::send (one per ring predecessor on another node and advertised address, every "
        "tick)", std::to_string(e.beat_addrs) + " address(es) per PE");
  b.row("Datagrams received per PE per second, most", countText(rx), "its ring successors' NetBeats::send", "");
  b.row("Datagrams per node per second (each way)", countText(node),
        "ring edges that leave the node: " + countText(edges) + " per node", "block placement");
  b.row("Heartbeat bits per node per second (each way)", countText(node * 8 * (24.0 + e.wire_overhead)),
        "liveness_net.hpp: kBeatDatagramBytes = " + std::to_string(liveness::kBeatDatagramBytes),
        "+" + std::to_string(e.wire_overhead) + " B UDP/IPv4/Ethernet framing per datagram");
  b.row("Receive buffer, in datagrams", countText(cap),
        std::string("rmem_default ") + countText(double(e.rmem_default)) + " B" +
            (e.rmem_read ? " (/proc/sys/net/core/rmem_default)" : " (given)") + "; GSHMEM_LIVENESS_RCVBUF sets it",
        "**assumed** " + std::to_string(e.skb_charge) + " B charged per datagram (skb truesize; 768 to 2304)");
  b.row("Datagrams arriving per socket between drains, most", countText(arrivals),
        "liveness.cpp: Watchdog::run (drains once per tick, then sleeps a period)");
  b.row("**Fraction of heartbeats dropped**", fmt("%.1f %%", drop * 100),
        "max(0, 1 - buffer / arrivals per period)", "arrivals spread over the period; no drain between ticks");
  b.val("period_ms", period_s * 1e3);
  b.val("beat_peers", peers);
  b.val("beat_tx_per_pe_s", tx);
  b.val("beat_rx_per_pe_s", rx);
  b.val("beat_tx_per_node_s", node);
  b.val("rcvbuf_dgrams", cap);
  b.val("beat_drop_fraction", drop);
  b.done();
}

}  // namespace

// Collectives and quiet are in model_coll.cpp.
void collectivesTable(const Config& c, const Env& e, Result* r);
void quietTable(const Config& c, const Env& e, Result* r);

Result evaluate(const Config& c, const Env& e) {
  Result r;
  g_rt.n_pes = static_cast<int>(c.n_pes);  // mailbox::capacity and chooseAlgo answer for this N
  memoryTable(c, e, &r);
  fdTable(c, e, &r);
  livenessTable(c, e, &r);
  collectivesTable(c, e, &r);
  quietTable(c, e, &r);
  return r;
}

void readMachine(Env* env) {
  env->timeout_s = params().TIMEOUT;
  std::ifstream f("/proc/sys/net/core/rmem_default");
  unsigned long long v = 0;
  if (f >> v && v > 0) {
    env->rmem_default = v;
    env->rmem_read = true;
  }
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) env->fd_limit = long(rl.rlim_cur);
}

std::string bytesText(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  double v = bytes;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? fmt("%.0f B", v) : fmt(v < 10 ? "%.2f " : "%.1f ", v) + kUnits[u];
}

std::string countText(double n) {
  if (n != std::floor(n) || std::fabs(n) >= 1e15) return fmt(std::fabs(n) >= 1e15 ? "%.3g" : "%.2f", n);
  std::string digits = fmt("%.0f", std::fabs(n)), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

}  // namespace gshmem::scale
