// The contract between a blocking wait and the liveness watchdog, at the runtime's level so that the inline wait
// loops (runtime.hpp, core/rma/ops.hpp) call nothing above the runtime: a wait counts its polls in a WaitWatch on
// its own stack and, every kWaitPollStride polls, calls waitPoll(). The watchdog (core/sync/liveness) installs the
// function waitPoll calls when it starts; before that, or with GSHMEM_TIMEOUT=0, waitPoll does nothing.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace gshmem {

/// Bytes at the end of every heap's control area that hold the heartbeat line (one cache line).
constexpr std::size_t kBeatLineBytes = 64;
/// A wait calls waitPoll() once every kWaitPollStride polls (a power of two): no clock read on the other polls.
constexpr unsigned kWaitPollStride = 64;

/// Per-wait state, on the waiter's stack. Zero-initialized: the first waitPoll() stamps the start.
struct WaitWatch {
  unsigned polls = 0;
  uint64_t start_ns = 0;
  uint64_t next_ns = 0;  ///< earliest time of the next peer scan
};

/// The watchdog's look at a wait that has lasted `w`: fatal, naming `call`, when a watched PE has been silent for
/// GSHMEM_TIMEOUT. Installed once by the watchdog; never uninstalled (it checks by itself whether it still runs).
using WaitPollFn = void (*)(const char* call, WaitWatch* w);
inline std::atomic<WaitPollFn> g_wait_poll{nullptr};

/// Slow path of a blocking wait, every kWaitPollStride polls.
inline void waitPoll(const char* call, WaitWatch* w) {
  if (WaitPollFn f = g_wait_poll.load(std::memory_order_acquire)) f(call, w);
}

}  // namespace gshmem
