// Two PEs (one per GPU): PE 0 stores one word into PE 1's device heap and fences, after a host-side idle gap; PE 1
// meanwhile (a) sits idle on the host, (b) runs a kernel that spins on a local word, (c) launches an empty kernel
// every 20 us. Prints PE 0's median store+fence time per case. Also the same stores into cudaMalloc memory of this
// process on the other GPU (no gshmem), for reference.
#include <gshmem/device.cuh>
#include <shmem.h>
#include <shmemx.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
__device__ inline unsigned long long gt() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__global__ void one(unsigned long long* sym, int pe, unsigned long long* out, int i) {
  const unsigned long long t0 = gt();
  gshmem_uint64_p(reinterpret_cast<uint64_t*>(sym), t0, pe);
  __threadfence_system();
  out[i] = gt() - t0;
}
__global__ void spin(volatile int* stop) { while (!*stop) {} }
__global__ void empty() {}
int main() {
  shmem_init();
  const int me = shmem_my_pe();
  unsigned long long* sym = (unsigned long long*)gshmemx_malloc_device(4096);
  unsigned long long* out; cudaMallocManaged(&out, 4096 * 8);
  int* stop; cudaHostAlloc(&stop, 64, cudaHostAllocMapped);
  int* flag = (int*)shmem_malloc(64);
  const char* names[] = {"target idle (host sleeps)", "target spins in a kernel", "target launches empty kernels"};
  for (int c = 0; c < 3; ++c) {
    *flag = 0;
    shmem_barrier_all();
    if (me == 1) {
      if (c == 1) { *stop = 0; spin<<<1, 1>>>(stop); }
      while (shmem_int_atomic_fetch(flag, 1) == 0) { if (c == 2) { empty<<<1, 1>>>(); cudaDeviceSynchronize(); } usleep(20); }
      if (c == 1) { *stop = 1; }
      cudaDeviceSynchronize();
    } else {
      const int gaps[] = {0, 20, 100, 500, 2000};
      for (int g : gaps) {
        for (int r = 0; r < 11; ++r) { if (g) usleep(g); one<<<1, 1>>>(sym, 1, out, r); cudaDeviceSynchronize(); }
        unsigned long long v[11]; for (int r = 0; r < 11; ++r) v[r] = out[r];
        std::sort(v, v + 11);
        printf("%s, gap %4d us: store+fence median %8.2f us (min %.2f max %.2f)\n", names[c], g, v[5] / 1e3, v[0] / 1e3, v[10] / 1e3);
      }
      shmem_int_atomic_set(flag, 1, 1);
    }
    shmem_barrier_all();
  }
  shmem_finalize();
  return 0;
}
