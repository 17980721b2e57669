// bfs graph construction: the Kronecker / Erdos-Renyi generator, the distributed CSR build, root choice.
#include <shmem.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "../common/app_util.hpp"
#include "bfs.hpp"

namespace bfs {
namespace {

uint64_t scramble(uint64_t v, const Params &p) {
  const uint64_t mask = ((uint64_t)1 << p.scale) - 1;
  const int sh = p.scale / 2 > 0 ? p.scale / 2 : 1;
  v = (v * 0x9e3779b97f4a7c15ULL + apps::mix64(p.seed)) & mask;  // odd multiplier: bijective mod 2^scale
  v ^= v >> sh;
  v = (v * 0xd1b54a32d192ed03ULL) & mask;
  v ^= v >> sh;
  return v;
}

uint64_t pack(uint64_t hi, uint64_t lo) { return hi << 32 | lo; }

/** CSR of records (src << 32 | dst) with src in [v0, v0 + nloc): counts loops and directed copies per
 *  vertex, then keeps each distinct non-loop neighbour once, sorted. */
void build_csr(Graph &g, const uint64_t *rec, uint64_t nrec) {
  g.off.assign(g.nloc + 1, 0);
  g.in_half.assign(g.nloc, 0);
  g.in_loop.assign(g.nloc, 0);
  for (uint64_t i = 0; i < nrec; ++i) {
    const uint64_t s = rec[i] >> 32, t = rec[i] & 0xffffffffu;
    if (s == t) ++g.in_loop[s - g.v0];
    else ++g.in_half[s - g.v0];
  }
  for (uint64_t l = 0; l < g.nloc; ++l) g.off[l + 1] = g.off[l] + g.in_half[l];
  std::vector<uint32_t> adj(g.off[g.nloc]);
  std::vector<uint64_t> pos(g.off.begin(), g.off.end() - 1);
  for (uint64_t i = 0; i < nrec; ++i) {
    const uint64_t s = rec[i] >> 32, t = rec[i] & 0xffffffffu;
    if (s != t) adj[pos[s - g.v0]++] = (uint32_t)t;
  }
  uint64_t w = 0;  // compaction: sorted, unique
  for (uint64_t l = 0; l < g.nloc; ++l) {
    auto b = adj.begin() + g.off[l], e = adj.begin() + g.off[l + 1];
    std::sort(b, e);
    const uint64_t k = std::unique(b, e) - b;
    std::copy(b, b + k, adj.begin() + w);
    g.off[l] = w;
    w += k;
  }
  g.off[g.nloc] = w;
  adj.resize(w);
  adj.shrink_to_fit();
  g.adj.swap(adj);
}

}  // namespace

void queue_send(uint64_t *queue, uint64_t *count, uint64_t cap, int d, const uint64_t *src, uint64_t n) {
  if (!n) return;
  const uint64_t off = shmem_uint64_atomic_fetch_add(count, n, d);
  if (off + n > cap) {
    std::fprintf(stderr, "bfs: queue overflow on PE %d (%" PRIu64 " + %" PRIu64 " > %" PRIu64 ")\n", d, off, n, cap);
    shmem_global_exit(3);
  }
  shmem_putmem(queue + off, src, n * sizeof(uint64_t), d);
}

void gen_edge(const Params &p, uint64_t e, uint64_t *u, uint64_t *v) {
  const uint64_t n = (uint64_t)1 << p.scale;
  if (p.er) {
    const uint64_t h = apps::hash64(p.seed, e, 0, kEdge);
    *u = h % n;
    *v = apps::mix64(h) % n;
    return;
  }
  // One quadrant choice per level from a 21-bit uniform; three levels per 64-bit hash.
  const uint32_t ta = (uint32_t)(0.57 * (1 << 21)), tb = (uint32_t)(0.76 * (1 << 21)),
                 tc = (uint32_t)(0.95 * (1 << 21));
  uint64_t a = 0, b = 0, h = 0;
  for (int l = 0; l < p.scale; ++l) {
    if (l % 3 == 0) h = apps::hash64(p.seed, e, (uint64_t)l, kEdge);
    const uint32_t r = (uint32_t)(h >> (21 * (l % 3))) & 0x1fffff;
    const uint64_t bu = r >= tb, bv = (r >= ta && r < tb) || r >= tc;
    a = (a << 1) | bu;
    b = (b << 1) | bv;
  }
  *u = scramble(a, p);
  *v = scramble(b, p);
}

void partition(const Params &p, int me, int npes, Graph &g) {
  g.me = me;
  g.npes = npes;
  g.n = (uint64_t)1 << p.scale;
  g.m = (uint64_t)p.edgefactor * g.n;
  g.chunk = ((g.n + npes - 1) / npes + 63) / 64 * 64;
  g.v0 = (uint64_t)me * g.chunk;
  g.nloc = g.v0 < g.n ? std::min(g.n, g.v0 + g.chunk) - g.v0 : 0;
}

bool build_graph(const Params &p, Graph &g) {
  const int me = g.me, npes = g.npes;
  const uint64_t e0 = g.m * me / npes, e1 = g.m * (me + 1) / npes;
  std::vector<std::vector<uint64_t>> out(npes);
  for (uint64_t e = e0; e < e1; ++e) {
    uint64_t u, v;
    gen_edge(p, e, &u, &v);
    out[g.owner(u)].push_back(pack(u, v));
    if (u != v) out[g.owner(v)].push_back(pack(v, u));
  }
  uint64_t *cnt = static_cast<uint64_t *>(shmem_malloc((2 * npes + 4) * sizeof(uint64_t)));
  if (!cnt) return false;
  uint64_t *recvc = cnt + npes, *red = cnt + 2 * npes;
  for (int d = 0; d < npes; ++d) cnt[d] = out[d].size();
  shmem_uint64_alltoall(SHMEM_TEAM_WORLD, recvc, cnt, 1);
  red[0] = 0;
  for (int d = 0; d < npes; ++d) red[0] += recvc[d];
  const uint64_t incoming = red[0];
  shmem_uint64_max_reduce(SHMEM_TEAM_WORLD, red + 1, red, 1);
  const uint64_t cap = red[1] + 1;
  uint64_t *queue = static_cast<uint64_t *>(shmem_malloc(cap * sizeof(uint64_t)));
  uint64_t *qcount = static_cast<uint64_t *>(shmem_calloc(1, sizeof(uint64_t)));
  red[2] = (queue && qcount) ? 0 : 1;
  shmem_uint64_max_reduce(SHMEM_TEAM_WORLD, red + 3, red + 2, 1);  // also: every qcount zero before any send
  if (red[3]) return false;
  for (int k = 1; k <= npes; ++k) {  // staggered destinations
    const int d = (me + k) % npes;
    queue_send(queue, qcount, cap, d, out[d].data(), out[d].size());
    std::vector<uint64_t>().swap(out[d]);
  }
  shmem_barrier_all();
  if (*qcount != incoming) {
    std::fprintf(stderr, "bfs: PE %d: received %" PRIu64 " records, alltoall announced %" PRIu64 "\n", me, *qcount,
                 incoming);
    shmem_global_exit(4);
  }
  build_csr(g, queue, *qcount);
  red[0] = g.off[g.nloc];
  shmem_uint64_sum_reduce(SHMEM_TEAM_WORLD, red + 1, red, 1);
  g.total_adj = red[1];
  shmem_free(qcount);
  shmem_free(queue);
  shmem_free(cnt);
  return true;
}

void build_full_graph(const Params &p, Graph &g) {
  g.chunk = g.nloc = g.n;
  g.v0 = 0;
  g.me = 0;
  g.npes = 1;
  std::vector<uint64_t> rec;
  rec.reserve(2 * g.m);
  for (uint64_t e = 0; e < g.m; ++e) {
    uint64_t u, v;
    gen_edge(p, e, &u, &v);
    rec.push_back(pack(u, v));
    if (u != v) rec.push_back(pack(v, u));
  }
  build_csr(g, rec.data(), rec.size());
  g.total_adj = g.off[g.nloc];
}

std::vector<uint64_t> pick_roots(const Params &p, const Graph &g) {
  const uint64_t words = g.chunk / 64;
  uint64_t *slice = static_cast<uint64_t *>(shmem_calloc(words, sizeof(uint64_t)));
  uint64_t *all = static_cast<uint64_t *>(shmem_malloc(words * g.npes * sizeof(uint64_t)));
  if (!slice || !all) {
    std::fprintf(stderr, "bfs: PE %d: shmem_malloc failed (raise GSHMEM_SYMMETRIC_SIZE)\n", g.me);
    shmem_global_exit(1);
  }
  for (uint64_t l = 0; l < g.nloc; ++l)
    if (g.deg(l) > 0) slice[l / 64] |= (uint64_t)1 << (l % 64);
  shmem_uint64_fcollect(SHMEM_TEAM_WORLD, all, slice, words);
  std::vector<uint64_t> roots;
  // Graph500-like: hashed candidates in order, duplicates and isolated vertices skipped, a bounded search.
  for (uint64_t t = 0; (int)roots.size() < p.roots && t < 4 * g.n + 64; ++t) {
    const uint64_t r = apps::hash64(p.seed, t, 0, kRoot) & (g.n - 1);
    if (!((all[r / 64] >> (r % 64)) & 1)) continue;
    if (std::find(roots.begin(), roots.end(), r) == roots.end()) roots.push_back(r);
  }
  shmem_barrier_all();
  shmem_free(all);
  shmem_free(slice);
  return roots;
}

}  // namespace bfs
