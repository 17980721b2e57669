// Both PEs at once (after a host barrier): a kernel that stores into the other PE's device heap and fences, timed on
// each. Variants: (a) the store only; (b) the BFS send kernel's shape: 16 blocks x 256 threads, blocks of the own
// PE return, block 0 stores the count, every block's thread 0 quiets; (c) as (b) after a 20 us local kernel.
#include <gshmem/device.cuh>
#include <shmem.h>
#include <shmemx.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
__device__ inline unsigned long long gt() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ unsigned long long g_t[4];
__global__ void one(uint64_t* sym, int pe) {
  const unsigned long long t0 = gt();
  gshmem_uint64_p(sym, t0, pe);
  __threadfence_system();
  g_t[0] = gt() - t0;
}
__global__ void shaped(uint64_t* sym, int me, int quiet) {
  const int dst = blockIdx.y;
  if (blockIdx.x == 0 && threadIdx.x == 0 && dst != me) g_t[2] = gt();
  if (dst == me) return;
  __syncthreads();
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) gshmem_uint64_p(sym + me, 7, dst);
    if (quiet) gshmem_quiet();
  }
}
__global__ void stamp(int i) { g_t[i] = gt(); }
__global__ void work(unsigned long long ns) { unsigned long long t = gt(); while (gt() - t < ns) {} }
int main() {
  shmem_init();
  const int me = shmem_my_pe(), other = 1 - me;
  uint64_t* sym = (uint64_t*)gshmemx_malloc_device(4096);
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  char* big; cudaMalloc(&big, size_t(64) << 20);
  const size_t dirty[] = {0, size_t(1) << 20, size_t(4) << 20, size_t(16) << 20, size_t(48) << 20};
  for (int v = 0; v < 2; ++v)
    for (size_t dz : dirty) {
      double res[11];
      for (int r = 0; r < 11; ++r) {
        if (dz) cudaMemsetAsync(big, r, dz, s);
        cudaStreamSynchronize(s);
        shmem_barrier_all();
        stamp<<<1, 1, 0, s>>>(1);
        if (v == 0) one<<<1, 1, 0, s>>>(sym, other);
        else shaped<<<dim3(8, 2), 256, 0, s>>>(sym, me, 1);
        stamp<<<1, 1, 0, s>>>(3);
        cudaStreamSynchronize(s);
        unsigned long long t[4]; cudaMemcpyFromSymbol(t, g_t, 32);
        res[r] = (t[3] - t[1]) / 1e3;
      }
      std::sort(res, res + 11);
      printf("PE %d: %s after %2zu MiB written locally: stamp to stamp median %.2f us (min %.2f max %.2f)\n", me, v ? "send shape" : "store+fence", dz >> 20, res[5], res[0], res[10]);
    }
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
