// Layer 2 of the device API: the plain structs shared by the host runtime (compiled by g++) and device code.
// Everything here is trivially copyable and has a fixed layout: it crosses the host/device boundary as bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gshmem/device/macros.hpp"

// A team as device code names it (gshmem_team_t): an index into the teams the device knows (team_ids.h).
// GSHMEM_TEAM_WORLD (0) is every PE. (The host API's shmem_team_t is a host pointer, which kernels cannot compare
// against SHMEM_TEAM_WORLD.)
#include "gshmem/device/team_ids.h"

namespace gshmem {

/// One request of the GPU -> proxy ring: 16 bytes, one per operation. `header` is written last, with a
/// system-scope release store, and carries the slot's phase bit (bit 63): the lap parity of the ticket, flipped,
/// so a zeroed slot is never valid and a slot left from the previous lap is never taken for this one. The rest
/// of the header: op (4 bits) << 59 | aux (5 bits) << 54 | target PE (16 bits) << 38 | byte offset in the
/// target's device heap (38 bits). `value`: see ProxyOp. Requests that need a third word (a put/get's length,
/// a compare-and-swap's compare value) find it in ProxyRing::args at the slot's own index.
struct alignas(16) ProxyRequest {
  uint64_t value;
  uint64_t header;
};
static_assert(sizeof(ProxyRequest) == 16, "proxy requests are fixed 16-byte words");
static_assert(std::is_trivially_copyable<ProxyRequest>::value, "written by the GPU as raw stores");

enum ProxyOp : uint32_t {
  kProxyNone = 0,
  kProxyPut = 1,   ///< value = local source address (any UVA address); args[slot] = bytes
  kProxyPutV = 2,  ///< aux = bytes - 1 (1..8 bytes); value = the bytes
  kProxyGet = 3,   ///< value = local destination address; args[slot] = bytes
  kProxyGetV = 4,  ///< aux = bytes - 1; the value lands in results[]
  kProxyAmo = 5,   ///< aux = AmoOp | (operand size == 8) << 4; value = operand; args[slot] = compare (CAS only)
};
constexpr int kProxyPeBits = 16;
constexpr int kProxyOffsetBits = 38;  ///< device heaps up to 256 GiB are reachable through the proxy
constexpr uint64_t kProxyPhaseBit = uint64_t(1) << 63;

/// The header of a request without its phase bit.
GSHMEM_HOST_DEVICE constexpr uint64_t proxyHeader(uint32_t op, uint32_t aux, uint32_t pe, uint64_t off) {
  return static_cast<uint64_t>(op & 0xf) << 59 | static_cast<uint64_t>(aux & 0x1f) << 54 |
         static_cast<uint64_t>(pe & ((1u << kProxyPeBits) - 1)) << kProxyOffsetBits |
         (off & ((uint64_t(1) << kProxyOffsetBits) - 1));
}
/// The phase bit of ticket @p t in a ring of @p nslots (a power of two): set on even laps.
GSHMEM_HOST_DEVICE constexpr uint64_t proxyPhase(unsigned long long t, uint32_t nslots) {
  return (t & nslots) ? 0 : kProxyPhaseBit;
}
GSHMEM_HOST_DEVICE constexpr uint32_t proxyOpOf(uint64_t h) { return static_cast<uint32_t>(h >> 59) & 0xf; }
GSHMEM_HOST_DEVICE constexpr uint32_t proxyAuxOf(uint64_t h) { return static_cast<uint32_t>(h >> 54) & 0x1f; }
GSHMEM_HOST_DEVICE constexpr int proxyPeOf(uint64_t h) {
  return static_cast<int>((h >> kProxyOffsetBits) & ((1u << kProxyPeBits) - 1));
}
GSHMEM_HOST_DEVICE constexpr uint64_t proxyOffsetOf(uint64_t h) {
  return h & ((uint64_t(1) << kProxyOffsetBits) - 1);
}

/// The GPU -> proxy ring (one per GPU). Each counter is written by one side into the memory the other side reads
/// cheaply. GPU threads claim tickets with one atomic on `head` (device memory) and write slot ticket % nslots
/// (pinned host memory, read by the proxy). The proxy retires requests in order, in batches, and publishes the
/// count retired twice: in `done` (pinned host memory, polled by the GPU only to wait for completion: quiet,
/// blocking calls, fetch results) and, less often, in `seen` (device memory, a copy of `done` that may lag): a
/// producer reads `seen` to find room and reads `done` across the bus only when `seen` says the ring is full.
struct ProxyRing {
  ProxyRequest* slots = nullptr;          ///< nslots requests (device address of the pinned mapping)
  uint64_t* args = nullptr;               ///< nslots third words, same index as the slot (pinned, mapped)
  unsigned long long* head = nullptr;     ///< device memory: tickets claimed so far
  unsigned long long* seen = nullptr;     ///< device memory: a lagging copy of `done` (only the proxy writes it)
  unsigned long long* done = nullptr;     ///< pinned host: requests retired so far (only the proxy writes it)
  unsigned long long* results = nullptr;  ///< pinned host: kProxyResults fetch results, by ticket
  uint32_t nslots = 0;                    ///< power of two
};
constexpr uint32_t kProxyResults = 8192;  ///< results are indexed by ticket % kProxyResults (>= 2 * nslots)

/// Synchronization words at the same offset in every PE's device heap (after the user part).
struct DeviceSync {
  unsigned long long barrier_epoch;  ///< barriers this PE completed (only its own barrier caller writes it)
  unsigned long long pad[15];
  unsigned long long flags[1];       ///< [n_pes]: epoch announced by each PE
};

/// After DeviceSync's flags: the stream collectives' area, at the same offset in every heap. Flags [part][source PE]
/// (the epoch each source announced for that part of the data); the pipelined reductions' chunk flags and chunk
/// acknowledgements, each [part][PE]; then kCollScratchBytes of scratch: two buffers (epoch parity) of one slot per
/// source PE. Its size is fixed, so a slot shrinks as PEs are added.
constexpr uint32_t kCollPartsMax = 512;                         ///< blocks of one stream collective, at most
constexpr uint64_t kCollScratchBytes = uint64_t(16) << 20;
GSHMEM_HOST_DEVICE constexpr uint64_t deviceCollFlagsOffset(int n_pes) {
  return (sizeof(DeviceSync) + sizeof(unsigned long long) * n_pes + 255) & ~uint64_t(255);
}
/// Words of one [part][PE] array of the collectives' area.
GSHMEM_HOST_DEVICE constexpr uint64_t deviceCollArrayBytes(int n_pes) {
  return sizeof(unsigned long long) * kCollPartsMax * n_pes;
}
GSHMEM_HOST_DEVICE constexpr uint64_t deviceCollChunkFlagsOffset(int n_pes) {
  return deviceCollFlagsOffset(n_pes) + deviceCollArrayBytes(n_pes);
}
GSHMEM_HOST_DEVICE constexpr uint64_t deviceCollAcksOffset(int n_pes) {
  return deviceCollChunkFlagsOffset(n_pes) + deviceCollArrayBytes(n_pes);
}
GSHMEM_HOST_DEVICE constexpr uint64_t deviceCollScratchOffset(int n_pes) {
  return (deviceCollAcksOffset(n_pes) + deviceCollArrayBytes(n_pes) + 4095) & ~uint64_t(4095);
}
/// Bytes of one source PE's slot in one scratch buffer.
GSHMEM_HOST_DEVICE constexpr uint64_t deviceCollSlotBytes(int n_pes) {
  return (kCollScratchBytes / (2 * static_cast<uint64_t>(n_pes))) & ~uint64_t(255);
}

/// After the stream collectives' scratch: the synchronization words of the teams other than the world (which keeps
/// DeviceSync's), at the same offset in every heap: one epoch per team id (barriers this PE completed on it; only
/// this PE writes it), then flags [team id][member index] (the epoch each member announced). A team's row is
/// zeroed when the team is destroyed, so the next team with that id starts from zero on every member.
constexpr int kDeviceTeams = GSHMEMI_TEAM_IDS;
GSHMEM_HOST_DEVICE constexpr uint64_t deviceTeamSyncOffset(int n_pes) {
  return deviceCollScratchOffset(n_pes) + kCollScratchBytes;
}
GSHMEM_HOST_DEVICE constexpr uint64_t deviceTeamFlagsOffset(int n_pes) {
  return deviceTeamSyncOffset(n_pes) + sizeof(unsigned long long) * kDeviceTeams;
}
/// Then the words of the device-initiated broadcast, fcollect and alltoall (coll__funcs.cuh), for every team id,
/// the world's included: a call counter per id (this PE's calls of them on the team; only this PE writes it), then
/// rows [team id][member index] of "ready" words (the call a member entered: its dest is free) and of "data" words
/// (the call whose data a member has delivered here). Zeroed with the team's other rows.
GSHMEM_HOST_DEVICE constexpr uint64_t deviceMoverSeqOffset(int n_pes) {
  return deviceTeamFlagsOffset(n_pes) + sizeof(unsigned long long) * kDeviceTeams * n_pes;
}
GSHMEM_HOST_DEVICE constexpr uint64_t deviceMoverReadyOffset(int n_pes) {
  return deviceMoverSeqOffset(n_pes) + sizeof(unsigned long long) * kDeviceTeams;
}
GSHMEM_HOST_DEVICE constexpr uint64_t deviceMoverDataOffset(int n_pes) {
  return deviceMoverReadyOffset(n_pes) + sizeof(unsigned long long) * kDeviceTeams * n_pes;
}
/// The whole synchronization area that follows the user part of a device heap (a multiple of 4096).
GSHMEM_HOST_DEVICE constexpr uint64_t deviceSyncBytes(int n_pes) {
  return (deviceMoverDataOffset(n_pes) + sizeof(unsigned long long) * kDeviceTeams * n_pes + 4095) & ~uint64_t(4095);
}

/// A team as a collective sees it: member k is world PE start + k * stride (stride may be negative, or 0 when
/// size is 1), this PE is member my_index. size == 0: no team of this id has this PE as a member.
struct DeviceTeam {
  int start = 0;
  int stride = 1;
  int size = 0;
  int my_index = -1;
  GSHMEM_HOST_DEVICE constexpr int pe(int k) const { return start + k * stride; }
};
static_assert(sizeof(DeviceTeam) == 16 && std::is_trivially_copyable<DeviceTeam>::value, "copied to the GPU as bytes");

/// How a kernel reaches a peer's device heap: the device API picks one per operation at one place (onBackend() in
/// access__funcs.cuh). A peer mapped here is reached by SM loads/stores (direct), and by the copy engine
/// through the proxy thread for transfers of at least DeviceHandle::ce_min bytes; a peer not mapped here by the
/// backend DeviceHandle::peer_backend names: the proxy ring today. kBackendDirect and kBackendProxy are what
/// peer_backend holds; kBackendCopyEngine names the per-operation choice onBackend makes for a bulk transfer to a
/// mapped peer and is never stored there. kBackendNicDirect is the slot of a GPU-initiated NIC backend
/// (docs/ARCHITECTURE.md); nothing sets it yet, and a kernel that meets it traps with a message.
enum DeviceBackend : uint8_t {
  kBackendDirect = 0,
  kBackendCopyEngine = 1,
  kBackendProxy = 2,
  kBackendNicDirect = 3,
};

constexpr int kInlinePeers = 8;  ///< peer bases also held in the handle itself (constant/param space) for PE < 8

/// Everything a kernel needs, by value: obtained on the host with gshmemx_device_handle_get()
/// or gshmem::deviceHandle(); also kept in a per-translation-unit __constant__ copy for the free functions.
struct DeviceHandle {
  int my_pe = -1;
  int n_pes = 0;
  char* heap_base = nullptr;          ///< this PE's device heap (device address)
  uint64_t heap_size = 0;             ///< user bytes of the heap (the DeviceSync area follows)
  char* const* peer_base = nullptr;   ///< device array [n_pes]: each PE's heap as mapped here, nullptr = proxy
  char* peer_base_inline[kInlinePeers] = {};  ///< peer_base[0..7] again: no global-memory load on the fast path
  /// Device array [n_pes]: the DeviceBackend of each peer (kBackendDirect where peer_base is set, else the backend
  /// of its unmapped operations: kBackendProxy). Read only for peers that are not mapped.
  const uint8_t* peer_backend = nullptr;
  DeviceSync* sync = nullptr;         ///< this PE's DeviceSync (device address)
  uint64_t sync_offset = 0;           ///< offset of DeviceSync in every heap
  ProxyRing ring;                     ///< ring.slots == nullptr when no peer needs the proxy
  /// Device array [kDeviceTeams]: the team of each id as this PE sees it (DeviceTeam::size 0: not a member).
  /// Written by the host when a team is made or destroyed; a kernel launched after that call returns sees it.
  const DeviceTeam* teams = nullptr;
  /// Device-initiated putmem/getmem of at least ce_min[scope] bytes (scope: thread, warp, block) to a P2P-mapped
  /// peer go through the proxy thread's copy engine instead of SM loads/stores (GSHMEM_DEVICE_CE_MIN); such a call
  /// returns complete, nbi or not. UINT64_MAX: never.
  uint64_t ce_min[3] = {~0ull, ~0ull, ~0ull};
};
static_assert(std::is_trivially_copyable<DeviceHandle>::value, "DeviceHandle is passed to kernels by value");

}  // namespace gshmem
