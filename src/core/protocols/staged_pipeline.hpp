// PROTO (issue 6): the staged pipeline: host-initiated puts and gets of device memory to a peer on the same node
// without P2P (or when the selector prefers it), through pinned host bounce buffers shared by the two processes.
//
// Layout: every PE creates one memfd segment, mapped by every PE of the node through the shared-memory transport
// and registered with cudaHostRegister by the processes that DMA into it (so both GPUs copy to/from it directly).
// The segment of target t holds one channel per sender s: a control page (request + two counters, one cache line
// each) and DEPTH slots of CHUNK bytes (GSHMEM_STAGED_DEPTH / GSHMEM_STAGED_CHUNK).
//
// A transfer is a run of chunks with global indices first..first+k-1 (the counters never reset); chunk g lives in
// slot g % DEPTH. The producer copies chunk g device->slot when g < consumed + DEPTH (slot free), records an event
// and publishes produced = g+1 once the event completed, in order; the consumer copies slot->device when
// g < produced and publishes consumed = g+1 when its copy completed. Both sides issue copies ahead on their own
// non-blocking stream (never the legacy default stream, never a synchronous cudaMemcpy), so D2H of chunk g+1
// overlaps H2D of chunk g on the other GPU. put: the initiator produces, the target consumes; get: the reverse.
//
// Who performs the peer GPU's copy: a server thread per PE (started here, beside the device proxy), which polls
// its channels and runs the target side of each request with its own GPU. The alternative, the initiator driving
// the peer GPU through an IPC mapping, needs a second CUDA context on the peer's GPU in every process and an IPC
// mapping, which is exactly what is missing when P2P is off; the peer's own thread needs neither, and its copies
// run on the peer's copy engine over the peer's PCIe link, which is what makes the two halves overlap.
// The server never initiates, so a request can always be served (no cycle between servers).
#pragma once
#include <cstddef>
#include <cstdint>

struct CUstream_st;

namespace gshmem::protocols {

/// Collective. @p heap_base: this PE's device heap; @p device: its CUDA device. Every PE of the node takes part.
void stagedInit(const char* call, int device, char* heap_base);
void stagedFinalize();
bool stagedReady();

/// Put @p n bytes from local @p src (device or host) to offset @p off of @p pe's device heap; after earlier work
/// on @p user_stream (may be null: no ordering). Returns when the data is in the peer's heap.
void stagedPut(const char* call, int pe, std::size_t off, const void* src, std::size_t n, CUstream_st* user_stream);
/// Get @p n bytes from offset @p off of @p pe's device heap into local @p dst. Returns when @p dst holds them.
void stagedGet(const char* call, int pe, std::size_t off, void* dst, std::size_t n, CUstream_st* user_stream);

}  // namespace gshmem::protocols
