// hsg: 3D Heisenberg spin glass (host version) on gshmem, with boundary-first overlap (DESIGN.md §7).
//
// Model: classical unit 3-vectors s_i on an L x L x L periodic cubic lattice; H = -sum_<ij> J_ij s_i . s_j
// with J_ij = +-1 fixed per bond (drawn from a hash of (seed, site, direction)). A sweep is one heat-bath
// sweep followed by `--or` over-relaxation sweeps; every sweep is two half-sweeps (checkerboard colors by
// the parity of x + y + z in GLOBAL coordinates: same-colored sites never interact, so a half-sweep may
// update its sites in any order).
//
// Decomposition: along z. PE p owns nz(p) consecutive planes (L split as evenly as possible) stored as
// planes 1..nz of a symmetric array with halo planes 0 (copy of global plane z0-1) and nz+1 (copy of
// z0+nz). Per half-sweep with counter k (1, 2, ...):
//   1. update the color's sites in the boundary planes 1 and nz (they read the halos);
//   2. shmem_putmem_signal_nbi plane 1 into the lower neighbour's upper halo (signal sig[1] := k) and
//      plane nz into the upper neighbour's lower halo (signal sig[0] := k);
//   3. update the bulk planes 2..nz-1 while the transfers fly;
//   4. shmem_signal_wait_until(sig[0] >= k) and (sig[1] >= k); shmem_quiet() so that planes 1 and nz
//      (the put sources) may be modified again.
// A neighbour can run at most one half-sweep ahead (it waits for our k before starting k+1), and its k+1
// put only changes halo sites of the color we do not read in our k+1 boundary update, so one halo buffer
// per side suffices.
//
// Determinism: the random numbers of a site update are a pure function of (seed, global site, sweep), and
// the local field is summed in a fixed order, so the final configuration does not depend on the number of
// PEs. --check runs the same simulation serially on PE 0 (the same update code on one slab of L planes
// whose halos are filled by local copies) and compares the energy and a spin checksum bit for bit.
#include <shmem.h>

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../common/app_util.hpp"

namespace {

struct Params {
  int L = 32;
  int sweeps = 10;
  int n_or = 1;        // over-relaxation sweeps per heat-bath sweep
  double T = 0.2;      // temperature (units of |J|)
  uint64_t seed = 1;
  bool check = false;
};

enum Stream : uint64_t { kCoupling = 1, kInit = 2, kHeatBath = 3 };

/** One z-slab of the lattice: planes 0..nz+1 (0 and nz+1 are halos), L*L sites each, 3 doubles a site. */
struct Slab {
  int L = 0, nz = 0, z0 = 0;
  double *s = nullptr;                // (nz+2)*L*L*3 doubles; for the distributed run, symmetric
  std::vector<double> jx, jy, jz;     // forward-bond couplings of planes 0..nz+1, (nz+2)*L*L each
  size_t plane_sites() const { return (size_t)L * L; }
  size_t plane_doubles() const { return plane_sites() * 3; }
  /** Global z of local plane lz (0..nz+1), periodic. */
  int gz(int lz) const { return ((z0 + lz - 1) % L + L) % L; }
  uint64_t gsite(int lz, int y, int x) const { return ((uint64_t)gz(lz) * L + y) * L + x; }
};

double coupling(const Params &p, uint64_t gsite, int dir) {
  return (apps::hash64(p.seed, gsite, (uint64_t)dir, kCoupling) & 1) ? 1.0 : -1.0;
}

/** Uniform random unit vector from two uniforms. */
void random_unit(double u1, double u2, double *v) {
  double c = 2.0 * u1 - 1.0, sn = std::sqrt(std::fmax(0.0, 1.0 - c * c)), ph = 2.0 * M_PI * u2;
  v[0] = sn * std::cos(ph);
  v[1] = sn * std::sin(ph);
  v[2] = c;
}

/** Fills couplings and initial spins of every plane (halos included) from the global hash. */
void init_slab(const Params &p, Slab &sl) {
  const size_t ps = sl.plane_sites(), n = (size_t)(sl.nz + 2) * ps;
  sl.jx.assign(n, 0.0);
  sl.jy.assign(n, 0.0);
  sl.jz.assign(n, 0.0);
  for (int lz = 0; lz <= sl.nz + 1; ++lz)
    for (int y = 0; y < sl.L; ++y)
      for (int x = 0; x < sl.L; ++x) {
        const size_t i = (size_t)lz * ps + (size_t)y * sl.L + x;
        const uint64_t g = sl.gsite(lz, y, x);
        sl.jx[i] = coupling(p, g, 0);
        sl.jy[i] = coupling(p, g, 1);
        sl.jz[i] = coupling(p, g, 2);
        const uint64_t h = apps::hash64(p.seed, g, 0, kInit);
        random_unit(apps::u01(h), apps::u01(apps::mix64(h)), sl.s + 3 * i);
      }
}

/** Updates the sites of `color` in local plane lz (1..nz): heat-bath if hb, else over-relaxation.
 *  Reads planes lz-1..lz+1; writes only sites of `color` in plane lz. Kept out of line so that the
 *  distributed and the serial runs execute the same machine code (bitwise-equal results). */
__attribute__((noinline)) void update_plane(const Params &p, Slab &sl, int lz, int color, bool hb, int sweep,
                                            double beta) {
  const int L = sl.L;
  const size_t ps = sl.plane_sites();
  const int zg = sl.gz(lz);
  double *s = sl.s;
  for (int y = 0; y < L; ++y) {
    const int ym = (y + L - 1) % L, yp = (y + 1) % L;
    for (int x = ((color + y + zg) & 1); x < L; x += 2) {
      const int xm = (x + L - 1) % L, xp = (x + 1) % L;
      const size_t i = (size_t)lz * ps + (size_t)y * L + x;
      const size_t ixp = i - x + xp, ixm = i - x + xm;
      const size_t iyp = (size_t)lz * ps + (size_t)yp * L + x, iym = (size_t)lz * ps + (size_t)ym * L + x;
      const size_t izp = i + ps, izm = i - ps;
      double h[3];
      for (int c = 0; c < 3; ++c) {
        h[c] = sl.jx[i] * s[3 * ixp + c];
        h[c] += sl.jx[ixm] * s[3 * ixm + c];
        h[c] += sl.jy[i] * s[3 * iyp + c];
        h[c] += sl.jy[iym] * s[3 * iym + c];
        h[c] += sl.jz[i] * s[3 * izp + c];
        h[c] += sl.jz[izm] * s[3 * izm + c];
      }
      double *si = s + 3 * i;
      const double h2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2];
      if (!hb) {  // over-relaxation: reflect s about h (energy conserving, no randomness)
        if (h2 > 0.0) {
          const double f = 2.0 * (si[0] * h[0] + si[1] * h[1] + si[2] * h[2]) / h2;
          for (int c = 0; c < 3; ++c) si[c] = f * h[c] - si[c];
        }
        continue;
      }
      const uint64_t r = apps::hash64(p.seed, sl.gsite(lz, y, x), (uint64_t)sweep + 1, kHeatBath);
      const double u1 = apps::u01(r), u2 = apps::u01(apps::mix64(r));
      const double H = std::sqrt(h2);
      if (!(H * beta > 1e-12)) {
        random_unit(u1, u2, si);
        continue;
      }
      // cos(theta) to the field from the density exp(a cos) on [-1, 1], a = beta |h|.
      const double a = beta * H;
      double ct = 1.0 + std::log(u1 + (1.0 - u1) * std::exp(-2.0 * a)) / a;
      ct = std::fmin(1.0, std::fmax(-1.0, ct));
      const double st = std::sqrt(std::fmax(0.0, 1.0 - ct * ct)), ph = 2.0 * M_PI * u2;
      const double n[3] = {h[0] / H, h[1] / H, h[2] / H};
      // e1 perpendicular to n: cross n with the axis where |n| is smallest; e2 = n x e1.
      double ax[3] = {0, 0, 0};
      const double a0 = std::fabs(n[0]), a1 = std::fabs(n[1]), a2 = std::fabs(n[2]);
      ax[(a0 <= a1 && a0 <= a2) ? 0 : (a1 <= a2 ? 1 : 2)] = 1.0;
      double e1[3] = {n[1] * ax[2] - n[2] * ax[1], n[2] * ax[0] - n[0] * ax[2], n[0] * ax[1] - n[1] * ax[0]};
      const double e1n = std::sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
      for (double &v : e1) v /= e1n;
      const double e2[3] = {n[1] * e1[2] - n[2] * e1[1], n[2] * e1[0] - n[0] * e1[2], n[0] * e1[1] - n[1] * e1[0]};
      const double cp = st * std::cos(ph), sp = st * std::sin(ph);
      for (int c = 0; c < 3; ++c) si[c] = ct * n[c] + cp * e1[c] + sp * e2[c];
    }
  }
}

/** Per-plane energy (forward bonds of plane lz, lz in 1..nz) and spin checksum (sum of components). */
__attribute__((noinline)) void plane_observables(const Slab &sl, int lz, double *e, double *m) {
  const int L = sl.L;
  const size_t ps = sl.plane_sites();
  const double *s = sl.s;
  double ee = 0.0, mm = 0.0;
  for (int y = 0; y < L; ++y)
    for (int x = 0; x < L; ++x) {
      const size_t i = (size_t)lz * ps + (size_t)y * L + x;
      const size_t ixp = i - x + (x + 1) % L, iyp = (size_t)lz * ps + (size_t)((y + 1) % L) * L + x, izp = i + ps;
      double dx = 0, dy = 0, dz = 0;
      for (int c = 0; c < 3; ++c) {
        dx += s[3 * i + c] * s[3 * ixp + c];
        dy += s[3 * i + c] * s[3 * iyp + c];
        dz += s[3 * i + c] * s[3 * izp + c];
      }
      ee -= sl.jx[i] * dx + sl.jy[i] * dy + sl.jz[i] * dz;
      mm += s[3 * i] + s[3 * i + 1] + s[3 * i + 2];
    }
  *e = ee;
  *m = mm;
}

/** Halo exchange of one half-sweep: start() after the boundary planes are final, finish() before the
 *  next half-sweep. Distributed: put-with-signal to the z neighbours. Serial: periodic local copies. */
struct Exchanger {
  bool distributed = false;
  int me = 0, npes = 1;
  std::vector<int> nz_of;       // planes owned by each PE
  uint64_t *sig = nullptr;      // symmetric: sig[0] lower-halo version, sig[1] upper-halo version
  double t_wait = 0.0;
  uint64_t bytes = 0;           // bytes this PE put

  void start(Slab &sl, uint64_t k) {
    const size_t pd = sl.plane_doubles(), pb = pd * sizeof(double);
    if (!distributed) {
      std::memcpy(sl.s, sl.s + (size_t)sl.nz * pd, pb);                   // halo 0 <- last plane
      std::memcpy(sl.s + (size_t)(sl.nz + 1) * pd, sl.s + pd, pb);        // halo nz+1 <- first plane
      return;
    }
    const int lo = (me + npes - 1) % npes, up = (me + 1) % npes;
    shmem_putmem_signal_nbi(sl.s + (size_t)(nz_of[lo] + 1) * pd, sl.s + pd, pb, &sig[1], k, SHMEM_SIGNAL_SET, lo);
    shmem_putmem_signal_nbi(sl.s, sl.s + (size_t)sl.nz * pd, pb, &sig[0], k, SHMEM_SIGNAL_SET, up);
    bytes += 2 * pb;
  }
  void finish(uint64_t k) {
    if (!distributed) return;
    const double t0 = apps::wtime();
    shmem_signal_wait_until(&sig[0], SHMEM_CMP_GE, k);
    shmem_signal_wait_until(&sig[1], SHMEM_CMP_GE, k);
    shmem_quiet();
    t_wait += apps::wtime() - t0;
  }
};

struct RunTimes {
  double total = 0, boundary = 0, bulk = 0;
};

/** Runs all sweeps on one slab with boundary-first overlap. */
RunTimes simulate(const Params &p, Slab &sl, Exchanger &ex) {
  RunTimes rt;
  const double beta = 1.0 / p.T;
  uint64_t k = 0;
  const double t0 = apps::wtime();
  for (int sw = 0; sw < p.sweeps; ++sw) {
    for (int pass = 0; pass <= p.n_or; ++pass) {
      const bool hb = pass == 0;
      for (int color = 0; color < 2; ++color) {
        ++k;
        const double tb = apps::wtime();
        update_plane(p, sl, 1, color, hb, sw, beta);
        if (sl.nz > 1) update_plane(p, sl, sl.nz, color, hb, sw, beta);
        const double tm = apps::wtime();
        ex.start(sl, k);
        for (int lz = 2; lz < sl.nz; ++lz) update_plane(p, sl, lz, color, hb, sw, beta);
        const double te = apps::wtime();
        ex.finish(k);
        rt.boundary += tm - tb;
        rt.bulk += te - tm;
      }
    }
  }
  rt.total = apps::wtime() - t0;
  return rt;
}

/** Sums per-plane (energy, checksum) pairs in global z order. */
void sum_planes(const double *em, int L, double *E, double *M) {
  double e = 0, m = 0;
  for (int z = 0; z < L; ++z) {
    e += em[2 * z];
    m += em[2 * z + 1];
  }
  *E = e;
  *M = m;
}

/** The serial reference on the calling PE: one slab of L planes. Returns (E, M) in out[0..1]. */
void serial_reference(const Params &p, double *out) {
  Slab sl;
  sl.L = p.L;
  sl.nz = p.L;
  sl.z0 = 0;
  std::vector<double> buf((size_t)(p.L + 2) * p.L * p.L * 3);
  sl.s = buf.data();
  init_slab(p, sl);
  Exchanger ex;  // local copies
  simulate(p, sl, ex);
  std::vector<double> em(2 * (size_t)p.L);
  for (int lz = 1; lz <= p.L; ++lz) plane_observables(sl, lz, &em[2 * (lz - 1)], &em[2 * (lz - 1) + 1]);
  sum_planes(em.data(), p.L, &out[0], &out[1]);
}

Params parse(int argc, char **argv) {
  Params p;
  apps::ArgParser ap(argc, argv, "[-L size] [-s sweeps] [--or n] [-T temp] [--seed n] [--check]");
  for (int i = 1; i < argc; ++i) {
    if (ap.is(i, "-L", "--size")) p.L = (int)ap.next_int(i);
    else if (ap.is(i, "-s", "--sweeps")) p.sweeps = (int)ap.next_int(i);
    else if (ap.is(i, nullptr, "--or")) p.n_or = (int)ap.next_int(i);
    else if (ap.is(i, "-T", "--temp")) p.T = ap.next_double(i);
    else if (ap.is(i, nullptr, "--seed")) p.seed = (uint64_t)ap.next_int(i);
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
  if (p.L < 2 || p.L % 2 || p.L < npes || p.sweeps < 0 || p.n_or < 0 || !(p.T > 0)) {
    if (me == 0)
      std::fprintf(stderr, "hsg: need an even L >= 2 with L >= npes (%d), sweeps >= 0, --or >= 0, T > 0\n", npes);
    shmem_finalize();
    return 2;
  }

  // Planes per PE: the first L % npes PEs own one extra plane.
  Exchanger ex;
  ex.distributed = true;
  ex.me = me;
  ex.npes = npes;
  ex.nz_of.resize(npes);
  int z0 = 0;
  for (int q = 0; q < npes; ++q) {
    ex.nz_of[q] = p.L / npes + (q < p.L % npes ? 1 : 0);
    if (q < me) z0 += ex.nz_of[q];
  }
  const int nzmax = ex.nz_of[0];

  Slab sl;
  sl.L = p.L;
  sl.nz = ex.nz_of[me];
  sl.z0 = z0;
  const size_t spin_bytes = (size_t)(nzmax + 2) * sl.plane_doubles() * sizeof(double);
  sl.s = static_cast<double *>(shmem_malloc(spin_bytes));
  ex.sig = static_cast<uint64_t *>(shmem_calloc(2, sizeof(uint64_t)));
  double *em_src = static_cast<double *>(shmem_malloc(2 * (size_t)nzmax * sizeof(double)));
  double *em_all = static_cast<double *>(shmem_malloc(2 * (size_t)p.L * sizeof(double)));
  int *flag = static_cast<int *>(shmem_calloc(2, sizeof(int)));
  if (!sl.s || !ex.sig || !em_src || !em_all || !flag) {
    std::fprintf(stderr, "hsg: PE %d: shmem_malloc of %zu bytes failed (raise GSHMEM_SYMMETRIC_SIZE)\n", me,
                 spin_bytes);
    shmem_global_exit(1);
  }
  init_slab(p, sl);
  shmem_barrier_all();  // every PE's sig is zero and its slab initialized before any put

  const RunTimes rt = simulate(p, sl, ex);
  shmem_barrier_all();

  for (int lz = 1; lz <= sl.nz; ++lz) plane_observables(sl, lz, &em_src[2 * (lz - 1)], &em_src[2 * (lz - 1) + 1]);
  shmem_double_collect(SHMEM_TEAM_WORLD, em_all, em_src, 2 * (size_t)sl.nz);
  double E, M;
  sum_planes(em_all, p.L, &E, &M);

  // Timing: slowest PE's wall time; halo bytes of all PEs.
  double *red = static_cast<double *>(shmem_malloc(8 * sizeof(double)));
  red[0] = rt.total;
  red[1] = rt.boundary;
  red[2] = rt.bulk;
  red[3] = ex.t_wait;
  shmem_double_max_reduce(SHMEM_TEAM_WORLD, red + 4, red, 4);
  const double tmax = red[4];
  red[0] = (double)ex.bytes;
  shmem_double_sum_reduce(SHMEM_TEAM_WORLD, red + 1, red, 1);
  const double bytes_all = red[1];

  const double nsites = (double)p.L * p.L * p.L;
  const double flips = nsites * p.sweeps * (1 + p.n_or);
  if (me == 0) {
    std::printf("hsg: L=%d npes=%d planes/PE=%d..%d sweeps=%d (heat-bath + %d over-relaxation) T=%g seed=%" PRIu64
                "\n", p.L, npes, ex.nz_of[npes - 1], nzmax, p.sweeps, p.n_or, p.T, p.seed);
    std::printf("hsg: energy per spin %.15f  spin checksum %.15e\n", E / nsites, M);
    if (flips > 0 && tmax > 0) {
      std::printf("hsg: time %.4f s  %.2f ns/flip (wall / all spin updates)  %.2f ns/flip per PE\n", tmax,
                  tmax * 1e9 / flips, tmax * 1e9 * npes / flips);
      std::printf("hsg: halo %.1f KiB per put, %.3f GB/s aggregate; max over PEs: boundary %.4f s, bulk %.4f s, "
                  "wait %.4f s\n", sl.plane_doubles() * 8.0 / 1024, bytes_all / tmax * 1e-9, red[5], red[6],
                  red[7]);
    }
  }

  int rc = 0;
  if (p.check) {
    flag[1] = 1;
    if (me == 0) {
      double ref[2];
      const double t0 = apps::wtime();
      serial_reference(p, ref);
      const double ts = apps::wtime() - t0;
      const bool bitwise = std::memcmp(&ref[0], &E, sizeof E) == 0 && std::memcmp(&ref[1], &M, sizeof M) == 0;
      const double rel = std::fabs(E - ref[0]) / std::fmax(std::fabs(ref[0]), 1e-300);
      const double relm = std::fabs(M - ref[1]) / std::fmax(std::fabs(ref[1]), 1e-300);
      std::printf("hsg check: serial E %.17g  distributed E %.17g  rel %.3g; checksum rel %.3g; bitwise %s "
                  "(serial %.3f s)\n", ref[0], E, rel, relm, bitwise ? "yes" : "no", ts);
      flag[1] = (rel <= 1e-12 && relm <= 1e-12) ? 1 : 0;
    }
    shmem_int_broadcast(SHMEM_TEAM_WORLD, flag, flag + 1, 1, 0);
    if (me == 0) std::printf("hsg check: %s\n", flag[0] ? "OK" : "FAILED");
    rc = flag[0] ? 0 : 1;
  }
  shmem_barrier_all();
  shmem_free(red);
  shmem_free(flag);
  shmem_free(em_all);
  shmem_free(em_src);
  shmem_free(ex.sig);
  shmem_free(sl.s);
  shmem_finalize();
  return rc;
}
