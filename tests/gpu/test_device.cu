// Multi-PE GPU tests: device heap, host RMA/AMO/signals on device memory, device-initiated RMA, atomics,
// put-with-signal, barriers, stream-ordered calls and the NVSHMEM compatibility names. Each test skips when the
// PE has no device heap (no GPU). ctest runs them at 1 and 2 PEs with GSHMEM_P2P=1 (direct protocols through
// cuda_ipc) and GSHMEM_P2P=0 (the staged protocol over the shm request channel; device requests through the proxy).
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <gshmem/gshmem.hpp>
#include <gshmem/nvshmem_compat.h>

#include <cstring>
#include <string>
#include <vector>

#include "pe_test.hpp"

namespace {

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

class Gpu : public gshmem_test::PeTest {
 protected:
  void SetUp() override {
    PeTest::SetUp();
    if (!gshmemx_device_available()) GTEST_SKIP() << "no device symmetric heap on this PE (no GPU)";
  }
};

__global__ void ringPutKernel(int* dst, const int* src, int n, int* errors) {
  const int me = gshmem_my_pe(), np = gshmem_n_pes();
  const int right = (me + 1) % np, left = (me + np - 1) % np;
  gshmemx_int_put_block(dst, src, n, right);
  if (threadIdx.x == 0) {
    gshmem_int_p(dst + n, 7000 + me, right);
    gshmem_quiet();
    gshmem_barrier_all();
  }
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (dst[i] != left * 100000 + i) atomicAdd(errors, 1);
  if (threadIdx.x == 0) {
    if (dst[n] != 7000 + left) atomicAdd(errors, 1);
    if (gshmem_int_g(dst + n, right) != 7000 + me) atomicAdd(errors, 1);  // what I put there
    int tmp[4];
    gshmem_int_get(tmp, dst, 4, right);
    for (int i = 0; i < 4; ++i)
      if (tmp[i] != me * 100000 + i) atomicAdd(errors, 1);
  }
}

__global__ void atomicsKernel(uint64_t* ctr, int* ictr, int* errors) {
  gshmem_uint64_atomic_fetch_add(ctr, 1, 0);
  gshmem_int_atomic_add(ictr, 2, 0);
  __syncthreads();
  if (threadIdx.x == 0) {
    gshmem_quiet();
    gshmem_barrier_all();
    const int np = gshmem_n_pes();
    if (gshmem_uint64_atomic_fetch(ctr, 0) != uint64_t(np) * blockDim.x) atomicAdd(errors, 1);
    if (gshmem_int_atomic_fetch(ictr, 0) != 2 * np * int(blockDim.x)) atomicAdd(errors, 1);
    gshmem_barrier_all();
    if (gshmem_my_pe() == 0) {
      uint64_t old = gshmem_uint64_atomic_compare_swap(ctr, uint64_t(np) * blockDim.x, 5, 0);
      if (old != uint64_t(np) * blockDim.x) atomicAdd(errors, 1);
      if (gshmem_uint64_atomic_swap(ctr, 9, 0) != 5) atomicAdd(errors, 1);
      gshmem_uint64_atomic_or(ctr, 16, 0);
      if (gshmem_uint64_atomic_fetch_and(ctr, 24, 0) != 25) atomicAdd(errors, 1);
      if (gshmem_uint64_atomic_fetch_xor(ctr, 1, 0) != 24) atomicAdd(errors, 1);
      if (gshmem_uint64_atomic_fetch_inc(ctr, 0) != 25) atomicAdd(errors, 1);
      gshmem_long_atomic_set(reinterpret_cast<long*>(ctr), -3, 0);
      if (gshmem_long_atomic_fetch(reinterpret_cast<long*>(ctr), 0) != -3) atomicAdd(errors, 1);
    }
    gshmem_barrier_all();
  }
}

__global__ void pingPongKernel(char* buf, uint64_t* sig, int iters, int* errors) {
  const int me = gshmem_my_pe(), peer = 1 - me;
  uint64_t v[1];
  for (int i = 1; i <= iters; ++i) {
    v[0] = 0x1000ull * i + me;
    if (me == 0) {
      gshmem_putmem_signal_nbi(buf, v, 8, sig, i, GSHMEM_SIGNAL_SET, peer);
      gshmem_signal_wait_until(sig, GSHMEM_CMP_EQ, i);
    } else {
      gshmem_signal_wait_until(sig, GSHMEM_CMP_EQ, i);
      gshmem_putmem_signal_nbi(buf, v, 8, sig, i, GSHMEM_SIGNAL_SET, peer);
    }
    if (*reinterpret_cast<volatile uint64_t*>(buf) != 0x1000ull * i + peer) atomicAdd(errors, 1);
  }
}

// Many threads of several blocks send small put_signals (8 B, 4 B and 3 B, SIGNAL_ADD) to the right neighbour,
// then all wait for the total: with GSHMEM_DEVICE_INBOX=1 this fills the inbox (flow control) and makes the
// waiters contend for its lock.
__global__ void smallSignalStressKernel(uint64_t* slots, uint64_t* sig, int rounds, int* errors) {
  const int me = gshmem_my_pe(), np = gshmem_n_pes(), right = (me + 1) % np, left = (me + np - 1) % np;
  const int t = blockIdx.x * blockDim.x + threadIdx.x, nt = gridDim.x * blockDim.x;
  for (int r = 0; r < rounds; ++r) {
    uint64_t v = (uint64_t(me) << 48) | (uint64_t(r) << 24) | uint64_t(t);
    const int kind = t % 3;
    const size_t bytes = kind == 0 ? 8 : kind == 1 ? 4 : 3;
    gshmem_putmem_signal_nbi(reinterpret_cast<char*>(slots + size_t(r) * nt + t), &v, bytes, sig, 1,
                             GSHMEM_SIGNAL_ADD, right);
  }
  gshmem_signal_wait_until(sig, GSHMEM_CMP_GE, uint64_t(rounds) * nt);
  if (gshmem_signal_fetch(sig) != uint64_t(rounds) * nt) atomicAdd(errors, 1);
  for (int r = 0; r < rounds; ++r) {
    const int kind = t % 3;
    const uint64_t want = (uint64_t(left) << 48) | (uint64_t(r) << 24) | uint64_t(t);
    const uint64_t mask = kind == 0 ? ~0ull : kind == 1 ? 0xffffffffull : 0xffffffull;
    if ((reinterpret_cast<volatile uint64_t*>(slots)[size_t(r) * nt + t] & mask) != (want & mask)) atomicAdd(errors, 1);
  }
}

__global__ void compatKernel(float* dst, uint64_t* sig, int* errors) {
  const int me = nvshmem_my_pe(), np = nvshmem_n_pes();
  nvshmem_float_p(dst, 1.5f * me, (me + 1) % np);
  nvshmemx_signal_op(sig, 1, NVSHMEM_SIGNAL_ADD, (me + 1) % np);
  nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, 1);
  if (*reinterpret_cast<volatile float*>(dst) != 1.5f * ((me + np - 1) % np)) atomicAdd(errors, 1);
  nvshmem_barrier_all();
}

int* newErrors() {
  int* e = nullptr;
  cudaMallocManaged(&e, sizeof(int));
  *e = 0;
  return e;
}

TEST_F(Gpu, HeapIsSymmetricAndHostRmaWorks) {
  const int n = 1 << 16;
  int* buf = static_cast<int*>(gshmemx_malloc_device(n * sizeof(int)));
  int* buf2 = static_cast<int*>(gshmemx_calloc_device(1024, sizeof(int)));
  ASSERT_NE(buf, nullptr);
  ASSERT_NE(buf2, nullptr);
  gshmem::DeviceHandle h;
  ASSERT_EQ(gshmemx_device_handle_get(&h, sizeof h), 0);
  long off[2] = {long(reinterpret_cast<char*>(buf) - h.heap_base), long(reinterpret_cast<char*>(buf2) - h.heap_base)};
  std::vector<long> all(2 * npes_);
  MPI_Allgather(off, 2, MPI_LONG, all.data(), 2, MPI_LONG, MPI_COMM_WORLD);
  for (int pe = 0; pe < npes_; ++pe) {
    EXPECT_EQ(all[2 * pe], off[0]);
    EXPECT_EQ(all[2 * pe + 1], off[1]);
  }
  std::vector<int> v(n), back(n);
  for (int i = 0; i < n; ++i) v[i] = me_ * 1000 + i;
  shmem_putmem(buf, v.data(), n * sizeof(int), right());
  shmem_barrier_all();
  ASSERT_EQ(cudaMemcpy(back.data(), buf, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += back[i] != left() * 1000 + i;
  EXPECT_EQ(bad, 0);
  shmem_getmem(back.data(), buf, n * sizeof(int), right());
  bad = 0;
  for (int i = 0; i < n; ++i) bad += back[i] != me_ * 1000 + i;
  EXPECT_EQ(bad, 0);
  shmem_int_p(buf2, 40 + me_, right());
  shmem_barrier_all();
  EXPECT_EQ(shmem_int_g(buf2, me_), 40 + left());
  uint64_t* ctr = reinterpret_cast<uint64_t*>(buf2 + 16);
  if (me_ == 0) shmem_uint64_atomic_set(ctr, 0, 0);
  shmem_barrier_all();
  shmem_uint64_atomic_add(ctr, 3, 0);
  EXPECT_GE(shmem_uint64_atomic_fetch_add(ctr, 1, 0), 3u);
  shmem_barrier_all();
  EXPECT_EQ(shmem_uint64_atomic_fetch(ctr, 0), 4u * npes_);
  EXPECT_NE(shmem_ptr(buf, me_), nullptr);
  shmem_free(buf2);
  shmem_free(buf);
}

// Host-initiated transfers that cross chunk boundaries of the staged protocol (odd sizes, several chunks, from
// device and from host memory), atomics of both widths and the signal calls, all on the device heap of every PE.
TEST_F(Gpu, HostInitiatedOnDeviceHeapAcrossSizes) {
  const size_t sizes[] = {1, 8, 4095, (size_t(1) << 18) + 3, (size_t(5) << 20) + 77};
  const size_t maxn = sizes[4];
  char* dst = static_cast<char*>(gshmemx_calloc_device(1, maxn + 4096));
  char* src = static_cast<char*>(gshmemx_malloc_device(maxn));
  uint64_t* words = static_cast<uint64_t*>(gshmemx_calloc_device(8, 8));
  std::vector<char> v(maxn), back(maxn);
  for (size_t n : sizes) {
    for (size_t i = 0; i < n; ++i) v[i] = char(i * 13 + n + me_);
    CK(cudaMemcpy(src, v.data(), n, cudaMemcpyHostToDevice));
    // A cudaMemcpy from pageable memory may return before its DMA lands, and host calls on device memory run on
    // a non-blocking stream (never ordered after the legacy stream, where a user kernel may wait for them).
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    if (n % 2) shmem_putmem(dst, src, n, right());       // device -> peer device
    else shmem_putmem(dst, v.data(), n, right());        // host -> peer device
    shmem_barrier_all();
    CK(cudaMemcpy(back.data(), dst, n, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) bad += back[i] != char(i * 13 + n + left());
    EXPECT_EQ(bad, 0u) << "put of " << n << " bytes";
    std::fill(back.begin(), back.end(), 0);
    shmem_getmem(back.data(), dst, n, right());          // peer device -> host
    bad = 0;
    for (size_t i = 0; i < n; ++i) bad += back[i] != char(i * 13 + n + me_);
    EXPECT_EQ(bad, 0u) << "get of " << n << " bytes";
    shmem_barrier_all();
  }
  // Atomics on PE 0's words from every PE, 8 and 4 bytes.
  unsigned* w32 = reinterpret_cast<unsigned*>(words + 4);
  shmem_uint64_atomic_add(words, 5, 0);
  shmem_uint_atomic_fetch_add(w32, 2, 0);
  shmem_barrier_all();
  EXPECT_EQ(shmem_uint64_atomic_fetch(words, 0), 5u * npes_);
  EXPECT_EQ(shmem_uint_atomic_fetch(w32, 0), 2u * npes_);
  shmem_barrier_all();
  if (me_ == npes_ - 1) {
    EXPECT_EQ(shmem_uint64_atomic_compare_swap(words, 5u * npes_, 77, 0), 5u * npes_);
    EXPECT_EQ(shmem_uint64_atomic_swap(words, 78, 0), 77u);
  }
  shmem_barrier_all();
  EXPECT_EQ(shmem_uint64_atomic_fetch(words, 0), 78u);
  // Signals: puts with a set and an add signal into the right neighbour's device heap.
  uint64_t* sig = words + 1;
  uint64_t* ctr = words + 2;
  shmem_putmem_signal(dst, v.data(), 4096, sig, 1000 + me_, SHMEM_SIGNAL_SET, right());
  shmem_putmem_signal(dst + 4096, v.data(), 8, ctr, 3, SHMEM_SIGNAL_ADD, right());
  shmem_barrier_all();
  uint64_t got[2] = {};
  CK(cudaMemcpy(got, sig, 16, cudaMemcpyDeviceToHost));
  EXPECT_EQ(got[0], 1000u + left());
  EXPECT_EQ(got[1], 3u);
  shmem_barrier_all();
  shmem_free(words);
  shmem_free(src);
  shmem_free(dst);
}

TEST_F(Gpu, DeviceRingPutBlockPGAndBarrier) {
  const int n = 100000;
  int* dst = static_cast<int*>(gshmemx_calloc_device(n + 16, sizeof(int)));
  int* src = static_cast<int*>(gshmemx_malloc_device(n * sizeof(int)));
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = me_ * 100000 + i;
  CK(cudaMemcpy(src, v.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int* errors = newErrors();
  shmem_barrier_all();
  ringPutKernel<<<1, 512>>>(dst, src, n, errors);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(*errors, 0);
  shmem_barrier_all();
  shmem_free(src);
  shmem_free(dst);
  cudaFree(errors);
}

template <int S>
__global__ void ceRouteKernel(gshmem::DeviceHandle h, char* dst, const char* src, char* back, size_t n, int right) {
  gshmem::dev::putmem<S>(h, dst, src, n, right, /*nbi=*/true);  // the copy-engine route returns complete
  gshmem::dev::getmem<S>(h, back, dst, n, right);
}

TEST_F(Gpu, LargeDevicePutsAndGetsTakeTheCopyEngineRoute) {
  // DEVICE_CE_MIN: at or above the threshold a device-initiated put/get to a mapped peer goes through the proxy's
  // copy engine. Force it for every size on a copy of the handle and check data at thread, warp and block scope.
  gshmem::DeviceHandle h = gshmem::deviceHandle();
  if (h.ring.slots == nullptr) GTEST_SKIP() << "no proxy ring (GSHMEM_DEVICE_CE_MIN=off and every peer mapped)";
  for (int k = 0; k < 3; ++k) h.ce_min[k] = 4096;
  const size_t n = (1u << 20) + 24;  // not a multiple of anything the copy loops like
  char* dst = static_cast<char*>(gshmemx_calloc_device(n, 1));
  char* src = static_cast<char*>(gshmemx_malloc_device(n));
  char* back = static_cast<char*>(gshmemx_malloc_device(n));
  std::vector<char> v(n), got(n);
  const int right = (me_ + 1) % npes_;
  for (int scope = 0; scope < 3; ++scope) {
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<char>(i * 131 + me_ * 7 + scope);
    CK(cudaMemcpy(src, v.data(), n, cudaMemcpyHostToDevice));
    CK(cudaMemset(back, 0, n));
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    if (scope == 0) ceRouteKernel<gshmem::kScopeThread><<<1, 1>>>(h, dst, src, back, n, right);
    if (scope == 1) ceRouteKernel<gshmem::kScopeWarp><<<1, 32>>>(h, dst, src, back, n, right);
    if (scope == 2) ceRouteKernel<gshmem::kScopeBlock><<<1, 256>>>(h, dst, src, back, n, right);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), back, n, cudaMemcpyDeviceToHost));
    EXPECT_EQ(memcmp(got.data(), v.data(), n), 0) << "scope " << scope << ": what came back differs";
    shmem_barrier_all();  // the left PE's put into my dst is complete
    CK(cudaMemcpy(got.data(), dst, n, cudaMemcpyDeviceToHost));
    const int left = (me_ + npes_ - 1) % npes_;
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) bad += got[i] != static_cast<char>(i * 131 + left * 7 + scope);
    EXPECT_EQ(bad, 0u) << "scope " << scope << ": bytes from the left PE differ";
    shmem_barrier_all();
  }
  shmem_free(back);
  shmem_free(src);
  shmem_free(dst);
}

TEST_F(Gpu, DeviceAtomics) {
  uint64_t* ctr = static_cast<uint64_t*>(gshmemx_calloc_device(1, 64));
  int* ictr = reinterpret_cast<int*>(ctr + 2);
  int* errors = newErrors();
  atomicsKernel<<<1, 64>>>(ctr, ictr, errors);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(*errors, 0);
  shmem_free(ctr);
  cudaFree(errors);
}

TEST_F(Gpu, PutSignalPingPong) {
  if (npes_ != 2) GTEST_SKIP() << "needs 2 PEs";
  char* buf = static_cast<char*>(gshmemx_calloc_device(1, 4096));
  uint64_t* sig = reinterpret_cast<uint64_t*>(buf + 256);
  int* errors = newErrors();
  pingPongKernel<<<1, 1>>>(buf, sig, 200, errors);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(*errors, 0);
  shmem_free(buf);
  cudaFree(errors);
}

TEST_F(Gpu, SmallPutSignalStress) {
  const int blocks = 4, threads = 128, rounds = 6;
  uint64_t* slots = static_cast<uint64_t*>(gshmemx_calloc_device(size_t(rounds) * blocks * threads, 8));
  uint64_t* sig = static_cast<uint64_t*>(gshmemx_calloc_device(1, 64));
  int* errors = newErrors();
  shmem_barrier_all();
  smallSignalStressKernel<<<blocks, threads>>>(slots, sig, rounds, errors);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(*errors, 0);
  shmem_barrier_all();
  shmem_free(sig);
  shmem_free(slots);
  cudaFree(errors);
}

// The bytes of `v` that differ from the pattern char(i * 7 + pe): empty, or how many and where the first and last
// are (which transfer, chunk or tail lost them).
std::string badBytes(const std::vector<char>& v, int pe) {
  size_t bad = 0, first = 0, last = 0;
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] != char(i * 7 + pe)) last = i, first = bad++ ? first : i;
  if (!bad) return "";
  return std::to_string(bad) + " of " + std::to_string(v.size()) + " bytes differ, first at " + std::to_string(first) +
         " (" + std::to_string(int(v[first])) + " for " + std::to_string(int(char(first * 7 + pe))) + "), last at " +
         std::to_string(last);
}

TEST_F(Gpu, StreamOrderedCalls) {
  const size_t small = 3000, big = (size_t(3) << 20) + 100;
  char* dst = static_cast<char*>(gshmemx_calloc_device(1, big + 4096));
  char* src = static_cast<char*>(gshmemx_malloc_device(big));
  uint64_t* sig = reinterpret_cast<uint64_t*>(dst + ((big + 1024) & ~size_t(7)));
  std::vector<char> v(big), back(big);
  for (size_t i = 0; i < big; ++i) v[i] = char(i * 7 + me_);
  CK(cudaMemcpy(src, v.data(), big, cudaMemcpyHostToDevice));
  CK(cudaDeviceSynchronize());  // a copy from pageable memory may still land after it returns; s does not wait for it
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  shmem_barrier_all();
  gshmemx_putmem_on_stream(dst, src, small, right(), s);
  gshmemx_putmem_on_stream(dst + small, src + small, big - small, right(), s);
  gshmemx_barrier_all_on_stream(s);
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy(back.data(), dst, big, cudaMemcpyDeviceToHost));
  EXPECT_EQ(badBytes(back, left()), "") << "what the left neighbour put";
  // get back what I put on the right neighbour
  char* got = nullptr;
  CK(cudaMalloc(&got, big));
  gshmemx_getmem_on_stream(got, dst, big, right(), s);
  gshmemx_quiet_on_stream(s);
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy(back.data(), got, big, cudaMemcpyDeviceToHost));
  EXPECT_EQ(badBytes(back, me_), "") << "what this PE put on the right neighbour, got back";
  // signal: everyone sends 4 KiB with a signal to the right and waits for its own
  gshmemx_barrier_all_on_stream(s);
  gshmemx_putmem_signal_on_stream(dst, src, 4096, sig, 77, GSHMEM_SIGNAL_SET, right(), s);
  gshmemx_signal_wait_until_on_stream(sig, GSHMEM_CMP_EQ, 77, s);
  CK(cudaStreamSynchronize(s));
  uint64_t sv = 0;
  CK(cudaMemcpy(&sv, sig, 8, cudaMemcpyDeviceToHost));
  EXPECT_EQ(sv, 77u);
  gshmemx_barrier_all_on_stream(s);
  CK(cudaStreamSynchronize(s));
  cudaStreamDestroy(s);
  cudaFree(got);
  shmem_free(src);
  shmem_free(dst);
}

TEST_F(Gpu, NvshmemCompatNames) {
  float* dst = static_cast<float*>(nvshmem_malloc(4096));
  uint64_t* sig = reinterpret_cast<uint64_t*>(dst + 64);
  CK(cudaMemset(dst, 0, 4096));
  nvshmem_barrier_all();
  int* errors = newErrors();
  compatKernel<<<1, 1>>>(dst, sig, errors);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(*errors, 0);
  nvshmem_free(dst);
  cudaFree(errors);
}

// NVSHMEM lets host code call the thread-scope RMA, the standard atomics, fence and quiet on symmetric device memory:
// the same names, called from the host here, move the data and apply the atomics.
TEST_F(Gpu, HostCallsOfDeviceRmaAndAtomics) {
  int* buf = static_cast<int*>(gshmemx_calloc_device(64, sizeof(int)));
  long long* ctr = reinterpret_cast<long long*>(buf + 32);
  ASSERT_NE(buf, nullptr);
  shmem_barrier_all();
  nvshmem_int_p(buf, 100 + me_, right());
  const int vals[4] = {me_, me_ + 1, me_ + 2, me_ + 3};
  nvshmem_putmem(buf + 4, vals, sizeof vals, right());
  nvshmem_int_put_nbi(buf + 8, vals, 4, right());
  nvshmem_quiet();
  nvshmem_longlong_atomic_add(ctr, 1, 0);
  const long long before = nvshmem_longlong_atomic_fetch_add(ctr, 10, 0);
  EXPECT_GE(before, 1);
  nvshmem_barrier_all();
  EXPECT_EQ(nvshmem_int_g(buf, me_), 100 + left());
  int got[8] = {};
  nvshmem_getmem(got, buf + 4, 8 * sizeof(int), me_);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], left() + i);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[4 + i], left() + i);
  nvshmem_barrier_all();
  EXPECT_EQ(nvshmem_longlong_atomic_fetch(ctr, 0), 11LL * npes_);
  shmem_barrier_all();
  shmem_free(buf);
}

}  // namespace
