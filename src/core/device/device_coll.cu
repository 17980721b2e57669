// The stream forms of the device collectives (gshmemx_*_on_stream; the host forms wait for them). Arguments are
// checked on the host, then kernels go on the stream, taking the DeviceHandle and the team (DeviceTeam, from the
// host team of the id) by value:
//   * a team of one PE: one device-to-device copy into dest (none in place);
//   * on the world, when a PE's contribution to each PE fits a scratch slot (deviceCollSlotBytes): one kernel, the
//     one-round exchange through the scratch (coll__funcs.cuh), over as many blocks as the bytes warrant;
//   * otherwise (above that, or any other team: the scratch and its epochs belong to the world's sequence of
//     calls): a barrier kernel of the team, the data phase spread over many blocks (each a part of this PE's
//     share), and a barrier kernel: the data moves once, straight into dest. Stream order stands in for a grid-wide
//     sync.
// The algorithms and their contract are in include/gshmem/device/impl/coll__funcs.cuh.
#include <cuda_runtime.h>

#include <algorithm>

#include "core/api.hpp"
#include "core/device/device.hpp"
#include "core/device/device_kernels.hpp"
#include "gshmem/device/api.cuh"
#include "gshmem/device/impl/coll__decls.cuh"

namespace gshmem::device {
namespace {

constexpr int kThreads = 512;
constexpr std::size_t kBytesPerBlock = std::size_t(32) << 10;  ///< bytes a PE moves per block of a data phase

/// Exchange epochs: one per one-round call, the same sequence on every PE (collectives are called in one order).
uint64_t g_epoch = 0;
const char* g_epoch_heap = nullptr;  ///< the heap the epochs count for (its scratch flags start at zero)

template <int Op, typename T>
__global__ void __launch_bounds__(kThreads) exchangeKernel(DeviceHandle h, int kind, uint64_t epoch, void* d,
                                                           const void* s, size_t c, int root) {
  dev::exchangePart<kScopeBlock, Op, T>(h, kind, epoch, d, s, c, root, blockIdx.x, gridDim.x);
}

template <int Op, typename T>
__global__ void __launch_bounds__(kThreads) reduceKernel(DeviceHandle h, DeviceTeam t, T* d, const T* s, size_t n,
                                                         int scatter) {
  if (scatter) dev::reducescatterPhase<kScopeBlock, Op, T>(h, t, d, s, n, blockIdx.x, gridDim.x);
  else dev::reducePhase<kScopeBlock, Op, T>(h, t, d, s, n, blockIdx.x, gridDim.x);
}

__global__ void __launch_bounds__(kThreads) moverKernel(DeviceHandle h, DeviceTeam t, int kind, void* d,
                                                        const void* s, size_t n, int root) {
  if (kind == dev::kCollBroadcast) dev::broadcastPhase<kScopeBlock>(h, t, d, s, n, root, blockIdx.x, gridDim.x);
  else if (kind == dev::kCollFcollect) dev::fcollectPhase<kScopeBlock>(h, t, d, s, n, blockIdx.x, gridDim.x);
  else dev::alltoallPhase<kScopeBlock>(h, t, d, s, n, blockIdx.x, gridDim.x);
}

/// A stream collective's handle and team.
struct Coll {
  const DeviceHandle& h;
  DeviceTeam t;  ///< the team as the kernels see it
  gshmem_team_t id;
};

/// The call's handle and team, once the team is one of this PE's and (need_mapped) every member's heap is mapped
/// here; else one line and the end.
Coll collTeam(const char* call, gshmem_team_t team, bool need_mapped) {
  const DeviceHandle& h = handleFor(call);
  const gshmem_team* ht = teamOfId(team);
  if (!ht)
    fatal(call, "team %d is not a team of this PE (NVSHMEM_TEAM_INVALID, destroyed, or this PE is not a member); "
          "pass a team from a split that included this PE", static_cast<int>(team));
  const DeviceTeam t{ht->start, ht->stride, ht->size, ht->my_index};
  for (int k = 0; need_mapped && k < t.size; ++k)
    if (!backendPeerPtr(t.pe(k), 0))
      fatal(call, "PE %d's device heap is not mapped here; device collectives need every PE of the team on this "
            "node with GSHMEM_P2P=1", t.pe(k));
  return Coll{h, t, team};
}

/// Blocks for a data phase in which a PE moves @p bytes: one per kBytesPerBlock, at most two per SM and at most
/// kCollPartsMax (the exchange keeps one flag per block and source PE).
unsigned blocksFor(std::size_t bytes) {
  static int sms = [] {
    int d = 0, n = 0;
    if (cudaGetDevice(&d) != cudaSuccess || cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, d) != cudaSuccess)
      n = 1;
    return n;
  }();
  const std::size_t cap = std::min<std::size_t>(std::size_t(2) * sms, kCollPartsMax);
  const std::size_t b = (bytes + kBytesPerBlock - 1) / kBytesPerBlock;
  return static_cast<unsigned>(b < 1 ? 1 : (b > cap ? cap : b));
}

/// Run a collective that sends @p c bytes to each member: the one-round exchange on the world when c fits a slot,
/// else sync + phase(blocks) + sync.
template <int Op, typename T, class Phase>
int run(const char* call, const Coll& k, dev::CollKind kind, void* d, const void* s, std::size_t c, int root,
        cudaStream_t st, Phase&& phase) {
  const DeviceHandle& h = k.h;
  const std::size_t bytes = c * static_cast<std::size_t>(k.t.size);
  if (k.t.size == 1) {  // a team of one: every collective copies its c bytes to dest, in stream order
    const cudaError_t e = d == s ? cudaSuccess : cudaMemcpyAsync(d, s, c, cudaMemcpyDeviceToDevice, st);
    if (e != cudaSuccess) fatal(call, "the copy of %zu bytes into dest failed: %s", c, cudaGetErrorString(e));
    return 0;
  }
  if (k.id == GSHMEM_TEAM_WORLD && c <= deviceCollSlotBytes(h.n_pes)) {
    if (g_epoch_heap != h.heap_base) g_epoch = 0, g_epoch_heap = h.heap_base;
    exchangeKernel<Op, T><<<blocksFor(bytes), kThreads, 0, st>>>(h, kind, ++g_epoch, d, s, c, root);
  } else {
    launchTeamBarrier(h, k.t, k.id, false, st);
    phase(blocksFor(bytes));
    launchTeamBarrier(h, k.t, k.id, false, st);
  }
  checkLaunch(call);
  return 0;
}

template <int Op, typename T>
int reduceOnStream(const char* call, gshmem_team_t team, T* d, const T* s, std::size_t n, bool scatter,
                   cudaStream_t st) {
  const Coll k = collTeam(call, team, true);
  if (n == 0) return 0;
  const std::size_t npes = static_cast<std::size_t>(k.t.size);
  checkDev(call, "dest", d, n * sizeof(T));
  checkDev(call, "source", s, (scatter ? n * npes : n) * sizeof(T));
  return run<Op, T>(call, k, scatter ? dev::kCollReducescatter : dev::kCollReduce, d, s, n * sizeof(T), 0, st,
                    [&](unsigned blocks) {
                      reduceKernel<Op, T><<<blocks, kThreads, 0, st>>>(k.h, k.t, d, s, n, scatter ? 1 : 0);
                    });
}

/// Broadcast, fcollect or alltoall (kind) of n bytes per PE.
int moverOnStream(const char* call, gshmem_team_t team, dev::CollKind kind, void* d, const void* s, std::size_t n,
                  int root, cudaStream_t st) {
  const Coll k = collTeam(call, team, true);
  if (kind == dev::kCollBroadcast && static_cast<unsigned>(root) >= static_cast<unsigned>(k.t.size))
    fatal(call, "PE_root %d is not a PE of the team (0..%d)", root, k.t.size - 1);
  if (n == 0) return 0;
  const std::size_t npes = static_cast<std::size_t>(k.t.size);
  checkDev(call, "dest", d, kind == dev::kCollBroadcast ? n : n * npes);
  checkDev(call, "source", s, kind == dev::kCollAlltoall ? n * npes : n);
  return run<dev::kRedSum, unsigned char>(call, k, kind, d, s, n, root, st, [&](unsigned blocks) {
    moverKernel<<<blocks, kThreads, 0, st>>>(k.h, k.t, kind, d, s, n, root);
  });
}

/// Barrier (do_quiet) or sync of any team this PE belongs to; unmapped members are reached through the proxy.
void syncOnStream(const char* call, gshmem_team_t team, bool do_quiet, cudaStream_t st) {
  const Coll k = collTeam(call, team, false);
  launchTeamBarrier(k.h, k.t, k.id, do_quiet, st);
  checkLaunch(call);
}

}  // namespace
}  // namespace gshmem::device

using gshmem::dev::kCollAlltoall;
using gshmem::dev::kCollBroadcast;
using gshmem::dev::kCollFcollect;

extern "C" {

#define GSHMEMI_DEF_RED_STREAM(N, T, OP, O)                                                                  \
  int gshmemx_##N##_##OP##_reduce_on_stream(gshmem_team_t t, T* d, const T* s, size_t n, cudaStream_t st) { \
    return gshmem::device::reduceOnStream<O, T>("gshmemx_" #N "_" #OP "_reduce_on_stream", t, d, s, n,     \
                                                false, st);                                                 \
  }                                                                                                         \
  int gshmemx_##N##_##OP##_reducescatter_on_stream(gshmem_team_t t, T* d, const T* s, size_t n,             \
                                                   cudaStream_t st) {                                       \
    return gshmem::device::reduceOnStream<O, T>("gshmemx_" #N "_" #OP "_reducescatter_on_stream", t, d, s, \
                                                n, true, st);                                               \
  }
#define GSHMEMI_DEF_RED_STREAM_ARITH(N, T) GSHMEMI_RED_ARITH_OPS(GSHMEMI_DEF_RED_STREAM, N, T)
#define GSHMEMI_DEF_RED_STREAM_BIT(N, T) GSHMEMI_RED_BIT_OPS(GSHMEMI_DEF_RED_STREAM, N, T)
GSHMEMI_RED_ARITH_TYPES(GSHMEMI_DEF_RED_STREAM_ARITH)
GSHMEMI_RED_BIT_TYPES(GSHMEMI_DEF_RED_STREAM_BIT)
GSHMEMI_RED_PAIR_TYPES(GSHMEMI_DEF_RED_STREAM)

int gshmemx_broadcastmem_on_stream(gshmem_team_t t, void* d, const void* s, size_t n, int root, cudaStream_t st) {
  return gshmem::device::moverOnStream("gshmemx_broadcastmem_on_stream", t, kCollBroadcast, d, s, n, root, st);
}
int gshmemx_fcollectmem_on_stream(gshmem_team_t t, void* d, const void* s, size_t n, cudaStream_t st) {
  return gshmem::device::moverOnStream("gshmemx_fcollectmem_on_stream", t, kCollFcollect, d, s, n, 0, st);
}
int gshmemx_alltoallmem_on_stream(gshmem_team_t t, void* d, const void* s, size_t n, cudaStream_t st) {
  return gshmem::device::moverOnStream("gshmemx_alltoallmem_on_stream", t, kCollAlltoall, d, s, n, 0, st);
}
void gshmemx_barrier_on_stream(gshmem_team_t t, cudaStream_t st) {
  gshmem::device::syncOnStream("gshmemx_barrier_on_stream", t, true, st);
}
void gshmemx_team_sync_on_stream(gshmem_team_t t, cudaStream_t st) {
  gshmem::device::syncOnStream("gshmemx_team_sync_on_stream", t, false, st);
}

}  // extern "C"
