// PROTO (issue 6): SM copy kernel of the p2p_sm protocol (stores over NVLink into the peer's mapped heap).
#include "core/protocols/p2p_copy.hpp"

#include <cstdint>

namespace gshmem::protocols {

namespace {

constexpr int kThreads = 512;
constexpr int kMaxBlocks = 264;  // 2 per SM on H100/H200; stores over NVLink saturate well before

__global__ void __launch_bounds__(kThreads) copy16(uint4* __restrict__ dst, const uint4* __restrict__ src,
                                                   std::size_t n16) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n16; i += 4 * stride) {  // four loads in flight per thread
    uint4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
    dst[i] = a;
    dst[i + stride] = b;
    dst[i + 2 * stride] = c;
    dst[i + 3 * stride] = d;
  }
  for (; i < n16; i += stride) dst[i] = src[i];
}

__global__ void __launch_bounds__(kThreads) copy1(char* __restrict__ dst, const char* __restrict__ src, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    dst[i] = src[i];
}

int blocksFor(std::size_t units) {
  std::size_t b = (units + kThreads * 4 - 1) / (kThreads * 4);
  return static_cast<int>(b < 1 ? 1 : b > kMaxBlocks ? kMaxBlocks : b);
}

}  // namespace

cudaError_t launchSmCopy(void* dst, const void* src, std::size_t n, cudaStream_t stream) {
  if (!n) return cudaSuccess;
  const bool aligned = ((reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src)) & 15) == 0;
  const std::size_t n16 = aligned ? n / 16 : 0;
  if (n16) copy16<<<blocksFor(n16), kThreads, 0, stream>>>(static_cast<uint4*>(dst), static_cast<const uint4*>(src), n16);
  const std::size_t tail = n - n16 * 16;
  if (tail)
    copy1<<<blocksFor(tail), kThreads, 0, stream>>>(static_cast<char*>(dst) + n16 * 16,
                                                    static_cast<const char*>(src) + n16 * 16, tail);
  return cudaGetLastError();
}

cudaError_t loadSmCopy() {
  cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(copy16));
  if (e == cudaSuccess) e = cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(copy1));
  return e;
}

}  // namespace gshmem::protocols
