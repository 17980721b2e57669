// Iterative halo exchange written to NVSHMEM 3.x's public API. One source, built unchanged against NVSHMEM (by
// `benchmarks/run gpu-peers`) and against gshmem (CMake target gshmem_halo, with include/gshmem/nvshmem
// first on the include path, so <nvshmem.h> is gshmem's compatibility header).
//
// Problem: a Jacobi sweep on a grid of nx columns x ny rows of float, split in rows over the PEs (1D decomposition:
// PE p owns ny/np rows, the first ny%np PEs one more). Fixed boundaries: the row above the grid is 1; the row below,
// column 0 and column nx-1 are 0; the interior starts at 0. Each PE holds two slabs of nr_max + 2 rows (row 0 and row
// nr+1 are the halo rows) that alternate as source and destination. Each iteration is one kernel that
//   - waits (nvshmem_signal_wait_until, thread 0 of the block that owns the PE's first row and of the block that owns
//     its last row) until the neighbours' rows of the previous iteration are in this PE's halo rows;
//   - updates every interior point: new = 0.25f * ((left + right) + (up + down));
//   - pushes its first row into the upper PE's bottom halo row and its last row into the lower PE's top halo row with
//     nvshmemx_float_put_signal_nbi_block (signal SET to the iteration number; nvshmem_quiet before the kernel ends);
//   - sums the squared changes, per block in a fixed order (a PE's sum depends on the grid size, not on timing);
// then nvshmemx_float_sum_reduce_on_stream sums the PEs' sums on NVSHMEM_TEAM_WORLD (the norm reduction).
//
// No deadlock when PEs share a GPU: two blocks per kernel wait, and what they wait for was issued by the neighbour's
// previous kernel, which waited only on older work still; the other blocks finish and leave the GPU to the peer. The
// kernel is started with nvshmemx_collective_launch, as NVSHMEM asks of kernels that wait on other PEs; where that is
// refused (NVSHMEM on a GPU shared without MPS) the program says so and launches plainly. --wait stream moves the
// waits out of the kernel (nvshmemx_signal_wait_until_on_stream before each launch).
//
// Output of PE 0: lines starting with '#', and one result line
//   HALO <lib> <np> <nx> <ny> <iters> <ms per iteration> <final norm>
// lib: gshmem or nvshmem (from nvshmem_info_get_name); ms per iteration: the slowest PE's stream time over the timed
// iterations (after --warmup untimed ones); final norm: sqrt of the global sum of squared changes of the last
// iteration. --check: every PE also runs all warmup + iters iterations serially on the host (the whole grid; keep it
// small), compares its rows bitwise and the norm within 1e-3 relative, prints "check: OK" or "check: FAILED ..." and
// exits 1 on a failure.
//   mpirun -np 2 halo [--nx N] [--ny N] [--iters N] [--warmup N] [--check] [--wait device|stream]
//                     [--launch collective|plain] [--blocks N] [--init mpi|uid]
// --init uid starts through a unique id broadcast over MPI instead of the MPI communicator (under gshmem the launcher
// still starts the runtime; the id and the ranks are checked).
#include <mpi.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#define CK(x)                                                                                          \
  do {                                                                                                 \
    cudaError_t e_ = (x);                                                                              \
    if (e_ != cudaSuccess) {                                                                           \
      std::fprintf(stderr, "halo: CUDA %s: %s\n", #x, cudaGetErrorString(e_));                         \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                                    \
    }                                                                                                  \
  } while (0)

namespace {

constexpr int kThreads = 256;

struct Opts {
  int nx = 8192, ny = 8192, iters = 1000, warmup = 10, blocks = 0;
  bool check = false, stream_wait = false, plain = false, uid = false;
};

/** One iteration's arguments. Rows are nx floats; row r of a slab starts at r * nx. */
struct Step {
  const float* src = nullptr;  // slab read (halo rows included)
  float* dst = nullptr;        // slab written (symmetric: the same address names the neighbours' slab)
  int nx = 0, nr = 0;          // columns; rows owned by this PE (rows 1..nr of the slab)
  int up_halo_row = 0;         // the upper PE's bottom halo row (its nr + 1): where our row 1 goes
  int pe_up = -1, pe_down = -1;  // neighbours; -1: a fixed boundary row instead
  uint64_t* sig_top = nullptr;   // symmetric; set by the upper PE when our row 0 holds its last row
  uint64_t* sig_bot = nullptr;   // symmetric; set by the lower PE when our row nr+1 holds its first row
  uint64_t iter = 0;             // 1-based; puts signal iter, halo rows read need iter - 1
  int wait_in_kernel = 1;
  float* partial = nullptr;  // one sum per block
  unsigned* done = nullptr;  // blocks finished (the last one sums `partial` and resets it)
  float* norm = nullptr;     // symmetric: this PE's sum of squared changes
};

/** Block-wide sum, valid in thread 0; every thread calls it. */
__device__ float blockSum(float v) {
  __shared__ float warp_sums[kThreads / 32];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = v;
  __syncthreads();
  float s = 0;
  if (threadIdx.x == 0)
    for (int w = 0; w < (int)(blockDim.x >> 5); ++w) s += warp_sums[w];
  __syncthreads();
  return s;
}

/** Updates row r (1..nr) of dst from src; returns this thread's sum of squared changes. Halo rows written by a peer
 *  (ghost_up / ghost_dn) are read through L2 (ld.global.cg), never a stale L1 line. */
__device__ float updateRow(const Step& a, int r, bool ghost_up, bool ghost_dn) {
  const size_t W = a.nx;
  const float* up = a.src + (size_t)(r - 1) * W;
  const float* mid = a.src + (size_t)r * W;
  const float* dn = a.src + (size_t)(r + 1) * W;
  float* out = a.dst + (size_t)r * W;
  float acc = 0;
  for (int x = 1 + threadIdx.x; x < a.nx - 1; x += blockDim.x) {
    const float u = ghost_up ? __ldcg(up + x) : up[x];
    const float d = ghost_dn ? __ldcg(dn + x) : dn[x];
    const float v = 0.25f * ((mid[x - 1] + mid[x + 1]) + (u + d));
    const float c = v - mid[x];
    acc += c * c;
    out[x] = v;
  }
  return acc;
}

/** Row r = 1 (the first) or r = nr (the last; both when nr == 1): waits for the halo rows it reads, updates it and
 *  puts it into the neighbour's halo row with the iteration as signal. Every thread of the block calls it. */
__device__ float edgeRow(const Step& a, int r) {
  const bool first = r == 1, last = r == a.nr;
  const bool up = first && a.pe_up >= 0, down = last && a.pe_down >= 0;
  if (a.wait_in_kernel && threadIdx.x == 0) {
    if (up) nvshmem_signal_wait_until(a.sig_top, NVSHMEM_CMP_GE, a.iter - 1);
    if (down) nvshmem_signal_wait_until(a.sig_bot, NVSHMEM_CMP_GE, a.iter - 1);
  }
  __syncthreads();  // thread 0's wait orders the block's halo loads after the neighbours' puts
  const float acc = updateRow(a, r, up, down);
  __syncthreads();  // the whole row is written before the block puts it
  const size_t W = a.nx;
  if (up)
    nvshmemx_float_put_signal_nbi_block(a.dst + (size_t)a.up_halo_row * W, a.dst + W, W, a.sig_bot, a.iter,
                                        NVSHMEM_SIGNAL_SET, a.pe_up);
  if (down)
    nvshmemx_float_put_signal_nbi_block(a.dst, a.dst + (size_t)a.nr * W, W, a.sig_top, a.iter, NVSHMEM_SIGNAL_SET,
                                        a.pe_down);
  return acc;
}

/** The block's sum into partial[block]; the last block to finish sums them in block order into *norm. */
__device__ void finishNorm(const Step& a, float acc) {
  __shared__ bool last;
  const float s = blockSum(acc);
  if (threadIdx.x == 0) {
    a.partial[blockIdx.x] = s;
    __threadfence();
    last = atomicAdd(a.done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    float t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += __ldcg(a.partial + b);
    *a.norm = t;
    *a.done = 0;
  }
}

/** One iteration. Block 0 owns row 1, block 1 (block 0 if the grid has one) row nr; rows 2..nr-1 go round the grid. */
__global__ void __launch_bounds__(kThreads) jacobi(Step a) {
  const unsigned b_last = gridDim.x > 1 ? 1 : 0;
  float acc = 0;
  if (blockIdx.x == 0) acc += edgeRow(a, 1);
  if (a.nr > 1 && blockIdx.x == b_last) acc += edgeRow(a, a.nr);
  for (int r = 2 + (int)blockIdx.x; r < a.nr; r += gridDim.x) acc += updateRow(a, r, false, false);
  if (blockIdx.x == 0 || blockIdx.x == b_last) {
    __syncthreads();
    if (threadIdx.x == 0) nvshmem_quiet();  // our puts complete: the source rows may be written two iterations on
  }
  finishNorm(a, acc);
}

Opts parse(int argc, char** argv) {
  Opts o;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : "";
    if (!std::strcmp(a, "--check")) o.check = true;
    else if (!std::strcmp(a, "--nx")) o.nx = std::atoi(v), ++i;
    else if (!std::strcmp(a, "--ny")) o.ny = std::atoi(v), ++i;
    else if (!std::strcmp(a, "--iters")) o.iters = std::atoi(v), ++i;
    else if (!std::strcmp(a, "--warmup")) o.warmup = std::atoi(v), ++i;
    else if (!std::strcmp(a, "--blocks")) o.blocks = std::atoi(v), ++i;
    else if (!std::strcmp(a, "--wait")) o.stream_wait = !std::strcmp(v, "stream"), ++i;
    else if (!std::strcmp(a, "--launch")) o.plain = !std::strcmp(v, "plain"), ++i;
    else if (!std::strcmp(a, "--init")) o.uid = !std::strcmp(v, "uid"), ++i;
    else {
      std::fprintf(stderr, "halo: unknown option %s\n", a);
      std::exit(2);
    }
  }
  if (o.nx < 3 || o.ny < 1 || o.iters < 1 || o.warmup < 0) {
    std::fprintf(stderr, "halo: need nx >= 3, ny >= 1, iters >= 1, warmup >= 0\n");
    std::exit(2);
  }
  return o;
}

int rowsOf(int pe, int np, int ny) { return ny / np + (pe < ny % np ? 1 : 0); }
int firstRowOf(int pe, int np, int ny) { return pe * (ny / np) + (pe < ny % np ? pe : ny % np); }

/** Selects this process's GPU (local rank modulo the GPUs it sees), sets NVSHMEM_SYMMETRIC_SIZE when the
 *  environment has none, and starts the library over MPI_COMM_WORLD (or a unique id). Aborts on failure. */
void start(const Opts& o, size_t heap_bytes) {
  int rank = 0, np = 1, local = 0, ndev = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  CK(cudaGetDeviceCount(&ndev));
  CK(cudaSetDevice(local % ndev));
  if (!std::getenv("NVSHMEM_SYMMETRIC_SIZE"))
    setenv("NVSHMEM_SYMMETRIC_SIZE", (std::to_string((heap_bytes >> 20) + 256) + "M").c_str(), 0);
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  int rc = 0;
  if (o.uid) {
    nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
    if (rank == 0) nvshmemx_get_uniqueid(&id);
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    nvshmemx_set_attr_uniqueid_args(rank, np, &id, &attr);
    rc = nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr);
  } else {
    MPI_Comm comm = MPI_COMM_WORLD;
    nvshmemx_set_attr_mpi_comm_args(&comm, &attr);
    rc = nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr);
  }
  if (rc != 0 || nvshmem_my_pe() != rank || nvshmem_n_pes() != np) {
    std::fprintf(stderr, "halo: rank %d: nvshmemx_init_attr (%s) returned %d\n", rank, o.uid ? "uid" : "mpi", rc);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

/** `steps` iterations of the whole grid on the host, in the device's float arithmetic. grid: (ny + 2) rows of nx,
 *  row 0 the fixed row above, row ny + 1 the one below. Returns the last iteration's sum of squared changes. */
double hostJacobi(int nx, int ny, int steps, std::vector<float>& grid) {
  const size_t W = nx;
  grid.assign((size_t)(ny + 2) * W, 0.f);
  for (size_t x = 0; x < W; ++x) grid[x] = 1.f;
  std::vector<float> next = grid;
  double sum = 0;
  for (int s = 0; s < steps; ++s) {
    sum = 0;
    for (int r = 1; r <= ny; ++r) {
      const float* up = &grid[(r - 1) * W];
      const float* mid = &grid[r * W];
      const float* dn = &grid[(r + 1) * W];
      for (int x = 1; x < nx - 1; ++x) {
        const float v = 0.25f * ((mid[x - 1] + mid[x + 1]) + (up[x] + dn[x]));
        const float c = v - mid[x];
        sum += (double)c * c;
        next[r * W + x] = v;
      }
    }
    std::swap(grid, next);
  }
  return sum;
}

/** Compares this PE's rows of `slab` (device) and the norm with the host run; true on every PE when all agree. */
bool check(const Opts& o, const float* slab, int nr, int y0, int steps, double norm, int me) {
  std::vector<float> ref, mine((size_t)nr * o.nx);
  const double ref_norm = std::sqrt(hostJacobi(o.nx, o.ny, steps, ref));
  CK(cudaMemcpy(mine.data(), slab + o.nx, mine.size() * sizeof(float), cudaMemcpyDeviceToHost));
  long bad = 0;
  for (size_t i = 0; i < mine.size(); ++i) bad += std::memcmp(&mine[i], &ref[(size_t)(y0 + 1) * o.nx + i], 4) != 0;
  const double rel = std::fabs(norm - ref_norm) / (ref_norm > 0 ? ref_norm : 1.0);
  long all_bad = 0;
  MPI_Allreduce(&bad, &all_bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  const bool ok = all_bad == 0 && rel <= 1e-3;
  if (me == 0) {
    if (ok) std::printf("check: OK (%d iterations, norm %.9g, host %.9g)\n", steps, norm, ref_norm);
    else std::printf("check: FAILED: %ld points differ, norm %.9g vs host %.9g\n", all_bad, norm, ref_norm);
  }
  return ok;
}

/** Launches one iteration: collective launch unless `plain` (set, with one line, the first time it is refused). */
void launch(Step& st, int grid, cudaStream_t s, bool& plain) {
  if (!plain) {
    void* args[] = {&st};
    const int rc = nvshmemx_collective_launch((const void*)jacobi, dim3(grid), dim3(kThreads), args, 0, s);
    if (rc == 0) return;
    std::fprintf(stderr, "# PE %d: nvshmemx_collective_launch returned %d; plain launches from here on\n",
                 nvshmem_my_pe(), rc);
    plain = true;
  }
  jacobi<<<grid, kThreads, 0, s>>>(st);
  CK(cudaGetLastError());
}

/** The grid: one block per row at most, no more blocks than a collective launch may have (or --blocks). */
int gridSize(const Opts& o, int nr) {
  int max_blocks = 0;
  Step probe;
  void* args[] = {&probe};
  if (nvshmemx_collective_launch_query_gridsize((const void*)jacobi, dim3(kThreads), args, 0, &max_blocks) != 0 ||
      max_blocks < 1)
    max_blocks = 1;
  int g = o.blocks > 0 ? o.blocks : max_blocks;
  if (!o.plain && g > max_blocks) g = max_blocks;
  return g < nr ? (g < 1 ? 1 : g) : nr;
}

/** A PE's state: its rows, its two slabs and signals, the norm words, the grid, the stream and its events. */
struct Halo {
  Opts o;
  int me = 0, np = 1, nr = 0, y0 = 0, grid = 1;
  size_t slab_bytes = 0;
  float* slab[2] = {nullptr, nullptr};
  uint64_t* sig = nullptr;
  float* norm_local[2] = {nullptr, nullptr};  // by iteration parity: a peer may still read the last one
  float* norm_all[2] = {nullptr, nullptr};
  Step st;
  cudaStream_t s = nullptr;
  cudaEvent_t t0 = nullptr, t1 = nullptr;
  bool plain = false;
};

/** Symmetric allocations (the same sizes on every PE), the initial slabs and the step's constant arguments; ends
 *  with a barrier, so no put reaches a PE before its slabs are initialized. */
void setup(Halo& h) {
  const size_t sig_bytes = 2 * sizeof(uint64_t);
  for (float*& p : h.slab) p = static_cast<float*>(nvshmem_malloc(h.slab_bytes));
  h.sig = static_cast<uint64_t*>(nvshmem_malloc(sig_bytes));
  for (int i = 0; i < 2; ++i) {
    h.norm_local[i] = static_cast<float*>(nvshmem_malloc(sizeof(float)));
    h.norm_all[i] = static_cast<float*>(nvshmem_malloc(sizeof(float)));
  }
  if (!h.slab[0] || !h.slab[1] || !h.sig || !h.norm_local[1] || !h.norm_all[1]) {
    std::fprintf(stderr, "halo: PE %d: nvshmem_malloc of 2 x %zu bytes failed\n", h.me, h.slab_bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  h.grid = gridSize(h.o, h.nr);
  Step& st = h.st;
  st.nx = h.o.nx, st.nr = h.nr;
  st.pe_up = h.me > 0 ? h.me - 1 : -1, st.pe_down = h.me + 1 < h.np ? h.me + 1 : -1;
  st.up_halo_row = h.me > 0 ? rowsOf(h.me - 1, h.np, h.o.ny) + 1 : 0;
  st.sig_top = h.sig, st.sig_bot = h.sig + 1;
  st.wait_in_kernel = h.o.stream_wait ? 0 : 1;
  CK(cudaMalloc(&st.partial, h.grid * sizeof(float)));
  CK(cudaMalloc(&st.done, sizeof(unsigned)));
  CK(cudaMemset(st.done, 0, sizeof(unsigned)));
  CK(cudaMemset(h.sig, 0, sig_bytes));
  const std::vector<float> ones(h.o.nx, 1.f);
  for (float* p : h.slab) {
    CK(cudaMemset(p, 0, h.slab_bytes));
    if (h.me == 0) CK(cudaMemcpy(p, ones.data(), h.o.nx * sizeof(float), cudaMemcpyHostToDevice));  // row above
  }
  CK(cudaStreamCreateWithFlags(&h.s, cudaStreamNonBlocking));
  CK(cudaEventCreate(&h.t0));
  CK(cudaEventCreate(&h.t1));
  CK(cudaDeviceSynchronize());
  nvshmemx_barrier_all_on_stream(h.s);
  CK(cudaStreamSynchronize(h.s));
}

/** warmup + iters iterations (the timed ones between t0 and t1); returns the slowest PE's ms per timed iteration
 *  and sets `norm` to the last iteration's global norm. */
double run(Halo& h, double& norm) {
  Step& st = h.st;
  const int steps = h.o.warmup + h.o.iters;
  for (int it = 1; it <= steps; ++it) {
    if (it == h.o.warmup + 1) {
      CK(cudaStreamSynchronize(h.s));
      MPI_Barrier(MPI_COMM_WORLD);
      CK(cudaEventRecord(h.t0, h.s));
    }
    st.src = h.slab[(it - 1) & 1], st.dst = h.slab[it & 1], st.iter = it, st.norm = h.norm_local[it & 1];
    if (h.o.stream_wait && st.pe_up >= 0) nvshmemx_signal_wait_until_on_stream(st.sig_top, NVSHMEM_CMP_GE, it - 1, h.s);
    if (h.o.stream_wait && st.pe_down >= 0) nvshmemx_signal_wait_until_on_stream(st.sig_bot, NVSHMEM_CMP_GE, it - 1, h.s);
    launch(st, h.grid, h.s, h.plain);
    nvshmemx_float_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, h.norm_all[it & 1], h.norm_local[it & 1], 1, h.s);
  }
  CK(cudaEventRecord(h.t1, h.s));
  CK(cudaStreamSynchronize(h.s));
  float ms = 0, sum = 0;
  CK(cudaEventElapsedTime(&ms, h.t0, h.t1));
  CK(cudaMemcpy(&sum, h.norm_all[steps & 1], sizeof(float), cudaMemcpyDeviceToHost));
  norm = std::sqrt((double)sum);
  double per_iter = ms / h.o.iters, slowest = 0;
  MPI_Allreduce(&per_iter, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

void teardown(Halo& h) {
  nvshmemx_barrier_all_on_stream(h.s);
  CK(cudaStreamSynchronize(h.s));
  for (float* p : h.slab) nvshmem_free(p);
  for (int i = 0; i < 2; ++i) nvshmem_free(h.norm_local[i]), nvshmem_free(h.norm_all[i]);
  nvshmem_free(h.sig);
  CK(cudaFree(h.st.partial));
  CK(cudaFree(h.st.done));
  CK(cudaStreamDestroy(h.s));
}

}  // namespace

int main(int argc, char** argv) {
  Halo h;
  h.o = parse(argc, argv);
  h.plain = h.o.plain;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &h.np);
  if (h.o.ny < h.np) {
    std::fprintf(stderr, "halo: ny (%d) must be at least the PE count (%d)\n", h.o.ny, h.np);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  h.slab_bytes = (size_t)(rowsOf(0, h.np, h.o.ny) + 2) * h.o.nx * sizeof(float);
  start(h.o, 2 * h.slab_bytes);
  h.me = nvshmem_my_pe();
  h.nr = rowsOf(h.me, h.np, h.o.ny), h.y0 = firstRowOf(h.me, h.np, h.o.ny);
  setup(h);
  char name[NVSHMEM_MAX_NAME_LEN] = {0};
  nvshmem_info_get_name(name);
  const char* lib = std::strstr(name, "gshmem") ? "gshmem" : "nvshmem";
  double norm = 0;
  const double ms = run(h, norm);
  if (h.me == 0) {
    std::printf("# %s (%s), %d PEs, init status %d, grid %d x %d, waits %s, %s launch, %d warm-up iterations\n", lib,
                name, h.np, nvshmemx_init_status(), h.grid, kThreads, h.o.stream_wait ? "on the stream" : "in kernel",
                h.plain ? "plain" : "collective", h.o.warmup);
    std::printf("HALO %s %d %d %d %d %.4f %.9g\n", lib, h.np, h.o.nx, h.o.ny, h.o.iters, ms, norm);
    std::fflush(stdout);
  }
  const int steps = h.o.warmup + h.o.iters;
  const bool ok = !h.o.check || check(h.o, h.slab[steps & 1], h.nr, h.y0, steps, norm, h.me);
  teardown(h);
  nvshmem_finalize();
  MPI_Finalize();
  return ok ? 0 : 1;
}
