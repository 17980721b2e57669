// Call signatures carried by the collective mailboxes: the cheap agreement check of GSHMEM_CHECK >= 1.
//
// Every mailbox message of a collective carries, in the upper kSigBits of its sequence word (mailbox.hpp), a
// 24-bit summary of the call that sent it: the family (broadcast, fcollect, collect, alltoall, reduce), the
// reduction's operator and element class, the element size and the element count. The receiver compares it with the
// summary of its own call once the message has arrived, so a member that makes another collective, or the same one
// with another count, operator or element type, ends the job with one line instead of a wrong result. It costs an OR
// at the sender and a compare at the receiver, on a word both already touch. A summary of 0 is not checked.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gshmem::coll::sig {

constexpr int kSigBits = 24;
enum Family : uint32_t { kBroadcast = 1, kFcollect = 2, kCollect = 3, kAlltoall = 4, kReduce = 5 };
/// Reduction operators as they appear in a summary (index + 1; 0: not a reduction).
enum Op : uint32_t { kNoOp = 0, kMax, kMin, kSum, kProd, kAnd, kOr, kXor };
/// Element classes of a reduction.
enum Class : uint32_t { kSigned = 0, kUnsigned = 1, kFloating = 2, kComplex = 3 };

/// Counts up to kExactMax travel exactly; larger ones as kExactMax + 1 + a 13-bit hash (still compared).
constexpr uint32_t kExactMax = 0x1FFF;

/// The summary: family (3 bits) | op (3) | class (2) | log2 of the element size, capped at 3 (2) | count (14).
/// `count` is kNotCounted for calls whose counts may differ between members (collect).
constexpr uint64_t kNotCounted = ~uint64_t(0);
inline uint32_t make(Family f, uint64_t count, std::size_t esize, Op op = kNoOp, Class cls = kSigned) {
  const uint32_t lg = esize >= 8 ? 3 : esize >= 4 ? 2 : esize >= 2 ? 1 : 0;
  uint32_t c = 0;
  if (count != kNotCounted)
    c = count <= kExactMax ? uint32_t(count)
                           : (kExactMax + 1) | (uint32_t((count * 0x9E3779B97F4A7C15ull) >> 51) & kExactMax);
  return (uint32_t(f) << 21) | (uint32_t(op) << 18) | (uint32_t(cls) << 16) | (lg << 14) | c;
}

template <typename T>
constexpr Class classOf() {
  if constexpr (std::is_integral_v<T>)
    return std::is_signed_v<T> ? kSigned : kUnsigned;
  else if constexpr (std::is_floating_point_v<T>)
    return kFloating;
  else
    return kComplex;
}

/// Fatal, one line: the message from world PE `pe` summarized `there` where this PE's call `call` is `here`.
[[noreturn]] void mismatch(const char* call, int pe, uint32_t here, uint32_t there) __attribute__((cold));

}  // namespace gshmem::coll::sig
