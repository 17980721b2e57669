// stencil_gpu: the 2D 5-point Jacobi (apps/README.md) on GPUs with gshmem (fp32; --fp64 for doubles).
//
// Problem and decomposition as the host version (stencil.cpp): nx x ny grid, Dirichlet columns 0 and nx-1
// a = sin(2 pi y / (ny-1)), the rest starts at 0; the ny-2 interior rows are periodic across PEs and split into
// contiguous chunks (the first PEs get floor((ny-2)/npes), the rest one more). Each PE holds two slabs (src, dst)
// with one ghost row above and below (kernels and layout: stencil_gpu_kernels.cuh). Iteration g reads src, writes
// dst, and fills dst's ghost rows with the neighbours' boundary rows of iteration g; then src and dst swap.
//
// Variants (--variant):
//   device (default): the blocks of jacobiStep that own row 1 / row nr put their segment of it into the
//     neighbour's ghost row with gshmemx_putmem_signal_nbi_block, signal SET g (one signal per segment and side);
//     in iteration g+1 the first thread of each block that reads a ghost row waits for its segment's signal >= g.
//     No host synchronisation per iteration (only every nccheck iterations, for the norm).
//   stream: jacobiStep without communication, then on the stream gshmemx_putmem_signal_on_stream of rows 1 and nr
//     (signal SET g) and gshmemx_signal_wait_until_on_stream(>= g) for both ghost rows.
//   mpi (--mpi): the MPI twin, same kernels and decomposition; halos by MPI_Isend/MPI_Irecv, CUDA-aware when the
//     MPI says so (MPIX_Query_cuda_support), else staged through pinned host buffers on a side stream.
// One PE exchanges with itself through the same path (periodic self-wrap).
//
// Why one ghost row per side and array is safe (the WAR hazard): a neighbour's iteration-(g+1) rows land in our
// array X = src of iteration g. The neighbour sends them only after it has seen our iteration-g signal for the
// same segment (device: its block waited for it before computing; stream: its stream waited before its kernel),
// and we signal a segment only after the block that reads that segment's ghost row in iteration g has finished
// (device: the put follows the block's compute; stream: the put follows the kernel). The only reader of a ghost
// segment is that one block, so nothing reads X's ghost rows when they are overwritten. A neighbour is thus at
// most one iteration ahead: when we wait for >= g the signal holds g or g+1, and g+1 went to the other array, so
// the iteration-g rows are still in place. The MPI twin synchronises with the host every iteration instead.
//
// Validation on every run (cheap): the final ghost rows must equal the neighbours' boundary rows (row hashes
// exchanged) and the norm must be finite; a grid hash (per-row hashes in global row order) is printed, the same
// for every PE count and variant. --check: PE 0 reruns the whole grid alone on its GPU with the same kernels
// (ghost rows by local copies; its time is runtime_1pe) and compares every element bitwise with the distributed
// result gathered by MPI, and the norm to 1e-10. --corrupt-halo adds 1 to one ghost element of PE 0 once (after
// iteration 2's halo arrived): --check must then fail. Norm: ||a_new - a||_2 every nccheck iterations (block sums
// in double, one value per PE, gathered by shmem_double_fcollect or MPI_Allgather and summed in PE order on every
// PE, so every PE stops at the same iteration); stop at <= 1e-8 or niter.
// Without a GPU on some PE every PE exits 0 after PE 0 prints "stencil_gpu check: SKIPPED (no GPU)".
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#include <shmem.h>
#include <shmemx.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../common/app_util.hpp"
#include "../common/gpu_probe.cuh"
#include "stencil_gpu_kernels.cuh"

namespace {

using stencil::kRY;
using stencil::kTX;

#define CK(x) APP_CUDA_CK("stencil_gpu", x)
#define CK_LAUNCH() CK(cudaGetLastError())

enum class Variant { kDevice, kStream, kMpi };
const char *variantName(Variant v) {
  return v == Variant::kDevice ? "device" : v == Variant::kStream ? "stream" : "mpi";
}

struct Params {
  int nx = 16384, ny = 16384, niter = 1000, nccheck = 1;
  bool csv = false, check = false, corrupt_halo = false, bench = false, fp64 = false, staged = false;
  Variant variant = Variant::kDevice;
};

Params parse(int argc, char **argv) {
  Params p;
  apps::ArgParser ap(argc, argv,
                     "[-nx n] [-ny n] [-niter n] [-nccheck k] [-csv] [--variant device|stream|mpi] "
                     "[--mpi] [--staged] [--fp64] [--bench] [--check] [--corrupt-halo]");
  // clang-format off
  for (int i = 1; i < argc; ++i) {
    if (ap.is(i, "-nx", "--nx")) p.nx = (int)ap.next_int(i);
    else if (ap.is(i, "-ny", "--ny")) p.ny = (int)ap.next_int(i);
    else if (ap.is(i, "-niter", "--niter")) p.niter = (int)ap.next_int(i);
    else if (ap.is(i, "-nccheck", "--nccheck")) p.nccheck = (int)ap.next_int(i);
    else if (ap.is(i, "-csv", "--csv")) p.csv = true;
    else if (ap.is(i, nullptr, "--check")) p.check = true;
    else if (ap.is(i, nullptr, "--corrupt-halo")) p.corrupt_halo = true;
    else if (ap.is(i, nullptr, "--bench")) p.bench = true;
    else if (ap.is(i, nullptr, "--fp64")) p.fp64 = true;
    else if (ap.is(i, nullptr, "--staged")) p.staged = true;  // MPI twin: stage even if the MPI is CUDA-aware
    else if (ap.is(i, nullptr, "--mpi")) p.variant = Variant::kMpi;
    else if (ap.is(i, nullptr, "--variant") && i + 1 < argc) {
      const std::string v = argv[++i];
      if (v == "device") p.variant = Variant::kDevice;
      else if (v == "stream") p.variant = Variant::kStream;
      else if (v == "mpi") p.variant = Variant::kMpi;
      else ap.fail(argv[i]);
    } else ap.fail(argv[i]);
  }
  // clang-format on
  return p;
}

/** True when the MPI library says it can take device pointers. */
bool mpiCudaAware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

/** One PE's slab: nr interior rows from global row y0 (1-based), two arrays of rows 0..nr+1. */
template <class T>
struct Slab {
  int nx = 0, ny = 0, nr = 0, y0 = 1;
  size_t pitch = 0;
  T *a = nullptr, *b = nullptr;
  T *row(T *arr, int lr) const { return arr + (size_t)lr * pitch; }
  dim3 grid() const { return dim3((unsigned)((nx + kTX - 1) / kTX), (unsigned)((nr + kRY - 1) / kRY)); }
  size_t blocks() const {
    const dim3 g = grid();
    return (size_t)g.x * g.y;
  }
  void init(cudaStream_t st) const {
    const dim3 g((unsigned)((pitch + kTX - 1) / kTX), (unsigned)std::min(nr + 2, 65535));
    stencil::initSlab<T><<<g, kTX, 0, st>>>(a, b, nx, nr, pitch, y0, ny);
    CK_LAUNCH();
  }
};

/** How ghost rows are filled and norms reduced. `distributed` false: PE 0's one-PE reference (local copies). */
template <class T>
struct Comm {
  Variant variant = Variant::kDevice;
  bool distributed = false, cuda_aware = false, corrupt = false;
  int me = 0, npes = 1, up = 0, down = 0, nr_up = 0, nseg = 1;
  uint64_t *sig = nullptr;    // symmetric, 2 * nseg: ghost row 0 signals, then ghost row nr+1 signals
  double *d_red = nullptr;    // device, this PE's sum of squared changes
  double *h_red = nullptr;    // pinned, its copy
  double *sym_red = nullptr;  // host symmetric, 1 + npes doubles: this PE's value, then every PE's
  double *partial = nullptr;  // device, one double per jacobiStep block
  T *h_buf[4] = {};           // MPI staging (pinned): send row 1, send row nr, recv bottom, recv top
  cudaStream_t side = nullptr;
  cudaEvent_t ev_done = nullptr, ev_halo = nullptr;
  uint64_t *sigTop() const { return sig; }
  uint64_t *sigBot() const { return sig + nseg; }
};

/** MPI halos of dst (whole rows): row 1 goes up (tag 0, into the upper PE's bottom ghost row), row nr down (tag 1). */
template <class T>
void mpiHalo(Comm<T> &c, const Slab<T> &s, T *dst, cudaStream_t st) {
  const MPI_Datatype dt = sizeof(T) == 4 ? MPI_FLOAT : MPI_DOUBLE;
  const size_t bytes = (size_t)s.nx * sizeof(T);
  MPI_Request req[4];
  if (c.cuda_aware) {
    CK(cudaStreamSynchronize(st));  // the kernel wrote rows 1 and nr; MPI knows no streams
    MPI_Irecv(s.row(dst, s.nr + 1), s.nx, dt, c.down, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(s.row(dst, 0), s.nx, dt, c.up, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(s.row(dst, 1), s.nx, dt, c.up, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(s.row(dst, s.nr), s.nx, dt, c.down, 1, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    return;
  }
  CK(cudaEventRecord(c.ev_done, st));
  CK(cudaStreamWaitEvent(c.side, c.ev_done, 0));
  CK(cudaMemcpyAsync(c.h_buf[0], s.row(dst, 1), bytes, cudaMemcpyDeviceToHost, c.side));
  CK(cudaMemcpyAsync(c.h_buf[1], s.row(dst, s.nr), bytes, cudaMemcpyDeviceToHost, c.side));
  CK(cudaStreamSynchronize(c.side));  // also: the previous iteration's copies out of h_buf[2..3] are done
  MPI_Irecv(c.h_buf[2], s.nx, dt, c.down, 0, MPI_COMM_WORLD, &req[0]);
  MPI_Irecv(c.h_buf[3], s.nx, dt, c.up, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Isend(c.h_buf[0], s.nx, dt, c.up, 0, MPI_COMM_WORLD, &req[2]);
  MPI_Isend(c.h_buf[1], s.nx, dt, c.down, 1, MPI_COMM_WORLD, &req[3]);
  MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  CK(cudaMemcpyAsync(s.row(dst, s.nr + 1), c.h_buf[2], bytes, cudaMemcpyHostToDevice, c.side));
  CK(cudaMemcpyAsync(s.row(dst, 0), c.h_buf[3], bytes, cudaMemcpyHostToDevice, c.side));
  CK(cudaEventRecord(c.ev_halo, c.side));
  CK(cudaStreamWaitEvent(st, c.ev_halo, 0));  // the next kernel reads the ghost rows
}

/** Fills dst's ghost rows with iteration g's boundary rows, for the variants that do it outside the kernel. */
template <class T>
void exchange(Comm<T> &c, const Slab<T> &s, T *dst, uint64_t g, cudaStream_t st) {
  const size_t bytes = (size_t)s.nx * sizeof(T);
  if (!c.distributed) {  // periodic wrap within one slab
    CK(cudaMemcpyAsync(s.row(dst, 0), s.row(dst, s.nr), bytes, cudaMemcpyDeviceToDevice, st));
    CK(cudaMemcpyAsync(s.row(dst, s.nr + 1), s.row(dst, 1), bytes, cudaMemcpyDeviceToDevice, st));
  } else if (c.variant == Variant::kStream) {
    gshmemx_putmem_signal_on_stream(s.row(dst, c.nr_up + 1), s.row(dst, 1), bytes, c.sigBot(), g, SHMEM_SIGNAL_SET,
                                    c.up, st);
    gshmemx_putmem_signal_on_stream(s.row(dst, 0), s.row(dst, s.nr), bytes, c.sigTop(), g, SHMEM_SIGNAL_SET, c.down,
                                    st);
    gshmemx_signal_wait_until_on_stream(c.sigTop(), SHMEM_CMP_GE, g, st);
    gshmemx_signal_wait_until_on_stream(c.sigBot(), SHMEM_CMP_GE, g, st);
  } else if (c.variant == Variant::kMpi) {
    mpiHalo(c, s, dst, st);
  }
  CK_LAUNCH();
}

/** The global sum of squared changes of the last jacobiStep<T, true> (every PE calls it in the same iterations).
 *  Every PE sums the PEs' values in PE order (gathered by shmem_double_fcollect, or MPI_Allgather in the twin), so
 *  all PEs hold the same bits and stop at the same iteration. */
template <class T>
double globalNorm2(Comm<T> &c, const Slab<T> &s, cudaStream_t st) {
  stencil::sumPartials<<<1, kTX, 0, st>>>(c.partial, s.blocks(), c.d_red);
  CK_LAUNCH();
  CK(cudaMemcpyAsync(c.h_red, c.d_red, sizeof(double), cudaMemcpyDeviceToHost, st));
  CK(cudaStreamSynchronize(st));
  if (!c.distributed) return c.h_red[0];
  if (c.variant == Variant::kMpi) {
    MPI_Allgather(c.h_red, 1, MPI_DOUBLE, c.sym_red + 1, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  } else {
    c.sym_red[0] = c.h_red[0];
    shmem_double_fcollect(SHMEM_TEAM_WORLD, c.sym_red + 1, c.sym_red, 1);
  }
  double v = 0;
  for (int q = 0; q < c.npes; ++q) v += c.sym_red[1 + q];
  return v;
}

template <class T>
stencil::StepArgs<T> stepArgs(const Comm<T> &c, const Slab<T> &s, const T *src, T *dst, uint64_t g) {
  stencil::StepArgs<T> a;
  a.src = src;
  a.dst = dst;
  a.nx = s.nx;
  a.nr = s.nr;
  a.pitch = s.pitch;
  a.partial = c.partial;
  a.iter = g;
  if (c.distributed && c.variant == Variant::kDevice) {
    a.sig_top = c.sigTop();
    a.sig_bot = c.sigBot();
    a.put_up = s.row(dst, c.nr_up + 1);  // symmetric: our dst's address names the neighbour's dst
    a.put_down = s.row(dst, 0);
    a.pe_up = c.up;
    a.pe_down = c.down;
  }
  return a;
}

struct RunResult {
  double time = 0, norm = 0;
  int iters = 0;
  bool final_is_a = true;
};

/** Iterates from the slab's initial state; global iteration numbers start at base + 1 (signals only grow, so a
 *  second run on the same signals continues the numbering). Ends with every ghost row of the final array filled. */
template <class T>
RunResult jacobi(const Params &p, Comm<T> &c, const Slab<T> &s, uint64_t base, cudaStream_t st) {
  RunResult r;
  T *src = s.a, *dst = s.b;
  const double t0 = apps::wtime();
  for (int k = 1; k <= p.niter; ++k) {
    const uint64_t g = base + (uint64_t)k;
    const bool nk = k % p.nccheck == 0 || k == p.niter;
    const stencil::StepArgs<T> args = stepArgs(c, s, src, dst, g);
    if (nk) {
      stencil::jacobiStep<T, true><<<s.grid(), kTX, 0, st>>>(args);
    } else {
      stencil::jacobiStep<T, false><<<s.grid(), kTX, 0, st>>>(args);
    }
    CK_LAUNCH();
    exchange(c, s, dst, g, st);
    if (c.corrupt && k == 2) {  // one wrong value in the ghost row that iteration 3 reads
      const int x = s.nx / 2;
      uint64_t *sig = args.sig_top != nullptr ? &args.sig_top[x / kTX] : nullptr;
      stencil::corruptGhost<T><<<1, 1, 0, st>>>(s.row(dst, 0) + x, sig, g);
      CK_LAUNCH();
    }
    r.iters = k;
    std::swap(src, dst);
    if (nk) {
      r.norm = std::sqrt(globalNorm2(c, s, st));
      if (!(r.norm > 1e-8)) break;  // converged (or not a number: the validation reports it)
    }
  }
  if (c.distributed && c.variant == Variant::kDevice) {
    stencil::waitAllGhosts<<<1, kTX, 0, st>>>(c.sigTop(), c.sigBot(), c.nseg, base + (uint64_t)r.iters);
    CK_LAUNCH();
  }
  CK(cudaStreamSynchronize(st));
  r.time = apps::wtime() - t0;
  r.final_is_a = src == s.a;
  return r;
}

/** Hashes of rows first..first+n-1 of arr (device kernel), returned on the host. */
template <class T>
std::vector<uint64_t> rowHashes(const Slab<T> &s, const T *arr, int first, int n, cudaStream_t st) {
  std::vector<uint64_t> h((size_t)n);
  uint64_t *d = nullptr;
  CK(cudaMalloc(&d, (size_t)n * sizeof(uint64_t)));
  stencil::rowHashes<T><<<(unsigned)n, kTX, 0, st>>>(arr, s.pitch, s.nx, first, d);
  CK_LAUNCH();
  CK(cudaMemcpyAsync(h.data(), d, (size_t)n * sizeof(uint64_t), cudaMemcpyDeviceToHost, st));
  CK(cudaStreamSynchronize(st));
  CK(cudaFree(d));
  return h;
}

/** Interior rows 1..nr (columns 0..nx-1) of arr, copied to the host (ordered after the work on st). */
template <class T>
std::vector<T> interiorRows(const Slab<T> &s, const T *arr, cudaStream_t st) {
  std::vector<T> h((size_t)s.nr * s.nx);
  CK(cudaMemcpy2DAsync(h.data(), (size_t)s.nx * sizeof(T), arr + s.pitch, s.pitch * sizeof(T), (size_t)s.nx * sizeof(T),
                       (size_t)s.nr, cudaMemcpyDeviceToHost, st));
  CK(cudaStreamSynchronize(st));
  return h;
}

/** PE 0: the whole grid alone on this GPU with the same kernels; returns its result and its interior rows. */
template <class T>
RunResult reference(const Params &p, std::vector<T> &rows, cudaStream_t st) {
  Slab<T> s;
  s.nx = p.nx;
  s.ny = p.ny;
  s.nr = p.ny - 2;
  s.pitch = ((size_t)p.nx + 31) / 32 * 32;
  const size_t bytes = (size_t)(s.nr + 2) * s.pitch * sizeof(T);
  CK(cudaMalloc(&s.a, bytes));
  CK(cudaMalloc(&s.b, bytes));
  Comm<T> c;
  CK(cudaMalloc(&c.d_red, sizeof(double)));
  CK(cudaMallocHost(&c.h_red, sizeof(double)));
  CK(cudaMalloc(&c.partial, s.blocks() * sizeof(double)));
  s.init(st);
  const RunResult r = jacobi(p, c, s, 0, st);  // c.corrupt is false: the reference is never corrupted
  rows = interiorRows(s, r.final_is_a ? s.a : s.b, st);
  CK(cudaFree(c.partial));
  CK(cudaFreeHost(c.h_red));
  CK(cudaFree(c.d_red));
  CK(cudaFree(s.b));
  CK(cudaFree(s.a));
  return r;
}

/** --check: gathers the distributed interior rows on PE 0 and compares them bitwise with the reference. Collective;
 *  returns true on every PE when they match. Sets *runtime_1pe on PE 0. */
template <class T>
bool checkAgainstOnePe(const Params &p, const Comm<T> &c, const Slab<T> &s, const RunResult &r,
                       const std::vector<int> &nr_of, double *runtime_1pe, cudaStream_t st) {
  const std::vector<T> mine = interiorRows(s, r.final_is_a ? s.a : s.b, st);
  MPI_Datatype row_t;
  MPI_Type_contiguous((int)((size_t)p.nx * sizeof(T)), MPI_BYTE, &row_t);
  MPI_Type_commit(&row_t);
  std::vector<int> counts(nr_of), displs((size_t)c.npes, 0);
  for (int q = 1; q < c.npes; ++q) displs[q] = displs[q - 1] + counts[q - 1];
  std::vector<T> all(c.me == 0 ? (size_t)(p.ny - 2) * p.nx : 0);
  MPI_Gatherv(mine.data(), s.nr, row_t, all.data(), counts.data(), displs.data(), row_t, 0, MPI_COMM_WORLD);
  MPI_Type_free(&row_t);
  int ok = 1;
  if (c.me == 0) {
    std::vector<T> ref;
    const RunResult rr = reference<T>(p, ref, st);
    *runtime_1pe = rr.time;
    size_t diff = 0;
    for (size_t i = 0; i < ref.size(); ++i) diff += std::memcmp(&ref[i], &all[i], sizeof(T)) != 0;
    const double rel = std::fabs(rr.norm - r.norm) / std::fmax(rr.norm, 1e-300);
    std::printf(
        "stencil_gpu check: %zu of %zu elements differ in some bit from the one-PE run; norm one-PE %.17g "
        "distributed %.17g rel %.3g; iterations %d / %d\n",
        diff, ref.size(), rr.norm, r.norm, rel, rr.iters, r.iters);
    ok = diff == 0 && rel <= 1e-10 && rr.iters == r.iters;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok != 0;
}

/** Always-on validation: the final ghost rows equal the neighbours' boundary rows. Returns the number of wrong ghost
 *  rows over all PEs; fills the grid hash on PE 0. */
template <class T>
int validateHalos(const Comm<T> &c, const Slab<T> &s, const RunResult &r, const std::vector<int> &nr_of,
                  uint64_t *grid_hash, cudaStream_t st) {
  const std::vector<uint64_t> h = rowHashes(s, r.final_is_a ? s.a : s.b, 0, s.nr + 2, st);
  const uint64_t mine[4] = {h[1], h[(size_t)s.nr], h[0], h[(size_t)s.nr + 1]};  // row 1, row nr, ghost 0, ghost nr+1
  std::vector<uint64_t> all((size_t)4 * c.npes);
  MPI_Allgather(mine, 4, MPI_UINT64_T, all.data(), 4, MPI_UINT64_T, MPI_COMM_WORLD);
  int bad = (h[0] != all[(size_t)4 * c.up + 1]) + (h[(size_t)s.nr + 1] != all[(size_t)4 * c.down]), bad_all = 0;
  MPI_Allreduce(&bad, &bad_all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  std::vector<int> displs((size_t)c.npes, 0);
  for (int q = 1; q < c.npes; ++q) displs[q] = displs[q - 1] + nr_of[q - 1];
  std::vector<uint64_t> rows(c.me == 0 ? (size_t)(s.ny - 2) : 0);
  MPI_Gatherv(h.data() + 1, s.nr, MPI_UINT64_T, rows.data(), nr_of.data(), displs.data(), MPI_UINT64_T, 0,
              MPI_COMM_WORLD);
  uint64_t gh = 0;
  for (uint64_t x : rows) gh = apps::mix64(gh ^ x);
  *grid_hash = gh;
  return bad_all;
}

/** Row decomposition as the host version; allocates the slabs (symmetric unless MPI), signals and scratch. */
template <class T>
void setup(const Params &p, Comm<T> &c, Slab<T> &s, std::vector<int> &nr_of) {
  const int rows = p.ny - 2;
  nr_of.resize((size_t)c.npes);
  for (int q = 0; q < c.npes; ++q) {
    nr_of[q] = rows / c.npes + (q >= c.npes - rows % c.npes ? 1 : 0);
    if (q < c.me) s.y0 += nr_of[q];
  }
  s.nx = p.nx;
  s.ny = p.ny;
  s.nr = nr_of[c.me];
  s.pitch = ((size_t)p.nx + 31) / 32 * 32;
  c.up = (c.me + c.npes - 1) % c.npes;
  c.down = (c.me + 1) % c.npes;
  c.nr_up = nr_of[c.up];
  c.nseg = (p.nx + kTX - 1) / kTX;
  const size_t bytes = (size_t)(nr_of[c.npes - 1] + 2) * s.pitch * sizeof(T);  // the largest slab: symmetric sizes
  if (c.variant == Variant::kMpi) {
    CK(cudaMalloc(&s.a, bytes));
    CK(cudaMalloc(&s.b, bytes));
  } else {
    s.a = static_cast<T *>(gshmemx_malloc_device(bytes));
    s.b = static_cast<T *>(gshmemx_malloc_device(bytes));
  }
  c.sig = static_cast<uint64_t *>(gshmemx_calloc_device((size_t)2 * c.nseg, sizeof(uint64_t)));
  c.sym_red = static_cast<double *>(shmem_calloc((size_t)c.npes + 1, sizeof(double)));
  int ok = s.a && s.b && c.sig && c.sym_red, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all) {
    if (c.me == 0)
      std::fprintf(stderr,
                   "stencil_gpu: allocating 2 x %zu bytes of GPU memory failed on some PE (raise "
                   "GSHMEM_SYMMETRIC_SIZE_DEVICE)\n",
                   bytes);
    shmem_global_exit(1);
  }
  CK(cudaMalloc(&c.partial, s.blocks() * sizeof(double)));
  CK(cudaMalloc(&c.d_red, sizeof(double)));
  CK(cudaMallocHost(&c.h_red, sizeof(double)));
  if (c.variant == Variant::kMpi && !c.cuda_aware) {
    for (T *&h : c.h_buf) CK(cudaMallocHost(&h, (size_t)p.nx * sizeof(T)));
    CK(cudaStreamCreateWithFlags(&c.side, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&c.ev_done, cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&c.ev_halo, cudaEventDisableTiming));
  }
}

/** Releases what setup took (collective: the symmetric frees). */
template <class T>
void teardown(Comm<T> &c, Slab<T> &s) {
  MPI_Barrier(MPI_COMM_WORLD);  // no PE frees memory a neighbour's last put or wait may still touch
  if (c.side != nullptr) {
    CK(cudaEventDestroy(c.ev_halo));
    CK(cudaEventDestroy(c.ev_done));
    CK(cudaStreamDestroy(c.side));
    for (T *h : c.h_buf) CK(cudaFreeHost(h));
  }
  CK(cudaFreeHost(c.h_red));
  CK(cudaFree(c.d_red));
  CK(cudaFree(c.partial));
  shmem_free(c.sym_red);
  shmem_free(c.sig);
  if (c.variant == Variant::kMpi) {
    CK(cudaFree(s.b));
    CK(cudaFree(s.a));
  } else {
    shmem_free(s.b);
    shmem_free(s.a);
  }
}

/** --bench: B measured by each PE in turn (PEs may share a GPU); PE 0's value. */
double probeBandwidth(int me, int npes, cudaStream_t st, size_t *probe_bytes) {
  double b = 0;
  for (int q = 0; q < npes; ++q) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (q == me) b = apps::copyBandwidth(st, probe_bytes);
  }
  return b;
}

struct Summary {
  double t = 0, runtime_1pe = 0, bandwidth = 0;
  size_t probe_bytes = 0;
  uint64_t grid_hash = 0;
  int bad_halos = 0;
};

/** PE 0: the summary lines, the bench line and the CSV line. */
template <class T>
void report(const Params &p, const Comm<T> &c, const std::vector<int> &nr_of, const RunResult &r, const Summary &m) {
  const char *how = c.variant == Variant::kDevice   ? "put_signal_nbi_block from the kernel, signal wait on the device"
                    : c.variant == Variant::kStream ? "putmem_signal_on_stream + signal_wait_until_on_stream"
                    : c.cuda_aware
                        ? "MPI_Isend/Irecv of device memory (CUDA-aware MPI)"
                        : "MPI_Isend/Irecv staged through pinned host buffers (cudaMemcpyAsync, side stream)";
  const double pts = (double)(p.nx - 2) * (p.ny - 2), bpp = 2.0 * sizeof(T), gbs = bpp * pts * r.iters / m.t * 1e-9;
  std::printf("stencil_gpu: nx=%d ny=%d npes=%d rows/PE=%d..%d iterations=%d nccheck=%d %s variant %s (%s)\n", p.nx,
              p.ny, c.npes, nr_of[0], nr_of[(size_t)c.npes - 1], r.iters, p.nccheck, sizeof(T) == 4 ? "fp32" : "fp64",
              variantName(c.variant), how);
  std::printf("stencil_gpu: norm %.15e  grid hash %016" PRIx64 " (same for every PE count and variant)\n", r.norm,
              m.grid_hash);
  std::printf("stencil_gpu: %.4f s  %.4f ms/iteration  %.2f GB/s (%.0f B per point per iteration)\n", m.t,
              m.t * 1e3 / r.iters, gbs, bpp);
  if (m.runtime_1pe > 0)
    std::printf("stencil_gpu: 1-PE runtime %.4f s, parallel efficiency %.1f%%\n", m.runtime_1pe,
                100.0 * m.runtime_1pe / (c.npes * m.t));
  const bool ok = m.bad_halos == 0 && std::isfinite(r.norm);
  std::printf("stencil_gpu: final ghost rows vs the neighbours' boundary rows: %d wrong, norm %s -> validation %s\n",
              m.bad_halos, std::isfinite(r.norm) ? "finite" : "NOT FINITE", ok ? "ok" : "FAILED");
  if (p.bench && !(m.bandwidth > 0)) std::printf("stencil_gpu bench: the copy probe could not run (no memory left)\n");
  if (p.bench && m.bandwidth > 0)
    std::printf(
        "stencil_gpu bench: device-to-device copy B = %.1f GB/s (cudaMemcpy of %zu MiB, read + write); "
        "stencil %.1f GB/s = %.1f%% of B\n",
        m.bandwidth * 1e-9, m.probe_bytes >> 20, gbs, 100.0 * gbs / (m.bandwidth * 1e-9));
  if (p.csv)
    std::printf(
        "type, nx, ny, niter, nccheck, npes, variant, runtime, runtime_1pe\njacobi_gpu, %d, %d, %d, %d, %d, "
        "%s, %.6f, %.6f\n",
        p.nx, p.ny, r.iters, p.nccheck, c.npes, variantName(c.variant), m.t, m.runtime_1pe);
}

/** Runs the whole program for element type T; returns the exit status (0: validated, and --check passed). */
template <class T>
int run(const Params &p, int me, int npes) {
  Comm<T> c;
  c.variant = p.variant;
  c.distributed = true;
  c.me = me;
  c.npes = npes;
  c.cuda_aware = p.variant == Variant::kMpi && !p.staged && mpiCudaAware();
  Slab<T> s;
  std::vector<int> nr_of;
  setup(p, c, s, nr_of);
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  Summary m;
  if (p.bench) m.bandwidth = probeBandwidth(me, npes, st, &m.probe_bytes);
  Params w = p;  // warm-up (module loading, first touches), then the timed run; the numbering continues
  w.niter = std::min(p.niter, 10);
  s.init(st);
  CK(cudaStreamSynchronize(st));
  MPI_Barrier(MPI_COMM_WORLD);  // every slab initialized and every signal zero before the first put
  const uint64_t base = (uint64_t)jacobi(w, c, s, 0, st).iters;
  MPI_Barrier(MPI_COMM_WORLD);  // every put of the warm-up has landed everywhere (each PE waited for its own)
  s.init(st);
  CK(cudaStreamSynchronize(st));
  MPI_Barrier(MPI_COMM_WORLD);
  c.corrupt = p.corrupt_halo && me == 0;
  const RunResult r = jacobi(p, c, s, base, st);
  MPI_Allreduce(&r.time, &m.t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  m.bad_halos = validateHalos(c, s, r, nr_of, &m.grid_hash, st);
  const bool checked = !p.check || checkAgainstOnePe(p, c, s, r, nr_of, &m.runtime_1pe, st);
  if (me == 0) report(p, c, nr_of, r, m);
  int rc = m.bad_halos == 0 && std::isfinite(r.norm) ? 0 : 1;
  if (p.check) {
    rc = rc == 0 && checked ? 0 : 1;
    if (me == 0) std::printf("stencil_gpu check: %s\n", rc ? "FAILED" : "OK");
  }
  std::fflush(stdout);
  teardown(c, s);
  CK(cudaStreamDestroy(st));
  return rc;
}

}  // namespace

int main(int argc, char **argv) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const Params p = parse(argc, argv);
  int have = gshmemx_device_available() ? 1 : 0, all = 0;
  MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all) {
    if (me == 0) std::printf("stencil_gpu check: SKIPPED (no GPU)\n");
    shmem_finalize();
    return 0;
  }
  if (p.nx < 3 || p.ny - 2 < npes || p.niter < 1 || p.nccheck < 1) {
    if (me == 0)
      std::fprintf(stderr, "stencil_gpu: need nx >= 3, ny - 2 >= npes (%d), niter >= 1, nccheck >= 1\n", npes);
    shmem_finalize();
    return 2;
  }
  CK(cudaSetDevice(gshmemx_device_id()));
  const int rc = p.fp64 ? run<double>(p, me, npes) : run<float>(p, me, npes);
  shmem_finalize();
  return rc;
}
