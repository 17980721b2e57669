// gshmem-calibrate: measure every protocol that reaches PE 1 from PE 0 on this machine, for each memory pair and
// direction, fit the cost model T(s) = overhead + s / bandwidth (piecewise), print the decision table and the
// crossover sizes, and write a profile that gshmem loads at init (GSHMEM_PROFILE). docs/PATH-SELECTION.md.
//
//   mpiexec -n 2 gshmem-calibrate [-b MIN] [-e MAX] [-n ITERS] [-r REPS] [-o FILE] [-a OLD] [--forced PROTO]
#include <shmem.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "core/protocols/device_path.hpp"
#include "core/select/selector.hpp"
#include "measure.hpp"

using namespace gshmem;

namespace {

struct Options {
  uint64_t min = 8, max = 256ull << 20;
  int iters = 100;  ///< at small sizes; fewer above 64 KiB, so each timing moves about iters x 64 KiB
  int reps = 5;     ///< timings per size; the median is kept
  std::string out, append;
  std::vector<ProtocolId> forced;  ///< measure only these (empty: every available one)
  bool verbose = true;
};

void usage(FILE* f) {
  fprintf(f,
          "usage: mpiexec -n 2 gshmem-calibrate [options]\n"
          "  -b SIZE         smallest transfer (default 8)\n"
          "  -e SIZE         largest transfer (default 256M); sizes double from -b\n"
          "  -n N            transfers per timing at small sizes (default 100; fewer above 64K, at least 2)\n"
          "  -r N            timings per size, the median is kept (default 5)\n"
          "  -o FILE         write the profile here (load it with GSHMEM_PROFILE=FILE)\n"
          "  -a FILE         start from this profile: its models are kept unless measured again (merge runs made\n"
          "                  with different GSHMEM_TRANSPORTS, or on different peers)\n"
          "  --forced PROTO  measure only this protocol (repeatable; also sets GSHMEM_PATH for the run)\n"
          "  -q              print only the fits and the table\n"
          "protocols: %s. SIZE takes K/M/G suffixes.\n",
          protocolNames().c_str());
}

bool parseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&](const char* what) -> const char* {
      if (i + 1 >= argc) {
        fprintf(stderr, "gshmem-calibrate: %s needs %s\n", a.c_str(), what);
        return nullptr;
      }
      return argv[++i];
    };
    const char* v = nullptr;
    if (a == "-h" || a == "--help") {
      usage(stdout);
      exit(0);
    } else if (a == "-q") {
      o->verbose = false;
    } else if (a == "-b" || a == "-e") {
      if (!(v = next("a size"))) return false;
      uint64_t s;
      if (!selectParseSize(v, &s) || s == kSizeInf || s == 0) {
        fprintf(stderr, "gshmem-calibrate: %s '%s' is not a size\n", a.c_str(), v);
        return false;
      }
      (a == "-b" ? o->min : o->max) = s;
    } else if (a == "-n" || a == "-r") {
      if (!(v = next("a count"))) return false;
      long n = 0;
      if (!parseInt(v, &n) || n < 1 || n > 1000000000) {
        fprintf(stderr, "gshmem-calibrate: %s '%s' is not a positive count\n", a.c_str(), v);
        return false;
      }
      (a == "-n" ? o->iters : o->reps) = static_cast<int>(n);
    } else if (a == "-o" || a == "-a") {
      if (!(v = next("a file"))) return false;
      (a == "-o" ? o->out : o->append) = v;
    } else if (a == "--forced") {
      if (!(v = next("a protocol"))) return false;
      ProtocolId p = protocolByName(v);
      if (p == ProtocolId::None) {
        fprintf(stderr, "gshmem-calibrate: --forced '%s' is not a protocol (%s)\n", v, protocolNames().c_str());
        return false;
      }
      o->forced.push_back(p);
    } else {
      fprintf(stderr, "gshmem-calibrate: unknown option '%s'\n", a.c_str());
      usage(stderr);
      return false;
    }
  }
  if (o->min > o->max) {
    fprintf(stderr, "gshmem-calibrate: -b must not exceed -e\n");
    return false;
  }
  return true;
}

int itersFor(const Options& o, uint64_t bytes) {
  const uint64_t kSmall = 64 << 10;
  if (bytes <= kSmall) return o.iters;
  return std::max<int>(2, static_cast<int>(o.iters * kSmall / bytes));
}

void replaceModel(Profile* p, const ProfileModel& m) {
  for (ProfileModel& x : p->models)
    if (x.proto == m.proto && x.mem == m.mem && x.dir == m.dir && x.cls == m.cls) {
      x = m;
      return;
    }
  p->models.push_back(m);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parseArgs(argc, argv, &o)) return 2;
  // The tool sizes the heap for its buffers (two of -e bytes per row) unless the user did.
  if (!getenv("GSHMEM_SYMMETRIC_SIZE")) {
    std::string s = std::to_string(((2 * o.max) >> 20) + 64) + "M";
    setenv("GSHMEM_SYMMETRIC_SIZE", s.c_str(), 1);
  }
  if (o.forced.size() == 1) setenv("GSHMEM_PATH", protocolName(o.forced[0]), 1);
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes();
  if (npes != 2) {
    if (me == 0) fprintf(stderr, "gshmem-calibrate: run on exactly 2 PEs (got %d)\n", npes);
    shmem_finalize();
    return 2;
  }
  calibrate::Context ctx;
  ctx.me = me;
  ctx.peer = 1 - me;
  ctx.maxBytes = o.max;
  ctx.sameNode = shmem_team_translate_pe(SHMEM_TEAM_WORLD, ctx.peer, SHMEM_TEAM_SHARED) >= 0;
  {
    void* probe = shmem_malloc(64);
    ctx.peerMapped = shmem_ptr(probe, ctx.peer) != nullptr;
    shmem_free(probe);
  }
  const PeerPath peer = peerPathHost(ctx.sameNode);
  // device rows are keyed by the GPU pair's path (class, P2P mapped or not).
  PeerPath devPeer = peer;
  const bool haveDev = protocols::devicePeerPath(ctx.peer, &devPeer);
  auto pathFor = [&](MemPair m) { return m == MemPair::HostHost ? peer : devPeer; };

  Profile prof;
  std::string err;
  if (!o.append.empty() && me == 0 && isError(profileLoad(o.append, &prof, &err))) {
    fprintf(stderr, "gshmem-calibrate: %s\n", err.c_str());
    shmem_global_exit(1);
  }
  char host[256] = "?";
  gethostname(host, sizeof host - 1);
  char date[64];
  time_t now = time(nullptr);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  prof.meta.clear();
  prof.meta.push_back({"tool", "gshmem-calibrate"});
  prof.meta.push_back({"host", host});
  prof.meta.push_back({"date", date});
  prof.meta.push_back({"sizes", selectFormatSize(o.min) + "-" + selectFormatSize(o.max)});

  if (me == 0)
    printf("# gshmem-calibrate: PE 0 -> PE 1, %s, peer heap %s; sizes %s..%s, %d reps (median)\n",
           ctx.sameNode ? "same node" : "other node", ctx.peerMapped ? "mapped (shm)" : "not mapped (ucx)",
           selectFormatSize(o.min).c_str(), selectFormatSize(o.max).c_str(), o.reps);

  SelectorConfig scfg;
  size_t n = 0;
  const calibrate::MeasureEntry* table = calibrate::measureTable(&n);
  for (size_t e = 0; e < n; ++e) {
    const calibrate::MeasureEntry& row = table[e];
    if (!o.forced.empty() && std::find(o.forced.begin(), o.forced.end(), row.proto) == o.forced.end()) continue;
    if (!row.available(ctx) || !protocolDesc(row.proto).reaches(pathFor(row.mem), row.mem)) continue;
    if (!row.setup(&ctx)) {
      if (me == 0)
        fprintf(stderr, "gshmem-calibrate: cannot set up %s %s (2 x %s buffers): skipped\n", protocolName(row.proto),
                memPairName(row.mem), selectFormatSize(o.max).c_str());
      continue;
    }
    scfg.available[static_cast<int>(row.proto)] = true;
    for (int di = 0; di < kNumDirections; ++di) {
      Direction d = static_cast<Direction>(di);
      std::vector<Sample> samples;
      for (uint64_t s = o.min; s <= o.max; s *= 2) {
        if (me == 0) {
          int it = itersFor(o, s);
          row.timeUs(&ctx, d, s, std::max(1, it / 4));  // warm-up
          std::vector<double> t;
          for (int r = 0; r < o.reps; ++r) t.push_back(row.timeUs(&ctx, d, s, it));
          std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
          samples.push_back({static_cast<double>(s), std::max(t[t.size() / 2], 1e-4)});
        }
        shmem_barrier_all();
        if (s > kSizeInf / 2) break;
      }
      if (me != 0) continue;
      ProfileModel pm;
      pm.proto = row.proto;
      pm.mem = row.mem;
      pm.dir = d;
      pm.cls = modelClass(pathFor(row.mem), row.mem);
      if (!fitPiecewise(samples, &pm.model)) {
        fprintf(stderr, "gshmem-calibrate: no usable samples for %s %s %s\n", protocolName(row.proto),
                memPairName(row.mem), directionName(d));
        continue;
      }
      printf("# %s %s %s (class %s)\n", protocolName(row.proto), memPairName(row.mem), directionName(d),
             pathName(pm.cls));
      if (o.verbose) {
        printf("# %12s %12s %10s %12s %7s\n", "size", "median_us", "GB/s", "model_us", "err%");
        for (const Sample& x : samples) {
          double m = pm.model.predictUs(static_cast<uint64_t>(x.bytes));
          printf("  %12.0f %12.3f %10.3f %12.3f %7.1f\n", x.bytes, x.us, x.bytes / x.us / 1e3, m,
                 100 * (m - x.us) / x.us);
        }
      }
      for (const ModelRange& r : pm.model.ranges)
        printf("#   fit %s-%s: %.4f us + s / %.4g GB/s (%d samples, r2 %.4f)\n", selectFormatSize(r.lo).c_str(),
               selectFormatSize(r.hi).c_str(), r.line.overhead_us, r.line.bandwidth_GBps, r.samples, r.r2);
      replaceModel(&prof, pm);
    }
    row.teardown(&ctx);
  }

  int rc = 0;
  if (me == 0) {
    // The table the runtime would build from this profile, with every protocol the profile has a model for.
    for (const ProfileModel& m : prof.models) scfg.available[static_cast<int>(m.proto)] = true;
    scfg.profile = prof;
    scfg.profile_name = o.out.empty() ? "(not written)" : o.out;
    Selector sel(scfg);
    sel.addPeer(peer);
    if (haveDev && !(devPeer == peer)) sel.addPeer(devPeer);
    printf("# decision table\n%s", sel.describe().c_str());
    printf("# crossovers:");
    int crossings = 0;
    // Host pairs from the host peer's table, device pairs from the GPU pair's (when there is one).
    for (int mi = 0; mi < kNumMemPairs; ++mi) {
      const DecisionTable* tp = (mi == 0 || !haveDev) ? sel.table(peer) : sel.table(devPeer);
      for (int di = 0; di < kNumDirections && tp; ++di) {
        const std::vector<DecisionRange>& r = tp->ranges[mi][di];
        for (size_t i = 1; i < r.size(); ++i)
          if (r[i].proto != r[i - 1].proto) {
            printf(" %s %s %s->%s at %s B (%s);", memPairName(MemPair(mi)), directionName(Direction(di)),
                   protocolName(r[i - 1].proto), protocolName(r[i].proto), selectFormatSize(r[i].lo).c_str(),
                   pathName(tp->peer.path));
            ++crossings;
          }
      }
    }
    printf("%s\n", crossings ? "" : " none (one protocol per memory pair and direction)");
    if (!o.out.empty()) {
      if (isError(profileSave(prof, o.out, &err))) {
        fprintf(stderr, "gshmem-calibrate: %s\n", err.c_str());
        rc = 1;
      } else {
        printf("# profile written to %s (load it with GSHMEM_PROFILE=%s)\n", o.out.c_str(), o.out.c_str());
      }
    }
    fflush(stdout);
  }
  shmem_finalize();
  return rc;
}
