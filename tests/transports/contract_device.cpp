// GPU memory for the transport contract's device links (contract_harness.hpp). A build without CUDA, or a machine
// without a GPU, has none: the device transports' cases then skip.
#include "transports/contract_harness.hpp"

#ifdef GSHMEM_CONTRACT_CUDA
#include <cuda_runtime.h>
#endif

namespace gshmem::contract {

#ifdef GSHMEM_CONTRACT_CUDA

DeviceRegion::DeviceRegion(std::size_t size) {
  void* p = nullptr;
  if (cudaMalloc(&p, size) != cudaSuccess) return;
  region.base = static_cast<char*>(p);
  region.size = size;
  region.fd = -1;
  region.kind = MemKind::Device;
}

DeviceRegion::~DeviceRegion() {
  if (region.base) cudaFree(region.base);
}

int deviceSelect(int rank) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count <= 0) return -1;
  const int dev = rank % count;
  return cudaSetDevice(dev) == cudaSuccess ? dev : -1;
}

bool deviceCopy(void* dst, const void* src, std::size_t n) {
  return cudaMemcpy(dst, src, n, cudaMemcpyDefault) == cudaSuccess;
}

#else

DeviceRegion::DeviceRegion(std::size_t) {}
DeviceRegion::~DeviceRegion() = default;
int deviceSelect(int) { return -1; }
bool deviceCopy(void*, const void*, std::size_t) { return false; }

#endif

}  // namespace gshmem::contract
