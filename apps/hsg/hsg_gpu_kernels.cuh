// hsg_gpu kernels: initialisation, the half-sweep (boundary blocks that wait for their ghost chunk, update it and
// put it into the neighbour's ghost with a signal; bulk blocks), the end-of-run drain, and the debug corruption.
// The contracts of the variants and of the signals: hsg_gpu.cu and HalfSweep in hsg_gpu.cuh.
#ifndef GSHMEM_APPS_HSG_GPU_KERNELS_CUH
#define GSHMEM_APPS_HSG_GPU_KERNELS_CUH

#include <gshmem/device.cuh>

#include "hsg_gpu.cuh"

namespace hsg_gpu {

constexpr int kThreads = 256;      // threads per block of every kernel
constexpr int kChunkSites = 2048;  // sites of one boundary block (one chunk of a boundary plane)

namespace kernels {

__global__ void initKernel(Geo g, float* s, uint8_t* Jb, uint64_t seed) {
  const size_t n = (size_t)(g.nz + 2) * 2 * g.H2;
  for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < n; t += (size_t)gridDim.x * blockDim.x) {
    const size_t pc = t / g.H2;
    hsg_gpu::initSite(g, s, Jb, seed, (int)(pc / 2), (int)(pc % 2), t % g.H2);
  }
}

template <bool HB>
__device__ void boundaryBlock(const HalfSweep& a, int b) {
  const int side = b / a.nch, ch = b % a.nch, lz = side ? a.g.nz : 1;
  const size_t i0 = (size_t)ch * a.chunk, i1 = min(a.g.H2, i0 + a.chunk);
  if (a.wait) {  // side 0 reads the lower ghost (signals [0, nsig)), side 1 the upper one
    if (threadIdx.x == 0)
      gshmem_signal_wait_until(a.sig + (side ? a.nsig : 0) + (a.nsig > 1 ? ch : 0), GSHMEM_CMP_GE, a.k - 1);
    __syncthreads();
  }
  const int zg = a.g.gz(lz);
  if (a.quad) {  // every thread runs the same number of rounds (updateQuad shuffles across the warp)
    const unsigned q0 = (unsigned)(i0 / 4), nq = (unsigned)((i1 - i0) / 4);
    for (unsigned r = 0; r < nq; r += blockDim.x) {
      const bool live = r + threadIdx.x < nq;
      hsg_gpu::updateQuad<HB>(a.g, a.s, a.Jb, lz, zg, a.c, q0 + (live ? r + threadIdx.x : nq - 1), live, a.beta,
                              a.key);
    }
  } else {
    for (unsigned i = (unsigned)i0 + threadIdx.x; i < i1; i += blockDim.x)
      hsg_gpu::updateSite<HB>(a.g, a.s, a.Jb, lz, zg, a.c, i, a.beta, a.key);
  }
  if (!a.put) return;
  __syncthreads();
  // plane 1 goes to the lower neighbour's upper ghost (its signal nsig + ch), plane nz to the upper one's lower.
  const int pe = side ? a.up : a.lo, gl = side ? 0 : a.nz_lo + 1;
  uint64_t* sig = a.sig + (side ? 0 : a.nsig) + ch;
  const size_t n = (i1 - i0) * sizeof(float);
  for (int k = 0; k < 2; ++k)
    gshmemx_putmem_nbi_block(a.s + a.g.off(gl, a.c, k) + i0, a.s + a.g.off(lz, a.c, k) + i0, n, pe);
  gshmemx_putmem_signal_nbi_block(a.s + a.g.off(gl, a.c, 2) + i0, a.s + a.g.off(lz, a.c, 2) + i0, n, sig, a.k,
                                  GSHMEM_SIGNAL_SET, pe);
}

/** Block b of a launch of 2 * nch blocks: boundary chunk b (boundaryBlock). Apart from the bulk's kernel, so that
 *  the put and signal code's registers do not lower the bulk's occupancy. */
template <bool HB>
__global__ void __launch_bounds__(kThreads) boundaryKernel(HalfSweep a) {
  boundaryBlock<HB>(a, blockIdx.x);
}

/** Block b updates the kThreads sites (quads when a.quad) from (b % bpp) * kThreads of plane 2 + b / bpp (bpp
 *  blocks per plane): no thread divides 64-bit indices. */
template <bool HB>
__global__ void __launch_bounds__(kThreads) bulkKernel(HalfSweep a, unsigned bpp) {
  const unsigned b = blockIdx.x, pl = b / bpp, i = (b - pl * bpp) * kThreads + threadIdx.x;
  const int lz = 2 + (int)pl;
  if (a.quad) {
    const unsigned nq = (unsigned)(a.g.H2 / 4);
    return hsg_gpu::updateQuad<HB>(a.g, a.s, a.Jb, lz, a.g.gz(lz), a.c, i < nq ? i : nq - 1, i < nq, a.beta, a.key);
  }
  if (i >= a.g.H2) return;
  hsg_gpu::updateSite<HB>(a.g, a.s, a.Jb, lz, a.g.gz(lz), a.c, i, a.beta, a.key);
}

/** Waits until every ghost chunk carries signal >= k, then completes this PE's puts. */
__global__ void drainKernel(uint64_t* sig, int nsig, uint64_t k) {
  for (int i = threadIdx.x; i < 2 * nsig; i += blockDim.x) gshmem_signal_wait_until(sig + i, GSHMEM_CMP_GE, k);
  __syncthreads();
  if (threadIdx.x == 0) gshmem_quiet();
}

/** Debug: negates one colour of the lower ghost plane once its chunks of half-sweep k have arrived. */
__global__ void corruptKernel(Geo g, float* s, uint64_t* sig, int nsig, uint64_t k, int c, bool wait) {
  if (wait && threadIdx.x == 0)
    for (int i = 0; i < nsig; ++i) gshmem_signal_wait_until(sig + i, GSHMEM_CMP_GE, k);
  __syncthreads();
  for (size_t i = threadIdx.x; i < g.colourFloats(); i += blockDim.x) s[g.off(0, c, 0) + i] *= -1.0f;
}

}  // namespace kernels
}  // namespace hsg_gpu

#endif  // GSHMEM_APPS_HSG_GPU_KERNELS_CUH
