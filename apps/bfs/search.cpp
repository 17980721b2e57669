// bfs search: level-synchronous, direction-optimizing (Beamer's top-down / bottom-up switching).
//
// Top-down level: each frontier vertex u of this PE scans its neighbours v. A local unvisited v is
// visited at once; a remote v not yet known visited is marked in this PE's copy of the global visited
// bitmap (so it is sent once per search) and the record (v << 32 | u) goes to v's owner through the queue
// protocol (queue_send, then shmem_barrier_all), which accepts the first record of an unvisited v.
// Bottom-up level: the frontier is a bitmap gathered from every PE's slice with fcollect; each unvisited
// vertex of this PE scans its neighbours and takes the first one in the frontier as parent.
// After each level one sum reduction gives the next frontier's vertex count n_f and adjacency size m_f.
// Switching (alpha, beta as in Beamer et al.): top-down -> bottom-up when m_f > m_u / alpha, m_u the
// adjacency entries of still unvisited vertices; bottom-up -> top-down when n_f < N / beta and shrinking.
//
// Queue bound: a PE sends each remote vertex at most once per search, so a PE receives at most
// (npes - 1) * chunk records per level: cap_ = (npes - 1) * chunk + 1.
#include <shmem.h>

#include <algorithm>
#include <cstdio>

#include "../common/app_util.hpp"
#include "bfs.hpp"

namespace bfs {
namespace {
inline bool test_bit(const uint64_t *b, uint64_t i) { return (b[i >> 6] >> (i & 63)) & 1; }
inline void set_bit(uint64_t *b, uint64_t i) { b[i >> 6] |= (uint64_t)1 << (i & 63); }
}  // namespace

Searcher::Searcher(const Params &p, const Graph &g) : p_(p), g_(g) {
  words_ = g.chunk / 64;
  parent_.assign(g.nloc, -1);
  visited_.assign(words_ * g.npes, 0);
  out_.resize(g.npes);
  cap_ = (uint64_t)(g.npes - 1) * g.chunk + 1;
  level_ = static_cast<int32_t *>(shmem_malloc(g.chunk * sizeof(int32_t)));
  slice_ = static_cast<uint64_t *>(shmem_calloc(words_, sizeof(uint64_t)));
  front_ = static_cast<uint64_t *>(shmem_calloc(words_ * g.npes, sizeof(uint64_t)));
  queue_ = static_cast<uint64_t *>(shmem_malloc(cap_ * sizeof(uint64_t)));
  qcount_ = static_cast<uint64_t *>(shmem_calloc(1, sizeof(uint64_t)));
  red_ = static_cast<int64_t *>(shmem_calloc(8, sizeof(int64_t)));
  ok_ = level_ && slice_ && front_ && queue_ && qcount_ && red_;
}

Searcher::~Searcher() {
  shmem_barrier_all();
  shmem_free(red_);
  shmem_free(qcount_);
  shmem_free(queue_);
  shmem_free(front_);
  shmem_free(slice_);
  shmem_free(level_);
}

void Searcher::visit(uint64_t l, uint64_t parent, int32_t lvl) {
  parent_[l] = (int64_t)parent;
  level_[l] = lvl;
  set_bit(visited_.data(), (uint64_t)g_.me * g_.chunk + l);
  set_bit(slice_, l);
  ++next_n_;
  next_m_ += (int64_t)g_.deg(l);
}

void Searcher::reset() {
  std::fill(parent_.begin(), parent_.end(), -1);
  std::fill(level_, level_ + g_.chunk, -1);
  std::fill(visited_.begin(), visited_.end(), 0);
  std::fill(slice_, slice_ + words_, 0);
  // Slots past the last vertex count as visited, so bottom-up never looks at them.
  for (uint64_t l = g_.nloc; l < g_.chunk; ++l) set_bit(visited_.data(), (uint64_t)g_.me * g_.chunk + l);
  cur_.clear();
  next_.clear();
}

void Searcher::top_down(int32_t lvl, SearchTimes &st) {
  const uint64_t v0 = g_.v0;
  const int me = g_.me;
  uint64_t *vis = visited_.data();
  for (uint32_t l : cur_) {
    const uint64_t u = v0 + l;
    for (uint64_t k = g_.off[l], ke = g_.off[l + 1]; k < ke; ++k) {
      const uint64_t v = g_.adj[k];
      if (test_bit(vis, v)) continue;
      const int d = g_.owner(v);
      if (d == me) {
        visit(v - v0, u, lvl + 1);
        next_.push_back((uint32_t)(v - v0));
      } else {
        set_bit(vis, v);
        out_[d].push_back(v << 32 | u);
      }
    }
  }
  const double tc = apps::wtime();
  for (int k = 1; k < g_.npes; ++k) {
    const int d = (me + k) % g_.npes;
    queue_send(queue_, qcount_, cap_, d, out_[d].data(), out_[d].size());
    out_[d].clear();
  }
  shmem_barrier_all();  // every record of this level is in place
  st.comm += apps::wtime() - tc;
  const uint64_t nrec = *qcount_;
  for (uint64_t i = 0; i < nrec; ++i) {
    const uint64_t v = queue_[i] >> 32, l = v - v0;
    if (test_bit(vis, v)) continue;
    visit(l, queue_[i] & 0xffffffffu, lvl + 1);
    next_.push_back((uint32_t)l);
  }
  // Ordered before the next level's fetch-adds by the reduction every PE enters next.
  shmem_uint64_atomic_set(qcount_, 0, me);
}

void Searcher::bottom_up(int32_t lvl) {
  uint64_t *vis = visited_.data() + (uint64_t)g_.me * words_;
  const uint64_t *front = front_;
  for (uint64_t w = 0; w < words_; ++w) {
    uint64_t todo = ~vis[w];
    while (todo) {
      const uint64_t l = w * 64 + (uint64_t)__builtin_ctzll(todo);
      todo &= todo - 1;
      for (uint64_t k = g_.off[l], ke = g_.off[l + 1]; k < ke; ++k) {
        const uint64_t u = g_.adj[k];
        if (test_bit(front, u)) {
          visit(l, u, lvl + 1);
          break;
        }
      }
    }
  }
}

void Searcher::list_from_slice() {
  cur_.clear();
  for (uint64_t w = 0; w < words_; ++w)
    for (uint64_t b = slice_[w]; b; b &= b - 1) cur_.push_back((uint32_t)(w * 64 + __builtin_ctzll(b)));
}

void Searcher::exchange_frontier() {
  shmem_uint64_fcollect(SHMEM_TEAM_WORLD, front_, slice_, words_);
  uint64_t *vis = visited_.data();
  for (uint64_t w = 0, nw = words_ * g_.npes; w < nw; ++w) vis[w] |= front_[w];
}

SearchTimes Searcher::run(uint64_t root) {
  SearchTimes st;
  reset();
  shmem_barrier_all();
  const double t0 = apps::wtime();
  next_n_ = next_m_ = 0;
  if (g_.owner(root) == g_.me) {
    visit(root - g_.v0, root, 0);
    cur_.push_back((uint32_t)(root - g_.v0));
  }
  std::fill(slice_, slice_ + words_, 0);
  bool bu = false;
  int64_t n_f = 1, m_u = (int64_t)g_.total_adj;
  for (int32_t lvl = 0;; ++lvl) {
    const double tl0 = apps::wtime(), comm0 = st.comm;
    auto record = [&] {
      st.level_time.push_back(apps::wtime() - tl0);
      st.level_comm.push_back(st.comm - comm0);
      st.level_bottom_up.push_back(bu);
    };
    next_n_ = next_m_ = 0;
    next_.clear();
    if (bu) bottom_up(lvl);
    else top_down(lvl, st);
    const double tc = apps::wtime();
    red_[0] = next_n_;
    red_[1] = next_m_;
    shmem_int64_sum_reduce(SHMEM_TEAM_WORLD, red_ + 2, red_, 2);
    const int64_t n_next = red_[2], m_next = red_[3];
    st.comm += apps::wtime() - tc;
    ++st.levels;
    st.bottom_up_levels += bu;
    if (n_next == 0) {
      record();
      break;
    }
    m_u -= m_next;
    bool nb = bu;
    if (p_.topdown_only) nb = false;
    else if (!bu) nb = (double)m_next > (double)m_u / p_.alpha;
    else nb = !((double)n_next < (double)g_.n / p_.beta && n_next < n_f);
    if (nb) {
      const double tx = apps::wtime();
      exchange_frontier();
      st.comm += apps::wtime() - tx;
    } else if (bu) {
      list_from_slice();
    } else {
      cur_.swap(next_);
    }
    std::fill(slice_, slice_ + words_, 0);
    record();
    bu = nb;
    n_f = n_next;
  }
  st.total = apps::wtime() - t0;
  st.compute = st.total - st.comm;
  return st;
}

}  // namespace bfs
