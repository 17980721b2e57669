// The type lists the device free functions are stamped over (name as NVSHMEM spells it, C type), as X-macros.
// One list per family of NVSHMEM's names: adding a type to a list adds every name of that family for it.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>

/// NVSHMEM's standard RMA types (OpenSHMEM's, without long double).
#define GSHMEMI_STD_TYPES(X)                                                                                   \
  X(float, float) X(double, double) X(char, char) X(schar, signed char) X(short, short) X(int, int)           \
  X(long, long) X(longlong, long long) X(uchar, unsigned char) X(ushort, unsigned short) X(uint, unsigned int) \
  X(ulong, unsigned long) X(ulonglong, unsigned long long) X(int8, int8_t) X(int16, int16_t)                   \
  X(int32, int32_t) X(int64, int64_t) X(uint8, uint8_t) X(uint16, uint16_t) X(uint32, uint32_t)               \
  X(uint64, uint64_t) X(size, size_t) X(ptrdiff, ptrdiff_t)
/// RMA, strided RMA and put-with-signal: the standard types and the two 16-bit floating-point types.
#define GSHMEMI_RMA_TYPES(X) GSHMEMI_STD_TYPES(X) X(half, __half) X(bfloat16, __nv_bfloat16)
/// Point-to-point synchronization (wait_until, test and their _all/_any/_some/_vector forms).
#define GSHMEMI_WAIT_TYPES(X)                                                                                  \
  X(short, short) X(int, int) X(long, long) X(longlong, long long) X(ushort, unsigned short)                  \
  X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long) X(int32, int32_t)            \
  X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t) X(ptrdiff, ptrdiff_t)
/// Standard AMOs (every atomic but the bitwise ones): the 32- and 64-bit integer types.
#define GSHMEMI_AMO_TYPES(X)                                                                                   \
  X(int, int) X(long, long) X(longlong, long long) X(uint, unsigned int) X(ulong, unsigned long)              \
  X(ulonglong, unsigned long long) X(int32, int32_t) X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t) \
  X(size, size_t) X(ptrdiff, ptrdiff_t)
/// Extended AMOs (fetch, set, swap) add the floating-point types.
#define GSHMEMI_AMO_EXT_TYPES(X) X(float, float) X(double, double)

/// Sized RMA (put8 ... put128): bits, element type. The 128-bit element is two 64-bit words.
struct alignas(16) gshmemi_b128 {
  uint64_t w[2];
};
#define GSHMEMI_SIZED(X) X(8, uint8_t) X(16, uint16_t) X(32, uint32_t) X(64, uint64_t) X(128, gshmemi_b128)
