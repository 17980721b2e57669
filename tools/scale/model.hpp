// Scale model of gshmem's per-PE costs (tools/gshmem-scale-model): what one PE holds, opens, sends and loops over
// as the job grows, computed from the runtime's own constants and layout functions (runtime.hpp, liveness, the
// collectives' algorithm choice, the UCX transport's peer table, the device sync area).
//
// Contract: evaluate() is pure apart from the GSHMEM_* parameters (params(), loaded by the caller with
// paramsLoad) and g_rt.n_pes, which it sets to the configuration's N so that the collectives' choice functions
// (chooseAlgo, mailbox::capacity) answer for that N; nothing is initialized, no socket is opened. Every number a
// Row carries is either computed from code (its `source` names the file and function) or rests on an assumption
// that the Row's `assumption` states; Env holds every such assumed or machine-read input.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gshmem::scale {

/// One job shape: N PEs, `ppn` PEs per node, placed in blocks (node = pe / ppn), N a multiple of ppn or not.
struct Config {
  long n_pes = 0;
  long ppn = 1;
};

/// Inputs that are not in the code: read from this machine, or assumed (each is printed with the tables).
struct Env {
  long timeout_s = 60;                  ///< GSHMEM_TIMEOUT as params() holds it
  uint64_t rmem_default = 212992;       ///< /proc/sys/net/core/rmem_default, or this stated default
  bool rmem_read = false;               ///< rmem_default came from /proc
  std::size_t skb_charge = 768;         ///< bytes a 24-byte datagram costs the receive buffer (skb truesize)
  std::size_t wire_overhead = 66;       ///< UDP 8 + IPv4 20 + Ethernet 14 + FCS 4 + preamble/gap 20 per datagram
  int beat_addrs = 1;                   ///< addresses each PE advertises for heartbeats (1..kMaxBeatAddrs)
  std::size_t ep_bytes = 2048;          ///< user-space bytes of one UCP endpoint and its lanes (assumed)
  std::size_t rkey_bytes = 128;         ///< bytes of one unpacked remote key (assumed)
  std::size_t card_bytes = 256;         ///< one PE's UCX card: header, worker address, packed remote keys (assumed)
  long base_fds = 16;                   ///< descriptors a PE holds besides its sockets: stdio, UCX, MPI (assumed)
  long fd_limit = 1024;                 ///< RLIMIT_NOFILE soft limit (read at run time)
  double peer_visit_ns = 100;           ///< one cache-missing visit of a peer entry in quiet's loop (assumed)
};

/// One line of a table: what, how much, where in the code it comes from, and what it assumes ("" when nothing).
struct Row {
  std::string quantity, value, source, assumption;
};
struct Table {
  std::string title;
  std::vector<Row> rows;
};

/// The tables of one configuration, and the same numbers as (key, value) pairs for tests (--values).
struct Result {
  std::vector<Table> tables;
  std::vector<std::pair<std::string, double>> values;
};

/// The model of today's design for one configuration (see the contract at the top).
Result evaluate(const Config& c, const Env& env);

/// The limits that break as N grows, for `ppn` PEs per node: each row names the limit and the first N at which it
/// is hit (or that it does not depend on N).
Table limits(long ppn, const Env& env);

/// Fill the machine-read parts of `env` (rmem_default, fd limit) and GSHMEM_TIMEOUT from params().
void readMachine(Env* env);

// Formatting helpers shared by the tool's printer.
std::string bytesText(double bytes);
std::string countText(double n);

}  // namespace gshmem::scale
