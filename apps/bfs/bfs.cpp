// bfs: distributed breadth-first search on gshmem, Graph500 rules (host version). main(): options, graph
// construction, root choice, one untimed warm-up search, then the timed searches, each validated
// (untimed), and the Graph500 statistics block. See bfs.hpp (graph, partition), graph.cpp (generator and
// construction), search.cpp (the direction-optimizing search), validate.cpp (checks) and stats.cpp.
//
// TEPS of one search = m / t: m = input tuples in the traversed component (a self loop counts 1, another
// tuple 1 through its two directed copies of 1/2 each, duplicates included), t = the slowest PE's time.
// --check also compares every level with a serial BFS of the whole graph on PE 0.
#include <shmem.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "../common/app_util.hpp"
#include "bfs.hpp"

namespace {

bfs::Params parse(int argc, char **argv) {
  bfs::Params p;
  apps::ArgParser ap(argc, argv,
                     "[--scale s] [-e edgefactor] [-r roots] [--seed n] [--er] [--top-down] [--alpha a] "
                     "[--beta b] [--verbose] [--check]");
  for (int i = 1; i < argc; ++i) {
    if (ap.is(i, "-s", "--scale")) p.scale = (int)ap.next_int(i);
    else if (ap.is(i, "-e", "--edgefactor")) p.edgefactor = (int)ap.next_int(i);
    else if (ap.is(i, "-r", "--roots")) p.roots = (int)ap.next_int(i);
    else if (ap.is(i, nullptr, "--seed")) p.seed = (uint64_t)ap.next_int(i);
    else if (ap.is(i, nullptr, "--er")) p.er = true;
    else if (ap.is(i, nullptr, "--top-down")) p.topdown_only = true;
    else if (ap.is(i, nullptr, "--alpha")) p.alpha = ap.next_double(i);
    else if (ap.is(i, nullptr, "--beta")) p.beta = ap.next_double(i);
    else if (ap.is(i, nullptr, "--verbose")) p.verbose = true;
    else if (ap.is(i, nullptr, "--check")) p.check = true;
    else ap.fail(argv[i]);
  }
  return p;
}

/** Times of one search over PEs: slowest total, slowest compute and communication parts. */
void max_times(double *red, const bfs::SearchTimes &st, double out[3]) {
  red[0] = st.total;
  red[1] = st.compute;
  red[2] = st.comm;
  shmem_double_max_reduce(SHMEM_TEAM_WORLD, red + 3, red, 3);
  std::memcpy(out, red + 3, 3 * sizeof(double));
}

/** Per-level split summed over searches (PE 0): searches reaching the level, how many ran it bottom-up,
 *  and the slowest PE's wall and communication time of the level. */
struct LevelSplit {
  static constexpr int kMax = 64;
  double *buf = nullptr;  // symmetric, 4 * kMax: [time, comm] of this PE, then their maxima
  std::vector<double> n = std::vector<double>(kMax), bu = n, time = n, comm = n;

  void add(const bfs::SearchTimes &st) {
    const int nl = std::min<int>(kMax, (int)st.level_time.size());
    std::fill(buf, buf + 2 * kMax, 0.0);
    for (int l = 0; l < nl; ++l) {
      buf[l] = st.level_time[l];
      buf[kMax + l] = st.level_comm[l];
    }
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, buf + 2 * kMax, buf, 2 * kMax);
    for (int l = 0; l < nl; ++l) {
      n[l] += 1;
      bu[l] += st.level_bottom_up[l];
      time[l] += buf[2 * kMax + l];
      comm[l] += buf[3 * kMax + l];
    }
  }
  void print() const {
    std::printf("bfs: per level, mean over the searches that reach it (slowest PE): level, searches, bottom-up, "
                "time ms, of which communication ms\n");
    for (int l = 0; l < kMax && n[l] > 0; ++l)
      std::printf("bfs:   %2d %3.0f %3.0f %9.3f %9.3f\n", l, n[l], bu[l], time[l] / n[l] * 1e3, comm[l] / n[l] * 1e3);
  }
};

/** Level mismatches between the gathered levels and a serial BFS of the full graph. */
int64_t compare_serial(const bfs::Graph &full, uint64_t root, const int32_t *level_all) {
  const std::vector<int32_t> ref = bfs::serial_levels(full, root);
  int64_t mism = 0;
  for (uint64_t v = 0; v < full.n; ++v) mism += ref[v] != level_all[v];
  if (mism) std::printf("bfs check: root %" PRIu64 ": %" PRId64 " levels differ from serial BFS\n", root, mism);
  return mism;
}

/** Collective: the warm-up search, then one timed and validated search per root; prints the statistics.
 *  Adds validation errors to *bad and (PE 0, --check) level mismatches with the serial BFS to *check_bad. */
void run_searches(const bfs::Params &p, const bfs::Graph &g, const bfs::Graph &full,
                  const std::vector<uint64_t> &roots, double tgen, double *red, int64_t *bad_total,
                  int64_t *check_bad) {
  const int me = g.me;
  bfs::Searcher s(p, g);
  int32_t *level_all = static_cast<int32_t *>(shmem_malloc(g.chunk * g.npes * sizeof(int32_t)));
  LevelSplit split;
  split.buf = static_cast<double *>(shmem_malloc(4 * LevelSplit::kMax * sizeof(double)));
  if (!s.ok() || !level_all || !split.buf) {
    std::fprintf(stderr, "bfs: PE %d: shmem_malloc failed (raise GSHMEM_SYMMETRIC_SIZE)\n", me);
    shmem_global_exit(1);
  }
  double edges = 0;
  if (!roots.empty()) {  // warm-up: first touch of every buffer and cache; not in the statistics
    s.run(roots[0]);
    *bad_total += bfs::validate(g, roots[0], s.parent(), s.level(), level_all, &edges);
  }
  std::vector<double> times, nedges, vtimes;
  double sum_comp = 0, sum_comm = 0;
  for (const uint64_t root : roots) {
    const bfs::SearchTimes st = s.run(root);
    double t[3];
    max_times(red, st, t);
    split.add(st);
    const double tv0 = apps::wtime();
    const int64_t bad = bfs::validate(g, root, s.parent(), s.level(), level_all, &edges);
    vtimes.push_back(apps::wtime() - tv0);
    *bad_total += bad;
    times.push_back(t[0]);
    nedges.push_back(edges);
    sum_comp += t[1];
    sum_comm += t[2];
    if (me == 0 && (p.verbose || bad))
      std::printf("bfs: root %" PRIu64 ": %d levels (%d bottom-up), %.0f edges, %.5f s (compute %.5f, comm "
                  "%.5f), %.3e TEPS, validation %s\n", root, st.levels, st.bottom_up_levels, edges, t[0], t[1],
                  t[2], edges / t[0], bad ? "FAILED" : "ok");
    if (p.check && me == 0) *check_bad += compare_serial(full, root, level_all);
  }
  if (me == 0) {
    bfs::print_statistics(p, g.npes, tgen, times, nedges, vtimes);
    split.print();
    const double nr = roots.empty() ? 1.0 : (double)roots.size();
    std::printf("bfs: mean per search: compute %.5f s, communication %.5f s (slowest PE of each part)\n",
                sum_comp / nr, sum_comm / nr);
    double inv = 0;
    for (size_t i = 0; i < times.size(); ++i) inv += times[i] / nedges[i];
    std::printf("bfs: harmonic mean %.4e TEPS over %zu roots (warm-up search excluded); validation %s\n",
                times.empty() ? 0.0 : times.size() / inv, roots.size(), *bad_total ? "FAILED" : "ok");
  }
  shmem_barrier_all();
  shmem_free(split.buf);
  shmem_free(level_all);
}

}  // namespace

int main(int argc, char **argv) {
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const bfs::Params p = parse(argc, argv);
  if (p.scale < 1 || p.scale > 30 || p.edgefactor < 1 || p.roots < 1 || !(p.alpha > 0) || !(p.beta > 0)) {
    if (me == 0) std::fprintf(stderr, "bfs: need 1 <= scale <= 30, edgefactor >= 1, roots >= 1, alpha, beta > 0\n");
    shmem_finalize();
    return 2;
  }
  bfs::Graph g;
  bfs::partition(p, me, npes, g);

  const double tg0 = apps::wtime();
  if (!bfs::build_graph(p, g)) {
    if (me == 0) std::fprintf(stderr, "bfs: shmem_malloc failed in construction (raise GSHMEM_SYMMETRIC_SIZE)\n");
    shmem_global_exit(1);
  }
  shmem_barrier_all();
  const double tgen = apps::wtime() - tg0;
  const std::vector<uint64_t> roots = bfs::pick_roots(p, g);
  if (me == 0)
    std::printf("bfs: %s scale=%d edgefactor=%d N=%" PRIu64 " M=%" PRIu64 " npes=%d roots=%zu; construction "
                "%.3f s; %s\n", p.er ? "Erdos-Renyi" : "Kronecker", p.scale, p.edgefactor, g.n, g.m, npes,
                roots.size(), tgen, p.topdown_only ? "top-down only" : "direction-optimizing");
  bfs::Graph full;
  if (p.check && me == 0) {
    full.n = g.n;
    full.m = g.m;
    bfs::build_full_graph(p, full);
  }
  int64_t bad_total = 0, check_bad = 0;
  double *red = static_cast<double *>(shmem_malloc(8 * sizeof(double)));
  if (!red) shmem_global_exit(1);
  run_searches(p, g, full, roots, tgen, red, &bad_total, &check_bad);
  int rc = bad_total ? 1 : 0;
  if (p.check) {
    red[0] = (double)(check_bad + bad_total);
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, red + 1, red, 1);  // PE 0's count wins: others add only 0
    if (me == 0) std::printf("bfs check: %s\n", red[1] == 0 ? "OK" : "FAILED");
    rc = red[1] != 0 ? 1 : 0;
  }
  shmem_barrier_all();
  shmem_free(red);
  shmem_finalize();
  return rc;
}
