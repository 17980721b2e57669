// CUDA virtual memory management (contract in cuda_vmm.hpp).
#include "transports/cuda_ipc/cuda_vmm.hpp"

#include <cuda.h>  // types of the driver entry points only: the driver is reached through cudart
#include <cuda_runtime.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

#include "base/cuda_check.hpp"
#include "base/log.hpp"

namespace gshmem::vmm {

namespace {

constexpr const char* kWho = "device heap (CUDA VMM)";

/// The driver entry points VMM needs, looked up once through cudart; `ok` is false when any is missing.
struct Driver {
  decltype(&::cuDeviceGet) deviceGet = nullptr;
  decltype(&::cuDeviceGetAttribute) getAttribute = nullptr;
  decltype(&::cuMemGetAllocationGranularity) granularity = nullptr;
  decltype(&::cuMemAddressReserve) reserve = nullptr;
  decltype(&::cuMemAddressFree) addressFree = nullptr;
  decltype(&::cuMemCreate) create = nullptr;
  decltype(&::cuMemRelease) release = nullptr;
  decltype(&::cuMemMap) map = nullptr;
  decltype(&::cuMemUnmap) unmap = nullptr;
  decltype(&::cuMemSetAccess) setAccess = nullptr;
  decltype(&::cuMemExportToShareableHandle) exportHandle = nullptr;
  decltype(&::cuMemImportFromShareableHandle) importHandle = nullptr;
  decltype(&::cuGetErrorString) errorString = nullptr;
  decltype(&::cuMemRetainAllocationHandle) retain = nullptr;  ///< adopt() only (not part of `ok`)
  decltype(&::cuMemGetAddressRange) addressRange = nullptr;   ///< adopt() only
  bool ok = false;
};

const Driver& driver() {
  static const Driver d = [] {
    Driver x;
    x.ok = driverEntry("cuDeviceGet", &x.deviceGet) && driverEntry("cuDeviceGetAttribute", &x.getAttribute) &&
           driverEntry("cuMemGetAllocationGranularity", &x.granularity) &&
           driverEntry("cuMemAddressReserve", &x.reserve) && driverEntry("cuMemAddressFree", &x.addressFree) &&
           driverEntry("cuMemCreate", &x.create) && driverEntry("cuMemRelease", &x.release) &&
           driverEntry("cuMemMap", &x.map) && driverEntry("cuMemUnmap", &x.unmap) &&
           driverEntry("cuMemSetAccess", &x.setAccess) &&
           driverEntry("cuMemExportToShareableHandle", &x.exportHandle) &&
           driverEntry("cuMemImportFromShareableHandle", &x.importHandle) &&
           driverEntry("cuGetErrorString", &x.errorString);
    if (!driverEntry("cuMemRetainAllocationHandle", &x.retain) || !driverEntry("cuMemGetAddressRange", &x.addressRange))
      x.retain = nullptr;
    return x;
  }();
  return d;
}

/// Log a failed driver call once and return SystemError (NoMemory when the GPU is out of memory).
Status failed(const char* what, CUresult r) {
  const char* why = nullptr;
  if (driver().errorString) driver().errorString(r, &why);
  GSHMEM_LOG_ERROR(TRANSPORT, "%s: %s failed: %s", kWho, what, why ? why : "unknown driver error");
  return r == CUDA_ERROR_OUT_OF_MEMORY ? Status::NoMemory : Status::SystemError;
}

#define GSHMEM_CU_TRY(what, expr)                     \
  do {                                                \
    CUresult r_ = (expr);                             \
    if (r_ != CUDA_SUCCESS) return failed(what, r_);  \
  } while (0)

CUmemAllocationProp chunkProp(int dev) {
  CUmemAllocationProp p{};
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = dev;
  p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  return p;
}

}  // namespace

bool supported(int dev, std::size_t* granularity) {
  const Driver& d = driver();
  if (!d.ok || cudaFree(nullptr) != cudaSuccess) {  // cudaFree(0): the primary context exists before driver calls
    cudaGetLastError();
    return false;
  }
  CUdevice cu = 0;
  int vmm = 0, fd = 0;
  if (d.deviceGet(&cu, dev) != CUDA_SUCCESS ||
      d.getAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, cu) != CUDA_SUCCESS ||
      d.getAttribute(&fd, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, cu) != CUDA_SUCCESS ||
      !vmm || !fd)
    return false;
  const CUmemAllocationProp p = chunkProp(dev);
  std::size_t g = 0;
  if (d.granularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) != CUDA_SUCCESS || g == 0) return false;
  *granularity = g;
  return true;
}

Range& Range::operator=(Range&& o) noexcept {
  if (this != &o) {
    release();
    base_ = o.base_;
    size_ = o.size_;
    chunks_ = std::move(o.chunks_);
    o.base_ = 0;
    o.size_ = 0;
    o.chunks_.clear();
  }
  return *this;
}

Status Range::reserve(std::size_t bytes) {
  if (!driver().ok) return Status::Unsupported;
  release();
  CUdeviceptr p = 0;
  GSHMEM_CU_TRY("cuMemAddressReserve", driver().reserve(&p, bytes, 0, 0, 0));
  base_ = static_cast<uintptr_t>(p);
  size_ = bytes;
  return Status::Ok;
}

Status Range::mapChunk(unsigned long long handle, int dev, std::size_t offset, std::size_t bytes) {
  const Driver& d = driver();
  if (offset > size_ || bytes > size_ - offset) {
    d.release(handle);
    GSHMEM_LOG_ERROR(TRANSPORT, "%s: a chunk at offset %zu of %zu bytes does not fit the %zu-byte range", kWho,
                     offset, bytes, size_);
    return Status::InvalidArgument;
  }
  const CUdeviceptr at = static_cast<CUdeviceptr>(base_ + offset);
  if (CUresult r = d.map(at, bytes, 0, handle, 0); r != CUDA_SUCCESS) {
    d.release(handle);
    return failed("cuMemMap", r);
  }
  CUmemAccessDesc access{};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = dev;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  if (CUresult r = d.setAccess(at, bytes, &access, 1); r != CUDA_SUCCESS) {
    d.unmap(at, bytes);
    d.release(handle);
    return failed("cuMemSetAccess", r);
  }
  chunks_.push_back(Chunk{offset, bytes, handle});
  return Status::Ok;
}

Status Range::create(int dev, std::size_t offset, std::size_t bytes) {
  const CUmemAllocationProp p = chunkProp(dev);
  CUmemGenericAllocationHandle h = 0;
  GSHMEM_CU_TRY("cuMemCreate", driver().create(&h, bytes, &p, 0));
  return mapChunk(h, dev, offset, bytes);
}

Status Range::import(int fd, int dev, std::size_t offset, std::size_t bytes) {
  CUmemGenericAllocationHandle h = 0;
  GSHMEM_CU_TRY("cuMemImportFromShareableHandle",
                driver().importHandle(&h, reinterpret_cast<void*>(static_cast<uintptr_t>(fd)),
                                      CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  return mapChunk(h, dev, offset, bytes);
}

Status mappingSize(const void* addr, std::size_t* bytes) {
  const Driver& d = driver();
  if (!d.ok || d.retain == nullptr) return Status::Unsupported;
  CUdeviceptr base = 0;
  std::size_t size = 0;
  if (d.addressRange(&base, &size, reinterpret_cast<CUdeviceptr>(addr)) != CUDA_SUCCESS ||
      base != reinterpret_cast<CUdeviceptr>(addr))
    return Status::InvalidArgument;
  CUmemGenericAllocationHandle h = 0;  // only a VMM allocation has a handle to retain (not cudaMalloc memory)
  if (d.retain(&h, const_cast<void*>(addr)) != CUDA_SUCCESS) return Status::InvalidArgument;
  d.release(h);
  *bytes = size;
  return Status::Ok;
}

Status Range::adopt(const void* addr, std::size_t length, int dev, std::size_t offset, std::size_t* bytes) {
  const Driver& d = driver();
  if (!d.ok || d.retain == nullptr) return Status::Unsupported;
  CUdeviceptr base = 0;
  std::size_t size = 0;
  GSHMEM_CU_TRY("cuMemGetAddressRange", d.addressRange(&base, &size, reinterpret_cast<CUdeviceptr>(addr)));
  if (base != reinterpret_cast<CUdeviceptr>(addr) || length > size || length == 0) return Status::InvalidArgument;
  CUmemGenericAllocationHandle h = 0;
  GSHMEM_CU_TRY("cuMemRetainAllocationHandle", d.retain(&h, const_cast<void*>(addr)));
  GSHMEM_CHECK(mapChunk(h, dev, offset, size));  // releases the retained handle on failure
  *bytes = size;
  return Status::Ok;
}

Status Range::exportFd(std::size_t offset, int* fd) const {
  auto c = std::find_if(chunks_.begin(), chunks_.end(), [&](const Chunk& k) { return k.offset == offset; });
  if (c == chunks_.end()) return Status::InvalidArgument;
  int out = -1;
  GSHMEM_CU_TRY("cuMemExportToShareableHandle",
                driver().exportHandle(&out, c->handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  fcntl(out, F_SETFD, FD_CLOEXEC);
  *fd = out;
  return Status::Ok;
}

void Range::drop(std::size_t offset) {
  auto c = std::find_if(chunks_.begin(), chunks_.end(), [&](const Chunk& k) { return k.offset == offset; });
  if (c == chunks_.end()) return;
  driver().unmap(static_cast<CUdeviceptr>(base_ + c->offset), c->bytes);
  driver().release(c->handle);
  chunks_.erase(c);
}

void Range::release() {
  const Driver& d = driver();
  for (const Chunk& c : chunks_) {
    d.unmap(static_cast<CUdeviceptr>(base_ + c.offset), c.bytes);
    d.release(c.handle);
  }
  chunks_.clear();
  if (base_) d.addressFree(static_cast<CUdeviceptr>(base_), size_);
  base_ = 0;
  size_ = 0;
}

}  // namespace gshmem::vmm
