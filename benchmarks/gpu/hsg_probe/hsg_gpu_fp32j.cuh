// hsg_gpu: the lattice arithmetic and kernels of the GPU spin glass (fp32), shared by the device kernels and the
// host reference. Every function marked HSG_HD is compiled for both: the build disables contraction on both sides
// (-fmad=false, -ffp-contract=off) and uses IEEE division and square root, so an over-relaxation step gives the
// same bits on the GPU and the CPU. The heat bath calls logf/expf and sincospif (sinf/cosf on the host), whose last
// bits differ between the CUDA and host math libraries: CPU and GPU heat baths agree to rounding, not bitwise.
//
// Layout (colour-split, structure of arrays): plane lz (0..nz+1, 0 and nz+1 the ghosts) holds colour 0 then
// colour 1; a colour holds the x, y, z components, each H2 = L*L/2 floats (row y, element j = x/2, with
// x = 2j + ((c + y + z) mod 2)). So one colour of one plane is one contiguous block of 3*H2 floats, and a
// component's chunk of sites [i0, i1) is contiguous too. Couplings are fp32 +-1 in the same layout: component d
// of a site is the bond to its forward neighbour along d (+x, +y, +z).
#ifndef GSHMEM_APPS_HSG_GPU_CUH
#define GSHMEM_APPS_HSG_GPU_CUH

#include <cstddef>
#include <cstdint>

#define HSG_HD __host__ __device__

namespace hsg_gpu {

enum Stream : uint64_t { kCoupling = 1, kInit = 2, kHeatBath = 3 };

/** Shape of one slab: L, the sites of one colour of one plane (H2), its planes (nz, without ghosts), its first
 *  global plane z0. */
struct Geo {
  int L = 0, H = 0, nz = 0, z0 = 0;
  size_t H2 = 0;
  HSG_HD size_t off(int lz, int c, int k) const { return ((size_t)(lz * 2 + c) * 3 + k) * H2; }
  HSG_HD size_t colourFloats() const { return 3 * H2; }                  // one colour of one plane
  HSG_HD size_t slabFloats() const { return (size_t)(nz + 2) * 6 * H2; }  // ghosts included
  HSG_HD int gz(int lz) const {  // lz in 0..nz+1, so z0 + lz - 1 lies in [-1, L]
    const int z = z0 + lz - 1;
    return z < 0 ? z + L : (z >= L ? z - L : z);
  }
};

inline Geo makeGeo(int L, int nz, int z0) {
  Geo g;
  g.L = L, g.H = L / 2, g.nz = nz, g.z0 = z0, g.H2 = (size_t)L * L / 2;
  return g;
}

HSG_HD inline uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
/** Counter-based draw: a pure function of (seed, site, sweep, stream), whatever the decomposition. */
HSG_HD inline uint64_t hash64(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  uint64_t h = mix64(a ^ 0x243f6a8885a308d3ULL);
  h = mix64(h ^ b);
  h = mix64(h ^ (c * 0x9e3779b97f4a7c15ULL));
  return mix64(h ^ (d + 0x13198a2e03707344ULL));
}
/** A float in (0, 1] from the top 24 bits of h (never 0, so logf(u) is finite). */
HSG_HD inline float u01f(uint64_t h) { return (float)((h >> 40) + 1) * (1.0f / 16777216.0f); }
/** A second float in (0, 1] from bits 16..39 of h (disjoint from u01f's). */
HSG_HD inline float u01fLow(uint64_t h) { return (float)(((h >> 16) & 0xffffff) + 1) * (1.0f / 16777216.0f); }

HSG_HD inline float coupling(uint64_t seed, uint64_t gsite, int dir) {
  return (hash64(seed, gsite, (uint64_t)dir, kCoupling) & 1) ? 1.0f : -1.0f;
}

/** *sn, *cs = sin, cos of 2 pi u. On the GPU without a range reduction (sincospif); the host's sinf/cosf of the
 *  rounded angle differ from it by rounding only. */
HSG_HD inline void sinCos2Pi(float u, float* sn, float* cs) {
#ifdef __CUDA_ARCH__
  sincospif(2.0f * u, sn, cs);
#else
  const float ph = 6.2831853f * u;
  *sn = sinf(ph), *cs = cosf(ph);
#endif
}

HSG_HD inline void randomUnit(float u1, float u2, float* v) {
  const float c = 2.0f * u1 - 1.0f, sn = sqrtf(fmaxf(0.0f, 1.0f - c * c));
  float sp, cp;
  sinCos2Pi(u2, &sp, &cp);
  v[0] = sn * cp;
  v[1] = sn * sp;
  v[2] = c;
}

/** Heat-bath draw of a spin in the field h at inverse temperature beta (the model's formula, apps/README.md), from draw r: cos theta
 *  from u1, the azimuth from u2, around n = h / |h| in the frame (n, e1, e2). Compute-bound on a GPU: one draw, one
 *  sincos without range reduction, reciprocals instead of divisions. */
HSG_HD inline void heatBath(const float* h, float beta, uint64_t r, float* s) {
  const float u1 = u01f(r), u2 = u01fLow(r);
  const float m = sqrtf(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]), a = beta * m;
  if (!(a > 1e-6f)) {
    randomUnit(u1, u2, s);
    return;
  }
  const float ct = fminf(1.0f, fmaxf(-1.0f, 1.0f + logf(u1 + (1.0f - u1) * expf(-2.0f * a)) / a));
  const float st = sqrtf(fmaxf(0.0f, 1.0f - ct * ct)), im = 1.0f / m;
  const float n[3] = {h[0] * im, h[1] * im, h[2] * im};
  const float a0 = fabsf(n[0]), a1 = fabsf(n[1]), a2 = fabsf(n[2]);
  const int ax = (a0 <= a1 && a0 <= a2) ? 0 : (a1 <= a2 ? 1 : 2);
  // e1 = normalize(n x e_ax), e2 = n x e1
  float e1[3] = {ax == 2 ? n[1] : (ax == 1 ? -n[2] : 0.0f), ax == 0 ? n[2] : (ax == 2 ? -n[0] : 0.0f),
                 ax == 1 ? n[0] : (ax == 0 ? -n[1] : 0.0f)};
  const float ie1 = 1.0f / sqrtf(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
  for (float& v : e1) v *= ie1;
  const float e2[3] = {n[1] * e1[2] - n[2] * e1[1], n[2] * e1[0] - n[0] * e1[2], n[0] * e1[1] - n[1] * e1[0]};
  float sp, cp;
  sinCos2Pi(u2, &sp, &cp);
  cp *= st, sp *= st;
  for (int k = 0; k < 3; ++k) s[k] = ct * n[k] + cp * e1[k] + sp * e2[k];
}

/** Updates site i of colour c in plane lz (global plane zg) of slab s: over-relaxation, or the heat bath when
 *  HB. Reads the other colour of planes lz - 1..lz + 1; the field sums +x, -x, +y, -y, +z, -z in that order. */
template <bool HB>
HSG_HD inline void updateSite(const Geo& g, float* s, const float* J, int lz, int zg, int c, unsigned i, float beta,
                              uint64_t seed, uint64_t sweep) {
  const int H = g.H, L = g.L, oc = 1 - c;
  const size_t H2 = g.H2;
  const int y = (int)(i / (unsigned)H), jj = (int)(i - (unsigned)y * H), px = (c + y + zg) & 1;
  const int jp = jj + px >= H ? jj + px - H : jj + px, jm = jj + px - 1 < 0 ? jj + px - 1 + H : jj + px - 1;
  const size_t ixp = (size_t)y * H + jp, ixm = (size_t)y * H + jm;
  const size_t iyp = (size_t)(y + 1 == L ? 0 : y + 1) * H + jj, iym = (size_t)(y == 0 ? L - 1 : y - 1) * H + jj;
  const float *O = s + g.off(lz, oc, 0), *U = s + g.off(lz + 1, oc, 0), *D = s + g.off(lz - 1, oc, 0);
  const float *Jc = J + g.off(lz, c, 0), *Jo = J + g.off(lz, oc, 0), *Jd = J + g.off(lz - 1, oc, 0);
  const float jxp = Jc[i], jxm = Jo[ixm], jyp = Jc[H2 + i], jym = Jo[H2 + iym], jzp = Jc[2 * H2 + i];
  const float jzm = Jd[2 * H2 + i];
  float h[3];
  for (int k = 0; k < 3; ++k) {
    const float* o = O + k * H2;
    float v = jxp * o[ixp];
    v += jxm * o[ixm];
    v += jyp * o[iyp];
    v += jym * o[iym];
    v += jzp * U[k * H2 + i];
    v += jzm * D[k * H2 + i];
    h[k] = v;
  }
  float* S = s + g.off(lz, c, 0);
  float sv[3] = {S[i], S[H2 + i], S[2 * H2 + i]};
  if (HB) {
    const uint64_t gs = (uint64_t)(2 * jj + px) + (uint64_t)L * ((uint64_t)y + (uint64_t)L * zg);
    heatBath(h, beta, hash64(seed, gs, sweep + 1, kHeatBath), sv);
  } else {
    const float h2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2];
    if (!(h2 > 0.0f)) return;
    const float f = 2.0f * (sv[0] * h[0] + sv[1] * h[1] + sv[2] * h[2]) / h2;
    for (int k = 0; k < 3; ++k) sv[k] = f * h[k] - sv[k];
  }
  S[i] = sv[0];
  S[H2 + i] = sv[1];
  S[2 * H2 + i] = sv[2];
}

/** Couplings and initial spins of site i of colour c in plane lz (ghosts included). */
HSG_HD inline void initSite(const Geo& g, float* s, float* J, uint64_t seed, int lz, int c, size_t i) {
  const int zg = g.gz(lz), y = (int)(i / g.H), jj = (int)(i - (size_t)y * g.H);
  const uint64_t gs = (uint64_t)(2 * jj + ((c + y + zg) & 1)) + (uint64_t)g.L * ((uint64_t)y + (uint64_t)g.L * zg);
  float v[3];
  const uint64_t h = hash64(seed, gs, 0, kInit);
  randomUnit(u01f(h), u01f(mix64(h)), v);
  for (int k = 0; k < 3; ++k) {
    s[g.off(lz, c, k) + i] = v[k];
    J[g.off(lz, c, k) + i] = coupling(seed, gs, k);
  }
}

/** One half-sweep's work, shared by every variant's kernels. Boundary blocks (the first 2 * nch of a fused
 *  launch) update chunk b % nch of plane 1 (b < nch) or plane nz; the other blocks update planes 2..nz-1. */
struct HalfSweep {
  Geo g;
  float* s = nullptr;
  const float* J = nullptr;
  float beta = 0;
  uint64_t seed = 0, sweep = 0, k = 0;  // k: the half-sweep's number (1, 2, ...), the value its signals carry
  int c = 0;
  int nch = 1, chunk = 1;  // chunks per boundary plane and sites per chunk
  // Ghost signals: sig[0..nsig) the lower ghost's chunks, sig[nsig..2 nsig) the upper's (nsig = nch or 1).
  uint64_t* sig = nullptr;
  int nsig = 1;
  bool wait = false;  // wait for the ghosts of half-sweep k - 1 before updating a boundary chunk
  bool put = false;   // put each updated boundary chunk into the neighbour's ghost with a signal (device)
  int lo = 0, up = 0, nz_lo = 0;  // neighbours, and the lower one's planes (its upper ghost is nz_lo + 1)
};

}  // namespace hsg_gpu

#endif  // GSHMEM_APPS_HSG_GPU_CUH
