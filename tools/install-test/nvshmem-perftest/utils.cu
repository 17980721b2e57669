// The benchmark helper library (contract in utils.h).
#include "utils.h"

#include <cstring>

namespace {

void usage(const char* prog) {
  std::fprintf(stderr, "usage: %s [-b min_bytes] [-e max_bytes] [-n iters] [-w warmup] [-m kernels.cubin]\n", prog);
  std::exit(1);
}

/// A driver entry point through the runtime, so the program needs no -lcuda (and loads without a driver).
template <typename F>
F driver(const char* name) {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q{};
  CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || f == nullptr) {
    NVSHMEMI_ERROR_PRINT("the CUDA driver has no %s\n", name);
    std::exit(EXIT_FAILURE);
  }
  return reinterpret_cast<F>(f);
}

}  // namespace

void bench_parse(int argc, char** argv, bench_opts* o) {
  for (int i = 1; i < argc; ++i) {
    if (i + 1 >= argc || argv[i][0] != '-' || std::strlen(argv[i]) != 2) usage(argv[0]);
    const char* v = argv[++i];
    switch (argv[i - 1][1]) {
      case 'b': o->min_size = std::strtoull(v, nullptr, 0); break;
      case 'e': o->max_size = std::strtoull(v, nullptr, 0); break;
      case 'n': o->iters = std::atoi(v); break;
      case 'w': o->warmup = std::atoi(v); break;
      case 'm': o->cubin = v; break;
      default: usage(argv[0]);
    }
  }
  if (o->min_size == 0 || o->max_size < o->min_size || o->iters <= 0 || o->warmup < 0) usage(argv[0]);
}

bool bench_init(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  NVSHMEM_CHECK(nvshmemx_set_attr_mpi_comm_args(&comm, &attr));
  NVSHMEM_CHECK(nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr));
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    cudaGetLastError();
    return false;
  }
  CUDA_CHECK(cudaSetDevice(nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE) % ndev));
  return true;
}

void bench_finalize() {
  nvshmem_finalize();
  MPI_Finalize();
}

void bench_module_load(const char* path, const char* kernel, bench_module* m) {
  CUDA_CHECK(cudaFree(nullptr));  // the device's primary context is current from here on
  CU_CHECK(driver<decltype(&cuModuleLoad)>("cuModuleLoad")(&m->module, path));
  NVSHMEM_CHECK(nvshmemx_cumodule_init(m->module));
  CU_CHECK(driver<decltype(&cuModuleGetFunction)>("cuModuleGetFunction")(&m->kernel, m->module, kernel));
}

void bench_module_launch(const bench_module& m, void** args, cudaStream_t stream) {
  CU_CHECK(driver<decltype(&cuLaunchKernel)>("cuLaunchKernel")(m.kernel, 1, 1, 1, 1, 1, 1, 0, stream, args, nullptr));
}

void bench_module_unload(bench_module* m) {
  NVSHMEM_CHECK(nvshmemx_cumodule_finalize(m->module));
  CU_CHECK(driver<decltype(&cuModuleUnload)>("cuModuleUnload")(m->module));
  m->module = nullptr;
  m->kernel = nullptr;
}

void bench_timer_create(bench_timer* t) {
  CUDA_CHECK(cudaEventCreate(&t->start));
  CUDA_CHECK(cudaEventCreate(&t->stop));
}

void bench_timer_start(bench_timer* t, cudaStream_t s) { CUDA_CHECK(cudaEventRecord(t->start, s)); }

float bench_timer_stop_ms(bench_timer* t, cudaStream_t s) {
  float ms = 0;
  CUDA_CHECK(cudaEventRecord(t->stop, s));
  CUDA_CHECK(cudaEventSynchronize(t->stop));
  CUDA_CHECK(cudaEventElapsedTime(&ms, t->start, t->stop));
  return ms;
}

void bench_timer_destroy(bench_timer* t) {
  CUDA_CHECK(cudaEventDestroy(t->start));
  CUDA_CHECK(cudaEventDestroy(t->stop));
}
