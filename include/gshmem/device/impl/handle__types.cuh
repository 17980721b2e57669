// Layer 2 of the device API: the plain structs shared by the host runtime (compiled by g++) and device code.
// Everything here is trivially copyable and has a fixed layout: it crosses the host/device boundary as bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gshmem {

/// One 16-byte word of a proxy request. A request is two words: the header (written last; w0 != 0 marks it
/// valid) and the argument. Header w0 = op (8 bits) | target PE (24 bits) << 8 | aux (32 bits) << 32;
/// header w1 = byte offset in the target's device heap. Argument: see ProxyOp.
struct alignas(16) ProxyRequest {
  uint64_t w0;
  uint64_t w1;
};
static_assert(sizeof(ProxyRequest) == 16, "proxy requests are fixed 16-byte words");
static_assert(std::is_trivially_copyable<ProxyRequest>::value, "written by the GPU as raw stores");

enum ProxyOp : uint32_t {
  kProxyNone = 0,
  kProxyPut = 1,   ///< aux = bytes; arg.w0 = local source address (device or host, any UVA address)
  kProxyPutV = 2,  ///< aux = bytes (1..8); arg.w0 = the value's bytes
  kProxyGet = 3,   ///< aux = bytes; arg.w0 = local destination address
  kProxyGetV = 4,  ///< aux = bytes (1..8); the value lands in results[]
  kProxyAmo = 5,   ///< aux = AmoOp | operand size << 8; arg.w0 = value, arg.w1 = compare; result in results[]
};
constexpr int kProxyPeBits = 24;

/// The GPU -> proxy ring (one per GPU). Slots live in pinned host memory mapped into the GPU; each index is
/// written by its producer into the consumer's memory: GPU threads claim slots with an atomic on `head` (device
/// memory) and write the slots (host memory, read by the proxy); the proxy writes `done` (host memory, read by
/// the GPU) after retiring requests in order.
struct ProxyRing {
  ProxyRequest* slots = nullptr;          ///< nslots words (device address of the pinned mapping)
  unsigned long long* head = nullptr;     ///< device memory: words claimed so far
  unsigned long long* done = nullptr;     ///< pinned host: words retired so far (only the proxy writes it)
  unsigned long long* results = nullptr;  ///< pinned host: kProxyResults fetch results, by request number
  uint32_t nslots = 0;                    ///< power of two, even
};
constexpr uint32_t kProxyResults = 8192;  ///< results are indexed by (ticket / 2) % kProxyResults

/// Synchronization words at the same offset in every PE's device heap (after the user part).
struct DeviceSync {
  unsigned long long barrier_epoch;  ///< barriers this PE completed (only its own barrier caller writes it)
  unsigned long long pad[15];
  unsigned long long flags[1];       ///< [n_pes]: epoch announced by each PE
};

constexpr int kInlinePeers = 8;  ///< peer bases also held in the handle itself (constant/param space) for PE < 8

/// Everything a kernel needs, by value (STYLE.md rule 5): obtained on the host with gshmemx_device_handle_get()
/// or gshmem::deviceHandle(); also kept in a per-translation-unit __constant__ copy for the free functions.
struct DeviceHandle {
  int my_pe = -1;
  int n_pes = 0;
  char* heap_base = nullptr;          ///< this PE's device heap (device address)
  uint64_t heap_size = 0;             ///< user bytes of the heap (the DeviceSync area follows)
  char* const* peer_base = nullptr;   ///< device array [n_pes]: each PE's heap as mapped here, nullptr = proxy
  char* peer_base_inline[kInlinePeers] = {};  ///< peer_base[0..7] again: no global-memory load on the fast path
  DeviceSync* sync = nullptr;         ///< this PE's DeviceSync (device address)
  uint64_t sync_offset = 0;           ///< offset of DeviceSync in every heap
  ProxyRing ring;                     ///< ring.slots == nullptr when no peer needs the proxy
  /// Device-initiated putmem/getmem of at least ce_min[scope] bytes (scope: thread, warp, block) to a P2P-mapped
  /// peer go through the proxy thread's copy engine instead of SM loads/stores (GSHMEM_DEVICE_CE_MIN); such a call
  /// returns complete, nbi or not. UINT64_MAX: never.
  uint64_t ce_min[3] = {~0ull, ~0ull, ~0ull};
};
static_assert(std::is_trivially_copyable<DeviceHandle>::value, "DeviceHandle is passed to kernels by value");

}  // namespace gshmem
