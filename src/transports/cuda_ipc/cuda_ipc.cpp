// The cuda_ipc transport (contract in cuda_ipc.hpp).
#include "transports/cuda_ipc/cuda_ipc.hpp"

#include <cuda_runtime.h>

#include "base/cuda_check.hpp"
#include "base/log.hpp"
#include "base/str_format.hpp"
#include "transports/shm/fd_share.hpp"

namespace gshmem {

namespace {

struct IpcCard {  // exchanged through the bootstrap
  cudaIpcMemHandle_t handle;  ///< cudaMalloc heaps
  char bus_id[32];
  int32_t has_heap;
  int32_t vmm;     ///< 1: the heap is a VMM range of `range` bytes
  uint64_t range;
};
static_assert(sizeof(IpcCard) == 64 + 32 + 16, "IpcCard is exchanged as raw bytes");

/// How long a descriptor exchange may wait for a peer.
constexpr double kShareTimeoutS = 60;

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
    if (cfg_.vmm) {
      mine.vmm = 1;
      mine.range = cfg_.vmm->size();
    } else if (cudaError_t e = cudaIpcGetMemHandle(&mine.handle, regions[0].base); e != cudaSuccess) {
      return cudaFailed(kWho, "cudaIpcGetMemHandle", e);
    }
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
  std::vector<std::size_t> range_of(n, 0);
  const auto& node = bs.nodeOf();
  for (int pe = 0; pe < n; ++pe) {
    PeerReach& p = reach[pe];
    p.setCaps(MemKind::Host, 0);
    if (cards[pe].has_heap) bus_[pe] = cards[pe].bus_id;
    const bool candidate = pe != me_ && cfg_.p2p && cards[pe].has_heap && mine.has_heap && node[pe] == node[me_];
    if (pe == me_) {
      peer_[pe] = regions[0].base;
      p.why = "self: this GPU";
    } else if (candidate && cards[pe].vmm != mine.vmm) {
      GSHMEM_LOG_ERROR(TRANSPORT, "%s: PE %d's device heap is %s but this PE's is %s (the PEs did not agree)", kWho,
                       pe, cards[pe].vmm ? "a VMM range" : "a cudaMalloc block", mine.vmm ? "a VMM range" : "not");
      return Status::Internal;
    } else if (candidate && mine.vmm) {
      vmm_peers_.push_back(pe);  // mapped by vmmConnect, below
      range_of[pe] = cards[pe].range;
    } else if (candidate && canMap(cfg_.device, cards[pe].bus_id)) {
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
      p.why = !cfg_.p2p ? "P2P disabled" : node[pe] != node[me_] ? "another node" : "no GPU peer access";
    }
  }
  if (mine.vmm) GSHMEM_CHECK(vmmConnect(bs, range_of, &reach));
  for (int pe = 0; pe < n; ++pe) {
    reach[pe].mapped[0] = peer_[pe];
    if (peer_[pe]) reach[pe].setCaps(MemKind::Device, kCapLoadStore | kCapRma | kCapCopyEngine);
  }
  *out = std::move(reach);
  return Status::Ok;
}

Status CudaIpcTransport::vmmImport(int pe, const UniqueFd* fds, const std::vector<vmm::Chunk>& chunks) {
  vmm::Range& r = vmm_ranges_[pe];
  for (std::size_t k = 0; k < chunks.size(); ++k)
    GSHMEM_CHECK(r.import(fds[k].get(), cfg_.device, chunks[k].offset, chunks[k].bytes));
  return Status::Ok;
}

// Every PE sends its chunks to the candidates it found and receives theirs, whether or not this GPU can map them
// (the lists must match on both sides); a peer this GPU cannot reach keeps no range.
Status CudaIpcTransport::vmmConnect(Bootstrap& bs, const std::vector<std::size_t>& range_of,
                                    std::vector<PeerReach>* reach) {
  const std::vector<vmm::Chunk>& chunks = cfg_.vmm->chunks();
  std::vector<UniqueFd> mine;
  std::vector<int> fds;
  for (const vmm::Chunk& c : chunks) {
    int fd = -1;
    if (!vmm_peers_.empty()) GSHMEM_CHECK(cfg_.vmm->exportFd(c.offset, &fd));
    mine.emplace_back(fd);
    fds.push_back(fd);
  }
  std::vector<std::vector<UniqueFd>> got;
  std::string err;
  if (Status st = fdShare(bs, vmm_peers_, fds, vmm_peers_, chunks.size(), kShareTimeoutS, "device heap chunks", &got,
                          &err); isError(st)) {
    GSHMEM_LOG_ERROR(TRANSPORT, "%s: %s", kWho, err.c_str());
    return st;
  }
  vmm_ranges_.resize(bs.size());
  for (int pe : vmm_peers_) {
    PeerReach& p = (*reach)[pe];
    if (range_of[pe] != cfg_.vmm->size()) {
      GSHMEM_LOG_ERROR(TRANSPORT, "%s: PE %d reserved %zu bytes for its device heap, this PE %zu; give every PE the "
                       "same GSHMEM_DEVICE_HEAP_MAX", kWho, pe, range_of[pe], cfg_.vmm->size());
      return Status::InvalidArgument;
    }
    if (!canMap(cfg_.device, bus_[pe].c_str())) {
      p.why = "no GPU peer access";
      continue;
    }
    GSHMEM_CHECK(vmm_ranges_[pe].reserve(range_of[pe]));
    GSHMEM_CHECK(vmmImport(pe, got[pe].data(), chunks));
    peer_[pe] = vmm_ranges_[pe].base();
    p.why = "same node: GPU peer access through CUDA VMM descriptors";
  }
  return Status::Ok;
}

Status CudaIpcTransport::grow(Bootstrap& bs, std::size_t offset, std::size_t bytes, std::string* err) {
  if (!cfg_.vmm) return Status::Unsupported;
  UniqueFd mine;
  std::vector<int> fds;
  if (!vmm_peers_.empty()) {
    int fd = -1;
    GSHMEM_CHECK(cfg_.vmm->exportFd(offset, &fd));
    mine = UniqueFd(fd);
    fds.push_back(fd);
  }
  std::vector<std::vector<UniqueFd>> got;
  GSHMEM_CHECK(fdShare(bs, vmm_peers_, fds, vmm_peers_, 1, kShareTimeoutS, "new device heap chunk", &got, err));
  for (int pe : vmm_peers_) {
    if (!peer_[pe]) continue;
    if (Status st = vmm_ranges_[pe].import(got[pe][0].get(), cfg_.device, offset, bytes); isError(st)) {
      *err = strFormat("cannot map PE %d's new device heap chunk (%zu bytes at offset %zu): see the error above", pe,
                       bytes, offset);
      return st;
    }
  }
  return Status::Ok;
}

void CudaIpcTransport::dropPeerChunks(std::size_t offset) {
  for (int pe : vmm_peers_)
    if (static_cast<std::size_t>(pe) < vmm_ranges_.size()) vmm_ranges_[pe].drop(offset);
}

void CudaIpcTransport::disconnect() {
  for (std::size_t pe = 0; pe < peer_.size(); ++pe)
    if (opened_[pe]) cudaIpcCloseMemHandle(peer_[pe]);
  vmm_ranges_.clear();  // unmaps the peers' chunks
  vmm_peers_.clear();
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

Status CudaIpcTransport::getNbi(const RemoteAddr& src, void* dst, std::size_t n) {
  char* b = peerBase(src.pe);
  if (!b || src.region != 0) return Status::Unsupported;
  return copyOnStream(dst, b + src.offset, n, stream_);
}

Status CudaIpcTransport::quiet() { return stream_ ? syncStream(stream_) : Status::Ok; }

std::unique_ptr<Transport> cudaIpcTransportCreate(const TransportConfig& cfg) {
  return std::make_unique<CudaIpcTransport>(cfg);
}

}  // namespace gshmem
