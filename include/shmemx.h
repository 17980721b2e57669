/* gshmem extensions to OpenSHMEM (shmemx_*). Kept deliberately small: everything portable is in <shmem.h>. */
#ifndef SHMEMX_H
#define SHMEMX_H

#include "shmem.h"

#define GSHMEMX 1 /* this header is gshmem's */

#ifdef __cplusplus
extern "C" {
#endif

/** Wall-clock time in seconds since an arbitrary fixed point (monotonic, not synchronized across PEs). */
double shmemx_wtime(void);
/* Defined for each shmemx_* routine this header declares, as other OpenSHMEM implementations advertise theirs. */
#define HAVE_SHMEMX_WTIME 1
/** 1 between shmem_init (or shmem_init_thread) and shmem_finalize, else 0. */
int gshmemx_query_initialized(void);
/** A job identity for gshmemx_init_uniqueid (NVSHMEM's nvshmemx_get_uniqueid), made on one process before
 *  initialization and passed to every PE by the program (an MPI broadcast, a file, fork). Writes into @p id (at least
 *  48 of @p bytes; the rest zeroed; NVSHMEM_UNIQUEID_BYTES is enough) a magic, a version, a random job nonce and the
 *  TCP address of a rendezvous that this call starts in the background of the calling process: that process must
 *  keep running until every rank has initialized (an id no rank uses leaves its rendezvous waiting, a thread and a
 *  listening socket, until the process exits). GSHMEM_BOOTSTRAP_IFNAME chooses the address. Returns 0, or -1 after
 *  one line (the buffer is too small, no usable interface). */
int gshmemx_uniqueid_make(void* id, size_t bytes);
/** shmem_init without a launcher (NVSHMEM's NVSHMEMX_INIT_WITH_UNIQUEID): the PEs meet through the id's rendezvous
 *  and bootstrap over TCP; no MPI call is made, and MPI need not be initialized. @p rank becomes this PE's number
 *  and @p nranks the number of PEs; every PE passes the same id and nranks and its own rank. Every wait is bounded by
 *  GSHMEM_TIMEOUT. Returns 0 when initialized (also when already initialized); -1, after one line naming the rank,
 *  the cause and the fix, when the rank is out of range, the id was not made by gshmemx_uniqueid_make, the ranks
 *  disagree (nranks, a rank given twice) or some rank did not arrive in time. Once initialized, a PE that dies or
 *  ends the job (shmem_global_exit, a fatal error) ends every PE within GSHMEM_TIMEOUT, with one line naming it. */
int gshmemx_init_uniqueid(const void* id, size_t bytes, int rank, int nranks);
/** shmem_init over an MPI communicator (NVSHMEM's NVSHMEMX_INIT_WITH_MPI_COMM): @p comm points to an MPI_Comm
 *  (like NVSHMEM's attr.mpi_comm, so this header needs no <mpi.h>); MPI must be initialized. The runtime works over a
 *  dup of it: PE numbers are ranks in it, SHMEM_TEAM_WORLD is its processes, and processes outside it take no part
 *  (they may start their own gshmem job over another communicator). NULL is shmem_init. Collective over @p comm.
 *  Returns 0 when initialized (also when already initialized), -1 after one line when the communicator cannot
 *  serve. */
int gshmemx_init_mpi_comm(void* comm);

/* ---- team ids: the small integers (gshmem_team_t, <gshmem/device/team_ids.h>) by which device code and the NVSHMEM
 * compatibility header name teams. Ids 0-3 are SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED, the node team and the
 * same-rank-on-every-node team; a team made by a split has the id its members agreed on (the same on each). */
/** The id of @p team, a team this PE belongs to; -1 for SHMEM_TEAM_INVALID. */
int gshmemx_team_id(shmem_team_t team);
/** This PE's team of id @p id, or SHMEM_TEAM_INVALID when it is in no team of that id. */
shmem_team_t gshmemx_team_from_id(int id);
/** A team unique id (NVSHMEM's nvshmemx_team_get_uniqueid), made on one PE without communication, for
 *  gshmemx_team_init_uniqueid; the program passes it to the team's members. Returns 0. */
int gshmemx_team_uniqueid_make(uint64_t* uid);
/** Collective over the @p npes PEs that pass @p uid (NVSHMEM's nvshmemx_team_init): they form a team in which this
 *  PE has index @p idx; no parent team is needed. The members, in index order, must be evenly spaced world PEs
 *  (teams are strided sets of PEs). Returns 0 with *new_team set; or -1 on every member, *new_team
 *  SHMEM_TEAM_INVALID, when the members are not evenly spaced or no team slot below 64 is free on all of them. A bad
 *  id, size or index, an index two PEs claim, or a member that does not arrive within GSHMEM_TIMEOUT end the job
 *  with one line. At most 8 such calls with ids made by one PE may be in flight at once. */
int gshmemx_team_init_uniqueid(uint64_t uid, int npes, int idx, const shmem_team_config_t* config, long config_mask,
                               shmem_team_t* new_team);

/* ---- GPU memory. Present in every build; without CUDA or a GPU the device heap is absent:
 * gshmemx_device_available() returns 0 and allocations return NULL. Device memory is asked for by name
 * (gshmemx_malloc_device, gshmemx_calloc_device), never through a shmem_malloc_with_hints bit: the specification
 * reserves the hint bits, and shmem_malloc_with_hints ignores those it does not know. */
/** Defined when gshmemx_malloc_device and the rest of this section are declared. */
#define GSHMEMX_HAVE_DEVICE_MALLOC 1
struct CUstream_st; /* cudaStream_t is struct CUstream_st* */

/** 1 when this PE has a device symmetric heap (a GPU was found and GSHMEM_SYMMETRIC_SIZE_DEVICE > 0). */
int gshmemx_device_available(void);
/** The CUDA device ordinal this PE uses, or -1. */
int gshmemx_device_id(void);
/** Collective, like shmem_malloc: `size` bytes of the device symmetric heap (NULL when absent or exhausted).
 * shmem_free releases it. */
void* gshmemx_malloc_device(size_t size);
void* gshmemx_calloc_device(size_t count, size_t size);
/** Copy the device handle (gshmem::DeviceHandle, gshmem/device/handle.cuh) into `out`; returns 0 on success,
 * -1 when there is no device heap or `bytes` is not sizeof(DeviceHandle). */
int gshmemx_device_handle_get(void* out, size_t bytes);
/** Called once by every CUDA translation unit that includes <gshmem/device.cuh>: `sync` copies the handle into
 * that unit's __constant__ state on `device`. Called at once when the device heap already exists. */
void gshmemx_device_register_state_sync(void (*sync)(const void* handle, int device));

/* Stream-ordered operations on device symmetric memory: enqueued on `stream`, they run in its order. */
void gshmemx_putmem_on_stream(void* dest, const void* source, size_t nbytes, int pe, struct CUstream_st* stream);
void gshmemx_getmem_on_stream(void* dest, const void* source, size_t nbytes, int pe, struct CUstream_st* stream);
void gshmemx_putmem_signal_on_stream(void* dest, const void* source, size_t nbytes, uint64_t* sig_addr,
                                     uint64_t signal, int sig_op, int pe, struct CUstream_st* stream);
/** Later work on `stream` waits until *sig_addr compares true. GE and EQ wait in the GPU's front end (a stream
 * memory operation: no SM held, other processes sharing the GPU run meanwhile); GE then compares as a wrapping
 * difference, ((int64_t)(*sig_addr - cmp_value) >= 0), like NVSHMEM's. The other comparisons poll in a kernel. */
void gshmemx_signal_wait_until_on_stream(uint64_t* sig_addr, int cmp, uint64_t cmp_value, struct CUstream_st* stream);
/** Every stream-ordered operation enqueued before it on `stream` is complete when later work on `stream` runs. */
void gshmemx_quiet_on_stream(struct CUstream_st* stream);
/** quiet_on_stream, then a barrier over all PEs, in `stream`'s order (shares its epoch with the device barrier). */
void gshmemx_barrier_all_on_stream(struct CUstream_st* stream);
void gshmemx_sync_all_on_stream(struct CUstream_st* stream);

#ifdef __cplusplus
}
#endif

#endif /* SHMEMX_H */
