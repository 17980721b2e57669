// Shared-memory transport: every PE backs its symmetric regions with a memfd (mode 0600); PEs on the same node
// (the launcher's view, from the bootstrap) pass each other their memfds over a Unix socket and map them
// (shm_map.hpp), so an on-node put is a memcpy and an AMO is a CPU atomic. memfds vanish with their last
// mapping: nothing is ever left in /dev/shm, even when a job is killed.
#include <sys/mman.h>

#include "base/log.hpp"
#include "transports/shm/shm_map.hpp"

namespace gshmem {

namespace {

class ShmTransport final : public Transport {
 public:
  explicit ShmTransport(const TransportConfig& cfg) : timeout_s_(cfg.timeout_s) {}
  ~ShmTransport() override { disconnect(); }
  const char* name() const override { return "shm"; }
  std::string lastError() const override { return error_; }

  Status connect(Bootstrap& bs, const std::vector<LocalRegion>& regions, std::vector<PeerReach>* out) override {
    ShmMapSpec spec;
    spec.regions = regions;
    spec.names = {"heap", "data"};  // the core's region order
    spec.timeout_s = timeout_s_;
    std::vector<std::vector<char*>> mapped;
    error_.clear();
    GSHMEM_CHECK(shmMapPeers(bs, spec, &mapped, &maps_, &error_));
    std::vector<PeerReach> reach(bs.size());
    const auto& node = bs.nodeOf();
    const int me = bs.rank();
    for (int pe = 0; pe < bs.size(); ++pe) {
      PeerReach& p = reach[pe];
      for (std::size_t r = 0; r < mapped[pe].size() && r < p.mapped.size(); ++r) p.mapped[r] = mapped[pe][r];
      if (node[pe] != node[me]) continue;
      p.caps = kCapLoadStore;
      p.why = pe == me ? "self: load/store" : "same node: shared-memory load/store";
    }
    *out = std::move(reach);
    return Status::Ok;
  }

  void disconnect() override {
    for (auto& m : maps_) munmap(m.first, m.second);
    maps_.clear();
  }

 private:
  long timeout_s_;
  std::string error_;
  std::vector<ShmMapping> maps_;
};

}  // namespace

std::unique_ptr<Transport> shmTransportCreate(const TransportConfig& cfg) {
  return std::make_unique<ShmTransport>(cfg);
}

}  // namespace gshmem
