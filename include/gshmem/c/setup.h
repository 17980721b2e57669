/* gshmem OpenSHMEM 1.5 C API: library setup and query, symmetric memory, teams and contexts.
 * Part of <shmem.h>; include that instead. */
#ifndef GSHMEM_C_SETUP_H
#define GSHMEM_C_SETUP_H

#include "types.h"

#if defined(__GNUC__) || defined(__clang__)
#define GSHMEM_NORETURN __attribute__((noreturn))
#else
#define GSHMEM_NORETURN
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- library setup, exit and query. Errors in arguments end the whole job with a one-line message. */
/** Collective over all PEs: start the runtime (SHMEM_THREAD_SINGLE). Later calls are no-ops. */
void shmem_init(void);
/** Like shmem_init with a thread level; `provided` (may be NULL) receives the level granted. Returns 0. */
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
/** Collective: barrier, then release every resource. */
void shmem_finalize(void);
/** End the program on every PE with `status`; need not be called by all PEs. */
void shmem_global_exit(int status) GSHMEM_NORETURN;
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
/** Local address of symmetric `dest` on `pe` for direct loads/stores, or NULL when not reachable that way. */
void *shmem_ptr(const void *dest, int pe);
/** shmem_ptr with `pe` numbered in `team`. */
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
/** Copies SHMEM_VENDOR_STRING (at most SHMEM_MAX_NAME_LEN bytes, NUL included) to `name`. */
void shmem_info_get_name(char *name);
/** Profiling control (1.5): level 0 stops profiling, 1 (the default) and 2 enable it at increasing detail, others
 * mean what the profiling library says. gshmem itself has no profiling: the call returns at once, for a library
 * that defines shmem_pcontrol and reaches gshmem through pshmem_* (<pshmem.h>). */
void shmem_pcontrol(const int level, ...);

/* ---- symmetric heap: every call is collective over all PEs (same sizes everywhere) and barriers. */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);
/** `hints` is a mask of SHMEM_MALLOC_* (advice only). */
void *shmem_malloc_with_hints(size_t size, long hints);

/* ---- teams. A team's PE numbers run 0..shmem_team_n_pes(team)-1. */
/** This PE's number in `team`, or -1 when not a member or `team` is SHMEM_TEAM_INVALID. */
int shmem_team_my_pe(shmem_team_t team);
/** Number of PEs in `team`, or -1 for SHMEM_TEAM_INVALID. */
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
/** `src_pe` of `src_team` numbered in `dest_team`, or -1 when it is not a member. */
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
/** Collective over `parent_team`. PEs outside the new team get SHMEM_TEAM_INVALID. Returns 0 on success. */
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team);
/** Collective over `parent_team`: rows of `xrange` consecutive PEs (x-axis) and their columns (y-axis). */
int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config,
                        long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
/** Collective over `team`; destroys its contexts too. SHMEM_TEAM_INVALID is ignored. */
void shmem_team_destroy(shmem_team_t team);

/* ---- communication contexts. */
/** New context on SHMEM_TEAM_WORLD; `options` is a mask of SHMEM_CTX_*. Returns 0, or non-zero and
 *  SHMEM_CTX_INVALID when none can be made. */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
/** Team of `ctx` (SHMEM_TEAM_WORLD for SHMEM_CTX_DEFAULT). Returns non-zero for SHMEM_CTX_INVALID. */
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

#ifdef __cplusplus
}
#endif

#endif /* GSHMEM_C_SETUP_H */
