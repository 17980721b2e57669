// nvshmemx_buffer_register_symmetric: each PE registers a CUDA VMM buffer (cuMemCreate, exportable as a POSIX file
// descriptor) of the same length; the pointer returned is symmetric for a kernel's put (which lands in the peer's
// own buffer), for host puts and gets and for nvshmem_ptr; unregistering leaves the buffer the caller's. Where not
// every peer's heap is mapped (GSHMEM_P2P=0, UCX) or the heap is fixed, registration is refused on every PE (NULL).
// A buffer that is not a VMM allocation is refused everywhere. Skips without a GPU.
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <cuda.h>
#include <gshmem/gshmem.hpp>
#include <gshmem/nvshmem_compat.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "pe_test.hpp"

namespace {

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

template <typename F>
F driverCall(const char* name) {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q{};
  if (cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess)
    return nullptr;
  return reinterpret_cast<F>(f);
}

/// A buffer made the way NVSHMEM asks for register_symmetric: cuMemCreate (POSIX descriptor handle type),
/// cuMemAddressReserve, cuMemMap, cuMemSetAccess for this GPU. bytes: a multiple of the granularity.
struct VmmBuffer {
  CUdeviceptr ptr = 0;
  CUmemGenericAllocationHandle handle = 0;
  std::size_t bytes = 0;
  bool make(int dev, std::size_t want) {
    auto gran = driverCall<decltype(&cuMemGetAllocationGranularity)>("cuMemGetAllocationGranularity");
    auto create = driverCall<decltype(&cuMemCreate)>("cuMemCreate");
    auto reserve = driverCall<decltype(&cuMemAddressReserve)>("cuMemAddressReserve");
    auto map = driverCall<decltype(&cuMemMap)>("cuMemMap");
    auto access = driverCall<decltype(&cuMemSetAccess)>("cuMemSetAccess");
    if (!gran || !create || !reserve || !map || !access) return false;
    CUmemAllocationProp p{};
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = dev;
    p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    std::size_t g = 0;
    if (gran(&g, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) != CUDA_SUCCESS || g == 0) return false;
    bytes = (want + g - 1) / g * g;
    CUmemAccessDesc a{};
    a.location = p.location;
    a.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    return create(&handle, bytes, &p, 0) == CUDA_SUCCESS && reserve(&ptr, bytes, g, 0, 0) == CUDA_SUCCESS &&
           map(ptr, bytes, 0, handle, 0) == CUDA_SUCCESS && access(ptr, bytes, &a, 1) == CUDA_SUCCESS;
  }
  ~VmmBuffer() {
    cudaDeviceSynchronize();  // no copy or kernel on the buffer is in flight when it is unmapped
    if (ptr) driverCall<decltype(&cuMemUnmap)>("cuMemUnmap")(ptr, bytes);
    if (handle) driverCall<decltype(&cuMemRelease)>("cuMemRelease")(handle);
    if (ptr) driverCall<decltype(&cuMemAddressFree)>("cuMemAddressFree")(ptr, bytes);
  }
  int* ints() const { return reinterpret_cast<int*>(ptr); }
};

class GpuRegister : public gshmem_test::PeTest {
 protected:
  void SetUp() override {
    PeTest::SetUp();
    if (!gshmemx_device_available()) GTEST_SKIP() << "no device symmetric heap on this PE (no GPU)";
    CK(cudaSetDevice(gshmemx_device_id()));
  }
  /// Whether this PE maps every PE's device heap (then registration is possible, on a growing heap).
  bool allMapped() {
    void* probe = nvshmem_malloc(256);
    bool all = probe != nullptr;
    for (int pe = 0; pe < npes_ && all; ++pe) all = nvshmem_ptr(probe, pe) != nullptr;
    nvshmem_free(probe);
    const char* max = std::getenv("GSHMEM_DEVICE_HEAP_MAX");
    return all && !(max && std::strcmp(max, "0") == 0);
  }
};

__global__ void fillKernel(int* p, size_t n, int value) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = value + int(i & 1023);
}

/// Block 0 puts @p src (n ints) into @p dst on the right neighbour, then every PE waits for its left neighbour's.
__global__ void ringPutKernel(int* dst, const int* src, int n) {
  const int me = nvshmem_my_pe(), np = nvshmem_n_pes();
  nvshmemx_int_put_block(dst, src, n, (me + 1) % np);
  if (threadIdx.x == 0) {
    nvshmem_quiet();
    nvshmem_barrier_all();
  }
}

std::size_t mismatches(const int* p, std::size_t n, int value) {
  std::vector<int> h(n);
  if (cudaMemcpy(h.data(), p, n * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) return n;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad += h[i] != value + int(i & 1023);
  return bad;
}

TEST_F(GpuRegister, KernelAndHostPutsReachThePeersOwnBuffer) {
  const bool expect_ok = allMapped();
  VmmBuffer buf;
  ASSERT_TRUE(buf.make(gshmemx_device_id(), 4u << 20)) << "cannot make a CUDA VMM buffer";
  CK(cudaMemset(reinterpret_cast<void*>(buf.ptr), 0xff, buf.bytes));
  CK(cudaDeviceSynchronize());
  int* sym = static_cast<int*>(nvshmemx_buffer_register_symmetric(buf.ints(), buf.bytes, 0));
  if (!expect_ok) {
    EXPECT_EQ(sym, nullptr) << "registration without every peer mapped must be refused";
    return;
  }
  ASSERT_NE(sym, nullptr);
  EXPECT_NE(nvshmem_ptr(sym, right()), nullptr);
  const std::size_t n = buf.bytes / sizeof(int);
  int* src = nullptr;
  CK(cudaMalloc(&src, buf.bytes));
  fillKernel<<<64, 256>>>(src, n, 1000 * me_);
  CK(cudaDeviceSynchronize());
  nvshmem_barrier_all();
  ringPutKernel<<<1, 256>>>(sym, src, static_cast<int>(n));
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(mismatches(buf.ints(), n, 1000 * left()), 0u) << "a kernel's put into PE " << me_ << "'s own buffer";

  std::vector<int> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = 7 + int(i & 1023);
  nvshmem_barrier_all();
  nvshmem_putmem(sym, h.data(), buf.bytes, right());
  nvshmem_barrier_all();
  EXPECT_EQ(mismatches(buf.ints(), n, 7), 0u) << "a host put into PE " << me_ << "'s own buffer";
  std::vector<int> back(n, -1);
  nvshmem_getmem(back.data(), sym + 1, sizeof(int), right());
  EXPECT_EQ(back[0], 8) << "a host get from PE " << right() << "'s registered buffer";
  nvshmem_barrier_all();
  EXPECT_EQ(nvshmemx_buffer_unregister_symmetric(sym, buf.bytes), 0);
  EXPECT_EQ(mismatches(buf.ints(), n, 7), 0u) << "the buffer stays the caller's after unregistering";
  CK(cudaFree(src));
}

TEST_F(GpuRegister, ABufferNotMadeWithVmmIsRefusedEverywhere) {
  void* plain = nullptr;
  CK(cudaMalloc(&plain, 1u << 20));
  EXPECT_EQ(nvshmemx_buffer_register_symmetric(plain, 1u << 20, 0), nullptr);
  void* q = nvshmem_malloc(1024);  // the heap still works
  EXPECT_NE(q, nullptr);
  nvshmem_free(q);
  CK(cudaFree(plain));
}

}  // namespace
