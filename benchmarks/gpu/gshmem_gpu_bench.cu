// GPU benchmarks, 2 PEs (one GPU each), PE 0 -> PE 1; the same measurements as
// benchmarks/gpu/peers/nvshmem_bench.cu so the two print comparable lines ("RESULT <name> <value> <unit>").
//   1. device put_signal ping-pong, 1 thread, one-way latency (8 B .. 64 KiB)
//   2. device block-scope put (gshmemx_putmem_nbi_block) from 132 blocks x 512 threads + quiet_on_stream, GB/s
//   3. host gshmemx_putmem_on_stream: per-op time at 8 B, GB/s at 256 MiB
//   4. device 64-bit fetch_add round trip to the peer, 1 thread; again at 15 addresses of a 256 MiB buffer, each
//      beside the raw instruction on the same word ("FADD_AT" lines; nvshmem_bench prints its own)
//   5. --variants: block-put tuning variants (raw block-copy kernels, decompositions), "VARIANT" lines
//      (copy-engine splits and atomic forms were measured and dropped: docs/PERFORMANCE.md)
// Usage: mpirun -np 2 gshmem_gpu_bench [--quick|--lat] [--variants]
//   --quick: fewer iterations (proxy path); --lat: only the latency measurements (1 and 4)
#include <gshmem/device.cuh>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fadd_sweep.h"

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

// All SMs interleaved: block b puts pieces b, b + grid, b + 2 grid, ... of 64 KiB (one block step of 512 threads x
// 8 x 16 B), so the blocks stream through one window of the buffer together (this order beat one
// contiguous chunk per block with raw stores: see --variants and docs/PERFORMANCE.md).
__global__ void __launch_bounds__(512) bwInterleaved(char* dst, const char* src, size_t sz, int peer) {
  const size_t piece = size_t(64) << 10;
  for (size_t off = blockIdx.x * piece; off < sz; off += gridDim.x * piece)
    gshmemx_putmem_nbi_block(dst + off, src + off, (off + piece > sz ? sz - off : piece), peer);
}
// One contiguous chunk per block (the decomposition of the first GPU results).
__global__ void __launch_bounds__(512) bw(char* dst, const char* src, size_t sz, int peer) {
  size_t chunk = (((sz + gridDim.x - 1) / gridDim.x) + 15) & ~size_t(15), off = blockIdx.x * chunk;
  if (off < sz) gshmemx_putmem_nbi_block(dst + off, src + off, (off + chunk > sz ? sz - off : chunk), peer);
}

// Raw fetch-add on the peer's mapped counter, no runtime: GPU scope (CUDA's atomicAdd) vs system scope (what
// gshmem issues), to see what the scope costs on a round trip over NVLink.
template <bool kSys>
__global__ void faddRaw(unsigned long long* q, int iters, unsigned long long* sink) {
  unsigned long long s = 0, inc = 1;
  for (int i = 0; i < iters; i++) {
    unsigned long long r;
    if (kSys) asm volatile("atom.sys.global.add.u64 %0, [%1], %2;" : "=l"(r) : "l"(q), "l"(inc) : "memory");
    else asm volatile("atom.gpu.global.add.u64 %0, [%1], %2;" : "=l"(r) : "l"(q), "l"(inc) : "memory");
    s += r;
    inc = 1 + (r == ~0ull);
  }
  *sink = s;
}

__global__ void fadd(uint64_t* ctr, int iters, int peer, unsigned long long* sink) {
  unsigned long long s = 0;
  uint64_t inc = 1;
  for (int i = 0; i < iters; i++) {  // each add depends on the previous result: a true round trip per op
    const uint64_t r = gshmem_uint64_atomic_fetch_add(ctr, inc, peer);
    s += r;
    inc = 1 + (r == ~uint64_t(0));
  }
  *sink = s;
}

// ---- tuning variants (not the API): raw block copy with U 16-byte loads in flight per thread
template <int U, bool NC>
__global__ void __launch_bounds__(1024) bwRaw(char* dst, const char* src, size_t sz) {
  size_t chunk = (((sz + gridDim.x - 1) / gridDim.x) + 15) & ~size_t(15), off = blockIdx.x * chunk;
  if (off >= sz) return;
  size_t len = off + chunk > sz ? sz - off : chunk;
  const int4* s = reinterpret_cast<const int4*>(src + off);
  int4* d = reinterpret_cast<int4*>(dst + off);
  size_t nv = len >> 4, nt = blockDim.x, i = threadIdx.x;
  for (; i + (U - 1) * nt < nv; i += U * nt) {
    int4 r[U];
#pragma unroll
    for (int u = 0; u < U; ++u) r[u] = NC ? __ldcs(s + i + u * nt) : s[i + u * nt];
#pragma unroll
    for (int u = 0; u < U; ++u) d[i + u * nt] = r[u];
  }
  for (; i < nv; i += nt) d[i] = s[i];
}
// grid-stride over the whole buffer (every block interleaved) instead of one contiguous chunk per block
template <int U>
__global__ void __launch_bounds__(1024) bwStride(char* dst, const char* src, size_t sz) {
  const int4* s = reinterpret_cast<const int4*>(src);
  int4* d = reinterpret_cast<int4*>(dst);
  size_t nv = sz >> 4, nt = size_t(blockDim.x) * gridDim.x, i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  for (; i + (U - 1) * nt < nv; i += U * nt) {
    int4 r[U];
#pragma unroll
    for (int u = 0; u < U; ++u) r[u] = s[i + u * nt];
#pragma unroll
    for (int u = 0; u < U; ++u) d[i + u * nt] = r[u];
  }
  for (; i < nv; i += nt) d[i] = s[i];
}
int main(int argc, char** argv) {
  bool quick = false, lat_only = false, variants = false;
  for (int i = 1; i < argc; i++) {
    quick |= !strcmp(argv[i], "--quick");
    lat_only |= !strcmp(argv[i], "--lat");
    variants |= !strcmp(argv[i], "--variants");
  }
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

  if (!lat_only) {
  if (pe == 0) printf("# gshmem (%s) device putmem_nbi_block, 132 blocks x 512 threads, 64 KiB pieces interleaved + quiet_on_stream\n# bytes  GB/s\n", mode);
  for (size_t sz = 1 << 16; sz <= maxsz; sz *= 16) {
    int iters = quick ? 2 : (sz < (16 << 20) ? 200 : 20);
    gshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    if (pe == 0) {
      if (quick) bw<<<132, 512, 0, s>>>(buf, src, sz, peer);  // proxy path: 64 KiB pieces are 4096 round trips
      else bwInterleaved<<<132, 512, 0, s>>>(buf, src, sz, peer);
      gshmemx_quiet_on_stream(s);
    }
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < iters; i++)
      if (pe == 0) {
        if (quick) bw<<<132, 512, 0, s>>>(buf, src, sz, peer);
        else bwInterleaved<<<132, 512, 0, s>>>(buf, src, sz, peer);
        gshmemx_quiet_on_stream(s);
      }
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("%-10zu %.1f\n", sz, sz * (double)iters / ms / 1e6);
    if (pe == 0 && sz == maxsz) printf("RESULT %s_device_block_put_256MiB %.1f GB/s\n", mode, sz * (double)iters / ms / 1e6);
  }

  {  // the chunked decomposition, for comparison with the first results
    gshmemx_barrier_all_on_stream(s);
    CK(cudaStreamSynchronize(s));
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < 20; i++)
      if (pe == 0) {
        bw<<<132, 512, 0, s>>>(buf, src, maxsz, peer);
        gshmemx_quiet_on_stream(s);
      }
    CK(cudaEventRecord(b, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaEventElapsedTime(&ms, a, b));
    if (pe == 0) printf("RESULT %s_device_block_put_256MiB_chunked %.1f GB/s\n", mode, maxsz * 20.0 / ms / 1e6);
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
  }  // !lat_only

  if (variants && pe == 0) {
    char* peerbuf = (char*)gshmem_ptr(buf, peer);
    auto timeit = [&](const char* name, int iters, double bytes, auto&& fn) {
      fn();
      CK(cudaStreamSynchronize(s));
      CK(cudaEventRecord(a, s));
      for (int i = 0; i < iters; i++) fn();
      CK(cudaEventRecord(b, s));
      CK(cudaStreamSynchronize(s));
      CK(cudaGetLastError());
      CK(cudaEventElapsedTime(&ms, a, b));
      if (bytes > 0) printf("VARIANT %s %.1f GB/s\n", name, bytes * iters / ms / 1e6);
      else printf("VARIANT %s %.3f us\n", name, ms * 1e3 / iters / (bytes < 0 ? -bytes : 1));
    };
    if (peerbuf) {  // host-side cost of one 8-byte stream put: the API beside bare copy-engine copies
      timeit("api_putmem_on_stream_8B", 2000, 0, [&] { gshmemx_putmem_on_stream(buf, src, 8, peer, s); });
      timeit("raw_memcpy_default_8B", 2000, 0, [&] { cudaMemcpyAsync(peerbuf, src, 8, cudaMemcpyDefault, s); });
      timeit("raw_memcpy_d2d_8B", 2000, 0, [&] { cudaMemcpyAsync(peerbuf, src, 8, cudaMemcpyDeviceToDevice, s); });
    }
    if (peerbuf) {
      const double B = double(maxsz);
      timeit("raw_chunk_U8_132x512", 20, B, [&] { bwRaw<8, false><<<132, 512, 0, s>>>(peerbuf, src, maxsz); });
      timeit("raw_chunk_U8_132x512_ldcs", 20, B, [&] { bwRaw<8, true><<<132, 512, 0, s>>>(peerbuf, src, maxsz); });
      timeit("raw_chunk_U4_132x512", 20, B, [&] { bwRaw<4, false><<<132, 512, 0, s>>>(peerbuf, src, maxsz); });
      timeit("raw_chunk_U16_132x512", 20, B, [&] { bwRaw<16, false><<<132, 512, 0, s>>>(peerbuf, src, maxsz); });
      timeit("raw_chunk_U8_264x512", 20, B, [&] { bwRaw<8, false><<<264, 512, 0, s>>>(peerbuf, src, maxsz); });
      timeit("raw_chunk_U4_132x1024", 20, B, [&] { bwRaw<4, false><<<132, 1024, 0, s>>>(peerbuf, src, maxsz); });
      timeit("raw_chunk_U8_132x1024", 20, B, [&] { bwRaw<8, false><<<132, 1024, 0, s>>>(peerbuf, src, maxsz); });
      timeit("raw_stride_U8_132x512", 20, B, [&] { bwStride<8><<<132, 512, 0, s>>>(peerbuf, src, maxsz); });
      timeit("raw_stride_U4_264x1024", 20, B, [&] { bwStride<4><<<264, 1024, 0, s>>>(peerbuf, src, maxsz); });
      timeit("api_block_put_264x512", 20, B, [&] { bw<<<264, 512, 0, s>>>(buf, src, maxsz, peer); });
    }
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
    auto* q = static_cast<unsigned long long*>(gshmem_ptr(sig + 8, peer));
    if (variants && pe == 0 && q) {
      for (int sys = 0; sys < 2; ++sys) {
        if (sys) faddRaw<true><<<1, 1, 0, s>>>(q, 10, sink);
        else faddRaw<false><<<1, 1, 0, s>>>(q, 10, sink);
        CK(cudaEventRecord(a, s));
        if (sys) faddRaw<true><<<1, 1, 0, s>>>(q, iters, sink);
        else faddRaw<false><<<1, 1, 0, s>>>(q, iters, sink);
        CK(cudaEventRecord(b, s));
        CK(cudaStreamSynchronize(s));
        CK(cudaEventElapsedTime(&ms, a, b));
        printf("VARIANT raw_fetch_add_%s_scope %.3f us\n", sys ? "sys" : "gpu", ms * 1e3 / iters);
      }
    }
  }
  {  // the same round trip at other addresses of a 256 MiB symmetric buffer (same offsets as nvshmem_bench)
    int iters = quick ? 100 : 2000;
    std::vector<float> per;
    for (size_t off : kFaddOffsets) {
      if (off + 8 > maxsz) continue;
      uint64_t* c = reinterpret_cast<uint64_t*>(buf + off);
      gshmemx_barrier_all_on_stream(s);
      CK(cudaStreamSynchronize(s));
      if (pe == 0) fadd<<<1, 1, 0, s>>>(c, 10, peer, sink);
      CK(cudaEventRecord(a, s));
      if (pe == 0) fadd<<<1, 1, 0, s>>>(c, iters, peer, sink);
      CK(cudaEventRecord(b, s));
      CK(cudaStreamSynchronize(s));
      CK(cudaEventElapsedTime(&ms, a, b));
      per.push_back(ms * 1e3f / iters);
      auto* q = static_cast<unsigned long long*>(gshmem_ptr(c, peer));  // the same word without the API
      if (pe == 0 && q) {
        faddRaw<true><<<1, 1, 0, s>>>(q, 10, sink);
        CK(cudaEventRecord(a, s));
        faddRaw<true><<<1, 1, 0, s>>>(q, iters, sink);
        CK(cudaEventRecord(b, s));
        CK(cudaStreamSynchronize(s));
        CK(cudaEventElapsedTime(&ms, a, b));
      }
      if (pe == 0) printf("FADD_AT %s %zu %.3f us (raw instruction %.3f us)\n", mode, off, per.back(),
                          q ? ms * 1e3 / iters : 0.0);
    }
    if (pe == 0) printFaddMedian(mode, per);
  }
  CK(cudaGetLastError());
  shmem_barrier_all();
  shmem_free(sig);
  shmem_free(src);
  shmem_free(buf);
  shmem_finalize();
  return 0;
}
