// Kernel variants of the hsg_gpu sweep on one GPU, bulk planes only (no halos): v0 the fp32-coupling layout
// (hsg_gpu_fp32j.cuh, the layout before the bond bytes), v1/v2/v4 one bond byte per site with 1, 2 or 4 sites per
// thread; HB with the four-round hash, the two-round per-sweep key (cheap) and the hardware frame (fast).
// Build: nvcc -O3 -arch=sm_90 -std=c++17 -fmad=false hsg_probe.cu -o hsg_probe; run: ./hsg_probe L sweeps
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#include "hsg_gpu_fp32j.cuh"
using namespace hsg_gpu;
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

__global__ void initK(Geo g, float* s, float* J, uint8_t* Jb, uint64_t seed) {
  size_t n = (size_t)(g.nz + 2) * 2 * g.H2;
  for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < n; t += (size_t)gridDim.x * blockDim.x) {
    size_t pc = t / g.H2; int lz = pc / 2, c = pc % 2; size_t i = t % g.H2;
    initSite(g, s, J, seed, lz, c, i);
    // packed: bit k set = bond k is -1: 0 x+,1 y+,2 z+,3 x-,4 y-,5 z-
    int zg = g.gz(lz), y = i / g.H, jj = i - (size_t)y * g.H, px = (c + y + zg) & 1, L = g.L;
    int x = 2 * jj + px;
    auto gsOf = [&](int xx, int yy, int zz) { xx = (xx + L) % L; yy = (yy + L) % L; zz = (zz + L) % L;
      return (uint64_t)xx + (uint64_t)L * ((uint64_t)yy + (uint64_t)L * zz); };
    uint8_t b = 0;
    if (coupling(seed, gsOf(x, y, zg), 0) < 0) b |= 1;
    if (coupling(seed, gsOf(x, y, zg), 1) < 0) b |= 2;
    if (coupling(seed, gsOf(x, y, zg), 2) < 0) b |= 4;
    if (coupling(seed, gsOf(x - 1, y, zg), 0) < 0) b |= 8;
    if (coupling(seed, gsOf(x, y - 1, zg), 1) < 0) b |= 16;
    if (coupling(seed, gsOf(x, y, zg - 1), 2) < 0) b |= 32;
    Jb[pc * g.H2 + i] = b;
  }
}

template <bool HB>
__global__ void __launch_bounds__(256) v0(Geo g, float* s, const float* J, int c, float beta, uint64_t seed, uint64_t sweep) {
  unsigned i = blockIdx.x * 256 + threadIdx.x; if (i >= g.H2) return;
  int lz = blockIdx.y + 1;
  updateSite<HB>(g, s, J, lz, g.gz(lz), c, i, beta, seed, sweep);
}

__device__ __forceinline__ float sgn(float v, unsigned b) { return __int_as_float(__float_as_int(v) ^ (b << 31)); }

struct Key { uint64_t a, b; };
__device__ inline void heatBathFast(const float* h, float beta, uint64_t r, float* s) {
  const float u1 = u01f(r), u2 = u01fLow(r);
  const float h2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2];
  const float m = sqrtf(h2), a = beta * m;
  if (!(a > 1e-6f)) { randomUnit(u1, u2, s); return; }
  const float ct = fminf(1.0f, fmaxf(-1.0f, 1.0f + logf(u1 + (1.0f - u1) * expf(-2.0f * a)) / a));
  const float st = sqrtf(fmaxf(0.0f, 1.0f - ct * ct)), im = rsqrtf(h2);
  const float n[3] = {h[0] * im, h[1] * im, h[2] * im};
  const float a0 = fabsf(n[0]), a1 = fabsf(n[1]), a2 = fabsf(n[2]);
  const int ax = (a0 <= a1 && a0 <= a2) ? 0 : (a1 <= a2 ? 1 : 2);
  float e1[3] = {ax == 2 ? n[1] : (ax == 1 ? -n[2] : 0.0f), ax == 0 ? n[2] : (ax == 2 ? -n[0] : 0.0f),
                 ax == 1 ? n[0] : (ax == 0 ? -n[1] : 0.0f)};
  const float ie1 = rsqrtf(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
  for (float& v : e1) v *= ie1;
  const float e2[3] = {n[1] * e1[2] - n[2] * e1[1], n[2] * e1[0] - n[0] * e1[2], n[0] * e1[1] - n[1] * e1[0]};
  float sp, cp;
  sincospif(2.0f * u2, &sp, &cp);
  cp *= st, sp *= st;
  for (int k = 0; k < 3; ++k) s[k] = ct * n[k] + cp * e1[k] + sp * e2[k];
}
__device__ __forceinline__ uint64_t draw2(Key k, uint64_t gs) { return mix64(mix64(gs ^ k.a) + k.b); }

template <bool HB, int CHEAP>
__device__ __forceinline__ void finish(float* sv, const float* h, float beta, uint64_t seed, uint64_t sweep, Key key, uint64_t gs) {
  if (HB) {
    uint64_t r = CHEAP ? draw2(key, gs) : hash64(seed, gs, sweep + 1, kHeatBath);
    if (CHEAP == 2) heatBathFast(h, beta, r, sv); else
    heatBath(h, beta, r, sv);
  } else {
    const float h2 = h[0] * h[0] + h[1] * h[1] + h[2] * h[2];
    if (!(h2 > 0.0f)) return;
    const float f = 2.0f * (sv[0] * h[0] + sv[1] * h[1] + sv[2] * h[2]) / h2;
    for (int k = 0; k < 3; ++k) sv[k] = f * h[k] - sv[k];
  }
}

// packed bonds, one site per thread
template <bool HB, int CHEAP>
__global__ void __launch_bounds__(256) v1(Geo g, float* s, const uint8_t* Jb, int c, float beta, uint64_t seed, uint64_t sweep, Key key) {
  unsigned i = blockIdx.x * 256 + threadIdx.x; if (i >= g.H2) return;
  int lz = blockIdx.y + 1, zg = g.gz(lz);
  const int H = g.H, L = g.L, oc = 1 - c; const size_t H2 = g.H2;
  const int y = (int)(i / (unsigned)H), jj = (int)(i - (unsigned)y * H), px = (c + y + zg) & 1;
  const int jp = jj + px >= H ? jj + px - H : jj + px, jm = jj + px - 1 < 0 ? jj + px - 1 + H : jj + px - 1;
  const size_t ixp = (size_t)y * H + jp, ixm = (size_t)y * H + jm;
  const size_t iyp = (size_t)(y + 1 == L ? 0 : y + 1) * H + jj, iym = (size_t)(y == 0 ? L - 1 : y - 1) * H + jj;
  const float *O = s + g.off(lz, oc, 0), *U = s + g.off(lz + 1, oc, 0), *D = s + g.off(lz - 1, oc, 0);
  const unsigned b = Jb[(size_t)(lz * 2 + c) * H2 + i];
  float h[3];
  for (int k = 0; k < 3; ++k) {
    const float* o = O + k * H2;
    float v = sgn(o[ixp], b & 1);
    v += sgn(o[ixm], (b >> 3) & 1);
    v += sgn(o[iyp], (b >> 1) & 1);
    v += sgn(o[iym], (b >> 4) & 1);
    v += sgn(U[k * H2 + i], (b >> 2) & 1);
    v += sgn(D[k * H2 + i], (b >> 5) & 1);
    h[k] = v;
  }
  float* S = s + g.off(lz, c, 0);
  float sv[3] = {S[i], S[H2 + i], S[2 * H2 + i]};
  const uint64_t gs = (uint64_t)(2 * jj + px) + (uint64_t)L * ((uint64_t)y + (uint64_t)L * zg);
  finish<HB, CHEAP>(sv, h, beta, seed, sweep, key, gs);
  S[i] = sv[0]; S[H2 + i] = sv[1]; S[2 * H2 + i] = sv[2];
}

// packed bonds, 4 sites per thread, float4
template <bool HB, int CHEAP>
__global__ void __launch_bounds__(256) v4(Geo g, float* s, const uint8_t* Jb, int c, float beta, uint64_t seed, uint64_t sweep, Key key) {
  const unsigned q = blockIdx.x * 256 + threadIdx.x, Q = (unsigned)(g.H2 / 4);
  const bool live = q < Q;
  const unsigned i0 = (live ? q : Q - 1) * 4;
  int lz = blockIdx.y + 1, zg = g.gz(lz);
  const int H = g.H, L = g.L, oc = 1 - c; const size_t H2 = g.H2;
  const int y = (int)(i0 / (unsigned)H), jj0 = (int)(i0 - (unsigned)y * H), px = (c + y + zg) & 1;
  const size_t row = (size_t)y * H;
  const size_t iyp = (size_t)(y + 1 == L ? 0 : y + 1) * H + jj0, iym = (size_t)(y == 0 ? L - 1 : y - 1) * H + jj0;
  const float *O = s + g.off(lz, oc, 0), *U = s + g.off(lz + 1, oc, 0), *D = s + g.off(lz - 1, oc, 0);
  const uchar4 bb = *reinterpret_cast<const uchar4*>(Jb + (size_t)(lz * 2 + c) * H2 + i0);
  const unsigned bs[4] = {bb.x, bb.y, bb.z, bb.w};
  const int lane = threadIdx.x & 31;
  float* S = s + g.off(lz, c, 0);
  float4 sv4[3];
  float h[3][4];
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    const float* o = O + k * H2;
    const float4 oc4 = *reinterpret_cast<const float4*>(o + row + jj0);
    const float4 yp = *reinterpret_cast<const float4*>(o + iyp);
    const float4 ym = *reinterpret_cast<const float4*>(o + iym);
    const float4 u = *reinterpret_cast<const float4*>(U + k * H2 + i0);
    const float4 d = *reinterpret_cast<const float4*>(D + k * H2 + i0);
    sv4[k] = *reinterpret_cast<const float4*>(S + k * H2 + i0);
    float prev = __shfl_up_sync(0xffffffffu, oc4.w, 1), next = __shfl_down_sync(0xffffffffu, oc4.x, 1);
    if (px == 0 && (lane == 0 || jj0 == 0)) prev = o[row + (jj0 == 0 ? H - 1 : jj0 - 1)];
    if (px == 1 && (lane == 31 || jj0 + 4 == H)) next = o[row + (jj0 + 4 == H ? 0 : jj0 + 4)];
    const float w[6] = {prev, oc4.x, oc4.y, oc4.z, oc4.w, next};  // elements jj0-1 .. jj0+4
    const float ypv[4] = {yp.x, yp.y, yp.z, yp.w}, ymv[4] = {ym.x, ym.y, ym.z, ym.w};
    const float uv[4] = {u.x, u.y, u.z, u.w}, dv[4] = {d.x, d.y, d.z, d.w};
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const unsigned b = bs[e];
      float v = sgn(w[e + 1 + px], b & 1);      // element jj+px
      v += sgn(w[e + px], (b >> 3) & 1);        // element jj+px-1
      v += sgn(ypv[e], (b >> 1) & 1);
      v += sgn(ymv[e], (b >> 4) & 1);
      v += sgn(uv[e], (b >> 2) & 1);
      v += sgn(dv[e], (b >> 5) & 1);
      h[k][e] = v;
    }
  }
  float out[3][4];
  const float svv[3][4] = {{sv4[0].x, sv4[0].y, sv4[0].z, sv4[0].w}, {sv4[1].x, sv4[1].y, sv4[1].z, sv4[1].w}, {sv4[2].x, sv4[2].y, sv4[2].z, sv4[2].w}};
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    float sv[3] = {svv[0][e], svv[1][e], svv[2][e]};
    const float hh[3] = {h[0][e], h[1][e], h[2][e]};
    const uint64_t gs = (uint64_t)(2 * (jj0 + e) + px) + (uint64_t)L * ((uint64_t)y + (uint64_t)L * zg);
    finish<HB, CHEAP>(sv, hh, beta, seed, sweep, key, gs);
    out[0][e] = sv[0]; out[1][e] = sv[1]; out[2][e] = sv[2];
  }
  if (!live) return;
#pragma unroll
  for (int k = 0; k < 3; ++k) *reinterpret_cast<float4*>(S + k * H2 + i0) = make_float4(out[k][0], out[k][1], out[k][2], out[k][3]);
}

// 2 sites per thread, float2, packed bonds
template <bool HB, int CHEAP>
__global__ void __launch_bounds__(256) v2(Geo g, float* s, const uint8_t* Jb, int c, float beta, uint64_t seed, uint64_t sweep, Key key) {
  const unsigned q = blockIdx.x * 256 + threadIdx.x, Q = (unsigned)(g.H2 / 2);
  const bool live = q < Q;
  const unsigned i0 = (live ? q : Q - 1) * 2;
  int lz = blockIdx.y + 1, zg = g.gz(lz);
  const int H = g.H, L = g.L, oc = 1 - c; const size_t H2 = g.H2;
  const int y = (int)(i0 / (unsigned)H), jj0 = (int)(i0 - (unsigned)y * H), px = (c + y + zg) & 1;
  const size_t row = (size_t)y * H;
  const size_t iyp = (size_t)(y + 1 == L ? 0 : y + 1) * H + jj0, iym = (size_t)(y == 0 ? L - 1 : y - 1) * H + jj0;
  const float *O = s + g.off(lz, oc, 0), *U = s + g.off(lz + 1, oc, 0), *D = s + g.off(lz - 1, oc, 0);
  const uchar2 bb = *reinterpret_cast<const uchar2*>(Jb + (size_t)(lz * 2 + c) * H2 + i0);
  const unsigned bs[2] = {bb.x, bb.y};
  const int lane = threadIdx.x & 31;
  float* S = s + g.off(lz, c, 0);
  float2 sv2[3];
  float h[3][2];
#pragma unroll
  for (int k = 0; k < 3; ++k) {
    const float* o = O + k * H2;
    const float2 oc2 = *reinterpret_cast<const float2*>(o + row + jj0);
    const float2 yp = *reinterpret_cast<const float2*>(o + iyp);
    const float2 ym = *reinterpret_cast<const float2*>(o + iym);
    const float2 u = *reinterpret_cast<const float2*>(U + k * H2 + i0);
    const float2 d = *reinterpret_cast<const float2*>(D + k * H2 + i0);
    sv2[k] = *reinterpret_cast<const float2*>(S + k * H2 + i0);
    float prev = __shfl_up_sync(0xffffffffu, oc2.y, 1), next = __shfl_down_sync(0xffffffffu, oc2.x, 1);
    if (px == 0 && (lane == 0 || jj0 == 0)) prev = o[row + (jj0 == 0 ? H - 1 : jj0 - 1)];
    if (px == 1 && (lane == 31 || jj0 + 2 == H)) next = o[row + (jj0 + 2 == H ? 0 : jj0 + 2)];
    const float w[4] = {prev, oc2.x, oc2.y, next};
    const float ypv[2] = {yp.x, yp.y}, ymv[2] = {ym.x, ym.y}, uv[2] = {u.x, u.y}, dv[2] = {d.x, d.y};
#pragma unroll
    for (int e = 0; e < 2; ++e) {
      const unsigned b = bs[e];
      float v = sgn(w[e + 1 + px], b & 1);
      v += sgn(w[e + px], (b >> 3) & 1);
      v += sgn(ypv[e], (b >> 1) & 1);
      v += sgn(ymv[e], (b >> 4) & 1);
      v += sgn(uv[e], (b >> 2) & 1);
      v += sgn(dv[e], (b >> 5) & 1);
      h[k][e] = v;
    }
  }
  float out[3][2];
#pragma unroll
  for (int e = 0; e < 2; ++e) {
    float sv[3] = {e ? sv2[0].y : sv2[0].x, e ? sv2[1].y : sv2[1].x, e ? sv2[2].y : sv2[2].x};
    const float hh[3] = {h[0][e], h[1][e], h[2][e]};
    const uint64_t gs = (uint64_t)(2 * (jj0 + e) + px) + (uint64_t)L * ((uint64_t)y + (uint64_t)L * zg);
    finish<HB, CHEAP>(sv, hh, beta, seed, sweep, key, gs);
    out[0][e] = sv[0]; out[1][e] = sv[1]; out[2][e] = sv[2];
  }
  if (!live) return;
#pragma unroll
  for (int k = 0; k < 3; ++k) *reinterpret_cast<float2*>(S + k * H2 + i0) = make_float2(out[k][0], out[k][1]);
}

double copyBw() {
  size_t n = 1ull << 30; void *x, *y; CK(cudaMalloc(&x, n)); CK(cudaMalloc(&y, n));
  CK(cudaMemset(x, 1, n)); cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  CK(cudaMemcpy(y, x, n, cudaMemcpyDeviceToDevice)); cudaEventRecord(a);
  for (int i = 0; i < 10; ++i) cudaMemcpyAsync(y, x, n, cudaMemcpyDeviceToDevice);
  cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b);
  cudaFree(x); cudaFree(y); return 2.0 * n * 10 / (ms * 1e-3);
}

int main(int argc, char** argv) {
  const int L = argc > 1 ? atoi(argv[1]) : 256, sweeps = argc > 2 ? atoi(argv[2]) : 10;
  Geo g = makeGeo(L, L, 0);
  size_t n = g.slabFloats();
  float *s, *J, *s0; uint8_t* Jb;
  CK(cudaMalloc(&s, n * 4)); CK(cudaMalloc(&s0, n * 4)); CK(cudaMalloc(&J, n * 4)); CK(cudaMalloc(&Jb, n / 3));
  initK<<<4096, 256>>>(g, s, J, Jb, 1); CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(s0, s, n * 4, cudaMemcpyDeviceToDevice));
  const double B = copyBw();
  const double n3 = (double)L * L * L;
  printf("L=%d copy B %.1f GB/s; floor60 %.2f ps, floor37 %.2f ps\n", L, B / 1e9, 60 / B * 1e12, 37 / B * 1e12);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  const float beta = 5.0f;
  auto run = [&](const char* name, int spt, double fl, auto launch) {
    CK(cudaMemcpy(s, s0, n * 4, cudaMemcpyDeviceToDevice));
    dim3 grid((unsigned)((g.H2 / spt + 255) / 256), g.nz);
    for (int w = 0; w < 2; ++w) for (int c = 0; c < 2; ++c) launch(grid, c, (uint64_t)w);
    cudaEventRecord(e0);
    for (int w = 0; w < sweeps; ++w) for (int c = 0; c < 2; ++c) launch(grid, c, (uint64_t)w + 2);
    cudaEventRecord(e1); CK(cudaEventSynchronize(e1)); float ms; cudaEventElapsedTime(&ms, e0, e1);
    const double ps = ms * 1e-3 / sweeps / n3 * 1e12;
    printf("%-22s %7.2f ps/spin  %.3f x floor60  %.3f x floor37\n", name, ps, ps / (60 / B * 1e12), ps / (fl / B * 1e12));
    CK(cudaGetLastError());
  };
  Key key{0x1234567890abcdefULL, 0xfedcba0987654321ULL};
  run("v0 OR", 1, 60, [&](dim3 gr, int c, uint64_t sw) { v0<false><<<gr, 256>>>(g, s, J, c, 0.f, 1, sw); });
  run("v0 HB", 1, 60, [&](dim3 gr, int c, uint64_t sw) { v0<true><<<gr, 256>>>(g, s, J, c, beta, 1, sw); });
  run("v1 OR packed", 1, 37, [&](dim3 gr, int c, uint64_t sw) { v1<false, 0><<<gr, 256>>>(g, s, Jb, c, 0.f, 1, sw, key); });
  run("v1 HB packed", 1, 37, [&](dim3 gr, int c, uint64_t sw) { v1<true, 0><<<gr, 256>>>(g, s, Jb, c, beta, 1, sw, key); });
  run("v1 HB packed cheap", 1, 37, [&](dim3 gr, int c, uint64_t sw) { v1<true, 1><<<gr, 256>>>(g, s, Jb, c, beta, 1, sw, key); });
  run("v2 OR packed", 2, 37, [&](dim3 gr, int c, uint64_t sw) { v2<false, 0><<<gr, 256>>>(g, s, Jb, c, 0.f, 1, sw, key); });
  run("v2 HB packed", 2, 37, [&](dim3 gr, int c, uint64_t sw) { v2<true, 0><<<gr, 256>>>(g, s, Jb, c, beta, 1, sw, key); });
  run("v2 HB packed cheap", 2, 37, [&](dim3 gr, int c, uint64_t sw) { v2<true, 1><<<gr, 256>>>(g, s, Jb, c, beta, 1, sw, key); });
  run("v4 OR packed", 4, 37, [&](dim3 gr, int c, uint64_t sw) { v4<false, 0><<<gr, 256>>>(g, s, Jb, c, 0.f, 1, sw, key); });
  run("v4 HB packed", 4, 37, [&](dim3 gr, int c, uint64_t sw) { v4<true, 0><<<gr, 256>>>(g, s, Jb, c, beta, 1, sw, key); });
  run("v4 HB packed cheap", 4, 37, [&](dim3 gr, int c, uint64_t sw) { v4<true, 1><<<gr, 256>>>(g, s, Jb, c, beta, 1, sw, key); });
  run("v4 HB cheap+fast", 4, 37, [&](dim3 gr, int c, uint64_t sw) { v4<true, 2><<<gr, 256>>>(g, s, Jb, c, beta, 1, sw, key); });
  return 0;
}
