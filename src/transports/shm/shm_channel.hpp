// The shm request channel: a request from this PE to a server thread of another PE on the node, a reply, and a
// pipeline of bounce-buffer slots between the two. It carries what a peer must do itself because this PE cannot
// touch the memory (device memory without P2P): the server acts on its own memory and answers.
//
// Layout: every PE creates one memfd segment (mode 0600), mapped by every PE of its node (shmMapPeers). The segment of target
// t holds one channel per sender s: a control page (request, reply and two pipeline counters, one cache line each)
// and `depth` slots of `slot_bytes`. Everything of channel s -> t lives in t's segment; both processes load and
// store it through their mappings. Sequences and chunk counters only grow (they never reset).
//
// Protocol: the sender writes request number `req + 1` into its queue entry, then bumps `req` (release); the server
// takes the requests in order (served < req), acts on each, writes its result, then sets `reply` to its number
// (release). A sender may have up to kQueue requests posted and not answered (it waits for room() first). A pipeline of k chunks uses global chunk indices first..first+k-1;
// chunk g lives in slot g % depth; the producer publishes produced = g+1 once chunk g is in its slot, the consumer
// consumed = g+1 once it drained it. Threading: one initiating thread per (sender, target) at a time (callers
// serialize), one server thread per PE. No call allocates, locks or makes a syscall after connect.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "transports/shm/shm_map.hpp"

namespace gshmem {

/// One request. `op` and the meaning of the fields belong to the user of the channel (the staged protocol).
struct alignas(64) ChannelRequest {
  uint32_t op = 0, aux = 0;
  uint64_t off = 0, n = 0, value = 0, cond = 0, first = 0, chunk = 0;
};
static_assert(sizeof(ChannelRequest) == 64, "a request is one cache line");

/// The channel as a transport (registry name "shm_channel"): it reaches the device memory of the other PEs of the
/// node with kCapRequest (their server threads act on it) and moves no data through the Transport data path.
/// Configuration: TransportConfig's channel_depth, channel_slot_bytes, channel_reach and timeout_s (the bound of
/// the segment exchange with the PEs of the node).
class ShmChannel final : public Transport {
 public:
  explicit ShmChannel(const TransportConfig& cfg) : cfg_(cfg) {}
  ShmChannel(const ShmChannel&) = delete;
  ShmChannel& operator=(const ShmChannel&) = delete;
  ~ShmChannel() override { disconnect(); }
  const char* name() const override { return "shm_channel"; }
  unsigned memKinds() const override { return 1u << static_cast<int>(MemKind::Device); }
  unsigned regionKinds() const override { return 0; }

  /// Collective over all PEs (same configuration everywhere); `regions` is not used. Creates this PE's segment and
  /// maps those of the other PEs of the node; reports kCapRequest for their device memory.
  Status connect(Bootstrap& bs, const std::vector<LocalRegion>& regions, std::vector<PeerReach>* out) override;
  /// Unmap every segment. Not collective: callers make sure no peer still uses them (a barrier before).
  void disconnect() override;

  /// Whether a channel to (and from) `pe` exists: same node, not this PE, enabled.
  bool reaches(int pe) const {
    return static_cast<unsigned>(pe) < seg_of_.size() && pe != me_ && seg_of_[pe] != nullptr;
  }
  int depth() const { return depth_; }
  std::size_t slotBytes() const { return slot_; }

  /// Requests a sender may have posted to one target and not seen answered.
  static constexpr uint64_t kQueue = 8;

  // ---- Initiator (one thread per target at a time)
  /// Whether `target`'s queue has room for one more request of this PE.
  bool room(int target) const {
    return seq_[target] - control(target, me_)->reply.v.load(std::memory_order_acquire) < kQueue;
  }
  /// Publish `r` to `target`'s server (room(target) must be true). Returns the request's sequence number.
  uint64_t post(int target, const ChannelRequest& r);
  /// True once the server answered request `seq` (and every earlier one). *result then holds its result, which
  /// stays readable until kQueue further requests to `target` were posted.
  bool replied(int target, uint64_t seq, uint64_t* result) const {
    const Control* c = control(target, me_);
    if (c->reply.v.load(std::memory_order_acquire) < seq) return false;
    *result = c->result[seq % kQueue];
    return true;
  }

  // ---- Server (this PE's server thread only)
  /// True when `sender` posted a request not served yet; *r is a copy of it.
  bool next(int sender, ChannelRequest* r);
  /// Answer the request last returned by next(sender).
  void reply(int sender, uint64_t result);

  // ---- The pipeline of channel sender -> target
  char* slot(int target, int sender, uint64_t chunk_index) const {
    return seg_of_[target] + chan_ * sender + kCtlBytes + slot_ * (chunk_index % depth_);
  }
  std::atomic<uint64_t>& produced(int target, int sender) const { return control(target, sender)->produced.v; }
  std::atomic<uint64_t>& consumed(int target, int sender) const { return control(target, sender)->consumed.v; }
  /// Start and length of channel sender -> target as mapped here (what a process that DMAs into it registers).
  char* channelBase(int target, int sender) const { return seg_of_[target] + chan_ * sender; }
  std::size_t channelBytes() const { return chan_; }
  /// This PE's whole segment (every sender's channel to it).
  char* ownSegment() const { return seg_of_.empty() ? nullptr : seg_of_[me_]; }
  std::size_t segmentBytes() const { return seg_size_; }

 private:
  static constexpr std::size_t kCtlBytes = 4096;
  struct alignas(64) Line {
    std::atomic<uint64_t> v;
    char pad[56];
  };
  struct Control {
    Line req;                   ///< last request sequence posted (sender -> server)
    ChannelRequest q[kQueue];   ///< request s in q[s % kQueue]
    Line reply;                 ///< last request sequence answered (server -> sender)
    uint64_t result[kQueue];    ///< request s's result in result[s % kQueue], written before reply
    Line produced;        ///< chunks whose data is in their slot (written by the producer)
    Line consumed;        ///< chunks drained from their slot (written by the consumer)
  };
  static_assert(sizeof(Control) <= kCtlBytes, "control page");

  Control* control(int target, int sender) const {
    return reinterpret_cast<Control*>(seg_of_[target] + chan_ * sender);
  }

  TransportConfig cfg_;
  int me_ = -1;
  int depth_ = 0;
  std::size_t slot_ = 0, chan_ = 0, seg_size_ = 0;
  char* own_ = nullptr;               ///< this PE's segment as created (unmapped at disconnect)
  std::vector<char*> seg_of_;         ///< each PE's segment as mapped here (nullptr: not reached)
  std::vector<ShmMapping> maps_;      ///< peers' segments mapped here
  std::vector<uint64_t> seq_;         ///< initiator: last request sequence, per target
  std::vector<uint64_t> served_;      ///< server: last request sequence seen, per sender
};

}  // namespace gshmem
