// Device collectives (layer 3 bodies): barrier, sync, broadcast, fcollect, alltoall, reduce and reducescatter on a
// device team, called by one group (thread, warp or block: scope S) per PE. Included by api.cuh under nvcc.
//
// Contract (see api.cuh for the launch rules):
//   * Team: any team this PE belongs to (team__funcs.cuh); PE numbers (a broadcast's root) are team indices. Every
//     member calls the same collectives on the team in the same order; PEs outside the team do not call.
//   * Every member's heap must be mapped here (P2P: same node, GSHMEM_P2P=1; PEs sharing a GPU are mapped);
//     a collective that finds an unmapped member stops the kernel with a one-line message. Barrier and sync
//     reach unmapped members through the proxy, as barrier_all does.
//   * Algorithms are push/pull over direct loads and stores. Reductions are bracketed by the team barrier: the entry
//     barrier makes every PE's source ready and every destination free, the exit barrier makes every result
//     complete and every source reusable. The device-initiated broadcast, fcollect and alltoall hand over with
//     per-member flags instead (moverCall below). A collective returns with this PE's dest complete and its source
//     reusable.
//   * Reductions read every PE's source slice that this PE owns and write the reduced slice into every PE's
//     destination (reduce-scatter then all-gather, one pass), so source and destination may be the same array.
//   * The ranged forms (…Range) do a part of the data between the barriers; the stream forms run them from many
//     blocks between a barrier kernel before and after.
#pragma once
#include <type_traits>

namespace gshmem {
namespace dev {

/// Reduction operators (as the host API's, in NVSHMEM's order of names).
/// kRedMaxloc: on (value, index) pairs (double2: x the value, y the index), the larger value; on a tie the
/// smaller index.
enum ReduceOp : int { kRedSum = 0, kRedProd, kRedMin, kRedMax, kRedAnd, kRedOr, kRedXor, kRedMaxloc };

namespace detail {

/// Pairs of two floating-point numbers: complex numbers (float2 = cuFloatComplex, double2 = cuDoubleComplex) under
/// sum and prod, (value, index) pairs under maxloc.
template <int Op, typename T>
GSHMEM_DEVICE_INLINE T reducePair(T a, T b) {
  if constexpr (Op == kRedSum) {
    return T{a.x + b.x, a.y + b.y};
  } else if constexpr (Op == kRedProd) {
    return T{a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
  } else {
    static_assert(Op == kRedMaxloc, "pairs reduce with sum, prod or maxloc");
    return (b.x > a.x || (b.x == a.x && b.y < a.y)) ? b : a;
  }
}

template <int Op, typename T>
GSHMEM_DEVICE_INLINE T reduce2(T a, T b) {
  if constexpr (std::is_same<T, float2>::value || std::is_same<T, double2>::value) {
    return reducePair<Op, T>(a, b);
  } else {
    if constexpr (Op == kRedSum) return a + b;
    if constexpr (Op == kRedProd) return a * b;
    if constexpr (Op == kRedMin) return b < a ? b : a;
    if constexpr (Op == kRedMax) return a < b ? b : a;
    if constexpr (Op == kRedAnd) return a & b;
    if constexpr (Op == kRedOr) return a | b;
    if constexpr (Op == kRedXor) return a ^ b;
  }
}

/// The part [b, e) of n items that member `me` of `npes` owns: balanced, in order.
GSHMEM_DEVICE_INLINE void ownedPart(size_t n, int npes, int me, size_t* b, size_t* e) {
  const size_t q = n / npes, r = n % npes;
  *b = me * q + (static_cast<size_t>(me) < r ? me : r);
  *e = *b + q + (static_cast<size_t>(me) < r ? 1 : 0);
}

/// Reduce items [b, e) of every member's `src` and store the result at dst + (i - b) in every member (dst_all) or
/// only in this PE (reducescatter). Group scope S; 16-byte vectors when everything is aligned.
template <int S, int Op, typename T>
GSHMEM_DEVICE_INLINE void reduceItems(const DeviceHandle& h, const DeviceTeam& t, T* dst, bool dst_all, const T* src,
                                      size_t b, size_t e, size_t tid, size_t nthreads) {
  constexpr int kV = 16 / sizeof(T) > 0 ? 16 / sizeof(T) : 1;
  const int n = t.size;
  size_t i = b;
  const bool vec = sizeof(T) <= 16 && 16 % sizeof(T) == 0 &&
                   ((reinterpret_cast<uintptr_t>(src + b) | reinterpret_cast<uintptr_t>(dst)) & 15) == 0;
  if (vec) {
    const size_t nv = (e - b) / kV;
    union U { int4 w; T x[kV]; };
    constexpr int kU = 4;  // vectors per thread in flight: loads from every PE are issued before the first use
    size_t v = tid;
    for (; v + (kU - 1) * nthreads < nv; v += kU * nthreads) {
      U acc[kU], o[kU];
#pragma unroll
      for (int u = 0; u < kU; ++u)
        acc[u].w = *reinterpret_cast<const int4*>(peerPtr(h, src + b, t.pe(0)) + (v + u * nthreads) * kV);
      for (int m = 1; m < n; ++m) {
#pragma unroll
        for (int u = 0; u < kU; ++u)
          o[u].w = *reinterpret_cast<const int4*>(peerPtr(h, src + b, t.pe(m)) + (v + u * nthreads) * kV);
#pragma unroll
        for (int u = 0; u < kU; ++u)
#pragma unroll
          for (int k = 0; k < kV; ++k) acc[u].x[k] = reduce2<Op, T>(acc[u].x[k], o[u].x[k]);
      }
      for (int k = 0; k < (dst_all ? n : 1); ++k) {
        T* d = dst_all ? peerPtr(h, dst, t.pe((t.my_index + k) % n)) : dst;
#pragma unroll
        for (int u = 0; u < kU; ++u) *reinterpret_cast<int4*>(d + (v + u * nthreads) * kV) = acc[u].w;
      }
    }
    for (; v < nv; v += nthreads) {
      U acc, o;
      acc.w = *reinterpret_cast<const int4*>(peerPtr(h, src + b, t.pe(0)) + v * kV);
      for (int m = 1; m < n; ++m) {
        o.w = *reinterpret_cast<const int4*>(peerPtr(h, src + b, t.pe(m)) + v * kV);
#pragma unroll
        for (int k = 0; k < kV; ++k) acc.x[k] = reduce2<Op, T>(acc.x[k], o.x[k]);
      }
      for (int k = 0; k < (dst_all ? n : 1); ++k)
        *reinterpret_cast<int4*>((dst_all ? peerPtr(h, dst, t.pe((t.my_index + k) % n)) : dst) + v * kV) = acc.w;
    }
    i = b + nv * kV;
  }
  for (size_t j = i + tid; j < e; j += nthreads) {
    T acc = *(peerPtr(h, src, t.pe(0)) + j);
    for (int m = 1; m < n; ++m) acc = reduce2<Op, T>(acc, *(peerPtr(h, src, t.pe(m)) + j));
    if (dst_all) {
      for (int k = 0; k < n; ++k) *(peerPtr(h, dst, t.pe((t.my_index + k) % n)) + (j - b)) = acc;
    } else {
      dst[j - b] = acc;
    }
  }
}

/// Copy n bytes from this PE's `src` to `dst` in PE pe (any PE; this one included), group scope S, split over
/// `part` of `parts` groups.
template <int S>
GSHMEM_DEVICE_INLINE void pushPart(const DeviceHandle& h, void* dst, const void* src, size_t n, int pe, size_t part,
                                   size_t parts) {
  size_t b, e;
  ownedPart((n + 15) / 16, static_cast<int>(parts), static_cast<int>(part), &b, &e);
  b *= 16;
  e = e * 16 < n ? e * 16 : n;
  if (b >= e) return;
  copy<S>(peerPtr(h, static_cast<char*>(dst) + b, pe), static_cast<const char*>(src) + b, e - b);
}

}  // namespace detail

// ------------------------------------------------------------------------------------------ the data phases
// Each is what one group does between the entry and exit barriers, on team t (members are team indices, world PEs
// come from t.pe); `part` of `parts` splits the work over groups (the device API passes 0 of 1).

/// Allreduce (reduce on a team): dest = op over members of source, nreduce items, in every member.
template <int S, int Op, typename T>
GSHMEM_DEVICE_INLINE void reducePhase(const DeviceHandle& h, const DeviceTeam& t, T* dest, const T* source,
                                      size_t nreduce, size_t part, size_t parts) {
  size_t b, e, pb, pe_;
  detail::ownedPart(nreduce, t.size, t.my_index, &b, &e);
  detail::ownedPart(e - b, static_cast<int>(parts), static_cast<int>(part), &pb, &pe_);
  detail::reduceItems<S, Op, T>(h, t, dest + b + pb, true, source, b + pb, b + pe_, detail::groupRank<S>(),
                                detail::groupSize<S>());
}

/// Reducescatter: dest (nreduce items) in member m = op over members of source[m * nreduce, (m + 1) * nreduce).
template <int S, int Op, typename T>
GSHMEM_DEVICE_INLINE void reducescatterPhase(const DeviceHandle& h, const DeviceTeam& t, T* dest, const T* source,
                                             size_t nreduce, size_t part, size_t parts) {
  size_t pb, pe_;
  detail::ownedPart(nreduce, static_cast<int>(parts), static_cast<int>(part), &pb, &pe_);
  const size_t b = static_cast<size_t>(t.my_index) * nreduce;
  detail::reduceItems<S, Op, T>(h, t, dest + pb, false, source, b + pb, b + pe_, detail::groupRank<S>(),
                                detail::groupSize<S>());
}

/// Broadcast: member root's source (n bytes) into every member's dest; the root's own dest too, as NVSHMEM does.
template <int S>
GSHMEM_DEVICE_INLINE void broadcastPhase(const DeviceHandle& h, const DeviceTeam& t, void* dest, const void* source,
                                         size_t n, int root, size_t part, size_t parts) {
  if (t.my_index != root) return;
  // Groups start at different destinations, so the root's local copy overlaps the copies over the links.
  for (int k = 0; k < t.size; ++k)
    detail::pushPart<S>(h, dest, source, n, t.pe((root + 1 + k + static_cast<int>(part)) % t.size), part, parts);
}

/// Fcollect: each member's source (n bytes) at offset my_index * n of every member's dest.
template <int S>
GSHMEM_DEVICE_INLINE void fcollectPhase(const DeviceHandle& h, const DeviceTeam& t, void* dest, const void* source,
                                        size_t n, size_t part, size_t parts) {
  char* d = static_cast<char*>(dest) + static_cast<size_t>(t.my_index) * n;
  for (int k = 0; k < t.size; ++k)
    detail::pushPart<S>(h, d, source, n, t.pe((t.my_index + 1 + k + static_cast<int>(part)) % t.size), part, parts);
}

/// Alltoall: block m of this member's source (n bytes each) to block my_index of member m's dest.
template <int S>
GSHMEM_DEVICE_INLINE void alltoallPhase(const DeviceHandle& h, const DeviceTeam& t, void* dest, const void* source,
                                        size_t n, size_t part, size_t parts) {
  for (int k = 0; k < t.size; ++k) {
    const int m = (t.my_index + 1 + k + static_cast<int>(part)) % t.size;
    detail::pushPart<S>(h, static_cast<char*>(dest) + static_cast<size_t>(t.my_index) * n,
                        static_cast<const char*>(source) + static_cast<size_t>(m) * n, n, t.pe(m), part, parts);
  }
}

// ------------------------------------------------------------------------------------------ one-round exchanges
// The stream forms' path when a PE's contribution to each PE fits a scratch slot (deviceCollSlotBytes): every PE
// copies its contribution for PE q into slot [epoch parity][my_pe] of q's scratch, announces the epoch in q's flag
// [part][my_pe], waits for every source's flag of its part, then finishes from its own scratch into dest: one round
// instead of two barriers, and dest is written only by its owner, so it may alias source. Epochs come from the
// host, one per call, the same sequence on every PE. Reuse: a PE writes parity e & 1 again at e + 2 only, after
// every PE's flag of e + 1 for the same part arrived, and each PE's stream finished call e before e + 1 started.
enum CollKind : int { kCollReduce = 0, kCollReducescatter, kCollBroadcast, kCollFcollect, kCollAlltoall };

namespace detail {
GSHMEM_DEVICE_INLINE unsigned long long* collFlag(const DeviceHandle& h, int pe, size_t part, int src) {
  char* a = h.heap_base + h.sync_offset + deviceCollFlagsOffset(h.n_pes);
  return reinterpret_cast<unsigned long long*>(peerPtr(h, a, pe)) + part * h.n_pes + src;
}
GSHMEM_DEVICE_INLINE char* collSlot(const DeviceHandle& h, int pe, uint64_t epoch, int src) {
  char* a = h.heap_base + h.sync_offset + deviceCollScratchOffset(h.n_pes);
  return peerPtr(h, a, pe) + ((epoch & 1) * h.n_pes + src) * deviceCollSlotBytes(h.n_pes);
}
/// Announce `epoch` for `part` to every PE, then wait until every PE announced it here. Group scope S.
template <int S>
GSHMEM_DEVICE_INLINE void collRound(const DeviceHandle& h, uint64_t epoch, size_t part) {
  groupSync<S>();  // the group's copies precede the release below (it is cumulative)
  if (groupRank<S>() == 0) {
    for (int k = 1; k <= h.n_pes; ++k) stReleaseSys(collFlag(h, (h.my_pe + k) % h.n_pes, part, h.my_pe), epoch);
    for (int q = 0; q < h.n_pes; ++q)
      while (ldAcquire(collFlag(h, h.my_pe, part, q)) < epoch) {
      }
  }
  groupSync<S>();
}
/// dst[0, bytes) = op over the n slots (slot q at slot0 + q * stride) of the same range. Local memory only.
template <int Op, typename T>
GSHMEM_DEVICE_INLINE void reduceSlots(T* dst, const char* slot0, size_t stride, int n, size_t bytes, size_t tid,
                                      size_t nt) {
  constexpr int kV = 16 / sizeof(T);
  union U { int4 w; T x[kV]; };
  size_t done = 0;
  if (((reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(slot0) | stride) & 15) == 0) {
    for (size_t v = tid; v < bytes / 16; v += nt) {
      U acc, o;
      acc.w = reinterpret_cast<const int4*>(slot0)[v];
      for (int q = 1; q < n; ++q) {
        o.w = reinterpret_cast<const int4*>(slot0 + q * stride)[v];
#pragma unroll
        for (int k = 0; k < kV; ++k) acc.x[k] = reduce2<Op, T>(acc.x[k], o.x[k]);
      }
      reinterpret_cast<int4*>(dst)[v] = acc.w;
    }
    done = bytes / 16 * 16;
  }
  for (size_t i = done / sizeof(T) + tid; i < bytes / sizeof(T); i += nt) {
    T acc = reinterpret_cast<const T*>(slot0)[i];
    for (int q = 1; q < n; ++q) acc = reduce2<Op, T>(acc, reinterpret_cast<const T*>(slot0 + q * stride)[i]);
    dst[i] = acc;
  }
}
}  // namespace detail

/// One part of a one-round exchange of `kind`: `c` bytes from this PE to each PE (a reduction's c is a multiple of
/// sizeof(T); its operator and type are Op and T, unused otherwise). Parts split c in 16-byte units. Reducescatter
/// and alltoall take PE q's bytes from source + q * c.
template <int S, int Op, typename T>
GSHMEM_DEVICE_INLINE void exchangePart(const DeviceHandle& h, int kind, uint64_t epoch, void* dest,
                                       const void* source, size_t c, int root, size_t part,
                                       size_t parts) {
  size_t b, e;
  detail::ownedPart((c + 15) / 16, static_cast<int>(parts), static_cast<int>(part), &b, &e);
  b *= 16;
  e = e * 16 < c ? e * 16 : c;
  if (b > e) b = e;
  const int n = h.n_pes, me = h.my_pe;
  const char* src = static_cast<const char*>(source);
  if (kind != kCollBroadcast || me == root) {
    for (int k = 1; k <= n && b < e; ++k) {
      const int q = (me + k + static_cast<int>(part)) % n;
      const bool per_pe = kind == kCollReducescatter || kind == kCollAlltoall;
      const size_t from = per_pe ? static_cast<size_t>(q) * c : 0;
      detail::copy<S>(detail::collSlot(h, q, epoch, me) + b, src + from + b, e - b);
    }
  }
  detail::collRound<S>(h, epoch, part);
  if (b >= e) return;
  const size_t stride = deviceCollSlotBytes(n);
  const char* mine = detail::collSlot(h, me, epoch, 0);
  char* d = static_cast<char*>(dest);
  const size_t tid = detail::groupRank<S>(), nt = detail::groupSize<S>();
  if (kind == kCollReduce || kind == kCollReducescatter) {
    detail::reduceSlots<Op, T>(reinterpret_cast<T*>(d + b), mine + b, stride, n, e - b, tid, nt);
  } else if (kind == kCollBroadcast) {
    detail::copy<S>(d + b, mine + root * stride + b, e - b);
  } else {
    for (int q = 0; q < n; ++q) detail::copy<S>(d + q * c + b, mine + q * stride + b, e - b);
  }
}

// ------------------------------------------------------------------------------------------ device collectives
// One group per member. On the world the barrier inside is the device barrier (barrierAll), shared with the
// host-stream barriers; on another team it is the team's barrier (teamBarrierGroup), shared with that team's stream
// forms. The world's view needs no table read.

template <int S>
GSHMEM_DEVICE_INLINE void teamBarrier(const DeviceHandle& h, gshmem_team_t team, bool do_quiet) {
  const DeviceTeam t = detail::collTeam(h, team, do_quiet ? "gshmem_barrier" : "gshmem_team_sync", false);
  teamBarrierGroup<S>(h, t, team, do_quiet);
}

template <int S, int Op, typename T>
GSHMEM_DEVICE_INLINE int reduce(const DeviceHandle& h, gshmem_team_t team, T* dest, const T* source, size_t n) {
  const DeviceTeam t = detail::collTeam(h, team, "gshmem_reduce", true);
  teamBarrierGroup<S>(h, t, team, false);
  reducePhase<S, Op, T>(h, t, dest, source, n, 0, 1);
  teamBarrierGroup<S>(h, t, team, false);
  return 0;
}
template <int S, int Op, typename T>
GSHMEM_DEVICE_INLINE int reducescatter(const DeviceHandle& h, gshmem_team_t team, T* dest, const T* source,
                                       size_t n) {
  const DeviceTeam t = detail::collTeam(h, team, "gshmem_reducescatter", true);
  teamBarrierGroup<S>(h, t, team, false);
  reducescatterPhase<S, Op, T>(h, t, dest, source, n, 0, 1);
  teamBarrierGroup<S>(h, t, team, false);
  return 0;
}
// The device-initiated broadcast, fcollect and alltoall push their data and hand it over with flags instead of two
// barriers. Each call on a team takes the next number e of this PE's counter for the team (every member calls the
// same collectives on it in the same order, so every member numbers a call alike). A member that will receive
// data release-stores e into each sender's "ready" word for it (its dest is free: it finished call e - 1 and
// entered e); a sender waits for the receiver's ready word, copies, and release-stores e into the receiver's
// "data" word for it; a receiver returns when every sender's data word here reached e. A receiver's ready of e + 1
// follows its return from e, so no sender writes a dest still in use; values only grow, so old words never pass.
namespace detail {
GSHMEM_DEVICE_INLINE unsigned long long* moverWord(const DeviceHandle& h, uint64_t off, gshmem_team_t team,
                                                   int index, int pe) {
  char* a = h.heap_base + h.sync_offset + off;
  return peerPtr(h, reinterpret_cast<unsigned long long*>(a) + static_cast<size_t>(team) * h.n_pes + index, pe);
}
/// The next call number of this PE on @p team (lead thread).
GSHMEM_DEVICE_INLINE unsigned long long moverNext(const DeviceHandle& h, gshmem_team_t team) {
  unsigned long long* c =
      reinterpret_cast<unsigned long long*>(h.heap_base + h.sync_offset + deviceMoverSeqOffset(h.n_pes)) + team;
  return ++*c;
}
/// Call e of a push collective on team t: member m gets `n` bytes from `src(m)` at `dst(m)` (offsets into dest and
/// source) from every sender, senders are every member (root < 0) or the root alone. Group scope S.
template <int S, class Dst, class Src>
GSHMEM_DEVICE_INLINE void moverCall(const DeviceHandle& h, const DeviceTeam& t, gshmem_team_t team, char* dest,
                                    const char* source, size_t n, int root, Dst dst, Src src) {
  const bool lead = groupRank<S>() == 0, sends = root < 0 || t.my_index == root;
  const uint64_t ready = deviceMoverReadyOffset(h.n_pes), data = deviceMoverDataOffset(h.n_pes);
  unsigned long long e = 0;
  if (lead) {
    e = moverNext(h, team);
    for (int k = 1; k < t.size; ++k) {  // this PE's dest is free: tell every member that sends to it
      const int m = (t.my_index + k) % t.size;
      if (root < 0 || m == root) stReleaseSys(moverWord(h, ready, team, t.my_index, t.pe(m)), e);
    }
  }
  for (int k = 1; sends && k <= t.size; ++k) {  // the peers first, this PE's own part last
    const int m = (t.my_index + k) % t.size;
    if (m != t.my_index && lead) waitAtLeast(moverWord(h, ready, team, m, h.my_pe), e);
    groupSync<S>();
    copy<S>(peerPtr(h, dest + dst(m), t.pe(m)), source + src(m), n);
    groupSync<S>();  // the group's stores precede the release below (it is cumulative)
    if (m != t.my_index && lead) stReleaseSys(moverWord(h, data, team, t.my_index, t.pe(m)), e);
  }
  if (lead)
    for (int m = 0; m < t.size; ++m)
      if (m != t.my_index && (root < 0 || m == root)) waitAtLeast(moverWord(h, data, team, m, h.my_pe), e);
  groupSync<S>();
}
}  // namespace detail

template <int S>
GSHMEM_DEVICE_INLINE int broadcastmem(const DeviceHandle& h, gshmem_team_t team, void* dest, const void* source,
                                      size_t n, int root) {
  const DeviceTeam t = detail::collTeam(h, team, "gshmem_broadcast", true);
  if (static_cast<unsigned>(root) >= static_cast<unsigned>(t.size)) {
    printf("gshmem: PE %d: gshmem_broadcast: root %d is not a PE of the team (0..%d)\n", h.my_pe, root, t.size - 1);
    __trap();
  }
  detail::moverCall<S>(h, t, team, static_cast<char*>(dest), static_cast<const char*>(source), n, root,
                       [](int) { return size_t(0); }, [](int) { return size_t(0); });
  return 0;
}
template <int S>
GSHMEM_DEVICE_INLINE int fcollectmem(const DeviceHandle& h, gshmem_team_t team, void* dest, const void* source,
                                     size_t n) {
  const DeviceTeam t = detail::collTeam(h, team, "gshmem_fcollect", true);
  const size_t mine = static_cast<size_t>(t.my_index) * n;
  detail::moverCall<S>(h, t, team, static_cast<char*>(dest), static_cast<const char*>(source), n, -1,
                       [mine](int) { return mine; }, [](int) { return size_t(0); });
  return 0;
}
template <int S>
GSHMEM_DEVICE_INLINE int alltoallmem(const DeviceHandle& h, gshmem_team_t team, void* dest, const void* source,
                                     size_t n) {
  const DeviceTeam t = detail::collTeam(h, team, "gshmem_alltoall", true);
  const size_t mine = static_cast<size_t>(t.my_index) * n;
  detail::moverCall<S>(h, t, team, static_cast<char*>(dest), static_cast<const char*>(source), n, -1,
                       [mine](int) { return mine; }, [n](int m) { return static_cast<size_t>(m) * n; });
  return 0;
}

}  // namespace dev
}  // namespace gshmem
