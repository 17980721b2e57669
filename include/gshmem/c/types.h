/* gshmem OpenSHMEM 1.5 C API: constants, handle types and the X-macro type lists.
 * Part of <shmem.h>; include that instead. Valid C99, C11 and C++. */
#ifndef GSHMEM_C_TYPES_H
#define GSHMEM_C_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------------------------- version */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define SHMEM_MAX_NAME_LEN 256
#define SHMEM_VENDOR_STRING "gshmem"

/* ------------------------------------------------------------------------------------------- threads */
#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

/* ------------------------------------------------------------------------------------- wait_until/test */
#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5

/* ------------------------------------------------------------------------------------------- signals */
#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* -------------------------------------------------------------------- pSync / pWrk of active-set collectives */
/* Generous sizes: every pSync array holds SHMEM_SYNC_SIZE longs, all set to SHMEM_SYNC_VALUE. */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_SYNC_SIZE 64
#define SHMEM_BCAST_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_BARRIER_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_COLLECT_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALL_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 64

/* ------------------------------------------------------------------------------- memory and context hints */
#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

/* -------------------------------------------------------- deprecated _SHMEM_* twins (pre-1.3 programs) */
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_SYNC_SIZE SHMEM_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_ALLTOALLS_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE
#define _SHMEM_THREAD_SINGLE SHMEM_THREAD_SINGLE
#define _SHMEM_THREAD_FUNNELED SHMEM_THREAD_FUNNELED
#define _SHMEM_THREAD_SERIALIZED SHMEM_THREAD_SERIALIZED
#define _SHMEM_THREAD_MULTIPLE SHMEM_THREAD_MULTIPLE
#define SHMEM_HEAD_VERSION SHMEM_MAJOR_VERSION /* some pre-1.0 codes test this */

/* ------------------------------------------------------------------------------- teams and contexts */
/* The handles point at runtime objects (struct definitions are private to the library). */
struct gshmem_ctx;
struct gshmem_team;
typedef struct gshmem_ctx *shmem_ctx_t;
typedef struct gshmem_team *shmem_team_t;

/** Options of shmem_team_split_*; only the fields selected by the config mask are read. */
typedef struct {
  int num_contexts; /**< contexts the application will create on the team (SHMEM_TEAM_NUM_CONTEXTS) */
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

#ifdef __cplusplus
extern "C" {
#endif
extern struct gshmem_ctx gshmem_ctx_default_obj;
extern struct gshmem_team gshmem_team_world_obj;
extern struct gshmem_team gshmem_team_shared_obj;
#ifdef __cplusplus
}
#endif

#define SHMEM_CTX_DEFAULT (&gshmem_ctx_default_obj)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)
#define SHMEM_TEAM_WORLD (&gshmem_team_world_obj)
#define SHMEM_TEAM_SHARED (&gshmem_team_shared_obj)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)

/* ----------------------------------------------------------------------------------- X-macro type lists */
/* X(TYPE, TYPENAME) per the OpenSHMEM 1.5 tables; TYPENAME is pasted into shmem_TYPENAME_op. */

/** Standard RMA types (RMA24). */
#define GSHMEM_RMA_TYPES(X)                                                                                 \
  X(float, float) X(double, double) X(long double, longdouble) X(char, char) X(signed char, schar)          \
  X(short, short) X(int, int) X(long, long) X(long long, longlong) X(unsigned char, uchar)                 \
  X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) \
  X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8)                 \
  X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)

/** Standard AMO types (AMO12): every atomic operation. */
#define GSHMEM_AMO_STD_TYPES(X)                                                                       \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) X(unsigned long, ulong)     \
  X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)           \
  X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)

/** Extended AMO types beyond AMO12 (AMO14 = STD + EXT): fetch, set, swap only. */
#define GSHMEM_AMO_EXT_TYPES(X) X(float, float) X(double, double)

/** Bitwise AMO types (BIT7): and, or, xor. */
#define GSHMEM_AMO_BIT_TYPES(X)                                                                         \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32)     \
  X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)

/** Point-to-point synchronization types (SYNC14): wait_until, test and their all/any/some forms. */
#define GSHMEM_SYNC_TYPES(X)                                                                          \
  X(short, short) X(int, int) X(long, long) X(long long, longlong) X(unsigned short, ushort)        \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32)  \
  X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)

/** Sized RMA: X(BITS, BYTES) for shmem_putBITS and friends. */
#define GSHMEM_SIZED_RMA(X) X(8, 1) X(16, 2) X(32, 4) X(64, 8) X(128, 16)

/** GSHMEM_DECL2(RET, NAME, params...): declares shmem_NAME(params) and shmem_ctx_NAME(shmem_ctx_t ctx, params). */
#define GSHMEM_DECL2(RET, NAME, ...) \
  RET shmem_##NAME(__VA_ARGS__);     \
  RET shmem_ctx_##NAME(shmem_ctx_t ctx, __VA_ARGS__);

#endif /* GSHMEM_C_TYPES_H */
