// The staged protocol: device memory of a peer this GPU cannot map, moved through pinned host bounce buffers over
// the transport that reaches the peer (today the shm request channel on the node: transports/shm/shm_channel.hpp).
//
// A put is a pipeline of chunks: the initiator copies chunk g device->slot (D2H) while the target's server copies
// chunk g-1 slot->device (H2D) on the other GPU; a get runs the same pipeline in reverse; an atomic is one request
// whose reply carries the old value. Both sides issue copies ahead on their own non-blocking stream (never the
// legacy default stream, never a synchronous cudaMemcpy), one event per slot. The channel's segments are
// registered with cudaHostRegister by the processes that DMA into them, so both GPUs copy to/from them directly.
//
// Who performs the peer GPU's copy: a server thread per PE (started here), which polls its channels and runs the
// target side of each request with its own GPU; the peer needs no mapping of this GPU's memory (exactly what is
// missing when P2P is off), and its copies run on its own copy engine and PCIe link, which lets the halves overlap.
// The server never initiates, so a request can always be served (no cycle between servers, proxies or callers).
// Initiators: any thread (host calls, the device proxy); requests to one target are serialized by a per-target
// lock (the staged path moves at least one chunk or waits for a reply: a lock is not its cost).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/select/protocol.hpp"
#include "transports/shm/shm_channel.hpp"

struct CUstream_st;

namespace gshmem::protocols {

struct StagedConfig {
  int device = -1;            ///< this PE's CUDA device
  char* heap = nullptr;       ///< this PE's device heap (offsets in requests are relative to it)
  ShmChannel* channel = nullptr;
};

/// Collective (every PE, with or without peers on its node): pin the channel's buffers, create streams, start the
/// server thread.
Status stagedInit(Bootstrap& bs, const StagedConfig& cfg);
/// Collective: stop the server, release streams and registrations. The channel stays connected (its owner).
void stagedFinalize(Bootstrap& bs);
/// Whether the staged protocol reaches @p pe's device heap.
bool stagedReaches(int pe);
/// The transport under the staged protocol for @p pe ("shm"), for the GSHMEM_INFO path report.
const char* stagedVia(int pe);

/// Move @p n bytes between local memory @p local (device or host) and offset @p off of @p pe's device heap, after
/// earlier work on @p user_stream (may be null). Returns when the data has arrived (put: in the peer's heap; get:
/// in @p local).
Status stagedTransfer(int pe, std::size_t off, void* local, std::size_t n, Direction d, CUstream_st* user_stream);
/// Start a put of @p n bytes from @p src (device or host) to offset @p off of @p pe's device heap followed by the
/// non-fetching atomic @p op on the @p size-byte word at offset @p amo_off there, applied by the peer's server in
/// that order as one request (a put with signal costs one request, not two). Returns once the data has left
/// @p src (the source may be reused) and the request is queued at the peer; *seq names it for stagedComplete. Up
/// to ShmChannel::kQueue requests may be queued per peer: a start waits for room. Unsupported for a fetching
/// atomic, for n == 0 and for a PE the protocol does not reach.
Status stagedPutAmoStart(int pe, std::size_t off, const void* src, std::size_t n, std::size_t amo_off, AmoOp op,
                         unsigned size, uint64_t value, uint64_t* seq);
/// Wait until @p pe's server applied request @p seq (and every earlier one to it).
Status stagedComplete(int pe, uint64_t seq);
/// Atomic @p op on the @p size-byte word at offset @p off of @p pe's device heap, applied by the peer's server;
/// the old value in *result. Returns when applied.
Status stagedAmo(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond, uint64_t* result);

}  // namespace gshmem::protocols
