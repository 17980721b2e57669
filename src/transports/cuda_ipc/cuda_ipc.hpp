// The cuda_ipc transport: GPU memory mapped between PEs of one node through CUDA IPC handles. A peer whose device
// heap is mapped here is reached by SM loads/stores through its peer pointer (kernels) and by copy-engine copies on
// streams (cudaMemcpyAsync through the mapping). Only Device regions; no CUDA types in this header (streams are
// CUstream_st*). Errors come back as Status with the CUDA error logged once (subsystem TRANSPORT).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "transports/cuda_ipc/cuda_vmm.hpp"
#include "transports/transport.hpp"

struct CUstream_st;

namespace gshmem {

class UniqueFd;

class CudaIpcTransport final : public Transport {
 public:
  /// Reads TransportConfig's device (this PE's CUDA device, current at connect), p2p (false: map no peer,
  /// GSHMEM_P2P=0; this PE's own heap is still reported mapped) and vmm (the device heap is this VMM range, the same
  /// size and chunk offsets on every PE: peers are mapped by importing its chunks, and grow() maps the chunks added
  /// later; nullptr: one cudaMalloc block mapped by a CUDA IPC handle; every PE passes the same kind of heap).
  explicit CudaIpcTransport(const TransportConfig& cfg) : cfg_(cfg) {}
  ~CudaIpcTransport() override { disconnect(); }
  const char* name() const override { return "cuda_ipc"; }
  unsigned memKinds() const override { return 1u << static_cast<int>(MemKind::Device); }

  /// Collective. `regions`: exactly one Device region (the device heap, the base of a cudaMalloc). Exchanges IPC
  /// handles and PCI bus ids; opens the handle of every peer of the node whose GPU this GPU can access.
  Status connect(Bootstrap& bs, const std::vector<LocalRegion>& regions, std::vector<PeerReach>* out) override;
  /// Close the peer mappings. Not collective: the caller synchronizes before the memory is freed.
  void disconnect() override;
  /// Collective, VMM heaps only: every PE has just mapped a new chunk at [offset, offset + bytes) of its range (the
  /// same on every PE); map each mapped peer's into this process. On failure *err says which peer and why.
  Status grow(Bootstrap& bs, std::size_t offset, std::size_t bytes, std::string* err);
  /// VMM heaps: unmap each mapped peer's chunk at @p offset (the peers are dropping theirs; no access is in flight).
  void dropPeerChunks(std::size_t offset);

  /// Copy-engine put/get through the mapping on the transport's own stream; putNbi completes at quiet().
  Status putNbi(const RemoteAddr& dst, const void* src, std::size_t n) override;
  Status get(const RemoteAddr& src, void* dst, std::size_t n) override;
  /// As get, on the transport's stream; the data is there after quiet().
  Status getNbi(const RemoteAddr& src, void* dst, std::size_t n) override;
  Status quiet() override;

  /// Device address of `pe`'s device region as mapped here (this PE: its own base), or nullptr.
  char* peerBase(int pe) const {
    return static_cast<unsigned>(pe) < peer_.size() ? peer_[pe] : nullptr;
  }
  /// The PCI bus id of `pe`'s GPU ("" when it has no device region); known for every PE after connect.
  const std::string& peerBusId(int pe) const { return bus_[pe]; }
  /// Copy `n` bytes with the copy engine, ordered after earlier work on `stream`; not waited for. `dst` or `src`
  /// is usually a peer pointer (peerBase + offset).
  Status copyOnStream(void* dst, const void* src, std::size_t n, CUstream_st* stream);
  /// Wait for everything issued on `stream`.
  Status syncStream(CUstream_st* stream);

 private:
  TransportConfig cfg_;
  int me_ = -1;
  std::vector<char*> peer_;     ///< per PE: mapped base, nullptr when not mapped
  std::vector<bool> opened_;    ///< per PE: peer_ came from cudaIpcOpenMemHandle (closed at disconnect)
  std::vector<std::string> bus_;
  CUstream_st* stream_ = nullptr;
  // VMM heaps: the PEs this PE sends its chunks to (and receives theirs from), and the ranges their heaps are
  // mapped into here (empty for a PE whose chunks are received but cannot be mapped by this GPU).
  std::vector<int> vmm_peers_;
  std::vector<vmm::Range> vmm_ranges_;
  Status vmmConnect(Bootstrap& bs, const std::vector<std::size_t>& range_of, std::vector<PeerReach>* reach);
  Status vmmImport(int pe, const UniqueFd* fds, const std::vector<vmm::Chunk>& chunks);
};

// Made through the registry (cudaIpcTransportCreate, transports/transport.hpp), from TransportConfig's device,
// p2p and vmm.

}  // namespace gshmem
