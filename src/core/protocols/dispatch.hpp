// The one dispatch site for device-memory transfers. Every put, get and atomic on the device symmetric heap of a
// peer -- host-initiated (shmem_putmem on device memory, gshmemx_*_on_stream) and device-initiated (requests the
// device proxy executes) -- is deviceRma: choose() picks one protocol (the selector's table for host-initiated
// transfers), then the descriptor's run (core/select/protocol.hpp; bound here at init) moves the data:
//   direct  p2p_ce (copy engine) or p2p_sm (SM copy kernel) through the cuda_ipc transport's peer mapping;
//           atomics as a one-thread kernel on the peer pointer
//   staged  pinned host bounce buffers over the transport that reaches the peer: the shm request channel on the
//           node (staged_pipeline.hpp), UCX otherwise (staged_ucx.hpp); atomics are served by the peer's server
// GSHMEM_TRANSPORTS=ucx GSHMEM_P2P=0 makes every peer remote for device memory: no cuda_ipc mapping, no shm
// channel, everything staged over UCX (the GSHMEM_INFO path report says staged/ucx).
//
// Layering: core/device (heap, handle, kernels, the public device entry points, the proxy ring) uses
// core/protocols; core/protocols never includes core/device. The device heap is described to init() by value.
// Private to src/core. No CUDA types here: streams are CUstream_st*.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/select/protocol.hpp"
#include "transports/transport.hpp"

struct CUstream_st;

namespace gshmem::vmm {
class Range;
}

namespace gshmem::protocols {

/// This PE's device heap, as the device layer created it.
struct DeviceHeapDesc {
  int device = -1;        ///< CUDA device
  char* base = nullptr;   ///< base of the cudaMalloc (exported with CUDA IPC), or of the VMM range
  std::size_t bytes = 0;  ///< whole allocation or range
  bool p2p = true;        ///< GSHMEM_P2P: map peers' heaps where the GPUs can reach each other
  const vmm::Range* vmm = nullptr;  ///< the heap's VMM range (chunks shared by descriptor), nullptr: cudaMalloc
};

/// Collective, after the heap exists: connect the cuda_ipc transport and the shm request channel, start the
/// staged protocol's server thread, build the path tables. On error *err holds the one-line reason.
Status deviceInit(const DeviceHeapDesc& heap, std::string* err);
/// Collective, VMM heaps: every PE has mapped a new chunk [offset, offset + bytes) of its range; map the peers'.
Status deviceHeapGrow(std::size_t offset, std::size_t bytes, std::string* err);
/// VMM heaps: every PE is unmapping its chunk at @p offset; unmap the peers' chunks there (no access in flight).
void deviceHeapDrop(std::size_t offset);
/// Collective: stop the server, close mappings (every PE closes before any frees its heap: a barrier inside).
void deviceFinalize();

/// Device address of @p pe's heap as mapped here (this PE: its own base), nullptr when not mapped.
char* devicePeerBase(int pe);

/// Who initiates: the host API (the selector's table decides among the protocols that reach) or the device proxy
/// executing a GPU's request (the GPU asked for the copy engine, or the peer is not mapped).
enum class Initiator { Host, Proxy };

/// Move @p n bytes between local memory @p local (host or device) and offset @p off of @p pe's device heap (put:
/// local -> remote, get: remote -> local), ordered after earlier work on @p stream. With @p blocking the data has
/// arrived when it returns (the staged protocol always completes before it returns).
Status deviceRma(int pe, std::size_t off, void* local, std::size_t n, Direction d, CUstream_st* stream, bool blocking,
                 Initiator who);
/// Atomic @p op on the @p size-byte (4 or 8) word at offset @p off of @p pe's device heap; the old value in *result.
/// @p stream and @p pinned (8 bytes of pinned host memory) carry a direct atomic; both belong to the caller's
/// thread. Returns when applied.
Status deviceAmo(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond, CUstream_st* stream,
                 uint64_t* pinned, uint64_t* result);
/// Start a put of @p n bytes from @p local to offset @p off of @p pe's device heap followed by the non-fetching
/// atomic @p op on the word at @p amo_off there, as one request, where the route can apply both in order (the
/// staged protocol on the node). Returns once the source may be reused; devicePutAmoComplete(pe, *token) waits
/// until both are applied. Unsupported where the route cannot fuse them: the caller runs deviceRma, then deviceAmo.
Status devicePutAmoStart(int pe, std::size_t off, const void* local, std::size_t n, std::size_t amo_off, AmoOp op,
                         unsigned size, uint64_t value, uint64_t* token);
/// Wait until the request devicePutAmoStart started to @p pe as @p token (and every earlier one to it) is applied.
Status devicePutAmoComplete(int pe, uint64_t token);
/// Whether devicePutAmoStart fuses a put and an atomic to @p pe (fixed after initialisation).
bool deviceFusesPutAmo(int pe);

/// The protocol (and transport) that reaches @p pe's device heap, e.g. "p2p/cuda_ipc", "staged/shm", "none".
const char* deviceRoute(int pe);

}  // namespace gshmem::protocols
