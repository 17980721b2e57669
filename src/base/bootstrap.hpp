// Out-of-band bootstrap: how PEs find each other before any transport exists.
#pragma once
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
  /// Terminate every PE of the job with `code`. Not collective; never returns.
  [[noreturn]] virtual void abortJob(int code) = 0;
};

/// MPI bootstrap: initializes MPI if the program has not; finalizes it only in that case.
/// @param thread_level 0..3 = single, funneled, serialized, multiple: the MPI level requested when gshmem
///        initializes MPI itself (a program that initialized MPI keeps its own).
Status mpiBootstrapCreate(int thread_level, std::unique_ptr<Bootstrap>* out);

}  // namespace gshmem
