// Out-of-band bootstrap: how PEs find each other before any transport exists.
#pragma once
#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "base/status.hpp"

namespace gshmem {

/// Collective operations over all PEs of the job. Every method is collective unless said otherwise,
/// may block, and must be called by one thread at a time.
class Bootstrap {
 public:
  virtual ~Bootstrap() = default;
  /// Not collective.
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Node index of each rank (dense, 0..nodes-1), from the launcher's view of shared-memory domains.
  virtual const std::vector<int>& nodeOf() const = 0;
  /// Gather `bytes` from every rank into `out` (size()*bytes, rank order).
  virtual Status allGather(const void* in, void* out, std::size_t bytes) = 0;
  virtual Status barrier() = 0;
  /// Release what the bootstrap holds (its communicator; MPI itself when it initialized MPI). Collective: the
  /// normal end, from shmem_finalize. The destructor makes no collective or MPI call.
  virtual Status finalize() = 0;
  /// Not collective: this process is exiting without finalize(). When the bootstrap initialized MPI it finalizes
  /// it, which completes only once every process has reached MPI_Finalize too (all of them leaving, the common
  /// case of an error path taken by every PE). When @p timeout_s > 0 and the others have not reached it by then,
  /// prints one line and ends this process with status 1 (the launcher then ends the job) instead of blocking.
  virtual void leave(int timeout_s) = 0;
  /// Whether leave() has begun: this process is exiting, so a peer that disappears is leaving too, not a fault.
  /// Not collective; callable from any thread.
  bool leaving() const { return leaving_.load(std::memory_order_acquire); }
  /// Terminate every PE of the job with `code`. Not collective; never returns.
  [[noreturn]] virtual void abortJob(int code) = 0;

 protected:
  std::atomic<bool> leaving_{false};
};

/// MPI bootstrap: initializes MPI if the program has not; finalizes it only in that case.
/// @param thread_level 0..3 = single, funneled, serialized, multiple: the MPI level requested when gshmem
///        initializes MPI itself (a program that initialized MPI keeps its own).
Status mpiBootstrapCreate(int thread_level, std::unique_ptr<Bootstrap>* out);

}  // namespace gshmem
