// A job whose PEs are threads of this test process, all on node 0: the in-process bootstrap that the shm unit
// tests (shm_map, shm_channel) run their collective setup over.
#pragma once
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "base/bootstrap.hpp"

namespace gshmem::test_support {

/// What the PEs of ThreadBootstrap share: one allgather buffer and a generation barrier.
struct Rendezvous {
  explicit Rendezvous(int n) : n(n) {}
  const int n;
  std::mutex mu;
  std::condition_variable cv;
  int arrived = 0;
  long generation = 0;
  std::vector<char> buf;

  void barrier() {
    std::unique_lock<std::mutex> lk(mu);
    const long g = generation;
    if (++arrived == n) {
      arrived = 0;
      ++generation;
      cv.notify_all();
      return;
    }
    cv.wait(lk, [&] { return generation != g; });
  }
};

/// One PE of a job whose PEs are threads, all on node 0.
class ThreadBootstrap final : public Bootstrap {
 public:
  ThreadBootstrap(Rendezvous* r, int rank) : r_(r), rank_(rank), node_(r->n, 0) {}
  int rank() const override { return rank_; }
  int size() const override { return r_->n; }
  const std::vector<int>& nodeOf() const override { return node_; }
  Status allGather(const void* in, void* out, std::size_t bytes) override {
    {
      std::lock_guard<std::mutex> lk(r_->mu);
      r_->buf.resize(bytes * r_->n);
      std::memcpy(r_->buf.data() + bytes * rank_, in, bytes);
    }
    r_->barrier();  // every contribution is in
    {
      std::lock_guard<std::mutex> lk(r_->mu);
      std::memcpy(out, r_->buf.data(), bytes * r_->n);
    }
    r_->barrier();  // every PE has read before the buffer is reused
    return Status::Ok;
  }
  Status barrier() override {
    r_->barrier();
    return Status::Ok;
  }
  Status finalize() override { return Status::Ok; }
  void leave(int) override {}
  [[noreturn]] void abortJob(int, const char*) override { std::abort(); }

 private:
  Rendezvous* r_;
  int rank_;
  std::vector<int> node_;
};

}  // namespace gshmem::test_support
