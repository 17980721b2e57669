// The protocols' kernels: the p2p_sm copy (stores over NVLink into the peer's mapped heap) and the atomic.
#include "core/protocols/kernels.hpp"

#include <cuda.h>

#include <cstdint>

#include "base/cuda_check.hpp"
#include "gshmem/device/api.cuh"
#include "transports/transport.hpp"

namespace gshmem::protocols {

namespace {

constexpr int kThreads = 512;
constexpr int kMaxBlocks = 264;  // 2 per SM on a 132-SM GPU; stores over NVLink saturate well before

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

__global__ void amoKernel(void* addr, uint32_t op, unsigned size, uint64_t value, uint64_t cond, uint64_t* result) {
  if (size == 8)
    *result = dev::detail::atomicOn<unsigned long long>(static_cast<unsigned long long*>(addr), op, value, cond);
  else
    *result = dev::detail::atomicOn<unsigned int>(static_cast<unsigned int*>(addr), op, static_cast<unsigned>(value),
                                                  static_cast<unsigned>(cond));
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

cudaError_t launchAmo(void* addr, uint32_t op, unsigned size, uint64_t value, uint64_t cond, uint64_t* result,
                      cudaStream_t stream) {
  amoKernel<<<1, 1, 0, stream>>>(addr, op, size, value, cond, result);
  return cudaGetLastError();
}

namespace {

using WriteValue64 = CUresult (*)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);
using WriteValue32 = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);

/// cuStreamWriteValue64/32 (base's driverEntry); null where absent.
struct StreamWrite {
  WriteValue64 w64 = nullptr;
  WriteValue32 w32 = nullptr;
};
const StreamWrite& streamWrite() {
  static const StreamWrite w = [] {
    StreamWrite r;
    driverEntry("cuStreamWriteValue64", &r.w64);
    driverEntry("cuStreamWriteValue32", &r.w32);
    return r;
  }();
  return w;
}

}  // namespace

cudaError_t enqueueSet(void* addr, unsigned size, uint64_t value, uint64_t* result, cudaStream_t stream) {
  const StreamWrite& w = streamWrite();
  const auto s = reinterpret_cast<CUstream>(stream);
  const auto a = reinterpret_cast<CUdeviceptr>(addr);
  // Default flags: the write is ordered after the stream's earlier work, memory barrier included.
  if (size == 8 && w.w64 && w.w64(s, a, value, CU_STREAM_WRITE_VALUE_DEFAULT) == CUDA_SUCCESS) return cudaSuccess;
  if (size == 4 && w.w32 && w.w32(s, a, static_cast<cuuint32_t>(value), CU_STREAM_WRITE_VALUE_DEFAULT) == CUDA_SUCCESS)
    return cudaSuccess;
  cudaGetLastError();
  return launchAmo(addr, static_cast<uint32_t>(AmoOp::Set), size, value, 0, result, stream);
}

cudaError_t loadKernels() {
  cudaFuncAttributes a;
  cudaError_t e = cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(copy16));
  if (e == cudaSuccess) e = cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(copy1));
  if (e == cudaSuccess) e = cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(amoKernel));
  return e;
}

}  // namespace gshmem::protocols
