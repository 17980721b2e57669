// Measurement functions of gshmem-calibrate, one table row per (protocol, memory pair).
//
// To calibrate a new protocol (copy engine on a mapped peer pointer, SM-store kernel, staged pipeline), add a
// row to measureTable() in measure.cpp: `available` says whether this run can use the protocol towards the peer,
// `setup`/`teardown` allocate what it needs (collective: every PE calls them in the same order), and `timeUs`
// times `iters` transfers on PE 0. Nothing else in the tool changes.
#pragma once

#include <cstddef>

#include "core/select/protocol.hpp"

namespace gshmem {
namespace calibrate {

/// What every measurement sees. Filled by the tool before the first setup.
struct Context {
  int me = 0;               ///< this PE
  int peer = 1;             ///< the PE measured against
  bool sameNode = true;     ///< the peer is on this node (in SHMEM_TEAM_SHARED)
  bool peerMapped = false;  ///< the peer's host heap is load/store-mapped here (shmem_ptr != NULL)
  size_t maxBytes = 0;      ///< the largest transfer that will be timed
  void* state = nullptr;    ///< the current row's private data (set by its setup)
};

/// One calibratable (protocol, memory pair). Functions are called on every PE unless noted.
struct MeasureEntry {
  ProtocolId proto;
  MemPair mem;
  /// Whether this run reaches the peer with this protocol. Must give the same answer on every PE.
  bool (*available)(const Context& c);
  /// Allocate buffers of c->maxBytes (collective). @return false on failure (the row is skipped everywhere).
  bool (*setup)(Context* c);
  /// Time @p iters transfers of @p bytes in direction @p d, each complete (put + quiet, or a blocking get),
  /// PE 0 only. @return the mean time of one transfer in µs.
  double (*timeUs)(Context* c, Direction d, size_t bytes, int iters);
  /// Free what setup allocated (collective).
  void (*teardown)(Context* c);
};

/// The rows, in the order they are measured.
const MeasureEntry* measureTable(size_t* count);

}  // namespace calibrate
}  // namespace gshmem
