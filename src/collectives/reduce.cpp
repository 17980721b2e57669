// Reductions: shmem_TYPE_OP_reduce (teams) and shmem_TYPE_OP_to_all (deprecated active sets).
//
// Two algorithms, chosen by size (both give every member bit-identical results: each element is combined in
// member order 0, 1, ..., n-1 by exactly one code path):
//   - direct (<= kDirectMaxBytes, or one member): sync; every member reduces all members' sources into its
//     result; sync. The result goes straight to dest, or to a stack temporary when dest == source (others still
//     read our source until the second sync), copied to dest after it.
//   - reduce-scatter + allgather (larger): the array is split into one cache-line-aligned chunk per member.
//     sync; member i reduces chunk i of every source into its own dest chunk i (only member i ever reads
//     chunk i of any source, so this is safe in place); sync; member i pushes its dest chunk i into every
//     peer's dest chunk i (no source is read any more); sync. Each member reads ~nelems elements instead of
//     n * nelems, and no temporary is needed.
// Sources are read in place through ptrOf() when the peer is mapped, in blocks of kBlockBytes so the running
// result stays in L1; unmapped peers are fetched block by block with ops::get.
#include <algorithm>
#include <complex>
#include <cstring>
#include <type_traits>

#include "collectives/coll.hpp"
#include "gshmem/c/collectives.h"

namespace gshmem::coll {

namespace {

constexpr std::size_t kBlockBytes = 2048;
constexpr std::size_t kDirectMaxBytes = 4096;  // crossover measured near 4-8 KiB at 2 PEs

// ---- operators
struct OpMax {
  template <typename T> static T apply(T a, T b) { return b > a ? b : a; }
};
struct OpMin {
  template <typename T> static T apply(T a, T b) { return b < a ? b : a; }
};
struct OpSum {
  template <typename T> static T apply(T a, T b) { return static_cast<T>(a + b); }
};
struct OpProd {
  template <typename T> static T apply(T a, T b) { return static_cast<T>(a * b); }
};
struct OpAnd {
  template <typename T> static T apply(T a, T b) { return static_cast<T>(a & b); }
};
struct OpOr {
  template <typename T> static T apply(T a, T b) { return static_cast<T>(a | b); }
};
struct OpXor {
  template <typename T> static T apply(T a, T b) { return static_cast<T>(a ^ b); }
};

template <typename T, typename Op>
inline void combine(T* __restrict acc, const T* __restrict src, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) acc[i] = Op::apply(acc[i], src[i]);
}

/// Reduce elements [lo, hi) of every member's `source` into out[0 .. hi-lo). `out` may alias this PE's
/// source[lo, hi): each block is written only after every member's copy of it has been read.
template <typename T, typename Op>
void reduceRange(const Group& g, T* out, const T* source, std::size_t lo, std::size_t hi) {
  constexpr std::size_t kBlk = kBlockBytes / sizeof(T) ? kBlockBytes / sizeof(T) : 1;
  alignas(64) unsigned char acc_buf[kBlk * sizeof(T)];
  alignas(64) unsigned char tmp_buf[kBlk * sizeof(T)];
  T* acc = reinterpret_cast<T*>(acc_buf);
  T* tmp = reinterpret_cast<T*>(tmp_buf);
  for (std::size_t b = lo; b < hi; b += kBlk) {
    const std::size_t m = std::min(kBlk, hi - b);
    for (int j = 0; j < g.size; ++j) {
      const int pe = g.worldPe(j);
      const T* p = static_cast<const T*>(ptrOf(source + b, pe));
      if (p == nullptr) {  // not load/store reachable: fetch the block
        ops::get(g.call, ctxDefault(), tmp, source + b, m * sizeof(T), pe);
        p = tmp;
      }
      if (j == 0) std::memcpy(acc, p, m * sizeof(T));
      else combine<T, Op>(acc, p, m);
    }
    std::memcpy(out + (b - lo), acc, m * sizeof(T));
  }
}

template <typename T, typename Op>
void reduce(const Group& g, T* dest, const T* source, std::size_t nelems) {
  if (nelems == 0) return;
  const std::size_t bytes = nelems * sizeof(T);
  const bool in_place = dest == source;
  const char *d = reinterpret_cast<const char*>(dest), *s = reinterpret_cast<const char*>(source);
  if (GSHMEM_UNLIKELY(!in_place && d < s + bytes && s < d + bytes))
    fatal(g.call, "source %p and dest %p overlap without being the same array", static_cast<const void*>(source),
          static_cast<const void*>(dest));
  if (g.size == 1) {
    if (!in_place) std::memcpy(dest, source, bytes);
    return;
  }

  if (bytes <= kDirectMaxBytes) {
    alignas(64) unsigned char temp_buf[kDirectMaxBytes];
    T* out = in_place ? reinterpret_cast<T*>(temp_buf) : dest;
    groupSync(g);
    reduceRange<T, Op>(g, out, source, 0, nelems);
    groupSync(g);  // every member is done reading our source
    if (in_place) std::memcpy(dest, out, bytes);
    return;
  }

  // Chunk j is [first(j), first(j+1)), in whole cache lines where the type allows.
  const std::size_t unit = std::max<std::size_t>(1, 64 / sizeof(T));
  const std::size_t units = (nelems + unit - 1) / unit;
  auto first = [&](int j) { return std::min(nelems, units * j / g.size * unit); };
  const std::size_t lo = first(g.me), hi = first(g.me + 1);
  groupSync(g);
  reduceRange<T, Op>(g, dest + lo, source, lo, hi);
  groupSync(g);
  if (hi > lo)
    for (int k = 1; k < g.size; ++k) {
      int j = (g.me + k) % g.size;
      ops::put(g.call, ctxDefault(), dest + lo, dest + lo, (hi - lo) * sizeof(T), g.worldPe(j));
    }
  groupSync(g);
}

}  // namespace
}  // namespace gshmem::coll

using gshmem::coll::Group;
using gshmem::coll::OpAnd;
using gshmem::coll::OpMax;
using gshmem::coll::OpMin;
using gshmem::coll::OpOr;
using gshmem::coll::OpProd;
using gshmem::coll::OpSum;
using gshmem::coll::OpXor;

// ---------------------------------------------------------------------------------------------- team-based
#define GSHMEM_DEF_REDUCE(T, N, OP, OPCLASS)                                                                 \
  extern "C" int shmem_##N##_##OP##_reduce(shmem_team_t team, T* dest, const T* source, size_t nreduce) {   \
    Group g = gshmem::coll::teamGroup("shmem_" #N "_" #OP "_reduce", team);                                  \
    gshmem::coll::reduce<T, OPCLASS>(g, dest, source, nreduce);                                              \
    return 0;                                                                                                \
  }
#define GSHMEM_DEF_REDUCE_MINMAX(T, N) GSHMEM_DEF_REDUCE(T, N, max, OpMax) GSHMEM_DEF_REDUCE(T, N, min, OpMin)
#define GSHMEM_DEF_REDUCE_ARITH(T, N) GSHMEM_DEF_REDUCE(T, N, sum, OpSum) GSHMEM_DEF_REDUCE(T, N, prod, OpProd)
#define GSHMEM_DEF_REDUCE_BIT(T, N) \
  GSHMEM_DEF_REDUCE(T, N, and, OpAnd) GSHMEM_DEF_REDUCE(T, N, or, OpOr) GSHMEM_DEF_REDUCE(T, N, xor, OpXor)
GSHMEM_REDUCE_MINMAX_TYPES(GSHMEM_DEF_REDUCE_MINMAX)
GSHMEM_REDUCE_ARITH_TYPES(GSHMEM_DEF_REDUCE_ARITH)
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_DEF_REDUCE_BIT)

// ---------------------------------------------------------------------------------------------- active sets
// pWrk is not needed: the algorithms above use no symmetric work array.
#define GSHMEM_DEF_TOALL(T, N, OP, OPCLASS)                                                                       \
  extern "C" void shmem_##N##_##OP##_to_all(T* dest, const T* source, int nreduce, int PE_start, int logPE_stride, \
                                            int PE_size, T* pWrk, long* pSync) {                                  \
    static const char* const kCall = "shmem_" #N "_" #OP "_to_all";                                              \
    Group g = gshmem::coll::activeSetGroup(kCall, PE_start, logPE_stride, PE_size, pSync);                        \
    if (GSHMEM_UNLIKELY(nreduce < 0)) gshmem::fatal(kCall, "nreduce %d is negative", nreduce);                   \
    (void)pWrk;                                                                                                   \
    gshmem::coll::reduce<T, OPCLASS>(g, dest, source, static_cast<size_t>(nreduce));                             \
  }
#define GSHMEM_DEF_TOALL_BIT(T, N) \
  GSHMEM_DEF_TOALL(T, N, and, OpAnd) GSHMEM_DEF_TOALL(T, N, or, OpOr) GSHMEM_DEF_TOALL(T, N, xor, OpXor)
#define GSHMEM_DEF_TOALL_MINMAX(T, N) GSHMEM_DEF_TOALL(T, N, max, OpMax) GSHMEM_DEF_TOALL(T, N, min, OpMin)
#define GSHMEM_DEF_TOALL_ARITH(T, N) GSHMEM_DEF_TOALL(T, N, sum, OpSum) GSHMEM_DEF_TOALL(T, N, prod, OpProd)
GSHMEM_TOALL_BIT_TYPES(GSHMEM_DEF_TOALL_BIT)
GSHMEM_TOALL_MINMAX_TYPES(GSHMEM_DEF_TOALL_MINMAX)
GSHMEM_TOALL_ARITH_TYPES(GSHMEM_DEF_TOALL_ARITH)
