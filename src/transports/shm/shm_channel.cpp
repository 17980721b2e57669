// The shm request channel (design in shm_channel.hpp).
#include "transports/shm/shm_channel.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/log.hpp"
#include "base/memfd.hpp"

namespace gshmem {

Status ShmChannel::connect(Bootstrap& bs, const std::vector<LocalRegion>&, std::vector<PeerReach>* out) {
  const TransportConfig& cfg = cfg_;
  if (cfg.channel_depth < 2 || cfg.channel_depth > 16 || cfg.channel_slot_bytes == 0 ||
      cfg.channel_slot_bytes % 4096)
    return Status::InvalidArgument;
  const int n = bs.size();
  me_ = bs.rank();
  depth_ = cfg.channel_depth;
  slot_ = cfg.channel_slot_bytes;
  chan_ = kCtlBytes + slot_ * static_cast<std::size_t>(depth_);
  seg_size_ = cfg.channel_reach ? chan_ * static_cast<std::size_t>(n) : 0;
  LocalRegion seg;
  if (cfg.channel_reach) {
    int fd = -1;
    if (isError(memfdCreate("gshmem-channel", "the request-channel segment", seg_size_, &fd)))
      return Status::SystemError;
    void* m = mmap(nullptr, seg_size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
      GSHMEM_LOG_ERROR(SHM, "cannot map the request-channel segment: %s", strerror(errno));
      close(fd);
      return Status::SystemError;
    }
    own_ = static_cast<char*>(m);
    for (int s = 0; s < n; ++s) std::memset(own_ + chan_ * s, 0, kCtlBytes);  // sequences and counters at 0
    seg = LocalRegion{own_, seg_size_, fd, MemKind::Host};
  }
  ShmMapSpec spec;
  spec.regions = {seg};
  spec.names = {"request-channel"};
  spec.timeout_s = cfg.timeout_s;
  std::vector<std::vector<char*>> mapped;
  std::string err;
  Status st = shmMapPeers(bs, spec, &mapped, &maps_, &err);
  if (seg.fd >= 0) close(seg.fd);
  if (isError(st)) {
    GSHMEM_LOG_ERROR(SHM, "%s", err.c_str());
    disconnect();
    return st;
  }
  seg_of_.assign(n, nullptr);
  if (cfg.channel_reach)
    for (int pe = 0; pe < n; ++pe) seg_of_[pe] = mapped[pe][0];
  seq_.assign(n, 0);
  served_.assign(n, 0);
  out->assign(n, PeerReach{});
  for (int pe = 0; pe < n; ++pe) {
    PeerReach& r = (*out)[pe];
    r.setCaps(MemKind::Device, reaches(pe) ? kCapRequest : 0u);
    r.why = reaches(pe) ? "request channel to its server thread" : pe == me_ ? "this PE" : "not on this node";
  }
  return Status::Ok;
}

void ShmChannel::disconnect() {
  for (auto& m : maps_) munmap(m.first, m.second);
  maps_.clear();
  if (own_) munmap(own_, seg_size_);
  own_ = nullptr;
  seg_of_.clear();
}

uint64_t ShmChannel::post(int target, const ChannelRequest& r) {
  Control* c = control(target, me_);
  const uint64_t s = ++seq_[target];
  c->q[s % kQueue] = r;
  c->req.v.store(s, std::memory_order_release);
  return s;
}

bool ShmChannel::next(int sender, ChannelRequest* r) {
  Control* c = control(me_, sender);
  const uint64_t q = c->req.v.load(std::memory_order_acquire);
  if (q == served_[sender]) return false;
  const uint64_t s = ++served_[sender];
  *r = c->q[s % kQueue];
  return true;
}

void ShmChannel::reply(int sender, uint64_t result) {
  Control* c = control(me_, sender);
  const uint64_t s = served_[sender];
  c->result[s % kQueue] = result;
  c->reply.v.store(s, std::memory_order_release);
}

std::unique_ptr<Transport> shmChannelTransportCreate(const TransportConfig& cfg) {
  return std::make_unique<ShmChannel>(cfg);
}

}  // namespace gshmem
