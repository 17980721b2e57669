// Kernels of stencil_gpu (the 2D Jacobi of apps/README.md on the GPU). Every variant and the one-PE reference
// launch these same kernels, so a result does not depend on the PE count or the variant (the build has no FMA
// contraction: -fmad=false).
//
// Slab layout: rows 0..nr+1 of `pitch` elements (pitch = nx rounded up to 32, so every row and every segment
// starts 128-byte aligned); rows 0 and nr+1 are the ghost rows, 1..nr the PE's interior rows. Columns 0 and nx-1
// hold the Dirichlet values and are never written after initialization.
//
// Work decomposition of jacobiStep: block (bx, by) owns columns [bx*kTX, bx*kTX + kTX) (segment bx) of the rows
// [1 + by*kRY, 1 + (by+1)*kRY) (strip by); each thread walks down one column keeping up/mid/down in registers and
// takes its left/right neighbours from the adjacent lanes (warp shuffles). Only the first strip reads ghost row 0
// and only the last reads ghost row nr+1, each in its own segment's columns alone: that is what lets a ghost row be
// filled and signalled per segment.
#pragma once
#include <cstdint>
#include <gshmem/device.cuh>

namespace stencil {

constexpr int kTX = 256;    // threads per block = columns per segment
constexpr int kRY = 64;     // rows per strip
constexpr int kUnroll = 8;  // rows whose loads a thread issues together

/** Arguments of one Jacobi iteration: read src, write dst (both slabs with ghost rows). */
template <class T>
struct StepArgs {
  const T *src = nullptr;
  T *dst = nullptr;
  int nx = 0, nr = 0;
  size_t pitch = 0;
  double *partial = nullptr;  // one sum of squared changes per block (written by jacobiStep<T, true>)
  // Device-initiated exchange (variant device); sig_top == nullptr: none. Our ghost row 0 (written by the upper
  // PE's last row) is signalled on sig_top[segment], ghost row nr+1 (the lower PE's first row) on sig_bot[segment];
  // both are symmetric, so the same addresses name the neighbours' signals.
  uint64_t *sig_top = nullptr, *sig_bot = nullptr;
  T *put_up = nullptr;    // symmetric address of the upper PE's ghost row nr_up+1 (receives our row 1)
  T *put_down = nullptr;  // symmetric address of the lower PE's ghost row 0 (receives our row nr)
  int pe_up = 0, pe_down = 0;
  uint64_t iter = 0;  // global iteration number: puts signal SET iter, the ghost rows read need iter-1
};

__device__ inline uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

__device__ inline uint64_t bitsOf(float v) { return __float_as_uint(v); }
__device__ inline uint64_t bitsOf(double v) { return static_cast<uint64_t>(__double_as_longlong(v)); }

/** Block-wide sum of one double per thread, combined in a fixed order (the result is deterministic for a given
 *  block size); valid in thread 0. Every thread of the block must call it. */
__device__ inline double blockSum(double v) {
  __shared__ double warp_sums[kTX / 32];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = v;
  __syncthreads();
  double s = 0;
  if (threadIdx.x == 0)
    for (int w = 0; w < (int)(blockDim.x >> 5); ++w) s += warp_sums[w];
  __syncthreads();  // warp_sums may be reused by a later call
  return s;
}

/** Rows 0..nr+1 of both slabs: zeros, and the Dirichlet columns sin(2 pi y / (ny-1)) of the row's global index
 *  y = y0 + lr - 1 (y0: global index of interior row 1). Grid: (ceil(pitch / kTX), any number of rows). */
template <class T>
__global__ void initSlab(T *a, T *b, int nx, int nr, size_t pitch, int y0, int ny) {
  const size_t x = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= pitch) return;
  for (int lr = blockIdx.y; lr <= nr + 1; lr += gridDim.y) {
    T v = T(0);
    if (x == 0 || x == (size_t)nx - 1)
      v = (T)sin(2.0 * 3.14159265358979323846 * (double)(y0 + lr - 1) / (double)(ny - 1));
    a[(size_t)lr * pitch + x] = v;
    b[(size_t)lr * pitch + x] = v;
  }
}

/** First thread waits for the ghost rows this block reads (iteration iter-1's puts), then the block proceeds. */
template <class T>
__device__ inline void waitGhosts(const StepArgs<T> &a, bool top, bool bottom) {
  if (a.sig_top == nullptr || !(top || bottom)) return;
  if (threadIdx.x == 0) {
    if (top) gshmem_signal_wait_until(&a.sig_top[blockIdx.x], GSHMEM_CMP_GE, a.iter - 1);
    if (bottom) gshmem_signal_wait_until(&a.sig_bot[blockIdx.x], GSHMEM_CMP_GE, a.iter - 1);
  }
  __syncthreads();  // the acquire of thread 0 orders the block's ghost-row loads after the neighbours' stores
}

/** The block's segment of row 1 into the upper PE's bottom ghost row, of row nr into the lower PE's top ghost row,
 *  each with its segment's signal set to iter (block scope: every thread calls with the same arguments). */
template <class T>
__device__ inline void putBoundaries(const StepArgs<T> &a, bool top, bool bottom) {
  if (a.put_up == nullptr || !(top || bottom)) return;
  __syncthreads();  // every thread's stores of rows 1 / nr precede the block's put of them
  const int c0 = blockIdx.x * kTX;
  const size_t bytes = (size_t)min(kTX, a.nx - c0) * sizeof(T);
  if (top)
    gshmemx_putmem_signal_nbi_block(a.put_up + c0, a.dst + a.pitch + c0, bytes, &a.sig_bot[blockIdx.x], a.iter,
                                    GSHMEM_SIGNAL_SET, a.pe_up);
  if (bottom)
    gshmemx_putmem_signal_nbi_block(a.put_down + c0, a.dst + (size_t)a.nr * a.pitch + c0, bytes, &a.sig_top[blockIdx.x],
                                    a.iter, GSHMEM_SIGNAL_SET, a.pe_down);
}

/** Rows [r, r+N) of one column (the thread's): every value the N rows need (the N rows below, and for lanes 0 and 31
 *  the N values beside the warp, at offset eoff = -1 / +1) is loaded before the first store, so N loads per thread
 *  are in flight (the compiler must assume that src and dst alias, so it would not hoist them itself). The left and
 *  right neighbours of the other lanes come from the adjacent lanes. up/mid: rows r-1 and r on entry, r+N-1 and r+N
 *  on return. Every lane of the warp must call it. */
template <class T, bool kNorm, int N>
__device__ inline void columnRows(const T *s, T *d, size_t W, int r, int eoff, bool store, T &up, T &mid, double &acc) {
  T dn[N], ed[N];
#pragma unroll
  for (int u = 0; u < N; ++u) {
    dn[u] = __ldcg(s + (size_t)(r + u + 1) * W);
    ed[u] = eoff != 0 ? __ldcg(s + (size_t)(r + u) * W + eoff) : T(0);
  }
#pragma unroll
  for (int u = 0; u < N; ++u) {
    T left = __shfl_up_sync(0xffffffffu, mid, 1), right = __shfl_down_sync(0xffffffffu, mid, 1);
    if (eoff < 0) left = ed[u];
    if (eoff > 0) right = ed[u];
    const T v = T(0.25) * (((left + right) + up) + dn[u]);
    if (store) {
      d[(size_t)(r + u) * W] = v;
      if (kNorm) {
        const double dv = (double)(v - mid);
        acc += dv * dv;
      }
    }
    up = mid;
    mid = dn[u];
  }
}

/** One Jacobi iteration: dst[r][x] = 0.25 * (((src[r][x-1] + src[r][x+1]) + src[r-1][x]) + src[r+1][x]) for
 *  x in 1..nx-2, r in 1..nr; with kNorm, also the block's sum of (dst - src)^2 in double into a.partial. Grid:
 *  (ceil(nx / kTX), ceil(nr / kRY)), kTX threads. Rows are read with ld.global.cg (L2, not L1), so a ghost row
 *  written by a peer after this SM cached it could not be read stale. */
template <class T, bool kNorm>
__global__ void __launch_bounds__(kTX) jacobiStep(const StepArgs<T> a) {
  const int x = blockIdx.x * kTX + threadIdx.x;
  const int xc = min(x, a.nx - 1);  // lanes past the edge load a valid element and join the shuffles
  const int lane = threadIdx.x & 31;
  const int eoff = lane == 0 && xc > 0 ? -1 : lane == 31 && xc < a.nx - 1 ? 1 : 0;
  const int r0 = 1 + blockIdx.y * kRY, r1 = min(r0 + kRY, a.nr + 1);
  const bool top = r0 == 1, bottom = r1 == a.nr + 1, store = x >= 1 && x <= a.nx - 2;
  waitGhosts(a, top, bottom);
  const size_t W = a.pitch;
  const T *s = a.src + xc;
  T *d = a.dst + xc;
  T up = __ldcg(s + (size_t)(r0 - 1) * W), mid = __ldcg(s + (size_t)r0 * W);
  double acc = 0;
  int r = r0;
  for (; r + kUnroll <= r1; r += kUnroll) columnRows<T, kNorm, kUnroll>(s, d, W, r, eoff, store, up, mid, acc);
  for (; r < r1; ++r) columnRows<T, kNorm, 1>(s, d, W, r, eoff, store, up, mid, acc);
  if (kNorm) {
    const double s2 = blockSum(acc);
    if (threadIdx.x == 0) a.partial[(size_t)blockIdx.y * gridDim.x + blockIdx.x] = s2;
  }
  putBoundaries(a, top, bottom);
}

/** out[0] = sum of partial[0..n), in a fixed order. One block of kTX threads. */
__global__ void __launch_bounds__(kTX) sumPartials(const double *partial, size_t n, double *out) {
  double s = 0;
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) s += partial[i];
  s = blockSum(s);
  if (threadIdx.x == 0) out[0] = s;
}

/** out[i] = hash of the bits of columns 0..nx-1 of row first+i (order-independent within the row: an XOR of a
 *  bijective mix of (column, bits)). Grid: one block per row. */
template <class T>
__global__ void __launch_bounds__(kTX) rowHashes(const T *arr, size_t pitch, int nx, int first, uint64_t *out) {
  __shared__ uint64_t warp_h[kTX / 32];
  const T *row = arr + (size_t)(first + blockIdx.x) * pitch;
  uint64_t h = 0;
  for (int x = threadIdx.x; x < nx; x += blockDim.x) h ^= mix64(bitsOf(row[x]) * 0x100000001b3ULL + (uint64_t)x);
  for (int o = 16; o > 0; o >>= 1) h ^= __shfl_down_sync(0xffffffffu, h, o);
  if ((threadIdx.x & 31) == 0) warp_h[threadIdx.x >> 5] = h;
  __syncthreads();
  if (threadIdx.x == 0) {
    uint64_t r = 0;
    for (int w = 0; w < (int)(blockDim.x >> 5); ++w) r ^= warp_h[w];
    out[blockIdx.x] = mix64(r);
  }
}

/** Device variant: waits until every segment's ghost rows carry iteration >= iter (the last puts into this PE have
 *  landed), then quiet (this PE's own puts are complete). One block. */
__global__ void waitAllGhosts(uint64_t *sig_top, uint64_t *sig_bot, int nseg, uint64_t iter) {
  for (int i = threadIdx.x; i < nseg; i += blockDim.x) {
    gshmem_signal_wait_until(&sig_top[i], GSHMEM_CMP_GE, iter);
    gshmem_signal_wait_until(&sig_bot[i], GSHMEM_CMP_GE, iter);
  }
  __syncthreads();
  if (threadIdx.x == 0) gshmem_quiet();
}

/** Debug (--corrupt-halo): after the ghost row has arrived (sig, when not null, >= iter), add 1 to one element. */
template <class T>
__global__ void corruptGhost(T *elem, uint64_t *sig, uint64_t iter) {
  if (sig != nullptr) gshmem_signal_wait_until(sig, GSHMEM_CMP_GE, iter);
  *elem += T(1);
}

}  // namespace stencil
