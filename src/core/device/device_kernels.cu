// The stream-ordered operations behind gshmemx_*_on_stream (core/device/stream.hpp) and their kernels. Kernels
// take the DeviceHandle by value (no __constant__ state here). A put or get the host can enqueue as a copy (the
// peer's heap is mapped) goes through the dispatch site (protocols::deviceRma); one it cannot (the peer is not
// mapped) is a one-block kernel that posts it to the proxy ring, and the proxy runs the same dispatch, so the call
// stays stream-ordered and asynchronous.
#include <cuda.h>  // types and flags of the driver entry point only: the driver is reached through cudart
#include <cuda_runtime.h>

#include <atomic>
#include <cstdio>
#include <string>

#include "base/cuda_check.hpp"
#include "base/str_format.hpp"
#include "core/device/device.hpp"
#include "core/device/device_kernels.hpp"
#include "core/device/stream.hpp"
#include "core/protocols/dispatch.hpp"
#include "core/rma/ops.hpp"
#include "gshmem/device/api.cuh"
#include "shmemx.h"

namespace gshmem::device {

namespace {

constexpr int kPutThreads = 512;

__global__ void __launch_bounds__(kPutThreads) putKernel(DeviceHandle h, char* dst, const char* src, size_t n, int pe,
                                                         int get) {
  const size_t chunk = (((n + gridDim.x - 1) / gridDim.x) + 15) & ~size_t(15);
  const size_t off = blockIdx.x * chunk;
  if (off >= n) return;
  const size_t len = off + chunk > n ? n - off : chunk;
  if (get) dev::getmem<kScopeBlock>(h, dst + off, src + off, len, pe, true);
  else dev::putmem<kScopeBlock>(h, dst + off, src + off, len, pe, true);
}

__global__ void putSignalKernel(DeviceHandle h, char* dst, const char* src, size_t n, uint64_t* sig, uint64_t value,
                                int sig_op, int pe) {
  dev::putmemSignal<kScopeBlock>(h, dst, src, n, sig, value, sig_op, pe, true);
}

__global__ void signalKernel(DeviceHandle h, uint64_t* sig, uint64_t value, int sig_op, int pe) {
  dev::signalOp(h, sig, value, sig_op, pe);
}

__global__ void waitKernel(uint64_t* sig, int cmp, uint64_t value) { dev::signalWaitUntil(sig, cmp, value); }

__global__ void quietKernel(DeviceHandle h) { dev::quiet(h); }

__global__ void barrierKernel(DeviceHandle h, int do_quiet) { dev::barrierAll(h, do_quiet != 0); }

__global__ void teamBarrierKernel(DeviceHandle h, DeviceTeam t, gshmem_team_t id, int do_quiet) {
  dev::teamBarrierThread(h, t, id, do_quiet != 0);
}

}  // namespace

void launchBarrier(const DeviceHandle& h, bool do_quiet, cudaStream_t s) {
  barrierKernel<<<1, 1, 0, s>>>(h, do_quiet ? 1 : 0);
}

void launchTeamBarrier(const DeviceHandle& h, const DeviceTeam& t, gshmem_team_t id, bool do_quiet, cudaStream_t s) {
  if (id == GSHMEM_TEAM_WORLD) launchBarrier(h, do_quiet, s);
  else teamBarrierKernel<<<1, 1, 0, s>>>(h, t, id, do_quiet ? 1 : 0);
}

// Validation of the public calls' arguments: each failure is the call's one-line error (core/runtime/errors.cpp).
const DeviceHandle& handleFor(const char* call) {
  const DeviceHandle* h = backendHandle();
  if (!h) errorNoDeviceHeap(call);
  return *h;
}
void checkDev(const char* call, const char* what, const void* p, size_t n) {
  size_t o = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(g_region.base);
  if (!g_region.base || o >= g_region.size || n > g_region.size - o) errorNotInDeviceHeap(call, what, p, n);
}

namespace {

void checkSig(const char* call, const uint64_t* sig) {
  checkDev(call, "sig_addr", sig, 8);
  if (reinterpret_cast<uintptr_t>(sig) % 8) ops::errorMisaligned(call, sig, 8);
}
void checkPe(const char* call, int pe) {
  if (static_cast<unsigned>(pe) >= static_cast<unsigned>(g_rt.n_pes)) errorBadPe(call, pe, g_rt.n_pes);
}

/// Whether the kernel launch just made on this thread was accepted; *why says why not.
Status launched(std::string* why) {
  const cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) return Status::Ok;
  *why = strFormat("kernel launch failed: %s", cudaGetErrorString(e));
  return Status::SystemError;
}

/// The one place where a stream-ordered call's failure becomes its one-line error.
[[noreturn]] __attribute__((cold)) void onStreamFailed(const char* call, const std::string& why) {
  fatal(call, "%s", why.c_str());
}

using WaitValue64 = CUresult (*)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);

/// cuStreamWaitValue64 through cudart's entry-point lookup (no link against libcuda), and the flag that makes the
/// remote writes that preceded the signal visible to the work after the wait where this device offers it.
struct StreamWait {
  WaitValue64 fn = nullptr;
  unsigned flush = 0;
};
const StreamWait& streamWait() {
  static const StreamWait w = [] {
    StreamWait r;
    int dev = 0, flush = 0;
    driverEntry("cuStreamWaitValue64", &r.fn);
    if (cudaGetDevice(&dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&flush, cudaDevAttrCanFlushRemoteWrites, dev) == cudaSuccess && flush)
      r.flush = CU_STREAM_WAIT_VALUE_FLUSH;
    cudaGetLastError();
    return r;
  }();
  return w;
}
std::atomic<bool> g_wait_value_off{false};  // the driver refused a stream wait once: waits take the kernel

}  // namespace

bool waitValueOnStream(uint64_t* sig, int cmp, uint64_t value, cudaStream_t s) {
  if ((cmp != GSHMEM_CMP_GE && cmp != GSHMEM_CMP_EQ) || g_wait_value_off.load(std::memory_order_relaxed)) return false;
  const StreamWait& w = streamWait();
  if (!w.fn) return false;
  const unsigned flags = (cmp == GSHMEM_CMP_GE ? CU_STREAM_WAIT_VALUE_GEQ : CU_STREAM_WAIT_VALUE_EQ) | w.flush;
  if (w.fn(reinterpret_cast<CUstream>(s), reinterpret_cast<CUdeviceptr>(sig), value, flags) == CUDA_SUCCESS) return true;
  cudaGetLastError();
  g_wait_value_off.store(true, std::memory_order_relaxed);
  return false;
}

void checkLaunch(const char* call) {
  std::string why;
  if (isError(launched(&why))) onStreamFailed(call, why);
}

namespace {

/// A put or get of @p n bytes with PE @p pe's device heap, in the order of @p s. Arguments already validated.
Status enqueueRma(const DeviceHandle& h, void* dst, const void* src, size_t n, int pe, cudaStream_t s, bool get,
                  std::string* why) {
  if (n == 0) return Status::Ok;
  const size_t off = static_cast<const char*>(get ? src : dst) - g_region.base;
  // The dispatch site, stream-ordered: direct copies to a mapped peer are queued on the stream; the staged protocol
  // (an unmapped peer) orders itself after the stream's earlier work and completes before it returns. Only a peer
  // no host protocol reaches takes the proxy, through a one-block kernel on the stream.
  Status st = protocols::deviceRma(pe, off, get ? dst : const_cast<void*>(src), n,
                                   get ? Direction::Get : Direction::Put, s, false, protocols::Initiator::Host);
  if (st == Status::Ok) return st;
  if (st != Status::Unsupported || backendPeerPtr(pe, off)) {
    *why = strFormat("%s of %zu bytes to PE %d through %s failed: %s", get ? "get" : "put", n, pe,
                     protocols::deviceRoute(pe), statusString(st));
    return st;
  }
  putKernel<<<1, kPutThreads, 0, s>>>(h, static_cast<char*>(dst), static_cast<const char*>(src), n, pe, get ? 1 : 0);
  return launched(why);
}

}  // namespace

cudaError_t loadKernels() {
  cudaFuncAttributes a;
  const void* fns[] = {reinterpret_cast<const void*>(putKernel),
                       reinterpret_cast<const void*>(putSignalKernel), reinterpret_cast<const void*>(signalKernel),
                       reinterpret_cast<const void*>(waitKernel), reinterpret_cast<const void*>(quietKernel),
                       reinterpret_cast<const void*>(barrierKernel),
                       reinterpret_cast<const void*>(teamBarrierKernel)};
  for (const void* f : fns) {
    cudaError_t e = cudaFuncGetAttributes(&a, f);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

void rmaOnStream(const char* call, void* dst, const void* src, std::size_t n, int pe, Stream s, bool get) {
  const DeviceHandle& h = handleFor(call);
  checkPe(call, pe);
  checkDev(call, get ? "source" : "dest", get ? src : dst, n);
  std::string why;
  if (isError(enqueueRma(h, dst, src, n, pe, s, get, &why))) onStreamFailed(call, why);
}

void putSignalOnStream(const char* call, void* dest, const void* source, std::size_t nbytes, uint64_t* sig_addr,
                       uint64_t signal, int sig_op, int pe, Stream stream) {
  const DeviceHandle& h = handleFor(call);
  checkPe(call, pe);
  checkDev(call, "dest", dest, nbytes);
  checkSig(call, sig_addr);
  if (sig_op != GSHMEM_SIGNAL_SET && sig_op != GSHMEM_SIGNAL_ADD) ops::errorBadSignalOp(call, sig_op);
  const size_t off = static_cast<char*>(dest) - g_region.base;
  if (backendPeerPtr(pe, off)) {  // the dispatched copy, then the signal in stream order
    std::string why;
    if (isError(enqueueRma(h, dest, source, nbytes, pe, stream, false, &why))) onStreamFailed(call, why);
    signalKernel<<<1, 1, 0, stream>>>(h, sig_addr, signal, sig_op, pe);
  } else {
    putSignalKernel<<<1, kPutThreads, 0, stream>>>(h, static_cast<char*>(dest), static_cast<const char*>(source),
                                                   nbytes, sig_addr, signal, sig_op, pe);
  }
  checkLaunch(call);
}

void signalWaitUntilOnStream(const char* call, uint64_t* sig_addr, int cmp, uint64_t cmp_value, Stream stream) {
  handleFor(call);
  checkSig(call, sig_addr);
  if (cmp < GSHMEM_CMP_EQ || cmp > GSHMEM_CMP_LE) ops::errorBadCmp(call, cmp);
  if (waitValueOnStream(sig_addr, cmp, cmp_value, stream)) return;
  waitKernel<<<1, 1, 0, stream>>>(sig_addr, cmp, cmp_value);
  checkLaunch(call);
}

void quietOnStream(const char* call, Stream stream) {
  const DeviceHandle& h = handleFor(call);
  // P2P work completes in stream order; with every peer mapped the ring holds only copy-engine work that the device
  // waited for: nothing to wait for.
  if (h.ring.slots == nullptr || backendAllPeersMapped()) return;
  quietKernel<<<1, 1, 0, stream>>>(h);
  checkLaunch(call);
}

void barrierAllOnStream(const char* call, bool do_quiet, Stream stream) {
  launchBarrier(handleFor(call), do_quiet, stream);
  checkLaunch(call);
}

}  // namespace gshmem::device
