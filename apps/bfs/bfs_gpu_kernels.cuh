// bfs_gpu kernels: one level of the direction-optimizing search on this PE's block of vertices, and the small
// kernels around it (reset, root, frontier bitmap bookkeeping, the device-initiated send of top-down records).
//
// State (Dev, passed by value): the CSR of this PE's vertices [v0, v0 + nloc) with global neighbour ids; parent
// (global id, kUnreached) and level (-1) per local vertex; `visited`, a bitmap over all npes * chunk global ids
// whose own slice is exact and whose other slices mean "already sent to its owner or known visited"; `slice`, this
// level's newly visited own vertices (the next frontier as a bitmap); `front`, the frontier gathered from every
// PE's slice (read by bottom-up); the queues qin (this level's frontier, local ids) and qout (the next one).
//
// Claiming: a vertex is visited by whoever sets its bit in `visited` first (atomicOr), so each vertex gets one
// parent, one level and one queue slot per search. Remote vertices are claimed in the sender's copy of the bitmap,
// so each PE sends each remote vertex at most once per search: the per-destination outbox and the per-source
// receive region hold `chunk` records each, and a larger count is reported through ctr[kErr].
//
// Counters (ctr, zeroed per level by the host): kQout qout entries, kN and kM the vertices visited this level and
// their adjacency entries, kBig the deferred high-degree frontier vertices, kErr an overflow flag, kOut + d the
// records for PE d in the outbox.
#ifndef GSHMEM_APPS_BFS_GPU_KERNELS_CUH
#define GSHMEM_APPS_BFS_GPU_KERNELS_CUH

#include <cooperative_groups.h>
#include <gshmem/device.cuh>

#include <cstdint>

namespace bfs_gpu {

namespace cg = cooperative_groups;
using ull = unsigned long long;

constexpr int kThreads = 256;                 // threads per block of every kernel
constexpr unsigned kSendBlocks = 8;           // blocks per destination PE putting a top-down level's records
constexpr size_t kWarmBytes = size_t(16) << 20;  // per peer, the untimed warm-up of the exchange path before a search
constexpr uint64_t kBigDegree = 4096;         // top-down: frontier vertices above this go to the grid-wide kernel
constexpr uint64_t kWarpScan = 128;           // bottom-up: vertices above this are scanned by a whole warp
constexpr uint32_t kUnreached = 0xffffffffu;  // parent of an unreached vertex
enum Ctr : int { kQout = 0, kN, kM, kBig, kErr, kOut };

struct Dev {
  const uint64_t* off = nullptr;  // nloc + 1
  const uint32_t* adj = nullptr;
  uint32_t* parent = nullptr;     // nloc
  int32_t* level = nullptr;       // nloc
  uint64_t* visited = nullptr;    // npes * words
  uint64_t* slice = nullptr;      // words
  const uint64_t* front = nullptr;  // npes * words
  const uint32_t* qin = nullptr;  // frontier (local ids)
  uint32_t* qout = nullptr;       // next frontier (local ids), nloc
  uint32_t* big = nullptr;        // deferred high-degree frontier vertices
  uint64_t* outbox = nullptr;     // npes * chunk records (v << 32 | parent), region d for PE d
  uint64_t* recv = nullptr;       // npes * chunk records, region s from PE s (symmetric in the gshmem mode)
  uint64_t* rcount = nullptr;     // npes: records in region s (symmetric in the gshmem mode)
  ull* ctr = nullptr;             // kOut + npes
  uint64_t v0 = 0, nloc = 0, chunk = 0, words = 0;
  int me = 0, npes = 1;
  int32_t lvl = 0;                // the level being expanded: visits get lvl + 1
};

namespace kernels {

__device__ inline bool testBit(const uint64_t* b, uint64_t i) { return (b[i >> 6] >> (i & 63)) & 1; }

/** True for the one caller that sets bit i first. */
__device__ inline bool claim(uint64_t* b, uint64_t i) {
  const ull bit = 1ull << (i & 63);
  if (b[i >> 6] & bit) return false;  // a stale read only costs the atomic below
  return !(atomicOr(reinterpret_cast<ull*>(b + (i >> 6)), bit) & bit);
}

/** One slot per caller of a counter shared by the threads that reach this call together. */
__device__ inline ull aggregatedSlot(ull* c) {
  cg::coalesced_group g = cg::coalesced_threads();
  ull base = 0;
  if (g.thread_rank() == 0) base = atomicAdd(c, (ull)g.size());
  return g.shfl(base, 0) + g.thread_rank();
}

/** Adds every thread's (n, m) to the level counters: one atomic per warp. Every thread of the block must call. */
__device__ inline void addCounts(const Dev& d, ull n, ull m) {
  for (int s = 16; s > 0; s >>= 1) {
    n += __shfl_down_sync(0xffffffffu, n, s);
    m += __shfl_down_sync(0xffffffffu, m, s);
  }
  if ((threadIdx.x & 31) == 0 && (n || m)) {
    atomicAdd(&d.ctr[kN], n);
    atomicAdd(&d.ctr[kM], m);
  }
}

/** Local vertex l, just claimed, joins the next frontier with parent p (global id). */
__device__ inline void visitLocal(const Dev& d, uint64_t l, uint32_t p, ull& n, ull& m) {
  d.parent[l] = p;
  d.level[l] = d.lvl + 1;
  atomicOr(reinterpret_cast<ull*>(d.slice + (l >> 6)), 1ull << (l & 63));
  d.qout[aggregatedSlot(&d.ctr[kQout])] = (uint32_t)l;
  ++n;
  m += d.off[l + 1] - d.off[l];
}

/** Top-down edge (u, v), u a frontier vertex of this PE: visit a local v, or queue (v, u) for v's owner. */
__device__ inline void scanEdge(const Dev& d, uint32_t v, uint32_t u, ull& n, ull& m) {
  if (!claim(d.visited, v)) return;
  const uint64_t l = (uint64_t)v - d.v0;
  if (l < d.nloc) return visitLocal(d, l, u, n, m);
  const int dst = (int)(v / d.chunk);
  cg::coalesced_group g = cg::coalesced_threads();
  cg::coalesced_group same = cg::labeled_partition(g, dst);
  ull base = 0;
  if (same.thread_rank() == 0) base = atomicAdd(&d.ctr[kOut + dst], (ull)same.size());
  const ull slot = same.shfl(base, 0) + same.thread_rank();
  if (slot < d.chunk) d.outbox[dst * d.chunk + slot] = (uint64_t)v << 32 | u;
  else d.ctr[kErr] = 1;
}

/** Top-down, one warp per frontier vertex; vertices of degree > kBigDegree are deferred to topDownBigKernel. */
__global__ void __launch_bounds__(kThreads) topDownKernel(Dev d, uint64_t nin) {
  ull n = 0, m = 0;
  const unsigned lane = threadIdx.x & 31;
  const uint64_t nw = (uint64_t)gridDim.x * blockDim.x / 32;
  for (uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; w < nin; w += nw) {
    const uint32_t l = d.qin[w];
    const uint64_t b = d.off[l], e = d.off[l + 1];
    const uint32_t u = (uint32_t)(d.v0 + l);
    if (e - b > kBigDegree) {  // warp-uniform
      if (lane == 0) d.big[atomicAdd(&d.ctr[kBig], 1ull)] = l;
      continue;
    }
    for (uint64_t k = b + lane; k < e; k += 32) scanEdge(d, d.adj[k], u, n, m);
  }
  addCounts(d, n, m);
}

/** Top-down for the deferred vertices: the whole grid shares each one's adjacency. */
__global__ void __launch_bounds__(kThreads) topDownBigKernel(Dev d) {
  ull n = 0, m = 0;
  const ull nbig = *(volatile ull*)&d.ctr[kBig];
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (ull i = 0; i < nbig; ++i) {
    const uint32_t l = d.big[i];
    const uint32_t u = (uint32_t)(d.v0 + l);
    for (uint64_t k = d.off[l] + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, e = d.off[l + 1]; k < e; k += stride)
      scanEdge(d, d.adj[k], u, n, m);
  }
  addCounts(d, n, m);
}

/** Bottom-up scan of vertex l's neighbours [b, e) by the whole warp, 32 at a time: the first neighbour (in
 *  adjacency order) in the frontier, or kUnreached. Every lane of the warp calls with the same arguments. */
__device__ inline uint32_t warpFirstInFront(const Dev& d, uint64_t b, uint64_t e) {
  const unsigned lane = threadIdx.x & 31;
  for (uint64_t k = b; k < e; k += 32) {
    const bool in = k + lane < e;
    const uint32_t u = in ? d.adj[k + lane] : 0;
    const unsigned hits = __ballot_sync(0xffffffffu, in && testBit(d.front, u));
    if (hits) return __shfl_sync(0xffffffffu, u, __ffs(hits) - 1);
  }
  return kUnreached;
}

/** Bottom-up, one thread per own vertex slot (warps cover 32 slots of one bitmap word): an unvisited vertex
 *  takes its first neighbour in the gathered frontier as parent. Vertices of degree > kWarpScan are scanned by
 *  the whole warp, so no thread walks a long list alone. Slots past nloc are marked visited. */
__global__ void __launch_bounds__(kThreads) bottomUpKernel(Dev d) {
  ull n = 0, m = 0;
  const unsigned lane = threadIdx.x & 31;
  const uint64_t total = d.words * 64, stride = (uint64_t)gridDim.x * blockDim.x;
  uint64_t* own = d.visited + (uint64_t)d.me * d.words;
  for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); base < total; base += stride) {
    const uint64_t l = base + lane;
    const bool todo = !testBit(own, l);
    const uint64_t b = todo ? d.off[l] : 0, e = todo ? d.off[l + 1] : 0;
    uint32_t p = kUnreached;
    if (e - b <= kWarpScan) {
      for (uint64_t k = b; k < e; ++k) {
        const uint32_t u = d.adj[k];
        if (testBit(d.front, u)) {
          p = u;
          break;
        }
      }
    }
    for (unsigned big = __ballot_sync(0xffffffffu, e - b > kWarpScan); big; big &= big - 1) {
      const int src = __ffs(big) - 1;
      const uint32_t q = warpFirstInFront(d, __shfl_sync(0xffffffffu, b, src), __shfl_sync(0xffffffffu, e, src));
      if ((int)lane == src) p = q;
    }
    const bool found = p != kUnreached;
    if (found) {
      d.parent[l] = p;
      d.level[l] = d.lvl + 1;
      ++n;
      m += e - b;
    }
    const unsigned bits = __ballot_sync(0xffffffffu, found);
    if (lane == 0 && bits) {
      const ull mask = (ull)bits << (base & 63);
      atomicOr(reinterpret_cast<ull*>(d.slice + (base >> 6)), mask);
      atomicOr(reinterpret_cast<ull*>(own + (base >> 6)), mask);
    }
  }
  addCounts(d, n, m);
}

/** Records received this level (region s from PE s): the first record of an unvisited own vertex wins. */
__global__ void __launch_bounds__(kThreads) receiveKernel(Dev d) {
  ull n = 0, m = 0;
  const int src = blockIdx.y;
  const uint64_t cnt = src == d.me ? 0 : *(volatile uint64_t*)&d.rcount[src];
  if (cnt > d.chunk && threadIdx.x == 0 && blockIdx.x == 0) d.ctr[kErr] = 2;
  const uint64_t* rec = d.recv + (uint64_t)src * d.chunk;
  const uint64_t lim = cnt > d.chunk ? d.chunk : cnt;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < lim; i += (uint64_t)gridDim.x * blockDim.x) {
    const uint64_t r = rec[i], v = r >> 32, l = v - d.v0;
    if (l >= d.nloc) {
      d.ctr[kErr] = 3;
      continue;
    }
    if (claim(d.visited, v)) visitLocal(d, l, (uint32_t)(r & 0xffffffffu), n, m);
  }
  addCounts(d, n, m);
}

/** Block d (!= me) puts the outbox region for PE d into d's receive region me and its count into d's
 *  rcount[me], then completes its puts (the host's barrier_all_on_stream follows). */
__global__ void sendKernel(Dev d) {
  const int dst = blockIdx.y;
  if (dst == d.me) return;  // block-uniform
  const ull cnt = *(volatile ull*)&d.ctr[kOut + dst];
  const ull n = cnt > d.chunk ? d.chunk : cnt;
  // Block x of gridDim.x puts its share of the records (whole 16-byte pairs of records, so the stores stay wide).
  const ull pairs = (n + 1) / 2, per = (pairs + gridDim.x - 1) / gridDim.x;
  const ull b = min(n, 2 * per * blockIdx.x), e = min(n, 2 * per * (blockIdx.x + 1));
  if (e > b)
    gshmemx_putmem_nbi_block(d.recv + (uint64_t)d.me * d.chunk + b, d.outbox + (uint64_t)dst * d.chunk + b,
                             (e - b) * sizeof(uint64_t), dst);
  __syncthreads();
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) gshmem_uint64_p(d.rcount + d.me, (uint64_t)n, dst);
    gshmem_quiet();
  }
}

/** visited |= front over the whole bitmap (after a gather). */
__global__ void orFrontKernel(Dev d) {
  const uint64_t nw = d.words * d.npes;
  for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; w < nw; w += (uint64_t)gridDim.x * blockDim.x)
    d.visited[w] |= d.front[w];
}

/** qout := the own vertices of `slice` (after a bottom-up level; ctr[kQout] zeroed before). */
__global__ void queueFromSliceKernel(Dev d) {
  for (uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; w < d.words; w += (uint64_t)gridDim.x * blockDim.x)
    for (uint64_t b = d.slice[w]; b; b &= b - 1)
      d.qout[aggregatedSlot(&d.ctr[kQout])] = (uint32_t)(w * 64 + __ffsll(b) - 1);
}

/** Before a search: own slots past nloc count as visited; the root (when it is ours) is visited at level 0 and
 *  is the only entry of qout. */
__global__ void startKernel(Dev d, uint64_t root) {
  uint64_t* own = d.visited + (uint64_t)d.me * d.words;
  for (uint64_t l = d.nloc + blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; l < d.words * 64;
       l += (uint64_t)gridDim.x * blockDim.x)
    atomicOr(reinterpret_cast<ull*>(own + (l >> 6)), 1ull << (l & 63));
  const uint64_t l = root - d.v0;
  if (blockIdx.x == 0 && threadIdx.x == 0 && root >= d.v0 && l < d.nloc) {
    d.parent[l] = (uint32_t)root;
    d.level[l] = 0;
    atomicOr(reinterpret_cast<ull*>(own + (l >> 6)), 1ull << (l & 63));
    d.qout[0] = (uint32_t)l;
  }
}

}  // namespace kernels
}  // namespace bfs_gpu

#endif  // GSHMEM_APPS_BFS_GPU_KERNELS_CUH
