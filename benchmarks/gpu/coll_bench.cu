// Stream-ordered GPU collectives, one source for three libraries, so their rows are comparable:
//   gshmem  (default; CMake target gshmem_coll_bench): gshmemx_*_on_stream on GSHMEM_TEAM_WORLD
//   NVSHMEM (-DCOLL_NVSHMEM): nvshmemx_*_on_stream on NVSHMEM_TEAM_WORLD (init through a unique id over MPI)
//   NCCL    (-DCOLL_NCCL): ncclAllReduce / ReduceScatter / AllGather / Broadcast / AlltoAll (send/recv pairs)
// One PE per GPU under mpirun. For each collective and size: 5 warm-up calls, then `iters` back-to-back calls on one
// stream between two events; prints
//   COLL <lib> <collective> <bytes> <us per call> <bus GB/s>
// Bytes and bus bandwidth follow nccl-tests: all_reduce and broadcast count the buffer, reduce_scatter the whole
// input, all_gather the whole output, all_to_all one rank's buffer; busbw = algbw * {2(n-1)/n, (n-1)/n, (n-1)/n,
// 1, (n-1)/n}. float sum for the reductions. After the timed calls one more call is checked on every PE.
//   mpirun -np 2 coll_bench [--max BYTES]
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

/// Fill src with PE-specific values, run one call, and count wrong items of dst.
long check(Coll c, float* dst, float* src, size_t bytes, cudaStream_t s) {
  const size_t n = bytes / sizeof(float), per = n / g_np;
  std::vector<float> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = static_cast<float>((g_me + 1) * 8 + i % 64);
  CK(cudaMemcpy(src, h.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemset(dst, 0, bytes));
  CK(cudaDeviceSynchronize());  // the memset (legacy stream) must land before the call on s writes dst
  MPI_Barrier(MPI_COMM_WORLD);
  call(c, dst, src, bytes, s);
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

}  // namespace

int main(int argc, char** argv) {
  size_t max = size_t(256) << 20;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--max")) max = std::strtoull(argv[i + 1], nullptr, 0);
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
  nvshmemx_uniqueid_t uid = NVSHMEMX_UNIQUEID_INITIALIZER;
  if (g_me == 0) nvshmemx_get_uniqueid(&uid);
  MPI_Bcast(&uid, sizeof uid, MPI_BYTE, 0, MPI_COMM_WORLD);
  nvshmemx_set_attr_uniqueid_args(g_me, g_np, &uid, &attr);
  nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr);
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
  for (int c = 0; c < kColls; ++c) {
    for (size_t bytes = 8 * g_np; bytes <= max; bytes *= 8) {
      const Coll cc = static_cast<Coll>(c);
      const int iters = bytes <= (size_t(1) << 20) ? 200 : bytes <= (size_t(16) << 20) ? 50 : 10;
      for (int i = 0; i < 5; ++i) call(cc, dst, src, bytes, s);
      CK(cudaStreamSynchronize(s));
      MPI_Barrier(MPI_COMM_WORLD);
      CK(cudaEventRecord(a, s));
      for (int i = 0; i < iters; ++i) call(cc, dst, src, bytes, s);
      CK(cudaEventRecord(b, s));
      CK(cudaEventSynchronize(b));
      float ms = 0;
      CK(cudaEventElapsedTime(&ms, a, b));
      const double us = ms * 1e3 / iters;
      const long bad = check(cc, dst, src, bytes, s);
      long all_bad = 0;
      MPI_Allreduce(&bad, &all_bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
      bad_total += all_bad;
      if (g_me == 0)
        std::printf("COLL %s %s %zu %.2f %.1f%s\n", LIB, kCollNames[c], bytes, us,
                    bytes / us / 1e3 * busFactor(cc), all_bad ? " WRONG" : "");
      std::fflush(stdout);
    }
  }
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
