// A CUDA program that leaves without nvshmem_finalize / shmem_finalize must end with its own exit status, never
// std::terminate or a signal: the library's service threads (device proxy, staged server) are stopped at exit.
//
// Usage: gpu_exit_test return|exit CODE [work]
//   return     return 0 from main
//   exit CODE  call exit(CODE)
//   work       first keep the proxy busy: every PE puts and fetch-adds to its right neighbour from a kernel and
//              leaves requests in the ring (non-blocking puts) when it exits
// Without a GPU (or a device heap) it still initializes and leaves the same way: a host-only exit test.
#include <cuda_runtime.h>

#include <gshmem/nvshmem_compat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

__global__ void busyKernel(int* buf, uint64_t* counter, int n) {
  const int me = nvshmem_my_pe(), np = nvshmem_n_pes();
  const int right = (me + 1) % np;
  for (int i = 0; i < n; ++i) {
    nvshmem_int_p(buf + i, i, right);
    nvshmem_uint64_atomic_fetch_add(counter, 1, right);
  }
  nvshmem_quiet();
  for (int i = 0; i < n; ++i) nvshmem_int_put_nbi(buf + i, buf + i, 1, right);  // left in flight at exit
}

int work() {
  if (!gshmemx_device_available()) {
    if (nvshmem_my_pe() == 0) printf("gpu_exit_test: no device heap on this PE: host-only exit\n");
    return 0;
  }
  int* buf = static_cast<int*>(nvshmem_malloc(4096 * sizeof(int)));
  auto* counter = static_cast<uint64_t*>(nvshmem_calloc(1, sizeof(uint64_t)));
  if (!buf || !counter) {
    fprintf(stderr, "gpu_exit_test: nvshmem_malloc failed\n");
    return 1;
  }
  nvshmem_barrier_all();
  busyKernel<<<1, 1>>>(buf, counter, 1000);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    fprintf(stderr, "gpu_exit_test: kernel failed: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool do_exit = argc > 2 && !strcmp(argv[1], "exit");
  const int code = do_exit ? atoi(argv[2]) : 0;
  const bool busy = !strcmp(argv[argc - 1], "work");
  nvshmem_init();
  if (busy && work() != 0) return 1;
  fflush(stdout);
  if (do_exit) exit(code);
  return 0;  // no nvshmem_finalize
}
