// Device collectives on GSHMEM_TEAM_WORLD: the stream forms (fused one-block path and the multi-block path), the
// host forms, and the device forms at thread, warp and block scope. Each checks every received value on every PE,
// including back-to-back calls on one destination and in-place reductions. Skips without a device heap; the device
// forms skip when a peer's heap is not mapped (GSHMEM_P2P=0), where the stream and host forms take the staged forms.
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <gshmem/gshmem.hpp>
#include <gshmem/nvshmem_compat.h>

#include <cstring>
#include <vector>

#include "pe_test.hpp"

namespace {

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

class GpuColl : public gshmem_test::PeTest {
 protected:
  void SetUp() override {
    PeTest::SetUp();
    if (!gshmemx_device_available()) GTEST_SKIP() << "no device symmetric heap on this PE (no GPU)";
    gshmem::DeviceHandle h = gshmem::deviceHandle();
    for (int pe = 0; pe < h.n_pes && pe < gshmem::kInlinePeers; ++pe) mapped_ = mapped_ && h.peer_base_inline[pe];
    me_ = shmem_my_pe();
    np_ = shmem_n_pes();
  }
  template <typename T>
  T* alloc(size_t n) {
    T* p = static_cast<T*>(gshmemx_malloc_device(n * sizeof(T)));
    EXPECT_NE(p, nullptr);
    return p;
  }
  template <typename T>
  void put(T* d, const std::vector<T>& v) {
    ASSERT_EQ(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  template <typename T>
  std::vector<T> get(const T* d, size_t n) {
    std::vector<T> v(n);
    EXPECT_EQ(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
  }
  /// Runs launch(errors) once on every PE between two barriers: a kernel that counts its failures into *errors.
  /// *count gets the failures (-1 if the count never came back).
  template <class Launch>
  void deviceErrors(Launch launch, int* count) {
    *count = -1;
    int* errors = nullptr;
    CK(cudaMalloc(&errors, sizeof(int)));
    CK(cudaMemset(errors, 0, sizeof(int)));
    CK(cudaDeviceSynchronize());
    shmem_barrier_all();
    launch(errors);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(count, errors, sizeof(int), cudaMemcpyDeviceToHost));
    shmem_barrier_all();
    CK(cudaFree(errors));
  }
  int me_ = 0, np_ = 1;
  bool mapped_ = true;  ///< every peer mapped: the device forms need it; the stream and host forms are staged else
};

/// Value item i of PE pe contributes.
int64_t val(int pe, size_t i) { return static_cast<int64_t>((pe + 1) * 1000 + i % 997); }

TEST_F(GpuColl, StreamReduceEverySizeAndInPlace) {
  // Up to 1000 items: the one-round exchange through the scratch; 3 M items: barriers around a many-block phase.
  const size_t sizes[] = {1, 7, 1000, 3u << 20};
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  int64_t* src = alloc<int64_t>(3u << 20);
  int64_t* dst = alloc<int64_t>(3u << 20);
  for (size_t n : sizes) {
    std::vector<int64_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = val(me_, i);
    put(src, v);
    ASSERT_EQ(gshmemx_int64_sum_reduce_on_stream(GSHMEM_TEAM_WORLD, dst, src, n, s), 0);
    ASSERT_EQ(gshmemx_int64_max_reduce_on_stream(GSHMEM_TEAM_WORLD, src, src, n, s), 0);  // in place
    CK(cudaStreamSynchronize(s));
    std::vector<int64_t> sum = get(dst, n), mx = get(src, n);
    int bad = 0;
    for (size_t i = 0; i < n; ++i) {
      int64_t want = 0;
      for (int pe = 0; pe < np_; ++pe) want += val(pe, i);
      bad += sum[i] != want;
      bad += mx[i] != val(np_ - 1, i);
    }
    EXPECT_EQ(bad, 0) << "n = " << n;
  }
  shmem_free(src);
  shmem_free(dst);
  CK(cudaStreamDestroy(s));
}

TEST_F(GpuColl, StreamOpsAndTypes) {
  const size_t n = 4099;  // not a multiple of the vector width: the scalar tail runs too
  uint64_t* u = alloc<uint64_t>(n);
  uint64_t* r = alloc<uint64_t>(3 * n);
  float* f = alloc<float>(n);
  float* fr = alloc<float>(n);
  std::vector<uint64_t> uv(n);
  std::vector<float> fv(n);
  for (size_t i = 0; i < n; ++i) {
    uv[i] = (uint64_t(1) << (me_ % 64)) | (i << 8);
    fv[i] = static_cast<float>(me_ + 1) * 0.5f + static_cast<float>(i % 5);
  }
  put(u, uv);
  put(f, fv);
  ASSERT_EQ(gshmemx_uint64_or_reduce_on_stream(GSHMEM_TEAM_WORLD, r, u, n, 0), 0);
  ASSERT_EQ(gshmemx_uint64_and_reduce_on_stream(GSHMEM_TEAM_WORLD, r + n, u, n, 0), 0);
  ASSERT_EQ(gshmemx_uint64_xor_reduce_on_stream(GSHMEM_TEAM_WORLD, r + 2 * n, u, n, 0), 0);
  ASSERT_EQ(gshmemx_float_min_reduce_on_stream(GSHMEM_TEAM_WORLD, fr, f, n, 0), 0);
  CK(cudaDeviceSynchronize());
  std::vector<uint64_t> got = get(r, 3 * n);
  std::vector<float> fgot = get(fr, n);
  int bad = 0;
  for (size_t i = 0; i < n; ++i) {
    uint64_t o = 0, a = ~uint64_t(0), x = 0;
    for (int pe = 0; pe < np_; ++pe) {
      const uint64_t w = (uint64_t(1) << (pe % 64)) | (i << 8);
      o |= w, a &= w, x ^= w;
    }
    bad += got[i] != o;
    bad += got[n + i] != a;
    bad += got[2 * n + i] != x;
    bad += fgot[i] != 0.5f + static_cast<float>(i % 5);
  }
  EXPECT_EQ(bad, 0);
  // The host form: blocking, on device memory.
  ASSERT_EQ(gshmem_float_sum_reduce(GSHMEM_TEAM_WORLD, fr, f, n), 0);
  fgot = get(fr, n);
  bad = 0;
  for (size_t i = 0; i < n; ++i) {
    float want = 0;
    for (int pe = 0; pe < np_; ++pe) want += static_cast<float>(pe + 1) * 0.5f + static_cast<float>(i % 5);
    bad += fgot[i] != want;
  }
  EXPECT_EQ(bad, 0);
  for (void* p : {static_cast<void*>(u), static_cast<void*>(r), static_cast<void*>(f), static_cast<void*>(fr)})
    shmem_free(p);
}

TEST_F(GpuColl, StreamReducescatterBroadcastFcollectAlltoall) {
  const size_t counts[] = {3, 40000, 2500000};  // items per PE: one-round exchanges, then barriers around a data phase
  for (size_t n : counts) {
    int32_t* src = alloc<int32_t>(n * np_);
    int32_t* dst = alloc<int32_t>(n * np_);
    std::vector<int32_t> v(n * np_);
    for (size_t i = 0; i < v.size(); ++i) v[i] = me_ * 1000003 + static_cast<int32_t>(i);
    put(src, v);
    ASSERT_EQ(gshmemx_int32_sum_reducescatter_on_stream(GSHMEM_TEAM_WORLD, dst, src, n, 0), 0);
    CK(cudaDeviceSynchronize());
    std::vector<int32_t> got = get(dst, n);
    int bad = 0;
    for (size_t i = 0; i < n; ++i) {
      int32_t want = 0;
      for (int pe = 0; pe < np_; ++pe) want += pe * 1000003 + static_cast<int32_t>(me_ * n + i);
      bad += got[i] != want;
    }
    EXPECT_EQ(bad, 0) << "reducescatter n = " << n;
    const int root = np_ - 1;
    ASSERT_EQ(gshmemx_int32_broadcast_on_stream(GSHMEM_TEAM_WORLD, dst, src, n, root, 0), 0);
    CK(cudaDeviceSynchronize());
    got = get(dst, n);
    bad = 0;
    for (size_t i = 0; i < n; ++i) bad += got[i] != root * 1000003 + static_cast<int32_t>(i);
    EXPECT_EQ(bad, 0) << "broadcast n = " << n;
    ASSERT_EQ(gshmemx_int32_fcollect_on_stream(GSHMEM_TEAM_WORLD, dst, src, n, 0), 0);
    CK(cudaDeviceSynchronize());
    got = get(dst, n * np_);
    bad = 0;
    for (int pe = 0; pe < np_; ++pe)
      for (size_t i = 0; i < n; ++i) bad += got[pe * n + i] != pe * 1000003 + static_cast<int32_t>(i);
    EXPECT_EQ(bad, 0) << "fcollect n = " << n;
    ASSERT_EQ(gshmemx_int32_alltoall_on_stream(GSHMEM_TEAM_WORLD, dst, src, n, 0), 0);
    CK(cudaDeviceSynchronize());
    got = get(dst, n * np_);
    bad = 0;
    for (int pe = 0; pe < np_; ++pe)
      for (size_t i = 0; i < n; ++i) bad += got[pe * n + i] != pe * 1000003 + static_cast<int32_t>(me_ * n + i);
    EXPECT_EQ(bad, 0) << "alltoall n = " << n;
    shmem_free(src);
    shmem_free(dst);
  }
}
// Reductions above a scratch slot called back to back on one stream with one dest, no host synchronization
// between them (on two PEs: the direct form, where the peer writes into this PE's dest): each call's result is
// copied aside on the stream before the next call overwrites it. Odd counts put the halves off 16-byte boundaries.
TEST_F(GpuColl, StreamLargeReductionsBackToBack) {
  const size_t n = (3u << 20) + 5;  // items per PE: 12 MiB of int32, above a slot
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  int32_t* src = alloc<int32_t>(n * np_);
  int32_t* dst = alloc<int32_t>(n);
  int32_t* keep = nullptr;
  CK(cudaMalloc(&keep, 4 * n * sizeof(int32_t)));
  std::vector<int32_t> v(n * np_);
  for (size_t i = 0; i < v.size(); ++i) v[i] = me_ * 7919 + static_cast<int32_t>(i % 100003);
  put(src, v);
  for (int r = 0; r < 4; ++r) {  // reduce, reducescatter, reduce, reducescatter
    if (r % 2 == 0)
      ASSERT_EQ(gshmemx_int32_sum_reduce_on_stream(GSHMEM_TEAM_WORLD, dst, src + r, n - 4, s), 0);
    else
      ASSERT_EQ(gshmemx_int32_max_reducescatter_on_stream(GSHMEM_TEAM_WORLD, dst, src, n, s), 0);
    CK(cudaMemcpyAsync(keep + r * n, dst, n * sizeof(int32_t), cudaMemcpyDeviceToDevice, s));
  }
  CK(cudaStreamSynchronize(s));
  std::vector<int32_t> got = get(keep, 4 * n);
  for (int r = 0; r < 4; ++r) {
    int bad = 0;
    for (size_t i = 0; i < (r % 2 == 0 ? n - 4 : n); ++i) {
      int32_t want = r % 2 == 0 ? 0 : INT32_MIN;
      for (int pe = 0; pe < np_; ++pe) {
        const int32_t x = pe * 7919 + static_cast<int32_t>((r % 2 == 0 ? i + r : me_ * n + i) % 100003);
        want = r % 2 == 0 ? want + x : (x > want ? x : want);
      }
      bad += got[r * n + i] != want;
    }
    EXPECT_EQ(bad, 0) << (r % 2 == 0 ? "reduce" : "reducescatter") << " call " << r;
  }
  CK(cudaFree(keep));
  shmem_free(src);
  shmem_free(dst);
  CK(cudaStreamDestroy(s));
}


/// Small calls take the low-latency exchange (4 data bytes per 8-byte store): items of 1 and 2 bytes, counts that
/// end inside a 4-byte unit, and byte counts and source addresses that are not multiples of 4.
TEST_F(GpuColl, StreamSmallTypesAndOddBytes) {
  cudaStream_t s = nullptr;
  CK(cudaStreamCreate(&s));
  int8_t* b8 = alloc<int8_t>(4096);
  int16_t* b16 = alloc<int16_t>(4096);
  unsigned char* raw = alloc<unsigned char>(8192);
  unsigned char* out = alloc<unsigned char>(8192 * 4);
  for (size_t n : {size_t(1), size_t(2), size_t(3), size_t(5), size_t(13), size_t(1001)}) {
    std::vector<int8_t> v8(n);
    std::vector<int16_t> v16(n);
    for (size_t i = 0; i < n; ++i)
      v8[i] = static_cast<int8_t>(me_ + i % 7), v16[i] = static_cast<int16_t>(me_ * 100 + i);
    put(b8, v8);
    put(b16, v16);
    ASSERT_EQ(gshmemx_int8_sum_reduce_on_stream(GSHMEM_TEAM_WORLD, b8 + 2048, b8, n, s), 0);
    ASSERT_EQ(gshmemx_int16_max_reduce_on_stream(GSHMEM_TEAM_WORLD, b16, b16, n, s), 0);  // in place
    CK(cudaStreamSynchronize(s));
    const std::vector<int8_t> r8 = get(b8 + 2048, n);
    const std::vector<int16_t> r16 = get(b16, n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(r8[i], static_cast<int8_t>(np_ * (np_ - 1) / 2 + np_ * static_cast<int>(i % 7))) << "n " << n;
      ASSERT_EQ(r16[i], static_cast<int16_t>((np_ - 1) * 100 + i)) << "n " << n << " i " << i;
    }
    // Byte collectives from an odd source address.
    std::vector<unsigned char> v(n * np_ + 1);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<unsigned char>(me_ * 31 + i);
    put(raw, v);
    ASSERT_EQ(gshmemx_fcollectmem_on_stream(GSHMEM_TEAM_WORLD, out, raw + 1, n, s), 0);
    CK(cudaStreamSynchronize(s));
    std::vector<unsigned char> g = get(out, n * np_);
    for (int pe = 0; pe < np_; ++pe)
      for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(g[pe * n + i], static_cast<unsigned char>(pe * 31 + i + 1)) << "fcollect n " << n << " PE " << pe;
    ASSERT_EQ(gshmemx_broadcastmem_on_stream(GSHMEM_TEAM_WORLD, out + 3, raw + 1, n, np_ - 1, s), 0);
    CK(cudaStreamSynchronize(s));
    g = get(out + 3, n);
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(g[i], static_cast<unsigned char>((np_ - 1) * 31 + i + 1)) << "broadcast n " << n << " i " << i;
    {
      ASSERT_EQ(gshmemx_alltoallmem_on_stream(GSHMEM_TEAM_WORLD, out, raw + 1, n, s), 0);
      CK(cudaStreamSynchronize(s));
      g = get(out, n * np_);
      for (int pe = 0; pe < np_; ++pe)
        for (size_t i = 0; i < n; ++i)  // block me_ of PE pe's source: PE pe's bytes from index me_ * n + 1
          ASSERT_EQ(g[pe * n + i], static_cast<unsigned char>(pe * 31 + me_ * n + i + 1)) << "alltoall n " << n;
    }
    shmem_barrier_all();
  }
  CK(cudaStreamDestroy(s));
  shmem_free(out), shmem_free(raw), shmem_free(b16), shmem_free(b8);
}

/// Device forms, one group per PE: block-scope reductions back to back on one destination (each result checked
/// before the next call overwrites it), a warp-scope fcollect, a thread-scope broadcast and team barriers.
__global__ void deviceCollKernel(int* src, int* dst, int n, int iters, int* errors) {
  const int me = nvshmem_my_pe(), np = nvshmem_n_pes();
  for (int it = 0; it < iters; ++it) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) src[i] = (me + 1) * (it + 1) + i;
    __syncthreads();
    gshmemx_int_sum_reduce_block(GSHMEM_TEAM_WORLD, dst, src, n);
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      if (dst[i] != (np * (np + 1) / 2) * (it + 1) + np * i) atomicAdd(errors, 1);
    __syncthreads();
  }
  if (threadIdx.x < 32) gshmemx_int_fcollect_warp(GSHMEM_TEAM_WORLD, dst, src, n);
  __syncthreads();
  for (int i = threadIdx.x; i < n * np; i += blockDim.x)
    if (dst[i] != (i / n + 1) * iters + i % n) atomicAdd(errors, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    gshmem_barrier(GSHMEM_TEAM_WORLD);
    gshmem_int_broadcast(GSHMEM_TEAM_WORLD, dst, src, n, 0);
    for (int i = 0; i < n; ++i)
      if (dst[i] != iters + i) atomicAdd(errors, 1);
    gshmem_team_sync(GSHMEM_TEAM_WORLD);
  }
}

TEST_F(GpuColl, DeviceFormsAtEveryScope) {
  if (!mapped_) GTEST_SKIP() << "a peer's device heap is not mapped here (the device forms need P2P)";
  const int n = 1000, iters = 20;
  int* src = alloc<int>(n);
  int* dst = alloc<int>(n * np_);
  int e = -1;
  deviceErrors([&](int* errors) { deviceCollKernel<<<1, 256>>>(src, dst, n, iters, errors); }, &e);
  EXPECT_EQ(e, 0);
  shmem_free(src);
  shmem_free(dst);
}

/// Device broadcast (rotating root), fcollect and alltoall back to back on one dest with no barrier between calls:
/// each PE checks each result before its next call, whose data differ (a sender writes a dest only after its owner
/// entered the call).
__global__ void deviceMoversKernel(int* src, int* dst, int n, int iters, int* errors) {
  const int me = nvshmem_my_pe(), np = nvshmem_n_pes();
  for (int it = 0; it < iters; ++it) {
    for (int i = threadIdx.x; i < n * np; i += blockDim.x) src[i] = it * 100000 + me * 1000 + i;
    __syncthreads();
    const int root = it % np;
    gshmemx_int_broadcast_block(GSHMEM_TEAM_WORLD, dst, src, n, root);
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      if (dst[i] != it * 100000 + root * 1000 + i) atomicAdd(errors, 1);
    __syncthreads();
    gshmemx_int_fcollect_block(GSHMEM_TEAM_WORLD, dst, src, n);
    for (int i = threadIdx.x; i < n * np; i += blockDim.x)
      if (dst[i] != it * 100000 + (i / n) * 1000 + i % n) atomicAdd(errors, 1);
    __syncthreads();
    gshmemx_int_alltoall_block(GSHMEM_TEAM_WORLD, dst, src, n);
    for (int i = threadIdx.x; i < n * np; i += blockDim.x)  // block me of PE (i / n)'s source
      if (dst[i] != it * 100000 + (i / n) * 1000 + me * n + i % n) atomicAdd(errors, 1);
    __syncthreads();
  }
}

TEST_F(GpuColl, DeviceMoversBackToBack) {
  if (!mapped_) GTEST_SKIP() << "a peer's device heap is not mapped here (the device forms need P2P)";
  const int n = 37, iters = 200;
  int* src = alloc<int>(n * np_);
  int* dst = alloc<int>(n * np_);
  int e = -1;
  deviceErrors([&](int* errors) { deviceMoversKernel<<<1, 128>>>(src, dst, n, iters, errors); }, &e);
  EXPECT_EQ(e, 0);
  shmem_free(src);
  shmem_free(dst);
}

TEST_F(GpuColl, StreamBarrierOrdersPuts) {
  int* box = alloc<int>(np_);
  CK(cudaMemset(box, 0, np_ * sizeof(int)));
  CK(cudaDeviceSynchronize());  // the memset is asynchronous: it must not land after a peer's put
  shmem_barrier_all();
  const int v = 100 + me_;
  int* hv = nullptr;
  CK(cudaMalloc(&hv, sizeof(int)));
  CK(cudaMemcpy(hv, &v, sizeof(int), cudaMemcpyHostToDevice));
  for (int pe = 0; pe < np_; ++pe) gshmemx_putmem_on_stream(box + me_, hv, sizeof(int), pe, 0);
  gshmemx_barrier_on_stream(GSHMEM_TEAM_WORLD, 0);
  CK(cudaDeviceSynchronize());
  std::vector<int> got = get(box, np_);
  for (int pe = 0; pe < np_; ++pe) EXPECT_EQ(got[pe], 100 + pe);
  CK(cudaFree(hv));
  shmem_free(box);
}

/// NVSHMEM's names for the same collectives, through the compatibility header.
__global__ void nvshmemNamesKernel(float* src, float* dst, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) src[i] = static_cast<float>(nvshmem_my_pe() + 1);
  __syncthreads();
  nvshmemx_float_max_reduce_block(NVSHMEM_TEAM_WORLD, dst, src, n);
  if (threadIdx.x == 0) nvshmem_barrier(NVSHMEM_TEAM_WORLD);
}

TEST_F(GpuColl, NvshmemNamesForward) {
  if (!mapped_) GTEST_SKIP() << "a peer's device heap is not mapped here (the device forms need P2P)";
  const int n = 300;
  float* src = alloc<float>(n * np_);
  float* dst = alloc<float>(n * np_);
  EXPECT_EQ(nvshmem_team_n_pes(NVSHMEM_TEAM_WORLD), np_);
  EXPECT_EQ(nvshmem_team_my_pe(NVSHMEM_TEAM_WORLD), me_);
  nvshmemNamesKernel<<<1, 128>>>(src, dst, n);
  CK(cudaDeviceSynchronize());
  std::vector<float> got = get(dst, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], static_cast<float>(np_)) << i;
  ASSERT_EQ(nvshmem_float_sum_reduce(NVSHMEM_TEAM_WORLD, dst, src, n), 0);  // host form
  got = get(dst, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], static_cast<float>(np_ * (np_ + 1) / 2)) << i;
  ASSERT_EQ(nvshmemx_float_fcollect_on_stream(NVSHMEM_TEAM_WORLD, dst, src, n, 0), 0);
  CK(cudaDeviceSynchronize());
  got = get(dst, n * np_);
  for (int i = 0; i < n * np_; ++i) ASSERT_EQ(got[i], static_cast<float>(i / n + 1)) << i;
  shmem_free(src);
  shmem_free(dst);
}

}  // namespace
