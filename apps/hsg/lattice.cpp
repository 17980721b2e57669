// hsg lattice kernels: initialisation, the heat-bath / over-relaxation update of one colour of one
// plane, and per-plane observables. Out of line and shared by the distributed and the serial run, so both
// execute the same machine code (bitwise-equal results; the build uses -ffp-contract=off).
//
// Local field h = sum over the six neighbours, in the fixed order +x, -x, +y, -y, +z, -z, of J * S.
// Over-relaxation: S <- 2 (S.h) / (h.h) h - S (unchanged when h.h = 0). Heat bath at beta with m = |h|,
// n = h / m, u, v uniform in (0, 1]: cos t = 1 + ln(u + (1 - u) e^(-2 beta m)) / (beta m) clamped to
// [-1, 1], phi = 2 pi v, S = cos t n + sin t (cos phi e1 + sin phi e2) with e1 = normalize(n x a), a the
// axis of the smallest |n| component, e2 = n x e1; a uniform unit vector when beta m is ~0.
#include <cmath>
#include <cstring>

#include "../common/app_util.hpp"
#include "hsg.hpp"

namespace hsg {
namespace {

int8_t coupling(const Params &p, uint64_t gsite, int dir) {
  return (apps::hash64(p.seed, gsite, (uint64_t)dir, kCoupling) & 1) ? 1 : -1;
}

/** Uniform random unit vector from two uniforms. */
void random_unit(double u1, double u2, double *v) {
  const double c = 2.0 * u1 - 1.0, sn = std::sqrt(std::fmax(0.0, 1.0 - c * c)), ph = 2.0 * M_PI * u2;
  v[0] = sn * std::cos(ph);
  v[1] = sn * std::sin(ph);
  v[2] = c;
}

void heat_bath(const double *h, double beta, uint64_t r, double *si) {
  const double u1 = apps::u01(r), u2 = apps::u01(apps::mix64(r));
  const double H = std::sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
  if (!(H * beta > 1e-12)) {
    random_unit(u1, u2, si);
    return;
  }
  const double a = beta * H;
  double ct = 1.0 + std::log(u1 + (1.0 - u1) * std::exp(-2.0 * a)) / a;
  ct = std::fmin(1.0, std::fmax(-1.0, ct));
  const double st = std::sqrt(std::fmax(0.0, 1.0 - ct * ct)), ph = 2.0 * M_PI * u2;
  const double n[3] = {h[0] / H, h[1] / H, h[2] / H};
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

}  // namespace

void init_slab(const Params &p, Slab &sl) {
  const int L = sl.L, H = L / 2;
  sl.j.assign((size_t)(sl.nz + 2) * L * L * 3, 0);
  for (int lz = 0; lz <= sl.nz + 1; ++lz)
    for (int c = 0; c < 2; ++c)
      for (int y = 0; y < L; ++y)
        for (int jj = 0; jj < H; ++jj) {
          const int x = 2 * jj + ((c + y + sl.gz(lz)) & 1);
          const uint64_t g = (uint64_t)x + (uint64_t)L * ((uint64_t)y + (uint64_t)L * sl.gz(lz));
          const size_t i = sl.half_index(lz, c) + (size_t)y * H + jj;
          for (int d = 0; d < 3; ++d) sl.j[3 * i + d] = coupling(p, g, d);
          const uint64_t h = apps::hash64(p.seed, g, 0, kInit);
          random_unit(apps::u01(h), apps::u01(apps::mix64(h)), sl.s + 3 * i);
        }
}

__attribute__((noinline)) void update_plane(const Params &p, Slab &sl, int lz, int c, bool hb, uint64_t sweep) {
  const int L = sl.L, H = L / 2, oc = 1 - c, zg = sl.gz(lz);
  const double *om = sl.spins(lz, oc), *ou = sl.spins(lz + 1, oc), *od = sl.spins(lz - 1, oc);
  double *sc = sl.spins(lz, c);
  const int8_t *jc = &sl.j[3 * sl.half_index(lz, c)], *jo = &sl.j[3 * sl.half_index(lz, oc)];
  const int8_t *jd = &sl.j[3 * sl.half_index(lz - 1, oc)];
  // One site: i its index in the half, ixp / ixm the other colour's sites at x + 1 / x - 1, rowm / rowp
  // the rows y - 1 / y + 1; x = 2 jj + p_x.
  auto site = [&](size_t i, size_t ixp, size_t ixm, size_t iym, size_t iyp, int y, int jj, int p_x) {
    const double Jxp = jc[3 * i], Jxm = jo[3 * ixm], Jyp = jc[3 * i + 1], Jym = jo[3 * iym + 1];
    const double Jzp = jc[3 * i + 2], Jzm = jd[3 * i + 2];
    double h[3];
    for (int k = 0; k < 3; ++k) {
      h[k] = Jxp * om[3 * ixp + k];
      h[k] += Jxm * om[3 * ixm + k];
      h[k] += Jyp * om[3 * iyp + k];
      h[k] += Jym * om[3 * iym + k];
      h[k] += Jzp * ou[3 * i + k];
      h[k] += Jzm * od[3 * i + k];
    }
    double *si = sc + 3 * i;
    if (!hb) {
      const double h2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2];
      if (h2 > 0.0) {
        const double f = 2.0 * (si[0] * h[0] + si[1] * h[1] + si[2] * h[2]) / h2;
        for (int k = 0; k < 3; ++k) si[k] = f * h[k] - si[k];
      }
      return;
    }
    const uint64_t g = (uint64_t)(2 * jj + p_x) + (uint64_t)L * ((uint64_t)y + (uint64_t)L * zg);
    heat_bath(h, p.beta, apps::hash64(p.seed, g, sweep + 1, kHeatBath), si);
  };
  for (int y = 0; y < L; ++y) {
    const int p_x = (c + y + zg) & 1;  // x + 1 is element jj + p_x of the other colour, x - 1 is jj + p_x - 1
    const size_t row = (size_t)y * H, rowm = (size_t)((y + L - 1) % L) * H, rowp = (size_t)((y + 1) % L) * H;
    auto wrap = [H](int j) { return (size_t)(j < 0 ? j + H : (j >= H ? j - H : j)); };
    site(row, row + wrap(p_x), row + wrap(p_x - 1), rowm, rowp, y, 0, p_x);
    for (int jj = 1; jj < H - 1; ++jj)
      site(row + jj, row + jj + p_x, row + jj + p_x - 1, rowm + jj, rowp + jj, y, jj, p_x);
    if (H > 1) site(row + H - 1, row + wrap(H - 1 + p_x), row + H - 2 + p_x, rowm + H - 1, rowp + H - 1, y, H - 1, p_x);
  }
}

__attribute__((noinline)) PlaneObs plane_observables(const Slab &sl, int lz) {
  const int L = sl.L, H = L / 2, zg = sl.gz(lz);
  PlaneObs o;
  uint64_t hash = 0x6a09e667f3bcc908ULL;
  double e = 0.0, dev = 0.0;
  for (int y = 0; y < L; ++y)
    for (int x = 0; x < L; ++x) {
      const int c = (x + y + zg) & 1, oc = 1 - c;
      const size_t i = sl.half_index(lz, c) + (size_t)y * H + x / 2;
      const double *s = sl.s + 3 * i;
      const double *sx = sl.s + 3 * (sl.half_index(lz, oc) + (size_t)y * H + ((x + 1) % L) / 2);
      const double *sy = sl.s + 3 * (sl.half_index(lz, oc) + (size_t)((y + 1) % L) * H + x / 2);
      const double *sz = sl.s + 3 * (sl.half_index(lz + 1, oc) + (size_t)y * H + x / 2);
      double dx = 0, dy = 0, dz = 0, n2 = 0;
      for (int k = 0; k < 3; ++k) {
        dx += s[k] * sx[k];
        dy += s[k] * sy[k];
        dz += s[k] * sz[k];
        n2 += s[k] * s[k];
        uint64_t bits;
        std::memcpy(&bits, &s[k], sizeof bits);
        hash = apps::mix64(hash ^ bits);
      }
      e -= sl.j[3 * i] * dx + sl.j[3 * i + 1] * dy + sl.j[3 * i + 2] * dz;
      dev = std::fmax(dev, std::fabs(std::sqrt(n2) - 1.0));
    }
  o.energy = e;
  o.norm_dev = dev;
  o.hash = hash;
  return o;
}

}  // namespace hsg
