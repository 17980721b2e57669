// Peer liveness: the watchdog behind every blocking wait. Each PE runs one small watchdog thread (started at init,
// joined at finalize or at exit) that advances a 64-bit heartbeat in the last cache line of its own heap's control
// area, and samples the heartbeats of the PEs it watches: the PEs of this node (their heaps are mapped here) and
// its two ring successors, (me+1) % N and (me+2) % N, over UDP when they are on other nodes (liveness_net.hpp).
// What a PE watches and sends is bounded by the PEs per node, never by N. When a watched PE's heartbeat has stood
// still for GSHMEM_TIMEOUT seconds of the watchdog thread's own running time, the job ends with one line naming
// this PE, the call it is blocked in (or, 2 s later, "watchdog" when it is in none), and the silent PE(s): the
// thread reports by itself, since a PE may wait on one it does not watch, and a blocking wait (waitFor, which
// calls poll() every kWaitPollStride polls) reports too, from half the timeout on; whichever comes first. The detector
// watches liveness, not the awaited value: a PE that computes for an hour keeps beating (its watchdog thread runs)
// and is never reported; a stopped (SIGSTOP, debugger), exited or killed process stops beating, and so does an
// unreachable node. A PE that has called shmem_finalize is never reported by the thread (finalize is collective).
// A PE of this node whose process is gone (killed, crashed: its line still says running) is reported at the next
// tick as "lost PE n", without waiting for the timeout. GSHMEM_TIMEOUT=0 disables it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/bootstrap.hpp"
#include "core/runtime/wait_watch.hpp"

namespace gshmem::liveness {

/// Bytes at the end of every heap's control area that hold the heartbeat line (core/runtime/wait_watch.hpp).
constexpr std::size_t kBeatBytes = kBeatLineBytes;

/// The watchdog's tick for GSHMEM_TIMEOUT = `timeout_s` (> 0): 20 beats per timeout, clamped to 50..250 ms. Each
/// tick sends one heartbeat to each ring predecessor on another node (at most two) and drains the datagrams that
/// arrived (at most two per tick and advertised address).
inline uint64_t heartbeatPeriodNs(long timeout_s) {
  const uint64_t period = uint64_t(timeout_s) * 1000000000ull / 20;
  return period < 50000000ull ? 50000000ull : (period > 250000000ull ? 250000000ull : period);
}

/// Heap bytes the watchdog holds with `node_pes` PEs on this node (its object, one watched entry per other PE of
/// the node and per ring successor, the node's process identities): nothing per PE of the job once init is over.
/// For the scale model (tools/gshmem-scale-model).
std::size_t watchdogBytes(int node_pes);

/// Collective over `bs`, as early in init as GSHMEM_TIMEOUT is known. Start the heartbeat and the watchdog
/// thread, watching the ring successors over the network (no heap is mapped yet); `timeout_s` <= 0 starts nothing.
/// Until initEnd() the watchdog thread itself ends the job when a PE stays silent for the timeout, naming it and
/// the init phase (initPhase()): a PE stopped inside shmem_init cannot hang the others. Disarms initTimerArm().
void begin(Bootstrap& bs, long timeout_s);
/// Not collective. Once every same-node heap is mapped: `heaps[pe]` is PE pe's heap as mapped here (nullptr when
/// not mapped; heaps[me] is this PE's), each `heap_bytes` long. The heartbeat moves into this PE's heap and every
/// mapped peer is watched there (a mapped ring successor leaves the network); a ring successor not mapped stays
/// watched over the network. Mapping must be mutual. Before the first waitFor.
void attach(const std::vector<char*>& heaps, std::size_t heap_bytes);
/// The init phase now running, for the watchdog's report (a string literal); initEnd(): init is complete (the
/// watchdog also ends the init check by itself once the runtime reads as initialized).
void initPhase(const char* name);
void initEnd();
/// Bound the part of init before begin() (the bootstrap: MPI_Init, the first collectives), where no PE can yet be
/// told apart: unless initTimerDisarm() (or begin) comes within `timeout_s` s (<= 0: never), a thread ends the job
/// with one line naming `what` and saying that some PE has not arrived.
void initTimerArm(long timeout_s, const char* what);
void initTimerDisarm();
/// Stop and join the watchdog thread (idempotent); tells the peers that still look whether this PE finalized or
/// is exiting without finalize (in its heartbeat line, and three times in the datagram to each ring predecessor).
/// Called by finalize before the heaps are unmapped, and (finalized = false) at exit.
void stop(bool finalized = true);

/// Called by poll() when a wait has lasted GSHMEM_TIMEOUT and no watched PE is silent (every PE alive: the wait
/// may never end), with the public call and how long the wait has lasted; again at every later scan. nullptr: none.
using StuckHook = void (*)(const char* call, uint64_t waited_ns);
void setStuckHook(StuckHook hook);

/// Slow path of a blocking wait (what waitPoll() calls once begin() has started the watchdog): fatal, naming
/// `call`, when a watched PE has been silent for the timeout. Also tells the watchdog thread that this PE is
/// blocked in `call` (two relaxed stores), for its own report.
void poll(const char* call, WaitWatch* w) __attribute__((noinline));

}  // namespace gshmem::liveness
