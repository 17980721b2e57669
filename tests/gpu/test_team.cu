// Device teams: the predefined teams and invalid ids queried on the device and the host alike, a team id reused
// after its team is destroyed (its synchronization words start again from zero), team barriers that order device
// puts, P2P or through the proxy (these run with GSHMEM_P2P=0 too), and a team made from a unique id. Skip on every PE without a device heap.
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include <gshmem/gshmem.hpp>
#include <gshmem/nvshmem_compat.h>

#include <vector>

#include "gpu/team_shapes.hpp"
#include "pe_test.hpp"

namespace gshmem_test {
namespace {

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x
#define EK(x) EXPECT_EQ((x), cudaSuccess) << #x

class GpuTeam : public PeTest {
 protected:
  void SetUp() override {
    PeTest::SetUp();
    if (!allPesAgree(gshmemx_device_available() != 0)) GTEST_SKIP() << "no device symmetric heap on some PE";
  }
  static std::vector<int> get(const int* d, size_t n) {
    std::vector<int> v(n);
    EXPECT_EQ(cudaMemcpy(v.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
  }
};

constexpr int kQueryTeams = 6;  ///< world, shared, node, same-mype-node, an unused id, an id out of range
__host__ __device__ inline gshmem_team_t queryTeam(int i) {
  const gshmem_team_t ids[kQueryTeams] = {NVSHMEM_TEAM_WORLD, NVSHMEM_TEAM_SHARED, NVSHMEMX_TEAM_NODE,
                                          NVSHMEMX_TEAM_SAME_MYPE_NODE, GSHMEMI_TEAM_IDS - 1, GSHMEMI_TEAM_IDS};
  return ids[i];
}
/// Per team: my_pe, n_pes, then translate(team k -> world) for k < npes + 1, in rows of 2 + npes + 1.
__host__ __device__ inline void queryRow(int i, int npes, int* row) {
  const gshmem_team_t t = queryTeam(i);
  row[0] = nvshmem_team_my_pe(t);
  row[1] = nvshmem_team_n_pes(t);
  for (int k = 0; k <= npes; ++k) row[2 + k] = nvshmem_team_translate_pe(t, k, NVSHMEM_TEAM_WORLD);
}
__global__ void queryKernel(int npes, int* out) {
  for (int i = 0; i < kQueryTeams; ++i) queryRow(i, npes, out + i * (3 + npes));
}

TEST_F(GpuTeam, PredefinedTeamsAndInvalidIdsOnDeviceAndHost) {
  const int row = 3 + npes_;
  int* d = nullptr;
  CK(cudaMalloc(&d, sizeof(int) * row * kQueryTeams));
  queryKernel<<<1, 1>>>(npes_, d);
  CK(cudaDeviceSynchronize());
  const std::vector<int> dev = get(d, row * kQueryTeams);
  std::vector<int> host(row * kQueryTeams);
  for (int i = 0; i < kQueryTeams; ++i) queryRow(i, npes_, host.data() + i * row);
  EXPECT_EQ(dev, host);
  // The world: everyone in order. The node team holds this PE; so does SAME_MYPE_NODE, once per node.
  EXPECT_EQ(host[0], me_);
  EXPECT_EQ(host[1], npes_);
  for (int k = 0; k < npes_; ++k) EXPECT_EQ(host[2 + k], k);
  for (int i = 1; i <= 3; ++i) {
    const int* r = host.data() + i * row;
    EXPECT_GE(r[0], 0) << "team " << queryTeam(i);
    EXPECT_GE(r[1], 1) << "team " << queryTeam(i);
    if (r[0] >= 0) EXPECT_EQ(r[2 + r[0]], me_) << "team " << queryTeam(i);
  }
  for (int i = 4; i < kQueryTeams; ++i) {  // no team of this id: -1 everywhere
    const int* r = host.data() + i * row;
    for (int k = 0; k < row; ++k) EXPECT_EQ(r[k], -1) << "team " << queryTeam(i) << " entry " << k;
  }
  EXPECT_EQ(nvshmem_team_n_pes(NVSHMEM_TEAM_INVALID), -1);
  CK(cudaFree(d));
}

/// Member `me` of `team` stores r into box[me] of every member, then the team barrier; every box must then hold r.
/// The sync after the check keeps the next round's stores out until every member has checked. Scope: one thread,
/// or the whole block (block-scope barriers).
__global__ void barrierRoundsKernel(gshmem_team_t team, int* box, int rounds, int block_scope, int* errors) {
  const int me = gshmem_team_my_pe(team), n = gshmem_team_n_pes(team);
  for (int r = 1; r <= rounds; ++r) {
    if (threadIdx.x == 0)
      for (int k = 0; k < n; ++k) gshmem_int_p(box + me, r, gshmem_team_translate_pe(team, k, GSHMEM_TEAM_WORLD));
    if (block_scope) {
      gshmemx_barrier_block(team);
    } else {
      if (threadIdx.x == 0) gshmem_barrier(team);
      __syncthreads();
    }
    for (int k = threadIdx.x; k < n; k += blockDim.x)
      if (gshmem::dev::detail::ldAcquire(box + k) != r) atomicAdd(errors, 1);
    if (block_scope) {
      gshmemx_team_sync_block(team);
    } else {
      __syncthreads();
      if (threadIdx.x == 0) gshmem_team_sync(team);
      __syncthreads();
    }
  }
}

TEST_F(GpuTeam, TeamBarriersOrderPutsP2pOrProxy) {
  int* box = static_cast<int*>(gshmemx_calloc_device(npes_, sizeof(int)));
  ASSERT_NE(box, nullptr);
  int* errors = nullptr;
  CK(cudaMalloc(&errors, sizeof(int)));
  CK(cudaMemset(errors, 0, sizeof(int)));
  for (Shape s : {Shape::ReversedWorld, Shape::OddReversed, Shape::Pairs}) {
    if (!shapeFormable(s, npes_)) continue;  // the same on every PE
    const ShapeTeam t = shapeMake(s, me_, npes_);
    if (t.member()) {
      EK(cudaMemset(box, 0, sizeof(int) * npes_));
      EK(cudaDeviceSynchronize());
      gshmem_team_sync(t.id);  // host form: every member's box is clear before any store
      barrierRoundsKernel<<<1, 64>>>(t.id, box, 8, 0, errors);
      barrierRoundsKernel<<<1, 64>>>(t.id, box, 8, 1, errors);
      EK(cudaDeviceSynchronize());
    }
    shmem_barrier_all();
    shapeDestroy(t);
  }
  int e = -1;
  CK(cudaMemcpy(&e, errors, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(e, 0);
  CK(cudaFree(errors));
  shmem_free(box);
}

__global__ void teamQueryKernel(nvshmem_team_t t, int* out) {
  out[0] = nvshmem_team_my_pe(t);
  out[1] = nvshmem_team_n_pes(t);
  out[2] = nvshmem_team_translate_pe(t, 0, NVSHMEM_TEAM_WORLD);
}

TEST_F(GpuTeam, InitFromUniqueIdIsATeamOnTheDevice) {
  // Every PE, highest first, from an id made on PE 0 and handed out through symmetric memory (NVSHMEM's
  // nvshmemx_team_get_uniqueid + nvshmemx_team_init); then device queries, a stream reduction and a stream barrier.
  static nvshmemx_team_uniqueid_t uid;
  if (me_ == 0) {
    ASSERT_EQ(nvshmemx_team_get_uniqueid(&uid), 0);
    for (int pe = 0; pe < npes_; ++pe) shmem_putmem(&uid, &uid, sizeof uid, pe);
  }
  shmem_barrier_all();
  nvshmem_team_config_t config{};
  config.uniqueid = uid;
  nvshmem_team_t t = NVSHMEM_TEAM_INVALID;
  ASSERT_EQ(nvshmemx_team_init(&t, &config, 0, npes_, npes_ - 1 - me_), 0);
  ASSERT_NE(t, NVSHMEM_TEAM_INVALID);
  int* q = nullptr;
  CK(cudaMalloc(&q, 3 * sizeof(int)));
  teamQueryKernel<<<1, 1>>>(t, q);
  CK(cudaDeviceSynchronize());
  const std::vector<int> got = get(q, 3);
  EXPECT_EQ(got[0], npes_ - 1 - me_);
  EXPECT_EQ(got[1], npes_);
  EXPECT_EQ(got[2], npes_ - 1);
  int* src = static_cast<int*>(nvshmem_malloc(sizeof(int)));
  int* dst = static_cast<int*>(nvshmem_malloc(sizeof(int)));
  const int v = me_ + 1;
  CK(cudaMemcpy(src, &v, sizeof v, cudaMemcpyHostToDevice));
  CK(cudaDeviceSynchronize());
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  EXPECT_EQ(nvshmemx_int_sum_reduce_on_stream(t, dst, src, 1, s), 0);
  nvshmemx_barrier_on_stream(t, s);
  CK(cudaStreamSynchronize(s));
  int sum = -1;
  CK(cudaMemcpy(&sum, dst, sizeof sum, cudaMemcpyDeviceToHost));
  EXPECT_EQ(sum, npes_ * (npes_ + 1) / 2);
  CK(cudaStreamDestroy(s));
  CK(cudaFree(q));
  nvshmem_team_destroy(t);
  nvshmem_free(dst);
  nvshmem_free(src);
}

TEST_F(GpuTeam, IdReusedAfterDestroyStartsAfresh) {
  if (npes_ < 2) GTEST_SKIP() << "needs 2 PEs (a team of some PEs, then one of all)";
  int* box = static_cast<int*>(gshmemx_calloc_device(npes_, sizeof(int)));
  ASSERT_NE(box, nullptr);
  int* errors = nullptr;
  CK(cudaMalloc(&errors, sizeof(int)));
  CK(cudaMemset(errors, 0, sizeof(int)));
  // First the even PEs (PE 0 alone at 2 PEs) run barriers on a fresh id; then that id is reused by the world
  // reversed, whose other members never used it: stale epochs would let a barrier through early or hang it.
  const ShapeTeam even = shapeMake(Shape::Even, me_, npes_);
  const gshmem_team_t first = even.id;
  if (even.member()) {
    barrierRoundsKernel<<<1, 32>>>(even.id, box, 7, 0, errors);
    gshmemx_barrier_on_stream(even.id, 0);
    EK(cudaDeviceSynchronize());
  }
  shmem_barrier_all();
  shapeDestroy(even);
  const ShapeTeam all = shapeMake(Shape::ReversedWorld, me_, npes_);
  EXPECT_TRUE(all.member());
  if (even.member()) EXPECT_EQ(all.id, first) << "the lowest free id is reused";
  if (all.member()) {
    EK(cudaMemset(box, 0, sizeof(int) * npes_));
    EK(cudaDeviceSynchronize());
    gshmem_team_sync(all.id);
    barrierRoundsKernel<<<1, 32>>>(all.id, box, 7, 0, errors);
    EK(cudaDeviceSynchronize());
  }
  shmem_barrier_all();
  shapeDestroy(all);
  int e = -1;
  CK(cudaMemcpy(&e, errors, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_EQ(e, 0);
  CK(cudaFree(errors));
  shmem_free(box);
}

}  // namespace
}  // namespace gshmem_test
