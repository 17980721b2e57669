// Device collectives on teams other than the world, one test per team shape (team_shapes.hpp: even PEs, odd PEs
// highest first, the world reversed, every PE alone, the rows and the columns of a 2-D split, the node team): every
// collective at thread, warp and block scope from a kernel, then the stream and host forms, each result checked on
// every member. Skips on every PE without a device heap, or when the shape cannot be formed at this PE count; the
// device forms skip when a PE's heap is not mapped (GSHMEM_P2P=0), where the stream and host forms are staged.
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <gshmem/gshmem.hpp>
#include <gshmem/nvshmem_compat.h>

#include <algorithm>
#include <vector>

#include "gpu/team_shapes.hpp"
#include "pe_test.hpp"

namespace gshmem_test {
namespace {

// ASSERT outside the members' branch; EXPECT inside it, where an early return would skip the collectives after it.
#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x
#define EK(x) EXPECT_EQ((x), cudaSuccess) << #x

/// Value item i of world PE pe's source holds.
int val(int pe, size_t i) { return (pe + 1) * 100000 + static_cast<int>(i % 99991); }

struct Bufs {
  int* src;  ///< team size * max count items
  int* red;  ///< sum reduce
  int* mx;   ///< max reduce
  int* rs;   ///< sum reducescatter
  int* bc;   ///< broadcast
  int* fc;   ///< fcollect
  int* a2a;  ///< alltoall
};

/// Every collective on `team`, once, by the calling group of scope S; then the team queries by thread 0 into q:
/// my_pe, n_pes, translate(world me -> team), translate(team k -> world) for k < n_pes, translate(team n_pes ->
/// world) (out of range: -1).
template <int S>
__global__ void collKernel(gshmem_team_t team, Bufs b, int cnt, int root, int me, int* q) {
  if (S == gshmem::kScopeThread && threadIdx.x != 0) return;
  if (S == gshmem::kScopeWarp && threadIdx.x >= 32) return;
  if constexpr (S == gshmem::kScopeThread) {
    gshmem_barrier(team);
    gshmem_int_sum_reduce(team, b.red, b.src, cnt);
    gshmem_int_max_reduce(team, b.mx, b.src, cnt);
    gshmem_int_sum_reducescatter(team, b.rs, b.src, cnt);
    gshmem_int_broadcast(team, b.bc, b.src, cnt, root);
    gshmem_int_fcollect(team, b.fc, b.src, cnt);
    gshmem_int_alltoall(team, b.a2a, b.src, cnt);
    gshmem_team_sync(team);
  } else if constexpr (S == gshmem::kScopeWarp) {
    gshmemx_barrier_warp(team);
    gshmemx_int_sum_reduce_warp(team, b.red, b.src, cnt);
    gshmemx_int_max_reduce_warp(team, b.mx, b.src, cnt);
    gshmemx_int_sum_reducescatter_warp(team, b.rs, b.src, cnt);
    gshmemx_int_broadcast_warp(team, b.bc, b.src, cnt, root);
    gshmemx_int_fcollect_warp(team, b.fc, b.src, cnt);
    gshmemx_int_alltoall_warp(team, b.a2a, b.src, cnt);
    gshmemx_team_sync_warp(team);
  } else {  // block scope through the NVSHMEM names
    nvshmemx_barrier_block(team);
    nvshmemx_int_sum_reduce_block(team, b.red, b.src, cnt);
    nvshmemx_int_max_reduce_block(team, b.mx, b.src, cnt);
    nvshmemx_int_sum_reducescatter_block(team, b.rs, b.src, cnt);
    nvshmemx_int_broadcast_block(team, b.bc, b.src, cnt, root);
    nvshmemx_int_fcollect_block(team, b.fc, b.src, cnt);
    nvshmemx_int_alltoall_block(team, b.a2a, b.src, cnt);
    nvshmemx_team_sync_block(team);
  }
  if (threadIdx.x == 0) {
    const int n = gshmem_team_n_pes(team);
    q[0] = gshmem_team_my_pe(team);
    q[1] = n;
    q[2] = nvshmem_team_translate_pe(NVSHMEM_TEAM_WORLD, me, team);
    for (int k = 0; k <= n && n > 0; ++k) q[3 + k] = gshmem_team_translate_pe(team, k, GSHMEM_TEAM_WORLD);
  }
}

class GpuTeamColl : public PeTest, public ::testing::WithParamInterface<Shape> {
 protected:
  void SetUp() override {
    PeTest::SetUp();
    if (!allPesAgree(gshmemx_device_available() != 0)) GTEST_SKIP() << "no device symmetric heap on some PE";
    bool mapped = true;  // the device forms need every PE mapped; the stream and host forms do not
    const gshmem::DeviceHandle h = gshmem::deviceHandle();
    for (int pe = 0; pe < h.n_pes && pe < gshmem::kInlinePeers; ++pe) mapped &= h.peer_base_inline[pe] != nullptr;
    mapped_ = allPesAgree(mapped);
    if (!shapeFormable(GetParam(), npes_)) GTEST_SKIP() << shapeName(GetParam()) << " needs more PEs";
  }
  template <typename T>
  static T* alloc(size_t n) {
    T* p = static_cast<T*>(gshmemx_malloc_device(n * sizeof(T)));
    EXPECT_NE(p, nullptr);
    return p;
  }
  static std::vector<int> get(const int* d, size_t n) {
    std::vector<int> v(n);
    EXPECT_EQ(cudaMemcpy(v.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
  }
  /// Fill this PE's source: n items.
  void fill(int* src, size_t n) {
    std::vector<int> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = val(me_, i);
    ASSERT_EQ(cudaMemcpy(src, v.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  }
  Bufs allocBufs(size_t cnt) {  // collective over the world
    const size_t all = cnt * npes_;
    return Bufs{alloc<int>(all), alloc<int>(cnt), alloc<int>(cnt), alloc<int>(cnt), alloc<int>(cnt),
                alloc<int>(all), alloc<int>(all)};
  }
  static void freeBufs(const Bufs& b) {
    for (int* p : {b.src, b.red, b.mx, b.rs, b.bc, b.fc, b.a2a}) shmem_free(p);
  }
  /// Check every result of one round of collectives on team t with cnt items per member.
  static void expectResults(const ShapeTeam& t, const Bufs& b, size_t cnt, int root, const char* what) {
    const size_t n = static_cast<size_t>(t.size);
    const std::vector<int> red = get(b.red, cnt), mx = get(b.mx, cnt), rs = get(b.rs, cnt), bc = get(b.bc, cnt);
    const std::vector<int> fc = get(b.fc, n * cnt), a2a = get(b.a2a, n * cnt);
    auto sum = [&](size_t i) {
      int s = 0;
      for (int k = 0; k < t.size; ++k) s += val(t.pe(k), i);
      return s;
    };
    auto maxOf = [&](size_t i) {
      int m = val(t.pe(0), i);
      for (int k = 1; k < t.size; ++k) m = std::max(m, val(t.pe(k), i));
      return m;
    };
    SCOPED_TRACE(::testing::Message() << what << ", " << cnt << " items, team of " << t.size);
    GSHMEM_EXPECT_ALL(cnt, i, red[i] == sum(i));
    GSHMEM_EXPECT_ALL(cnt, i, mx[i] == maxOf(i));
    GSHMEM_EXPECT_ALL(cnt, i, rs[i] == sum(t.my_index * cnt + i));
    GSHMEM_EXPECT_ALL(cnt, i, bc[i] == val(t.pe(root), i));
    GSHMEM_EXPECT_ALL(n * cnt, i, fc[i] == val(t.pe(static_cast<int>(i / cnt)), i % cnt));
    GSHMEM_EXPECT_ALL(n * cnt, i, a2a[i] == val(t.pe(static_cast<int>(i / cnt)), t.my_index * cnt + i % cnt));
  }
  bool mapped_ = true;
};

template <int S>
void runDevice(const ShapeTeam& t, const Bufs& b, int cnt, int root, int me, int* q) {
  collKernel<S><<<1, 256>>>(t.id, b, cnt, root, me, q);
}

TEST_P(GpuTeamColl, DeviceFormsAtEveryScope) {
  if (!mapped_) GTEST_SKIP() << "some PE's device heap is not mapped (the device forms need P2P)";
  const int counts[] = {37, 1000};  // a scalar tail; 16-byte vectors
  const size_t most = 1000;
  Bufs b = allocBufs(most);
  int* q = nullptr;
  CK(cudaMalloc(&q, sizeof(int) * (4 + npes_)));
  const ShapeTeam t = shapeMake(GetParam(), me_, npes_);
  if (t.member()) {
    const int root = t.size - 1;
    fill(b.src, most * npes_);
    for (int scope = 0; scope < 3; ++scope) {
      for (int cnt : counts) {
        EK(cudaMemset(q, 0xff, sizeof(int) * (4 + npes_)));
        if (scope == 0) runDevice<gshmem::kScopeThread>(t, b, cnt, root, me_, q);
        if (scope == 1) runDevice<gshmem::kScopeWarp>(t, b, cnt, root, me_, q);
        if (scope == 2) runDevice<gshmem::kScopeBlock>(t, b, cnt, root, me_, q);
        EK(cudaDeviceSynchronize());
        const char* names[] = {"thread scope", "warp scope", "block scope"};
        expectResults(t, b, cnt, root, names[scope]);
        const std::vector<int> got = get(q, 4 + t.size);
        EXPECT_EQ(got[0], t.my_index);
        EXPECT_EQ(got[1], t.size);
        EXPECT_EQ(got[2], t.my_index);
        for (int k = 0; k < t.size; ++k) EXPECT_EQ(got[3 + k], t.pe(k)) << "member " << k;
        EXPECT_EQ(got[3 + t.size], -1) << "member past the end";
      }
    }
    // The host queries answer as the device's.
    EXPECT_EQ(gshmem_team_my_pe(t.id), t.my_index);
    EXPECT_EQ(nvshmem_team_n_pes(t.id), t.size);
    for (int k = 0; k < t.size; ++k) EXPECT_EQ(nvshmem_team_translate_pe(t.id, k, NVSHMEM_TEAM_WORLD), t.pe(k));
  }
  shmem_barrier_all();
  shapeDestroy(t);
  CK(cudaFree(q));
  freeBufs(b);
}

TEST_P(GpuTeamColl, StreamAndHostForms) {
  // 37 items: small; 300000 (1.2 MB per member): the data phase over many blocks.
  const size_t counts[] = {37, 300000};
  const size_t most = 300000;
  Bufs b = allocBufs(most);
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const ShapeTeam t = shapeMake(GetParam(), me_, npes_);
  if (t.member()) {
    const int root = t.size / 2;
    fill(b.src, most * npes_);
    for (size_t cnt : counts) {
      gshmemx_team_sync_on_stream(t.id, s);
      EXPECT_EQ(gshmemx_int_sum_reduce_on_stream(t.id, b.red, b.src, cnt, s), 0);
      EXPECT_EQ(nvshmemx_int_max_reduce_on_stream(t.id, b.mx, b.src, cnt, s), 0);
      EXPECT_EQ(gshmemx_int_sum_reducescatter_on_stream(t.id, b.rs, b.src, cnt, s), 0);
      EXPECT_EQ(gshmemx_int_broadcast_on_stream(t.id, b.bc, b.src, cnt, root, s), 0);
      EXPECT_EQ(gshmemx_int_fcollect_on_stream(t.id, b.fc, b.src, cnt, s), 0);
      EXPECT_EQ(nvshmemx_int_alltoall_on_stream(t.id, b.a2a, b.src, cnt, s), 0);
      gshmemx_barrier_on_stream(t.id, s);
      EK(cudaStreamSynchronize(s));
      expectResults(t, b, cnt, root, "stream forms");
    }
    // The host forms: blocking, on device memory (in place for the reduction).
    EK(cudaMemcpy(b.red, b.src, 37 * sizeof(int), cudaMemcpyDeviceToDevice));
    gshmem_team_sync(t.id);
    EXPECT_EQ(nvshmem_int_sum_reduce(t.id, b.red, b.red, 37), 0);
    const std::vector<int> red = get(b.red, 37);
    auto sum = [&](size_t i) {
      int r = 0;
      for (int k = 0; k < t.size; ++k) r += val(t.pe(k), i);
      return r;
    };
    GSHMEM_EXPECT_ALL(37, i, red[i] == sum(i));
    nvshmem_barrier(t.id);
  }
  shmem_barrier_all();
  shapeDestroy(t);
  CK(cudaStreamDestroy(s));
  freeBufs(b);
}

INSTANTIATE_TEST_SUITE_P(Shapes, GpuTeamColl,
                         ::testing::Values(Shape::Even, Shape::OddReversed, Shape::ReversedWorld, Shape::Single,
                                           Shape::Pairs, Shape::Columns, Shape::Node),
                         [](const ::testing::TestParamInfo<Shape>& i) { return shapeName(i.param); });

}  // namespace
}  // namespace gshmem_test
