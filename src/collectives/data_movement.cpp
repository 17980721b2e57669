// Data-movement collectives: broadcast, collect, fcollect, alltoall, alltoalls (team-based and active-set).
// Every algorithm is sync -> move -> sync:
//   - the first sync guarantees every member has entered the call, so its dest may be written and its source read;
//   - the second guarantees every transfer touching this PE's buffers is done before it returns.
// broadcast pulls from the root (each non-root reads the root's source once); the others push their blocks
// into the peers' dest, starting with the next member so that members do not all hammer the same peer at once.
#include <cstring>

#include "collectives/coll.hpp"
#include "gshmem/c/collectives.h"

namespace gshmem::coll {

namespace {
char* at(void* p, std::size_t off) { return static_cast<char*>(p) + off; }
const char* at(const void* p, std::size_t off) { return static_cast<const char*>(p) + off; }
}  // namespace

void broadcastBytes(const Group& g, void* dest, const void* source, std::size_t bytes, int root, bool write_root) {
  checkRoot(g, root);
  checkAgreement(g, bytes, static_cast<uint64_t>(root));
  if (bytes == 0) return;
  groupSync(g);
  if (g.me != root)
    ops::get(g.call, ctxDefault(), dest, source, bytes, g.worldPe(root));
  else if (write_root && dest != source)
    std::memmove(dest, source, bytes);
  groupSync(g);  // the root's source stays untouched until every member has read it
}

void fcollectBytes(const Group& g, void* dest, const void* source, std::size_t bytes) {
  checkAgreement(g, bytes);
  if (bytes == 0) return;
  groupSync(g);
  for (int k = 1; k <= g.size; ++k) {
    int j = (g.me + k) % g.size;
    ops::put(g.call, ctxDefault(), at(dest, g.me * bytes), source, bytes, g.worldPe(j));
  }
  groupSync(g);
}

void collectBytes(const Group& g, void* dest, const void* source, std::size_t bytes) {
  // Counts differ per member, so no member may skip the syncs even with nothing to send.
  checkAgreement(g, agree::kNotApplicable);  // the counts may differ
  std::size_t off = exclusivePrefix(g, bytes);  // contains the first sync
  if (bytes)
    for (int k = 1; k <= g.size; ++k) {
      int j = (g.me + k) % g.size;
      ops::put(g.call, ctxDefault(), at(dest, off), source, bytes, g.worldPe(j));
    }
  groupSync(g);
}

void alltoallBytes(const Group& g, void* dest, const void* source, std::size_t bytes) {
  checkAgreement(g, bytes);
  if (bytes == 0) return;
  groupSync(g);
  for (int k = 1; k <= g.size; ++k) {
    int j = (g.me + k) % g.size;
    ops::put(g.call, ctxDefault(), at(dest, g.me * bytes), at(source, j * bytes), bytes, g.worldPe(j));
  }
  groupSync(g);
}

void alltoallsBytes(const Group& g, void* dest, const void* source, std::ptrdiff_t dst, std::ptrdiff_t sst,
                    std::size_t nelems, std::size_t esize) {
  checkAgreement(g, nelems * esize);
  if (nelems == 0) return;
  if (GSHMEM_UNLIKELY(dst < 1 || sst < 1)) fatal(g.call, "strides dst %td and sst %td must be at least 1", dst, sst);
  groupSync(g);
  const std::size_t dblock = nelems * static_cast<std::size_t>(dst) * esize;
  const std::size_t sblock = nelems * static_cast<std::size_t>(sst) * esize;
  for (int k = 1; k <= g.size; ++k) {
    int j = (g.me + k) % g.size;
    ops::iput(g.call, ctxDefault(), at(dest, g.me * dblock), at(source, j * sblock), dst, sst, nelems, esize,
              g.worldPe(j));
  }
  groupSync(g);
}

}  // namespace gshmem::coll
