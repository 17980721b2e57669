// The stream forms of the device collectives (collectives/device/stream_coll.hpp, behind gshmemx_*_on_stream; the host
// forms wait for them). Arguments are checked on the host, then kernels go on the stream, taking the DeviceHandle
// and the team (DeviceTeam, from the host team of the id) by value:
//   * a team of one PE: one copy into dest (none in place): a copy kernel up to 4 MiB, the copy engine above;
//   * on the world, when a PE's contribution to each PE fits a scratch slot (deviceCollSlotBytes): one kernel, the
//     one-round exchange through the scratch (coll__funcs.cuh), over as many blocks as the bytes warrant; up to
//     GSHMEM_DEVICE_COLL_LL_MAX, its low-latency form (coll_ll__funcs.cuh);
//   * on a world of two PEs above that, reduce and reducescatter with dest and source apart
//     (GSHMEM_DEVICE_COLL_DIRECT): one kernel; each PE's dest is where the peer's contribution lands, chunk flags
//     order the combine after it (coll_direct__funcs.cuh);
//   * on the world above that, reduce (GSHMEM_DEVICE_COLL_PIPELINE): one kernel that streams each part through the
//     scratch in sub-chunks with flags and acknowledgements (coll_pipe__funcs.cuh), so only writes cross the links
//     (reducescatter takes the data phase below: over NVLink its pull is faster than the pipeline);
//   * on the world above that, broadcast, fcollect and alltoall (GSHMEM_DEVICE_COLL_CE): a barrier kernel, one
//     copy-engine copy per destination PE (each on a side stream), a barrier kernel;
//   * otherwise (or any other team: the scratch and its epochs belong to the world's sequence of calls): a barrier
//     kernel of the team, the data phase spread over many blocks (each a part of this PE's share), and a barrier
//     kernel: the data moves once, straight into dest. Stream order stands in for a grid-wide sync;
//   * a team with a member whose heap is not mapped here: the blocking staged forms (coll_staged.cuh).
// The algorithms and their contract are in include/gshmem/device/impl/coll__funcs.cuh.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "base/config.hpp"
#include "core/device/device.hpp"
#include "core/device/device_kernels.hpp"
#include "collectives/device/stream_coll.hpp"
#include "core/rma/ops.hpp"
#include "core/sync/sync.hpp"
#include "core/team/team.hpp"
#include "gshmem/device/api.cuh"
#include "gshmem/device/impl/coll__decls.cuh"
#include "gshmem/device/impl/coll_ll__funcs.cuh"
#include "gshmem/device/impl/coll_pipe__funcs.cuh"
#include "gshmem/device/impl/coll_direct__funcs.cuh"
#include "collectives/device/coll_staged.cuh"

namespace gshmem::device {
namespace {

constexpr int kThreads = 512;
constexpr std::size_t kBytesPerBlock = std::size_t(32) << 10;  ///< bytes a PE moves per block of a data phase
constexpr std::size_t kLLBytesPerBlock = 2048;  ///< bytes of a PE's part per block of a low-latency exchange

/// Exchange epochs: one per one-round call, the same sequence on every PE (collectives are called in one order).
uint64_t g_epoch = 0;
const char* g_epoch_heap = nullptr;  ///< the heap the epochs count for (its scratch flags start at zero)

template <int Op, typename T>
__global__ void __launch_bounds__(kThreads) exchangeKernel(DeviceHandle h, int kind, uint64_t epoch, void* d,
                                                           const void* s, size_t c, int root) {
  dev::exchangePart<kScopeBlock, Op, T>(h, kind, epoch, d, s, c, root, blockIdx.x, gridDim.x);
}

template <int Op, typename T>
__global__ void __launch_bounds__(kThreads) exchangeKernelLL(DeviceHandle h, int kind, uint64_t epoch, void* d,
                                                             const void* s, size_t c, int root) {
  dev::exchangePartLL<kScopeBlock, Op, T>(h, kind, epoch, d, s, c, root, blockIdx.x, gridDim.x);
}

template <int Op, typename T>
__global__ void __launch_bounds__(kThreads) pipeKernel(DeviceHandle h, uint64_t epoch, T* d, const T* s, size_t n) {
  dev::pipeReducePart<kScopeBlock, Op, T>(h, epoch, d, s, n, blockIdx.x, gridDim.x);
}

template <int Op, typename T>
__global__ void __launch_bounds__(kThreads) directKernel(DeviceHandle h, uint64_t epoch, T* d, const T* s, size_t n,
                                                         int scatter, size_t ci) {
  dev::directReducePart<kScopeBlock, Op, T>(h, epoch, d, s, n, scatter != 0, ci, blockIdx.x, gridDim.x);
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

/// A team of one: dest = source, 16 bytes per thread where both are 16-byte aligned (the library's allocations are),
/// else byte by byte. A kernel: a launch completes sooner than a small device-to-device cudaMemcpyAsync.
__global__ void __launch_bounds__(kThreads) copyKernel(char* d, const char* s, size_t c) {
  const size_t t = blockIdx.x * size_t(blockDim.x) + threadIdx.x, nt = size_t(gridDim.x) * blockDim.x;
  if (((reinterpret_cast<uintptr_t>(d) | reinterpret_cast<uintptr_t>(s)) & 15) == 0) {
    const size_t v = c / 16;
    for (size_t i = t; i < v; i += nt) reinterpret_cast<uint4*>(d)[i] = reinterpret_cast<const uint4*>(s)[i];
    for (size_t i = v * 16 + t; i < c; i += nt) d[i] = s[i];
  } else {
    for (size_t i = t; i < c; i += nt) d[i] = s[i];
  }
}

/// A team of one copies up to this many bytes with copyKernel, more with the copy engine.
constexpr std::size_t kSelfKernelMax = std::size_t(4) << 20;

/// A stream collective's handle and team.
struct Coll {
  const DeviceHandle& h;
  DeviceTeam t;  ///< the team as the kernels see it
  gshmem_team_t id;
  gshmem_team* host;  ///< the host team of the id
  bool mapped;        ///< every member's device heap is mapped here (else the staged forms, coll_staged.cuh)
};

/// The call's handle and team, once the team is one of this PE's; else one line and the end.
Coll collTeam(const char* call, gshmem_team_t team) {
  const DeviceHandle& h = handleFor(call);
  gshmem_team* ht = teamOfId(team);
  if (!ht)
    fatal(call, "team %d is not a team of this PE (NVSHMEM_TEAM_INVALID, destroyed, or this PE is not a member); "
          "pass a team from a split that included this PE", static_cast<int>(team));
  if (team >= GSHMEMI_TEAM_IDS)
    fatal(call, "team %d is host-only: device code and stream collectives reach the teams of ids below %d (split "
          "it while fewer teams are alive)", static_cast<int>(team), GSHMEMI_TEAM_IDS);
  const DeviceTeam t{ht->start, ht->stride, ht->size, ht->my_index};
  bool mapped = true;
  for (int k = 0; mapped && k < t.size; ++k) mapped = backendPeerPtr(t.pe(k), 0) != nullptr;
  return Coll{h, t, team, ht, mapped};
}

int smCount() {
  static const int sms = [] {
    int d = 0, n = 0;
    if (cudaGetDevice(&d) != cudaSuccess || cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, d) != cudaSuccess)
      n = 1;
    return n;
  }();
  return sms;
}

/// Blocks for a data phase in which a PE moves @p bytes: one per kBytesPerBlock, at most two per SM and at most
/// kCollPartsMax (the exchange keeps one flag per block and source PE).
unsigned blocksFor(std::size_t bytes) {
  const std::size_t cap = std::min<std::size_t>(std::size_t(2) * smCount(), kCollPartsMax);
  const std::size_t b = (bytes + kBytesPerBlock - 1) / kBytesPerBlock;
  return static_cast<unsigned>(b < 1 ? 1 : (b > cap ? cap : b));
}

/// At most the blocks of kernel K one PE may launch when its blocks wait for other PEs' blocks of the same index:
/// the share of the blocks this GPU holds at once that falls to each PE on it, so the blocks of every PE sharing the
/// GPU are resident together (a block waiting for one that cannot be scheduled would never finish).
template <auto K>
unsigned residentCap() {
  static const unsigned cap = [] {
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, K, kThreads, 0) != cudaSuccess || per_sm < 1) {
      cudaGetLastError();
      per_sm = 1;  // __launch_bounds__(kThreads) guarantees one
    }
    return static_cast<unsigned>(std::max(1, per_sm * smCount() / backendPesOnGpu()));
  }();
  return cap;
}

/// The epoch of the next call that uses the scratch (one-round exchange or pipeline).
uint64_t nextEpoch(const DeviceHandle& h) {
  if (g_epoch_heap != h.heap_base) g_epoch = 0, g_epoch_heap = h.heap_base;
  return ++g_epoch;
}

/// Enqueue one one-round exchange of @p c bytes to each PE (c fits a slot).
template <int Op, typename T>
void exchange(const DeviceHandle& h, dev::CollKind kind, char* d, const char* s, std::size_t c, int root,
              cudaStream_t st) {
  if (c <= std::min<std::size_t>(params().DEVICE_COLL_LL_MAX, deviceCollSlotBytes(h.n_pes) / 2)) {
    // One block per kLLBytesPerBlock of a PE's part: a thread stores and polls about one unit per peer.
    const std::size_t ll = std::min<std::size_t>((c + kLLBytesPerBlock - 1) / kLLBytesPerBlock, kCollPartsMax);
    exchangeKernelLL<Op, T><<<std::min(static_cast<unsigned>(ll), residentCap<exchangeKernelLL<Op, T>>()), kThreads,
                              0, st>>>(h, kind, nextEpoch(h), d, s, c, root);
    return;
  }
  const unsigned blocks = blocksFor(c * static_cast<std::size_t>(h.n_pes));
  exchangeKernel<Op, T><<<std::min(blocks, residentCap<exchangeKernel<Op, T>>()), kThreads, 0, st>>>(
      h, kind, nextEpoch(h), d, s, c, root);
}

/// Side streams of the copy-engine movers (one per destination PE) and the events that fork and join them; made
/// at the first such call, kept for the process.
struct CeStreams {
  std::vector<cudaStream_t> side;
  std::vector<cudaEvent_t> done;
  cudaEvent_t fork = nullptr;
};

CeStreams& ceStreams(const char* call, int n) {
  static CeStreams c;
  auto ck = [call](cudaError_t e) {
    if (e != cudaSuccess) fatal(call, "creating the copy-engine side streams failed: %s", cudaGetErrorString(e));
  };
  if (!c.fork) ck(cudaEventCreateWithFlags(&c.fork, cudaEventDisableTiming));
  while (static_cast<int>(c.side.size()) < n) {
    cudaStream_t s = nullptr;
    cudaEvent_t e = nullptr;
    ck(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    ck(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    c.side.push_back(s);
    c.done.push_back(e);
  }
  return c;
}

/// Broadcast, fcollect or alltoall of @p c bytes per PE through the copy engines: every PE's dest is free after
/// the entry barrier; each destination PE gets one copy on its own side stream (forked from and joined back into
/// st), this PE's own part by a copy kernel; the exit barrier makes every copy visible everywhere.
void ceMove(const char* call, const DeviceHandle& h, dev::CollKind kind, char* d, const char* s, std::size_t c,
            int root, cudaStream_t st) {
  const int n = h.n_pes, me = h.my_pe;
  CeStreams& cs = ceStreams(call, n);
  launchBarrier(h, false, st);
  cudaError_t e = cudaEventRecord(cs.fork, st);
  const bool sends = kind != dev::kCollBroadcast || me == root;
  for (int k = 0; sends && k < n && e == cudaSuccess; ++k) {
    const int q = (me + 1 + k) % n;  // this PE's own copy last: the links start first
    const std::size_t doff = kind == dev::kCollBroadcast ? 0 : static_cast<std::size_t>(me) * c;
    const std::size_t soff = kind == dev::kCollAlltoall ? static_cast<std::size_t>(q) * c : 0;
    const auto off = static_cast<std::size_t>(d + doff - h.heap_base);
    char* to = q == me ? d + doff : static_cast<char*>(backendPeerPtr(q, off));
    if ((e = cudaStreamWaitEvent(cs.side[k], cs.fork, 0)) != cudaSuccess) break;
    if (q == me) {  // SM stores: a copy engine copy here would queue behind the copies over the links
      copyKernel<<<blocksFor(c), kThreads, 0, cs.side[k]>>>(to, s + soff, c);
      if ((e = cudaGetLastError()) != cudaSuccess) break;
    } else if ((e = cudaMemcpyAsync(to, s + soff, c, cudaMemcpyDeviceToDevice, cs.side[k])) != cudaSuccess) {
      break;
    }
    if ((e = cudaEventRecord(cs.done[k], cs.side[k])) != cudaSuccess) break;
    e = cudaStreamWaitEvent(st, cs.done[k], 0);
  }
  if (e != cudaSuccess) fatal(call, "a copy-engine copy of %zu bytes failed: %s", c, cudaGetErrorString(e));
  launchBarrier(h, false, st);
}

/// Whether [a, a + na) and [b, b + nb) do not overlap.
bool apart(const char* a, std::size_t na, const char* b, std::size_t nb) { return a + na <= b || b + nb <= a; }

/// Run a collective that sends @p c bytes to each member: on the world, the one-round exchange when c fits a slot;
/// above, the pipeline (reduce) or the copy engines (movers) where configured; else sync + phase(blocks) + sync.
template <int Op, typename T, class Phase>
int run(const char* call, const Coll& k, dev::CollKind kind, void* d, const void* s, std::size_t c, int root,
        cudaStream_t st, Phase&& phase) {
  const DeviceHandle& h = k.h;
  const std::size_t bytes = c * static_cast<std::size_t>(k.t.size);
  char* dc = static_cast<char*>(d);
  const char* sc = static_cast<const char*>(s);
  if (k.t.size == 1) {  // a team of one: every collective copies its c bytes to dest, in stream order
    if (d == s) return 0;
    if (c <= kSelfKernelMax) {
      copyKernel<<<blocksFor(c), kThreads, 0, st>>>(dc, sc, c);
      checkLaunch(call);
      return 0;
    }
    const cudaError_t e = cudaMemcpyAsync(d, s, c, cudaMemcpyDeviceToDevice, st);
    if (e != cudaSuccess) fatal(call, "the copy of %zu bytes into dest failed: %s", c, cudaGetErrorString(e));
    return 0;
  }
  const std::size_t slot = deviceCollSlotBytes(h.n_pes);
  const bool reduction = kind == dev::kCollReduce || kind == dev::kCollReducescatter;
  const bool world = k.id == GSHMEM_TEAM_WORLD;
  if (world && c <= slot) {
    exchange<Op, T>(h, kind, dc, sc, c, root, st);
  } else if (world && reduction && h.n_pes == 2 && params().DEVICE_COLL_DIRECT &&
             apart(dc, c, sc, kind == dev::kCollReducescatter ? 2 * c : c)) {
    const std::size_t ci = std::max<std::size_t>(params().DEVICE_COLL_DIRECT_CHUNK / 16 * 16 / sizeof(T), 1);
    const unsigned parts = std::min(blocksFor(bytes), residentCap<directKernel<Op, T>>());
    directKernel<Op, T><<<parts, kThreads, 0, st>>>(h, nextEpoch(h), reinterpret_cast<T*>(dc),
                                                    reinterpret_cast<const T*>(sc), c / sizeof(T),
                                                    kind == dev::kCollReducescatter ? 1 : 0, ci);
  } else if (world && kind == dev::kCollReduce && params().DEVICE_COLL_PIPELINE && slot >= (16 << 10)) {
    // Sub-slots of at least 8 KiB: a part's piece of a slot holds two (a slot under 16 KiB, at many PEs, has no
    // part: the general path below serves it).
    const unsigned parts = std::min({blocksFor(bytes), static_cast<unsigned>(slot / (16 << 10)),
                                     residentCap<pipeKernel<Op, T>>()});
    pipeKernel<Op, T><<<parts, kThreads, 0, st>>>(h, nextEpoch(h), reinterpret_cast<T*>(dc),
                                                  reinterpret_cast<const T*>(sc), c / sizeof(T));
    launchBarrier(h, false, st);  // the other PEs write this PE's dest
  } else if (world && !reduction && params().DEVICE_COLL_CE) {
    ceMove(call, h, kind, dc, sc, c, root, st);
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
  const Coll k = collTeam(call, team);
  if (n == 0) return 0;
  const std::size_t npes = static_cast<std::size_t>(k.t.size);
  checkDev(call, "dest", d, n * sizeof(T));
  checkDev(call, "source", s, (scatter ? n * npes : n) * sizeof(T));
  if (!k.mapped) return staged::reduce<Op, T>(call, k.host, k.t, d, s, n, scatter, st);
  return run<Op, T>(call, k, scatter ? dev::kCollReducescatter : dev::kCollReduce, d, s, n * sizeof(T), 0, st,
                    [&](unsigned blocks) {
                      reduceKernel<Op, T><<<blocks, kThreads, 0, st>>>(k.h, k.t, d, s, n, scatter ? 1 : 0);
                    });
}

/// Broadcast, fcollect or alltoall (kind) of n bytes per PE.
int moverOnStream(const char* call, gshmem_team_t team, dev::CollKind kind, void* d, const void* s, std::size_t n,
                  int root, cudaStream_t st) {
  const Coll k = collTeam(call, team);
  if (kind == dev::kCollBroadcast && static_cast<unsigned>(root) >= static_cast<unsigned>(k.t.size))
    fatal(call, "PE_root %d is not a PE of the team (0..%d)", root, k.t.size - 1);
  if (n == 0) return 0;
  const std::size_t npes = static_cast<std::size_t>(k.t.size);
  checkDev(call, "dest", d, kind == dev::kCollBroadcast ? n : n * npes);
  checkDev(call, "source", s, kind == dev::kCollAlltoall ? n * npes : n);
  if (!k.mapped) return staged::move(call, k.host, k.t, kind, d, s, n, root, st);
  return run<dev::kRedSum, unsigned char>(call, k, kind, d, s, n, root, st, [&](unsigned blocks) {
    moverKernel<<<blocks, kThreads, 0, st>>>(k.h, k.t, kind, d, s, n, root);
  });
}

}  // namespace

/// Barrier (do_quiet) or sync of any team this PE belongs to; unmapped members are reached through the proxy.
void syncOnStream(const char* call, gshmem_team_t team, bool do_quiet, Stream st) {
  const Coll k = collTeam(call, team);
  launchTeamBarrier(k.h, k.t, k.id, do_quiet, st);
  checkLaunch(call);
}

int broadcastOnStream(const char* call, gshmem_team_t team, void* d, const void* s, std::size_t n, int root,
                      Stream st) {
  return moverOnStream(call, team, dev::kCollBroadcast, d, s, n, root, st);
}
int fcollectOnStream(const char* call, gshmem_team_t team, void* d, const void* s, std::size_t n, Stream st) {
  return moverOnStream(call, team, dev::kCollFcollect, d, s, n, 0, st);
}
int alltoallOnStream(const char* call, gshmem_team_t team, void* d, const void* s, std::size_t n, Stream st) {
  return moverOnStream(call, team, dev::kCollAlltoall, d, s, n, 0, st);
}

#define GSHMEMI_CORE_RED_DEF(N, T, OP, O)                                                                     \
  int reduceOnStream_##N##_##OP(const char* call, gshmem_team_t team, T* dest, const T* source, std::size_t n, \
                                bool scatter, Stream st) {                                                     \
    return reduceOnStream<O, T>(call, team, dest, source, n, scatter, st);                                     \
  }
#define GSHMEMI_CORE_RED_DEF_ARITH(N, T) GSHMEMI_RED_ARITH_OPS(GSHMEMI_CORE_RED_DEF, N, T)
#define GSHMEMI_CORE_RED_DEF_BIT(N, T) GSHMEMI_RED_BIT_OPS(GSHMEMI_CORE_RED_DEF, N, T)
GSHMEMI_RED_ARITH_TYPES(GSHMEMI_CORE_RED_DEF_ARITH)
GSHMEMI_RED_BIT_TYPES(GSHMEMI_CORE_RED_DEF_BIT)
GSHMEMI_RED_PAIR_TYPES(GSHMEMI_CORE_RED_DEF)

}  // namespace gshmem::device
