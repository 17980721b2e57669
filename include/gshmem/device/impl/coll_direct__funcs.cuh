// The direct reductions of the stream collectives on a world of two PEs (reduce and reducescatter whose size
// exceeds a scratch slot, when dest and source do not overlap): each PE's dest is the landing area of the peer's
// contribution, so nothing passes through the scratch, nothing is acknowledged, and only writes cross the link.
// Block p of each PE:
//   entry:   release-stores "entered" (acks word [p][me], value pipeValue(epoch, 0)) in the peer and waits for the
//            peer's: the peer's dest is free (its earlier stream work is done) before anything is written into it;
//   send:    copies its share of the peer's items, chunk by chunk, from source into the peer's dest and
//            release-stores the chunk flag [p][me] in the peer (value pipeValue(epoch, k)) after each chunk;
//   combine: after sending chunk k it waits for the peer's flag of chunk k - 1 and combines dest (the peer's
//            contribution, landed) with its own source in place, in team order; reducescatter keeps the result here,
//            reduce also stores it into the peer's dest and at the end release-stores kDirectDone into the peer's
//            chunk flag [p][me], then waits for the peer's.
// A kernel returns after every write into its dest has landed (it waited for every flag that follows them), so no
// barrier follows it. Both PEs launch the same number of parts with the same chunk size (GSHMEM_DEVICE_COLL_DIRECT_
// CHUNK, the same on every PE), and every part of both PEs is resident at once.
#pragma once
#include <cstdint>

namespace gshmem {
namespace dev {
namespace detail {

constexpr size_t kDirectDone = 0xFFFFFE;  ///< pipeValue(epoch, kDirectDone) ends a reduce's part: past any chunk

/// d[j] = (mine_first ? own[j] op d[j] : d[j] op own[j]) for j < m, also stored at peer_d[j] when peer_d is set.
template <int S, int Op, typename T>
GSHMEM_DEVICE_INLINE void directCombine(T* d, T* peer_d, const T* own, size_t m, bool mine_first) {
  const size_t tid = groupRank<S>(), nt = groupSize<S>();
  auto op = [mine_first](T landed, T mine) {
    return mine_first ? reduce2<Op, T>(mine, landed) : reduce2<Op, T>(landed, mine);
  };
  size_t done = 0;
  const uintptr_t align = reinterpret_cast<uintptr_t>(d) | reinterpret_cast<uintptr_t>(own) |
                          reinterpret_cast<uintptr_t>(peer_d);
  if constexpr (16 % sizeof(T) == 0) {
    if ((align & 15) == 0) {
      constexpr int kV = 16 / sizeof(T), kU = 4;  // four vectors of each input in flight per thread
      union U { int4 w; T x[kV]; };
      const size_t nv = m / kV;
      size_t v = tid;
      for (; v + (kU - 1) * nt < nv; v += kU * nt) {
        U a[kU], o[kU];
#pragma unroll
        for (int u = 0; u < kU; ++u) {
          a[u].w = reinterpret_cast<const int4*>(d)[v + u * nt];
          o[u].w = reinterpret_cast<const int4*>(own)[v + u * nt];
        }
#pragma unroll
        for (int u = 0; u < kU; ++u) {
#pragma unroll
          for (int k = 0; k < kV; ++k) a[u].x[k] = op(a[u].x[k], o[u].x[k]);
          reinterpret_cast<int4*>(d)[v + u * nt] = a[u].w;
          if (peer_d) reinterpret_cast<int4*>(peer_d)[v + u * nt] = a[u].w;
        }
      }
      for (; v < nv; v += nt) {
        U a, o;
        a.w = reinterpret_cast<const int4*>(d)[v];
        o.w = reinterpret_cast<const int4*>(own)[v];
#pragma unroll
        for (int k = 0; k < kV; ++k) a.x[k] = op(a.x[k], o.x[k]);
        reinterpret_cast<int4*>(d)[v] = a.w;
        if (peer_d) reinterpret_cast<int4*>(peer_d)[v] = a.w;
      }
      done = nv * kV;
    }
  }
  for (size_t j = done + tid; j < m; j += nt) {
    const T r = op(d[j], own[j]);
    d[j] = r;
    if (peer_d) peer_d[j] = r;
  }
}

/// The items a PE x receives and combines: dest offset, own-source offset and count (the same on both PEs).
GSHMEM_DEVICE_INLINE void directRange(size_t nreduce, bool scatter, int x, size_t* doff, size_t* soff,
                                      size_t* count) {
  if (scatter) {
    *doff = 0, *soff = static_cast<size_t>(x) * nreduce, *count = nreduce;
  } else {
    pipeRange(nreduce, 2, x, doff, count);
    *soff = *doff;
  }
}

}  // namespace detail

/// Part `part` of `parts` of a direct two-PE reduce (scatter: reducescatter) of nreduce items, chunks of ci items
/// (a multiple of 16 bytes). Group scope S, one group per part.
template <int S, int Op, typename T>
GSHMEM_DEVICE_INLINE void directReducePart(const DeviceHandle& h, uint64_t epoch, T* dest, const T* source,
                                           size_t nreduce, bool scatter, size_t ci, size_t part, size_t parts) {
  const int me = h.my_pe, q = 1 - me;
  const uint64_t flags = deviceCollChunkFlagsOffset(2), acks = deviceCollAcksOffset(2);
  const bool lead = detail::groupRank<S>() == 0;
  if (lead) {
    detail::stReleaseSys(detail::pipeWord(h, acks, q, part, me), detail::pipeValue(epoch, 0));
    detail::waitAtLeast(detail::pipeWord(h, acks, me, part, q), detail::pipeValue(epoch, 0));
  }
  detail::groupSync<S>();
  size_t sd, ss, sc, rd, rs, rc, sb, se, rb, re;
  detail::directRange(nreduce, scatter, q, &sd, &ss, &sc);  // what this PE sends: the peer's items
  detail::directRange(nreduce, scatter, me, &rd, &rs, &rc);  // what it combines: its own
  detail::pipeShare(sc, sizeof(T), part, parts, &sb, &se);
  detail::pipeShare(rc, sizeof(T), part, parts, &rb, &re);
  const size_t ns = (se - sb + ci - 1) / ci, nr = (re - rb + ci - 1) / ci;
  T* peer_dest = detail::peerPtr(h, dest, q);
  for (size_t k = 0; k <= (ns > nr ? ns : nr); ++k) {
    if (k < ns) {
      const size_t first = sb + k * ci, m = se - first < ci ? se - first : ci;
      detail::copy<S>(peer_dest + sd + first, source + ss + first, m * sizeof(T));
      detail::groupSync<S>();  // the group's stores precede the release below (it is cumulative)
      if (lead) detail::stReleaseSys(detail::pipeWord(h, flags, q, part, me), detail::pipeValue(epoch, k));
    }
    if (k >= 1 && k - 1 < nr) {
      const size_t first = rb + (k - 1) * ci, m = re - first < ci ? re - first : ci;
      if (lead) detail::waitAtLeast(detail::pipeWord(h, flags, me, part, q), detail::pipeValue(epoch, k - 1));
      detail::groupSync<S>();
      detail::directCombine<S, Op, T>(dest + rd + first, scatter ? nullptr : peer_dest + rd + first,
                                      source + rs + first, m, me == 0);
    }
  }
  if (!scatter) {
    detail::groupSync<S>();  // the group's stores of the result precede the release below
    if (lead) {
      detail::stReleaseSys(detail::pipeWord(h, flags, q, part, me),
                           detail::pipeValue(epoch, detail::kDirectDone));
      detail::waitAtLeast(detail::pipeWord(h, flags, me, part, q), detail::pipeValue(epoch, detail::kDirectDone));
    }
  }
}

}  // namespace dev
}  // namespace gshmem
