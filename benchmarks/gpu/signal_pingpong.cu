// Put-with-signal ping-pong between 2 PEs, device memory to device memory, over whatever path the runtime chose
// for the peer (SM stores or the copy engine with P2P; the staged protocol through the CPU proxy with
// GSHMEM_P2P=0). Two forms, each a round trip of PE 0 -> PE 1 -> PE 0 with a signal that counts the rounds:
//   stream  host calls: gshmemx_putmem_signal_on_stream, then gshmemx_signal_wait_until_on_stream (the host never
//           waits inside the loop; the GPU's front end polls the signal)
//   device  one block of one kernel: gshmemx_putmem_signal_nbi_block, then gshmem_signal_wait_until
// Prints "RESULT pingpong_<form>_<bytes>B <one-way us>" per size (the median of 5 timed runs of `iters` rounds,
// half a round trip each), GSHMEM_P2P=0 reported as mode "staged".
// Usage: mpirun -np 2 gshmem_signal_pingpong [iters]
#include <gshmem/device.cuh>
#include <shmem.h>
#include <shmemx.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

#define PP_CK(x)                                                                                 \
  do {                                                                                           \
    cudaError_t e_ = (x);                                                                        \
    if (e_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "signal_pingpong: %s failed: %s\n", #x, cudaGetErrorString(e_));      \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

/// `iters` round trips from one block: PE 0 sends first, PE 1 answers each arrival.
__global__ void pingPongKernel(char* dst, const char* src, size_t n, uint64_t* sig, uint64_t base, int iters,
                               int me) {
  const int peer = 1 - me;
  for (int i = 1; i <= iters; ++i) {
    const uint64_t v = base + i;
    if (me == 1) gshmem_signal_wait_until(sig, GSHMEM_CMP_GE, v);
    gshmemx_putmem_signal_nbi_block(dst, src, n, sig, v, GSHMEM_SIGNAL_SET, peer);
    if (me == 0) gshmem_signal_wait_until(sig, GSHMEM_CMP_GE, v);
  }
  if (threadIdx.x == 0) gshmem_quiet();
}

/// The same rounds as host calls on a stream.
void pingPongStream(char* dst, const char* src, size_t n, uint64_t* sig, uint64_t base, int iters, int me,
                    cudaStream_t s) {
  const int peer = 1 - me;
  for (int i = 1; i <= iters; ++i) {
    const uint64_t v = base + i;
    if (me == 1) gshmemx_signal_wait_until_on_stream(sig, GSHMEM_CMP_GE, v, s);
    gshmemx_putmem_signal_on_stream(dst, src, n, sig, v, GSHMEM_SIGNAL_SET, peer, s);
    if (me == 0) gshmemx_signal_wait_until_on_stream(sig, GSHMEM_CMP_GE, v, s);
  }
}

}  // namespace

int main(int argc, char** argv) {
  shmem_init();
  const int me = shmem_my_pe();
  const int iters = argc > 1 ? std::atoi(argv[1]) : 200;
  if (shmem_n_pes() != 2 || !gshmemx_device_available()) {
    if (me == 0) std::printf("signal_pingpong: needs 2 PEs with a device heap\n");
    shmem_finalize();
    return 0;
  }
  const size_t sizes[] = {8, 1024, 24576, 262144, 1 << 20};
  const size_t maxn = 1 << 20;
  char* dst = static_cast<char*>(gshmemx_malloc_device(maxn));
  char* src = static_cast<char*>(gshmemx_malloc_device(maxn));
  uint64_t* sig = static_cast<uint64_t*>(gshmemx_malloc_device(sizeof(uint64_t)));
  PP_CK(cudaMemset(sig, 0, sizeof(uint64_t)));
  cudaStream_t s;
  PP_CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const char* p2p = std::getenv("GSHMEM_P2P");
  const char* mode = p2p && !std::strcmp(p2p, "0") ? "staged" : "p2p";
  uint64_t base = 0;
  shmem_barrier_all();
  for (int form = 0; form < 2; ++form) {
    for (size_t n : sizes) {
      std::vector<double> us;
      for (int run = 0; run < 6; ++run) {  // run 0 warms up
        PP_CK(cudaDeviceSynchronize());
        shmem_barrier_all();
        const auto t0 = std::chrono::steady_clock::now();
        if (form == 0) pingPongStream(dst, src, n, sig, base, iters, me, s);
        else pingPongKernel<<<1, 256, 0, s>>>(dst, src, n, sig, base, iters, me);
        PP_CK(cudaStreamSynchronize(s));
        const auto t1 = std::chrono::steady_clock::now();
        base += iters;
        if (run > 0) us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / (2.0 * iters));
      }
      std::sort(us.begin(), us.end());
      if (me == 0)
        std::printf("RESULT pingpong_%s_%s_%zuB %.3f us\n", mode, form == 0 ? "stream" : "device", n,
                    us[us.size() / 2]);
      std::fflush(stdout);
    }
  }
  shmem_barrier_all();
  PP_CK(cudaStreamDestroy(s));
  shmem_free(sig);
  shmem_free(src);
  shmem_free(dst);
  shmem_finalize();
  return 0;
}
