// The device proxy ring under many producers: 256 GPU threads mix non-blocking puts with blocking fetch-AMOs;
// every value must arrive and every fetch must return a distinct old value. With GSHMEM_P2P=1 the same kernel runs
// over P2P stores. (Gpu.SmallPutSignalStress wraps the ring; this test stays small because two PEs sharing one
// GPU through the proxy pay a context switch, about 2 ms, per request.)
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <gshmem/gshmem.hpp>
#include <gshmem/nvshmem_compat.h>

#include <algorithm>
#include <vector>

#include "pe_test.hpp"

namespace {

class ProxyGpu : public gshmem_test::PeTest {
 protected:
  void SetUp() override {
    PeTest::SetUp();
    if (!gshmemx_device_available()) GTEST_SKIP() << "no device symmetric heap on this PE (no GPU)";
  }
};

constexpr int kBlocks = 4, kThreads = 64, kPerThread = 4;  // 1024 puts and 256 fetch-adds per PE
constexpr int kTotal = kBlocks * kThreads * kPerThread;

__global__ void floodKernel(int* dst, uint64_t* ctr, uint64_t* fetched) {
  const int me = gshmem_my_pe(), right = (me + 1) % gshmem_n_pes();
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < kPerThread; ++k) {
    const int i = k * kBlocks * kThreads + tid;  // neighbouring threads post neighbouring slots
    gshmem_int_p(dst + i, me * 1000000 + i, right);
  }
  fetched[tid] = gshmem_uint64_atomic_fetch_add(ctr, 1, right);
  gshmem_quiet();
}

TEST_F(ProxyGpu, ManyProducersMixPutsAndFetchAdds) {
  int* dst = static_cast<int*>(gshmemx_calloc_device(kTotal, sizeof(int)));
  uint64_t* ctr = static_cast<uint64_t*>(gshmemx_calloc_device(1, sizeof(uint64_t)));
  ASSERT_NE(dst, nullptr);
  ASSERT_NE(ctr, nullptr);
  uint64_t* fetched = nullptr;
  ASSERT_EQ(cudaMalloc(&fetched, sizeof(uint64_t) * kBlocks * kThreads), cudaSuccess);
  shmem_barrier_all();
  floodKernel<<<kBlocks, kThreads>>>(dst, ctr, fetched);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  shmem_barrier_all();  // every PE's kernel quieted: all its requests were applied
  std::vector<int> got(kTotal);
  ASSERT_EQ(cudaMemcpy(got.data(), dst, sizeof(int) * kTotal, cudaMemcpyDeviceToHost), cudaSuccess);
  int bad = 0, first = -1;
  for (int i = 0; i < kTotal; ++i)
    if (got[i] != left() * 1000000 + i && bad++ == 0) first = i;
  EXPECT_EQ(bad, 0) << "first wrong index " << first << ": " << (first >= 0 ? got[first] : 0);
  uint64_t c = 0;
  ASSERT_EQ(cudaMemcpy(&c, ctr, sizeof c, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(c, uint64_t(kBlocks) * kThreads);  // one fetch-add from each thread of the left neighbour
  std::vector<uint64_t> f(kBlocks * kThreads);
  ASSERT_EQ(cudaMemcpy(f.data(), fetched, sizeof(uint64_t) * f.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  std::sort(f.begin(), f.end());
  EXPECT_TRUE(std::adjacent_find(f.begin(), f.end()) == f.end()) << "two fetch-adds returned the same old value";
  EXPECT_LT(f.back(), uint64_t(kBlocks) * kThreads);
  shmem_barrier_all();
  cudaFree(fetched);
  shmem_free(ctr);
  shmem_free(dst);
}

}  // namespace
