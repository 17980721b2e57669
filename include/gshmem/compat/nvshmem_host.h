/* The NVSHMEM host routines that have no gshmem function of the same name and signature: setup and query, the
 * symmetric heap, teams, buffer registration, driver-API modules and the collective launch. Included by
 * gshmem/nvshmem_compat.h, which defines the constants and types used here. A call gshmem cannot serve prints one
 * line ("gshmem: PE n: <name>: ...", the reason and what to use instead) and returns the error NVSHMEM documents for
 * the routine (NVSHMEMX_ERROR_NOT_SUPPORTED, -1 or NULL); docs/NVSHMEM.md says when. */
#ifndef GSHMEM_COMPAT_NVSHMEM_HOST_H
#define GSHMEM_COMPAT_NVSHMEM_HOST_H

#include <stdio.h>
#include <string.h>

static inline int gshmemi_nv_unsupported(const char* call, const char* why, const char* instead) {
  fprintf(stderr, "gshmem: PE %d: %s: not supported yet (%s); %s\n", shmem_my_pe(), call, why,
          instead);
  return NVSHMEMX_ERROR_NOT_SUPPORTED;
}

/* ---- setup and query */
static inline void nvshmem_init(void) { shmem_init(); }
static inline int nvshmem_init_thread(int requested, int* provided) { return shmem_init_thread(requested, provided); }
static inline void nvshmem_query_thread(int* provided) { shmem_query_thread(provided); }
/* The three ways to start, as NVSHMEM's:
 *  - flags 0 (or attr NULL): shmem_init, through MPI_COMM_WORLD (launch with mpirun);
 *  - NVSHMEMX_INIT_WITH_MPI_COMM with attr->mpi_comm (an MPI_Comm*, set by nvshmemx_set_attr_mpi_comm_args): any
 *    intracommunicator; PE numbers are ranks in it and processes outside it take no part (gshmemx_init_mpi_comm);
 *  - NVSHMEMX_INIT_WITH_UNIQUEID with the id one process made by nvshmemx_get_uniqueid and this PE's rank and the
 *    number of PEs (nvshmemx_set_attr_uniqueid_args): the PEs meet through the id over TCP, without MPI
 *    (gshmemx_init_uniqueid); the process that made the id must run until every PE has initialized.
 * Returns NVSHMEMX_SUCCESS, or NVSHMEMX_ERROR_INTERNAL after one line naming the cause and the fix. */
static inline int nvshmemx_init_attr(unsigned int flags, nvshmemx_init_attr_t* attr) {
  if (flags & NVSHMEMX_INIT_WITH_UNIQUEID) {
    if (attr == NULL) return gshmemi_nv_unsupported("nvshmemx_init_attr", "a unique id without attributes",
                                                    "pass the attributes set by nvshmemx_set_attr_uniqueid_args");
    return gshmemx_init_uniqueid(&attr->args.uid, sizeof(attr->args.uid), attr->args.rank, attr->args.nranks) == 0
               ? NVSHMEMX_SUCCESS
               : NVSHMEMX_ERROR_INTERNAL;
  }
  if ((flags & NVSHMEMX_INIT_WITH_MPI_COMM) && attr != NULL && attr->mpi_comm != NULL)
    return gshmemx_init_mpi_comm(attr->mpi_comm) == 0 ? NVSHMEMX_SUCCESS : NVSHMEMX_ERROR_INTERNAL;
  shmem_init();
  return NVSHMEMX_SUCCESS;
}
static inline int nvshmemx_init_status(void) {
  return gshmemx_query_initialized() ? NVSHMEM_STATUS_IS_INITIALIZED : NVSHMEM_STATUS_NOT_INITIALIZED;
}
static inline void nvshmem_finalize(void) { shmem_finalize(); }
static inline void nvshmem_global_exit(int status) { shmem_global_exit(status); }
static inline void nvshmem_info_get_version(int* major, int* minor) { shmem_info_get_version(major, minor); }
static inline void nvshmem_info_get_name(char* name) { shmem_info_get_name(name); }
/* gshmem's own version (not an NVSHMEM version number). */
static inline void nvshmemx_vendor_get_version_info(int* major, int* minor, int* patch) {
  *major = GSHMEMI_NV_VERSION_MAJOR;
  *minor = GSHMEMI_NV_VERSION_MINOR;
  *patch = GSHMEMI_NV_VERSION_PATCH;
}
static inline int nvshmemx_set_attr_mpi_comm_args(void* mpi_comm, nvshmemx_init_attr_t* attr) {
  attr->mpi_comm = mpi_comm;
  return NVSHMEMX_SUCCESS;
}
static inline int nvshmemx_set_attr_uniqueid_args(const int myrank, const int nranks,
                                                  const nvshmemx_uniqueid_t* uid, nvshmemx_init_attr_t* attr) {
  attr->args.rank = myrank;
  attr->args.nranks = nranks;
  attr->args.uid = *uid;
  return NVSHMEMX_SUCCESS;
}
/* Makes the id and starts its rendezvous in this process (gshmemx_uniqueid_make); see nvshmemx_init_attr. */
static inline int nvshmemx_get_uniqueid(nvshmemx_uniqueid_t* uid) {
  return gshmemx_uniqueid_make(uid, sizeof(*uid)) == 0 ? NVSHMEMX_SUCCESS : NVSHMEMX_ERROR_INTERNAL;
}

/* ---- symmetric heap: NVSHMEM's heap is GPU memory, gshmem's device heap (GSHMEM_SYMMETRIC_SIZE_DEVICE) */
static inline void* nvshmem_malloc(size_t size) { return gshmemx_malloc_device(size); }
static inline void* nvshmem_calloc(size_t count, size_t size) { return gshmemx_calloc_device(count, size); }
/* Device heap blocks are 256-byte aligned; a larger alignment is refused (NULL) rather than ignored. */
static inline void* nvshmem_align(size_t alignment, size_t size) {
  if (alignment > 256 || (alignment & (alignment - 1)) != 0) {
    gshmemi_nv_unsupported("nvshmem_align", "alignments above 256 bytes or not a power of two",
                           "use nvshmem_malloc (256-byte aligned)");
    return NULL;
  }
  return gshmemx_malloc_device(size);
}
static inline void nvshmem_free(void* ptr) { shmem_free(ptr); }
/* gshmem needs no registration for local buffers: P2P stores read them directly and the proxy copies with
 * cudaMemcpy, which takes any device or host memory. Registering is therefore accepted and does nothing. */
static inline int nvshmemx_buffer_register(void* addr, size_t length) {
  (void)addr, (void)length;
  return NVSHMEMX_SUCCESS;
}
static inline int nvshmemx_buffer_unregister(void* addr) {
  (void)addr;
  return NVSHMEMX_SUCCESS;
}
static inline void nvshmemx_buffer_unregister_all(void) {}
/* Collective over every PE: each passes a buffer of the same length that it allocated with the CUDA VMM API
 * (cuMemCreate with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR among its handle types, cuMemMap, access for its GPU),
 * `addr` the start of that mapping. Each PE's buffer is mapped at the same offset of its device heap's registration
 * area, and every peer maps it there too; the pointer returned (not `addr`: the same memory at another address) is
 * a symmetric address for the device API (RMA, atomics, signals, nvshmem_ptr) and the host API. Needs a growing
 * heap (GSHMEM_DEVICE_HEAP_MAX above GSHMEM_SYMMETRIC_SIZE_DEVICE) and every peer's heap mapped here (PEs of one
 * node with GPU peer access); otherwise, and for a buffer not made that way, every PE prints one line naming the
 * reason and gets NULL. `flags`: NVSHMEM defines none. */
#ifdef __cplusplus
extern "C" {
#endif
void* gshmemx_buffer_register_symmetric(void* addr, size_t length, int flags);
int gshmemx_buffer_unregister_symmetric(void* ptr, size_t length);
#ifdef __cplusplus
}
#endif
static inline void* nvshmemx_buffer_register_symmetric(void* addr, size_t length, int flags) {
  return gshmemx_buffer_register_symmetric(addr, length, flags);
}
/* Collective: `ptr` and `length` as register_symmetric returned and took, on every PE; device and stream work on the
 * buffer must be complete everywhere. The buffer stays the caller's (unmapped from the heap, still allocated).
 * Returns 0, or nonzero after one line when `ptr` is not a registered buffer on some PE. */
static inline int nvshmemx_buffer_unregister_symmetric(void* ptr, size_t length) {
  return gshmemx_buffer_unregister_symmetric(ptr, length);
}

/* ---- error reporting as NVSHMEM's internal headers do it: "file:line: message" on stderr; printf-style
 * arguments. (Benchmark harnesses written for NVSHMEM use it in their check macros.) */
#define NVSHMEMI_ERROR_PRINT(...)                              \
  do {                                                         \
    fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);            \
    fprintf(stderr, __VA_ARGS__);                              \
  } while (0)

/* ---- modules loaded through the CUDA driver API (cuModuleLoad*). gshmem's device state is a __constant__
 * DeviceHandle in every CUDA translation unit that includes the device API (gshmem/device/impl/free__funcs.cuh);
 * the runtime fills the copies of the program's own units at nvshmem_init, but not the copy in a module the program
 * loads itself. nvshmemx_cumodule_init(module), called after nvshmem_init on the GPU of this PE with the module's
 * context current, writes the handle into that module's copy (cuModuleGetGlobal + cuMemcpyHtoD):
 *  - a module compiled whole-program (nvcc -cubin / -fatbin / -ptx, no -rdc) names it gshmemi_device_state;
 *  - a module compiled with -rdc=true gives it one name per translation unit (__nv_static_<unit>_...): every such
 *    copy whose unit also holds a kernel of the device API is found through the module's kernels' names
 *    (cuModuleEnumerateFunctions) and written;
 *  - a module without any copy (it does not use the device API) is left alone.
 * Returns 0 (NVSHMEMX_SUCCESS) in these cases, NVSHMEMX_ERROR_GPU_NOT_SELECTED before nvshmem_init or without a
 * device heap, NVSHMEMX_ERROR_INTERNAL after one line when a driver call fails. The handle does not change until
 * nvshmem_finalize, so one call per module is enough; nvshmemx_cumodule_finalize has nothing to release. */
#if defined(CUDA_VERSION) && defined(CUDART_VERSION)
#include <stdlib.h>
typedef CUresult (*gshmemi_nv_get_global_t)(CUdeviceptr*, size_t*, CUmodule, const char*);
typedef CUresult (*gshmemi_nv_htod_t)(CUdeviceptr, const void*, size_t);
static inline void* gshmemi_nv_driver_entry(const char* name) {
  void* f = NULL;
  enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  if (cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &q) != cudaSuccess) f = NULL;
#else
  if (cudaGetDriverEntryPoint(name, &f, cudaEnableDefault, &q) != cudaSuccess) f = NULL;
#endif
  return q == cudaDriverEntryPointSuccess ? f : NULL;
}
/* Write the handle into the global `symbol` of `module`; 0 when written or absent, else an NVSHMEMX error. */
static inline int gshmemi_nv_module_write(CUmodule module, const char* symbol) {
  gshmemi_nv_get_global_t get_global = (gshmemi_nv_get_global_t)gshmemi_nv_driver_entry("cuModuleGetGlobal");
  gshmemi_nv_htod_t htod = (gshmemi_nv_htod_t)gshmemi_nv_driver_entry("cuMemcpyHtoD");
  CUdeviceptr where = 0;
  size_t bytes = 0;
  void* handle = NULL;
  int rc = NVSHMEMX_SUCCESS;
  if (get_global == NULL || htod == NULL) {
    fprintf(stderr, "gshmem: PE %d: nvshmemx_cumodule_init: the CUDA driver lacks cuModuleGetGlobal or "
            "cuMemcpyHtoD\n", shmem_my_pe());
    return NVSHMEMX_ERROR_INTERNAL;
  }
  if (get_global(&where, &bytes, module, symbol) != CUDA_SUCCESS) return NVSHMEMX_SUCCESS; /* absent */
  handle = malloc(bytes);
  if (handle == NULL || gshmemx_device_handle_get(handle, bytes) != 0) {
    fprintf(stderr, "gshmem: PE %d: nvshmemx_cumodule_init: %s is not this gshmem's device handle (%zu bytes) or "
            "there is no device heap; rebuild the module against these headers\n", shmem_my_pe(), symbol, bytes);
    rc = NVSHMEMX_ERROR_INTERNAL;
  } else if (htod(where, handle, bytes) != CUDA_SUCCESS) {
    fprintf(stderr, "gshmem: PE %d: nvshmemx_cumodule_init: cuMemcpyHtoD to %s failed (is the module's context "
            "current?)\n", shmem_my_pe(), symbol);
    rc = NVSHMEMX_ERROR_INTERNAL;
  }
  free(handle);
  return rc;
}
/* The copies of a module built with -rdc=true: for each kernel named __nv_static_<unit>_..gshmemi_wait_all_kernel..
 * (every unit that includes the device API has them), the unit's copy __nv_static_<unit>_gshmemi_device_state. */
static inline int gshmemi_nv_module_write_rdc(CUmodule module) {
#if CUDA_VERSION >= 12040
  typedef CUresult (*count_t)(unsigned int*, CUmodule);
  typedef CUresult (*enum_t)(CUfunction*, unsigned int, CUmodule);
  typedef CUresult (*name_t)(const char**, CUfunction);
  count_t count = (count_t)gshmemi_nv_driver_entry("cuModuleGetFunctionCount");
  enum_t enumerate = (enum_t)gshmemi_nv_driver_entry("cuModuleEnumerateFunctions");
  name_t fname = (name_t)gshmemi_nv_driver_entry("cuFuncGetName");
  unsigned int n = 0, i;
  CUfunction* fs = NULL;
  char sym[512];
  int rc = NVSHMEMX_SUCCESS;
  if (count == NULL || enumerate == NULL || fname == NULL || count(&n, module) != CUDA_SUCCESS || n == 0) return 0;
  fs = (CUfunction*)malloc(sizeof(CUfunction) * n);
  if (fs == NULL || enumerate(fs, n, module) != CUDA_SUCCESS) n = 0;
  for (i = 0; i < n && rc == NVSHMEMX_SUCCESS; ++i) {
    const char* name = NULL;
    const char* cut = NULL;
    if (fname(&name, fs[i]) != CUDA_SUCCESS || name == NULL || strncmp(name, "__nv_static_", 12) != 0 ||
        strstr(name, "gshmemi_wait_all_kernel") == NULL || (cut = strstr(name, "_ZN")) == NULL ||
        (size_t)(cut - name) + sizeof("gshmemi_device_state") > sizeof sym)
      continue;
    memcpy(sym, name, (size_t)(cut - name));
    strcpy(sym + (cut - name), "gshmemi_device_state");
    rc = gshmemi_nv_module_write(module, sym);
  }
  free(fs);
  return rc;
#else
  (void)module;
  return NVSHMEMX_SUCCESS;
#endif
}
static inline int nvshmemx_cumodule_init(CUmodule module) {
  if (!gshmemx_query_initialized() || !gshmemx_device_available()) {
    fprintf(stderr, "gshmem: PE %d: nvshmemx_cumodule_init: no device heap (call nvshmem_init first, on a PE with a "
            "GPU)\n", gshmemx_query_initialized() ? shmem_my_pe() : -1);
    return NVSHMEMX_ERROR_GPU_NOT_SELECTED;
  }
  const int rc = gshmemi_nv_module_write(module, "gshmemi_device_state");
  return rc != NVSHMEMX_SUCCESS ? rc : gshmemi_nv_module_write_rdc(module);
}
static inline int nvshmemx_cumodule_finalize(CUmodule module) {
  (void)module;
  return NVSHMEMX_SUCCESS;
}
#endif /* CUDA_VERSION && CUDART_VERSION */

/* ---- teams: an nvshmem_team_t is a gshmem team id (team_ids.h), mapped to the host team of the same id by
 * gshmemx_team_from_id; splits are the OpenSHMEM splits of that host team, and the new team's id is what the device
 * sees too. team_my_pe, team_n_pes and team_translate_pe are host and device routines (device: under nvcc). */
#ifdef __CUDACC__
#define GSHMEMI_NV_HD __host__ __device__
#else
#define GSHMEMI_NV_HD
#endif
static inline GSHMEMI_NV_HD int nvshmem_team_my_pe(nvshmem_team_t t) {
#ifdef __CUDACC__
  return gshmem_team_my_pe(t);
#else
  return shmem_team_my_pe(gshmemx_team_from_id(t));
#endif
}
static inline GSHMEMI_NV_HD int nvshmem_team_n_pes(nvshmem_team_t t) {
#ifdef __CUDACC__
  return gshmem_team_n_pes(t);
#else
  return shmem_team_n_pes(gshmemx_team_from_id(t));
#endif
}
static inline GSHMEMI_NV_HD int nvshmem_team_translate_pe(nvshmem_team_t src, int src_pe, nvshmem_team_t dest) {
#ifdef __CUDACC__
  return gshmem_team_translate_pe(src, src_pe, dest);
#else
  return shmem_team_translate_pe(gshmemx_team_from_id(src), src_pe, gshmemx_team_from_id(dest));
#endif
}
static inline int nvshmem_team_get_config(nvshmem_team_t t, long mask, nvshmem_team_config_t* config) {
  shmem_team_config_t c;
  const shmem_team_t team = gshmemx_team_from_id(t);
  if (team == SHMEM_TEAM_INVALID || shmem_team_get_config(team, mask, &c) != 0) return -1;
  if (config != NULL && (mask & NVSHMEM_TEAM_NUM_CONTEXTS)) config->num_contexts = c.num_contexts;
  return 0;
}
/* The host config of an NVSHMEM one (NULL stays NULL). */
static inline const shmem_team_config_t* gshmemi_nv_config(const nvshmem_team_config_t* in, shmem_team_config_t* c) {
  if (in == NULL) return NULL;
  c->num_contexts = in->num_contexts;
  return c;
}
/* Collective over the parent's members, as shmem_team_split_strided. *new_team: the new team's id on its members,
 * NVSHMEM_TEAM_INVALID elsewhere; -1 (and NVSHMEM_TEAM_INVALID) when the parent is not a team of this PE, the
 * triplet does not describe PEs of the parent, or no team id is free (GSHMEM_MAX_TEAMS). An id of 64 or more
 * (GSHMEM_MAX_TEAMS > 64, more than 60 teams alive) names a host-only team: device code cannot reach it. */
static inline int nvshmem_team_split_strided(nvshmem_team_t parent, int start, int stride, int size,
                                             const nvshmem_team_config_t* config, long mask,
                                             nvshmem_team_t* new_team) {
  shmem_team_config_t c;
  shmem_team_t t = SHMEM_TEAM_INVALID;
  const shmem_team_t p = gshmemx_team_from_id(parent);
  int rc;
  *new_team = NVSHMEM_TEAM_INVALID;
  if (p == SHMEM_TEAM_INVALID) return -1;
  rc = shmem_team_split_strided(p, start, stride, size, gshmemi_nv_config(config, &c), mask, &t);
  if (t != SHMEM_TEAM_INVALID) *new_team = gshmemx_team_id(t);
  return rc;
}
/* As shmem_team_split_2d: rows of xrange consecutive parent PEs (x) and the columns (y). */
static inline int nvshmem_team_split_2d(nvshmem_team_t parent, int xrange, const nvshmem_team_config_t* xconfig,
                                        long xmask, nvshmem_team_t* xteam, const nvshmem_team_config_t* yconfig,
                                        long ymask, nvshmem_team_t* yteam) {
  shmem_team_config_t xc, yc;
  shmem_team_t x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
  const shmem_team_t p = gshmemx_team_from_id(parent);
  int rc;
  *xteam = *yteam = NVSHMEM_TEAM_INVALID;
  if (p == SHMEM_TEAM_INVALID) return -1;
  rc = shmem_team_split_2d(p, xrange, gshmemi_nv_config(xconfig, &xc), xmask, &x, gshmemi_nv_config(yconfig, &yc),
                           ymask, &y);
  if (x != SHMEM_TEAM_INVALID) *xteam = gshmemx_team_id(x);
  if (y != SHMEM_TEAM_INVALID) *yteam = gshmemx_team_id(y);
  return rc;
}
/* Collective over the team's members. The predefined teams and NVSHMEM_TEAM_INVALID are left alone. Device and
 * stream work on the team must be complete on every member first. */
static inline void nvshmem_team_destroy(nvshmem_team_t t) {
  if (t >= GSHMEMI_TEAM_FIRST_USER) shmem_team_destroy(gshmemx_team_from_id(t));
}
static inline int nvshmemx_team_get_uniqueid(nvshmemx_team_uniqueid_t* uid) {
  return gshmemx_team_uniqueid_make(uid);
}
/* Collective over the npes members, which pass config->uniqueid (one PE made it with nvshmemx_team_get_uniqueid);
 * the members in index order must be evenly spaced world PEs (gshmem teams are strided sets), else every member gets
 * NVSHMEM_TEAM_INVALID and a nonzero return. */
static inline int nvshmemx_team_init(nvshmem_team_t* team, nvshmem_team_config_t* config, long mask, int npes,
                                     int pe_idx_in_team) {
  shmem_team_config_t c;
  shmem_team_t t = SHMEM_TEAM_INVALID;
  *team = NVSHMEM_TEAM_INVALID;
  if (config == NULL) return gshmemi_nv_unsupported("nvshmemx_team_init", "a team without a config",
                                                    "pass a config whose uniqueid came from nvshmemx_team_get_uniqueid");
  c.num_contexts = config->num_contexts;
  if (gshmemx_team_init_uniqueid(config->uniqueid, npes, pe_idx_in_team, &c, mask & NVSHMEM_TEAM_NUM_CONTEXTS, &t))
    return -1;
  *team = (nvshmem_team_t)gshmemx_team_id(t);
  return 0;
}

#ifdef __CUDACC__
/* ---- kernel launch: a cooperative launch, so every block is resident and device collectives may be called from
 * any of them. Returns NVSHMEMX_ERROR_COLLECTIVE_LAUNCH_FAILED (and prints the CUDA error) when CUDA refuses it,
 * e.g. more blocks than can be resident (nvshmemx_collective_launch_query_gridsize says how many can). */
static inline int nvshmemx_collective_launch(const void* func, dim3 grid, dim3 block, void** args, size_t shmem,
                                             cudaStream_t stream) {
  const cudaError_t e = cudaLaunchCooperativeKernel(func, grid, block, args, shmem, stream);
  if (e == cudaSuccess) return NVSHMEMX_SUCCESS;
  fprintf(stderr, "gshmem: PE %d: nvshmemx_collective_launch: %s\n", shmem_my_pe(),
          cudaGetErrorString(e));
  return NVSHMEMX_ERROR_COLLECTIVE_LAUNCH_FAILED;
}
/* The most blocks of `block` threads a cooperative launch of func can have on this PE's GPU. */
static inline int nvshmemx_collective_launch_query_gridsize(const void* func, dim3 block, void** args, size_t shmem,
                                                            int* gridsize) {
  (void)args;
  int dev = 0, sms = 0, per_sm = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, (int)(block.x * block.y * block.z), shmem) !=
          cudaSuccess)
    return NVSHMEMX_ERROR_INTERNAL;
  *gridsize = per_sm * sms;
  return NVSHMEMX_SUCCESS;
}
#endif /* __CUDACC__ */

#endif /* GSHMEM_COMPAT_NVSHMEM_HOST_H */
