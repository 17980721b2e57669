// The cuda_ipc transport (contract in cuda_ipc.hpp).
#include "transports/cuda_ipc/cuda_ipc.hpp"

#include <cuda_runtime.h>

#include "base/cuda_check.hpp"
#include "base/log.hpp"

namespace gshmem {

namespace {

struct IpcCard {  // exchanged through the bootstrap
  cudaIpcMemHandle_t handle;
  char bus_id[32];
  int32_t has_heap;
  int32_t pad;
};
static_assert(sizeof(IpcCard) == 64 + 32 + 8, "IpcCard is exchanged as raw bytes");

constexpr const char* kWho = "cuda_ipc";

/// Whether this process's GPU `dev` can map memory of the GPU with PCI bus id `bus` (enabling peer access).
bool canMap(int dev, const char* bus) {
  int pdev = -1, can = 0;
  if (cudaDeviceGetByPCIBusId(&pdev, bus) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  if (pdev == dev) return true;
  if (cudaDeviceCanAccessPeer(&can, dev, pdev) != cudaSuccess) can = 0;
  if (can) {
    cudaError_t e = cudaDeviceEnablePeerAccess(pdev, 0);
    if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) can = 0;
  }
  cudaGetLastError();  // clear what a failed probe left
  return can != 0;
}

}  // namespace

Status CudaIpcTransport::connect(Bootstrap& bs, const std::vector<LocalRegion>& regions, std::vector<PeerReach>* out) {
  if (regions.size() != 1 || regions[0].kind != MemKind::Device) return Status::InvalidArgument;
  const int n = bs.size();
  me_ = bs.rank();
  IpcCard mine{};
  if (regions[0].base) {
    if (cudaError_t e = cudaIpcGetMemHandle(&mine.handle, regions[0].base); e != cudaSuccess)
      return cudaFailed(kWho, "cudaIpcGetMemHandle", e);
    if (cudaError_t e = cudaDeviceGetPCIBusId(mine.bus_id, sizeof mine.bus_id, cfg_.device); e != cudaSuccess)
      return cudaFailed(kWho, "cudaDeviceGetPCIBusId", e);
    mine.has_heap = 1;
  }
  std::vector<IpcCard> cards(n);
  GSHMEM_CHECK(bs.allGather(&mine, cards.data(), sizeof mine));
  if (cudaError_t e = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking); e != cudaSuccess)
    return cudaFailed(kWho, "cudaStreamCreateWithFlags", e);
  peer_.assign(n, nullptr);
  opened_.assign(n, false);
  bus_.assign(n, std::string());
  std::vector<PeerReach> reach(n);
  const auto& node = bs.nodeOf();
  for (int pe = 0; pe < n; ++pe) {
    PeerReach& p = reach[pe];
    p.mapped.assign(1, nullptr);
    p.setCaps(MemKind::Host, 0);
    if (cards[pe].has_heap) bus_[pe] = cards[pe].bus_id;
    if (pe == me_) {
      peer_[pe] = regions[0].base;
      p.why = "self: this GPU";
    } else if (cfg_.enable && cards[pe].has_heap && mine.has_heap && node[pe] == node[me_] &&
               canMap(cfg_.device, cards[pe].bus_id)) {
      void* ptr = nullptr;
      if (cudaIpcOpenMemHandle(&ptr, cards[pe].handle, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess) {
        peer_[pe] = static_cast<char*>(ptr);
        opened_[pe] = true;
        p.why = "same node: GPU peer access through CUDA IPC";
      } else {
        cudaGetLastError();
        p.why = "cudaIpcOpenMemHandle failed";
      }
    } else {
      p.why = !cfg_.enable ? "P2P disabled" : node[pe] != node[me_] ? "another node" : "no GPU peer access";
    }
    p.mapped[0] = peer_[pe];
    if (peer_[pe]) p.setCaps(MemKind::Device, kCapLoadStore | kCapRma | kCapCopyEngine);
  }
  *out = std::move(reach);
  return Status::Ok;
}

void CudaIpcTransport::disconnect() {
  for (std::size_t pe = 0; pe < peer_.size(); ++pe)
    if (opened_[pe]) cudaIpcCloseMemHandle(peer_[pe]);
  peer_.clear();
  opened_.clear();
  if (stream_) cudaStreamDestroy(stream_);
  stream_ = nullptr;
}

Status CudaIpcTransport::copyOnStream(void* dst, const void* src, std::size_t n, CUstream_st* stream) {
  if (cudaError_t e = cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, stream); e != cudaSuccess)
    return cudaFailed(kWho, "cudaMemcpyAsync", e);
  return Status::Ok;
}

Status CudaIpcTransport::syncStream(CUstream_st* stream) {
  if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess)
    return cudaFailed(kWho, "cudaStreamSynchronize", e);
  return Status::Ok;
}

Status CudaIpcTransport::putNbi(const RemoteAddr& dst, const void* src, std::size_t n) {
  char* b = peerBase(dst.pe);
  if (!b || dst.region != 0) return Status::Unsupported;
  return copyOnStream(b + dst.offset, src, n, stream_);
}

Status CudaIpcTransport::get(const RemoteAddr& src, void* dst, std::size_t n) {
  char* b = peerBase(src.pe);
  if (!b || src.region != 0) return Status::Unsupported;
  GSHMEM_CHECK(copyOnStream(dst, b + src.offset, n, stream_));
  return syncStream(stream_);
}

Status CudaIpcTransport::quiet() { return stream_ ? syncStream(stream_) : Status::Ok; }

std::unique_ptr<CudaIpcTransport> cudaIpcTransportCreate(const CudaIpcConfig& cfg) {
  return std::make_unique<CudaIpcTransport>(cfg);
}

}  // namespace gshmem
