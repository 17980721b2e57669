// bfs_gpu: the Graph500 BFS (direction-optimizing, as bfs.cpp) with each search on the GPU. The graph, the search
// keys, the validation and the statistics are the host version's (graph.cpp, validate.cpp, stats.cpp): the CSR of
// this PE's vertex block is built on the host and copied to its GPU once; each search runs there; its parent and
// level arrays come back for the (untimed) validation. Before each search's timer each PE sends up to 16 MiB to
// every other PE over the path the search exchanges on (warmPath: wakes an interconnect left idle by the validation;
// --cold leaves it out), and the PEs meet twice: a barrier on the search's stream (gshmem mode: over the device path
// the search communicates on) and a host barrier.
//
// One level (kernels: bfs_gpu_kernels.cuh), all on one stream, one host synchronisation per level:
//   top-down   one warp per frontier vertex (a grid-wide kernel for degree > kBigDegree) visits unvisited own
//              neighbours and packs (v, parent) records of remote ones per owner; then the exchange: gshmem mode,
//              kSendBlocks blocks per destination put its records into the owner's receive region for this PE
//              (gshmemx_putmem_nbi_block, a share each) and the count into the owner's rcount, quiet, then
//              gshmemx_barrier_all_on_stream; --mpi, MPI_Alltoall of the counts and MPI_Alltoallv of the records.
//              The receive kernel visits the first record of each unvisited own vertex.
//   bottom-up  one thread (a warp above degree kWarpScan) per unvisited own vertex scans its neighbours against the
//              frontier bitmap gathered after the previous level (gshmemx_fcollectmem_on_stream when every PE's
//              device heap is mapped here, else a put of this PE's slice into every PE's copy and
//              gshmemx_barrier_all_on_stream; --mpi MPI_Allgather).
//   Then the level's counters come to the host, their sums over PEs (shmem_int64_sum_reduce, --mpi
//   MPI_Allreduce) choose the next direction with the host version's rule (alpha, beta) or end the search.
// Ordering across levels: every PE enters the counter reduction of level k only after its level-k kernels have
// finished, and every write into another PE's memory after it (the gather that ends level k, the sends of level
// k + 1) follows that reduction, so no receive region, count or gathered bitmap is overwritten while read.
//
// Output: the host version's lines (statistics block, per-level split where "communication" is the exchange and
// gather time measured with CUDA events or, --mpi, host clocks, plus the counter reduction) and, with --check,
// "bfs_gpu check: OK|FAILED" (every tree valid and, on PE 0, every level equal to a serial BFS of the whole graph).
// Without a GPU PE 0 prints "bfs_gpu check: SKIPPED (no GPU)" and every PE exits 0.
#include <gshmem/device.cuh>
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../common/app_util.hpp"
#include "../common/gpu_probe.cuh"
#include "bfs.hpp"
#include "bfs_gpu_kernels.cuh"

using bfs_gpu::Dev;
using bfs_gpu::kSendBlocks;
using bfs_gpu::kWarmBytes;
using bfs_gpu::kThreads;
using bfs_gpu::ull;
using namespace bfs_gpu::kernels;

#define BFS_CK(x) APP_CUDA_CK("bfs_gpu", x)
#define BFS_MPI(x)                                                                  \
  do {                                                                              \
    if ((x) != MPI_SUCCESS) {                                                       \
      std::fprintf(stderr, "bfs_gpu: PE %d: %s failed\n", shmem_my_pe(), #x);       \
      shmem_global_exit(1);                                                         \
    }                                                                               \
  } while (0)

namespace {

struct Opts {
  bfs::Params p;
  bool mpi = false;
  bool cold = false;  // --cold: no untimed warm-up of the exchange path before each search
};

Opts parse(int argc, char** argv) {
  Opts o;
  bfs::Params& p = o.p;
  apps::ArgParser ap(argc, argv,
                     "[--scale s] [-e edgefactor] [-r roots] [--seed n] [--er] [--top-down] [--alpha a] "
                     "[--beta b] [--mpi] [--cold] [--verbose] [--check]");
  for (int i = 1; i < argc; ++i) {
    if (ap.is(i, "-s", "--scale")) p.scale = (int)ap.next_int(i);
    else if (ap.is(i, "-e", "--edgefactor")) p.edgefactor = (int)ap.next_int(i);
    else if (ap.is(i, "-r", "--roots")) p.roots = (int)ap.next_int(i);
    else if (ap.is(i, nullptr, "--seed")) p.seed = (uint64_t)ap.next_int(i);
    else if (ap.is(i, nullptr, "--er")) p.er = true;
    else if (ap.is(i, nullptr, "--top-down")) p.topdown_only = true;
    else if (ap.is(i, nullptr, "--alpha")) p.alpha = ap.next_double(i);
    else if (ap.is(i, nullptr, "--beta")) p.beta = ap.next_double(i);
    else if (ap.is(i, nullptr, "--mpi")) o.mpi = true;
    else if (ap.is(i, nullptr, "--cold")) o.cold = true;
    else if (ap.is(i, nullptr, "--verbose")) p.verbose = true;
    else if (ap.is(i, nullptr, "--check")) p.check = true;
    else ap.fail(argv[i]);
  }
  return o;
}

template <typename T>
T* devAlloc(size_t n) {
  void* q = nullptr;
  BFS_CK(cudaMalloc(&q, std::max<size_t>(n, 1) * sizeof(T)));
  return static_cast<T*>(q);
}

/** The search on this PE's GPU: device copies of the CSR, search state and exchange buffers. */
class GpuSearcher {
 public:
  GpuSearcher(const Opts& o, const bfs::Graph& g);
  ~GpuSearcher();
  /** Collective: one search from root (the clearing of the previous one untimed). */
  bfs::SearchTimes run(uint64_t root);
  /** This PE's parents (-1: unreached) and levels of the last search, from the GPU. */
  void fetch(std::vector<int64_t>& parent, int32_t* level);
  bool cudaAware() const { return cuda_aware_; }
  bool mapped() const { return mapped_; }

 private:
  void start(uint64_t root);
  void warmPath();
  void topDown(uint64_t nin);
  void sendRecords();
  void sendRecordsMpi();
  void gatherFront();
  void sumCounts(const int64_t in[2], int64_t out[2]);
  unsigned blocks(uint64_t threads, unsigned cap) const {
    return (unsigned)std::max<uint64_t>(1, std::min<uint64_t>((threads + kThreads - 1) / kThreads, cap));
  }

  const Opts& o_;
  const bfs::Graph& g_;
  Dev d_;
  uint32_t* q_[2] = {};
  uint64_t* front_ = nullptr;
  ull* hctr_ = nullptr;                    // pinned copy of the counters
  uint64_t* hstage_[3] = {};               // --mpi staged: outbox, receive regions, bitmap
  int64_t* red_ = nullptr;                 // symmetric host, 4
  cudaStream_t st_ = nullptr;
  cudaEvent_t ev_[4] = {};                 // exchange start/end, gather start/end
  bool cuda_aware_ = false, mapped_ = false, sym_ = false, gather_pending_ = false;
  int sms_ = 1;
  double comm_ = 0;                        // communication seconds of the current level
};

GpuSearcher::GpuSearcher(const Opts& o, const bfs::Graph& g) : o_(o), g_(g) {
  int dev = 0;
  BFS_CK(cudaGetDevice(&dev));
  BFS_CK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, dev));
  BFS_CK(cudaStreamCreateWithFlags(&st_, cudaStreamNonBlocking));
  for (cudaEvent_t& e : ev_) BFS_CK(cudaEventCreate(&e));
  d_.v0 = g.v0, d_.nloc = g.nloc, d_.chunk = g.chunk, d_.words = g.chunk / 64, d_.me = g.me, d_.npes = g.npes;
  const uint64_t nadj = g.off[g.nloc], words = d_.words, np = (uint64_t)g.npes;
  uint64_t nbig = 0;
  for (uint64_t l = 0; l < g.nloc; ++l) nbig += g.deg(l) > bfs_gpu::kBigDegree;
  uint64_t* off = devAlloc<uint64_t>(g.nloc + 1);
  uint32_t* adj = devAlloc<uint32_t>(nadj);
  BFS_CK(cudaMemcpy(off, g.off.data(), (g.nloc + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice));
  if (nadj) BFS_CK(cudaMemcpy(adj, g.adj.data(), nadj * sizeof(uint32_t), cudaMemcpyHostToDevice));
  d_.off = off, d_.adj = adj;
  d_.parent = devAlloc<uint32_t>(g.nloc);
  d_.level = devAlloc<int32_t>(g.nloc);
  d_.visited = devAlloc<uint64_t>(np * words);
  d_.big = devAlloc<uint32_t>(nbig);
  d_.outbox = devAlloc<uint64_t>(np * d_.chunk);
  d_.ctr = devAlloc<ull>(bfs_gpu::kOut + np);
  for (uint32_t*& q : q_) q = devAlloc<uint32_t>(g.nloc);
  // The buffers other PEs write: symmetric device memory in the gshmem mode, plain device memory for MPI.
  sym_ = !o.mpi;
  if (sym_) {
    d_.recv = static_cast<uint64_t*>(gshmemx_malloc_device(np * d_.chunk * sizeof(uint64_t)));
    d_.rcount = static_cast<uint64_t*>(gshmemx_calloc_device(np, sizeof(uint64_t)));
    d_.slice = static_cast<uint64_t*>(gshmemx_calloc_device(words, sizeof(uint64_t)));
    front_ = static_cast<uint64_t*>(gshmemx_calloc_device(np * words, sizeof(uint64_t)));
    if (!d_.recv || !d_.rcount || !d_.slice || !front_) {
      std::fprintf(stderr, "bfs_gpu: PE %d: gshmemx_malloc_device of %.1f MiB failed; raise "
                   "GSHMEM_SYMMETRIC_SIZE_DEVICE\n", g.me, (np * d_.chunk + np + (np + 1) * words) * 8.0 / 1048576);
      shmem_global_exit(1);
    }
    mapped_ = true;
    for (int pe = 0; pe < g.npes; ++pe) mapped_ = mapped_ && shmem_ptr(front_, pe) != nullptr;
  } else {
    d_.recv = devAlloc<uint64_t>(np * d_.chunk);
    d_.rcount = devAlloc<uint64_t>(np);
    d_.slice = devAlloc<uint64_t>(words);
    front_ = devAlloc<uint64_t>(np * words);
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    cuda_aware_ = MPIX_Query_cuda_support() == 1 && !std::getenv("BFS_GPU_MPI_STAGED");
#endif
    if (!cuda_aware_) {
      BFS_CK(cudaMallocHost(&hstage_[0], np * d_.chunk * sizeof(uint64_t)));
      BFS_CK(cudaMallocHost(&hstage_[1], np * d_.chunk * sizeof(uint64_t)));
      BFS_CK(cudaMallocHost(&hstage_[2], np * words * sizeof(uint64_t)));
    }
  }
  d_.front = front_;
  BFS_CK(cudaMallocHost(&hctr_, (bfs_gpu::kOut + np) * sizeof(ull)));
  red_ = static_cast<int64_t*>(shmem_calloc(4, sizeof(int64_t)));
  if (!red_) {
    std::fprintf(stderr, "bfs_gpu: PE %d: shmem_calloc failed (raise GSHMEM_SYMMETRIC_SIZE)\n", g.me);
    shmem_global_exit(1);
  }
  BFS_CK(cudaDeviceSynchronize());
}

GpuSearcher::~GpuSearcher() {
  BFS_CK(cudaDeviceSynchronize());
  shmem_barrier_all();
  cudaFree(const_cast<uint64_t*>(d_.off)), cudaFree(const_cast<uint32_t*>(d_.adj)), cudaFree(d_.parent);
  cudaFree(d_.level), cudaFree(d_.visited), cudaFree(d_.big), cudaFree(d_.outbox), cudaFree(d_.ctr);
  for (uint32_t* q : q_) cudaFree(q);
  if (sym_) {
    shmem_free(front_), shmem_free(d_.slice), shmem_free(d_.rcount), shmem_free(d_.recv);
  } else {
    cudaFree(front_), cudaFree(d_.slice), cudaFree(d_.rcount), cudaFree(d_.recv);
  }
  for (uint64_t* h : hstage_)
    if (h) cudaFreeHost(h);
  cudaFreeHost(hctr_);
  for (cudaEvent_t e : ev_) cudaEventDestroy(e);
  cudaStreamDestroy(st_);
  shmem_free(red_);
}

/** Clears the previous search and visits the root (qout holds it where it is ours). */
void GpuSearcher::start(uint64_t root) {
  BFS_CK(cudaMemsetAsync(d_.parent, 0xff, d_.nloc * sizeof(uint32_t), st_));
  BFS_CK(cudaMemsetAsync(d_.level, 0xff, d_.nloc * sizeof(int32_t), st_));
  BFS_CK(cudaMemsetAsync(d_.visited, 0, d_.npes * d_.words * sizeof(uint64_t), st_));
  BFS_CK(cudaMemsetAsync(d_.slice, 0, d_.words * sizeof(uint64_t), st_));
  if (!o_.cold) warmPath();
  d_.qout = q_[0];
  startKernel<<<blocks(d_.words * 64 - d_.nloc, (unsigned)sms_), kThreads, 0, st_>>>(d_, root);
  BFS_CK(cudaGetLastError());
  if (!o_.mpi) gshmemx_barrier_all_on_stream(st_);  // the PEs meet over their own path, as --mpi's over MPI's
  BFS_CK(cudaStreamSynchronize(st_));
}

/** Untimed, before each search: one receive region of records (at most kWarmBytes) to every other PE over the
 *  path the search exchanges on (gshmem: a put on the stream; --mpi: MPI_Sendrecv, staged as its exchange is).
 *  Each search follows a host validation that leaves the interconnect idle for 0.1 s or more; an NVLink idle past
 *  its low-power threshold (50 ms by default: nvidia-smi nvlink -gLowPwrInfo) then serves sparse small transfers at
 *  about 0.1 ms each for 1-2 ms, while bulk traffic brings it back to full speed at once. The warm-up puts the
 *  search on an awake path in both modes; --cold leaves it out. The data lands in receive regions that the search
 *  overwrites before reading (each level's records and counts are sent after the setup's barrier). */
void GpuSearcher::warmPath() {
  const size_t n = std::min<size_t>(d_.chunk, kWarmBytes / sizeof(uint64_t)), ch = d_.chunk;
  if (!o_.mpi) {
    for (int k = 1; k < d_.npes; ++k) {
      const int q = (d_.me + k) % d_.npes;
      gshmemx_putmem_on_stream(d_.recv + d_.me * ch, d_.outbox + q * ch, n * sizeof(uint64_t), q, st_);
    }
    return;  // start()'s barrier on the stream completes the puts
  }
  BFS_CK(cudaStreamSynchronize(st_));
  for (int k = 1; k < d_.npes; ++k) {
    const int to = (d_.me + k) % d_.npes, from = (d_.me + d_.npes - k) % d_.npes;
    uint64_t *sb = d_.outbox + to * ch, *rb = d_.recv + from * ch;
    if (!cuda_aware_) {
      BFS_CK(cudaMemcpy(hstage_[0] + to * ch, sb, n * sizeof(uint64_t), cudaMemcpyDeviceToHost));
      sb = hstage_[0] + to * ch, rb = hstage_[1] + from * ch;
    }
    BFS_MPI(MPI_Sendrecv(sb, (int)n, MPI_UINT64_T, to, 7, rb, (int)n, MPI_UINT64_T, from, 7, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE));
    if (!cuda_aware_)
      BFS_CK(cudaMemcpy(d_.recv + from * ch, rb, n * sizeof(uint64_t), cudaMemcpyHostToDevice));
  }
}

/** gshmem mode: records to their owners by device puts, then a barrier on the stream. */
void GpuSearcher::sendRecords() {
  BFS_CK(cudaEventRecord(ev_[0], st_));
  sendKernel<<<dim3(kSendBlocks, d_.npes), kThreads, 0, st_>>>(d_);
  BFS_CK(cudaGetLastError());
  gshmemx_barrier_all_on_stream(st_);
  BFS_CK(cudaEventRecord(ev_[1], st_));
}

/** --mpi: counts by MPI_Alltoall, records by MPI_Alltoallv (device buffers, or staged through pinned memory). */
void GpuSearcher::sendRecordsMpi() {
  const int np = d_.npes;
  const size_t ch = d_.chunk, rb = sizeof(uint64_t);
  BFS_CK(cudaMemcpyAsync(hctr_, d_.ctr, (bfs_gpu::kOut + np) * sizeof(ull), cudaMemcpyDeviceToHost, st_));
  BFS_CK(cudaStreamSynchronize(st_));
  const double t0 = apps::wtime();
  std::vector<int> sc(np), rc(np), sd(np), rd(np);
  for (int q = 0; q < np; ++q) {
    sc[q] = q == d_.me ? 0 : (int)std::min<ull>(hctr_[bfs_gpu::kOut + q], ch);
    sd[q] = rd[q] = (int)(q * ch);
  }
  BFS_MPI(MPI_Alltoall(sc.data(), 1, MPI_INT, rc.data(), 1, MPI_INT, MPI_COMM_WORLD));
  uint64_t *sb = d_.outbox, *rbuf = d_.recv;
  if (!cuda_aware_) {
    for (int q = 0; q < np; ++q)
      if (sc[q])
        BFS_CK(cudaMemcpyAsync(hstage_[0] + q * ch, d_.outbox + q * ch, sc[q] * rb, cudaMemcpyDeviceToHost, st_));
    BFS_CK(cudaStreamSynchronize(st_));
    sb = hstage_[0], rbuf = hstage_[1];
  }
  BFS_MPI(MPI_Alltoallv(sb, sc.data(), sd.data(), MPI_UINT64_T, rbuf, rc.data(), rd.data(), MPI_UINT64_T,
                        MPI_COMM_WORLD));
  std::vector<uint64_t> cnt(np);
  for (int q = 0; q < np; ++q) {
    cnt[q] = (uint64_t)rc[q];
    if (!cuda_aware_ && rc[q])
      BFS_CK(cudaMemcpyAsync(d_.recv + q * ch, hstage_[1] + q * ch, rc[q] * rb, cudaMemcpyHostToDevice, st_));
  }
  BFS_CK(cudaMemcpyAsync(d_.rcount, cnt.data(), np * sizeof(uint64_t), cudaMemcpyHostToDevice, st_));
  BFS_CK(cudaStreamSynchronize(st_));  // cnt is a local vector
  comm_ += apps::wtime() - t0;
}

/** Top-down level: local visits and outgoing records, the exchange, the received records. */
void GpuSearcher::topDown(uint64_t nin) {
  if (nin) {
    topDownKernel<<<blocks(nin * 32, 16u * sms_), kThreads, 0, st_>>>(d_, nin);
    BFS_CK(cudaGetLastError());
  }
  topDownBigKernel<<<2 * sms_, kThreads, 0, st_>>>(d_);
  BFS_CK(cudaGetLastError());
  if (o_.mpi) sendRecordsMpi();
  else sendRecords();
  receiveKernel<<<dim3(2 * sms_, d_.npes), kThreads, 0, st_>>>(d_);
  BFS_CK(cudaGetLastError());
}

/** front := every PE's slice (then visited |= front); enqueued on the stream, --mpi host-synchronous. */
void GpuSearcher::gatherFront() {
  const size_t wb = d_.words * sizeof(uint64_t);
  if (o_.mpi) {
    BFS_CK(cudaStreamSynchronize(st_));
    const double t0 = apps::wtime();
    if (cuda_aware_) {
      BFS_MPI(MPI_Allgather(d_.slice, (int)d_.words, MPI_UINT64_T, front_, (int)d_.words, MPI_UINT64_T,
                            MPI_COMM_WORLD));
    } else {
      uint64_t* own = hstage_[2] + d_.me * d_.words;
      BFS_CK(cudaMemcpy(own, d_.slice, wb, cudaMemcpyDeviceToHost));
      BFS_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, hstage_[2], (int)d_.words, MPI_UINT64_T,
                            MPI_COMM_WORLD));
      BFS_CK(cudaMemcpy(front_, hstage_[2], wb * d_.npes, cudaMemcpyHostToDevice));
    }
    comm_ += apps::wtime() - t0;
  } else {
    BFS_CK(cudaEventRecord(ev_[2], st_));
    if (mapped_) {
      if (gshmemx_fcollectmem_on_stream(GSHMEM_TEAM_WORLD, front_, d_.slice, wb, st_) != 0) {
        std::fprintf(stderr, "bfs_gpu: PE %d: gshmemx_fcollectmem_on_stream failed\n", d_.me);
        shmem_global_exit(1);
      }
    } else {
      for (int k = 0; k < d_.npes; ++k) {
        const int pe = (d_.me + k) % d_.npes;
        gshmemx_putmem_on_stream(front_ + d_.me * d_.words, d_.slice, wb, pe, st_);
      }
      gshmemx_barrier_all_on_stream(st_);
    }
    BFS_CK(cudaEventRecord(ev_[3], st_));
    gather_pending_ = true;
  }
  orFrontKernel<<<blocks(d_.npes * d_.words, 4u * sms_), kThreads, 0, st_>>>(d_);
  BFS_CK(cudaGetLastError());
}

/** out = sums over PEs of in (vertices and adjacency entries of the next frontier). */
void GpuSearcher::sumCounts(const int64_t in[2], int64_t out[2]) {
  const double t0 = apps::wtime();
  if (o_.mpi) {
    BFS_MPI(MPI_Allreduce(in, out, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD));
  } else {
    red_[0] = in[0], red_[1] = in[1];
    shmem_int64_sum_reduce(SHMEM_TEAM_WORLD, red_ + 2, red_, 2);
    out[0] = red_[2], out[1] = red_[3];
  }
  comm_ += apps::wtime() - t0;
}

bfs::SearchTimes GpuSearcher::run(uint64_t root) {
  bfs::SearchTimes st;
  start(root);
  shmem_barrier_all();
  const double t0 = apps::wtime();
  uint64_t nin = root >= d_.v0 && root - d_.v0 < d_.nloc ? 1 : 0;
  int cur = 0;  // q_[cur] is the frontier queue
  bool bu = false;
  int64_t n_f = 1, m_u = (int64_t)g_.total_adj;
  for (int32_t lvl = 0;; ++lvl) {
    const double tl0 = apps::wtime();
    comm_ = 0;
    d_.lvl = lvl, d_.qin = q_[cur], d_.qout = q_[1 - cur];
    BFS_CK(cudaMemsetAsync(d_.ctr, 0, (bfs_gpu::kOut + d_.npes) * sizeof(ull), st_));
    if (bu) {
      bottomUpKernel<<<blocks(d_.words * 64, 8u * sms_), kThreads, 0, st_>>>(d_);
      BFS_CK(cudaGetLastError());
    } else {
      topDown(nin);
    }
    BFS_CK(cudaMemcpyAsync(hctr_, d_.ctr, (bfs_gpu::kOut + d_.npes) * sizeof(ull), cudaMemcpyDeviceToHost, st_));
    BFS_CK(cudaStreamSynchronize(st_));
    float ms = 0;
    if (!bu && !o_.mpi) {
      BFS_CK(cudaEventElapsedTime(&ms, ev_[0], ev_[1]));
      comm_ += ms * 1e-3;
    }
    if (gather_pending_) {  // the gather enqueued at the end of the previous level, counted in the level reading it
      BFS_CK(cudaEventElapsedTime(&ms, ev_[2], ev_[3]));
      comm_ += ms * 1e-3;
      gather_pending_ = false;
    }
    if (hctr_[bfs_gpu::kErr]) {
      std::fprintf(stderr, "bfs_gpu: PE %d: record buffer overflow or bad record (code %llu) at level %d\n", d_.me,
                   hctr_[bfs_gpu::kErr], lvl);
      shmem_global_exit(3);
    }
    const int64_t mine[2] = {(int64_t)hctr_[bfs_gpu::kN], (int64_t)hctr_[bfs_gpu::kM]};
    int64_t sum[2];
    sumCounts(mine, sum);
    ++st.levels;
    st.bottom_up_levels += bu;
    bool nb = bu;
    if (sum[0] > 0) {
      m_u -= sum[1];
      if (o_.p.topdown_only) nb = false;
      else if (!bu) nb = (double)sum[1] > (double)m_u / o_.p.alpha;
      else nb = !((double)sum[0] < (double)g_.n / o_.p.beta && sum[0] < n_f);
      if (nb) {
        gatherFront();
      } else if (bu) {  // back to top-down: the queue from the bitmap
        BFS_CK(cudaMemsetAsync(d_.ctr + bfs_gpu::kQout, 0, sizeof(ull), st_));
        queueFromSliceKernel<<<blocks(d_.words, 4u * sms_), kThreads, 0, st_>>>(d_);
        BFS_CK(cudaGetLastError());
      }
      nin = (uint64_t)mine[0];
      BFS_CK(cudaMemsetAsync(d_.slice, 0, d_.words * sizeof(uint64_t), st_));
      cur = 1 - cur;
    }
    st.comm += comm_;
    st.level_time.push_back(apps::wtime() - tl0);
    st.level_comm.push_back(comm_);
    st.level_bottom_up.push_back(bu);
    if (sum[0] == 0) break;
    bu = nb;
    n_f = sum[0];
  }
  st.total = apps::wtime() - t0;
  st.compute = st.total - st.comm;
  return st;
}

void GpuSearcher::fetch(std::vector<int64_t>& parent, int32_t* level) {
  std::vector<uint32_t> p(d_.nloc);
  BFS_CK(cudaStreamSynchronize(st_));
  if (d_.nloc) {
    BFS_CK(cudaMemcpy(p.data(), d_.parent, d_.nloc * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    BFS_CK(cudaMemcpy(level, d_.level, d_.nloc * sizeof(int32_t), cudaMemcpyDeviceToHost));
  }
  for (uint64_t l = d_.nloc; l < d_.chunk; ++l) level[l] = -1;
  parent.resize(d_.nloc);
  for (uint64_t l = 0; l < d_.nloc; ++l) parent[l] = p[l] == bfs_gpu::kUnreached ? -1 : (int64_t)p[l];
}

}  // namespace

namespace {

/** Per-level split summed over searches (PE 0): searches reaching the level, how many ran it bottom-up, and the
 *  slowest PE's wall and communication time of the level. */
struct LevelSplit {
  static constexpr int kMax = 64;
  double* buf = nullptr;  // symmetric, 4 * kMax: [time, comm] of this PE, then their maxima
  std::vector<double> n = std::vector<double>(kMax), bu = n, time = n, comm = n;

  void add(const bfs::SearchTimes& st) {
    const int nl = std::min<int>(kMax, (int)st.level_time.size());
    std::fill(buf, buf + 2 * kMax, 0.0);
    for (int l = 0; l < nl; ++l) buf[l] = st.level_time[l], buf[kMax + l] = st.level_comm[l];
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, buf + 2 * kMax, buf, 2 * kMax);
    for (int l = 0; l < nl; ++l) {
      n[l] += 1;
      bu[l] += st.level_bottom_up[l];
      time[l] += buf[2 * kMax + l];
      comm[l] += buf[3 * kMax + l];
    }
  }
  void print() const {
    std::printf("bfs_gpu: per level, mean over the searches that reach it (slowest PE): level, searches, bottom-up, "
                "time ms, of which communication ms\n");
    for (int l = 0; l < kMax && n[l] > 0; ++l)
      std::printf("bfs_gpu:   %2d %3.0f %3.0f %9.3f %9.3f\n", l, n[l], bu[l], time[l] / n[l] * 1e3,
                  comm[l] / n[l] * 1e3);
  }
};

/** Level mismatches between the gathered levels and a serial BFS of the full graph (PE 0). */
int64_t compareSerial(const bfs::Graph& full, uint64_t root, const int32_t* level_all) {
  const std::vector<int32_t> ref = bfs::serial_levels(full, root);
  int64_t mism = 0;
  for (uint64_t v = 0; v < full.n; ++v) mism += ref[v] != level_all[v];
  if (mism) std::printf("bfs_gpu check: root %" PRIu64 ": %" PRId64 " levels differ from serial BFS\n", root, mism);
  return mism;
}

/** Slowest PE's total, compute and communication time of one search. */
void maxTimes(double* red, const bfs::SearchTimes& st, double out[3]) {
  red[0] = st.total, red[1] = st.compute, red[2] = st.comm;
  shmem_double_max_reduce(SHMEM_TEAM_WORLD, red + 3, red, 3);
  std::memcpy(out, red + 3, 3 * sizeof(double));
}

struct Totals {
  int64_t bad = 0, check_bad = 0;
};

/** A root in a small component (a search of < 1% of the largest search's edges) takes the fixed cost of a search
 *  for a handful of edges and dominates Graph500's harmonic mean: says how many there were and the harmonic mean
 *  over the others, beside (not instead of) the Graph500 statistic. */
void reportSmallComponents(const std::vector<double>& times, const std::vector<double>& nedges) {
  if (nedges.empty()) return;
  const double big = *std::max_element(nedges.begin(), nedges.end());
  double inv = 0;
  size_t n = 0;
  for (size_t i = 0; i < times.size(); ++i)
    if (nedges[i] >= 0.01 * big) inv += times[i] / nedges[i], ++n;
  if (n < times.size() && n > 0)
    std::printf("bfs_gpu: %zu of %zu roots lie in small components (< 1%% of the largest search's edges); harmonic "
                "mean over the other %zu: %.4e TEPS (not Graph500's statistic)\n", times.size() - n, times.size(), n,
                n / inv);
}

/** Collective: the untimed warm-up search, then one timed and validated search per root; prints statistics. */
void runSearches(const Opts& o, const bfs::Graph& g, const bfs::Graph& full, const std::vector<uint64_t>& roots,
                 double tgen, double* red, Totals& tot) {
  const int me = g.me;
  GpuSearcher s(o, g);
  int32_t* level = static_cast<int32_t*>(shmem_malloc(g.chunk * sizeof(int32_t)));
  int32_t* level_all = static_cast<int32_t*>(shmem_malloc(g.chunk * g.npes * sizeof(int32_t)));
  LevelSplit split;
  split.buf = static_cast<double*>(shmem_malloc(4 * LevelSplit::kMax * sizeof(double)));
  if (!level || !level_all || !split.buf) {
    std::fprintf(stderr, "bfs_gpu: PE %d: shmem_malloc failed (raise GSHMEM_SYMMETRIC_SIZE)\n", me);
    shmem_global_exit(1);
  }
  if (me == 0)
    std::printf("bfs_gpu: exchange %s\n", o.mpi ? (s.cudaAware() ? "MPI (CUDA-aware, device buffers)"
                                                                  : "MPI (staged through pinned host buffers)")
                                               : (s.mapped() ? "gshmem device puts, stream fcollect"
                                                             : "gshmem device puts, stream puts of the bitmap"));
  std::vector<int64_t> parent;
  double edges = 0;
  if (!roots.empty()) {  // warm-up: first touch of every buffer; not in the statistics
    s.run(roots[0]);
    s.fetch(parent, level);
    tot.bad += bfs::validate(g, roots[0], parent, level, level_all, &edges);
  }
  std::vector<double> times, nedges, vtimes;
  double sum_comp = 0, sum_comm = 0;
  for (const uint64_t root : roots) {
    const bfs::SearchTimes st = s.run(root);
    double t[3];
    maxTimes(red, st, t);
    split.add(st);
    const double tv0 = apps::wtime();
    s.fetch(parent, level);
    const int64_t bad = bfs::validate(g, root, parent, level, level_all, &edges);
    vtimes.push_back(apps::wtime() - tv0);
    tot.bad += bad;
    times.push_back(t[0]);
    nedges.push_back(edges);
    sum_comp += t[1], sum_comm += t[2];
    if (me == 0 && (o.p.verbose || bad))
      std::printf("bfs_gpu: root %" PRIu64 ": %d levels (%d bottom-up), %.0f edges, %.5f s (compute %.5f, comm "
                  "%.5f), %.3e TEPS, validation %s\n", root, st.levels, st.bottom_up_levels, edges, t[0], t[1],
                  t[2], edges / t[0], bad ? "FAILED" : "ok");
    if (o.p.check && me == 0) tot.check_bad += compareSerial(full, root, level_all);
  }
  if (me == 0) {
    bfs::print_statistics(o.p, g.npes, tgen, times, nedges, vtimes);
    split.print();
    const double nr = roots.empty() ? 1.0 : (double)roots.size();
    std::printf("bfs_gpu: mean per search: compute %.5f s, communication %.5f s (slowest PE of each part)\n",
                sum_comp / nr, sum_comm / nr);
    double inv = 0;
    for (size_t i = 0; i < times.size(); ++i) inv += times[i] / nedges[i];
    std::printf("bfs_gpu: harmonic mean %.4e TEPS over %zu roots (warm-up search excluded); validation %s\n",
                times.empty() ? 0.0 : times.size() / inv, roots.size(), tot.bad ? "FAILED" : "ok");
    reportSmallComponents(times, nedges);
  }
  shmem_barrier_all();
  shmem_free(split.buf);
  shmem_free(level_all);
  shmem_free(level);
}

}  // namespace

int main(int argc, char** argv) {
  const Opts o = parse(argc, argv);
  const bfs::Params& p = o.p;
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (!gshmemx_device_available()) {
    if (me == 0) std::printf("bfs_gpu check: SKIPPED (no GPU)\n");
    shmem_finalize();
    return 0;
  }
  if (p.scale < 1 || p.scale > 30 || p.edgefactor < 1 || p.roots < 1 || !(p.alpha > 0) || !(p.beta > 0)) {
    if (me == 0) std::fprintf(stderr, "bfs_gpu: need 1 <= scale <= 30, edgefactor >= 1, roots >= 1, alpha, beta > 0\n");
    shmem_finalize();
    return 2;
  }
  bfs::Graph g;
  bfs::partition(p, me, npes, g);
  const double tg0 = apps::wtime();
  if (!bfs::build_graph(p, g)) {
    if (me == 0) std::fprintf(stderr, "bfs_gpu: shmem_malloc failed in construction (raise GSHMEM_SYMMETRIC_SIZE)\n");
    shmem_global_exit(1);
  }
  shmem_barrier_all();
  const double tgen = apps::wtime() - tg0;
  const std::vector<uint64_t> roots = bfs::pick_roots(p, g);
  if (me == 0)
    std::printf("bfs_gpu: %s scale=%d edgefactor=%d N=%" PRIu64 " M=%" PRIu64 " npes=%d roots=%zu; construction "
                "%.3f s (host); %s\n", p.er ? "Erdos-Renyi" : "Kronecker", p.scale, p.edgefactor, g.n, g.m, npes,
                roots.size(), tgen, p.topdown_only ? "top-down only" : "direction-optimizing");
  bfs::Graph full;
  if (p.check && me == 0) {
    full.n = g.n;
    full.m = g.m;
    bfs::build_full_graph(p, full);
  }
  Totals tot;
  double* red = static_cast<double*>(shmem_malloc(8 * sizeof(double)));
  if (!red) shmem_global_exit(1);
  runSearches(o, g, full, roots, tgen, red, tot);
  int rc = tot.bad ? 1 : 0;
  if (p.check) {
    red[0] = (double)(tot.check_bad + tot.bad);
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, red + 1, red, 1);  // PE 0's count wins: others add only 0
    if (me == 0) std::printf("bfs_gpu check: %s\n", red[1] == 0 ? "OK" : "FAILED");
    rc = red[1] != 0 ? 1 : 0;
  }
  shmem_barrier_all();
  shmem_free(red);
  shmem_finalize();
  return rc;
}
