// Init order: bootstrap -> parameters -> symmetric regions (heap, data) -> transports -> peer table -> teams.
// Finalize releases in reverse order.
#include "core/runtime.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "base/config.hpp"
#include "core/api.hpp"
#include "core/device/device.hpp"  // DEVICE: device symmetric heap (issue 5)
#include "core/protocols/device_path.hpp"  // PROTO (issue 6): device protocols available in the selector
#include "core/symmetric_data.hpp"
#include "core/team_internal.hpp"
#include "transports/transport.hpp"

namespace gshmem {

Runtime g_rt;

namespace {

LocalRegion g_heap_region;
LocalRegion g_data_region;

[[noreturn]] void vfatal(const char* call, const char* fmt, va_list ap) {
  char msg[768];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (g_log.pe >= 0)
    fprintf(stderr, "gshmem: PE %d: %s: %s\n", g_log.pe, call, msg);
  else
    fprintf(stderr, "gshmem: %s: %s\n", call, msg);
  fflush(stderr);
  if (g_rt.bootstrap) g_rt.bootstrap->abortJob(1);
  _exit(1);
}

Status heapCreate(std::size_t user_bytes, LocalRegion* out) {
  g_rt.control_bytes = controlBytes(g_rt.n_pes);
  std::size_t total = g_rt.control_bytes + ((user_bytes + 4095) & ~std::size_t(4095));
  int fd = memfd_create("gshmem-heap", MFD_CLOEXEC);
  if (fd < 0) {
    GSHMEM_LOG_ERROR(MEM, "memfd_create for the symmetric heap failed: %s", strerror(errno));
    return Status::SystemError;
  }
  if (ftruncate(fd, static_cast<off_t>(total)) != 0) {
    GSHMEM_LOG_ERROR(MEM, "cannot size the symmetric heap to %zu bytes: %s", total, strerror(errno));
    close(fd);
    return Status::NoMemory;
  }
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

void printInfo() {
  if (g_rt.my_pe != 0) return;
  fprintf(stderr, "gshmem: %d PEs on %d node(s); heap %s per PE (+%zu control bytes), data segment %zu bytes\n",
          g_rt.n_pes, g_rt.node_of.empty() ? 1 : (*std::max_element(g_rt.node_of.begin(), g_rt.node_of.end()) + 1),
          formatSize(params().SYMMETRIC_SIZE).c_str(), g_rt.control_bytes, g_rt.size[kRegionData]);
  for (const auto& p : paramTable())
    fprintf(stderr, "gshmem:   GSHMEM_%-16s = %s\n", p.name, paramCurrent(p).c_str());
}

}  // namespace

void fatal(const char* call, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfatal(call, fmt, ap);
}

void errorNotSymmetric(const char* call, const char* what, const void* addr, std::size_t len) {
  const char* h = g_rt.base[kRegionHeap];
  const char* d = g_rt.base[kRegionData];
  fatal(call,
        "%s %p (+%zu bytes) is not in a symmetric region (heap [%p, %p), data [%p, %p)); allocate it with "
        "shmem_malloc or make it a global/static variable",
        what, addr, len, static_cast<const void*>(h), static_cast<const void*>(h + g_rt.size[kRegionHeap]),
        static_cast<const void*>(d), static_cast<const void*>(d + g_rt.size[kRegionData]));
}

void errorBadPe(const char* call, int pe, int n) { fatal(call, "PE %d is out of range [0, %d)", pe, n); }

void errorUnreachable(const char* call, int pe) {
  fatal(call, "PE %d is not reachable: it is on another node and this build has no inter-node transport", pe);
}

void errorNotInitialized(const char* call) {
  if (g_rt.finalized) fatal(call, "called after shmem_finalize; OpenSHMEM calls belong between shmem_init and it");
  fatal(call, "called before shmem_init; call shmem_init first");
}

/// A hash of the kernel's boot id: equal for every process of one running machine, whatever its namespaces.
/// 0 when unreadable (then the launcher's node stands in).
static uint64_t machineId() {
  FILE* f = fopen("/proc/sys/kernel/random/boot_id", "r");
  if (!f) return 0;
  char id[64] = {};
  size_t n = fread(id, 1, sizeof id - 1, f);
  fclose(f);
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(id[i])) * 1099511628211ull;
  return n ? h : 0;
}

int runtimeInit(const char* call, int requested) {
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  if (g_rt.initialized.load()) return g_rt.thread_level;
  if (requested < 0 || requested > 3) requested = 3;

  std::unique_ptr<Bootstrap> bs;
  if (isError(mpiBootstrapCreate(requested, &bs))) fatal(call, "cannot bootstrap through MPI");
  g_rt.bootstrap = std::move(bs);
  Bootstrap& b = *g_rt.bootstrap;
  g_rt.my_pe = b.rank();
  g_rt.n_pes = b.size();
  g_rt.node_of = b.nodeOf();
  g_log.pe = g_rt.my_pe;

  std::string err;
  if (isError(paramsLoad(&err))) fatal(call, "%s", err.c_str());
  const Params& p = params();
  if (!logConfigure(p.LOG_LEVEL.c_str(), p.LOG_SUBSYS.c_str()))
    fatal(call, "GSHMEM_LOG_LEVEL='%s' / GSHMEM_LOG_SUBSYS='%s' is not valid (levels NONE..TRACE; subsystems "
          "INIT,MEM,TRANSPORT,SHM,UCX,COLL,TEAM,PROXY,ALL)", p.LOG_LEVEL.c_str(), p.LOG_SUBSYS.c_str());
  if (p.SYMMETRIC_DATA != "remap" && p.SYMMETRIC_DATA != "off")
    fatal(call, "GSHMEM_SYMMETRIC_DATA='%s' is not valid: use remap or off", p.SYMMETRIC_DATA.c_str());
  if (p.MAX_TEAMS < 2 || p.MAX_TEAMS > kMaxTeams)
    fatal(call, "GSHMEM_MAX_TEAMS=%ld is out of range [2, %d]", p.MAX_TEAMS, kMaxTeams);
  if (p.SYMMETRIC_SIZE == 0) fatal(call, "GSHMEM_SYMMETRIC_SIZE must be larger than 0");
  uint64_t ce_min[3];
  if (!parseSizeTriple(p.DEVICE_CE_MIN, ce_min))
    fatal(call, "GSHMEM_DEVICE_CE_MIN='%s' is not valid: give off, one size, or three sizes thread,warp,block "
          "(e.g. 20K,158K,727K)", p.DEVICE_CE_MIN.c_str());
  if (p.UCX_AGGREGATE > 2048)
    fatal(call, "GSHMEM_UCX_AGGREGATE=%s is above the largest batched put (2K); use 0..2K",
          formatSize(p.UCX_AGGREGATE).c_str());
  g_rt.check = static_cast<int>(p.CHECK);
  g_rt.wait_spins = p.WAIT_SPINS < 0 ? 0 : p.WAIT_SPINS;
  // More PEs than cores on this machine: spinning only steals the core from the PE we wait for. "This machine" is
  // the kernel (its boot id), not the launcher's node: PEs in other network namespaces or containers of the same
  // host are separate nodes to MPI and UCX but share the cores (2+2 PEs on two namespace hosts of a 2-core machine
  // spent minutes in tests that take seconds while each host counted only its own 2 PEs).
  uint64_t boot = machineId();
  std::vector<uint64_t> boots(g_rt.n_pes);
  if (isError(b.allGather(&boot, boots.data(), sizeof boot))) fatal(call, "bootstrap allgather failed");
  int local = 0;
  for (int pe = 0; pe < g_rt.n_pes; ++pe)
    local += boot ? boots[pe] == boot : g_rt.node_of[pe] == g_rt.node_of[g_rt.my_pe];
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (local > cores && g_rt.wait_spins > 16) g_rt.wait_spins = 16;
  g_rt.thread_level = requested;

  // Symmetric regions.
  if (isError(heapCreate(p.SYMMETRIC_SIZE, &g_heap_region)))
    fatal(call, "cannot create the symmetric heap of %s; lower GSHMEM_SYMMETRIC_SIZE",
          formatSize(p.SYMMETRIC_SIZE).c_str());
  if (p.SYMMETRIC_DATA == "remap" && isError(symmetricDataCreate(&g_data_region)))
    fatal(call, "cannot make global and static data symmetric; set GSHMEM_SYMMETRIC_DATA=off to run without");
  // The heap layout (control area offset) must be the same on every PE.
  std::vector<uint64_t> sizes(g_rt.n_pes);
  uint64_t heap_bytes = g_heap_region.size;
  if (isError(b.allGather(&heap_bytes, sizes.data(), sizeof heap_bytes))) fatal(call, "bootstrap allgather failed");
  for (int pe = 0; pe < g_rt.n_pes; ++pe)
    if (sizes[pe] != heap_bytes)
      fatal(call, "PE %d has a %llu-byte heap but this PE %llu bytes: set the same GSHMEM_SYMMETRIC_SIZE on every PE",
            pe, static_cast<unsigned long long>(sizes[pe]), static_cast<unsigned long long>(heap_bytes));
  // Every PE must run the same executable for offsets in its data segment to match.
  uint64_t mine = g_data_region.size;
  if (isError(b.allGather(&mine, sizes.data(), sizeof mine))) fatal(call, "bootstrap allgather failed");
  for (uint64_t s : sizes)
    if (s != mine) {
      GSHMEM_LOG_WARN(MEM, "PEs run executables with different data segments: globals are not symmetric");
      if (g_data_region.fd >= 0) close(g_data_region.fd);
      g_data_region = LocalRegion{};
      break;
    }
  g_rt.base[kRegionHeap] = g_heap_region.base;
  g_rt.size[kRegionHeap] = g_heap_region.size;
  g_rt.base[kRegionData] = g_data_region.base;
  g_rt.size[kRegionData] = g_data_region.size;

  // Transports, then the per-peer table (decided once, here).
  if (p.TRANSPORTS != "auto" && p.TRANSPORTS != "shm" && p.TRANSPORTS != "ucx")
    fatal(call, "GSHMEM_TRANSPORTS='%s' is not valid: use auto, shm or ucx", p.TRANSPORTS.c_str());
  std::vector<LocalRegion> regions = {g_heap_region, g_data_region};
  auto shm = shmTransportCreate();
  std::vector<PeerReach> reach;
  if (isError(shm->connect(b, regions, &reach))) fatal(call, "shared-memory transport setup failed");
  g_rt.transports.push_back(std::move(shm));
  g_rt.peer_table.assign(g_rt.n_pes, PeerEntry{});
  g_rt.peer_via.assign(g_rt.n_pes, "shm");
  bool need_remote = p.TRANSPORTS == "ucx";
  for (int pe = 0; pe < g_rt.n_pes; ++pe) {
    bool use_shm = (reach[pe].caps & kCapLoadStore) && (p.TRANSPORTS != "ucx" || pe == g_rt.my_pe);
    if (use_shm)
      for (int r = 0; r < kNumRegions; ++r) g_rt.peer_table[pe].base[r] = reach[pe].mapped[r];
    else
      need_remote = true;
  }
  // Every PE must take part in creating the remote transport when any PE needs it.
  int any_remote = need_remote ? 1 : 0;
  std::vector<int> all_remote(g_rt.n_pes);
  if (isError(b.allGather(&any_remote, all_remote.data(), sizeof any_remote))) fatal(call, "bootstrap allgather failed");
  if (std::find(all_remote.begin(), all_remote.end(), 1) != all_remote.end()) {
    if (p.TRANSPORTS == "shm")
      fatal(call, "some PEs are on other nodes but GSHMEM_TRANSPORTS=shm; use auto or ucx");
    auto ucx = ucxTransportCreate();
    if (!ucx) fatal(call, "PEs on other nodes (or GSHMEM_TRANSPORTS=ucx) need UCX, and this build has no UCX");
    std::vector<PeerReach> ureach;
    if (isError(ucx->connect(b, regions, &ureach))) fatal(call, "UCX transport setup failed");
    ucx->tune("wait_spins", static_cast<std::size_t>(g_rt.wait_spins));  // its blocking waits yield alike
    for (int pe = 0; pe < g_rt.n_pes; ++pe) {
      if (g_rt.peer_table[pe].base[kRegionHeap]) continue;
      if (!(ureach[pe].caps & kCapRma)) fatal(call, "PE %d cannot be reached by any transport", pe);
      g_rt.peer_via[pe] = ucx->name();
      reach[pe].why = ureach[pe].why;
    }
    g_rt.remote = ucx.get();
    g_rt.transports.push_back(std::move(ucx));
  }
  for (int r = 0; r < kNumRegions; ++r)
    if (regions[r].fd >= 0) close(regions[r].fd);  // the mappings keep the memory alive
  g_heap_region.fd = g_data_region.fd = -1;
  g_rt.peers = g_rt.peer_table.data();
  {  // The watchdog of blocking waits reads the heartbeat of every heap mapped on this node, whatever the transport.
    std::vector<char*> heaps(g_rt.n_pes);
    for (int pe = 0; pe < g_rt.n_pes; ++pe) heaps[pe] = reach[pe].mapped[kRegionHeap];
    liveness::start(b, heaps, g_rt.size[kRegionHeap], p.TIMEOUT);
  }
  {  // Path selection: a decision table per peer path, from GSHMEM_PROFILE, GSHMEM_PATH, GSHMEM_TUNE.
    bool avail[kNumProtocols] = {};
    avail[static_cast<int>(ProtocolId::Shm)] = p.TRANSPORTS != "ucx";
    avail[static_cast<int>(ProtocolId::Ucx)] = g_rt.remote != nullptr;
    // PROTO (issue 6): device protocols; their peer paths are added by the device layer once peers are mapped.
    const bool dev = protocols::deviceProtocolsAvailable();
    avail[static_cast<int>(ProtocolId::P2pCe)] = avail[static_cast<int>(ProtocolId::P2pSm)] = dev;
    avail[static_cast<int>(ProtocolId::Staged)] = dev;
    g_rt.peer_path.resize(g_rt.n_pes);
    for (int pe = 0; pe < g_rt.n_pes; ++pe)
      g_rt.peer_path[pe] = peerPathHost(g_rt.node_of[pe] == g_rt.node_of[g_rt.my_pe]);
    std::string serr;
    if (isError(selectorCreate(selectParamsCurrent(), avail, g_rt.peer_path, &g_rt.selector, &serr)))
      fatal(call, "%s", serr.c_str());
  }
  teamsInit();
  if (p.INFO) {
    printInfo();
    for (int pe = 0; pe < g_rt.n_pes && g_rt.my_pe == 0; ++pe)
      fprintf(stderr, "gshmem:   PE %d -> PE %d: %s (%s)\n", g_rt.my_pe, pe, g_rt.peer_via[pe].c_str(),
              reach[pe].why.c_str());
    if (g_rt.my_pe == 0) fputs(g_rt.selector->describe("gshmem: ").c_str(), stderr);
  }
  device::backendInit(call);  // DEVICE: collective; creates the device heap only when every PE has a GPU
  if (isError(b.barrier())) fatal(call, "bootstrap barrier failed");
  g_rt.initialized.store(1);
  GSHMEM_LOG_INFO(INIT, "initialized: %d PEs, heap %zu bytes at %p", g_rt.n_pes, g_rt.size[kRegionHeap],
                  g_rt.base[kRegionHeap]);
  return g_rt.thread_level;
}

void runtimeFinalize() {
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  if (!g_rt.initialized.load()) return;
  barrierAll("shmem_finalize");
  device::backendFinalize();  // DEVICE: collective; stops the proxy, closes IPC mappings, frees the device heap
  teamsFinalize();
  liveness::stop();  // before the heaps (which hold the heartbeats) are unmapped
  g_rt.selector.reset();
  g_rt.peers = nullptr;
  g_rt.remote = nullptr;
  for (auto it = g_rt.transports.rbegin(); it != g_rt.transports.rend(); ++it) (*it)->disconnect();
  g_rt.transports.clear();
  // The data segment stays mapped: it holds the program's globals.
  munmap(g_heap_region.base, g_heap_region.size);
  g_heap_region = LocalRegion{};
  g_rt.base[kRegionHeap] = nullptr;
  g_rt.size[kRegionHeap] = 0;
  heapReset();
  g_rt.bootstrap.reset();
  g_rt.finalized = true;
  g_rt.initialized.store(0);
}

bool runtimeInitialized() { return g_rt.initialized.load() != 0; }
int runtimeThreadLevel() { return g_rt.thread_level; }

void globalExit(int status) {
  fflush(stdout);
  fflush(stderr);
  if (g_rt.bootstrap) g_rt.bootstrap->abortJob(status);
  _exit(status);
}

void* ptrOf(const void* addr, int pe) {
  if (!g_rt.peers || static_cast<unsigned>(pe) >= static_cast<unsigned>(g_rt.n_pes)) return nullptr;
  std::size_t off;
  int r = regionOf(addr, 1, &off);
  if (r < 0 && device::owns(addr))  // DEVICE: the peer's device heap as mapped by CUDA IPC (a device address)
    return device::backendPeerPtr(pe, static_cast<const char*>(addr) - device::g_region.base);
  if (r < 0 || !g_rt.peers[pe].base[r]) return nullptr;
  return g_rt.peers[pe].base[r] + off;
}

bool peAccessible(int pe) {
  return g_rt.peers && static_cast<unsigned>(pe) < static_cast<unsigned>(g_rt.n_pes) &&
         (g_rt.peers[pe].base[kRegionHeap] != nullptr || g_rt.remote != nullptr);
}

bool addrAccessible(const void* addr, int pe) {
  if (!peAccessible(pe)) return false;
  std::size_t off;
  return regionOf(addr, 1, &off) >= 0;
}

}  // namespace gshmem

namespace gshmem::ops {

void errorMisaligned(const char* call, const void* addr, std::size_t align) {
  fatal(call, "address %p is not aligned to %zu bytes; atomics and signals need naturally aligned objects", addr,
        align);
}
void errorBadCmp(const char* call, int cmp) {
  fatal(call, "comparison %d is not one of SHMEM_CMP_EQ/NE/GT/GE/LT/LE", cmp);
}
void errorBadSignalOp(const char* call, int op) {
  fatal(call, "signal operation %d is not SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD", op);
}
void errorNull(const char* call, const char* what) { fatal(call, "%s is NULL", what); }

}  // namespace gshmem::ops
