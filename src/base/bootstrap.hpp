// Out-of-band bootstrap: how PEs find each other before any transport exists.
#pragma once
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/status.hpp"

namespace gshmem {

/// One id per rank from one key per rank: the index of the rank's key among the distinct keys in rank order of
/// first appearance (the bootstraps' node ids, from host names).
inline std::vector<int> denseIds(const std::vector<std::string>& keys) {
  std::unordered_map<std::string, int> index;
  std::vector<int> ids(keys.size());
  for (std::size_t r = 0; r < keys.size(); ++r)
    ids[r] = index.emplace(keys[r], static_cast<int>(index.size())).first->second;
  return ids;
}

/// Collective operations over all PEs of the job. Every method is collective unless said otherwise,
/// may block, and must be called by one thread at a time.
class Bootstrap {
 public:
  virtual ~Bootstrap() = default;
  /// Not collective. What the PEs meet through, for GSHMEM_INFO ("MPI over MPI_COMM_WORLD").
  virtual std::string describe() const { return "in-process"; }
  /// Not collective.
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Node index of each rank (dense, 0..nodes-1, numbered by denseIds from each rank's host name).
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
  /// Without a launcher (the socket bootstrap) it tells the neighbours, so that its exit is not taken for a death.
  virtual void leave(int timeout_s) = 0;
  /// Whether leave() has begun: this process is exiting, so a peer that disappears is leaving too, not a fault.
  /// Not collective; callable from any thread.
  bool leaving() const { return leaving_.load(std::memory_order_acquire); }
  /// Terminate every PE of the job with `code`. Not collective; never returns. @p why: the line this process
  /// printed about the cause, or nullptr; a bootstrap without a launcher hands it to the PEs it ends.
  [[noreturn]] virtual void abortJob(int code, const char* why) = 0;

  /// Who to tell when the bootstrap itself finds a PE gone (a closed connection, not a finalize or a leave): called
  /// once, from a bootstrap thread, with the PE and the cause; expected to end the job (abortJob). Unset, the
  /// bootstrap prints one line and calls abortJob itself. Set it before the first collective call.
  using PeerLostHandler = std::function<void(int pe, const char* why)>;
  void setPeerLostHandler(PeerLostHandler h) {
    std::lock_guard<std::mutex> lk(handler_mu_);
    on_lost_ = std::move(h);
  }

 protected:
  PeerLostHandler peerLostHandler() {
    std::lock_guard<std::mutex> lk(handler_mu_);
    return on_lost_;
  }
  std::atomic<bool> leaving_{false};

 private:
  std::mutex handler_mu_;
  PeerLostHandler on_lost_;
};

/// MPI bootstrap over a dup of a communicator: PE numbers are ranks in it, and processes outside it take no part.
/// @param thread_level 0..3 = single, funneled, serialized, multiple: the MPI level requested when gshmem
///        initializes MPI itself (only with @p comm nullptr; a program that initialized MPI keeps its own).
/// @param comm an MPI_Comm* (the program's, MPI initialized), or nullptr for MPI_COMM_WORLD, initializing MPI when
///        the program has not (then finalize() finalizes it). On failure *err is one line with the fix.
Status mpiBootstrapCreate(int thread_level, const void* comm, std::unique_ptr<Bootstrap>* out, std::string* err);

/// What the socket bootstrap needs besides the id.
struct SocketBootstrapArgs {
  int rank = -1, nranks = 0;
  long timeout_s = 60;  ///< GSHMEM_TIMEOUT: bounds every wait (0: none)
  std::string ifname;   ///< GSHMEM_BOOTSTRAP_IFNAME (localAddressChoose)
};

/// Socket bootstrap, no MPI (socket_bootstrap.cpp): meets the other ranks through the rendezvous of the unique id
/// @p id (rendezvous.hpp), then runs the collectives over a TCP ring; node ids come from the host names. On failure
/// *err is one line naming the cause and the fix (out-of-range ranks, a foreign id, ranks that never came).
Status socketBootstrapCreate(const void* id, std::size_t bytes, const SocketBootstrapArgs& args,
                             std::unique_ptr<Bootstrap>* out, std::string* err);

}  // namespace gshmem
