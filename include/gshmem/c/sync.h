/* gshmem OpenSHMEM 1.5 C API: point-to-point synchronization, signals, ordering and barriers.
 * Part of <shmem.h>; include that instead.
 * `cmp` is one of SHMEM_CMP_*. `status` (may be NULL) masks out elements whose entry is non-zero. */
#ifndef GSHMEM_C_SYNC_H
#define GSHMEM_C_SYNC_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- wait_until/test and their all/any/some[_vector] forms: SYNC14.
 * _any returns the index satisfied (SIZE_MAX when none / all masked); _some writes indices and returns how many. */
#define GSHMEM_DECL_SYNC(T, N)                                                                                 \
  void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                                                 \
  int shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                                        \
  void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);          \
  size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);        \
  size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,    \
                                     T cmp_value);                                                            \
  void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values); \
  size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp,               \
                                           T *cmp_values);                                                    \
  size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status,      \
                                            int cmp, T *cmp_values);                                          \
  int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);                 \
  size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);              \
  size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,          \
                               T cmp_value);                                                                  \
  int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values);        \
  size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp, T *cmp_values);     \
  size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices, const int *status, int cmp,   \
                                      T *cmp_values);
GSHMEM_SYNC_TYPES(GSHMEM_DECL_SYNC)
#undef GSHMEM_DECL_SYNC

/* ---- signals (set by shmem_*put_signal*) */
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
/** Wait until `*sig_addr cmp cmp_value`; returns the value that satisfied it. */
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* ---- ordering and completion */
void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);

/* ---- barriers: barrier_all = quiet + sync_all; sync does not complete outstanding puts. */
void shmem_barrier_all(void);
void shmem_sync_all(void);
/** Collective over `team`. Returns 0. */
int shmem_team_sync(shmem_team_t team);

/* shmem_sync: OpenSHMEM 1.5 spells the team form shmem_sync(team) (same as shmem_team_sync) and keeps the
 * deprecated OpenSHMEM 1.4 active-set form shmem_sync(PE_start, logPE_stride, PE_size, pSync)
 * (gshmem_sync_active_set, declared in gshmem/c/collectives.h). The macro picks one by argument count; any other
 * count calls gshmem_sync_bad_argument_count, which is not a function: a compile-time error. */
struct gshmem_sync_takes_1_or_4_arguments;
extern struct gshmem_sync_takes_1_or_4_arguments gshmem_sync_bad_argument_count;
#define GSHMEM_SYNC_SELECT_(a1, a2, a3, a4, NAME, ...) NAME
#define shmem_sync(...)                                                                                      \
  GSHMEM_SYNC_SELECT_(__VA_ARGS__, gshmem_sync_active_set, gshmem_sync_bad_argument_count,                   \
                      gshmem_sync_bad_argument_count, shmem_team_sync, gshmem_sync_bad_argument_count)      \
  (__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* GSHMEM_C_SYNC_H */
