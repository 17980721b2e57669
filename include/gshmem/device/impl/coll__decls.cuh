// The device collectives' name lists (T and OP, as NVSHMEM names them) and the declarations of their stream forms,
// which the library defines (src/api/cuda/api_stream_coll.cpp, over src/core/device/device_coll.cu). Shared by the
// free functions and the library.
#pragma once
#include <cuComplex.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gshmem/device/impl/handle__types.cuh"

// T: name, C type. Arithmetic (sum, prod, min, max) and bitwise (and, or, xor) reductions, and the data movers.
#define GSHMEMI_RED_ARITH_TYPES(X)                                                                            \
  X(float, float) X(double, double) X(char, char) X(schar, signed char) X(short, short) X(int, int)           \
  X(long, long) X(longlong, long long) X(uchar, unsigned char) X(ushort, unsigned short) X(uint, unsigned int) \
  X(ulong, unsigned long) X(ulonglong, unsigned long long) X(int8, int8_t) X(int16, int16_t)                   \
  X(int32, int32_t) X(int64, int64_t) X(uint8, uint8_t) X(uint16, uint16_t) X(uint32, uint32_t)               \
  X(uint64, uint64_t) X(size, size_t) X(half, __half) X(bfloat16, __nv_bfloat16)
#define GSHMEMI_RED_BIT_TYPES(X)                                                                              \
  X(int8, int8_t) X(int16, int16_t) X(int32, int32_t) X(int64, int64_t) X(uchar, unsigned char)               \
  X(ushort, unsigned short) X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long)     \
  X(uint8, uint8_t) X(uint16, uint16_t) X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t)
#define GSHMEMI_COLL_TYPES(X) GSHMEMI_RED_ARITH_TYPES(X) X(ptrdiff, ptrdiff_t)

// Pairs: complex numbers (sum, prod) and NVSHMEM's double2 maxloc.
#define GSHMEMI_RED_PAIR_TYPES(X) \
  X(complexf, cuFloatComplex, sum, gshmem::dev::kRedSum) X(complexf, cuFloatComplex, prod, gshmem::dev::kRedProd) \
  X(complexd, cuDoubleComplex, sum, gshmem::dev::kRedSum) X(complexd, cuDoubleComplex, prod, gshmem::dev::kRedProd) \
  X(double2, double2, maxloc, gshmem::dev::kRedMaxloc)

// (name, C type) x op, for the arithmetic and the bitwise ops.
#define GSHMEMI_RED_ARITH_OPS(X, N, T) \
  X(N, T, sum, gshmem::dev::kRedSum) X(N, T, prod, gshmem::dev::kRedProd) X(N, T, min, gshmem::dev::kRedMin) \
  X(N, T, max, gshmem::dev::kRedMax)
#define GSHMEMI_RED_BIT_OPS(X, N, T) \
  X(N, T, and, gshmem::dev::kRedAnd) X(N, T, or, gshmem::dev::kRedOr) X(N, T, xor, gshmem::dev::kRedXor)

// ---------------------------------------------------------------------------------- stream forms (the library)
extern "C" {
#define GSHMEMI_DECL_RED_STREAM(N, T, OP, O)                                                                  \
  int gshmemx_##N##_##OP##_reduce_on_stream(gshmem_team_t, T*, const T*, size_t, cudaStream_t);             \
  int gshmemx_##N##_##OP##_reducescatter_on_stream(gshmem_team_t, T*, const T*, size_t, cudaStream_t);
#define GSHMEMI_DECL_RED_ARITH(N, T) GSHMEMI_RED_ARITH_OPS(GSHMEMI_DECL_RED_STREAM, N, T)
#define GSHMEMI_DECL_RED_BIT(N, T) GSHMEMI_RED_BIT_OPS(GSHMEMI_DECL_RED_STREAM, N, T)
GSHMEMI_RED_ARITH_TYPES(GSHMEMI_DECL_RED_ARITH)
GSHMEMI_RED_BIT_TYPES(GSHMEMI_DECL_RED_BIT)
GSHMEMI_RED_PAIR_TYPES(GSHMEMI_DECL_RED_STREAM)
int gshmemx_broadcastmem_on_stream(gshmem_team_t, void*, const void*, size_t, int, cudaStream_t);
int gshmemx_fcollectmem_on_stream(gshmem_team_t, void*, const void*, size_t, cudaStream_t);
int gshmemx_alltoallmem_on_stream(gshmem_team_t, void*, const void*, size_t, cudaStream_t);
void gshmemx_barrier_on_stream(gshmem_team_t, cudaStream_t);
void gshmemx_team_sync_on_stream(gshmem_team_t, cudaStream_t);
}

