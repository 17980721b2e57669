// Our own NVSHMEM driver (not NVSHMEM code): the same measurements as ../gshmem_gpu_bench.cu, written to
// NVSHMEM 3.x's API, built on the GPU machine against the NVSHMEM installed there (`benchmarks/run gpu-peers`).
// GPU benchmarks, 2 PEs (one GPU each), PE 0 -> PE 1; the same measurements as
// benchmarks/gpu/peers/nvshmem_bench.cu so the two print comparable lines ("RESULT <name> <value> <unit>").
//   1. device put_signal ping-pong, 1 thread, one-way latency (8 B .. 64 KiB)
//   2. device block-scope put (nvshmemx_putmem_nbi_block) from 132 blocks x 512 threads + quiet_on_stream, GB/s
//   3. host nvshmemx_putmem_on_stream: per-op time at 8 B, GB/s at 256 MiB
//   4. device 64-bit fetch_add round trip to the peer, 1 thread
// Usage: mpirun -np 2 nvshmem_bench [--quick]   (--quick: fewer iterations, for the proxy path)
#include <mpi.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../fadd_sweep.h"

#define CK(x)                                                                               \
  do {                                                                                      \
    cudaError_t e = (x);                                                                    \
    if (e != cudaSuccess) {                                                                 \
      printf("CUDA %s: %s\n", #x, cudaGetErrorString(e));                                   \
      exit(1);                                                                              \
    }                                                                                       \
  } while (0)

__global__ void pingpong(char* buf, uint64_t* sig, size_t sz, int iters, int pe, int peer) {
  for (int i = 1; i <= iters; i++) {
    if (pe == 0) {
      nvshmem_putmem_signal_nbi(buf, buf, sz, sig, i, NVSHMEM_SIGNAL_SET, peer);
      nvshmem_signal_wait_until(sig, NVSHMEM_CMP_EQ, i);
    } else {
      nvshmem_signal_wait_until(sig, NVSHMEM_CMP_EQ, i);
      nvshmem_putmem_signal_nbi(buf, buf, sz, sig, i, NVSHMEM_SIGNAL_SET, peer);
    }
  }
}

// All SMs interleaved: block b puts pieces b, b + grid, b + 2 grid, ... of 64 KiB (one block step of 512 threads x
// 8 x 16 B), so the blocks stream through one window of the buffer together (this order beat one
// contiguous chunk per block with raw stores: see --variants and docs/PERFORMANCE.md).
__global__ void __launch_bounds__(512) bwInterleaved(char* dst, const char* src, size_t sz, int peer) {
  const size_t piece = size_t(64) << 10;
  for (size_t off = blockIdx.x * piece; off < sz; off += gridDim.x * piece)
    nvshmemx_putmem_nbi_block(dst + off, src + off, (off + piece > sz ? sz - off : piece), peer);
}
// One contiguous chunk per block (the decomposition of the first GPU results).
__global__ void __launch_bounds__(512) bw(char* dst, const char* src, size_t sz, int peer) {
  size_t chunk = (((sz + gridDim.x - 1) / gridDim.x) + 15) & ~size_t(15), off = blockIdx.x * chunk;
  if (off < sz) nvshmemx_putmem_nbi_block(dst + off, src + off, (off + chunk > sz ? sz - off : chunk), peer);
}

__global__ void fadd(uint64_t* ctr, int iters, int peer, unsigned long long* sink) {
  unsigned long long s = 0;
  uint64_t inc = 1;
  for (int i = 0; i < iters; i++) {  // each add depends on the previous result: a true round trip per op
    const uint64_t r = nvshmem_uint64_atomic_fetch_add(ctr, inc, peer);
    s += r;
    inc = 1 + (r == ~uint64_t(0));
  }
  *sink = s;
}

int main(int argc, char** argv) {
  bool quick = argc > 1 && !strcmp(argv[1], "--quick");
  MPI_Init(&argc, &argv);
  int rank, nr;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nr);
  CK(cudaSetDevice(rank));
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
  if (rank == 0) nvshmemx_get_uniqueid(&id);
  MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, MPI_COMM_WORLD);
  nvshmemx_set_attr_uniqueid_args(rank, nr, &id, &attr);
  nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr);
  int pe = nvshmem_my_pe(), n = nvshmem_n_pes(), peer = 1 - pe;
  if (n != 2) return 1;
  size_t maxsz = size_t(256) << 20;
  char* buf = (char*)nvshmem_malloc(maxsz);
  char* src = (char*)nvshmem_malloc(maxsz);
  uint64_t* sig = (uint64_t*)nvshmem_calloc(1, 256);
  unsigned long long* sink;
  CK(cudaMalloc(&sink, 8));
  CK(cudaMemset(src, 1, maxsz));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  float ms;
  const int lat_iters = quick ? 300 : 10000;

  if (pe == 0) printf("# NVSHMEM device putmem_signal_nbi ping-pong, 1 thread\n# bytes  one-way-us\n");
  for (size_t sz = 8; sz <= 65536; sz *= 8) {
    CK(cudaMemset(sig, 0, 8));
    CK(cudaDeviceSynchronize());
    nvshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    pingpong<<<1, 1, 0, s>>>(buf, sig, sz, 10, pe, peer);  // warm up
    CK(cudaStreamSynchronize(s));
    CK(cudaMemset(sig, 0, 8));
    CK(cudaDeviceSynchronize());
    nvshmemx_barrier_all_on_stream(s);
    CK(cudaEventRecord(a, s));
    pingpong<<<1, 1, 0, s>>>(buf, sig, sz, lat_iters, pe, peer);
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("%-8zu %.3f\n", sz, ms * 1e3 / lat_iters / 2);
    if (pe == 0 && sz == 8) printf("RESULT nvshmem_device_put_signal_pingpong_8B_one_way %.3f us\n", ms * 1e3 / lat_iters / 2);
  }

  if (pe == 0) printf("# NVSHMEM device putmem_nbi_block, 132 blocks x 512 threads, 64 KiB pieces interleaved + quiet_on_stream\n# bytes  GB/s\n");
  for (size_t sz = 1 << 16; sz <= maxsz; sz *= 16) {
    int iters = quick ? 2 : (sz < (16 << 20) ? 200 : 20);
    nvshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    if (pe == 0) {
      bwInterleaved<<<132, 512, 0, s>>>(buf, src, sz, peer);
      nvshmemx_quiet_on_stream(s);
    }
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < iters; i++)
      if (pe == 0) {
        bwInterleaved<<<132, 512, 0, s>>>(buf, src, sz, peer);
        nvshmemx_quiet_on_stream(s);
      }
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("%-10zu %.1f\n", sz, sz * (double)iters / ms / 1e6);
    if (pe == 0 && sz == maxsz) printf("RESULT nvshmem_device_block_put_256MiB %.1f GB/s\n", sz * (double)iters / ms / 1e6);
  }

  {  // the chunked decomposition, for comparison with the first results
    nvshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < 20; i++)
      if (pe == 0) {
        bw<<<132, 512, 0, s>>>(buf, src, maxsz, peer);
        nvshmemx_quiet_on_stream(s);
      }
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("RESULT %s_device_block_put_256MiB_chunked %.1f GB/s\n", "nvshmem", maxsz * 20.0 / ms / 1e6);
  }
  if (pe == 0) printf("# NVSHMEM host nvshmemx_putmem_on_stream\n# bytes  GB/s  per-op-us\n");
  for (size_t sz = 8; sz <= maxsz; sz *= 32) {
    int iters = quick ? 20 : (sz < (16 << 20) ? 2000 : 20);
    nvshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    if (pe == 0) nvshmemx_putmem_on_stream(buf, src, sz, peer, s);
    CK(cudaStreamSynchronize(s));
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < iters; i++)
      if (pe == 0) nvshmemx_putmem_on_stream(buf, src, sz, peer, s);
    nvshmemx_quiet_on_stream(s);
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("%-10zu %.2f %.3f\n", sz, sz * (double)iters / ms / 1e6, ms * 1e3 / iters);
    if (pe == 0 && sz == 8) printf("RESULT nvshmem_host_putmem_on_stream_8B %.3f us\n", ms * 1e3 / iters);
    if (pe == 0 && sz == maxsz) printf("RESULT nvshmem_host_putmem_on_stream_256MiB %.1f GB/s\n", sz * (double)iters / ms / 1e6);
  }
  // 256 MiB is not a 32x step from 8 B: measure it explicitly
  {
    int iters = quick ? 2 : 20;
    nvshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < iters; i++)
      if (pe == 0) nvshmemx_putmem_on_stream(buf, src, maxsz, peer, s);
    nvshmemx_quiet_on_stream(s);
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("RESULT nvshmem_host_putmem_on_stream_256MiB %.1f GB/s\n", maxsz * (double)iters / ms / 1e6);
  }

  {
    int iters = quick ? 300 : 10000;
    nvshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    if (pe == 0) fadd<<<1, 1, 0, s>>>(sig + 8, 10, peer, sink);
    CK(cudaStreamSynchronize(s));
    CK(cudaEventRecord(a, s));
    if (pe == 0) fadd<<<1, 1, 0, s>>>(sig + 8, iters, peer, sink);
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("RESULT nvshmem_device_fetch_add_u64_round_trip %.3f us\n", ms * 1e3 / iters);
  }
  {  // the same round trip at other addresses of a 256 MiB symmetric buffer (same offsets as gshmem_gpu_bench)
    int iters = quick ? 100 : 2000;
    std::vector<float> per;
    for (size_t off : kFaddOffsets) {
      if (off + 8 > maxsz) continue;
      uint64_t* c = reinterpret_cast<uint64_t*>(buf + off);
      nvshmemx_barrier_all_on_stream(s);
      CK(cudaStreamSynchronize(s));
      if (pe == 0) fadd<<<1, 1, 0, s>>>(c, 10, peer, sink);
      CK(cudaEventRecord(a, s));
      if (pe == 0) fadd<<<1, 1, 0, s>>>(c, iters, peer, sink);
      CK(cudaEventRecord(b, s));
      CK(cudaStreamSynchronize(s));
      CK(cudaEventElapsedTime(&ms, a, b));
      per.push_back(ms * 1e3f / iters);
      if (pe == 0) printf("FADD_AT nvshmem %zu %.3f us\n", off, ms * 1e3 / iters);
    }
    if (pe == 0) printFaddMedian("nvshmem", per);
  }
  CK(cudaGetLastError());
  nvshmem_barrier_all();
  nvshmem_free(sig);
  nvshmem_free(src);
  nvshmem_free(buf);
  nvshmem_finalize();
  MPI_Finalize();
  return 0;
}
