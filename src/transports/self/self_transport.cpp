// Loopback transport: reaches this PE only, through its own regions (a put to oneself is a memcpy). First in the
// registry, so this PE is reached the same way whichever other transports are enabled.
#include "transports/transport.hpp"

namespace gshmem {

namespace {

class SelfTransport final : public Transport {
 public:
  const char* name() const override { return "self"; }

  Status connect(Bootstrap& bs, const std::vector<LocalRegion>& regions, std::vector<PeerReach>* out) override {
    std::vector<PeerReach> reach(bs.size());
    PeerReach& me = reach[bs.rank()];
    for (std::size_t r = 0; r < regions.size() && r < me.mapped.size(); ++r) me.mapped[r] = regions[r].base;
    me.caps = kCapLoadStore;
    me.why = "self: load/store";
    *out = std::move(reach);
    return Status::Ok;
  }

  void disconnect() override {}
};

}  // namespace

std::unique_ptr<Transport> selfTransportCreate(const TransportConfig&) { return std::make_unique<SelfTransport>(); }

}  // namespace gshmem
