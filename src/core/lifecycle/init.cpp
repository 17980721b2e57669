// The init phases (core/lifecycle/init.hpp). Each returns Status and, on failure, the one-line reason with its fix;
// initPhasesRun turns that into the fatal error of the calling API routine.
#include "core/lifecycle/init.hpp"

#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/config.hpp"
#include "base/log.hpp"
#include "base/memfd.hpp"
#include "base/str_format.hpp"
#include "core/api.hpp"
#include "core/device/device.hpp"
#include "core/memory/symmetric_data.hpp"
#include "core/protocols/device_path.hpp"
#include "core/runtime/runtime.hpp"
#include "core/sync/liveness.hpp"
#include "core/team/team_internal.hpp"
#include "gshmem/c/types.h"
#include "gshmem/version.h"

namespace gshmem {

namespace {

/// What every PE tells the others once, in the regions phase (one exchange instead of one per question).
struct InitCard {
  uint64_t slots;  ///< GSHMEM_MAX_TEAMS: the control area's size depends on it
  uint64_t heap;   ///< symmetric heap bytes
  uint64_t data;   ///< data segment bytes
  uint64_t boot;   ///< machineBootHash() of its machine; 0: the launcher's node stands in
  uint64_t cores;  ///< online CPUs of its machine
};

struct InitState {
  std::unique_ptr<Bootstrap> given;  ///< the caller's bootstrap, adopted by the bootstrap phase
  LocalRegion heap;
  LocalRegion data;
  std::vector<std::string> why;  ///< per PE: why its transport was chosen (PE 0 with GSHMEM_INFO only)
  int local_index = 0;           ///< this PE's index among the PEs of its machine (wait policy)
  std::vector<InitCard> cards;   ///< every PE's card, from the regions phase to the wait-policy phase
};
InitState g_init;

/// Format the failure reason into *err; returns `s`.
Status fail(std::string* err, Status s, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
Status fail(std::string* err, Status s, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  *err = strFormatV(fmt, ap);
  va_end(ap);
  return s;
}

Status allGatherOk(const void* mine, void* all, std::size_t bytes, std::string* err) {
  if (isError(g_rt.bootstrap->allGather(mine, all, bytes)))
    return fail(err, Status::RemoteError, "bootstrap allgather failed");
  return Status::Ok;
}

const char* g_call = "shmem_init";  ///< the API routine running the phases, for warnings

// ---- bootstrap
Status bootstrapInit(std::string* err) {
  std::unique_ptr<Bootstrap> bs = std::move(g_init.given);
  std::string why;
  if (!bs && isError(mpiBootstrapCreate(g_rt.thread_level, nullptr, &bs, &why)))
    return fail(err, Status::RemoteError, "cannot bootstrap through MPI: %s", why.c_str());
  bs->setPeerLostHandler([](int pe, const char* what) { peerLost(pe, what); });
  g_rt.bootstrap = std::move(bs);
  g_rt.my_pe = g_rt.bootstrap->rank();
  g_rt.n_pes = g_rt.bootstrap->size();
  g_rt.node_of = g_rt.bootstrap->nodeOf();
  g_log.pe = g_rt.my_pe;
  return Status::Ok;
}
void bootstrapFini() {
  (void)g_rt.bootstrap->finalize();
  g_rt.bootstrap.reset();
}

// ---- parameters
Status paramsInit(std::string* err) {
  if (isError(paramsLoad(err))) return Status::InvalidArgument;
  const Params& p = params();  // every value parsed and range-checked against params.def
  if (g_rt.my_pe == 0)
    for (const std::string& w : paramsUnknown()) fprintf(stderr, "gshmem: PE 0: %s: warning: %s\n", g_call, w.c_str());
  if (!logConfigure(p.LOG_LEVEL.c_str(), p.LOG_SUBSYS.c_str()))
    return fail(err, Status::InvalidArgument, "cannot configure logging");
  static_assert(kTeamSlotsLimit == 16384, "GSHMEM_MAX_TEAMS is declared up to 16384 in params.def");
  g_rt.team_slots = static_cast<int>(p.MAX_TEAMS);
  g_rt.check = static_cast<int>(p.CHECK);
  g_rt.wait_spins = p.WAIT_SPINS;
  return Status::Ok;
}

// ---- wait policy. More PEs than cores on this machine: spinning only steals the core from the PE we wait for.
// A few polls before the first yield still pay where the awaited store comes from a PE running on the other core
// (a collective's exchange at 4 PEs on 2 cores: 4 polls beat 16 and 0).
constexpr long kCrowdedWaitSpins = 4;
// "This machine" is the kernel (its boot id), not the launcher's node: PEs in other network namespaces or
// containers of the same host are separate nodes to MPI and UCX but share the cores.
Status waitPolicyInit(std::string* err) {
  const std::vector<InitCard>& all = g_init.cards;  // gathered by the regions phase
  // A machine's key: its boot hash, or (where there is none) the launcher's node.
  auto key = [&](int pe) { return all[pe].boot ? all[pe].boot : ~static_cast<uint64_t>(g_rt.node_of[pe]); };
  std::unordered_map<uint64_t, int> count;  // PEs per machine
  for (int pe = 0; pe < g_rt.n_pes; ++pe) {
    if (pe == g_rt.my_pe) g_init.local_index = count[key(pe)];
    ++count[key(pe)];
  }
  // Every PE judges every machine from the same cards, so all agree whether some machine is oversubscribed
  // (collective algorithm choices depend on it).
  for (int pe = 0; pe < g_rt.n_pes; ++pe)
    g_rt.oversubscribed |= count[key(pe)] > static_cast<int>(all[pe].cores);
  g_rt.crowded = count[key(g_rt.my_pe)] > static_cast<int>(all[g_rt.my_pe].cores);
  if (g_rt.crowded && g_rt.wait_spins > kCrowdedWaitSpins) g_rt.wait_spins = kCrowdedWaitSpins;
  g_init.cards = std::vector<InitCard>();
  return Status::Ok;
}

// ---- symmetric regions
Status heapCreate(std::size_t user_bytes, LocalRegion* out) {
  g_rt.control_bytes = controlBytes(g_rt.n_pes, g_rt.team_slots);
  std::size_t total = g_rt.control_bytes + ((user_bytes + 4095) & ~std::size_t(4095));
  int fd = -1;
  GSHMEM_CHECK(memfdCreate("gshmem-heap", "the symmetric heap", total, &fd));
  // Reserve kHeapAlign of slack, then map the memfd at the aligned address inside the reservation.
  void* res = mmap(nullptr, total + kHeapAlign, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (res == MAP_FAILED) {
    GSHMEM_LOG_ERROR(MEM, "cannot reserve %zu bytes of address space for the heap: %s", total + kHeapAlign,
                     strerror(errno));
    close(fd);
    return Status::NoMemory;
  }
  uintptr_t lo = reinterpret_cast<uintptr_t>(res);
  uintptr_t at = (lo + kHeapAlign - 1) & ~(kHeapAlign - 1);
  void* m = mmap(reinterpret_cast<void*>(at), total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
  if (m == MAP_FAILED) {
    GSHMEM_LOG_ERROR(MEM, "cannot map the %zu-byte symmetric heap: %s", total, strerror(errno));
    munmap(res, total + kHeapAlign);
    close(fd);
    return Status::NoMemory;
  }
  if (at > lo) munmap(res, at - lo);
  if (lo + total + kHeapAlign > at + total) munmap(reinterpret_cast<void*>(at + total), lo + kHeapAlign - at);
  out->base = static_cast<char*>(m);
  out->size = total;
  out->fd = fd;
  return Status::Ok;
}

/// The heap layout (control area offset) must be the same on every PE; the data segment too (same executable),
/// else globals are not symmetric and the data region is dropped.
Status regionsAgree(std::string* err) {
  const InitCard mine = {static_cast<uint64_t>(g_rt.team_slots), g_init.heap.size, g_init.data.size,
                         machineBootHash(), static_cast<uint64_t>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)))};
  std::vector<InitCard>& all = g_init.cards;
  all.assign(g_rt.n_pes, InitCard{});
  GSHMEM_CHECK(allGatherOk(&mine, all.data(), sizeof mine, err));  // one exchange: each costs a round at scale
  for (int pe = 0; pe < g_rt.n_pes; ++pe)
    if (all[pe].slots != mine.slots)
      return fail(err, Status::InvalidArgument, "PE %d has GSHMEM_MAX_TEAMS=%llu but this PE %llu: set the same "
                  "GSHMEM_MAX_TEAMS on every PE", pe, static_cast<unsigned long long>(all[pe].slots),
                  static_cast<unsigned long long>(mine.slots));
  for (int pe = 0; pe < g_rt.n_pes; ++pe)
    if (all[pe].heap != mine.heap)
      return fail(err, Status::InvalidArgument,
                  "PE %d has a %llu-byte heap but this PE %llu bytes: set the same GSHMEM_SYMMETRIC_SIZE on every PE",
                  pe, static_cast<unsigned long long>(all[pe].heap), static_cast<unsigned long long>(mine.heap));
  for (const InitCard& c : all)
    if (c.data != mine.data) {
      GSHMEM_LOG_WARN(MEM, "PEs run executables with different data segments: globals are not symmetric");
      if (g_init.data.fd >= 0) close(g_init.data.fd);
      g_init.data = LocalRegion{};
      break;
    }
  return Status::Ok;
}

Status regionsInit(std::string* err) {
  const Params& p = params();
  if (isError(heapCreate(p.SYMMETRIC_SIZE, &g_init.heap)))
    return fail(err, Status::NoMemory, "cannot create the symmetric heap of %s; lower GSHMEM_SYMMETRIC_SIZE",
                formatSize(p.SYMMETRIC_SIZE).c_str());
  if (p.SYMMETRIC_DATA == "remap" && isError(symmetricDataCreate(&g_init.data)))
    return fail(err, Status::SystemError,
                "cannot make global and static data symmetric; set GSHMEM_SYMMETRIC_DATA=off to run without");
  GSHMEM_CHECK(regionsAgree(err));
  g_rt.base[kRegionHeap] = g_init.heap.base;
  g_rt.size[kRegionHeap] = g_init.heap.size;
  g_rt.base[kRegionData] = g_init.data.base;
  g_rt.size[kRegionData] = g_init.data.size;
  return Status::Ok;
}

/// The data segment stays mapped: it holds the program's globals.
void regionsFini() {
  if (g_init.heap.base) munmap(g_init.heap.base, g_init.heap.size);
  g_init.heap = LocalRegion{};
  g_rt.base[kRegionHeap] = nullptr;
  g_rt.size[kRegionHeap] = 0;
  heapReset();
}

// ---- transports: the registry in probe order; a peer is reached by the first transport with caps for it.
TransportConfig transportConfig() {
  const Params& p = params();
  TransportConfig c;
  c.thread_level = g_rt.thread_level;
  c.progress_thread = p.PROGRESS_THREAD != 0;
  c.timeout_s = p.TIMEOUT > 0 ? p.TIMEOUT : 0;
  c.wait_spins = g_rt.wait_spins;  // blocking waits inside the transport yield as the core's do
  c.wait_block = p.WAIT_BLOCK.c_str();  // params() outlives the transports
  c.aggregate = p.UCX_AGGREGATE;
  c.amo = p.UCX_AMO.c_str();  // params() outlives the transports
  c.on_peer_lost = [](int pe, const char* why) { peerLost(pe, why); };
  return c;
}

bool transportEnabled(const char* name, const std::string& choice) {
  return std::strcmp(name, "self") == 0 || choice == "auto" || choice == name;
}

/// Collective: true when some PE has a peer that no transport connected so far reaches.
Status anyUnreached(bool* out, std::string* err) {
  // PEs on more than one node: the transports before the on-demand ones (load/store) cannot reach them all, and
  // every PE knows it from the same node map without an exchange.
  if (std::any_of(g_rt.node_of.begin(), g_rt.node_of.end(), [](int n) { return n != g_rt.node_of[0]; })) {
    *out = true;
    return Status::Ok;
  }
  int mine = std::count(g_rt.peer_via.begin(), g_rt.peer_via.end(), nullptr) > 0 ? 1 : 0;
  std::vector<int> all(g_rt.n_pes);
  GSHMEM_CHECK(allGatherOk(&mine, all.data(), sizeof mine, err));
  *out = std::find(all.begin(), all.end(), 1) != all.end();
  return Status::Ok;
}

static_assert(kNumRegions <= PeerReach::kMaxRegions, "PeerReach holds every region of the core");

/// Record the peers that `t` reaches and no earlier transport does.
void adoptPeers(Transport* t, const std::vector<PeerReach>& reach) {
  for (int pe = 0; pe < g_rt.n_pes; ++pe) {
    if (g_rt.peer_via[pe] || reach[pe].caps == 0) continue;
    if (reach[pe].caps & kCapLoadStore)
      for (int r = 0; r < kNumRegions; ++r) g_rt.peer_table[pe].base[r] = reach[pe].mapped[r];
    else
      g_rt.remote = t;  // one transport reaches the unmapped peers
    g_rt.peer_via[pe] = t->name();
    if (!g_init.why.empty()) g_init.why[pe] = reach[pe].why;
  }
}

Status connectEntry(const TransportEntry& e, std::vector<LocalRegion>& regions, std::string* err) {
  const std::string& choice = params().TRANSPORTS;
  auto t = e.create(transportConfig());
  if (!t)
    return fail(err, Status::Unsupported, "PEs on other nodes (or GSHMEM_TRANSPORTS=%s) need %s, and this build has "
                "no %s", choice.c_str(), e.name, e.name);
  std::vector<PeerReach> reach;
  if (isError(t->connect(*g_rt.bootstrap, regions, &reach))) {
    const std::string why = t->lastError();
    if (!why.empty()) return fail(err, Status::RemoteError, "%s", why.c_str());
    return fail(err, Status::RemoteError, "%s transport setup failed", e.name);
  }
  adoptPeers(t.get(), reach);
  g_rt.transports.push_back(std::move(t));
  return Status::Ok;
}

Status transportsInit(std::string* err) {
  const std::string& choice = params().TRANSPORTS;
  std::vector<LocalRegion> regions = {g_init.heap, g_init.data};
  g_rt.peer_table.assign(g_rt.n_pes, PeerEntry{});
  g_rt.peer_via.assign(g_rt.n_pes, nullptr);
  // The reasons are read only by PE 0's GSHMEM_INFO report: kept there alone (a line per peer).
  if (g_rt.my_pe == 0 && params().INFO) g_init.why.assign(g_rt.n_pes, std::string());
  for (int i = 0; i < kNumTransports; ++i) {
    const TransportEntry& e = kTransports[i];
    if (!(e.mem_kinds & (1u << static_cast<int>(MemKind::Host)))) continue;  // device heaps: the device layer's
    if (!transportEnabled(e.name, choice)) continue;
    bool needed = true;
    if (e.on_demand) GSHMEM_CHECK(anyUnreached(&needed, err));
    if (needed) GSHMEM_CHECK(connectEntry(e, regions, err));
  }
  for (int pe = 0; pe < g_rt.n_pes; ++pe)
    if (!g_rt.peer_via[pe])
      return fail(err, Status::Unsupported, "PE %d cannot be reached by any transport (GSHMEM_TRANSPORTS=%s); use "
                  "auto or ucx", pe, choice.c_str());
  for (LocalRegion* r : {&g_init.heap, &g_init.data})
    if (r->fd >= 0) close(r->fd);  // the mappings keep the memory alive
  g_init.heap.fd = g_init.data.fd = -1;
  g_rt.peers = g_rt.peer_table.data();
  // Waits may sleep until a message arrives only where every store that ends them is a message: no other PE mapped.
  bool any_mapped = false;
  for (int pe = 0; pe < g_rt.n_pes; ++pe) any_mapped |= pe != g_rt.my_pe && g_rt.peers[pe].base[kRegionHeap];
  g_rt.wait_block = g_rt.remote && g_rt.remote->canWaitInput() && !any_mapped;
  return Status::Ok;
}

void transportsFini() {
  g_rt.wait_block = false;
  g_rt.peers = nullptr;
  g_rt.remote = nullptr;
  for (auto it = g_rt.transports.rbegin(); it != g_rt.transports.rend(); ++it) (*it)->disconnect();
  g_rt.transports.clear();
}

// ---- liveness: started as soon as GSHMEM_TIMEOUT is known, watching every peer over the network, so that every
// later wait of init is bounded by the silence of the PE it waits for; once the heaps are mapped the watchdog of
// blocking waits reads the heartbeat of every heap mapped on this node, whatever the transport.
Status livenessBegin(std::string*) {
  liveness::begin(*g_rt.bootstrap, params().TIMEOUT);
  return Status::Ok;
}
void livenessFini() { liveness::stop(); }  // before the heaps (which hold the heartbeats) are unmapped

Status livenessAttach(std::string*) {
  std::vector<char*> heaps(g_rt.n_pes);
  for (int pe = 0; pe < g_rt.n_pes; ++pe) heaps[pe] = g_rt.peer_table[pe].base[kRegionHeap];
  heaps[g_rt.my_pe] = g_rt.base[kRegionHeap];
  liveness::attach(heaps, g_rt.size[kRegionHeap]);
  return Status::Ok;
}

// ---- path selection: a decision table per peer path, from GSHMEM_PROFILE, GSHMEM_PATH, GSHMEM_TUNE.
Status selectorInit(std::string* err) {
  bool avail[kNumProtocols] = {};
  avail[static_cast<int>(ProtocolId::Shm)] = params().TRANSPORTS != "ucx";
  avail[static_cast<int>(ProtocolId::Ucx)] = g_rt.remote != nullptr;
  // Device protocols; their peer paths are added by the device layer once peers are mapped.
  const bool dev = protocols::deviceProtocolsAvailable();
  avail[static_cast<int>(ProtocolId::P2pCe)] = avail[static_cast<int>(ProtocolId::P2pSm)] = dev;
  avail[static_cast<int>(ProtocolId::Staged)] = dev;
  g_rt.peer_path.resize(g_rt.n_pes);
  for (int pe = 0; pe < g_rt.n_pes; ++pe)
    g_rt.peer_path[pe] = peerPathHost(g_rt.node_of[pe] == g_rt.node_of[g_rt.my_pe]);
  if (isError(selectorCreate(selectParamsCurrent(), avail, g_rt.peer_path, &g_rt.selector, err)))
    return Status::InvalidArgument;
  return Status::Ok;
}
void selectorFini() { g_rt.selector.reset(); }

// ---- teams
Status teamsPhase(std::string*) {
  teamsInit();
  return Status::Ok;
}

// ---- GSHMEM_INFO: the variables, the transport of every peer and the selector's tables, printed by PE 0.
Status infoPrint(std::string*) {
  if (g_rt.my_pe != 0) return Status::Ok;
  if (params().VERSION || params().INFO)  // GSHMEM_VERSION / SHMEM_VERSION, and the head of the INFO report
    fprintf(stderr, "gshmem: version %s (OpenSHMEM %d.%d, %s)\n", GSHMEM_VERSION_STRING, SHMEM_MAJOR_VERSION,
            SHMEM_MINOR_VERSION, SHMEM_VENDOR_STRING);
  if (!params().INFO) return Status::Ok;
  fprintf(stderr, "gshmem: %d PEs on %d node(s), bootstrap %s; heap %s per PE (+%zu control bytes), data segment %zu "
          "bytes\n", g_rt.n_pes,
          g_rt.node_of.empty() ? 1 : (*std::max_element(g_rt.node_of.begin(), g_rt.node_of.end()) + 1),
          g_rt.bootstrap->describe().c_str(),
          formatSize(params().SYMMETRIC_SIZE).c_str(), g_rt.control_bytes, g_rt.size[kRegionData]);
  for (const auto& p : paramTable()) {
    const std::string from = paramSource(p);
    const bool alias = !from.empty() && from.compare(0, 7, "GSHMEM_") != 0;  // a specification variable
    fprintf(stderr, "gshmem:   GSHMEM_%-16s = %s%s%s\n", p.name, paramCurrent(p).c_str(), alias ? "  (from " : "",
            alias ? (from + ")").c_str() : "");
  }
  for (int pe = 0; pe < g_rt.n_pes; ++pe)
    fprintf(stderr, "gshmem:   PE %d -> PE %d: %s (%s)\n", g_rt.my_pe, pe, g_rt.peer_via[pe],
            g_init.why[pe].c_str());
  fputs(g_rt.selector->describe("gshmem: ").c_str(), stderr);
  return Status::Ok;
}

struct Phase {
  Status (*init)(std::string* err);
  void (*fini)();
  const char* name;  ///< for the watchdog's report and GSHMEM_TEST_STOP_IN_INIT
};


// ---- binding (GSHMEM_BIND), the last phase: the runtime's helper threads, started before, keep their CPU set.
// On a crowded machine whose launcher bound nothing, the scheduler moves PEs between the cores while they wait for
// each other, and a collective's round then waits for a PE that shares a core with two others for a while; one
// core per PE (local index modulo the cores) spreads them evenly and keeps them there.
Status bindPhase(std::string*) {
  const std::string& mode = params().BIND;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (mode == "none" || sched_getaffinity(0, sizeof set, &set) != 0) return Status::Ok;
  const int count = CPU_COUNT(&set);
  const bool single_thread = g_rt.thread_level == SHMEM_THREAD_SINGLE || g_rt.thread_level == SHMEM_THREAD_FUNNELED;
  // auto leaves alone a PE that reaches some peer through the remote transport: its progress thread and its waits
  // in the transport need the CPUs it was given (bound PEs of two namespace hosts sharing a kernel hung in finalize).
  const bool want = mode == "core" ? count > 1
                                   : g_rt.crowded && single_thread && g_rt.remote == nullptr &&
                                         count == sysconf(_SC_NPROCESSORS_ONLN) && count > 1;
  if (!want) return Status::Ok;
  int cpu = -1;
  for (int c = 0, k = g_init.local_index % count; c < CPU_SETSIZE && cpu < 0; ++c)
    if (CPU_ISSET(c, &set) && k-- == 0) cpu = c;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0) {
    GSHMEM_LOG_WARN(INIT, "PE %d: GSHMEM_BIND=%s: binding to CPU %d failed: %s", g_rt.my_pe, mode.c_str(), cpu,
                    strerror(errno));
    return Status::Ok;
  }
  if (g_rt.my_pe == 0 && params().INFO)
    fprintf(stderr, "gshmem: GSHMEM_BIND=%s: each PE's main thread bound to one CPU (PE 0 to CPU %d of %d)\n",
            mode.c_str(), cpu, count);
  return Status::Ok;
}

// Collective: creates the device heap only when every PE has a GPU.
Status devicePhase(std::string* err) { return device::backendInit(err); }

constexpr Phase kPhases[] = {
    {bootstrapInit, bootstrapFini, "bootstrap"},
    {paramsInit, nullptr, "params"},
    {livenessBegin, livenessFini, "liveness"},
    {regionsInit, regionsFini, "regions"},
    {waitPolicyInit, nullptr, "waitpolicy"},
    {transportsInit, transportsFini, "transports"},
    {livenessAttach, livenessFini, "attach"},  // stops the heartbeat before the heaps go
    {selectorInit, selectorFini, "selector"},
    {teamsPhase, teamsFinalize, "teams"},
    {infoPrint, nullptr, "info"},
    {devicePhase, device::backendFinalize, "device"},
    {bindPhase, nullptr, "bind"},
};
constexpr int kNumPhases = static_cast<int>(sizeof kPhases / sizeof kPhases[0]);
/// The phases from which the parameters (GSHMEM_TEST_STOP_IN_INIT, the log level) are known: after "params".
constexpr int kParamsKnown = 2;
static_assert(kPhases[kParamsKnown - 1].init == paramsInit, "the phase before kParamsKnown reads the parameters");
int g_done = 0;  ///< phases completed

/// GSHMEM_TEST_STOP_IN_INIT=<pe>:<phase>: PE pe stops itself (SIGSTOP) before that phase, once parameters are read.
void testStopInInit(const char* call, const char* phase) {
  const std::string& want = params().TEST_STOP_IN_INIT;
  if (want.empty() || want != std::to_string(g_rt.my_pe) + ":" + phase) return;
  fprintf(stderr, "gshmem: PE %d: %s: GSHMEM_TEST_STOP_IN_INIT: stopping in init now, before phase %s\n", g_rt.my_pe,
          call, phase);
  fflush(stderr);
  raise(SIGSTOP);
}

/// GSHMEM_TIMEOUT before the parameters are read (the bootstrap comes first): its default when unset or malformed;
/// the parameter phase reports a malformed value.
long earlyTimeout() {
  const char* v = getenv("GSHMEM_TIMEOUT");
  char* end = nullptr;
  const long t = v ? strtol(v, &end, 10) : 60;
  return v && end != v && *end == '\0' && t >= 0 ? t : 60;
}

/// This process's resident set in KiB (/proc/self/statm), -1 when unknown.
long residentKb() {
  FILE* f = fopen("/proc/self/statm", "r");
  if (!f) return -1;
  long size = 0, resident = -1;
  if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = -1;
  fclose(f);
  return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

}  // namespace

void initPhasesRun(const char* call, std::unique_ptr<Bootstrap> bs) {
  g_call = call;
  if (g_done == 0) g_init.given = std::move(bs);
  if (g_done == 0) device::beforeCudaInit();
  if (g_done == 0)
    liveness::initTimerArm(earlyTimeout(), "the bootstrap (the launcher's start of every PE and its first "
                           "collectives)");
  double took_ms[kNumPhases];
  long rss_kb[kNumPhases];  // resident set after each phase: what each one adds (DEBUG log)
  std::fill(took_ms, took_ms + kNumPhases, -1.0);
  for (; g_done < kNumPhases; ++g_done) {
    std::string err;
    if (g_done >= kParamsKnown) testStopInInit(call, kPhases[g_done].name);
    liveness::initPhase(kPhases[g_done].name);
    const auto t0 = std::chrono::steady_clock::now();
    if (isError(kPhases[g_done].init(&err))) fatal(call, "%s", err.c_str());
    took_ms[g_done] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    // The log level is known from the params phase on; before it, the resident set is read in case it is DEBUG.
    const bool debug = static_cast<int>(LogLevel::Debug) <= g_log.level && (g_log.mask & kLogINIT);
    rss_kb[g_done] = g_done < kParamsKnown || debug ? residentKb() : -1;
  }
  for (int i = 0; i < kNumPhases; ++i)  // the log level is known once the params phase has run
    if (took_ms[i] >= 0)
      GSHMEM_LOG_DEBUG(INIT, "PE %d: init phase %s took %.1f ms, resident %ld KiB after it", g_rt.my_pe,
                       kPhases[i].name, took_ms[i], rss_kb[i]);
  liveness::initTimerDisarm();  // GSHMEM_TIMEOUT=0, or a re-init
  liveness::initPhase("the closing barrier");  // the runtime's last barrier: ends once the runtime is initialized
}

void initPhasesTeardown() {
  for (; g_done > 0; --g_done)
    if (kPhases[g_done - 1].fini) kPhases[g_done - 1].fini();
}

}  // namespace gshmem
