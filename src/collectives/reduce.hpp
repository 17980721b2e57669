// Reductions over a Group: reduce<T, Op>, the algorithm behind shmem_TYPE_OP_reduce (teams) and
// shmem_TYPE_OP_to_all (deprecated active sets); their C entry points are src/api/api_reduce.cpp.
//
// Four algorithms, chosen by chooseReduce (select.cpp; every one gives every member bit-identical results: each
// element is combined in member order 0, 1, ..., n-1 by exactly one code path, or for the tree in one order that
// every member's result comes from):
//   - tree (members on more than one node, the array fits a mailbox message): node-aware, tree.cpp.
//   - mailbox (the array fits one mailbox message): every member posts its source to every other member's mailbox
//     (mailbox.hpp) and reduces the n arrays locally into dest. One round, no synchronization: a member's source
//     is read only by its owner, so it may return as soon as it has its peers' messages.
//   - direct (up to 4 KiB, or one member): sync; every member reduces all members' sources into its
//     result; sync. The result goes straight to dest, or to a stack temporary when dest == source (others still
//     read our source until the second sync), copied to dest after it.
//   - reduce-scatter + allgather (larger): the array is split into one cache-line-aligned chunk per member.
//     sync; member i reduces chunk i of every source into its own dest chunk i (only member i ever reads
//     chunk i of any source, so this is safe in place); sync; member i pushes its dest chunk i into every
//     peer's dest chunk i (no source is read any more); sync. Each member reads ~nelems elements instead of
//     n * nelems, and no temporary is needed.
// Sources are read in place through ptrOf() when the peer is mapped, in blocks of kBlockBytes so the running
// result stays in L1; unmapped peers are fetched block by block with ops::get.
#pragma once
#include <algorithm>
#include <complex>
#include <cstring>
#include <type_traits>

#include "collectives/coll.hpp"
#include "collectives/mailbox.hpp"

namespace gshmem::coll {

// ---- operators
struct OpMax {
  static constexpr sig::Op kSig = sig::kMax;
  template <typename T> static T apply(T a, T b) { return b > a ? b : a; }
};
struct OpMin {
  static constexpr sig::Op kSig = sig::kMin;
  template <typename T> static T apply(T a, T b) { return b < a ? b : a; }
};
struct OpSum {
  static constexpr sig::Op kSig = sig::kSum;
  template <typename T> static T apply(T a, T b) { return static_cast<T>(a + b); }
};
struct OpProd {
  static constexpr sig::Op kSig = sig::kProd;
  template <typename T> static T apply(T a, T b) { return static_cast<T>(a * b); }
};
struct OpAnd {
  static constexpr sig::Op kSig = sig::kAnd;
  template <typename T> static T apply(T a, T b) { return static_cast<T>(a & b); }
};
struct OpOr {
  static constexpr sig::Op kSig = sig::kOr;
  template <typename T> static T apply(T a, T b) { return static_cast<T>(a | b); }
};
struct OpXor {
  static constexpr sig::Op kSig = sig::kXor;
  template <typename T> static T apply(T a, T b) { return static_cast<T>(a ^ b); }
};

namespace reduce_detail {

constexpr std::size_t kBlockBytes = 2048;
constexpr std::size_t kDirectMaxBytes = 4096;  // the largest direct reduction (its temporary); select.cpp agrees

template <typename T, typename Op>
inline void combine(T* __restrict acc, const T* __restrict src, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) acc[i] = Op::apply(acc[i], src[i]);
}

template <typename T, typename Op>
void combineErased(void* acc, const void* src, std::size_t n) {
  combine<T, Op>(static_cast<T*>(acc), static_cast<const T*>(src), n);
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

/// Mailbox reduction of `nelems` elements (bytes <= mailbox::capacity()). `dest` may be `source`.
template <typename T, typename Op>
void reduceMailbox(const Group& g, T* dest, const T* source, std::size_t nelems) {
  const std::size_t bytes = nelems * sizeof(T);
  checkSymmetric(g, "dest", dest, bytes);
  checkSymmetric(g, "source", source, bytes);
  for (int k = 1; k < g.size; ++k) mailbox::send(g.call, g.worldPe((g.me + k) % g.size), g.sig, source, bytes);
  // Member order 0..n-1 into `out`. In place, the partial result may not overwrite our source before our own
  // turn comes, so it is built in a temporary (a message is at most 8 KiB: mailboxPayload) and copied at the end.
  alignas(64) unsigned char temp_buf[8192];
  if (GSHMEM_UNLIKELY(bytes > sizeof temp_buf)) fatal(g.call, "a mailbox reduction of %zu bytes", bytes);
  T* out = dest == source ? reinterpret_cast<T*>(temp_buf) : dest;
  for (int j = 0; j < g.size; ++j) {
    const T* p = j == g.me ? source : reinterpret_cast<const T*>(mailbox::receive(g.call, g.worldPe(j), g.sig));
    if (j == 0) std::memcpy(out, p, bytes);
    else combine<T, Op>(out, p, nelems);
    if (j != g.me) mailbox::release(g.call, g.worldPe(j));
  }
  if (out != dest) std::memcpy(dest, out, bytes);
}

}  // namespace reduce_detail

/// Reduce `nelems` elements of every member's `source` into every member's `dest` with Op (collective over `g`).
/// dest == source is allowed; any other overlap is fatal.
template <typename T, typename Op>
void reduce(const Group& g, T* dest, const T* source, std::size_t nelems) {
  using namespace reduce_detail;
  checkAgreement(g, nelems * sizeof(T));
  if (nelems == 0) return;
  g.sig = sig::make(sig::kReduce, nelems, sizeof(T), Op::kSig, sig::classOf<T>());
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

  const Algo algo = chooseReduce(g, bytes);
  if (algo == Algo::kTree) return reduceTree(g, dest, source, bytes, nelems, &combineErased<T, Op>);
  if (algo == Algo::kMailbox) return reduceMailbox<T, Op>(g, dest, source, nelems);
  if (algo == Algo::kDirect && bytes <= kDirectMaxBytes) {
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

}  // namespace gshmem::coll
