// A host thread that serves a loop until it is stopped: the device proxy, the staged servers (shm channel, UCX).
//
// Exit contract: a program may leave by returning from main or calling exit() without shmem_finalize. A joinable
// std::thread destroyed then would call std::terminate (SIGABRT), and a thread still polling pinned memory while
// CUDA tears its context down could fault. So every running ServiceThread is stopped by one atexit handler,
// registered when the first one starts (after the caller's first CUDA calls, hence run before CUDA's own exit
// teardown): it raises each thread's stop flag and joins it, waiting at most a bounded time for a thread stuck in
// a wait on a peer that already left, which it then detaches. The handler makes no CUDA call. Private to src/core.
#pragma once
#include <atomic>
#include <functional>
#include <thread>

namespace gshmem::protocols {

/// True once the process exit handler has begun stopping the service threads: a wait on a peer's service thread
/// must give up then (the peer may be exiting too), so every thread can end and be joined.
bool serviceExiting();

class ServiceThread {
 public:
  ServiceThread() = default;
  ServiceThread(const ServiceThread&) = delete;
  ServiceThread& operator=(const ServiceThread&) = delete;
  /// Stops the thread if it still runs (never std::terminate).
  ~ServiceThread();

  /// Run @p body on a new thread. @p body must return soon after stopping() turns true.
  void start(std::function<void()> body);
  /// Raise the stop flag and join. Idempotent.
  void stop();
  /// stop() for the exit path: waits at most @p seconds for the thread to end, then detaches it.
  /// @return whether it ended.
  bool stopBounded(double seconds);
  bool stopping() const { return stop_.load(std::memory_order_relaxed); }
  bool running() const { return thread_.joinable(); }

 private:
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> ended_{false};
};

}  // namespace gshmem::protocols
