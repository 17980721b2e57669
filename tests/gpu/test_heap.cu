// The device heap grows: allocations past GSHMEM_SYMMETRIC_SIZE_DEVICE (ctest runs these binaries with 256 MiB)
// map new chunks on every PE and into every peer that maps the heap, and the new memory is reached like the old
// one by device-initiated puts, host puts and gets, and zeroed by calloc. Skips when the heap is fixed
// (GSHMEM_DEVICE_HEAP_MAX=0, or a GPU without CUDA VMM descriptor export).
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <gshmem/gshmem.hpp>
#include <gshmem/nvshmem_compat.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "pe_test.hpp"

namespace {

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

class GpuHeap : public gshmem_test::PeTest {
 protected:
  void SetUp() override {
    PeTest::SetUp();
    if (!gshmemx_device_available()) GTEST_SKIP() << "no device symmetric heap on this PE (no GPU)";
    const char* max = std::getenv("GSHMEM_DEVICE_HEAP_MAX");
    if (max && std::strcmp(max, "0") == 0) GTEST_SKIP() << "GSHMEM_DEVICE_HEAP_MAX=0: a fixed heap";
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

/// Count the ints of [p, p + n) that differ from value + (i & 1023).
std::size_t mismatches(const int* p, std::size_t n, int value) {
  std::vector<int> h(n);
  if (cudaMemcpy(h.data(), p, n * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) return n;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad += h[i] != value + int(i & 1023);
  return bad;
}

TEST_F(GpuHeap, GrowsPastTheInitialSizeAndPeersReachTheNewMemory) {
  const std::size_t small = 64u << 20, big = 400u << 20, tail = 1u << 20;  // 64 + 400 MiB: past the first 256
  char* a = static_cast<char*>(nvshmem_malloc(small));
  char* b = static_cast<char*>(nvshmem_malloc(big));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_GE(b, a + small);
  int* src = reinterpret_cast<int*>(b + big - 2 * tail);  // both in the part mapped by the growth
  int* dst = reinterpret_cast<int*>(b + big - tail);
  const std::size_t n = tail / sizeof(int);
  fillKernel<<<64, 256>>>(src, n, 1000 * me_);
  CK(cudaDeviceSynchronize());
  nvshmem_barrier_all();
  ringPutKernel<<<1, 256>>>(dst, src, static_cast<int>(n));
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(mismatches(dst, n, 1000 * left()), 0u) << "device put into the grown part of PE " << me_;

  // Host put into the right neighbour's grown part, then get it back.
  std::vector<int> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = 7 + int(i & 1023);
  nvshmem_barrier_all();
  nvshmem_putmem(dst, h.data(), tail, right());
  nvshmem_barrier_all();
  EXPECT_EQ(mismatches(dst, n, 7), 0u) << "host put into the grown part of PE " << me_;
  std::vector<int> back(n, -1);
  nvshmem_getmem(back.data(), src, tail, right());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad += back[i] != 1000 * right() + int(i & 1023);
  EXPECT_EQ(bad, 0u) << "host get from PE " << right() << "'s grown part";

  // A second growth, zeroed by calloc on every PE before any PE returns.
  int* c = static_cast<int*>(gshmemx_calloc_device(700u << 20, 1));
  ASSERT_NE(c, nullptr);
  int* last = c + (700u << 20) / sizeof(int) - n;
  std::vector<int> z(n, -1);
  CK(cudaMemcpy(z.data(), last, tail, cudaMemcpyDeviceToHost));
  std::size_t nonzero = 0;
  for (int v : z) nonzero += v != 0;
  EXPECT_EQ(nonzero, 0u) << "calloc's grown memory is zero";
  nvshmem_barrier_all();
  nvshmem_int_p(last, 4242, right());
  nvshmem_barrier_all();
  int got = -1;
  CK(cudaMemcpy(&got, last, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT_EQ(got, 4242);
  nvshmem_barrier_all();
  nvshmem_free(c);
  nvshmem_free(b);
  nvshmem_free(a);
}

TEST_F(GpuHeap, TooLargeAnAllocationFailsOnEveryPe) {
  // Past GSHMEM_DEVICE_HEAP_MAX (128 GiB by default): NULL everywhere, a line on stderr, the job goes on.
  void* p = nvshmem_malloc(std::size_t(1) << 50);
  EXPECT_EQ(p, nullptr);
  void* q = nvshmem_malloc(1024);
  EXPECT_NE(q, nullptr);
  nvshmem_free(q);
}

}  // namespace
