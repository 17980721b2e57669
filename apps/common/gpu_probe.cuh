// The floor every GPU app compares itself with: the device-to-device copy bandwidth of this GPU, measured in the
// same run, and the apps' CUDA check. Header-only, for the GPU versions of the apps (nvcc).
//
// Contract: copyBandwidth() returns the bytes read plus written per second of cudaMemcpyAsync of one buffer into
// another on @p st (10 copies after a warm-up), the buffers as large as fit up to 1 GiB each (halved down to 16 MiB;
// *probe_bytes the size used), or 0 when not even 16 MiB fit or a CUDA call failed (the error is cleared).
#ifndef GSHMEM_APPS_GPU_PROBE_CUH
#define GSHMEM_APPS_GPU_PROBE_CUH

#include <cuda_runtime.h>
#include <shmem.h>

#include <cstddef>
#include <cstdio>

/// A CUDA call of GPU app @p app (a string literal) that must succeed: on failure one line names the app, the PE,
/// the call and CUDA's error, and the job ends (shmem_global_exit).
#define APP_CUDA_CK(app, x)                                                                                      \
  do {                                                                                                           \
    const cudaError_t e_ = (x);                                                                                  \
    if (e_ != cudaSuccess) {                                                                                     \
      std::fprintf(stderr, "%s: PE %d: %s failed: %s\n", app, shmem_my_pe(), #x, cudaGetErrorString(e_));       \
      std::fflush(stderr);                                                                                       \
      shmem_global_exit(1);                                                                                      \
    }                                                                                                            \
  } while (0)

namespace apps {

inline double copyBandwidth(cudaStream_t st, size_t* probe_bytes) {
  size_t n = size_t(1) << 30;
  void *x = nullptr, *y = nullptr;
  for (; n >= (size_t(1) << 24); n /= 2) {
    if (cudaMalloc(&x, n) == cudaSuccess) {
      if (cudaMalloc(&y, n) == cudaSuccess) break;
      cudaFree(x);
    }
    x = y = nullptr;
  }
  cudaGetLastError();  // an allocation that did not fit
  if (x == nullptr || y == nullptr) return 0.0;
  cudaEvent_t e0 = nullptr, e1 = nullptr;
  const int reps = 10;
  float ms = 0;
  bool ok = cudaMemsetAsync(x, 1, n, st) == cudaSuccess && cudaEventCreate(&e0) == cudaSuccess &&
            cudaEventCreate(&e1) == cudaSuccess && cudaMemcpyAsync(y, x, n, cudaMemcpyDeviceToDevice, st) == cudaSuccess &&
            cudaEventRecord(e0, st) == cudaSuccess;
  for (int i = 0; ok && i < reps; ++i) ok = cudaMemcpyAsync(y, x, n, cudaMemcpyDeviceToDevice, st) == cudaSuccess;
  ok = ok && cudaEventRecord(e1, st) == cudaSuccess && cudaEventSynchronize(e1) == cudaSuccess &&
       cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess && ms > 0;
  if (e0) cudaEventDestroy(e0);
  if (e1) cudaEventDestroy(e1);
  cudaFree(x);
  cudaFree(y);
  cudaGetLastError();
  if (probe_bytes) *probe_bytes = n;
  return ok ? 2.0 * (double)n * reps / (ms * 1e-3) : 0.0;
}

}  // namespace apps

#endif  // GSHMEM_APPS_GPU_PROBE_CUH
