// Each PE's kernel writes its number into the next PE's symmetric int with nvshmem_int_p; the host checks what
// arrived. Written for this test in the NVSHMEM style: <nvshmem.h>, <nvshmemx.h>, nvshmem_* names only.
#include <nvshmem.h>
#include <nvshmemx.h>
#include <stdio.h>

int host_side_pe(void);  // host_only.cpp, compiled by the C++ compiler

__global__ void ring_put(int* box) {
  int me = nvshmem_my_pe();
  int npes = nvshmem_n_pes();
  nvshmem_int_p(box, me, (me + 1) % npes);
}

int main(void) {
  nvshmem_init();
  int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
  int* box = (int*)nvshmem_malloc(sizeof(int));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  ring_put<<<1, 1, 0, stream>>>(box);
  nvshmemx_barrier_all_on_stream(stream);
  int got = -1;
  cudaMemcpyAsync(&got, box, sizeof got, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  int expect = (me + npes - 1) % npes;
  printf("nv_ring: PE %d (host side %d) of %d received %d %s\n", me, host_side_pe(), npes, got,
         got == expect ? "OK" : "WRONG");
  nvshmem_free(box);
  nvshmem_finalize();
  return got == expect ? 0 : 1;
}
