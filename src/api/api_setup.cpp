// Public C API: setup and query, symmetric memory, teams and contexts (plus shmemx_wtime).
// Argument errors are fatal in the core (one line naming the PE and the call); the spec's defined failure
// returns (invalid team handles, contexts that cannot be made) are returned here.
#include <climits>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <vector>

#include "collectives/coll.hpp"
#include "core/api.hpp"
#include "api/api_common.hpp"
#include "core/device/device.hpp"  // shmem_free of device blocks
#include "core/runtime/runtime.hpp"  // the launcher's allgather (unique-id init)
#include "shmem.h"
#include "shmemx.h"

namespace {

constexpr std::size_t kDefaultAlign = 64;  ///< shmem_malloc alignment: a cache line, as heapRealloc uses

/// The unique id gshmemx_uniqueid_make writes: a tag, a format version and a random number naming the job.
struct UniqueId {
  uint32_t magic, version;
  uint64_t nonce;
};
constexpr uint32_t kUniqueIdMagic = 0x55534847;  // "GSHU"

/// Collective, after shmem_init: whether every PE passed the same id and its launcher rank and size; if not, PE 0
/// names the first PE that differs and the fix.
bool uniqueIdAgreed(const char* call, const UniqueId& u, int rank, int nranks) {
  struct Mine {
    int rank, nranks;
    uint64_t nonce;
  } mine{rank, nranks, u.nonce};
  const int n = shmem_n_pes(), me = shmem_my_pe();
  std::vector<Mine> all(n);
  if (gshmem::isError(gshmem::g_rt.bootstrap->allGather(&mine, all.data(), sizeof mine))) {
    std::fprintf(stderr, "gshmem: PE %d: %s: the launcher's allgather failed\n", me, call);
    return false;
  }
  for (int pe = 0; pe < n; ++pe) {
    if (all[pe].rank == pe && all[pe].nranks == n && all[pe].nonce == all[0].nonce) continue;
    if (me == 0)
      std::fprintf(stderr, "gshmem: PE 0: %s: PE %d passed rank %d of %d%s, but gshmem starts through the launcher, "
                   "where it is rank %d of %d; pass the launcher's rank and size (MPI_Comm_rank/size of "
                   "MPI_COMM_WORLD) and one id to every PE\n", call, pe, all[pe].rank, all[pe].nranks,
                   all[pe].nonce == all[0].nonce ? "" : " with another unique id than PE 0's", pe, n);
    return false;
  }
  return true;
}

long numContexts(const shmem_team_config_t* config, long mask) {
  return (config && (mask & SHMEM_TEAM_NUM_CONTEXTS)) ? config->num_contexts : 0;
}

}  // namespace

extern "C" {

// ------------------------------------------------------------------------------------------ setup and query

void shmem_init(void) {
  gshmem::runtimeInit("shmem_init", SHMEM_THREAD_SINGLE);
  gshmem::coll::infoReport();
}

int shmem_init_thread(int requested, int* provided) {
  int level = gshmem::runtimeInit("shmem_init_thread", requested);
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
  if (id == nullptr || bytes < sizeof(UniqueId)) return -1;
  std::memset(id, 0, bytes);
  std::random_device rd;
  const UniqueId u{kUniqueIdMagic, 1, (uint64_t(rd()) << 32) ^ rd() ^ uint64_t(std::time(nullptr))};
  std::memcpy(id, &u, sizeof u);
  return 0;
}

int gshmemx_init_uniqueid(const void* id, size_t bytes, int rank, int nranks) {
  const char* call = "nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID)";
  UniqueId u{};
  if (id != nullptr && bytes >= sizeof u) std::memcpy(&u, id, sizeof u);
  if (u.magic != kUniqueIdMagic) {
    std::fprintf(stderr, "gshmem: rank %d: %s: the unique id was not made by nvshmemx_get_uniqueid of gshmem; make "
                 "it on one process with nvshmemx_get_uniqueid and pass it to every process\n", rank, call);
    return -1;
  }
  shmem_init();
  return uniqueIdAgreed(call, u, rank, nranks) ? 0 : (shmem_finalize(), -1);
}

void shmem_global_exit(int status) { gshmem::globalExit(status); }

int shmem_my_pe(void) { return gshmem::g_rt.my_pe; }
int shmem_n_pes(void) { return gshmem::g_rt.n_pes; }

int shmem_pe_accessible(int pe) { return gshmem::peAccessible(pe) ? 1 : 0; }
int shmem_addr_accessible(const void* addr, int pe) { return gshmem::addrAccessible(addr, pe) ? 1 : 0; }

void* shmem_ptr(const void* dest, int pe) { return gshmem::ptrOf(dest, pe); }

void* shmem_team_ptr(shmem_team_t team, const void* dest, int pe) {
  team = gshmem::teamCheck("shmem_team_ptr", team);
  if (pe < 0 || pe >= team->size) gshmem::errorBadPe("shmem_team_ptr", pe, team->size);
  return gshmem::ptrOf(dest, team->worldPe(pe));
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

void* shmem_calloc(size_t count, size_t size) {
  size_t bytes = 0;
  if (__builtin_mul_overflow(count, size, &bytes))
    gshmem::fatal("shmem_calloc", "count %zu times size %zu overflows size_t", count, size);
  return gshmem::heapAlloc("shmem_calloc", bytes, kDefaultAlign, true);
}

void* shmem_align(size_t alignment, size_t size) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    gshmem::ops::requireInit("shmem_align");
    fprintf(stderr, "gshmem: PE %d: shmem_align: warning: alignment %zu is not a power of two; returning NULL "
            "(pass 1, 2, 4, 8, ...)\n", shmem_my_pe(), alignment);
    return nullptr;
  }
  return gshmem::heapAlloc("shmem_align", size, alignment < kDefaultAlign ? kDefaultAlign : alignment, false);
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
  if (ctx == SHMEM_CTX_INVALID) return;  // no-op per the specification
  gshmem::ctxDestroy("shmem_ctx_destroy", ctx);
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* team) {
  if (team == nullptr) gshmem::ops::errorNull("shmem_ctx_get_team", "team");
  if (ctx == SHMEM_CTX_INVALID) {
    *team = SHMEM_TEAM_INVALID;
    return -1;
  }
  const gshmem_ctx* c = gshmem::ctxArg("shmem_ctx_get_team", ctx);
  *team = c->team ? c->team : SHMEM_TEAM_WORLD;
  return 0;
}

// ------------------------------------------------------------------------------------------ extensions

double shmemx_wtime(void) {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // extern "C"
