/* Build NVSHMEM programs unchanged against gshmem. Include instead of <nvshmem.h> and <nvshmemx.h> (or put
 * include/gshmem/nvshmem on the include path: its nvshmem.h and nvshmemx.h include this header) from CUDA sources
 * (nvcc). Every name of NVSHMEM 3.5's public headers (tests/compat/nvshmem-names.txt) is provided:
 *   - constants and types: below, with NVSHMEM's spellings and gshmem's values;
 *   - host routines without a gshmem function of the same shape (setup, heap, teams, registration, launch):
 *     gshmem/compat/nvshmem_host.h;
 *   - everything else: gshmem/compat/nvshmem_aliases.h, generated, one alias of the gshmem function of the same
 *     semantics per name (gshmem/device.cuh declares them).
 * Limits (docs/NVSHMEM.md): symmetric user buffers need a growing heap and every peer mapped (one node); device
 * collectives need every member of the team P2P-mapped. Start under mpirun (nvshmem_init, any communicator), or
 * without a launcher through a unique id (nvshmemx_init_attr in gshmem/compat/nvshmem_host.h). */
#ifndef GSHMEM_NVSHMEM_COMPAT_H
#define GSHMEM_NVSHMEM_COMPAT_H

#include <shmem.h>
#include <shmemx.h>

#ifdef __CUDACC__
#include <gshmem/device.cuh>
#endif
#if defined(__has_include)
#if __has_include(<gshmem/version.h>)
#include <gshmem/version.h>
#endif
#endif
#ifdef GSHMEM_VERSION_MAJOR
#define GSHMEMI_NV_VERSION_MAJOR GSHMEM_VERSION_MAJOR
#define GSHMEMI_NV_VERSION_MINOR GSHMEM_VERSION_MINOR
#define GSHMEMI_NV_VERSION_PATCH GSHMEM_VERSION_PATCH
#else
#define GSHMEMI_NV_VERSION_MAJOR 0
#define GSHMEMI_NV_VERSION_MINOR 0
#define GSHMEMI_NV_VERSION_PATCH 0
#endif

/* ---- constants */
#define NVSHMEM_CMP_EQ GSHMEM_CMP_EQ
#define NVSHMEM_CMP_NE GSHMEM_CMP_NE
#define NVSHMEM_CMP_GT GSHMEM_CMP_GT
#define NVSHMEM_CMP_GE GSHMEM_CMP_GE
#define NVSHMEM_CMP_LT GSHMEM_CMP_LT
#define NVSHMEM_CMP_LE GSHMEM_CMP_LE
#define NVSHMEM_SIGNAL_SET GSHMEM_SIGNAL_SET
#define NVSHMEM_SIGNAL_ADD GSHMEM_SIGNAL_ADD
#define NVSHMEM_THREAD_SINGLE SHMEM_THREAD_SINGLE
#define NVSHMEM_THREAD_FUNNELED SHMEM_THREAD_FUNNELED
#define NVSHMEM_THREAD_SERIALIZED SHMEM_THREAD_SERIALIZED
#define NVSHMEM_THREAD_MULTIPLE SHMEM_THREAD_MULTIPLE
#define NVSHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define NVSHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define NVSHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define NVSHMEM_VENDOR_STRING SHMEM_VENDOR_STRING
/* Return codes of the nvshmemx_ routines. */
enum nvshmemx_status {
  NVSHMEMX_SUCCESS = 0,
  NVSHMEMX_ERROR_INVALID_VALUE,
  NVSHMEMX_ERROR_OUT_OF_MEMORY,
  NVSHMEMX_ERROR_NOT_SUPPORTED,
  NVSHMEMX_ERROR_SYMMETRY,
  NVSHMEMX_ERROR_GPU_NOT_SELECTED,
  NVSHMEMX_ERROR_COLLECTIVE_LAUNCH_FAILED,
  NVSHMEMX_ERROR_INTERNAL,
  NVSHMEMX_ERROR_SENTINEL
};
/* nvshmemx_init_status: gshmem is either not initialized or fully initialized. */
enum {
  NVSHMEM_STATUS_NOT_INITIALIZED = 0,
  NVSHMEM_STATUS_IS_BOOTSTRAPPED,
  NVSHMEM_STATUS_IS_INITIALIZED,
  NVSHMEM_STATUS_LIMITED_MPG,
  NVSHMEM_STATUS_FULL_MPG,
  NVSHMEM_STATUS_INVALID
};

/* ---- teams: small integers, the same on host and device and on every member (gshmem_team_t: team_ids.h) */
#include "gshmem/device/team_ids.h"
typedef gshmem_team_t nvshmem_team_t;
#define NVSHMEM_TEAM_WORLD GSHMEM_TEAM_WORLD
#define NVSHMEM_TEAM_SHARED GSHMEM_TEAM_SHARED
#define NVSHMEMX_TEAM_NODE GSHMEMX_TEAM_NODE
#define NVSHMEMX_TEAM_SAME_MYPE_NODE GSHMEMX_TEAM_SAME_MYPE_NODE
#define NVSHMEM_TEAM_INVALID GSHMEM_TEAM_INVALID
#define NVSHMEM_TEAM_NUM_CONTEXTS 1L
typedef uint64_t nvshmemx_team_uniqueid_t;
typedef struct {
  int num_contexts;
  nvshmemx_team_uniqueid_t uniqueid; /* nvshmemx_team_init: the id from nvshmemx_team_get_uniqueid */
} nvshmem_team_config_t;

/* ---- init attributes */
#define NVSHMEMX_INIT_WITH_MPI_COMM 1
#define NVSHMEMX_INIT_THREAD_PES 2
#define NVSHMEMX_INIT_WITH_SHMEM 4
#define NVSHMEMX_INIT_WITH_UNIQUEID 8
#define NVSHMEM_UNIQUEID_BYTES 124
typedef struct {
  int version;
  char internal[NVSHMEM_UNIQUEID_BYTES];
} nvshmemx_uniqueid_t;
#define NVSHMEMX_UNIQUEID_INITIALIZER {0, {0}}
typedef struct {
  int version;
  void* mpi_comm; /* an MPI_Comm*, for NVSHMEMX_INIT_WITH_MPI_COMM */
  struct {
    int rank;
    int nranks;
    nvshmemx_uniqueid_t uid;
  } args; /* for NVSHMEMX_INIT_WITH_UNIQUEID: this PE's number and the number of PEs (see nvshmemx_init_attr) */
} nvshmemx_init_attr_t;
#define NVSHMEMX_INIT_ATTR_INITIALIZER {0, 0, {0, 0, NVSHMEMX_UNIQUEID_INITIALIZER}}

#include "gshmem/compat/nvshmem_host.h"

/* ---- the stream-ordered byte forms whose gshmem function has another name: NVSHMEM's _nbi forms are complete,
 * in stream order, when later work on the stream runs, as the blocking ones are */
static inline void nvshmemx_putmem_nbi_on_stream(void* d, const void* s, size_t n, int pe, struct CUstream_st* st) {
  gshmemx_putmem_on_stream(d, s, n, pe, st);
}
static inline void nvshmemx_getmem_nbi_on_stream(void* d, const void* s, size_t n, int pe, struct CUstream_st* st) {
  gshmemx_getmem_on_stream(d, s, n, pe, st);
}

#include "gshmem/compat/nvshmem_aliases.h"

#endif /* GSHMEM_NVSHMEM_COMPAT_H */
