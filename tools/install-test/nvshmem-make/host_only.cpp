// A host-only C++ file of an NVSHMEM program, compiled by the C++ compiler (no nvcc): <nvshmem.h> must bring
// NVSHMEM's transitive includes (assert, stdint, stddef, the CUDA runtime types) and the host routines.
// Alone it is a program that prints OK on each PE; with HOST_ONLY_AS_LIBRARY it provides host_side_pe() only.
#include <nvshmem.h>
#include <nvshmemx.h>

#include <cstdio>

int host_side_pe(void) {
  cudaStream_t unused = nullptr;  // the CUDA runtime's types come with <nvshmem.h>
  (void)unused;
  int me = nvshmem_my_pe();
  assert(me >= 0 && me < nvshmem_n_pes());
  return me;
}

#ifndef HOST_ONLY_AS_LIBRARY
int main() {
  nvshmem_init();
  int me = host_side_pe(), npes = nvshmem_n_pes();
  nvshmem_barrier_all();
  std::printf("nvshmem host-only: PE %d of %d OK\n", me, npes);
  nvshmem_finalize();
  return 0;
}
#endif
