// stencil: 2D 5-point Jacobi for the Laplace equation on gshmem (host version, fp64), as apps/README.md defines it.
//
// Problem: nx x ny grid; a_new[y][x] = 0.25 * (a[y][x-1] + a[y][x+1] + a[y-1][x] + a[y+1][x]) on the
// columns 1..nx-2 of the interior rows 1..ny-2. Columns 0 and nx-1 are Dirichlet, a = sin(2 pi y / (ny-1));
// the rest starts at 0. Top and bottom are periodic over the interior rows: PE r exchanges its first and
// last rows with PE r-1 and r+1 (mod npes); one PE exchanges with itself. The ny-2 interior rows split
// into contiguous chunks, the first PEs getting floor((ny-2)/npes) and the rest one more.
//
// Layout: rows 0..nr+1 of stride nx+1 (rows 0 and nr+1 are halos); element nx of a row that is sent
// carries a 64-bit checksum of the row's bits. Iteration k reads src, writes dst:
//   1. update rows 1 and nr, checksum them;
//   2. shmem_putmem_signal_nbi row 1 into the upper PE's dst row nr_up+1 (signal sig[1] := k) and row nr
//      into the lower PE's dst row 0 (sig[0] := k);
//   3. update rows 2..nr-1 while the rows fly;
//   4. wait for sig[0] >= k and sig[1] >= k, shmem_quiet(), verify the checksums of both received halos.
// A neighbour's put of iteration k+1 lands in our src-of-k halos only after it has seen our k signal,
// i.e. after our step 1 of k, and the bulk never reads halos: one halo row per side and array suffices.
//
// Validation on every run: each received halo must match its checksum (a corrupted halo fails the run);
// the printed grid hash (per-row hashes of the bits, combined in global row order) is the same for every
// PE count. --check: PE 0 alone runs the same kernel serially on the whole grid (its run time is
// runtime_1pe) and compares every row's hash with the distributed rows' (bitwise); norms to 1e-12.
// Norm: || a_new - a ||_2 every nccheck iterations (sum reduction); stop at norm <= 1e-8 or niter.
// --mpi: the MPI twin in the same binary: identical kernels, decomposition and checks, but step 2 posts
// MPI_Irecv into both dst halos and MPI_Isend of rows 1 and nr, step 4 is MPI_Waitall, and the norm is an
// MPI_Allreduce (MPI is initialised by gshmem's bootstrap; the program uses MPI_COMM_WORLD).
#include <mpi.h>
#include <shmem.h>

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../common/app_util.hpp"

namespace {

struct Params {
  int nx = 4096, ny = 4096, niter = 1000, nccheck = 1;
  bool csv = false, check = false, corrupt_halo = false, mpi = false;
};

/** Updates columns 1..nx-2 of dst from rows up/mid/down (columns 0, nx-1 are constant). With norm, returns
 *  the sum of squared changes, accumulated in 4 interleaved partial sums combined in a fixed order (the
 *  same at every PE count). Out of line: the distributed and the serial run execute the same code. */
__attribute__((noinline)) double update_row(double *__restrict dst, const double *__restrict up,
                                            const double *__restrict mid, const double *__restrict down, int nx,
                                            bool norm) {
  if (!norm) {
    for (int x = 1; x < nx - 1; ++x) dst[x] = 0.25 * (mid[x - 1] + mid[x + 1] + up[x] + down[x]);
    return 0.0;
  }
  double acc[4] = {0, 0, 0, 0};
  int x = 1;
  for (; x + 3 < nx - 1; x += 4)
    for (int k = 0; k < 4; ++k) {
      const double v = 0.25 * (mid[x + k - 1] + mid[x + k + 1] + up[x + k] + down[x + k]);
      const double d = v - mid[x + k];
      dst[x + k] = v;
      acc[k] += d * d;
    }
  for (; x < nx - 1; ++x) {
    const double v = 0.25 * (mid[x - 1] + mid[x + 1] + up[x] + down[x]);
    const double d = v - mid[x];
    dst[x] = v;
    acc[0] += d * d;
  }
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

uint64_t row_hash(const double *row, int nx) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (int x = 0; x < nx; ++x) {
    uint64_t b;
    std::memcpy(&b, &row[x], sizeof b);
    h = (h ^ b) * 0x100000001b3ULL;
  }
  return apps::mix64(h);
}

void seal_row(double *row, int nx) {
  const uint64_t h = row_hash(row, nx);
  std::memcpy(&row[nx], &h, sizeof h);
}

bool row_sealed(const double *row, int nx) {
  const uint64_t h = row_hash(row, nx);
  return std::memcmp(&row[nx], &h, sizeof h) == 0;
}

/** A slab of nr interior rows starting at global row y0 (1-based interior), two arrays with halos. */
struct Slab {
  int nx = 0, ny = 0, nr = 0, y0 = 0;
  size_t W = 0;  // row stride
  double *a = nullptr, *b = nullptr;
  double *row(double *arr, int lr) const { return arr + (size_t)lr * W; }
  /** Rows 0..nr+1 of both arrays: zeros, Dirichlet columns of the row's global index. */
  void init() const {
    for (int lr = 0; lr <= nr + 1; ++lr) {
      const double bc = std::sin(2.0 * M_PI * (double)(y0 + lr - 1) / (double)(ny - 1));
      for (double *arr : {a, b}) {
        double *r = row(arr, lr);
        std::memset(r, 0, W * sizeof(double));
        r[0] = r[nx - 1] = bc;
      }
    }
  }
};

/** Halo exchange: distributed put-with-signal, or local periodic copies for the serial reference. */
struct Exchanger {
  bool distributed = false, corrupt = false, mpi = false;
  MPI_Request req[4];
  int me = 0, npes = 1;
  std::vector<int> nr_of;
  uint64_t *sig = nullptr;
  uint64_t bad = 0, checked = 0;
  double t_wait = 0;

  void start(const Slab &s, double *dst, uint64_t k) {
    const size_t nb = s.W * sizeof(double);
    if (!distributed) {
      std::memcpy(s.row(dst, 0), s.row(dst, s.nr), nb);
      std::memcpy(s.row(dst, s.nr + 1), s.row(dst, 1), nb);
      return;
    }
    const int up = (me + npes - 1) % npes, down = (me + 1) % npes;
    if (mpi) {  // tag 0: a row travelling up (into the receiver's bottom halo); tag 1: down
      MPI_Irecv(s.row(dst, s.nr + 1), (int)s.W, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(s.row(dst, 0), (int)s.W, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[1]);
      MPI_Isend(s.row(dst, 1), (int)s.W, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[2]);
      MPI_Isend(s.row(dst, s.nr), (int)s.W, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[3]);
      return;
    }
    shmem_putmem_signal_nbi(s.row(dst, nr_of[up] + 1), s.row(dst, 1), nb, &sig[1], k, SHMEM_SIGNAL_SET, up);
    shmem_putmem_signal_nbi(s.row(dst, 0), s.row(dst, s.nr), nb, &sig[0], k, SHMEM_SIGNAL_SET, down);
  }
  void finish(const Slab &s, double *dst, uint64_t k) {
    if (distributed) {
      const double t0 = apps::wtime();
      if (mpi) {
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
      } else {
        shmem_signal_wait_until(&sig[0], SHMEM_CMP_GE, k);
        shmem_signal_wait_until(&sig[1], SHMEM_CMP_GE, k);
        shmem_quiet();
      }
      t_wait += apps::wtime() - t0;
    }
    if (corrupt && me == 0 && k == 2) s.row(dst, 0)[s.nx / 2] += 1.0;  // debug: one wrong halo value
    bad += !row_sealed(s.row(dst, 0), s.nx);
    bad += !row_sealed(s.row(dst, s.nr + 1), s.nx);
    checked += 2;
  }
};

struct RunResult {
  double time = 0, norm = 0;
  int iters = 0;
  double *final_arr = nullptr;
};

/** Iterates until niter or norm <= 1e-8. norm_sum(local) returns the global sum (a reduction or identity). */
template <class NormSum>
RunResult jacobi(const Params &p, const Slab &s, Exchanger &ex, NormSum norm_sum) {
  RunResult r;
  double *src = s.a, *dst = s.b;
  const double t0 = apps::wtime();
  for (int k = 1; k <= p.niter; ++k) {
    const bool nk = k % p.nccheck == 0 || k == p.niter;
    double d2 = update_row(s.row(dst, 1), s.row(src, 0), s.row(src, 1), s.row(src, 2), s.nx, nk);
    if (s.nr > 1)
      d2 += update_row(s.row(dst, s.nr), s.row(src, s.nr - 1), s.row(src, s.nr), s.row(src, s.nr + 1), s.nx, nk);
    seal_row(s.row(dst, 1), s.nx);
    seal_row(s.row(dst, s.nr), s.nx);
    ex.start(s, dst, (uint64_t)k);
    for (int lr = 2; lr < s.nr; ++lr)
      d2 += update_row(s.row(dst, lr), s.row(src, lr - 1), s.row(src, lr), s.row(src, lr + 1), s.nx, nk);
    ex.finish(s, dst, (uint64_t)k);
    r.iters = k;
    std::swap(src, dst);
    if (nk) {
      r.norm = std::sqrt(norm_sum(d2));
      if (r.norm <= 1e-8) break;
    }
  }
  r.time = apps::wtime() - t0;
  r.final_arr = src;
  return r;
}

Params parse(int argc, char **argv) {
  Params p;
  apps::ArgParser ap(argc, argv, "[-nx n] [-ny n] [-niter n] [-nccheck k] [-csv] [--check] [--corrupt-halo] [--mpi] "
                                 "(each also as --nx, --ny, --niter, --nccheck, --csv)");
  for (int i = 1; i < argc; ++i) {
    if (ap.is(i, "-nx", "--nx")) p.nx = (int)ap.next_int(i);
    else if (ap.is(i, "-ny", "--ny")) p.ny = (int)ap.next_int(i);
    else if (ap.is(i, "-niter", "--niter")) p.niter = (int)ap.next_int(i);
    else if (ap.is(i, "-nccheck", "--nccheck")) p.nccheck = (int)ap.next_int(i);
    else if (ap.is(i, "-csv", "--csv")) p.csv = true;
    else if (ap.is(i, nullptr, "--check")) p.check = true;
    else if (ap.is(i, nullptr, "--corrupt-halo")) p.corrupt_halo = true;
    else if (ap.is(i, nullptr, "--mpi")) p.mpi = true;
    else ap.fail(argv[i]);
  }
  return p;
}

}  // namespace

namespace {

/** Combines per-row hashes in global row order into one grid hash. */
uint64_t grid_hash(const uint64_t *rows, int n) {
  uint64_t h = 0;
  for (int i = 0; i < n; ++i) h = apps::mix64(h ^ rows[i]);
  return h;
}

/** PE 0 only: the serial run on the whole grid. Fills per-row hashes; returns its result. */
RunResult serial_reference(const Params &p, std::vector<uint64_t> &hashes) {
  Slab s;
  s.nx = p.nx;
  s.ny = p.ny;
  s.nr = p.ny - 2;
  s.y0 = 1;
  s.W = (size_t)p.nx + 1;
  std::vector<double> a((size_t)(s.nr + 2) * s.W), b(a.size());
  s.a = a.data();
  s.b = b.data();
  s.init();
  Exchanger ex;
  RunResult r = jacobi(p, s, ex, [](double d2) { return d2; });
  hashes.resize(s.nr);
  for (int lr = 1; lr <= s.nr; ++lr) hashes[lr - 1] = row_hash(s.row(r.final_arr, lr), s.nx);
  if (ex.bad) std::printf("stencil check: serial run: %" PRIu64 " halo checksums wrong\n", ex.bad);
  return r;
}

/** PE 0, --check: runs the serial reference and compares every row hash and the norm with the
 *  distributed run's. Sets *runtime_1pe to the serial run's time. */
bool check_serial(const Params &p, const RunResult &r, const uint64_t *row_hashes, double *runtime_1pe) {
  const int rows = p.ny - 2;
  std::vector<uint64_t> ref;
  const RunResult rs = serial_reference(p, ref);
  *runtime_1pe = rs.time;
  int diff = 0;
  for (int i = 0; i < rows; ++i) diff += ref[i] != row_hashes[i];
  const double rel = std::fabs(rs.norm - r.norm) / std::fmax(rs.norm, 1e-300);
  std::printf("stencil check: %d of %d rows differ in some bit from the serial run; norm serial %.17g "
              "distributed %.17g rel %.3g; iterations %d / %d\n", diff, rows, rs.norm, r.norm, rel, rs.iters, r.iters);
  return diff == 0 && rel <= 1e-12 && rs.iters == r.iters;
}

struct Shared {  // symmetric scratch
  double *red = nullptr;
  uint64_t *h_src = nullptr, *h_all = nullptr;
};

/** Prints the summary (and the CSV line); returns 0 if the run validated. */
int report(const Params &p, int npes, const Slab &s, const Exchanger &ex, const RunResult &r, Shared &sh,
           double runtime_1pe) {
  sh.red[0] = r.time;
  sh.red[1] = ex.t_wait;
  sh.red[2] = (double)ex.bad;
  shmem_double_max_reduce(SHMEM_TEAM_WORLD, sh.red + 3, sh.red, 3);
  const double t = sh.red[3], wait = sh.red[4], bad = sh.red[5];
  if (shmem_my_pe() != 0) return bad == 0 ? 0 : 1;
  const double pts = (double)(p.nx - 2) * (p.ny - 2);
  std::printf("stencil: nx=%d ny=%d npes=%d rows/PE=%d..%d iterations=%d nccheck=%d variant %s\n", p.nx, p.ny,
              npes, ex.nr_of[0], ex.nr_of[npes - 1], r.iters, p.nccheck,
              p.mpi ? "mpi (MPI_Isend/Irecv halos, MPI_Allreduce norm)" : "put_signal (shmem_putmem_signal_nbi)");
  std::printf("stencil: norm %.15e  grid hash %016" PRIx64 " (same for every PE count)\n", r.norm,
              grid_hash(sh.h_all, p.ny - 2));
  std::printf("stencil: %.4f s  %.4f ms/iteration  %.2f GB/s (16 B per point per iteration)  max wait %.4f s\n", t,
              t * 1e3 / r.iters, 16.0 * pts * r.iters / t * 1e-9, wait);
  if (runtime_1pe > 0)
    std::printf("stencil: 1-PE runtime %.4f s, parallel efficiency %.1f%%\n", runtime_1pe,
                100.0 * runtime_1pe / (npes * t));
  std::printf("stencil: halo checksums verified every iteration: %.0f wrong -> validation %s\n", bad,
              bad == 0 ? "ok" : "FAILED");
  if (p.csv)
    std::printf("type, nx, ny, niter, nccheck, npes, variant, runtime, runtime_1pe\njacobi, %d, %d, %d, %d, %d, "
                "%s, %.6f, %.6f\n", p.nx, p.ny, r.iters, p.nccheck, npes, p.mpi ? "mpi" : "put_signal", t, runtime_1pe);
  (void)s;
  return bad == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char **argv) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const Params p = parse(argc, argv);
  if (p.nx < 3 || p.ny - 2 < npes || p.niter < 1 || p.nccheck < 1) {
    if (me == 0) std::fprintf(stderr, "stencil: need nx >= 3, ny - 2 >= npes (%d), niter >= 1, nccheck >= 1\n", npes);
    shmem_finalize();
    return 2;
  }
  Exchanger ex;
  ex.distributed = true;
  ex.corrupt = p.corrupt_halo;
  ex.mpi = p.mpi;
  ex.me = me;
  ex.npes = npes;
  ex.nr_of.resize(npes);
  Slab s;
  s.nx = p.nx;
  s.ny = p.ny;
  s.W = (size_t)p.nx + 1;
  s.y0 = 1;
  const int rows = p.ny - 2;
  for (int q = 0; q < npes; ++q) {
    ex.nr_of[q] = rows / npes + (q >= npes - rows % npes ? 1 : 0);
    if (q < me) s.y0 += ex.nr_of[q];
  }
  s.nr = ex.nr_of[me];
  const size_t arr = (size_t)(ex.nr_of[npes - 1] + 2) * s.W;
  s.a = static_cast<double *>(shmem_malloc(arr * sizeof(double)));
  s.b = static_cast<double *>(shmem_malloc(arr * sizeof(double)));
  ex.sig = static_cast<uint64_t *>(shmem_calloc(2, sizeof(uint64_t)));
  Shared sh;
  sh.red = static_cast<double *>(shmem_malloc(8 * sizeof(double)));
  sh.h_src = static_cast<uint64_t *>(shmem_malloc((size_t)ex.nr_of[npes - 1] * sizeof(uint64_t)));
  sh.h_all = static_cast<uint64_t *>(shmem_malloc((size_t)rows * sizeof(uint64_t)));
  if (!s.a || !s.b || !ex.sig || !sh.red || !sh.h_src || !sh.h_all) {
    std::fprintf(stderr, "stencil: PE %d: shmem_malloc of 2 x %zu bytes failed (raise GSHMEM_SYMMETRIC_SIZE)\n", me,
                 arr * sizeof(double));
    shmem_global_exit(1);
  }
  s.init();
  shmem_barrier_all();  // every PE's signals are zero and arrays initialized before the first put
  const RunResult r = jacobi(p, s, ex, [&](double d2) {
    if (p.mpi) {
      double sum = 0;
      MPI_Allreduce(&d2, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      return sum;
    }
    sh.red[0] = d2;
    shmem_double_sum_reduce(SHMEM_TEAM_WORLD, sh.red + 1, sh.red, 1);
    return sh.red[1];
  });
  for (int lr = 1; lr <= s.nr; ++lr) sh.h_src[lr - 1] = row_hash(s.row(r.final_arr, lr), s.nx);
  shmem_uint64_collect(SHMEM_TEAM_WORLD, sh.h_all, sh.h_src, s.nr);
  double runtime_1pe = 0;
  const bool ok = !(p.check && me == 0) || check_serial(p, r, sh.h_all, &runtime_1pe);
  int rc = report(p, npes, s, ex, r, sh, runtime_1pe);
  if (p.check) {
    sh.red[0] = ok && rc == 0 ? 0.0 : 1.0;
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, sh.red + 1, sh.red, 1);
    rc = sh.red[1] != 0 ? 1 : 0;
    if (me == 0) std::printf("stencil check: %s\n", rc ? "FAILED" : "OK");
  }
  shmem_barrier_all();
  shmem_free(sh.h_all);
  shmem_free(sh.h_src);
  shmem_free(sh.red);
  shmem_free(ex.sig);
  shmem_free(s.b);
  shmem_free(s.a);
  shmem_finalize();
  return rc;
}
