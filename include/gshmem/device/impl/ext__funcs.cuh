// Layer 2, the handle API's strided RMA and multi-variable waits (contracts in gshmem/device/api.cuh). Built on the
// element operations of api__funcs.cuh, so they take every path those take (P2P stores or the proxy ring).
#pragma once
#include <cstddef>
#include <cstdint>

namespace gshmem {
namespace dev {

/// Strided put of n elements of E: dst[i*dst_stride] on `pe` = src[i*src_stride]. Every lane of scope S takes
/// every groupSize-th element; returns (after a group sync) when every source element may be reused. Elements of
/// at most 8 bytes go as p (delivered by quiet, as p is); wider ones as a blocking putmem.
template <int S, typename E>
GSHMEM_DEVICE_INLINE void iput(const DeviceHandle& h, E* dst, const E* src, ptrdiff_t dst_stride,
                               ptrdiff_t src_stride, size_t n, int pe) {
  for (size_t i = detail::groupRank<S>(); i < n; i += detail::groupSize<S>()) {
    if constexpr (sizeof(E) <= 8) {
      p<E>(h, dst + i * dst_stride, src[i * src_stride], pe);
    } else {
      putmem<kScopeThread>(h, dst + i * dst_stride, src + i * src_stride, sizeof(E), pe);
    }
  }
  detail::groupSync<S>();
}

/// Strided get of n elements of E: dst[i*dst_stride] = src[i*src_stride] on `pe`; complete on return.
template <int S, typename E>
GSHMEM_DEVICE_INLINE void iget(const DeviceHandle& h, E* dst, const E* src, ptrdiff_t dst_stride,
                               ptrdiff_t src_stride, size_t n, int pe) {
  for (size_t i = detail::groupRank<S>(); i < n; i += detail::groupSize<S>()) {
    if constexpr (sizeof(E) <= 8) {
      dst[i * dst_stride] = g<E>(h, src + i * src_stride, pe);
    } else {
      getmem<kScopeThread>(h, dst + i * dst_stride, src + i * src_stride, sizeof(E), pe);
    }
  }
  detail::groupSync<S>();
}

namespace detail {
/// Whether ivars[i] takes part (status is null or status[i] == 0) and, if so, whether it compares true against
/// values[i] (the _vector forms) or value.
template <typename T>
GSHMEM_DEVICE_INLINE int waitState(const T* ivars, size_t i, const int* status, int cmp, const T* values, T value) {
  if (status != nullptr && status[i] != 0) return -1;
  return compare<T>(cmp, ldAcquire(ivars + i), values != nullptr ? values[i] : value) ? 1 : 0;
}
}  // namespace detail

/// 1 when every taking-part ivar compares true (also when none takes part), else 0. One pass, no wait.
template <typename T>
GSHMEM_DEVICE_INLINE int testAll(const T* ivars, size_t n, const int* status, int cmp, const T* values, T value) {
  for (size_t i = 0; i < n; ++i)
    if (detail::waitState(ivars, i, status, cmp, values, value) == 0) return 0;
  return 1;
}
/// The index of a taking-part ivar that compares true, or SIZE_MAX when none does. One pass, no wait.
template <typename T>
GSHMEM_DEVICE_INLINE size_t testAny(const T* ivars, size_t n, const int* status, int cmp, const T* values, T value) {
  for (size_t i = 0; i < n; ++i)
    if (detail::waitState(ivars, i, status, cmp, values, value) == 1) return i;
  return SIZE_MAX;
}
/// How many taking-part ivars compare true; their indices go to `indices` in increasing order. One pass.
template <typename T>
GSHMEM_DEVICE_INLINE size_t testSome(const T* ivars, size_t n, size_t* indices, const int* status, int cmp,
                                     const T* values, T value) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (detail::waitState(ivars, i, status, cmp, values, value) == 1) indices[k++] = i;
  return k;
}
/// Whether any ivar takes part (the _any and _some waits return at once when none does).
GSHMEM_DEVICE_INLINE bool anyTakesPart(size_t n, const int* status) {
  for (size_t i = 0; i < n; ++i)
    if (status == nullptr || status[i] == 0) return true;
  return false;
}
/// Wait until testAll holds. Every poll is an acquire load, so data written before the ivars is visible after.
template <typename T>
GSHMEM_DEVICE_INLINE void waitAll(const T* ivars, size_t n, const int* status, int cmp, const T* values, T value) {
  while (!testAll(ivars, n, status, cmp, values, value)) {
  }
}
/// Wait until some taking-part ivar compares true and return its index; SIZE_MAX at once when none takes part.
template <typename T>
GSHMEM_DEVICE_INLINE size_t waitAny(const T* ivars, size_t n, const int* status, int cmp, const T* values, T value) {
  if (!anyTakesPart(n, status)) return SIZE_MAX;
  for (;;) {
    const size_t i = testAny(ivars, n, status, cmp, values, value);
    if (i != SIZE_MAX) return i;
  }
}
/// Wait until at least one taking-part ivar compares true; return testSome's count (0 at once when none takes part).
template <typename T>
GSHMEM_DEVICE_INLINE size_t waitSome(const T* ivars, size_t n, size_t* indices, const int* status, int cmp,
                                     const T* values, T value) {
  if (!anyTakesPart(n, status)) return 0;
  for (;;) {
    const size_t k = testSome(ivars, n, indices, status, cmp, values, value);
    if (k != 0) return k;
  }
}

}  // namespace dev
}  // namespace gshmem
