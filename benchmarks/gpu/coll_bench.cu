// Stream-ordered GPU collectives, one source for three libraries, so their rows are comparable:
//   gshmem  (default; CMake target gshmem_coll_bench): gshmemx_*_on_stream on GSHMEM_TEAM_WORLD
//   NVSHMEM (-DCOLL_NVSHMEM): nvshmemx_*_on_stream on NVSHMEM_TEAM_WORLD (init through a unique id over MPI, or with
//                             --init mpi through MPI_COMM_WORLD)
//   NCCL    (-DCOLL_NCCL): ncclAllReduce / ReduceScatter / AllGather / Broadcast / AlltoAll (send/recv pairs)
// Under mpirun, one PE per GPU or PEs sharing a GPU (PE i takes GPU i modulo the GPUs it sees). For each collective and size: 5 warm-up calls, then `iters` back-to-back calls on one
// stream between two events; prints
//   COLL <lib> <collective> <bytes> <us per call> <bus GB/s>
// Bytes and bus bandwidth follow nccl-tests: all_reduce and broadcast count the buffer, reduce_scatter the whole
// input, all_gather the whole output, all_to_all one rank's buffer; busbw = algbw * {2(n-1)/n, (n-1)/n, (n-1)/n,
// 1, (n-1)/n}. float sum for the reductions. After the timed calls one more call is checked on every PE.
// Device mode (gshmem and NVSHMEM only; the NCCL build keeps the stream rows alone): one block of kDevThreads
// threads, started with a collective launch (NVSHMEM: nvshmemx_collective_launch; gshmem: a cooperative launch, what
// its nvshmemx_collective_launch is), calls a block-scope device collective `iters` times back to back on the world
// team: *_float_sum_reduce_block, *_float_sum_reducescatter_block, *_float_fcollect_block, *_float_broadcast_block
// (root 0), *_float_alltoall_block, and *_barrier_all_block. Rows: the same format, collectives named dev_all_reduce,
// dev_reduce_scatter, dev_all_gather, dev_broadcast, dev_all_to_all (same byte counts) and dev_barrier (0 bytes);
// us per call = the kernel's time / iters. Each size's result is checked with one more call, as the stream rows are.
//   mpirun -np 2 coll_bench [--max BYTES] [--dev-max BYTES (64 MiB)] [--mode stream|device|both (both)]
//                           [--min BYTES] [--only NAME,NAME...] [--init uid|mpi (NVSHMEM build only)]
// --min skips the smaller sizes; --only keeps the collectives named (all_reduce, reduce_scatter, ...).
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(COLL_NCCL)
#include <nccl.h>
#define LIB "nccl"
#elif defined(COLL_NVSHMEM)
#include <nvshmem.h>
#include <nvshmemx.h>
#define LIB "nvshmem"
#else
#include <gshmem/device.cuh>
#define LIB "gshmem"
#endif

#define CK(x)                                                                                          \
  do {                                                                                                 \
    cudaError_t e_ = (x);                                                                              \
    if (e_ != cudaSuccess) {                                                                           \
      std::printf("CUDA %s: %s\n", #x, cudaGetErrorString(e_));                                        \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                                    \
    }                                                                                                  \
  } while (0)

namespace {

enum Coll { kAllReduce, kReduceScatter, kAllGather, kBroadcast, kAllToAll, kColls };
const char* kCollNames[] = {"all_reduce", "reduce_scatter", "all_gather", "broadcast", "all_to_all"};

int g_me = 0, g_np = 1;
size_t g_min = 0;              ///< --min: smaller sizes are skipped
const char* g_only = nullptr;  ///< --only: the comma-separated collectives to run (all when null)

/// Whether --only keeps collective `name` (a whole item of the list).
bool wanted(const char* name) {
  if (!g_only) return true;
  const size_t len = std::strlen(name);
  for (const char* p = g_only; (p = std::strstr(p, name)) != nullptr; p += len)
    if ((p == g_only || p[-1] == ',') && (p[len] == ',' || p[len] == 0)) return true;
  return false;
}
#if defined(COLL_NCCL)
ncclComm_t g_comm;
#endif

/// One call of `c` moving `bytes` (nccl-tests' count; see the header) from src to dst on stream s.
void call(Coll c, float* dst, float* src, size_t bytes, cudaStream_t s) {
  const size_t n = bytes / sizeof(float), per = n / g_np;
#if defined(COLL_NCCL)
  switch (c) {
    case kAllReduce: ncclAllReduce(src, dst, n, ncclFloat, ncclSum, g_comm, s); break;
    case kReduceScatter: ncclReduceScatter(src, dst, per, ncclFloat, ncclSum, g_comm, s); break;
    case kAllGather: ncclAllGather(src, dst, per, ncclFloat, g_comm, s); break;
    case kBroadcast: ncclBroadcast(src, dst, n, ncclFloat, 0, g_comm, s); break;
    case kAllToAll:
      ncclGroupStart();
      for (int pe = 0; pe < g_np; ++pe) {
        ncclSend(src + pe * per, per, ncclFloat, pe, g_comm, s);
        ncclRecv(dst + pe * per, per, ncclFloat, pe, g_comm, s);
      }
      ncclGroupEnd();
      break;
    default: break;
  }
#elif defined(COLL_NVSHMEM)
  switch (c) {
    case kAllReduce: nvshmemx_float_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, dst, src, n, s); break;
    case kReduceScatter: nvshmemx_float_sum_reducescatter_on_stream(NVSHMEM_TEAM_WORLD, dst, src, per, s); break;
    case kAllGather: nvshmemx_float_fcollect_on_stream(NVSHMEM_TEAM_WORLD, dst, src, per, s); break;
    case kBroadcast: nvshmemx_float_broadcast_on_stream(NVSHMEM_TEAM_WORLD, dst, src, n, 0, s); break;
    case kAllToAll: nvshmemx_float_alltoall_on_stream(NVSHMEM_TEAM_WORLD, dst, src, per, s); break;
    default: break;
  }
#else
  switch (c) {
    case kAllReduce: gshmemx_float_sum_reduce_on_stream(GSHMEM_TEAM_WORLD, dst, src, n, s); break;
    case kReduceScatter: gshmemx_float_sum_reducescatter_on_stream(GSHMEM_TEAM_WORLD, dst, src, per, s); break;
    case kAllGather: gshmemx_float_fcollect_on_stream(GSHMEM_TEAM_WORLD, dst, src, per, s); break;
    case kBroadcast: gshmemx_float_broadcast_on_stream(GSHMEM_TEAM_WORLD, dst, src, n, 0, s); break;
    case kAllToAll: gshmemx_float_alltoall_on_stream(GSHMEM_TEAM_WORLD, dst, src, per, s); break;
    default: break;
  }
#endif
}

double busFactor(Coll c) {
  const double n = g_np;
  if (c == kAllReduce) return 2 * (n - 1) / n;
  if (c == kBroadcast) return 1;
  return (n - 1) / n;
}

const char* kDevNames[] = {"dev_all_reduce", "dev_reduce_scatter", "dev_all_gather", "dev_broadcast", "dev_all_to_all",
                           "dev_barrier"};
#if !defined(COLL_NCCL)
constexpr int kDevThreads = 512;
constexpr int kDevBarrier = kColls;  // the barrier row follows the five collectives
#if defined(COLL_NVSHMEM)
#define DEVX(name) nvshmemx_##name
#define DEV_TEAM NVSHMEM_TEAM_WORLD
#else
#define DEVX(name) gshmemx_##name
#define DEV_TEAM GSHMEM_TEAM_WORLD
#endif

/// `iters` calls of device collective c (a Coll, or kDevBarrier) by the whole block; n floats, per = n / PEs.
__global__ void __launch_bounds__(kDevThreads) devLoop(int c, float* dst, const float* src, size_t n, size_t per,
                                                       int iters) {
  for (int i = 0; i < iters; ++i) {
    switch (c) {
      case kAllReduce: DEVX(float_sum_reduce_block)(DEV_TEAM, dst, src, n); break;
      case kReduceScatter: DEVX(float_sum_reducescatter_block)(DEV_TEAM, dst, src, per); break;
      case kAllGather: DEVX(float_fcollect_block)(DEV_TEAM, dst, src, per); break;
      case kBroadcast: DEVX(float_broadcast_block)(DEV_TEAM, dst, src, n, 0); break;
      case kAllToAll: DEVX(float_alltoall_block)(DEV_TEAM, dst, src, per); break;
      case kDevBarrier: DEVX(barrier_all_block)(); break;
      default: break;
    }
  }
}

bool g_dev_plain = false;  // set when the collective launch is refused: plain launches from then on

/// One launch of devLoop on s: a collective launch (one block), or a plain one after the first refusal (said once).
void devCall(int c, float* dst, float* src, size_t bytes, int iters, cudaStream_t s) {
  size_t n = bytes / sizeof(float), per = n / g_np;
  void* args[] = {&c, &dst, &src, &n, &per, &iters};
  if (!g_dev_plain) {
#if defined(COLL_NVSHMEM)
    const int rc = nvshmemx_collective_launch((const void*)devLoop, dim3(1), dim3(kDevThreads), args, 0, s);
#else
    const int rc = cudaLaunchCooperativeKernel((const void*)devLoop, dim3(1), dim3(kDevThreads), args, 0, s);
#endif
    if (rc == 0) return;
    std::printf("# PE %d: collective launch refused (%d); plain launches from here on\n", g_me, rc);
    g_dev_plain = true;
  }
  devLoop<<<1, kDevThreads, 0, s>>>(c, dst, src, n, per, iters);
  CK(cudaGetLastError());
}
#endif

/// Fill src with PE-specific values, run one call (one device call with `dev`), and count wrong items of dst.
long check(Coll c, float* dst, float* src, size_t bytes, cudaStream_t s, bool dev) {
  const size_t n = bytes / sizeof(float), per = n / g_np;
  std::vector<float> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = static_cast<float>((g_me + 1) * 8 + i % 64);
  CK(cudaMemcpy(src, h.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemset(dst, 0, bytes));
  CK(cudaDeviceSynchronize());  // the memset (legacy stream) must land before the call on s writes dst
  MPI_Barrier(MPI_COMM_WORLD);
#if !defined(COLL_NCCL)
  if (dev) devCall(c, dst, src, bytes, 1, s);
  else
#endif
    call(c, dst, src, bytes, s);
  (void)dev;
  CK(cudaStreamSynchronize(s));
  const size_t out = c == kReduceScatter ? per : n;
  CK(cudaMemcpy(h.data(), dst, out * sizeof(float), cudaMemcpyDeviceToHost));
  long bad = 0;
  for (size_t i = 0; i < out; ++i) {
    float want = 0;
    const auto v = [](int pe, size_t j) { return static_cast<float>((pe + 1) * 8 + j % 64); };
    switch (c) {
      case kAllReduce: for (int pe = 0; pe < g_np; ++pe) want += v(pe, i); break;
      case kReduceScatter: for (int pe = 0; pe < g_np; ++pe) want += v(pe, g_me * per + i); break;
      case kAllGather: want = v(static_cast<int>(i / per), i % per); break;
      case kBroadcast: want = v(0, i); break;
      case kAllToAll: want = v(static_cast<int>(i / per), g_me * per + i % per); break;
      default: break;
    }
    bad += h[i] != want;
  }
  return bad;
}

/// `count` back-to-back calls of collective c in one mode: stream calls, or one device loop of `count` calls.
void calls(bool dev, int c, float* dst, float* src, size_t bytes, int count, cudaStream_t s) {
#if !defined(COLL_NCCL)
  if (dev) return devCall(c, dst, src, bytes, count, s);
#endif
  (void)dev;
  for (int i = 0; i < count; ++i) call(static_cast<Coll>(c), dst, src, bytes, s);
}

/// Times every collective of one mode, from 8 B per PE up to max (the device barrier once, at 0 bytes), printing one
/// row each; returns the wrong items counted over all PEs.
long timeRows(bool dev, float* dst, float* src, size_t max, cudaStream_t s, cudaEvent_t a, cudaEvent_t b) {
  long bad_total = 0;
  const int ncoll = dev ? kColls + 1 : kColls;  // the device barrier row comes last
  for (int c = 0; c < ncoll; ++c) {
    const bool barrier = c == kColls;
    if (!wanted(dev ? kDevNames[c] : kCollNames[c])) continue;
    for (size_t step = 8 * g_np; step <= max; step *= 8) {
      const size_t bytes = barrier ? 0 : step;
      if (!barrier && bytes < g_min) continue;
      const int iters = bytes <= (size_t(1) << 20) ? 200 : bytes <= (size_t(16) << 20) ? 50 : 10;
      calls(dev, c, dst, src, bytes, 5, s);
      CK(cudaStreamSynchronize(s));
      MPI_Barrier(MPI_COMM_WORLD);
      CK(cudaEventRecord(a, s));
      calls(dev, c, dst, src, bytes, iters, s);
      CK(cudaEventRecord(b, s));
      CK(cudaEventSynchronize(b));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, a, b));
      const double us = ms * 1e3 / iters;
      const long bad = barrier ? 0 : check(static_cast<Coll>(c), dst, src, bytes, s, dev);
      long all_bad = 0;
      MPI_Allreduce(&bad, &all_bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      bad_total += all_bad;
      const char* name = dev ? kDevNames[c] : kCollNames[c];
      if (g_me == 0)
        std::printf("COLL %s %s %zu %.2f %.1f%s\n", LIB, name, bytes, us,
                    barrier ? 0.0 : bytes / us / 1e3 * busFactor(static_cast<Coll>(c)), all_bad ? " WRONG" : "");
      std::fflush(stdout);
      if (barrier) break;
    }
  }
  return bad_total;
}

/// Command line: --max, --dev-max, --min, --only, --mode stream|device|both, --init uid|mpi (NVSHMEM build).
struct Args {
  size_t max = size_t(256) << 20, dev_max = size_t(64) << 20, min = 0;
  const char* only = nullptr;
  bool stream_rows = true, dev_rows = true, mpi_init = false;
};
Args parseArgs(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--max")) a.max = std::strtoull(argv[i + 1], nullptr, 0);
    if (!std::strcmp(argv[i], "--dev-max")) a.dev_max = std::strtoull(argv[i + 1], nullptr, 0);
    if (!std::strcmp(argv[i], "--min")) a.min = std::strtoull(argv[i + 1], nullptr, 0);
    if (!std::strcmp(argv[i], "--only")) a.only = argv[i + 1];
    if (!std::strcmp(argv[i], "--init")) a.mpi_init = !std::strcmp(argv[i + 1], "mpi");
    if (!std::strcmp(argv[i], "--mode")) {
      a.stream_rows = std::strcmp(argv[i + 1], "device") != 0;
      a.dev_rows = std::strcmp(argv[i + 1], "stream") != 0;
    }
  }
#if defined(COLL_NCCL)
  a.dev_rows = false;
#endif
  if (a.dev_max > a.max) a.dev_max = a.max;
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parseArgs(argc, argv);
  const size_t max = args.max;
  g_min = args.min, g_only = args.only;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_me);
  MPI_Comm_size(MPI_COMM_WORLD, &g_np);
  int ndev = 1;
  CK(cudaGetDeviceCount(&ndev));
  CK(cudaSetDevice(g_me % ndev));
#if defined(COLL_NCCL)
  ncclUniqueId id;
  if (g_me == 0) ncclGetUniqueId(&id);
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  ncclCommInitRank(&g_comm, g_np, id, g_me);
  float *src, *dst;
  CK(cudaMalloc(&src, max));
  CK(cudaMalloc(&dst, max));
#elif defined(COLL_NVSHMEM)
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  MPI_Comm comm = MPI_COMM_WORLD;
  nvshmemx_uniqueid_t uid = NVSHMEMX_UNIQUEID_INITIALIZER;
  if (args.mpi_init) {
    nvshmemx_set_attr_mpi_comm_args(&comm, &attr);
  } else {
    if (g_me == 0) nvshmemx_get_uniqueid(&uid);
    MPI_Bcast(&uid, sizeof uid, MPI_BYTE, 0, MPI_COMM_WORLD);
    nvshmemx_set_attr_uniqueid_args(g_me, g_np, &uid, &attr);
  }
  if (nvshmemx_init_attr(args.mpi_init ? NVSHMEMX_INIT_WITH_MPI_COMM : NVSHMEMX_INIT_WITH_UNIQUEID, &attr) != 0) {
    std::printf("coll_bench: nvshmemx_init_attr (%s) failed\n", args.mpi_init ? "MPI communicator" : "unique id");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  float* src = static_cast<float*>(nvshmem_malloc(max));
  float* dst = static_cast<float*>(nvshmem_malloc(max));
#else
  shmem_init();
  float* src = static_cast<float*>(gshmemx_malloc_device(max));
  float* dst = static_cast<float*>(gshmemx_malloc_device(max));
#endif
  if (!src || !dst) {
    std::printf("coll_bench: cannot allocate 2 x %zu bytes\n", max);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  CK(cudaMemset(src, 0, max));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  if (g_me == 0) std::printf("# %s, %d PEs, float sum; COLL lib collective bytes us-per-call bus-GB/s\n", LIB, g_np);
  long bad_total = 0;
  if (args.stream_rows) bad_total += timeRows(false, dst, src, max, s, a, b);
  if (args.dev_rows) bad_total += timeRows(true, dst, src, args.dev_max, s, a, b);
  if (g_me == 0) std::printf("# %s: %ld wrong items in all\n", LIB, bad_total);
#if defined(COLL_NCCL)
  ncclCommDestroy(g_comm);
#elif defined(COLL_NVSHMEM)
  nvshmem_finalize();
#else
  shmem_finalize();
#endif
  MPI_Finalize();
  return bad_total ? 1 : 0;
}
