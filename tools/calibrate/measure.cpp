// Measurement rows of gshmem-calibrate. Host memory today: the runtime moves host-to-host transfers to a peer
// through shm (mapped on the node) or ucx (otherwise, or GSHMEM_TRANSPORTS=ucx); both are timed through the
// public OpenSHMEM API. Device rows (p2p_ce, p2p_sm, staged; dd) are in measure_device.cpp, built with CUDA.
#include "measure.hpp"

#include <shmem.h>

#include <chrono>
#include <cstring>
#include <vector>

namespace gshmem {
namespace calibrate {

namespace {

struct HostBuffers {
  char* src = nullptr;  ///< symmetric, source of puts and destination of gets
  char* dst = nullptr;  ///< symmetric, destination of puts and source of gets (on the peer)
};

double nowUs() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool hostSetup(Context* c) {
  auto* b = new HostBuffers;
  b->src = static_cast<char*>(shmem_malloc(c->maxBytes));
  b->dst = static_cast<char*>(shmem_malloc(c->maxBytes));
  if (!b->src || !b->dst) {
    shmem_free(b->dst);
    shmem_free(b->src);
    delete b;
    return false;
  }
  memset(b->src, 1, c->maxBytes);  // fault the pages in before timing
  memset(b->dst, 2, c->maxBytes);
  shmem_barrier_all();
  c->state = b;
  return true;
}

void hostTeardown(Context* c) {
  auto* b = static_cast<HostBuffers*>(c->state);
  shmem_barrier_all();
  if (b) {
    shmem_free(b->dst);
    shmem_free(b->src);
    delete b;
  }
  c->state = nullptr;
}

double hostTimeUs(Context* c, Direction d, size_t bytes, int iters) {
  auto* b = static_cast<HostBuffers*>(c->state);
  double t0 = nowUs();
  if (d == Direction::Put) {
    for (int i = 0; i < iters; ++i) {
      shmem_putmem(b->dst, b->src, bytes, c->peer);
      shmem_quiet();
    }
  } else {
    for (int i = 0; i < iters; ++i) shmem_getmem(b->src, b->dst, bytes, c->peer);
  }
  return (nowUs() - t0) / iters;
}

bool shmAvailable(const Context& c) { return c.peerMapped; }
bool ucxAvailable(const Context& c) { return !c.peerMapped; }

const MeasureEntry kTable[] = {
    {ProtocolId::Shm, MemPair::HostHost, shmAvailable, hostSetup, hostTimeUs, hostTeardown},
    {ProtocolId::Ucx, MemPair::HostHost, ucxAvailable, hostSetup, hostTimeUs, hostTeardown},
};

}  // namespace

#ifdef GSHMEM_CALIBRATE_DEVICE
extern const MeasureEntry kDeviceRows[];  // measure_device.cpp
extern const size_t kNumDeviceRows;
#endif

const MeasureEntry* measureTable(size_t* count) {
  static const std::vector<MeasureEntry> rows = [] {
    std::vector<MeasureEntry> v(kTable, kTable + sizeof kTable / sizeof kTable[0]);
#ifdef GSHMEM_CALIBRATE_DEVICE
    v.insert(v.end(), kDeviceRows, kDeviceRows + kNumDeviceRows);
#endif
    return v;
  }();
  *count = rows.size();
  return rows.data();
}

}  // namespace calibrate
}  // namespace gshmem
