// What both staged protocols (staged_pipeline.cpp over the shm channel, staged_ucx.cpp over UCX) share: one side
// of a pipeline in this process (a non-blocking stream and one event per slot), the chunk pipeline itself (the
// producer's and the consumer's half over a ring of bounce slots), the requests, the server's atomic and idle
// policy, and the report of a request the server cannot serve. The protocols differ only in where a ring's slots
// and counters live and how a counter reaches the other side (a store into shared memory, or a UCX put). Private
// to src/core/protocols.
#pragma once
#include <cuda_runtime.h>
#include <unistd.h>

#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "base/cuda_check.hpp"
#include "base/log.hpp"
#include "base/status.hpp"
#include "core/protocols/kernels.hpp"
#include "core/protocols/service_thread.hpp"
#include "core/runtime/runtime.hpp"
#include "transports/shm/shm_channel.hpp"

namespace gshmem::protocols::staged {

constexpr int kMaxDepth = 16;
constexpr std::size_t kMinChunk = std::size_t(256) << 10;
/// Request codes of both staged protocols (ChannelRequest::op). kOpPutAmo (shm only) is a put followed by an
/// atomic on the same PE, applied by the server in that order: the put's fields as for kOpPut, the atomic's op and
/// size in aux as for kOpAmo, its operand in value and its offset in cond (no compare-and-swap).
enum : uint32_t { kOpPut = 1, kOpGet = 2, kOpAmo = 3, kOpPutAmo = 4 };

/// One side of a pipeline in this process: its stream and per-slot events.
struct Side {
  cudaStream_t stream = nullptr;
  cudaEvent_t ev[kMaxDepth] = {};
  cudaEvent_t user = nullptr;  ///< orders the side after the caller's stream
};

inline Status sideCreate(const char* who, Side* s, int depth) {
  cudaError_t e = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking);
  for (int i = 0; i < depth && e == cudaSuccess; ++i) e = cudaEventCreateWithFlags(&s->ev[i], cudaEventDisableTiming);
  if (e == cudaSuccess) e = cudaEventCreateWithFlags(&s->user, cudaEventDisableTiming);
  return e == cudaSuccess ? Status::Ok : cudaFailed(who, "creating a stream and its events", e);
}

inline void sideDestroy(Side* s, int depth) {
  if (!s->stream) return;
  cudaStreamSynchronize(s->stream);
  for (int i = 0; i < depth; ++i)
    if (s->ev[i]) cudaEventDestroy(s->ev[i]);
  if (s->user) cudaEventDestroy(s->user);
  cudaStreamDestroy(s->stream);
  *s = Side{};
}

/// Per peer: the initiator's lock and side (requests to that target) and the server's side (requests from it).
struct PeerSides {
  std::vector<std::unique_ptr<std::mutex>> lock;
  std::vector<Side> out, in;

  /// Sides for the @p n PEs that @p reaches(pe) says the protocol serves, @p depth events each.
  template <class Reaches>
  Status create(const char* who, int n, int depth, Reaches&& reaches) {
    lock.clear();
    for (int pe = 0; pe < n; ++pe) lock.push_back(std::make_unique<std::mutex>());
    out.assign(n, Side{});
    in.assign(n, Side{});
    for (int pe = 0; pe < n; ++pe)
      if (reaches(pe)) {
        GSHMEM_CHECK(sideCreate(who, &out[pe], depth));
        GSHMEM_CHECK(sideCreate(who, &in[pe], depth));
      }
    return Status::Ok;
  }
  void destroy(int depth) {
    for (Side& s : out) sideDestroy(&s, depth);
    for (Side& s : in) sideDestroy(&s, depth);
  }
};

/// Order the side's stream after the work issued so far on `user`. Null is the legacy default stream (an on-stream
/// call with stream 0, which the non-blocking side stream would not wait for otherwise), ordered the same way.
inline Status orderAfter(const char* who, Side& s, cudaStream_t user) {
  cudaError_t e = cudaEventRecord(s.user, user);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(s.stream, s.user, 0);
  return e == cudaSuccess ? Status::Ok : cudaFailed(who, "ordering after the caller's stream", e);
}

/// *yes = whether `e` completed; an error other than "not ready" is returned.
inline Status eventDone(const char* who, cudaEvent_t e, bool* yes) {
  cudaError_t r = cudaEventQuery(e);
  *yes = r == cudaSuccess;
  return r == cudaSuccess || r == cudaErrorNotReady ? Status::Ok : cudaFailed(who, "copy", r);
}

/// One idle poll of a wait on a peer: spin, then yield the core (PEs and their threads may outnumber cores).
/// @return false once the process is exiting (serviceExiting): the caller gives up with Status::RemoteError.
inline bool relax(long* idle) {
  if (++*idle > 4096) std::this_thread::yield();
  else GSHMEM_CPU_RELAX();
  return !serviceExiting();
}

/// One idle poll of a server thread with nothing to serve: spin, then yield, and after a long idle sleep 50 us at a
/// time (stops burning a core; adds at most 50 us to the first request after it).
inline void serverIdle(long* idle) {
  if (++*idle > 200000) usleep(50);
  else if (*idle > 4096) std::this_thread::yield();
  else GSHMEM_CPU_RELAX();
}

inline uint64_t chunksOf(std::size_t n, std::size_t chunk) { return (n + chunk - 1) / chunk; }
inline std::size_t chunkLen(std::size_t n, std::size_t chunk, uint64_t i) {
  const std::size_t o = i * chunk;
  return n - o < chunk ? n - o : chunk;
}

/// The request of a put or get of @p n bytes at offset @p off, in chunks of @p chunk numbered from *next on its
/// ring (*next moves past them).
inline ChannelRequest transferRequest(bool put, std::size_t off, std::size_t n, std::size_t chunk, uint64_t* next) {
  ChannelRequest r;
  r.op = put ? kOpPut : kOpGet;
  r.off = off;
  r.n = n;
  r.chunk = chunk;
  r.first = *next;
  *next += chunksOf(n, chunk);
  return r;
}

/// The request of a put (as transferRequest) followed by atomic @p op (not compare-and-swap) on the @p size-byte
/// word at offset @p amo_off.
inline ChannelRequest putAmoRequest(std::size_t off, std::size_t n, std::size_t chunk, uint64_t* next, AmoOp op,
                                    unsigned size, std::size_t amo_off, uint64_t value) {
  ChannelRequest r = transferRequest(true, off, n, chunk, next);
  r.op = kOpPutAmo;
  r.aux = static_cast<uint32_t>(op) | (size << 8);
  r.value = value;
  r.cond = amo_off;
  return r;
}

/// The request of atomic @p op on the @p size-byte word at offset @p off.
inline ChannelRequest amoRequest(AmoOp op, unsigned size, std::size_t off, uint64_t value, uint64_t cond) {
  ChannelRequest r;
  r.op = kOpAmo;
  r.aux = static_cast<uint32_t>(op) | (size << 8);
  r.off = off;
  r.value = value;
  r.cond = cond;
  return r;
}

/// Queue atomic @p aux (AmoOp | size << 8, as amoRequest packs it) with operand @p value and compare @p cond on
/// @p word on @p s's stream; the old value lands in *pinned once the stream reaches it (0 for a set, which is a
/// stream memory write, no kernel).
inline Status enqueueAmo(const char* who, Side& s, char* word, uint32_t aux, uint64_t value, uint64_t cond,
                         uint64_t* pinned) {
  if ((aux & 0xff) == static_cast<uint32_t>(AmoOp::Set)) {
    *pinned = 0;
    GSHMEM_CUDA_TRY(who, enqueueSet(word, aux >> 8, value, pinned, s.stream));
  } else {
    GSHMEM_CUDA_TRY(who, launchAmo(word, aux & 0xff, aux >> 8, value, cond, pinned, s.stream));
  }
  return Status::Ok;
}

/// The server's half of an atomic request: applied to @p heap on this GPU; the old value in *pinned.
inline Status serveAmo(const char* who, Side& s, char* heap, const ChannelRequest& r, uint64_t* pinned) {
  GSHMEM_CHECK(enqueueAmo(who, s, heap + r.off, r.aux, r.value, r.cond, pinned));
  GSHMEM_CUDA_TRY(who, cudaStreamSynchronize(s.stream));
  return Status::Ok;
}

/// A server thread cannot return a failure to the PE that sent the request: report it (this PE, the request, its
/// sender) and end the job. The CUDA or transport error was logged where it happened.
[[noreturn]] inline void serverFailed(const char* who, int sender, const ChannelRequest& r) {
  static const char* const kOps[] = {"request", "put", "get", "atomic", "put with atomic"};
  serviceFailed(who, "cannot serve the %s of %llu bytes at offset %llu of this PE's device heap that PE %d sent (see "
                "the error above)", r.op <= kOpPutAmo ? kOps[r.op] : "request",
                static_cast<unsigned long long>(r.op == kOpAmo ? (r.aux >> 8) : r.n),
                static_cast<unsigned long long>(r.off), sender);
}

/// Copy chunk @p c (@p len bytes) on @p s's stream and record the event of its slot.
inline Status copyChunk(const char* who, Side& s, int depth, void* dst, const void* src, std::size_t len,
                        uint64_t c) {
  GSHMEM_CUDA_TRY(who, cudaMemcpyAsync(dst, src, len, cudaMemcpyDefault, s.stream));
  GSHMEM_CUDA_TRY(who, cudaEventRecord(s.ev[c % depth], s.stream));
  return Status::Ok;
}

/// The producer's half of a chunk pipeline: chunks first..first+k-1 of [src, src+n) are copied on @p s's stream into
/// the ring's slots and published in order once their copy completed. Ring:
///   char* slot(c)              where chunk c's copy lands
///   uint64_t room(p)           chunks below this (absolute index) may be copied now, when chunks below p are
///                              published
///   bool ready(c)              chunk c, copied, may be published now
///   Status publish(c, len)     make chunk c (len bytes) available to the consumer
///   bool idle(long*)           one idle poll; false: give up (the process is exiting)
/// Returns when every chunk was published.
template <class Ring>
Status produceChunks(const char* who, Side& s, int depth, const char* src, std::size_t n, uint64_t first,
                     std::size_t chunk, Ring& ring) {
  const uint64_t k = chunksOf(n, chunk);
  uint64_t issued = 0, published = 0;
  long idle = 0;
  while (published < k) {
    bool did = false, yes = false;
    const uint64_t room = ring.room(first + published);
    for (; issued < k && first + issued < room; did = true, ++issued)
      GSHMEM_CHECK(copyChunk(who, s, depth, ring.slot(first + issued), src + issued * chunk,
                             chunkLen(n, chunk, issued), first + issued));
    while (published < issued && ring.ready(first + published)) {
      GSHMEM_CHECK(eventDone(who, s.ev[(first + published) % depth], &yes));
      if (!yes) break;
      GSHMEM_CHECK(ring.publish(first + published, chunkLen(n, chunk, published)));
      ++published;
      did = true;
    }
    if (did) idle = 0;
    else if (!ring.idle(&idle)) return Status::RemoteError;
  }
  return Status::Ok;
}

/// What consumeChunks enqueues after the last chunk's copy: nothing.
struct NothingAfter {
  Status operator()() const { return Status::Ok; }
};

/// The consumer's half: chunks first..first+k-1 are copied from the ring's slots into [dst, dst+n) on @p s's stream
/// as the producer makes them available, and each slot is released once its copy completed. Ring:
///   char* slot(c)              where chunk c lies
///   uint64_t available()       chunks below this (absolute index) have arrived
///   Status release(upto)       every chunk below `upto` has been copied out: its slot is free
///   bool idle(long*)           as for produceChunks
/// @p after() is called once, right after the last chunk's copy was issued: what it enqueues on @p s's stream runs
/// after every copy, without a wait in between. Returns when every copy completed (not what after() enqueued).
template <class Ring, class After = NothingAfter>
Status consumeChunks(const char* who, Side& s, int depth, char* dst, std::size_t n, uint64_t first,
                     std::size_t chunk, Ring& ring, After&& after = After{}) {
  const uint64_t k = chunksOf(n, chunk);
  uint64_t issued = 0, retired = 0;
  long idle = 0;
  while (retired < k) {
    bool did = false, yes = false;
    const uint64_t avail = ring.available();
    for (; issued < k && first + issued < avail; did = true, ++issued) {
      GSHMEM_CHECK(copyChunk(who, s, depth, dst + issued * chunk, ring.slot(first + issued),
                             chunkLen(n, chunk, issued), first + issued));
      if (issued + 1 == k) GSHMEM_CHECK(after());
    }
    while (retired < issued) {
      GSHMEM_CHECK(eventDone(who, s.ev[(first + retired) % depth], &yes));
      if (!yes) break;
      GSHMEM_CHECK(ring.release(first + ++retired));
      did = true;
    }
    if (did) idle = 0;
    else if (!ring.idle(&idle)) return Status::RemoteError;
  }
  return Status::Ok;
}

}  // namespace gshmem::protocols::staged
