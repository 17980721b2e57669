// device rows of gshmem-calibrate: p2p_ce, p2p_sm and staged for device-to-device transfers,
// timed through gshmemx_{put,get}mem_on_stream + cudaStreamSynchronize (the call the sweep measures), each
// protocol forced in turn with protocols::deviceForce (so one run measures all three).
#include <cuda_runtime.h>
#include <shmem.h>
#include <shmemx.h>

#include <chrono>

#include "core/protocols/device_path.hpp"
#include "measure.hpp"

namespace gshmem {
namespace calibrate {

namespace {

struct DevBuffers {
  char* src = nullptr;
  char* dst = nullptr;
  cudaStream_t stream = nullptr;
  ProtocolId proto = ProtocolId::None;
};

double nowUs() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool devPath(const Context& c, PeerPath* p) { return gshmemx_device_available() && protocols::devicePeerPath(c.peer, p); }
bool p2pAvailable(const Context& c) {
  PeerPath p;
  return devPath(c, &p) && p.p2p;
}
bool stagedAvailable(const Context& c) {
  PeerPath p;
  return devPath(c, &p) && p.sameNode;
}

bool setupFor(Context* c, ProtocolId id) {
  auto* b = new DevBuffers;
  b->proto = id;
  b->src = static_cast<char*>(gshmemx_malloc_device(c->maxBytes));
  b->dst = static_cast<char*>(gshmemx_malloc_device(c->maxBytes));
  bool ok = b->src && b->dst && cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking) == cudaSuccess;
  if (ok) ok = cudaMemset(b->src, 1, c->maxBytes) == cudaSuccess && cudaMemset(b->dst, 2, c->maxBytes) == cudaSuccess &&
               cudaDeviceSynchronize() == cudaSuccess;
  int all = ok ? 1 : 0;
  static int sum;
  static int one;
  one = all;
  shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &sum, &one, 1);
  if (sum != shmem_n_pes()) {
    if (b->stream) cudaStreamDestroy(b->stream);
    shmem_free(b->dst);  // device frees: the same collective rule
    shmem_free(b->src);
    delete b;
    return false;
  }
  protocols::deviceForce(id);
  c->state = b;
  return true;
}
bool ceSetup(Context* c) { return setupFor(c, ProtocolId::P2pCe); }
bool smSetup(Context* c) { return setupFor(c, ProtocolId::P2pSm); }
bool stagedSetup(Context* c) { return setupFor(c, ProtocolId::Staged); }

void devTeardown(Context* c) {
  auto* b = static_cast<DevBuffers*>(c->state);
  shmem_barrier_all();
  protocols::deviceForce(ProtocolId::None);
  if (b) {
    cudaStreamDestroy(b->stream);
    shmem_free(b->dst);
    shmem_free(b->src);
    delete b;
  }
  c->state = nullptr;
}

double devTimeUs(Context* c, Direction d, size_t bytes, int iters) {
  auto* b = static_cast<DevBuffers*>(c->state);
  double t0 = nowUs();
  for (int i = 0; i < iters; ++i) {
    if (d == Direction::Put) gshmemx_putmem_on_stream(b->dst, b->src, bytes, c->peer, b->stream);
    else gshmemx_getmem_on_stream(b->src, b->dst, bytes, c->peer, b->stream);
    cudaStreamSynchronize(b->stream);
  }
  return (nowUs() - t0) / iters;
}

}  // namespace

extern const MeasureEntry kDeviceRows[] = {
    {ProtocolId::P2pCe, MemPair::DevDev, p2pAvailable, ceSetup, devTimeUs, devTeardown},
    {ProtocolId::P2pSm, MemPair::DevDev, p2pAvailable, smSetup, devTimeUs, devTeardown},
    {ProtocolId::Staged, MemPair::DevDev, stagedAvailable, stagedSetup, devTimeUs, devTeardown},
};
extern const size_t kNumDeviceRows = sizeof kDeviceRows / sizeof kDeviceRows[0];

}  // namespace calibrate
}  // namespace gshmem
