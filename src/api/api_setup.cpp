// Public C API: setup and query, symmetric memory, teams and contexts (plus shmemx_wtime).
// Argument errors are fatal in the core (one line naming the PE and the call); the spec's defined failure
// returns (invalid team handles, contexts that cannot be made) are returned here.
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/bootstrap.hpp"
#include "base/config.hpp"
#include "base/deadline.hpp"
#include "base/rendezvous.hpp"
#include "collectives/coll.hpp"
#include "core/api.hpp"
#include "api/api_common.hpp"
#include "core/device/device.hpp"  // shmem_free of device blocks
#include "core/runtime/runtime.hpp"
#include "shmem.h"
#include "shmemx.h"

namespace {

constexpr std::size_t kDefaultAlign = 64;  ///< shmem_malloc alignment: a cache line, as heapRealloc uses

/// Load the parameters ahead of the runtime (the bootstrap made before init reads GSHMEM_TIMEOUT and
/// GSHMEM_BOOTSTRAP_IFNAME); false, after one line, when a value is malformed.
bool paramsReady(const char* who, const char* call) {
  std::string err;
  if (!gshmem::isError(gshmem::paramsLoad(&err))) return true;
  std::fprintf(stderr, "gshmem: %s: %s: %s\n", who, call, err.c_str());
  return false;
}

/// Initialize over a bootstrap the caller made; 0. After shmem_init, a second start returns 0 and changes nothing.
int initWith(const char* call, std::unique_ptr<gshmem::Bootstrap> bs) {
  gshmem::runtimeInit(call, SHMEM_THREAD_SINGLE, gshmem::predefinedObjects(), std::move(bs));
  gshmem::faultHandlerInstall();
  gshmem::coll::infoReport();
  return 0;
}

long numContexts(const shmem_team_config_t* config, long mask) {
  return (config && (mask & SHMEM_TEAM_NUM_CONTEXTS)) ? config->num_contexts : 0;
}

}  // namespace

extern "C" {

// ------------------------------------------------------------------------------------------ setup and query

void shmem_init(void) {
  gshmem::runtimeInit("shmem_init", SHMEM_THREAD_SINGLE, gshmem::predefinedObjects());
  gshmem::faultHandlerInstall();
  gshmem::coll::infoReport();
}

int shmem_init_thread(int requested, int* provided) {
  if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE) {  // nothing is initialized
    std::fprintf(stderr, "gshmem: process %d: shmem_init_thread: requested thread level %d is not one of "
                 "SHMEM_THREAD_SINGLE, SHMEM_THREAD_FUNNELED, SHMEM_THREAD_SERIALIZED, SHMEM_THREAD_MULTIPLE; "
                 "returning nonzero without initializing: pass one of them\n", static_cast<int>(getpid()), requested);
    return -1;
  }
  int level = gshmem::runtimeInit("shmem_init_thread", requested, gshmem::predefinedObjects());
  gshmem::faultHandlerInstall();
  gshmem::coll::infoReport();
  if (provided) *provided = level;
  return 0;
}

void shmem_query_thread(int* provided) {
  if (provided) *provided = gshmem::runtimeThreadLevel();
}

void shmem_finalize(void) { gshmem::runtimeFinalize(); }

int gshmemx_query_initialized(void) { return gshmem::runtimeInitialized() ? 1 : 0; }

int gshmemx_uniqueid_make(void* id, size_t bytes) {
  const char* call = "nvshmemx_get_uniqueid";
  const std::string who = "process " + std::to_string(getpid());
  if (!paramsReady(who.c_str(), call)) return -1;
  std::string err;
  const gshmem::Params& p = gshmem::params();
  if (gshmem::isError(gshmem::uniqueIdMake(p.TIMEOUT, p.BOOTSTRAP_IFNAME, id, bytes, &err))) {
    std::fprintf(stderr, "gshmem: %s: %s: %s\n", who.c_str(), call, err.c_str());
    return -1;
  }
  return 0;
}

int gshmemx_init_uniqueid(const void* id, size_t bytes, int rank, int nranks) {
  const char* call = "nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID)";
  if (gshmem::runtimeInitialized()) return 0;
  const std::string who = "rank " + std::to_string(rank);
  if (!paramsReady(who.c_str(), call)) return -1;
  gshmem::SocketBootstrapArgs args;
  args.rank = rank;
  args.nranks = nranks;
  args.timeout_s = gshmem::params().TIMEOUT;
  args.ifname = gshmem::params().BOOTSTRAP_IFNAME;
  std::unique_ptr<gshmem::Bootstrap> bs;
  std::string err;
  if (gshmem::isError(gshmem::socketBootstrapCreate(id, bytes, args, &bs, &err))) {
    std::fprintf(stderr, "gshmem: %s: %s: %s\n", who.c_str(), call, err.c_str());
    return -1;
  }
  return initWith(call, std::move(bs));
}

int gshmemx_init_mpi_comm(void* comm) {
  const char* call = "gshmemx_init_mpi_comm";
  if (comm == nullptr) return initWith(call, nullptr);
  if (gshmem::runtimeInitialized()) return 0;
  std::unique_ptr<gshmem::Bootstrap> bs;
  std::string err;
  if (gshmem::isError(gshmem::mpiBootstrapCreate(SHMEM_THREAD_SINGLE, comm, &bs, &err))) {
    std::fprintf(stderr, "gshmem: process %d: %s: %s\n", static_cast<int>(getpid()), call, err.c_str());
    return -1;
  }
  return initWith(call, std::move(bs));
}

void shmem_global_exit(int status) { gshmem::globalExit(status); }

int shmem_my_pe(void) { return gshmem::g_rt.my_pe; }
int shmem_n_pes(void) { return gshmem::g_rt.n_pes; }

int shmem_pe_accessible(int pe) { return gshmem::peAccessible(pe) ? 1 : 0; }
int shmem_addr_accessible(const void* addr, int pe) { return gshmem::addrAccessible(addr, pe) ? 1 : 0; }

void* shmem_ptr(const void* dest, int pe) { return gshmem::userPtrOf(dest, pe); }

void* shmem_team_ptr(shmem_team_t team, const void* dest, int pe) {
  team = gshmem::teamCheck("shmem_team_ptr", team);
  if (pe < 0 || pe >= team->size) gshmem::errorBadPe("shmem_team_ptr", pe, team->size);
  return gshmem::userPtrOf(dest, team->worldPe(pe));
}

void shmem_info_get_version(int* major, int* minor) {
  if (major) *major = SHMEM_MAJOR_VERSION;
  if (minor) *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char* name) {
  static_assert(sizeof(SHMEM_VENDOR_STRING) <= SHMEM_MAX_NAME_LEN, "vendor string longer than SHMEM_MAX_NAME_LEN");
  if (name) std::memcpy(name, SHMEM_VENDOR_STRING, sizeof(SHMEM_VENDOR_STRING));
}

void shmem_pcontrol(const int level, ...) { (void)level; }  // a hook for profiling libraries (<pshmem.h>)

// ------------------------------------------------------------------------------------------ symmetric memory

void* shmem_malloc(size_t size) { return gshmem::heapAlloc("shmem_malloc", size, kDefaultAlign, false); }

void* shmem_calloc(size_t count, size_t size) { return gshmem::heapCalloc("shmem_calloc", count, size); }

void* shmem_align(size_t alignment, size_t size) {
  return gshmem::heapAlloc("shmem_align", size, alignment, false);
}

void* shmem_realloc(void* ptr, size_t size) { return gshmem::heapRealloc("shmem_realloc", ptr, size); }

void shmem_free(void* ptr) {
  if (GSHMEM_UNLIKELY(gshmem::device::owns(ptr))) return gshmem::device::free("shmem_free", ptr);  // DEVICE
  gshmem::heapFree("shmem_free", ptr);
}

void* shmem_malloc_with_hints(size_t size, long hints) {
  // Hints are advice: every block already supports remote atomics and signals, and bits this library does not
  // know are ignored (the specification reserves them). Device memory has its own call, gshmemx_malloc_device.
  (void)hints;
  return gshmem::heapAlloc("shmem_malloc_with_hints", size, kDefaultAlign, false);
}

// --------------------------------------------------------------------------------------------------- teams

int shmem_team_my_pe(shmem_team_t team) {
  return team == SHMEM_TEAM_INVALID ? -1 : gshmem::teamCheck("shmem_team_my_pe", team)->my_index;
}

int shmem_team_n_pes(shmem_team_t team) {
  return team == SHMEM_TEAM_INVALID ? -1 : gshmem::teamCheck("shmem_team_n_pes", team)->size;
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t* config) {
  if (team == SHMEM_TEAM_INVALID) return -1;
  team = gshmem::teamCheck("shmem_team_get_config", team);
  if (config && (config_mask & SHMEM_TEAM_NUM_CONTEXTS)) config->num_contexts = static_cast<int>(team->num_contexts);
  return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) {
  if (src_team == SHMEM_TEAM_INVALID || dest_team == SHMEM_TEAM_INVALID) return -1;
  return gshmem::teamTranslate(gshmem::teamCheck("shmem_team_translate_pe", src_team), src_pe,
                               gshmem::teamCheck("shmem_team_translate_pe", dest_team));
}

int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t* config, long config_mask, shmem_team_t* new_team) {
  const char* call = "shmem_team_split_strided";
  if (new_team == nullptr) gshmem::ops::errorNull(call, "new_team");
  *new_team = SHMEM_TEAM_INVALID;
  if (parent_team == SHMEM_TEAM_INVALID) return -1;
  return gshmem::teamSplitStrided(call, parent_team, start, stride, size, numContexts(config, config_mask),
                                  new_team);
}

// The parent's PEs form a grid of rows of `xrange` consecutive PEs (the last row may be shorter).
// x-axis teams are the rows (stride 1), y-axis teams the columns (stride xrange in the parent).
// Every team is made by a split collective over the parent, so all parent PEs walk all rows and columns, and all
// see a failing split at the same step: then each destroys the team it already got (with that team's other
// members, who hold the same one), and both outputs are SHMEM_TEAM_INVALID with a nonzero return on every PE.
int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t* xaxis_config, long xaxis_mask,
                        shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config, long yaxis_mask,
                        shmem_team_t* yaxis_team) {
  const char* call = "shmem_team_split_2d";
  if (xaxis_team == nullptr) gshmem::ops::errorNull(call, "xaxis_team");
  if (yaxis_team == nullptr) gshmem::ops::errorNull(call, "yaxis_team");
  *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
  if (parent_team == SHMEM_TEAM_INVALID) return -1;
  parent_team = gshmem::teamCheck(call, parent_team);
  if (xrange <= 0) return -1;  // the same on every PE: nothing to undo
  const int n = parent_team->size;
  if (xrange > n) xrange = n;
  const int rows = (n + xrange - 1) / xrange;
  const long xctx = numContexts(xaxis_config, xaxis_mask), yctx = numContexts(yaxis_config, yaxis_mask);
  shmem_team_t x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
  int rc = 0;
  for (int r = 0; r < rows && rc == 0; ++r) {
    const int len = (r + 1) * xrange <= n ? xrange : n - r * xrange;
    shmem_team_t t = SHMEM_TEAM_INVALID;
    rc = gshmem::teamSplitStrided(call, parent_team, r * xrange, 1, len, xctx, &t);
    if (t) x = t;
  }
  for (int c = 0; c < xrange && rc == 0; ++c) {
    const int len = (n - c + xrange - 1) / xrange;  // rows that reach column c
    shmem_team_t t = SHMEM_TEAM_INVALID;
    rc = gshmem::teamSplitStrided(call, parent_team, c, xrange, len, yctx, &t);
    if (t) y = t;
  }
  if (rc != 0) {
    if (x) gshmem::teamDestroy(call, x);
    if (y) gshmem::teamDestroy(call, y);
    return -1;
  }
  *xaxis_team = x;
  *yaxis_team = y;
  return 0;
}

void shmem_team_destroy(shmem_team_t team) {
  if (team == SHMEM_TEAM_INVALID) return;
  gshmem::teamDestroy("shmem_team_destroy", team);
}

int gshmemx_team_id(shmem_team_t team) {
  return team == SHMEM_TEAM_INVALID ? -1 : gshmem::teamCheck("gshmemx_team_id", team)->slot;
}

shmem_team_t gshmemx_team_from_id(int id) {
  gshmem::ops::requireInit("gshmemx_team_from_id");
  return gshmem::teamOfId(id);
}

int gshmemx_team_uniqueid_make(uint64_t* uid) {
  gshmem::ops::requireInit("gshmemx_team_uniqueid_make");
  if (uid) *uid = gshmem::teamUniqueIdMake();
  return 0;
}

int gshmemx_team_init_uniqueid(uint64_t uid, int npes, int idx, const shmem_team_config_t* config, long config_mask,
                               shmem_team_t* new_team) {
  const char* call = "gshmemx_team_init_uniqueid";
  gshmem::ops::requireInit(call);
  if (!new_team) gshmem::fatal(call, "new_team is NULL; pass the address of a team handle");
  gshmem_team* t = nullptr;
  const int rc = gshmem::teamInitFromId(call, uid, npes, idx, numContexts(config, config_mask), &t);
  *new_team = rc == 0 ? t : SHMEM_TEAM_INVALID;
  return rc == 0 ? 0 : -1;
}

// ------------------------------------------------------------------------------------------------ contexts

int shmem_ctx_create(long options, shmem_ctx_t* ctx) {
  if (ctx == nullptr) gshmem::ops::errorNull("shmem_ctx_create", "ctx");
  *ctx = SHMEM_CTX_INVALID;
  return gshmem::ctxCreate("shmem_ctx_create", SHMEM_TEAM_WORLD, options, ctx) == 0 ? 0 : -1;
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t* ctx) {
  if (ctx == nullptr) gshmem::ops::errorNull("shmem_team_create_ctx", "ctx");
  *ctx = SHMEM_CTX_INVALID;
  if (team == SHMEM_TEAM_INVALID) return -1;
  shmem_ctx_t made = SHMEM_CTX_INVALID;
  if (gshmem::ctxCreate("shmem_team_create_ctx", team, options, &made) != 0) return -1;
  *ctx = made;
  return 0;
}

void shmem_ctx_destroy(shmem_ctx_t ctx) {
  if (ctx == SHMEM_CTX_INVALID) return;  // no-op per the specification (so is a context destroyed with its team)
  gshmem::ctxDestroy("shmem_ctx_destroy", ctx);
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* team) {
  if (team == nullptr) gshmem::ops::errorNull("shmem_ctx_get_team", "team");
  const gshmem_ctx* c = gshmem::ctxArgOrInvalid("shmem_ctx_get_team", ctx);
  if (c == nullptr) {  // SHMEM_CTX_INVALID, or a context destroyed with its team
    *team = SHMEM_TEAM_INVALID;
    return -1;
  }
  *team = c->team ? c->team : SHMEM_TEAM_WORLD;
  return 0;
}

// ------------------------------------------------------------------------------------------ extensions

double shmemx_wtime(void) { return 1e-9 * static_cast<double>(gshmem::monotonicNs()); }

}  // extern "C"
