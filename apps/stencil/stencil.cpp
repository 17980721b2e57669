// stencil: 2D 5-point Jacobi iteration for the Laplace equation on gshmem, row-decomposed.
//
// Problem: N x N grid, Dirichlet boundary (top row 1, the other edges 0), interior starting at 0;
// u'[i][j] = 0.25 * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1]) on interior points.
//
// Decomposition: PE p owns nr(p) consecutive global rows (N split as evenly as possible), stored as rows
// 1..nr of two symmetric arrays A and B with halo rows 0 (copy of global row r0-1) and nr+1 (copy of global
// row r0+nr). Iteration k (1, 2, ...) reads src = (k odd ? A : B) and writes dst = the other:
//   1. update the boundary rows 1 and nr of dst (they read src's halos);
//   2. shmem_putmem_signal_nbi dst row 1 into the upper PE's dst lower halo (signal sig[1] := k) and dst
//      row nr into the lower PE's dst upper halo (signal sig[0] := k); no wrap-around;
//   3. update the bulk rows 2..nr-1 while the rows fly;
//   4. wait for sig[0] >= k (if there is an upper PE) and sig[1] >= k (if a lower PE); shmem_quiet().
// A neighbour's iteration-(k+1) put lands in our src-of-k halo only after it has seen our k signal, i.e.
// after our step 1 of k, and the bulk never reads halos: one halo row per side and array suffices.
//
// Residual: || u_k - u_{k-1} ||_2 over the whole grid via shmem_double_sum_reduce (every --res-every
// iterations and at the end). --check: every PE also runs the serial iteration (the same row kernel on the
// whole grid) and compares its own rows bit for bit; the residuals must agree to 1e-12 relative.
#include <shmem.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../common/app_util.hpp"

namespace {

struct Params {
  int n = 1024;
  int iters = 100;
  int res_every = 0;  // 0: residual only at the end
  bool check = false;
};

/** dst[j] for 1 <= j < n-1 from rows above/mid/below; dst[0], dst[n-1] (Dirichlet) copied from mid. Out of
 *  line so the distributed and the serial runs execute the same code. */
__attribute__((noinline)) void update_row(double *dst, const double *up, const double *mid, const double *down,
                                          int n) {
  dst[0] = mid[0];
  for (int j = 1; j < n - 1; ++j) dst[j] = 0.25 * (up[j] + down[j] + mid[j - 1] + mid[j + 1]);
  dst[n - 1] = mid[n - 1];
}

/** Sum over 1 <= j < n-1 of (a[j]-b[j])^2. */
__attribute__((noinline)) double row_diff2(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int j = 1; j < n - 1; ++j) {
    const double d = a[j] - b[j];
    s += d * d;
  }
  return s;
}

/** Initial value of global row r (boundary conditions included). */
void init_row(double *row, int r, int n) {
  for (int j = 0; j < n; ++j) row[j] = (r == 0) ? 1.0 : 0.0;
}

/** Serial reference: iters Jacobi iterations on the whole grid; returns the final grid and residual. */
std::vector<double> serial_jacobi(const Params &p, double *residual) {
  const int n = p.n;
  std::vector<double> a((size_t)n * n), b((size_t)n * n);
  for (int r = 0; r < n; ++r) {
    init_row(&a[(size_t)r * n], r, n);
    init_row(&b[(size_t)r * n], r, n);
  }
  double *src = a.data(), *dst = b.data();
  for (int k = 1; k <= p.iters; ++k) {
    for (int r = 1; r < n - 1; ++r)
      update_row(dst + (size_t)r * n, src + (size_t)(r - 1) * n, src + (size_t)r * n, src + (size_t)(r + 1) * n, n);
    if (k < p.iters) std::swap(src, dst);
  }
  double s = 0.0;
  for (int r = 1; r < n - 1; ++r) s += row_diff2(dst + (size_t)r * n, src + (size_t)r * n, n);
  *residual = std::sqrt(s);
  return (dst == a.data()) ? a : b;
}

Params parse(int argc, char **argv) {
  Params p;
  apps::ArgParser ap(argc, argv, "[-n size] [-i iterations] [--res-every k] [--check]");
  for (int i = 1; i < argc; ++i) {
    if (ap.is(i, "-n", "--size")) p.n = (int)ap.next_int(i);
    else if (ap.is(i, "-i", "--iters")) p.iters = (int)ap.next_int(i);
    else if (ap.is(i, nullptr, "--res-every")) p.res_every = (int)ap.next_int(i);
    else if (ap.is(i, nullptr, "--check")) p.check = true;
    else ap.fail(argv[i]);
  }
  return p;
}

}  // namespace

int main(int argc, char **argv) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const Params p = parse(argc, argv);
  if (p.n < 3 || p.n < npes || p.iters < 1 || p.res_every < 0) {
    if (me == 0) std::fprintf(stderr, "stencil: need n >= 3, n >= npes (%d), iterations >= 1\n", npes);
    shmem_finalize();
    return 2;
  }
  const int n = p.n;
  std::vector<int> nr_of(npes);
  int r0 = 0;
  for (int q = 0; q < npes; ++q) {
    nr_of[q] = n / npes + (q < n % npes ? 1 : 0);
    if (q < me) r0 += nr_of[q];
  }
  const int nr = nr_of[me], nrmax = nr_of[0];
  const int up = me > 0 ? me - 1 : -1, down = me < npes - 1 ? me + 1 : -1;
  const size_t rowb = (size_t)n * sizeof(double), arr = (size_t)(nrmax + 2) * n;

  double *A = static_cast<double *>(shmem_malloc(arr * sizeof(double)));
  double *B = static_cast<double *>(shmem_malloc(arr * sizeof(double)));
  uint64_t *sig = static_cast<uint64_t *>(shmem_calloc(2, sizeof(uint64_t)));
  double *red = static_cast<double *>(shmem_malloc(8 * sizeof(double)));
  if (!A || !B || !sig || !red) {
    std::fprintf(stderr, "stencil: PE %d: shmem_malloc of 2 x %zu bytes failed (raise GSHMEM_SYMMETRIC_SIZE)\n",
                 me, arr * sizeof(double));
    shmem_global_exit(1);
  }
  // Rows 0..nr+1 of both arrays; halos outside the grid stay unused.
  for (int lr = 0; lr <= nr + 1; ++lr) {
    const int g = r0 + lr - 1;
    if (g < 0 || g >= n) continue;
    init_row(A + (size_t)lr * n, g, n);
    init_row(B + (size_t)lr * n, g, n);
  }
  // Local row lr is updated iff its global row is interior.
  auto interior = [&](int lr) { const int g = r0 + lr - 1; return g > 0 && g < n - 1; };
  auto step_rows = [&](double *dst, const double *src, int lr) {
    if (interior(lr))
      update_row(dst + (size_t)lr * n, src + (size_t)(lr - 1) * n, src + (size_t)lr * n, src + (size_t)(lr + 1) * n, n);
  };
  auto local_diff2 = [&](const double *a, const double *b) {
    double s = 0.0;
    for (int lr = 1; lr <= nr; ++lr)
      if (interior(lr)) s += row_diff2(a + (size_t)lr * n, b + (size_t)lr * n, n);
    return s;
  };
  shmem_barrier_all();  // everyone's signals are zero and arrays initialized before the first put

  double t_wait = 0.0, residual = 0.0;
  uint64_t bytes = 0;
  double *src = A, *dst = B;
  const double t0 = apps::wtime();
  for (int k = 1; k <= p.iters; ++k) {
    step_rows(dst, src, 1);
    if (nr > 1) step_rows(dst, src, nr);
    if (up >= 0) {
      shmem_putmem_signal_nbi(dst + (size_t)(nr_of[up] + 1) * n, dst + n, rowb, &sig[1], (uint64_t)k,
                              SHMEM_SIGNAL_SET, up);
      bytes += rowb;
    }
    if (down >= 0) {
      shmem_putmem_signal_nbi(dst, dst + (size_t)nr * n, rowb, &sig[0], (uint64_t)k, SHMEM_SIGNAL_SET, down);
      bytes += rowb;
    }
    for (int lr = 2; lr < nr; ++lr) step_rows(dst, src, lr);
    const double tw = apps::wtime();
    if (up >= 0) shmem_signal_wait_until(&sig[0], SHMEM_CMP_GE, (uint64_t)k);
    if (down >= 0) shmem_signal_wait_until(&sig[1], SHMEM_CMP_GE, (uint64_t)k);
    shmem_quiet();
    t_wait += apps::wtime() - tw;
    if (k == p.iters || (p.res_every > 0 && k % p.res_every == 0)) {
      red[0] = local_diff2(dst, src);
      shmem_double_sum_reduce(SHMEM_TEAM_WORLD, red + 1, red, 1);
      residual = std::sqrt(red[1]);
      if (me == 0 && k != p.iters) std::printf("stencil: iteration %d residual %.6e\n", k, residual);
    }
    if (k < p.iters) std::swap(src, dst);
  }
  const double t = apps::wtime() - t0;

  red[0] = t;
  red[1] = t_wait;
  shmem_double_max_reduce(SHMEM_TEAM_WORLD, red + 2, red, 2);
  const double tmax = red[2], wmax = red[3];
  red[0] = (double)bytes;
  shmem_double_sum_reduce(SHMEM_TEAM_WORLD, red + 1, red, 1);
  const double bytes_all = red[1];
  if (me == 0) {
    const double lups = (double)(n - 2) * (n - 2) * p.iters;
    std::printf("stencil: n=%d npes=%d rows/PE=%d..%d iterations=%d\n", n, npes, nr_of[npes - 1], nrmax, p.iters);
    std::printf("stencil: final residual %.15e\n", residual);
    std::printf("stencil: time %.4f s  %.1f MLUP/s  halo %.3f GB/s aggregate  max wait %.4f s\n", tmax,
                lups / tmax * 1e-6, bytes_all / tmax * 1e-9, wmax);
  }

  int rc = 0;
  if (p.check) {
    double sres = 0.0;
    const std::vector<double> ref = serial_jacobi(p, &sres);
    double maxdiff = 0.0, mism = 0.0;
    for (int lr = 1; lr <= nr; ++lr) {
      const double *mine = dst + (size_t)lr * n, *want = &ref[(size_t)(r0 + lr - 1) * n];
      if (std::memcmp(mine, want, rowb) != 0)
        for (int j = 0; j < n; ++j)
          if (mine[j] != want[j]) {
            mism += 1;
            maxdiff = std::fmax(maxdiff, std::fabs(mine[j] - want[j]));
          }
    }
    red[0] = maxdiff;
    red[1] = mism;
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, red + 2, red, 2);
    const double rel = std::fabs(residual - sres) / std::fmax(sres, 1e-300);
    if (me == 0) {
      std::printf("stencil check: %.0f of %d x %d values differ from serial (max diff %.3g, worst PE); residual "
                  "serial %.17g distributed %.17g rel %.3g\n", red[3], n, n, red[2], sres, residual, rel);
    }
    const bool ok = red[3] == 0.0 && rel <= 1e-12;
    if (me == 0) std::printf("stencil check: %s\n", ok ? "OK" : "FAILED");
    rc = ok ? 0 : 1;
  }
  shmem_barrier_all();
  shmem_free(red);
  shmem_free(sig);
  shmem_free(B);
  shmem_free(A);
  shmem_finalize();
  return rc;
}
