// hsg: 3D Edwards-Anderson Heisenberg spin glass (host version) on gshmem, the APEnet+ benchmark.
//
// Model and kernels: hsg.hpp (colour-split layout, int8 +-1 couplings), lattice.cpp (updates). Schedule:
// an iteration is one heat-bath sweep and --or over-relaxation sweeps (default 4); --or-only and
// --hb-only run pure sweeps. A sweep updates colour 0, then colour 1. OR and HB sweeps are timed apart;
// ps/spin = the slowest PE's wall time per sweep of that kind / L^3.
//
// Decomposition: z-slabs (the first L % npes PEs own one plane more) with one ghost plane per side. Per
// half-sweep k (1, 2, ...) of colour c:
//   1. update colour c of the boundary planes 1 and nz (they read the ghosts' other colour);
//   2. shmem_putmem_signal_nbi colour c of plane 1 (L^2 / 2 spins, contiguous) into colour c of the lower
//      neighbour's upper ghost (signal sig[1] := k), and plane nz's into the upper neighbour's lower
//      ghost (sig[0] := k); NP = 1 takes the same path to itself;
//   3. update the bulk planes 2..nz-1 while the planes fly;
//   4. wait for sig[0] >= k and sig[1] >= k, then shmem_quiet() (the sources change in half-sweep k+2).
// A neighbour runs at most one half-sweep ahead (it waits for our k before starting k+1) and its k+1 put
// writes only colour 1-c of our ghosts, which our k+1 boundary update does not read: one ghost plane per
// side suffices.
//
// --mpi: the MPI twin in the same binary: identical kernels, decomposition and overlap, but step 2 posts
// MPI_Irecv into both ghosts' colour c and MPI_Isend of the boundary planes' colour c, and step 4 is
// MPI_Waitall (MPI is initialised by gshmem's bootstrap; the program uses MPI_COMM_WORLD).
//
// Checks: --check (all spins bit-identical to a serial run on PE 0, by per-plane hashes, and the energy),
// --check-energy (pure OR conserves E to 1e-5 of max(|E(0)|, N) and |S| to 1e-5), --check-high-t (<E/N> over the
// last 3/4 of pure HB sweeps = -beta within 5%), --corrupt-ghost (debug: --check-energy must fail).
#include <mpi.h>
#include <shmem.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include "../common/app_util.hpp"
#include "hsg.hpp"

namespace hsg {
namespace {

/** Halo exchange of one half-sweep: start() once the boundary planes are final, finish() before the
 *  next half-sweep. Distributed: put-with-signal to the z neighbours. Serial: periodic local copies. */
struct Exchanger {
  bool distributed = false, corrupt = false, mpi = false;
  MPI_Request req[4];
  int me = 0, npes = 1;
  std::vector<int> nz_of;
  uint64_t *sig = nullptr;  // symmetric: [0] lower-ghost version, [1] upper-ghost version
  double t_wait = 0.0;
  uint64_t bytes = 0;

  void start(Slab &sl, uint64_t k, int c) {
    const size_t nb = 3 * sl.half() * sizeof(double);
    if (!distributed) {
      std::memcpy(sl.spins(0, c), sl.spins(sl.nz, c), nb);
      std::memcpy(sl.spins(sl.nz + 1, c), sl.spins(1, c), nb);
      return;
    }
    const int lo = (me + npes - 1) % npes, up = (me + 1) % npes;
    bytes += 2 * nb;
    if (mpi) {  // tag 0: a plane travelling down (into the receiver's upper ghost); tag 1: up
      const int n = (int)(3 * sl.half());
      MPI_Irecv(sl.spins(sl.nz + 1, c), n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Irecv(sl.spins(0, c), n, MPI_DOUBLE, lo, 1, MPI_COMM_WORLD, &req[1]);
      MPI_Isend(sl.spins(1, c), n, MPI_DOUBLE, lo, 0, MPI_COMM_WORLD, &req[2]);
      MPI_Isend(sl.spins(sl.nz, c), n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[3]);
      return;
    }
    shmem_putmem_signal_nbi(sl.spins(nz_of[lo] + 1, c), sl.spins(1, c), nb, &sig[1], k, SHMEM_SIGNAL_SET, lo);
    shmem_putmem_signal_nbi(sl.spins(0, c), sl.spins(sl.nz, c), nb, &sig[0], k, SHMEM_SIGNAL_SET, up);
  }
  void finish(Slab &sl, uint64_t k, int c) {
    if (!distributed) return;
    const double t0 = apps::wtime();
    if (mpi) {
      MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    } else {
      shmem_signal_wait_until(&sig[0], SHMEM_CMP_GE, k);
      shmem_signal_wait_until(&sig[1], SHMEM_CMP_GE, k);
      shmem_quiet();
    }
    t_wait += apps::wtime() - t0;
    if (corrupt && me == 0 && k == 1) {  // flip every received spin of the lower ghost once
      double *g = sl.spins(0, c);
      for (size_t i = 0; i < 3 * sl.half(); ++i) g[i] = -g[i];
    }
  }
};

struct SweepTimes {
  double or_time = 0, hb_time = 0;
  int or_sweeps = 0, hb_sweeps = 0;
};

/** Runs the schedule on one slab; after each iteration calls after_iter(iteration) if set. */
SweepTimes simulate(const Params &p, Slab &sl, Exchanger &ex, const std::function<void(int)> &after_iter) {
  SweepTimes st;
  uint64_t k = 0, sweep = 0;
  const int passes = (p.or_only || p.hb_only) ? 1 : 1 + p.n_or;
  for (int it = 0; it < p.sweeps; ++it) {
    for (int pass = 0; pass < passes; ++pass, ++sweep) {
      const bool hb = p.hb_only || (!p.or_only && pass == 0);
      const double t0 = apps::wtime();
      for (int c = 0; c < 2; ++c) {
        ++k;
        update_plane(p, sl, 1, c, hb, sweep);
        if (sl.nz > 1) update_plane(p, sl, sl.nz, c, hb, sweep);
        ex.start(sl, k, c);
        for (int lz = 2; lz < sl.nz; ++lz) update_plane(p, sl, lz, c, hb, sweep);
        ex.finish(sl, k, c);
      }
      const double t = apps::wtime() - t0;
      (hb ? st.hb_time : st.or_time) += t;
      ++(hb ? st.hb_sweeps : st.or_sweeps);
    }
    if (after_iter) after_iter(it);
  }
  return st;
}

/** Global observables: energy (planes summed in global z order), max | |S| - 1 |, plane hashes. */
struct Observables {
  double energy = 0, norm_dev = 0;
  std::vector<uint64_t> hashes;  // per global plane
};

/** Symmetric scratch of the distributed measurement (sized for the largest slab). */
struct MeasureBuf {
  double *e_src = nullptr, *e_all = nullptr, *red = nullptr;
  uint64_t *h_src = nullptr, *h_all = nullptr;
  bool alloc(int nzmax, int L) {
    e_src = static_cast<double *>(shmem_malloc(nzmax * sizeof(double)));
    e_all = static_cast<double *>(shmem_malloc(L * sizeof(double)));
    red = static_cast<double *>(shmem_malloc(8 * sizeof(double)));
    h_src = static_cast<uint64_t *>(shmem_malloc(nzmax * sizeof(uint64_t)));
    h_all = static_cast<uint64_t *>(shmem_malloc(L * sizeof(uint64_t)));
    return e_src && e_all && red && h_src && h_all;
  }
  void release() {
    shmem_free(h_all);
    shmem_free(h_src);
    shmem_free(red);
    shmem_free(e_all);
    shmem_free(e_src);
  }
};

/** Collective when mb is set (the distributed slabs); local (the serial slab of L planes) otherwise. */
Observables measure(const Slab &sl, MeasureBuf *mb) {
  Observables o;
  std::vector<double> e(sl.L);
  o.hashes.resize(sl.L);
  double dev = 0;
  for (int lz = 1; lz <= sl.nz; ++lz) {
    const PlaneObs po = plane_observables(sl, lz);
    e[lz - 1] = po.energy;
    o.hashes[lz - 1] = po.hash;
    dev = std::fmax(dev, po.norm_dev);
  }
  if (mb) {
    std::memcpy(mb->e_src, e.data(), sl.nz * sizeof(double));
    std::memcpy(mb->h_src, o.hashes.data(), sl.nz * sizeof(uint64_t));
    shmem_double_collect(SHMEM_TEAM_WORLD, mb->e_all, mb->e_src, sl.nz);
    shmem_uint64_collect(SHMEM_TEAM_WORLD, mb->h_all, mb->h_src, sl.nz);
    mb->red[0] = dev;
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, mb->red + 1, mb->red, 1);
    dev = mb->red[1];
    std::memcpy(e.data(), mb->e_all, sl.L * sizeof(double));
    std::memcpy(o.hashes.data(), mb->h_all, sl.L * sizeof(uint64_t));
  }
  for (int z = 0; z < sl.L; ++z) o.energy += e[z];
  o.norm_dev = dev;
  return o;
}

/** The serial reference on the calling PE: one slab of L planes, ghosts by local copies. */
Observables serial_reference(const Params &p) {
  Slab sl;
  sl.L = sl.nz = p.L;
  std::vector<double> buf((size_t)(p.L + 2) * p.L * p.L * 3);
  sl.s = buf.data();
  init_slab(p, sl);
  Exchanger ex;
  simulate(p, sl, ex, nullptr);
  return measure(sl, nullptr);
}

Params parse(int argc, char **argv) {
  Params p;
  apps::ArgParser ap(argc, argv,
                     "[-L size] [-s sweeps] [--or n] [--beta b | -T temp] [--seed n] [--or-only | --hb-only] "
                     "[--check] [--check-energy] [--check-high-t] [--corrupt-ghost] [--mpi]");
  for (int i = 1; i < argc; ++i) {
    if (ap.is(i, "-L", "--size")) p.L = (int)ap.next_int(i);
    else if (ap.is(i, "-s", "--sweeps")) p.sweeps = (int)ap.next_int(i);
    else if (ap.is(i, nullptr, "--or")) p.n_or = (int)ap.next_int(i);
    else if (ap.is(i, "-T", "--temp")) p.beta = 1.0 / ap.next_double(i);
    else if (ap.is(i, nullptr, "--beta")) p.beta = ap.next_double(i);
    else if (ap.is(i, nullptr, "--seed")) p.seed = (uint64_t)ap.next_int(i);
    else if (ap.is(i, nullptr, "--or-only")) p.or_only = true;
    else if (ap.is(i, nullptr, "--hb-only")) p.hb_only = true;
    else if (ap.is(i, nullptr, "--check")) p.check = true;
    else if (ap.is(i, nullptr, "--check-energy")) p.check_energy = p.or_only = true;
    else if (ap.is(i, nullptr, "--check-high-t")) p.check_high_t = p.hb_only = true;
    else if (ap.is(i, nullptr, "--corrupt-ghost")) p.corrupt_ghost = true;
    else if (ap.is(i, nullptr, "--mpi")) p.mpi = true;
    else ap.fail(argv[i]);
  }
  return p;
}

}  // namespace
}  // namespace hsg

namespace {

using namespace hsg;

/** Prints the result line and returns the slowest PE's (OR, HB) seconds per sweep. */
void report(const Params &p, int npes, const Exchanger &ex, const SweepTimes &st, const Observables &o,
            double *red) {
  red[0] = st.or_time;
  red[1] = st.hb_time;
  red[2] = ex.t_wait;
  shmem_double_max_reduce(SHMEM_TEAM_WORLD, red + 3, red, 3);
  if (shmem_my_pe() != 0) return;
  const double n3 = (double)p.L * p.L * p.L;
  const double ps_or = st.or_sweeps ? red[3] / st.or_sweeps / n3 * 1e12 : 0.0;
  const double ps_hb = st.hb_sweeps ? red[4] / st.hb_sweeps / n3 * 1e12 : 0.0;
  std::printf("hsg: halo %.1f KiB per put (one colour of one plane), %" PRIu64 " bytes put by PE 0; max wait "
              "%.4f s\n", 3.0 * p.L * p.L / 2 * 8 / 1024, ex.bytes, red[5]);
  std::printf("# L, NP, variant, sweeps, ps_per_spin_OR, ps_per_spin_HB, E/N, max||S|-1|\n");
  std::printf("%d, %d, %s, %d, %.1f, %.1f, %.15f, %.3g\n", p.L, npes, p.mpi ? "mpi" : "host",
              st.or_sweeps + st.hb_sweeps, ps_or, ps_hb,
              o.energy / n3, o.norm_dev);
}

/** Agrees on PE 0's verdict, prints "check: OK|FAILED" and returns the exit status. */
int verdict(bool ok_on_pe0, int *flag) {
  flag[1] = ok_on_pe0 ? 1 : 0;
  shmem_int_broadcast(SHMEM_TEAM_WORLD, flag, flag + 1, 1, 0);
  if (shmem_my_pe() == 0) std::printf("hsg check: %s\n", flag[0] ? "OK" : "FAILED");
  return flag[0] ? 0 : 1;
}

bool check_serial(const Params &p, const Observables &o) {
  const double t0 = apps::wtime();
  const Observables ref = serial_reference(p);
  int planes = 0;
  for (int z = 0; z < p.L; ++z) planes += ref.hashes[z] != o.hashes[z];
  const bool ebits = std::memcmp(&ref.energy, &o.energy, sizeof(double)) == 0;
  std::printf("hsg check: serial E %.17g distributed E %.17g (bitwise %s); %d of %d planes differ in some bit "
              "(serial %.3f s)\n", ref.energy, o.energy, ebits ? "yes" : "no", planes, p.L, apps::wtime() - t0);
  return ebits && planes == 0;
}

}  // namespace

int main(int argc, char **argv) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const Params p = parse(argc, argv);
  if (p.L < 2 || p.L % 2 || p.L < npes || p.sweeps < 0 || p.n_or < 0 || !(p.beta > 0) || (p.or_only && p.hb_only)) {
    if (me == 0)
      std::fprintf(stderr, "hsg: need an even L >= npes (%d), sweeps >= 0, --or >= 0, beta > 0, and not both "
                           "--or-only and --hb-only\n", npes);
    shmem_finalize();
    return 2;
  }
  Exchanger ex;
  ex.distributed = true;
  ex.corrupt = p.corrupt_ghost;
  ex.mpi = p.mpi;
  ex.me = me;
  ex.npes = npes;
  ex.nz_of.resize(npes);
  Slab sl;
  sl.L = p.L;
  for (int q = 0; q < npes; ++q) {
    ex.nz_of[q] = p.L / npes + (q < p.L % npes ? 1 : 0);
    if (q < me) sl.z0 += ex.nz_of[q];
  }
  sl.nz = ex.nz_of[me];
  const size_t spin_bytes = (size_t)(ex.nz_of[0] + 2) * p.L * p.L * 3 * sizeof(double);
  sl.s = static_cast<double *>(shmem_malloc(spin_bytes));
  ex.sig = static_cast<uint64_t *>(shmem_calloc(2, sizeof(uint64_t)));
  int *flag = static_cast<int *>(shmem_calloc(2, sizeof(int)));
  MeasureBuf mb;
  if (!sl.s || !ex.sig || !flag || !mb.alloc(ex.nz_of[0], p.L)) {
    std::fprintf(stderr, "hsg: PE %d: shmem_malloc of %zu bytes failed (raise GSHMEM_SYMMETRIC_SIZE)\n", me,
                 spin_bytes);
    shmem_global_exit(1);
  }
  init_slab(p, sl);
  const Observables o0 = measure(sl, &mb);  // also: every PE's sig is zero before any put
  if (me == 0)
    std::printf("hsg: L=%d npes=%d planes/PE=%d..%d %s x %d, beta %g, seed %" PRIu64 "\n", p.L, npes,
                ex.nz_of[npes - 1], ex.nz_of[0], p.or_only ? "over-relaxation sweep" : p.hb_only ? "heat-bath sweep"
                : "(1 heat-bath + over-relaxation sweeps)", p.sweeps, p.beta, p.seed);
  double e_sum = 0;
  int e_n = 0;
  std::function<void(int)> after;
  if (p.check_high_t)
    after = [&](int it) {
      const Observables o = measure(sl, &mb);
      if (it >= p.sweeps / 4) e_sum += o.energy, ++e_n;
    };
  const SweepTimes st = simulate(p, sl, ex, after);
  const Observables o = measure(sl, &mb);
  report(p, npes, ex, st, o, mb.red);
  int rc = 0;
  const double n3 = (double)p.L * p.L * p.L;
  if (p.check) rc |= verdict(me == 0 && check_serial(p, o), flag);
  if (p.check_energy) {
    const double rel = apps::energyDrift(o0.energy, o.energy, n3);
    if (me == 0)
      std::printf("hsg check-energy: E(0) %.17g E(%d) %.17g |dE|/max(|E(0)|, N) %.3g max||S|-1| %.3g\n", o0.energy,
                  st.or_sweeps, o.energy, rel, o.norm_dev);
    rc |= verdict(rel <= 1e-5 && o.norm_dev <= 1e-5, flag);
  }
  if (p.check_high_t) {
    const double en = e_n ? e_sum / e_n / n3 : 0.0, dev = std::fabs(en + p.beta) / p.beta;
    if (me == 0) std::printf("hsg check-high-t: <E/N> over %d sweeps %.6f, -beta %.6f, deviation %.2f%%\n", e_n, en,
                             -p.beta, 100 * dev);
    rc |= verdict(e_n > 0 && dev <= 0.05, flag);
  }
  shmem_barrier_all();
  mb.release();
  shmem_free(flag);
  shmem_free(ex.sig);
  shmem_free(sl.s);
  shmem_finalize();
  return rc;
}
