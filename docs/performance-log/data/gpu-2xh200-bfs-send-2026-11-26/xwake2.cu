// PE 0 stores into PE 1's device heap (+ fence) right after a kernel that touched `span` bytes of its own memory
// (one load per 64 KiB): does evicting the GPU's translations make the remote store slow? Also a remote store
// preceded by a remote load issued earlier in the same kernel (the translation warmed first).
#include <gshmem/device.cuh>
#include <shmem.h>
#include <shmemx.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
__device__ inline unsigned long long gt() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__global__ void touch(const unsigned long long* p, size_t span, unsigned long long* sink) {
  unsigned long long s = 0;
  for (size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * 8192; i < span / 8; i += (size_t)gridDim.x * blockDim.x * 8192) s += p[i];
  if (s == 42) *sink = s;
}
__global__ void one(unsigned long long* sym, int pe, unsigned long long* out, int i, unsigned long long* local) {
  const unsigned long long t0 = gt();
  if (local) { *(volatile unsigned long long*)local = t0; } else gshmem_uint64_p(reinterpret_cast<uint64_t*>(sym), t0, pe);
  __threadfence_system();
  out[i] = gt() - t0;
}
int main() {
  shmem_init();
  const int me = shmem_my_pe();
  unsigned long long* sym = (unsigned long long*)gshmemx_malloc_device(4096);
  unsigned long long *out, *big, *sink;
  cudaMallocManaged(&out, 4096 * 8);
  const size_t maxspan = size_t(8) << 30;
  cudaMalloc(&big, maxspan); cudaMemset(big, 0, maxspan); cudaMalloc(&sink, 64);
  shmem_barrier_all();
  if (me == 0) {
    const size_t spans[] = {0, size_t(64) << 20, size_t(256) << 20, size_t(1) << 30, size_t(4) << 30, size_t(8) << 30};
    for (int loc = 0; loc < 2; ++loc)
      for (size_t sp : spans) {
        for (int r = 0; r < 9; ++r) {
          if (sp) touch<<<264, 256>>>(big, sp, sink);
          one<<<1, 1>>>(sym, 1, out, r, loc ? big + (maxspan / 8 - 8) : nullptr);
          cudaDeviceSynchronize();
        }
        unsigned long long v[9]; for (int r = 0; r < 9; ++r) v[r] = out[r];
        std::sort(v, v + 9);
        printf("%s store after touching %5zu MiB locally: store+fence median %8.2f us (min %.2f max %.2f)\n", loc ? "local " : "remote", sp >> 20, v[4] / 1e3, v[0] / 1e3, v[8] / 1e3);
      }
  }
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
