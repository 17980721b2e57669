// Protocol descriptors for path selection, in the spirit of UCX's ucp_proto_t: a name, what it can reach, and
// a default cost model per path class. Descriptors live in one explicit array (protocolTable()); a new
// protocol is a new row there (and a measurement entry in tools/calibrate).
#pragma once

#include <cstddef>
#include <string>

#include "base/status.hpp"
#include "base/topology/topology.hpp"
#include "core/select/cost_model.hpp"

struct CUstream_st;

namespace gshmem {

/// Direction of a one-sided transfer, seen from the initiating PE.
enum class Direction : int { Put = 0, Get = 1 };
inline constexpr int kNumDirections = 2;

/// Memory kinds of a transfer: <local buffer><remote buffer>. HostDev: local host memory, the peer's device
/// memory (a put from host to a remote GPU, or a get from a remote GPU into host memory).
enum class MemPair : int { HostHost = 0, HostDev = 1, DevHost = 2, DevDev = 3 };
inline constexpr int kNumMemPairs = 4;

/// How this PE reaches one peer, as decided at init from the topology.
/// For host memory only sameNode matters; for device memory, path is the GPU-GPU class (topology.hpp). For a peer
/// on another node, nicLocal and nicRemote are the classes between each side's GPU and the NIC it uses
/// (Topology::nearestNic): a NIC moves GPU memory directly only through a PCIe switch (PIX, PXB).
struct PeerPath {
  PathType path = PathType::Node;  ///< GPU-GPU class; Net for another node; Node for host-only peers on the node
  bool sameNode = true;
  bool p2p = false;                    ///< the peer's device memory can be mapped here (CUDA IPC / P2P)
  PathType nicLocal = PathType::Sys;   ///< this PE's GPU to its NIC; Sys when unknown or there is none
  PathType nicRemote = PathType::Sys;  ///< the peer's GPU to its NIC; Sys when unknown or there is none

  bool operator==(const PeerPath& o) const {
    return path == o.path && sameNode == o.sameNode && p2p == o.p2p && nicLocal == o.nicLocal &&
           nicRemote == o.nicRemote;
  }
};

/// Whether a NIC can read and write a GPU's memory directly across a GPU-NIC path of class @p c: the two share a
/// PCIe switch (PIX) or a switch hierarchy (PXB). Through a host bridge (PHB and beyond) peer-to-peer reads are
/// slow or refused by the root complex, so the NIC-direct protocol is not eligible there (as NCCL decides
/// GPUDirect RDMA by default).
inline bool nicDirectClass(PathType c) { return c == PathType::Pix || c == PathType::Pxb; }
/// The class between GPU @p gpu of @p t and the NIC it uses (Topology::nearestNic); Sys when @p gpu is out of range
/// or the node has no NIC.
PathType gpuNicClass(const Topology& t, int gpu);

/// The PeerPath of a peer when only host memory exists (today's build): Node on the node, Net elsewhere.
inline PeerPath peerPathHost(bool sameNode) {
  return PeerPath{sameNode ? PathType::Node : PathType::Net, sameNode, false};
}

/// The path class a model is keyed by: host-to-host transfers never cross GPU links, so their class is the host
/// path (Node on the node, Net off it); every other pair uses the peer's GPU class.
inline PathType modelClass(const PeerPath& p, MemPair m) {
  if (m == MemPair::HostHost) return p.sameNode ? PathType::Node : PathType::Net;
  return p.path;
}

enum class ProtocolId : int { Shm = 0, Ucx, P2pCe, P2pSm, Staged, NicDirect, Count, None = -1 };
inline constexpr int kNumProtocols = static_cast<int>(ProtocolId::Count);

/// One transfer between local memory `local` (host or device) and offset `off` of PE `pe`'s device heap, as a
/// protocol runs it: put (local -> remote) or get, ordered after earlier work on `stream`; with `blocking` the data
/// has arrived when run returns.
struct Transfer {
  int pe;
  std::size_t off;
  void* local;
  std::size_t n;
  Direction dir;
  CUstream_st* stream;
  bool blocking;
};
/// Runs one transfer. Bound by the part of the core that implements the protocol (core/protocols, when the device
/// heap is made), never by the selector.
using ProtocolRun = Status (*)(const Transfer& t);

/// One protocol. Functions are pure (no state, no I/O); safe from any thread.
struct ProtocolDesc {
  ProtocolId id;
  const char* name;  ///< as written in GSHMEM_PATH, GSHMEM_TUNE and profiles: "shm", "ucx", "p2p_ce", ...
  const char* what;  ///< one line for documentation and GSHMEM_INFO
  /// Whether the protocol can move memory of kinds @p m to or from a peer reached through @p p (it must also be
  /// available in this run; see SelectorConfig::available).
  bool (*reaches)(const PeerPath& p, MemPair m);
  /// Conservative default model for peer @p p, its class @p cls (modelClass()), memory pair and direction.
  /// @p origin gets a short text saying where the numbers come from.
  LinkModel (*defaults)(const PeerPath& p, PathType cls, MemPair m, Direction d, const char** origin);
  /// Whether this build has a transport that runs the protocol. A protocol without one is still modelled (so the
  /// decision is visible and tested) but is never available at run time.
  bool built;
  /// How a device-memory transfer runs on it (protocolBindRun); nullptr until bound, and for shm and ucx, whose
  /// host-memory transfers are the inline RMA path of core/rma.
  ProtocolRun run = nullptr;
};

/// Every protocol, indexed by ProtocolId.
const ProtocolDesc* protocolTable();
/// Bind the function that runs protocol `id` (at init, before any transfer; nullptr unbinds).
void protocolBindRun(ProtocolId id, ProtocolRun run);
inline const ProtocolDesc& protocolDesc(ProtocolId id) { return protocolTable()[static_cast<int>(id)]; }
inline const char* protocolName(ProtocolId id) { return id == ProtocolId::None ? "none" : protocolDesc(id).name; }
/// @return ProtocolId::None when @p name is not a protocol.
ProtocolId protocolByName(const std::string& name);
/// "shm, ucx, p2p_ce, p2p_sm, staged, nic_direct", for error messages.
std::string protocolNames();

const char* directionName(Direction d);  ///< "put" / "get"
const char* memPairName(MemPair m);      ///< "hh", "hd", "dh", "dd"
/// Parse "put"/"get" and "hh"/"hd"/"dh"/"dd". @return false when unknown.
bool directionParse(const std::string& s, Direction* out);
bool memPairParse(const std::string& s, MemPair* out);
/// Parse a path class name as pathName() writes it ("NVL", "NODE", ...; case-insensitive).
bool pathTypeParse(const std::string& s, PathType* out);

/// Where a number used by the selector came from.
enum class Source : int { Default = 0, Profile = 1, Override = 2 };
const char* sourceName(Source s);  ///< "default", "profile", "override"

/// A protocol bound to one model class and memory pair: its cost model per direction and where it came from.
struct BoundProtocol {
  ProtocolId id = ProtocolId::None;
  PiecewiseModel model[kNumDirections];
  Source source[kNumDirections] = {Source::Default, Source::Default};
  const char* origin[kNumDirections] = {"", ""};  ///< the default's provenance, or "profile"

  /// Predicted time in µs of moving @p bytes in direction @p d.
  double estimate(uint64_t bytes, Direction d) const { return model[static_cast<int>(d)].predictUs(bytes); }
};

}  // namespace gshmem
