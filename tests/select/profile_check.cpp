// The load half of the calibrate -> profile -> load round trip (calibrate_roundtrip.sh): run on 2 PEs with
// GSHMEM_PROFILE set to a profile that gshmem-calibrate wrote on this machine; PE 0 loads it through the selector's
// loader, builds the table of its peer and checks that every range of host-to-host puts and gets comes from the
// profile. Prints "select_profile_check: OK" on success.
#include <shmem.h>

#include <cstdio>
#include <string>

#include "core/select/selector.hpp"

using namespace gshmem;

int main() {
  shmem_init();
  int rc = 0;
  void* probe = shmem_malloc(64);
  bool mapped = shmem_ptr(probe, 1 - shmem_my_pe()) != nullptr;
  bool same_node = shmem_team_translate_pe(SHMEM_TEAM_WORLD, 1 - shmem_my_pe(), SHMEM_TEAM_SHARED) >= 0;
  shmem_free(probe);
  if (shmem_my_pe() == 0) {
    SelectParams p = selectParamsCurrent();
    SelectorConfig cfg;
    cfg.available[static_cast<int>(mapped ? ProtocolId::Shm : ProtocolId::Ucx)] = true;
    std::string err;
    if (p.profile.empty()) {
      fprintf(stderr, "select_profile_check: GSHMEM_PROFILE is not set\n");
      rc = 1;
    } else if (isError(selectorConfigLoad(p, &cfg, &err))) {
      fprintf(stderr, "select_profile_check: %s\n", err.c_str());
      rc = 1;
    } else {
      Selector sel(cfg);
      PeerPath peer = peerPathHost(same_node);
      const DecisionTable& t = sel.addPeer(peer);
      fputs(sel.describe().c_str(), stdout);
      for (Direction d : {Direction::Put, Direction::Get}) {
        const auto& ranges = t.ranges[static_cast<int>(MemPair::HostHost)][static_cast<int>(d)];
        if (ranges.empty()) {
          fprintf(stderr, "select_profile_check: no table for hh %s\n", directionName(d));
          rc = 1;
        }
        for (const DecisionRange& r : ranges)
          if (r.source != Source::Profile) {
            fprintf(stderr, "select_profile_check: hh %s %s-%s comes from %s, not profile\n", directionName(d),
                    selectFormatSize(r.lo).c_str(), selectFormatSize(r.hi).c_str(), sourceName(r.source));
            rc = 1;
          }
      }
    }
    if (rc == 0) printf("select_profile_check: OK\n");
    fflush(stdout);
  }
  shmem_finalize();
  return rc;
}
