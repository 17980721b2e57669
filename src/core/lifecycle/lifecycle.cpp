// The lifecycle entry points over the init phases (core/lifecycle/init.cpp): init runs them in order; finalize
// undoes them in reverse. Also the queries that look across parts (shmem_ptr, shmem_pe_accessible).
#include "core/runtime/runtime.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "base/config.hpp"
#include "core/api.hpp"
#include "core/device/device.hpp"
#include "core/lifecycle/init.hpp"
#include "core/sync/liveness.hpp"
#include "core/team/team_internal.hpp"

namespace gshmem {

namespace {

/// At exit (registered by init with on_exit, which passes the status given to exit or returned from main): a
/// process leaving without shmem_finalize says so. Exit status 0 is an implicit finalize: the bootstrap leaves
/// without collective calls and the static destructors that follow are local. Any other exit status ends the job at
/// once with that status, as shmem_global_exit does: the other PEs are not left waiting for a PE that has given up.
void leaveWithoutFinalize(int status, void*) {
  if (!g_rt.initialized.load() || g_rt.finalized || !g_rt.bootstrap) return;
  const int code = status & 0xff;  // what the process's parent sees
  if (code != 0)
    endJobWithStatus(code, "exit", "the program exits with status %d without shmem_finalize: ending the job with "
                     "status %d; call shmem_global_exit to end the job on purpose, or shmem_finalize on every PE",
                     code, code);
  fprintf(stderr, "gshmem: PE %d: exit: warning: the program ends without shmem_finalize; call shmem_finalize on "
          "every PE before returning from main or calling exit()\n", g_rt.my_pe);
  fflush(stderr);
  liveness::stop(false);  // first: the peers learn that this PE is exiting, and stop waiting on its heartbeat
  g_rt.bootstrap->leave(static_cast<int>(params().TIMEOUT));
}

}  // namespace

int runtimeInit(const char* call, int requested, const PredefinedObjects& objs, std::unique_ptr<Bootstrap> bs) {
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  if (g_rt.initialized.load()) return g_rt.thread_level;
  if (g_rt.finalized)
    fatal(call, "called after shmem_finalize: OpenSHMEM is initialized once per program; move shmem_finalize to "
          "the end of the program");
  g_rt.thread_level = requested < 0 || requested > 3 ? 0 : requested;  // the API rejects other levels
  teamsBind(objs, TeamMirror{device::backendTeamSet, device::backendTeamClear});
  initPhasesRun(call, std::move(bs));
  // Registered after the init phases, so it runs first at exit (exit handlers run in reverse order): before the
  // service threads that the phases started are stopped (their handler is registered when the first one starts) and
  // before the runtime's static destructors. While this PE waits for the others to leave, its proxy and staged servers
  // still serve the peers that are finishing work aimed at it; its watchdog stops first (leaveWithoutFinalize).
  static bool s_atexit = (on_exit(leaveWithoutFinalize, nullptr), true);
  (void)s_atexit;
  if (isError(g_rt.bootstrap->barrier())) fatal(call, "bootstrap barrier failed");
  g_rt.initialized.store(1);
  GSHMEM_LOG_INFO(INIT, "initialized: %d PEs, heap %zu bytes at %p", g_rt.n_pes, g_rt.size[kRegionHeap],
                  g_rt.base[kRegionHeap]);
  return g_rt.thread_level;
}

void runtimeFinalize() {
  std::lock_guard<std::recursive_mutex> guard(g_rt.alloc_lock);
  if (!g_rt.initialized.load()) return;
  barrierAll("shmem_finalize");
  initPhasesTeardown();  // device, teams, selector, transports, heap, bootstrap: collective where they are
  g_rt.finalized = true;
  g_rt.initialized.store(0);
}

bool runtimeInitialized() { return g_rt.initialized.load() != 0; }
int runtimeThreadLevel() { return g_rt.thread_level; }

void globalExit(int status) {
  if (!g_rt.bootstrap) {  // before shmem_init (or after shmem_finalize): this process is the only one to end
    fflush(stdout);
    fprintf(stderr, "gshmem: shmem_global_exit: called %s; exiting this process with status %d\n",
            g_rt.finalized ? "after shmem_finalize" : "before shmem_init", status);
    fflush(stderr);
    _exit(status);
  }
  fflush(stdout);
  fflush(stderr);
  if (g_rt.bootstrap) g_rt.bootstrap->abortJob(status, nullptr);
  _exit(status);
}

namespace {
void* ptrIn(const void* addr, int pe, bool user) {
  if (!g_rt.peers || static_cast<unsigned>(pe) >= static_cast<unsigned>(g_rt.n_pes)) return nullptr;
  std::size_t off;
  int r = user ? userRegionOf(addr, 1, &off) : regionOf(addr, 1, &off);
  if (r < 0 && (device::owns(addr) || device::registeredOffset(addr, 1, &off)))  // the peer's device heap as
    return device::backendPeerPtr(pe, static_cast<const char*>(addr) - device::g_region.base);  // mapped here
  if (r < 0 || !g_rt.peers[pe].base[r]) return nullptr;
  return g_rt.peers[pe].base[r] + off;
}
}  // namespace

void* ptrOf(const void* addr, int pe) { return ptrIn(addr, pe, false); }
void* userPtrOf(const void* addr, int pe) { return ptrIn(addr, pe, true); }

bool peAccessible(int pe) {
  return g_rt.peers && static_cast<unsigned>(pe) < static_cast<unsigned>(g_rt.n_pes) &&
         (g_rt.peers[pe].base[kRegionHeap] != nullptr || g_rt.remote != nullptr);
}

bool addrAccessible(const void* addr, int pe) {
  if (!peAccessible(pe)) return false;
  std::size_t off;
  return userRegionOf(addr, 1, &off) >= 0;
}

}  // namespace gshmem
