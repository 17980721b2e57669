// The low-latency form of the stream collectives' one-round exchange (coll__funcs.cuh, "one-round exchanges"), for
// small contributions. Each 8-byte unit of a scratch slot carries 4 data bytes (low half) and the call's flag (high
// half), written with one system-scope store. A reader that sees the flag sees the data, so there is no fence
// before a flag, no flag word and no flag round: a PE pushes its units into its peers' slots and reads its own
// slot as the units arrive. The slot holds twice the data bytes.
//
// Contract, beyond the one-round exchange's (same slots, same epochs, same reuse rule):
//   * the flag of epoch e is 1 + (e mod 0xffffffff): never 0 (a zeroed slot), and different for e and e + 2, the
//     next call to use the same slot;
//   * a part sends and receives the same range of data (whole groups: max(4, sizeof(T)) bytes), with a group sync
//     between, so dest may alias source;
//   * every PE hears from every PE in each call (a broadcast's non-roots send the root a flag-only unit), so no PE
//     runs two calls ahead of another and overwrites a slot still to be read.
#pragma once
#include <cstdint>

namespace gshmem {
namespace dev {
namespace detail {

GSHMEM_DEVICE_INLINE uint32_t llFlag(uint64_t epoch) { return 1u + static_cast<uint32_t>(epoch % 0xffffffffull); }

/// The 4-byte word at p of which len (1..4) bytes are data; the rest is zero.
GSHMEM_DEVICE_INLINE uint32_t llGather(const unsigned char* p, size_t len) {
  if (len == 4 && (reinterpret_cast<uintptr_t>(p) & 3) == 0) return *reinterpret_cast<const uint32_t*>(p);
  uint32_t w = 0;
  for (size_t i = 0; i < len; ++i) w |= static_cast<uint32_t>(p[i]) << (8 * i);
  return w;
}
GSHMEM_DEVICE_INLINE void llScatter(unsigned char* p, uint32_t w, size_t len) {
  if (len == 4 && (reinterpret_cast<uintptr_t>(p) & 3) == 0) {
    *reinterpret_cast<uint32_t*>(p) = w;
    return;
  }
  for (size_t i = 0; i < len; ++i) p[i] = static_cast<unsigned char>(w >> (8 * i));
}
/// Wait until unit u of a slot holds `flag`; its data word.
GSHMEM_DEVICE_INLINE uint32_t llWait(const char* slot, size_t u, uint32_t flag) {
  const auto* p = reinterpret_cast<const unsigned long long*>(slot) + u;
  unsigned long long v;
  do {
    v = ldRelaxedSys(p);
  } while (static_cast<uint32_t>(v >> 32) != flag);
  return static_cast<uint32_t>(v);
}

}  // namespace detail

/// Bytes of one group of the low-latency exchange of T items: whole items, whole 4-byte units.
template <typename T>
GSHMEM_HOST_DEVICE constexpr size_t llGroupBytes() {
  return sizeof(T) > 4 ? sizeof(T) : 4;
}

/// One part of a low-latency exchange; the arguments are exchangePart's. 2c bytes must fit a slot.
template <int S, int Op, typename T>
GSHMEM_DEVICE_INLINE void exchangePartLL(const DeviceHandle& h, int kind, uint64_t epoch, void* dest,
                                         const void* source, size_t c, int root, size_t part,
                                         size_t parts) {
  constexpr size_t G = llGroupBytes<T>(), kU = G / 4;
  size_t gb, ge;
  detail::ownedPart((c + G - 1) / G, static_cast<int>(parts), static_cast<int>(part), &gb, &ge);
  const int n = h.n_pes, me = h.my_pe;
  const uint32_t flag = detail::llFlag(epoch);
  const size_t tid = detail::groupRank<S>(), nt = detail::groupSize<S>();
  const size_t ub = gb * kU, ue = ge * kU < (c + 3) / 4 ? ge * kU : (c + 3) / 4;  // this part's units
  const auto* src = static_cast<const unsigned char*>(source);
  const bool per_pe = kind == kCollReducescatter || kind == kCollAlltoall;
  if (kind != kCollBroadcast || me == root) {
    for (int k = 1; k <= n; ++k) {
      const int q = (me + k + static_cast<int>(part)) % n;
      const unsigned char* from = src + (per_pe ? static_cast<size_t>(q) * c : 0);
      auto* to = reinterpret_cast<unsigned long long*>(detail::collSlot(h, q, epoch, me));
      for (size_t u = ub + tid; u < ue; u += nt) {
        const size_t len = c - 4 * u < 4 ? c - 4 * u : 4;
        detail::stRelaxedSys(to + u, static_cast<unsigned long long>(flag) << 32 | detail::llGather(from + 4 * u, len));
      }
    }
  }
  // A broadcast's other PEs send the root a flag-only unit (part 0, unit 0 of their own slot there), and the root
  // waits for them: every PE's call ends only after every PE started it, which the reuse rule needs.
  const bool marks = kind == kCollBroadcast && part == 0 && detail::groupRank<S>() == 0;
  if (marks && me != root)
    detail::stRelaxedSys(reinterpret_cast<unsigned long long*>(detail::collSlot(h, root, epoch, me)),
                         static_cast<unsigned long long>(flag) << 32);
  if (marks && me == root)
    for (int q = 0; q < n; ++q)
      if (q != root) detail::llWait(detail::collSlot(h, me, epoch, q), 0, flag);
  detail::groupSync<S>();  // this part's sends read all of its source range before any of dest is written
  const size_t stride = deviceCollSlotBytes(n);
  const char* mine = detail::collSlot(h, me, epoch, 0);
  auto* d = static_cast<unsigned char*>(dest);
  if (kind == kCollReduce || kind == kCollReducescatter) {
    for (size_t g = gb + tid; g < ge; g += nt) {
      union Group { uint32_t w[kU]; T x[G / sizeof(T)]; };
      Group acc, o;
      for (size_t k = 0; k < kU; ++k) acc.w[k] = detail::llWait(mine, g * kU + k, flag);
      for (int q = 1; q < n; ++q) {
        for (size_t k = 0; k < kU; ++k) o.w[k] = detail::llWait(mine + q * stride, g * kU + k, flag);
        for (size_t k = 0; k < G / sizeof(T); ++k) acc.x[k] = detail::reduce2<Op, T>(acc.x[k], o.x[k]);
      }
      const size_t items = (c - g * G < G ? c - g * G : G) / sizeof(T);
      for (size_t k = 0; k < items; ++k) reinterpret_cast<T*>(d)[g * (G / sizeof(T)) + k] = acc.x[k];
    }
    return;
  }
  for (int q = 0; q < n; ++q) {
    if (kind == kCollBroadcast && q != root) continue;
    unsigned char* to = d + (kind == kCollBroadcast ? 0 : static_cast<size_t>(q) * c);
    for (size_t u = ub + tid; u < ue; u += nt) {
      const size_t len = c - 4 * u < 4 ? c - 4 * u : 4;
      detail::llScatter(to + 4 * u, detail::llWait(mine + q * stride, u, flag), len);
    }
  }
}

}  // namespace dev
}  // namespace gshmem
