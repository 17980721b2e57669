// The staged protocol over UCX: device memory of a peer that no device transport of the node reaches (another
// node, or every peer under GSHMEM_TRANSPORTS=ucx GSHMEM_P2P=0), moved through pinned host bounce buffers with UCX
// RMA, chunks in flight.
//
// Each PE has one pinned host segment, registered as the only region of a UCX transport instance of its own (the
// host heap's instance belongs to the application thread; this one is used by the staged threads under one lock,
// which makes it safe in UCX's single-threaded worker mode). For every peer y the segment holds a box of words
// written by y (request, pipeline counters, reply) and four slot rings: put data y sends here, get data y returns
// here, and the local bounce buffers of this PE's own puts to y and of its server's answers to y's gets. Every word
// is written by its producer into its consumer's segment (data, ucp fence, then the counter), so nobody polls
// across the network: a waiter reads its own memory and progresses the worker.
//
// A put: request; per chunk D2H into the local bounce, UCX put into the peer's put ring, fence, `produced`; the
// peer's server thread copies H2D into its heap and returns `consumed`; the server's reply completes the put. A
// get runs the same steps in the other direction; an atomic is a request whose reply carries the old value.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/select/protocol.hpp"
#include "transports/transport.hpp"

struct CUstream_st;

namespace gshmem::protocols {

struct StagedUcxConfig {
  int device = -1;
  char* heap = nullptr;
  std::size_t slot_bytes = std::size_t(2) << 20;
  int depth = 4;
  std::vector<bool> need;  ///< per PE: this PE reaches its device heap only through this protocol
};

/// Collective (every PE): when any PE needs the protocol, create the segment and the UCX instance and start the
/// server thread. Unsupported when some PE needs it and this build has no UCX.
Status stagedUcxInit(Bootstrap& bs, const StagedUcxConfig& cfg);
/// Collective.
void stagedUcxFinalize(Bootstrap& bs);
bool stagedUcxReaches(int pe);
Status stagedUcxTransfer(int pe, std::size_t off, void* local, std::size_t n, Direction d, CUstream_st* user_stream);
Status stagedUcxAmo(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond,
                    uint64_t* result);

}  // namespace gshmem::protocols
