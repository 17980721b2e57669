// gshmem-scale-model: prints, as Markdown, the scale model of today's design (tools/scale/model.hpp) for every
// requested (N, PEs per node) pair, then the limits that break for each PEs-per-node value.
//
//   gshmem-scale-model [--pes N,N,...] [--ppn P,P,...] [--rmem-default B] [--fd-limit L] [--values]
//
// Defaults: N = 1024, 16384, 131072 and 8 or 128 PEs per node; the UDP receive buffer and the descriptor limit are
// this machine's (/proc/sys/net/core/rmem_default, RLIMIT_NOFILE) unless given. --values prints "key value" lines
// for the first pair instead (for tests). GSHMEM_* variables are read as the runtime reads them (GSHMEM_TIMEOUT, GSHMEM_CHECK,
// GSHMEM_MAX_TEAMS, GSHMEM_COLL_*, GSHMEM_BARRIER). Exit status 2 on a bad argument.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "base/config.hpp"
#include "scale/model.hpp"

namespace {

using gshmem::scale::Config;
using gshmem::scale::Env;
using gshmem::scale::Table;

/// Comma-separated positive integers; false on anything else.
bool parseList(const char* s, std::vector<long>* out) {
  out->clear();
  std::string item;
  for (const char* p = s;; ++p) {
    if (*p == ',' || *p == '\0') {
      char* end = nullptr;
      const long v = std::strtol(item.c_str(), &end, 10);
      if (item.empty() || *end != '\0' || v <= 0 || v > (1L << 30)) return false;
      out->push_back(v);
      item.clear();
      if (*p == '\0') return true;
    } else if (*p != '_') {  // 131_072 reads as 131072
      item += *p;
    }
  }
}

/// A Markdown cell: '|' would end it early.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

void printTable(const Table& t) {
  std::printf("#### %s\n\n| Quantity | Value | Source | Assumption |\n|---|---|---|---|\n", t.title.c_str());
  for (const auto& r : t.rows)
    std::printf("| %s | %s | %s | %s |\n", cell(r.quantity).c_str(), cell(r.value).c_str(), cell(r.source).c_str(),
                cell(r.assumption).c_str());
  std::printf("\n");
}

void printInputs(const Env& e) {
  using gshmem::scale::bytesText;
  std::printf("Inputs: GSHMEM_TIMEOUT = %ld s; rmem_default = %llu B (%s); fd soft limit %ld; %d heartbeat "
              "address(es) per PE. Assumed: %zu B of receive buffer per datagram, %zu B of framing per datagram, "
              "%s per UCP endpoint, %s per remote key, %s per UCX card, %ld other descriptors, %.0f ns per peer "
              "visited by quiet.\n\n",
              e.timeout_s, static_cast<unsigned long long>(e.rmem_default),
              e.rmem_read ? "read from /proc/sys/net/core/rmem_default" : "given", e.fd_limit,
              e.beat_addrs, e.skb_charge, e.wire_overhead, bytesText(double(e.ep_bytes)).c_str(),
              bytesText(double(e.rkey_bytes)).c_str(), bytesText(double(e.card_bytes)).c_str(), e.base_fds,
              e.peer_visit_ns);
}

/// The value of `key` in `r` (0 when absent: a build without UCX has no UCX values).
double valueOf(const gshmem::scale::Result& r, const char* key) {
  for (const auto& [k, v] : r.values)
    if (k == key) return v;
  return 0;
}

/// One line per configuration with the numbers that grow fastest (each from the tables that follow).
void printSummary(const std::vector<long>& pes, const std::vector<long>& ppns, const Env& env) {
  using gshmem::scale::bytesText;
  using gshmem::scale::countText;
  std::printf("#### Summary\n\n| N | PEs/node | Host runtime memory per PE | of which UCX batches | GPU sync area per PE "
              "| fds per PE | Heartbeats per node per s (each way) | Heartbeats dropped | 8-byte reduce, messages "
              "in the job | Peers per quiet |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (long ppn : ppns)
    for (long n : pes) {
      const auto r = gshmem::scale::evaluate(Config{n, ppn}, env);
      std::printf("| %s | %ld | %s | %s | %s | %s | %s | %.1f %% | %s | %s |\n", countText(double(n)).c_str(), ppn,
                  bytesText(valueOf(r, "host_total_bytes")).c_str(), bytesText(valueOf(r, "ucx_batch_bytes")).c_str(),
                  bytesText(valueOf(r, "device_sync_bytes")).c_str(), countText(valueOf(r, "fds_total")).c_str(),
                  countText(valueOf(r, "beat_tx_per_node_s")).c_str(), 100 * valueOf(r, "beat_drop_fraction"),
                  countText(valueOf(r, "reduce_msgs_job")).c_str(), countText(valueOf(r, "quiet_peers")).c_str());
    }
  std::printf("\n");
}

int usage() {
  std::fprintf(stderr, "usage: gshmem-scale-model [--pes N,N,...] [--ppn P,P,...] [--rmem-default B] "
               "[--fd-limit L] [--values]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long> pes = {1024, 16384, 131072}, ppns = {8, 128};
  std::vector<long> rmem, fd_limit;  // one value each when given
  bool values = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--values")) values = true;
    else if (!std::strcmp(argv[i], "--rmem-default") && i + 1 < argc) {
      if (!parseList(argv[++i], &rmem) || rmem.size() != 1) return usage();
    } else if (!std::strcmp(argv[i], "--fd-limit") && i + 1 < argc) {
      if (!parseList(argv[++i], &fd_limit) || fd_limit.size() != 1) return usage();
    }
    else if (!std::strcmp(argv[i], "--pes") && i + 1 < argc) { if (!parseList(argv[++i], &pes)) return usage(); }
    else if (!std::strcmp(argv[i], "--ppn") && i + 1 < argc) { if (!parseList(argv[++i], &ppns)) return usage(); }
    else return usage();
  }
  std::string err;
  if (gshmem::isError(gshmem::paramsLoad(&err))) {
    std::fprintf(stderr, "gshmem-scale-model: %s\n", err.c_str());
    return 2;
  }
  Env env;
  gshmem::scale::readMachine(&env);
  if (!rmem.empty()) {
    env.rmem_default = static_cast<uint64_t>(rmem[0]);
    env.rmem_read = false;
  }
  if (!fd_limit.empty()) env.fd_limit = fd_limit[0];
  if (values) {
    const auto r = gshmem::scale::evaluate(Config{pes[0], ppns[0]}, env);
    std::printf("n_pes %ld\nppn %ld\nrmem_default %llu\nfd_limit %ld\n", pes[0], ppns[0],
                static_cast<unsigned long long>(env.rmem_default), env.fd_limit);
    for (const auto& [k, v] : r.values) std::printf("%s %.6f\n", k.c_str(), v);
    return 0;
  }
  printInputs(env);
  printSummary(pes, ppns, env);
  for (long ppn : ppns)
    for (long n : pes) {
      std::printf("### N = %s PEs, %s per node\n\n", gshmem::scale::countText(double(n)).c_str(),
                  gshmem::scale::countText(double(ppn)).c_str());
      for (const Table& t : gshmem::scale::evaluate(Config{n, ppn}, env).tables) printTable(t);
    }
  for (long ppn : ppns) printTable(gshmem::scale::limits(ppn, env));
  return 0;
}
