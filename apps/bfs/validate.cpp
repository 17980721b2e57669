// bfs validation (Graph500 rules, every search, untimed) and the serial reference for --check.
//
// With the levels of all vertices gathered on every PE, each PE checks its own vertices:
//  - the root is reached, at level 0, and is its own parent;
//  - every other reached vertex has a parent that is reached, one level up, and joined to it by an input
//    edge (so following parents strictly decreases the level: no cycles, every path ends at the root);
//  - every input edge joins two unreached vertices, or two reached ones whose levels differ by at most 1
//    (so the tree spans the root's component and the levels are BFS distances);
//  - an unreached vertex has no parent.
#include <shmem.h>

#include <algorithm>
#include <cstdlib>

#include "bfs.hpp"

namespace bfs {

int64_t validate(const Graph &g, uint64_t root, const std::vector<int64_t> &parent, int32_t *level,
                 int32_t *level_all, double *edges) {
  shmem_int32_fcollect(SHMEM_TEAM_WORLD, level_all, level, g.chunk);
  int64_t bad = 0, half = 0;
  for (uint64_t l = 0; l < g.nloc; ++l) {
    const uint64_t v = g.v0 + l;
    const int32_t lv = level[l];
    const int64_t pa = parent[l];
    const auto b = g.adj.begin() + g.off[l], e = g.adj.begin() + g.off[l + 1];
    if (lv < 0) {
      bad += pa != -1 || v == root;
    } else {
      half += (int64_t)g.in_half[l] + 2 * (int64_t)g.in_loop[l];
      if (v == root)
        bad += !(lv == 0 && pa == (int64_t)root);
      else
        bad += !(pa >= 0 && (uint64_t)pa < g.n && level_all[pa] >= 0 && level_all[pa] == lv - 1 &&
                 std::binary_search(b, e, (uint32_t)pa));
    }
    for (auto it = b; it != e; ++it) {
      const int32_t lw = level_all[*it];
      bad += (lv < 0) != (lw < 0) || (lv >= 0 && std::abs(lv - lw) > 1);
    }
  }
  int64_t *red = static_cast<int64_t *>(shmem_malloc(4 * sizeof(int64_t)));
  red[0] = bad;
  red[1] = half;
  shmem_int64_sum_reduce(SHMEM_TEAM_WORLD, red + 2, red, 2);
  bad = red[2];
  *edges = (double)red[3] / 2.0;
  shmem_free(red);
  return bad;
}

std::vector<int32_t> serial_levels(const Graph &full, uint64_t root) {
  std::vector<int32_t> lv(full.n, -1);
  std::vector<uint64_t> cur{root}, next;
  lv[root] = 0;
  for (int32_t l = 0; !cur.empty(); ++l) {
    next.clear();
    for (uint64_t u : cur)
      for (uint64_t k = full.off[u]; k < full.off[u + 1]; ++k)
        if (lv[full.adj[k]] < 0) {
          lv[full.adj[k]] = l + 1;
          next.push_back(full.adj[k]);
        }
    cur.swap(next);
  }
  return lv;
}

}  // namespace bfs
