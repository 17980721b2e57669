// hsg_gpu: the lattice arithmetic and kernels of the GPU spin glass (fp32), shared by the device kernels and the
// host reference. Every function marked HSG_HD is compiled for both: the build disables contraction on both sides
// (-fmad=false, -ffp-contract=off) and uses IEEE division and square root, so an over-relaxation step gives the
// same bits on the GPU and the CPU. The heat bath calls logf/expf (whose last bits differ between the CUDA and host
// math libraries) and, on the GPU only, the hardware's sine, cosine and reciprocal square root: CPU and GPU heat
// baths agree to about 1e-6, not bitwise.
//
// Layout (colour-split, structure of arrays): plane lz (0..nz+1, 0 and nz+1 the ghosts) holds colour 0 then
// colour 1; a colour holds the x, y, z components, each H2 = L*L/2 floats (row y, element j = x/2, with
// x = 2j + ((c + y + z) mod 2)). So one colour of one plane is one contiguous block of 3*H2 floats, and a
// component's chunk of sites [i0, i1) is contiguous too. Bonds: one byte per site in the same layout (bondOff),
// bit d (0..2) set when the bond to the forward neighbour along x, y, z is -1, bit 3 + d when the bond to the
// backward neighbour along d is -1 (the backward bonds repeat the neighbours' forward bits, so an update reads one
// byte). A sweep moves 37 bytes per spin: the spin read and written (24), the other colour's spins read once (12),
// the byte (1).
#ifndef GSHMEM_APPS_HSG_GPU_CUH
#define GSHMEM_APPS_HSG_GPU_CUH

#include <cstddef>
#include <cstdint>

#define HSG_HD __host__ __device__

namespace hsg_gpu {

enum Stream : uint64_t { kCoupling = 1, kInit = 2, kHeatBath = 3 };

/** Bytes a sweep must move per spin in this layout (the memory floor's numerator). */
constexpr int kBytesPerSpin = 37;

/** Shape of one slab: L, the sites of one colour of one plane (H2), its planes (nz, without ghosts), its first
 *  global plane z0. */
struct Geo {
  int L = 0, H = 0, nz = 0, z0 = 0;
  size_t H2 = 0;
  HSG_HD size_t off(int lz, int c, int k) const { return ((size_t)(lz * 2 + c) * 3 + k) * H2; }
  HSG_HD size_t bondOff(int lz, int c) const { return (size_t)(lz * 2 + c) * H2; }
  HSG_HD size_t colourFloats() const { return 3 * H2; }                  // one colour of one plane
  HSG_HD size_t slabFloats() const { return (size_t)(nz + 2) * 6 * H2; }  // ghosts included
  HSG_HD size_t slabBonds() const { return (size_t)(nz + 2) * 2 * H2; }   // bytes, ghosts included
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

/** 1 when the bond from global site gsite to its forward neighbour along dir is -1, else 0 (it is +1). */
HSG_HD inline unsigned negativeBond(uint64_t seed, uint64_t gsite, int dir) {
  return (hash64(seed, gsite, (uint64_t)dir, kCoupling) & 1) ? 0u : 1u;
}
/** v times the bond whose bit is b: exactly v * (+-1), as a sign flip. */
HSG_HD inline float bond(float v, unsigned b) { return b ? -v : v; }

/** The heat bath's key of one sweep; a site's draw is hbDraw(key, global site): two mixing rounds per site, the
 *  rest of the counter (seed, sweep, stream) hashed once per sweep on the host. */
struct HbKey {
  uint64_t a = 0, b = 0;
};
HSG_HD inline HbKey hbKey(uint64_t seed, uint64_t sweep) {
  HbKey k;
  k.a = hash64(seed, sweep + 1, 0, kHeatBath);
  k.b = mix64(k.a ^ 0x452821e638d01377ULL);
  return k;
}
HSG_HD inline uint64_t hbDraw(HbKey k, uint64_t gsite) { return mix64(mix64(gsite ^ k.a) + k.b); }

/** *sn, *cs = sin, cos of 2 pi u for u in (0, 1]. On the GPU the hardware's sine and cosine of an angle in
 *  (-pi, pi] (absolute error about 5e-7); the host's sinf/cosf of the same angle differ from it by that much. */
HSG_HD inline void sinCos2Pi(float u, float* sn, float* cs) {
  const float ph = 6.2831853f * (u - 0.5f);  // sin, cos of ph + pi
#ifdef __CUDA_ARCH__
  __sincosf(ph, sn, cs);
#else
  *sn = sinf(ph), *cs = cosf(ph);
#endif
  *sn = -*sn, *cs = -*cs;
}

/** 1 / sqrt(x): the hardware's reciprocal square root on the GPU (relative error about 2 ulp), IEEE on the host. */
HSG_HD inline float rsqrtApprox(float x) {
#ifdef __CUDA_ARCH__
  return rsqrtf(x);
#else
  return 1.0f / sqrtf(x);
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

/** Heat-bath draw of a spin in the field h at inverse temperature beta (the model's formula, apps/README.md), from
 *  draw r: cos theta from u1, the azimuth from u2, around n = h / |h| in the frame (n, e1, e2). Compute-bound on a
 *  GPU. cos theta is computed with IEEE logf, expf and division (sin theta = sqrt(1 - cos^2) magnifies its errors
 *  near +-1); the frame and the azimuth, whose errors are not magnified, use the hardware's approximations on the
 *  GPU (rsqrtApprox, sinCos2Pi) and fused multiply-adds (fmaf: the same bits on host and GPU). */
HSG_HD inline void heatBath(const float* h, float beta, uint64_t r, float* s) {
  const float u1 = u01f(r), u2 = u01fLow(r);
  const float h2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2];
  const float m = sqrtf(h2), a = beta * m;
  if (!(a > 1e-6f)) {
    randomUnit(u1, u2, s);
    return;
  }
  const float ct = fminf(1.0f, fmaxf(-1.0f, 1.0f + logf(u1 + (1.0f - u1) * expf(-2.0f * a)) / a));
  const float st = sqrtf(fmaxf(0.0f, 1.0f - ct * ct)), im = rsqrtApprox(h2);
  const float n[3] = {h[0] * im, h[1] * im, h[2] * im};
  const float a0 = fabsf(n[0]), a1 = fabsf(n[1]), a2 = fabsf(n[2]);
  const int ax = (a0 <= a1 && a0 <= a2) ? 0 : (a1 <= a2 ? 1 : 2);
  // e1 = normalize(n x e_ax), |n x e_ax|^2 = 1 - n_ax^2 >= 2/3; e2 = n x e1
  const float nax = ax == 0 ? n[0] : (ax == 1 ? n[1] : n[2]), ie1 = rsqrtApprox(fmaf(-nax, nax, 1.0f));
  const float e1[3] = {(ax == 2 ? n[1] : (ax == 1 ? -n[2] : 0.0f)) * ie1,
                       (ax == 0 ? n[2] : (ax == 2 ? -n[0] : 0.0f)) * ie1,
                       (ax == 1 ? n[0] : (ax == 0 ? -n[1] : 0.0f)) * ie1};
  const float e2[3] = {fmaf(n[1], e1[2], -(n[2] * e1[1])), fmaf(n[2], e1[0], -(n[0] * e1[2])),
                       fmaf(n[0], e1[1], -(n[1] * e1[0]))};
  float sp, cp;
  sinCos2Pi(u2, &sp, &cp);
  cp *= st, sp *= st;
  for (int k = 0; k < 3; ++k) s[k] = fmaf(ct, n[k], fmaf(cp, e1[k], sp * e2[k]));
}

/** The new value of spin sv (in place) in the field h: over-relaxation (sv reflected about h), or the heat bath at
 *  inverse temperature beta with draw r when HB. */
template <bool HB>
HSG_HD inline void newSpin(const float* h, float beta, uint64_t r, float* sv) {
  if (HB) {
    heatBath(h, beta, r, sv);
  } else {
    const float h2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2];
    if (!(h2 > 0.0f)) return;
    const float f = 2.0f * (sv[0] * h[0] + sv[1] * h[1] + sv[2] * h[2]) / h2;
    for (int k = 0; k < 3; ++k) sv[k] = f * h[k] - sv[k];
  }
}

/** Global site index of element jj of row y in global plane zg, whose x parity is px. */
HSG_HD inline uint64_t globalSite(int L, int jj, int px, int y, int zg) {
  return (uint64_t)(2 * jj + px) + (uint64_t)L * ((uint64_t)y + (uint64_t)L * zg);
}

/** Updates site i of colour c in plane lz (global plane zg) of slab s (bonds Jb): over-relaxation, or the heat
 *  bath when HB. Reads the other colour of planes lz - 1..lz + 1; the field sums +x, -x, +y, -y, +z, -z in that
 *  order. The reference arithmetic: updateQuad computes the same bits four sites at a time. */
template <bool HB>
HSG_HD inline void updateSite(const Geo& g, float* s, const uint8_t* Jb, int lz, int zg, int c, unsigned i,
                              float beta, HbKey key) {
  const int H = g.H, L = g.L, oc = 1 - c;
  const size_t H2 = g.H2;
  const int y = (int)(i / (unsigned)H), jj = (int)(i - (unsigned)y * H), px = (c + y + zg) & 1;
  const int jp = jj + px >= H ? jj + px - H : jj + px, jm = jj + px - 1 < 0 ? jj + px - 1 + H : jj + px - 1;
  const size_t ixp = (size_t)y * H + jp, ixm = (size_t)y * H + jm;
  const size_t iyp = (size_t)(y + 1 == L ? 0 : y + 1) * H + jj, iym = (size_t)(y == 0 ? L - 1 : y - 1) * H + jj;
  const float *O = s + g.off(lz, oc, 0), *U = s + g.off(lz + 1, oc, 0), *D = s + g.off(lz - 1, oc, 0);
  const unsigned b = Jb[g.bondOff(lz, c) + i];
  float h[3];
  for (int k = 0; k < 3; ++k) {
    const float* o = O + k * H2;
    float v = bond(o[ixp], b & 1);
    v += bond(o[ixm], b >> 3 & 1);
    v += bond(o[iyp], b >> 1 & 1);
    v += bond(o[iym], b >> 4 & 1);
    v += bond(U[k * H2 + i], b >> 2 & 1);
    v += bond(D[k * H2 + i], b >> 5 & 1);
    h[k] = v;
  }
  float* S = s + g.off(lz, c, 0);
  float sv[3] = {S[i], S[H2 + i], S[2 * H2 + i]};
  newSpin<HB>(h, beta, HB ? hbDraw(key, globalSite(L, jj, px, y, zg)) : 0, sv);
  S[i] = sv[0];
  S[H2 + i] = sv[1];
  S[2 * H2 + i] = sv[2];
}

#ifdef __CUDACC__
/** updateSite of the four sites 4q..4q+3 of colour c in plane lz (H a multiple of 4, so they share a row), with
 *  16-byte loads; the x neighbour beyond the quad comes from the adjacent lane (its quad q -+ 1) or, at a row's
 *  end or the warp's edge, from memory. Every lane of the warp must call it (shuffles); a lane whose quad is not to
 *  be updated passes live = false and some valid q (it loads and computes but stores nothing). */
template <bool HB>
__device__ __forceinline__ void updateQuad(const Geo& g, float* s, const uint8_t* Jb, int lz, int zg, int c,
                                           unsigned q, bool live, float beta, HbKey key) {
  const unsigned i0 = 4 * q;
  const int H = g.H, L = g.L, oc = 1 - c;
  const size_t H2 = g.H2;
  const int y = (int)(i0 / (unsigned)H), jj0 = (int)(i0 - (unsigned)y * H), px = (c + y + zg) & 1;
  const size_t row = (size_t)y * H;
  const size_t iyp = (size_t)(y + 1 == L ? 0 : y + 1) * H + jj0, iym = (size_t)(y == 0 ? L - 1 : y - 1) * H + jj0;
  const float *O = s + g.off(lz, oc, 0), *U = s + g.off(lz + 1, oc, 0), *D = s + g.off(lz - 1, oc, 0);
  float* S = s + g.off(lz, c, 0);
  const uchar4 bb = *reinterpret_cast<const uchar4*>(Jb + g.bondOff(lz, c) + i0);
  const unsigned bs[4] = {bb.x, bb.y, bb.z, bb.w};
  const unsigned qprev = __shfl_up_sync(0xffffffffu, q, 1), qnext = __shfl_down_sync(0xffffffffu, q, 1);
  const int lane = threadIdx.x & 31;
  const bool prev_lane = lane > 0 && qprev + 1 == q && jj0 > 0, next_lane = lane < 31 && qnext == q + 1 && jj0 + 4 < H;
  float h[3][4], sv[3][4];
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    const float* o = O + k * H2;
    const float4 m = *reinterpret_cast<const float4*>(o + row + jj0);
    const float4 yp = *reinterpret_cast<const float4*>(o + iyp), ym = *reinterpret_cast<const float4*>(o + iym);
    const float4 u = *reinterpret_cast<const float4*>(U + k * H2 + i0);
    const float4 d = *reinterpret_cast<const float4*>(D + k * H2 + i0);
    const float4 me = *reinterpret_cast<const float4*>(S + k * H2 + i0);
    float prev = __shfl_up_sync(0xffffffffu, m.w, 1), next = __shfl_down_sync(0xffffffffu, m.x, 1);
    if (px == 0 && !prev_lane) prev = o[row + (jj0 == 0 ? H - 1 : jj0 - 1)];
    if (px == 1 && !next_lane) next = o[row + (jj0 + 4 == H ? 0 : jj0 + 4)];
    const float w[6] = {prev, m.x, m.y, m.z, m.w, next};  // elements jj0 - 1 .. jj0 + 4 of the row
    const float ypv[4] = {yp.x, yp.y, yp.z, yp.w}, ymv[4] = {ym.x, ym.y, ym.z, ym.w};
    const float uv[4] = {u.x, u.y, u.z, u.w}, dv[4] = {d.x, d.y, d.z, d.w};
    sv[k][0] = me.x, sv[k][1] = me.y, sv[k][2] = me.z, sv[k][3] = me.w;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const unsigned b = bs[e];
      float v = bond(w[e + 1 + px], b & 1);  // element jj + px
      v += bond(w[e + px], b >> 3 & 1);      // element jj + px - 1
      v += bond(ypv[e], b >> 1 & 1);
      v += bond(ymv[e], b >> 4 & 1);
      v += bond(uv[e], b >> 2 & 1);
      v += bond(dv[e], b >> 5 & 1);
      h[k][e] = v;
    }
  }
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    float v[3] = {sv[0][e], sv[1][e], sv[2][e]};
    const float hh[3] = {h[0][e], h[1][e], h[2][e]};
    newSpin<HB>(hh, beta, HB ? hbDraw(key, globalSite(L, jj0 + e, px, y, zg)) : 0, v);
    sv[0][e] = v[0], sv[1][e] = v[1], sv[2][e] = v[2];
  }
  if (!live) return;
#pragma unroll
  for (int k = 0; k < 3; ++k)
    *reinterpret_cast<float4*>(S + k * H2 + i0) = make_float4(sv[k][0], sv[k][1], sv[k][2], sv[k][3]);
}
#endif

/** Initial spin and bond byte of site i of colour c in plane lz (ghosts included). */
HSG_HD inline void initSite(const Geo& g, float* s, uint8_t* Jb, uint64_t seed, int lz, int c, size_t i) {
  const int L = g.L, zg = g.gz(lz), y = (int)(i / g.H), jj = (int)(i - (size_t)y * g.H);
  const int x = 2 * jj + ((c + y + zg) & 1);
  const uint64_t gs = (uint64_t)x + (uint64_t)L * ((uint64_t)y + (uint64_t)L * zg);
  float v[3];
  const uint64_t h = hash64(seed, gs, 0, kInit);
  randomUnit(u01f(h), u01f(mix64(h)), v);
  for (int k = 0; k < 3; ++k) s[g.off(lz, c, k) + i] = v[k];
  const uint64_t xm = (uint64_t)(x == 0 ? L - 1 : x - 1) + (uint64_t)L * ((uint64_t)y + (uint64_t)L * zg);
  const uint64_t ym = (uint64_t)x + (uint64_t)L * ((uint64_t)(y == 0 ? L - 1 : y - 1) + (uint64_t)L * zg);
  const uint64_t zm = (uint64_t)x + (uint64_t)L * ((uint64_t)y + (uint64_t)L * (zg == 0 ? L - 1 : zg - 1));
  unsigned b = 0;
  for (int d = 0; d < 3; ++d) b |= negativeBond(seed, gs, d) << d;
  b |= negativeBond(seed, xm, 0) << 3 | negativeBond(seed, ym, 1) << 4 | negativeBond(seed, zm, 2) << 5;
  Jb[g.bondOff(lz, c) + i] = (uint8_t)b;
}

/** One half-sweep's work, shared by every variant's kernels. Boundary blocks (the first 2 * nch of a fused
 *  launch) update chunk b % nch of plane 1 (b < nch) or plane nz; the other blocks update planes 2..nz-1. */
struct HalfSweep {
  Geo g;
  float* s = nullptr;
  const uint8_t* Jb = nullptr;
  float beta = 0;
  HbKey key;           // the heat bath's draws of this sweep
  uint64_t k = 0;      // the half-sweep's number (1, 2, ...), the value its signals carry
  bool quad = false;   // four sites per thread (updateQuad): H a multiple of 4
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
