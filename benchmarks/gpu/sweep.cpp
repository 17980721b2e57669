// Sweep of host-initiated device-to-device puts on a stream, PE 0 -> PE 1, 8 B..256 MiB:
// gshmemx_putmem_on_stream + cudaStreamSynchronize per transfer (the put is complete when the stream is), the
// median of 5 timings per size. MODE all: each protocol forced and the automatic choice, interleaved in one
// process; any other MODE: one series whose protocol GSHMEM_PATH / GSHMEM_PROFILE / GSHMEM_P2P decide. Every size is verified: PE 1 checks its destination against the
// pattern, and PE 0 gets it back (same protocol choice, get direction) and checks that too.
//   mpirun -np 2 sweep MODE [MAX]      prints CSV rows: mode,bytes,us,GBps,protocol,verified
#include <cuda_runtime.h>
#include <shmem.h>
#include <shmemx.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/protocols/device_path.hpp"

namespace {
double nowUs() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      fprintf(stderr, "sweep: %s failed: %s\n", #x, cudaGetErrorString(e_));               \
      shmem_global_exit(1);                                                                \
    }                                                                                      \
  } while (0)
}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "auto";
  size_t max = argc > 2 ? strtoull(argv[2], nullptr, 0) : (size_t(256) << 20);
  shmem_init();
  const int me = shmem_my_pe();
  if (shmem_n_pes() != 2 || !gshmemx_device_available()) {
    if (me == 0) fprintf(stderr, "sweep: needs 2 PEs with a device heap\n");
    shmem_finalize();
    return 2;
  }
  char* src = static_cast<char*>(gshmemx_malloc_device(max));
  char* dst = static_cast<char*>(gshmemx_malloc_device(max));
  char* chk = static_cast<char*>(gshmemx_malloc_device(max));
  if (!src || !dst || !chk) shmem_global_exit(1);
  std::vector<unsigned char> pat(max), back(max);
  for (size_t i = 0; i < max; ++i) pat[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  CK(cudaMemcpy(src, pat.data(), max, cudaMemcpyHostToDevice));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  static int bad;  // symmetric: PE 1's verdict, fetched by PE 0
  // "all": every protocol forced in turn (protocols::deviceForce) and the automatic choice (GSHMEM_PROFILE's table),
  // interleaved rep by rep in this one process, so all modes see the same clocks, placement and machine state.
  using gshmem::ProtocolId;
  std::vector<std::pair<const char*, ProtocolId>> modes;
  if (strcmp(mode, "all") == 0)
    modes = {{"p2p_ce", ProtocolId::P2pCe}, {"p2p_sm", ProtocolId::P2pSm}, {"staged", ProtocolId::Staged},
             {"auto", ProtocolId::None}};
  else
    modes = {{mode, ProtocolId::None}};  // GSHMEM_PATH / GSHMEM_P2P decide
  if (me == 0) printf("mode,bytes,us,GBps,protocol,verified\n");
  for (size_t n = 8; n <= max; n *= 2) {
    std::vector<std::vector<double>> t(modes.size());
    if (me == 0) {
      const int iters = n <= (64 << 10) ? 200 : std::max<int>(3, static_cast<int>((size_t(200) << 16) / n));
      for (int r = 0; r < 5; ++r)
        for (size_t k = 0; k < modes.size(); ++k) {
          const size_t m = (k + r) % modes.size();  // rotate the order: no mode always follows the same one
          gshmem::protocols::deviceForce(modes[m].second);
          // Two untimed puts before every timing: no mode's timing starts with the first copy after another mode.
          for (int i = 0; i < 2; ++i) gshmemx_putmem_on_stream(dst, src, n, 1, s);
          CK(cudaStreamSynchronize(s));
          double t0 = nowUs();
          for (int i = 0; i < iters; ++i) {
            gshmemx_putmem_on_stream(dst, src, n, 1, s);
            CK(cudaStreamSynchronize(s));
          }
          t[m].push_back((nowUs() - t0) / iters);
        }
    }
    for (size_t m = 0; m < modes.size(); ++m) {  // verify each mode: put, then get it back
      bad = 0;
      if (me == 1) CK(cudaMemset(dst, 0, n));
      CK(cudaDeviceSynchronize());
      shmem_barrier_all();
      if (me == 0) {
        gshmem::protocols::deviceForce(modes[m].second);
        gshmemx_putmem_on_stream(dst, src, n, 1, s);
        CK(cudaStreamSynchronize(s));
      }
      shmem_barrier_all();
      if (me == 1) {
        CK(cudaMemcpy(back.data(), dst, n, cudaMemcpyDeviceToHost));
        bad = memcmp(back.data(), pat.data(), n) != 0;
      }
      shmem_barrier_all();
      if (me == 0) {
        int remote_bad = shmem_int_g(&bad, 1);
        CK(cudaMemset(chk, 0, n));
        CK(cudaDeviceSynchronize());
        gshmemx_getmem_on_stream(chk, dst, n, 1, s);
        CK(cudaStreamSynchronize(s));
        CK(cudaMemcpy(back.data(), chk, n, cudaMemcpyDeviceToHost));
        const bool get_ok = memcmp(back.data(), pat.data(), n) == 0;
        const char* proto = gshmem::protocolName(
            gshmem::protocols::deviceChoice(1, gshmem::MemPair::DevDev, gshmem::Direction::Put, n));
        std::sort(t[m].begin(), t[m].end());
        const double med = t[m][2];
        printf("%s,%zu,%.3f,%.3f,%s,%s\n", modes[m].first, n, med, n / med / 1e3, proto,
               remote_bad ? "PUT-MISMATCH" : get_ok ? "ok" : "GET-MISMATCH");
        fflush(stdout);
      }
      shmem_barrier_all();
    }
  }
  gshmem::protocols::deviceForce(ProtocolId::None);
  cudaStreamDestroy(s);
  shmem_free(chk);
  shmem_free(dst);
  shmem_free(src);
  shmem_finalize();
  return 0;
}
