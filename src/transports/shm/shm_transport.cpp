// Shared-memory transport: every PE backs its symmetric regions with a memfd; PEs on the same node
// (the launcher's view, from the bootstrap) open each other's memfds through /proc/<pid>/fd and map them,
// so an on-node put is a memcpy and an AMO is a CPU atomic. memfds vanish with their last mapping:
// nothing is ever left in /dev/shm, even when a job is killed.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/log.hpp"
#include "transports/shm/shm_map.hpp"

namespace gshmem {

namespace {

constexpr int kMaxRegions = 4;

struct RegionCard {  // exchanged through the bootstrap
  int32_t pid;
  int32_t nregions;
  int32_t fd[kMaxRegions];
  uint64_t size[kMaxRegions];
};
static_assert(sizeof(RegionCard) == 8 + kMaxRegions * 12, "RegionCard is exchanged as raw bytes");

}  // namespace

Status shmMapPeers(Bootstrap& bs, const std::vector<LocalRegion>& regions, std::vector<std::vector<char*>>* mapped,
                   std::vector<ShmMapping>* maps) {
  if (regions.size() > kMaxRegions) return Status::Internal;
  RegionCard mine{};
  mine.pid = getpid();
  mine.nregions = static_cast<int32_t>(regions.size());
  for (size_t r = 0; r < regions.size(); ++r) {
    mine.fd[r] = regions[r].fd;
    mine.size[r] = regions[r].size;
  }
  std::vector<RegionCard> cards(bs.size());
  GSHMEM_CHECK(bs.allGather(&mine, cards.data(), sizeof mine));
  const auto& node = bs.nodeOf();
  const int me = bs.rank();
  mapped->assign(bs.size(), std::vector<char*>(regions.size(), nullptr));
  for (int pe = 0; pe < bs.size(); ++pe) {
    if (node[pe] != node[me]) continue;
    for (size_t r = 0; r < regions.size(); ++r) {
      if (pe == me) {
        (*mapped)[pe][r] = regions[r].base;
        continue;
      }
      const RegionCard& c = cards[pe];
      if (c.fd[r] < 0 || c.size[r] == 0) continue;  // region not shareable on that PE
      char path[64];
      snprintf(path, sizeof path, "/proc/%d/fd/%d", c.pid, c.fd[r]);
      int fd = open(path, O_RDWR | O_CLOEXEC);
      if (fd < 0) {
        GSHMEM_LOG_ERROR(SHM, "cannot open PE %d's segment %s: %s", pe, path, strerror(errno));
        return Status::SystemError;
      }
      void* m = mmap(nullptr, c.size[r], PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      int saved = errno;
      close(fd);
      if (m == MAP_FAILED) {
        GSHMEM_LOG_ERROR(SHM, "cannot map %zu bytes of PE %d's segment: %s", size_t(c.size[r]), pe, strerror(saved));
        return Status::SystemError;
      }
      maps->push_back({m, c.size[r]});
      (*mapped)[pe][r] = static_cast<char*>(m);
    }
  }
  // Every PE has opened what it needs; the memfds stay alive through the mappings.
  return bs.barrier();
}

namespace {

class ShmTransport final : public Transport {
 public:
  ~ShmTransport() override { disconnect(); }
  const char* name() const override { return "shm"; }

  Status connect(Bootstrap& bs, const std::vector<LocalRegion>& regions, std::vector<PeerReach>* out) override {
    std::vector<std::vector<char*>> mapped;
    GSHMEM_CHECK(shmMapPeers(bs, regions, &mapped, &maps_));
    std::vector<PeerReach> reach(bs.size());
    const auto& node = bs.nodeOf();
    const int me = bs.rank();
    for (int pe = 0; pe < bs.size(); ++pe) {
      PeerReach& p = reach[pe];
      p.mapped = std::move(mapped[pe]);
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
  std::vector<ShmMapping> maps_;
};

}  // namespace

std::unique_ptr<Transport> shmTransportCreate(const TransportConfig&) { return std::make_unique<ShmTransport>(); }

}  // namespace gshmem
