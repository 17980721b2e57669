// DEVICE (issue 5) GPU benchmarks, 2 PEs (one GPU each), PE 0 -> PE 1; the same measurements as
// benchmarks/gpu/peers/nvshmem_bench.cu so the two print comparable lines ("RESULT <name> <value> <unit>").
//   1. device put_signal ping-pong, 1 thread, one-way latency (8 B .. 64 KiB)
//   2. device block-scope put (gshmemx_putmem_nbi_block) from 132 blocks x 512 threads + quiet_on_stream, GB/s
//   3. host gshmemx_putmem_on_stream: per-op time at 8 B, GB/s at 256 MiB
//   4. device 64-bit fetch_add round trip to the peer, 1 thread
// Usage: mpirun -np 2 gshmem_gpu_bench [--quick]   (--quick: fewer iterations, for the proxy path)
#include <gshmem/device.cuh>

#include <cstdio>
#include <cstdlib>
#include <cstring>

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
      gshmem_putmem_signal_nbi(buf, buf, sz, sig, i, GSHMEM_SIGNAL_SET, peer);
      gshmem_signal_wait_until(sig, GSHMEM_CMP_EQ, i);
    } else {
      gshmem_signal_wait_until(sig, GSHMEM_CMP_EQ, i);
      gshmem_putmem_signal_nbi(buf, buf, sz, sig, i, GSHMEM_SIGNAL_SET, peer);
    }
  }
}

__global__ void __launch_bounds__(512) bw(char* dst, const char* src, size_t sz, int peer) {
  size_t chunk = (((sz + gridDim.x - 1) / gridDim.x) + 15) & ~size_t(15), off = blockIdx.x * chunk;
  if (off < sz) gshmemx_putmem_nbi_block(dst + off, src + off, (off + chunk > sz ? sz - off : chunk), peer);
}

__global__ void fadd(uint64_t* ctr, int iters, int peer, unsigned long long* sink) {
  unsigned long long s = 0;
  for (int i = 0; i < iters; i++) s += gshmem_uint64_atomic_fetch_add(ctr, 1, peer);
  *sink = s;
}

int main(int argc, char** argv) {
  bool quick = argc > 1 && !strcmp(argv[1], "--quick");
  shmem_init();
  int pe = shmem_my_pe(), n = shmem_n_pes(), peer = 1 - pe;
  if (n != 2 || !gshmemx_device_available()) {
    if (pe == 0) printf("SKIP: needs 2 PEs with GPUs\n");
    shmem_finalize();
    return 0;
  }
  const char* mode = getenv("GSHMEM_P2P") && !strcmp(getenv("GSHMEM_P2P"), "0") ? "proxy" : "p2p";
  size_t maxsz = size_t(256) << 20;
  char* buf = (char*)gshmemx_malloc_device(maxsz);
  char* src = (char*)gshmemx_malloc_device(maxsz);
  uint64_t* sig = (uint64_t*)gshmemx_calloc_device(1, 256);
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

  if (pe == 0) printf("# gshmem (%s) device putmem_signal_nbi ping-pong, 1 thread\n# bytes  one-way-us\n", mode);
  for (size_t sz = 8; sz <= 65536; sz *= 8) {
    CK(cudaMemset(sig, 0, 8));
    CK(cudaDeviceSynchronize());
    gshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    pingpong<<<1, 1, 0, s>>>(buf, sig, sz, 10, pe, peer);  // warm up
    CK(cudaStreamSynchronize(s));
    CK(cudaMemset(sig, 0, 8));
    CK(cudaDeviceSynchronize());
    gshmemx_barrier_all_on_stream(s);
    CK(cudaEventRecord(a, s));
    pingpong<<<1, 1, 0, s>>>(buf, sig, sz, lat_iters, pe, peer);
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("%-8zu %.3f\n", sz, ms * 1e3 / lat_iters / 2);
    if (pe == 0 && sz == 8) printf("RESULT %s_device_put_signal_pingpong_8B_one_way %.3f us\n", mode, ms * 1e3 / lat_iters / 2);
  }

  if (pe == 0) printf("# gshmem (%s) device putmem_nbi_block, 132 blocks x 512 threads + quiet_on_stream\n# bytes  GB/s\n", mode);
  for (size_t sz = 1 << 16; sz <= maxsz; sz *= 16) {
    int iters = quick ? 2 : (sz < (16 << 20) ? 200 : 20);
    gshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    if (pe == 0) {
      bw<<<132, 512, 0, s>>>(buf, src, sz, peer);
      gshmemx_quiet_on_stream(s);
    }
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < iters; i++)
      if (pe == 0) {
        bw<<<132, 512, 0, s>>>(buf, src, sz, peer);
        gshmemx_quiet_on_stream(s);
      }
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("%-10zu %.1f\n", sz, sz * (double)iters / ms / 1e6);
    if (pe == 0 && sz == maxsz) printf("RESULT %s_device_block_put_256MiB %.1f GB/s\n", mode, sz * (double)iters / ms / 1e6);
  }

  if (pe == 0) printf("# gshmem (%s) host gshmemx_putmem_on_stream\n# bytes  GB/s  per-op-us\n", mode);
  for (size_t sz = 8; sz <= maxsz; sz *= 32) {
    int iters = quick ? 20 : (sz < (16 << 20) ? 2000 : 20);
    gshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    if (pe == 0) gshmemx_putmem_on_stream(buf, src, sz, peer, s);
    CK(cudaStreamSynchronize(s));
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < iters; i++)
      if (pe == 0) gshmemx_putmem_on_stream(buf, src, sz, peer, s);
    gshmemx_quiet_on_stream(s);
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("%-10zu %.2f %.3f\n", sz, sz * (double)iters / ms / 1e6, ms * 1e3 / iters);
    if (pe == 0 && sz == 8) printf("RESULT %s_host_putmem_on_stream_8B %.3f us\n", mode, ms * 1e3 / iters);
    if (pe == 0 && sz == maxsz) printf("RESULT %s_host_putmem_on_stream_256MiB %.1f GB/s\n", mode, sz * (double)iters / ms / 1e6);
  }
  // 256 MiB is not a 32x step from 8 B: measure it explicitly
  {
    int iters = quick ? 2 : 20;
    gshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < iters; i++)
      if (pe == 0) gshmemx_putmem_on_stream(buf, src, maxsz, peer, s);
    gshmemx_quiet_on_stream(s);
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("RESULT %s_host_putmem_on_stream_256MiB %.1f GB/s\n", mode, maxsz * (double)iters / ms / 1e6);
  }

  {
    int iters = quick ? 300 : 10000;
    gshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    if (pe == 0) fadd<<<1, 1, 0, s>>>(sig + 8, 10, peer, sink);
    CK(cudaStreamSynchronize(s));
    CK(cudaEventRecord(a, s));
    if (pe == 0) fadd<<<1, 1, 0, s>>>(sig + 8, iters, peer, sink);
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("RESULT %s_device_fetch_add_u64_round_trip %.3f us\n", mode, ms * 1e3 / iters);
  }
  CK(cudaGetLastError());
  shmem_barrier_all();
  shmem_free(sig);
  shmem_free(src);
  shmem_free(buf);
  shmem_finalize();
  return 0;
}
