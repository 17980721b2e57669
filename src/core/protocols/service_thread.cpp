// Service threads and their exit handler (contract in service_thread.hpp).
#include "core/protocols/service_thread.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace gshmem::protocols {

namespace {

constexpr double kExitWaitSeconds = 2.0;  ///< how long the exit handler waits for one thread to end

/// The running threads. Allocated once and never freed, so it outlives every static destructor.
struct Registry {
  std::mutex lock;
  std::vector<ServiceThread*> live;
  bool handler = false;
};
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

void removeLive(ServiceThread* t) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lk(r.lock);
  r.live.erase(std::remove(r.live.begin(), r.live.end(), t), r.live.end());
}

/// The atexit handler: stop every running thread, the last started first (a later service may use an earlier).
std::atomic<bool> g_exiting{false};

void stopAllAtExit() {
  g_exiting.store(true, std::memory_order_release);
  Registry& r = registry();
  for (;;) {
    ServiceThread* t = nullptr;
    {
      std::lock_guard<std::mutex> lk(r.lock);
      if (r.live.empty()) return;
      t = r.live.back();
    }
    t->stopBounded(kExitWaitSeconds);
  }
}

}  // namespace

bool serviceExiting() { return g_exiting.load(std::memory_order_acquire); }

void ServiceThread::start(std::function<void()> body) {
  stop_.store(false);
  ended_.store(false);
  thread_ = std::thread([this, body = std::move(body)] {
    body();
    ended_.store(true, std::memory_order_release);
  });
  Registry& r = registry();
  std::lock_guard<std::mutex> lk(r.lock);
  r.live.push_back(this);
  if (!r.handler) {
    r.handler = true;
    std::atexit(stopAllAtExit);
  }
}

void ServiceThread::stop() {
  if (!thread_.joinable()) return;
  stop_.store(true);
  thread_.join();
  removeLive(this);
}

bool ServiceThread::stopBounded(double seconds) {
  if (!thread_.joinable()) return true;
  stop_.store(true);
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!ended_.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  const bool ended = ended_.load(std::memory_order_acquire);
  if (ended) thread_.join();
  else thread_.detach();
  removeLive(this);
  return ended;
}

ServiceThread::~ServiceThread() { stopBounded(kExitWaitSeconds); }

}  // namespace gshmem::protocols
