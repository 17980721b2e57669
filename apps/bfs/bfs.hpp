// bfs: declarations shared by the files of the distributed Graph500-style BFS (host version).
//
// Graph: N = 2^scale vertices, M = edgefactor * N input edges (tuples), each a pure function of
// (seed, edge index): Kronecker/R-MAT with initiator A, B, C, D = 0.57, 0.19, 0.19, 0.05 and a bijective
// vertex scramble, or Erdos-Renyi (--er). Self loops and duplicate tuples are kept in the input; the
// traversal structure (CSR) drops both, but each vertex keeps the counts Graph500's TEPS needs.
//
// Partition: 1D blocks of `chunk` vertices (a multiple of 64, so each PE's slice of a vertex bitmap is
// whole 64-bit words and the slices gathered by fcollect form the global bitmap). Vertex v belongs to PE
// v / chunk. Global vertex ids fit in 32 bits (scale <= 30).
#ifndef GSHMEM_APPS_BFS_BFS_HPP
#define GSHMEM_APPS_BFS_BFS_HPP

#include <cstdint>
#include <vector>

namespace bfs {

struct Params {
  int scale = 16;
  int edgefactor = 16;
  int roots = 64;
  uint64_t seed = 1;
  bool er = false;
  bool check = false;
  bool verbose = false;       // one line per search
  bool topdown_only = false;  // --top-down: never switch to bottom-up (for comparison)
  double alpha = 14.0;        // top-down -> bottom-up when frontier edges > unexplored edges / alpha
  double beta = 24.0;         // bottom-up -> top-down when the frontier shrinks below N / beta vertices
};

enum Stream : uint64_t { kEdge = 11, kRoot = 12 };

/** This PE's vertices [v0, v0 + nloc) as a CSR of global neighbour ids (sorted, no duplicates, no loops). */
struct Graph {
  uint64_t n = 0, m = 0, chunk = 0, v0 = 0, nloc = 0;
  int me = 0, npes = 1;
  std::vector<uint64_t> off;      // nloc + 1
  std::vector<uint32_t> adj;      // off[nloc] entries
  std::vector<uint32_t> in_half;  // per vertex: input tuples with a distinct other end, as directed copies
  std::vector<uint32_t> in_loop;  // per vertex: input self-loop tuples
  uint64_t total_adj = 0;         // sum over all PEs of off[nloc] (same on every PE)
  int owner(uint64_t v) const { return (int)(v / chunk); }
  uint64_t deg(uint64_t l) const { return off[l + 1] - off[l]; }
};

/** Queue protocol (construction and top-down levels): a symmetric array of `cap` packed records and a
 *  symmetric counter. Reserves n slots on PE d with a fetch-add on d's counter and puts the records there;
 *  ends the job if d's array would overflow. Completion: the caller's next shmem_barrier_all(). */
void queue_send(uint64_t *queue, uint64_t *count, uint64_t cap, int d, const uint64_t *src, uint64_t n);

/** Endpoints of input edge e (a pure function of p and e). */
void gen_edge(const Params &p, uint64_t e, uint64_t *u, uint64_t *v);

/** Sets g's size (N = 2^scale, M = edgefactor * N) and this PE's vertex block: blocks of ceil(N / npes) vertices
 *  rounded up to 64 (bitmap words), the last PEs' possibly short or empty. */
void partition(const Params &p, int me, int npes, Graph &g);

/** Collective: generates this PE's share of the edge list, ships each directed copy to its owner through
 *  symmetric memory and builds the CSR. Returns false (on every PE) if symmetric memory ran out. */
bool build_graph(const Params &p, Graph &g);

/** The whole graph as one CSR (npes = 1 layout) on the calling PE; for the serial reference. */
void build_full_graph(const Params &p, Graph &g);

/** Collective: up to p.roots distinct search keys among vertices with a neighbour other than themselves,
 *  the same list for every PE count. */
std::vector<uint64_t> pick_roots(const Params &p, const Graph &g);

/** Per-search timing split, seconds on this PE. */
struct SearchTimes {
  double total = 0, compute = 0, comm = 0;
  int levels = 0, bottom_up_levels = 0;
  std::vector<double> level_time, level_comm;  // per level: wall time, and its communication part
  std::vector<char> level_bottom_up;           // per level: 1 if it ran bottom-up
};

/** Direction-optimizing BFS state: symmetric buffers and local scratch, reused across searches. */
class Searcher {
 public:
  Searcher(const Params &p, const Graph &g);
  ~Searcher();
  bool ok() const { return ok_; }
  /** Collective: one search from root. Fills parent() and level() of this PE's vertices. The clearing of
   *  the previous search's state is not timed (as Graph500 clears pred outside the timer). */
  SearchTimes run(uint64_t root);
  const std::vector<int64_t> &parent() const { return parent_; }
  /** Symmetric array of chunk levels (-1: unreached) of this PE's vertices. */
  int32_t *level() const { return level_; }

 private:
  void reset();
  void visit(uint64_t l, uint64_t parent, int32_t lvl);
  void top_down(int32_t lvl, SearchTimes &st);
  void bottom_up(int32_t lvl);
  void list_from_slice();
  void exchange_frontier();

  const Params &p_;
  const Graph &g_;
  bool ok_ = false;
  uint64_t words_ = 0;                 // bitmap words per PE slice (chunk / 64)
  std::vector<int64_t> parent_;
  std::vector<uint64_t> visited_;      // global bitmap: own slice exact, other slices = sent/known
  std::vector<uint32_t> cur_, next_;   // top-down frontier lists (local indices)
  std::vector<std::vector<uint64_t>> out_;
  int32_t *level_ = nullptr;           // symmetric, chunk
  uint64_t *slice_ = nullptr;          // symmetric, words_: next frontier bits of this PE's vertices
  uint64_t *front_ = nullptr;          // symmetric, npes * words_: gathered frontier bitmap
  uint64_t *queue_ = nullptr;          // symmetric, cap_ packed records (v << 32 | parent)
  uint64_t *qcount_ = nullptr;         // symmetric, 1
  int64_t *red_ = nullptr;             // symmetric, 4
  uint64_t cap_ = 0;
  int64_t next_n_ = 0, next_m_ = 0;    // this PE's part of the next frontier: vertices, adjacency entries
};

/** Collective validation of one search (untimed). Sets *edges to Graph500's edge count of the traversed
 *  component (input tuples with both ends in it; a self loop counts 1) and returns the number of errors. */
int64_t validate(const Graph &g, uint64_t root, const std::vector<int64_t> &parent, int32_t *level,
                 int32_t *level_all, double *edges);

/** Serial levels from root over a full graph (build_full_graph). */
std::vector<int32_t> serial_levels(const Graph &full, uint64_t root);

/** Prints the Graph500 statistics block (order statistics, means, harmonic mean and deviation). */
void print_statistics(const Params &p, int npes, double construction, const std::vector<double> &times,
                      const std::vector<double> &edges, const std::vector<double> &validate_times);

}  // namespace bfs

#endif  // GSHMEM_APPS_BFS_BFS_HPP
