// The helper library of an NVSHMEM-style benchmark (a perftest-style harness, written for gshmem's install test):
// start-up through MPI and nvshmemx_init_attr, check macros that report "file:line: message" the way NVSHMEM's
// harnesses do (NVSHMEMI_ERROR_PRINT), kernels loaded from a cubin through the driver API and
// nvshmemx_cumodule_init, and cudaEvent timers. Only NVSHMEM's public names are used.
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>
#include <mpi.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(stmt)                                                                   \
  do {                                                                                     \
    cudaError_t e_ = (stmt);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      NVSHMEMI_ERROR_PRINT("%s failed: %s\n", #stmt, cudaGetErrorString(e_));              \
      std::exit(EXIT_FAILURE);                                                             \
    }                                                                                      \
  } while (0)
#define CU_CHECK(stmt)                                                                     \
  do {                                                                                     \
    CUresult r_ = (stmt);                                                                  \
    if (r_ != CUDA_SUCCESS) {                                                              \
      NVSHMEMI_ERROR_PRINT("%s failed: CUDA driver error %d\n", #stmt, static_cast<int>(r_)); \
      std::exit(EXIT_FAILURE);                                                             \
    }                                                                                      \
  } while (0)
#define NVSHMEM_CHECK(stmt)                                                                \
  do {                                                                                     \
    int rc_ = (stmt);                                                                      \
    if (rc_ != 0) {                                                                        \
      NVSHMEMI_ERROR_PRINT("%s failed: %d\n", #stmt, rc_);                                 \
      std::exit(EXIT_FAILURE);                                                             \
    }                                                                                      \
  } while (0)

/// Command line of a latency benchmark: -b MIN -e MAX (bytes, doubling), -n ITERS, -w WARMUP, -m CUBIN (launch the
/// kernel from that module through the driver API instead of the one linked in).
struct bench_opts {
  size_t min_size = 8;
  size_t max_size = size_t(1) << 20;
  int iters = 200;
  int warmup = 20;
  const char* cubin = nullptr;
};
/// Parses argv into *o; prints the usage and exits 1 on an unknown or malformed option.
void bench_parse(int argc, char** argv, bench_opts* o);

/// MPI_Init, then nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM) over MPI_COMM_WORLD. Returns whether this PE has
/// a GPU; when it has, that GPU (node-local PE index modulo the devices) is made current.
bool bench_init(int* argc, char*** argv);
/// nvshmem_finalize, then MPI_Finalize.
void bench_finalize();

/// A kernel of a module loaded through the driver API; nvshmemx_cumodule_init has given it this PE's device state.
struct bench_module {
  CUmodule module = nullptr;
  CUfunction kernel = nullptr;
};
/// cuModuleLoad(path), nvshmemx_cumodule_init, cuModuleGetFunction(kernel); exits with a message on failure.
void bench_module_load(const char* path, const char* kernel, bench_module* m);
/// cuLaunchKernel of m->kernel on one thread, with the given argument pointers, on `stream`.
void bench_module_launch(const bench_module& m, void** args, cudaStream_t stream);
/// nvshmemx_cumodule_finalize, cuModuleUnload.
void bench_module_unload(bench_module* m);

/// Elapsed GPU time between two events recorded on a stream.
struct bench_timer {
  cudaEvent_t start = nullptr, stop = nullptr;
};
void bench_timer_create(bench_timer* t);
void bench_timer_start(bench_timer* t, cudaStream_t s);
/// Records the stop event, waits for it and returns the milliseconds since bench_timer_start.
float bench_timer_stop_ms(bench_timer* t, cudaStream_t s);
void bench_timer_destroy(bench_timer* t);
