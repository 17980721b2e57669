// The pipelined push all-reduce of the stream collectives (reduce on the world) whose size exceeds a scratch slot.
// Each destination PE q owns a balanced share of the items (ownedPart). Block p of every PE streams its 1/parts share
// of q's range into its piece of q's slot (parity epoch & 1, source = this PE) in sub-chunks, two in flight:
//   step k, as sender:   for each peer q: wait until q acknowledged sub-chunk k - 2 (ack word [p][q] here), copy
//                        sub-chunk k of q's range into sub-slot k % 2, group sync, release-store the chunk flag
//                        [p][me] in q;
//   step k, as receiver: wait for every peer's chunk flag [p][s] here, reduce own source + the peers' sub-slots into
//                        every PE's dest (the all-gather is pushed too), group sync, store the ack [p][me] in each
//                        peer.
// Only writes cross the links. Flag and ack values are epoch << 24 | (k + 1): monotonic across calls, so old words
// never pass a wait. Reuse follows the one-round exchange's epoch-parity rule: the call uses only parity epoch & 1,
// and every PE's range is not empty (the host uses this path for parts above a slot only), so each PE's kernel
// finishes only after every peer started the same call. A barrier follows the kernel (other PEs write this PE's
// dest). dest may alias source.
#pragma once
#include <cstdint>

namespace gshmem {
namespace dev {
namespace detail {

GSHMEM_DEVICE_INLINE unsigned long long pipeValue(uint64_t epoch, size_t k) { return epoch << 24 | (k + 1); }
GSHMEM_DEVICE_INLINE unsigned long long* pipeWord(const DeviceHandle& h, uint64_t off, int pe, size_t part, int q) {
  char* a = h.heap_base + h.sync_offset + off;
  return reinterpret_cast<unsigned long long*>(peerPtr(h, a, pe)) + part * h.n_pes + q;
}

/// Items of q's range: its first item and count (the same on every PE).
GSHMEM_DEVICE_INLINE void pipeRange(size_t nreduce, int n, int q, size_t* base, size_t* count) {
  size_t e;
  ownedPart(nreduce, n, q, base, &e);
  *count = e - *base;
}
/// Part p's share [b, e) of a range of `count` items of `isz` bytes: whole 16-byte units.
GSHMEM_DEVICE_INLINE void pipeShare(size_t count, size_t isz, size_t part, size_t parts, size_t* b, size_t* e) {
  const size_t per = 16 / isz;
  size_t ub, ue;
  ownedPart((count + per - 1) / per, static_cast<int>(parts), static_cast<int>(part), &ub, &ue);
  *b = ub * per < count ? ub * per : count;
  *e = ue * per < count ? ue * per : count;
}

/// dst[j] = own[j] op slot_s[j] for every peer s (slots at slot0 + s * stride; own PE skipped), j < m, into every
/// PE's dst.
template <int S, int Op, typename T>
GSHMEM_DEVICE_INLINE void pipeReduce(const DeviceHandle& h, T* dst, const T* own, const char* slot0, size_t stride,
                                     size_t m) {
  const int n = h.n_pes, me = h.my_pe;
  const size_t tid = groupRank<S>(), nt = groupSize<S>();
  constexpr int kV = 16 / sizeof(T);
  union U { int4 w; T x[kV]; };
  size_t done = 0;
  if (((reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(own)) & 15) == 0) {
    for (size_t v = tid; v < m / kV; v += nt) {
      U acc, o;
      acc.w = reinterpret_cast<const int4*>(own)[v];
      for (int s = 0; s < n; ++s) {
        if (s == me) continue;
        o.w = reinterpret_cast<const int4*>(slot0 + s * stride)[v];
#pragma unroll
        for (int k = 0; k < kV; ++k) acc.x[k] = reduce2<Op, T>(acc.x[k], o.x[k]);
      }
      for (int k = 0; k < n; ++k) reinterpret_cast<int4*>(peerPtr(h, dst, (me + k) % n))[v] = acc.w;
    }
    done = m / kV * kV;
  }
  for (size_t j = done + tid; j < m; j += nt) {
    T acc = own[j];
    for (int s = 0; s < n; ++s)
      if (s != me) acc = reduce2<Op, T>(acc, reinterpret_cast<const T*>(slot0 + s * stride)[j]);
    for (int k = 0; k < n; ++k) peerPtr(h, dst, (me + k) % n)[j] = acc;
  }
}

}  // namespace detail

/// Part `part` of `parts` of a pipelined all-reduce of nreduce items. Group scope S, one group per part.
template <int S, int Op, typename T>
GSHMEM_DEVICE_INLINE void pipeReducePart(const DeviceHandle& h, uint64_t epoch, T* dest, const T* source,
                                         size_t nreduce, size_t part, size_t parts) {
  const int n = h.n_pes, me = h.my_pe;
  const size_t stride = deviceCollSlotBytes(n);
  const size_t sub = (stride / parts / 2) & ~size_t(255);  // bytes of one sub-slot
  const size_t ci = sub / sizeof(T);                       // items per sub-chunk
  const uint64_t flags = deviceCollChunkFlagsOffset(n), acks = deviceCollAcksOffset(n);
  const bool lead = detail::groupRank<S>() == 0;
  size_t mbase, mcount, mb, me_;
  detail::pipeRange(nreduce, n, me, &mbase, &mcount);
  detail::pipeShare(mcount, sizeof(T), part, parts, &mb, &me_);
  size_t steps = (me_ - mb + ci - 1) / ci;
  for (int q = 0; q < n; ++q) {
    size_t qbase, qcount, qb, qe;
    detail::pipeRange(nreduce, n, q, &qbase, &qcount);
    detail::pipeShare(qcount, sizeof(T), part, parts, &qb, &qe);
    const size_t nk = (qe - qb + ci - 1) / ci;
    steps = nk > steps ? nk : steps;
  }
  for (size_t k = 0; k < steps; ++k) {
    for (int i = 1; i < n; ++i) {  // send sub-chunk k of each peer's range
      const int q = (me + i) % n;
      size_t qbase, qcount, qb, qe;
      detail::pipeRange(nreduce, n, q, &qbase, &qcount);
      detail::pipeShare(qcount, sizeof(T), part, parts, &qb, &qe);
      if (qb + k * ci >= qe) continue;
      const size_t m = qe - qb - k * ci < ci ? qe - qb - k * ci : ci;
      if (k >= 2 && lead) detail::waitAtLeast(detail::pipeWord(h, acks, me, part, q), detail::pipeValue(epoch, k - 2));
      detail::groupSync<S>();
      char* to = detail::collSlot(h, q, epoch, me) + part * 2 * sub + (k & 1) * sub;
      detail::copy<S>(to, source + qbase + qb + k * ci, m * sizeof(T));
      detail::groupSync<S>();  // the group's copies precede the release below (it is cumulative)
      if (lead) detail::stReleaseSys(detail::pipeWord(h, flags, q, part, me), detail::pipeValue(epoch, k));
    }
    if (mb + k * ci >= me_) continue;
    const size_t m = me_ - mb - k * ci < ci ? me_ - mb - k * ci : ci;
    if (lead)
      for (int s = 0; s < n; ++s)
        if (s != me) detail::waitAtLeast(detail::pipeWord(h, flags, me, part, s), detail::pipeValue(epoch, k));
    detail::groupSync<S>();
    const size_t first = mbase + mb + k * ci;
    const char* slot0 = detail::collSlot(h, me, epoch, 0) + part * 2 * sub + (k & 1) * sub;
    detail::pipeReduce<S, Op, T>(h, dest + first, source + first, slot0, stride, m);
    detail::groupSync<S>();  // every read of the sub-slots is done before the acks free them
    if (lead)
      for (int s = 0; s < n; ++s)
        if (s != me) detail::stReleaseSys(detail::pipeWord(h, acks, s, part, me), detail::pipeValue(epoch, k));
  }
}

}  // namespace dev
}  // namespace gshmem
