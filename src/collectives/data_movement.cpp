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
  if (bytes == 0) return;
  groupSync(g);
  if (g.me != root)
    ops::get(g.call, ctxDefault(), dest, source, bytes, g.worldPe(root));
  else if (write_root && dest != source)
    std::memmove(dest, source, bytes);
  groupSync(g);  // the root's source stays untouched until every member has read it
}

void fcollectBytes(const Group& g, void* dest, const void* source, std::size_t bytes) {
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
  std::size_t off = exclusivePrefix(g, bytes);  // contains the first sync
  if (bytes)
    for (int k = 1; k <= g.size; ++k) {
      int j = (g.me + k) % g.size;
      ops::put(g.call, ctxDefault(), at(dest, off), source, bytes, g.worldPe(j));
    }
  groupSync(g);
}

void alltoallBytes(const Group& g, void* dest, const void* source, std::size_t bytes) {
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

using gshmem::coll::Group;
using gshmem::coll::activeSetGroup;
using gshmem::coll::teamGroup;

// ---------------------------------------------------------------------------------------------- team-based
#define GSHMEM_DEF_COLL(T, N)                                                                                   \
  extern "C" int shmem_##N##_broadcast(shmem_team_t team, T* dest, const T* source, size_t nelems, int PE_root) { \
    Group g = teamGroup("shmem_" #N "_broadcast", team);                                                       \
    gshmem::coll::broadcastBytes(g, dest, source, nelems * sizeof(T), PE_root, true);                          \
    return 0;                                                                                                   \
  }                                                                                                             \
  extern "C" int shmem_##N##_collect(shmem_team_t team, T* dest, const T* source, size_t nelems) {             \
    gshmem::coll::collectBytes(teamGroup("shmem_" #N "_collect", team), dest, source, nelems * sizeof(T));      \
    return 0;                                                                                                   \
  }                                                                                                             \
  extern "C" int shmem_##N##_fcollect(shmem_team_t team, T* dest, const T* source, size_t nelems) {            \
    gshmem::coll::fcollectBytes(teamGroup("shmem_" #N "_fcollect", team), dest, source, nelems * sizeof(T));    \
    return 0;                                                                                                   \
  }                                                                                                             \
  extern "C" int shmem_##N##_alltoall(shmem_team_t team, T* dest, const T* source, size_t nelems) {            \
    gshmem::coll::alltoallBytes(teamGroup("shmem_" #N "_alltoall", team), dest, source, nelems * sizeof(T));    \
    return 0;                                                                                                   \
  }                                                                                                             \
  extern "C" int shmem_##N##_alltoalls(shmem_team_t team, T* dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, \
                                       size_t nelems) {                                                         \
    gshmem::coll::alltoallsBytes(teamGroup("shmem_" #N "_alltoalls", team), dest, source, dst, sst, nelems,     \
                                 sizeof(T));                                                                    \
    return 0;                                                                                                   \
  }
GSHMEM_COLL_TYPES(GSHMEM_DEF_COLL)
#undef GSHMEM_DEF_COLL

extern "C" int shmem_broadcastmem(shmem_team_t team, void* dest, const void* source, size_t nelems, int PE_root) {
  gshmem::coll::broadcastBytes(teamGroup("shmem_broadcastmem", team), dest, source, nelems, PE_root, true);
  return 0;
}
extern "C" int shmem_collectmem(shmem_team_t team, void* dest, const void* source, size_t nelems) {
  gshmem::coll::collectBytes(teamGroup("shmem_collectmem", team), dest, source, nelems);
  return 0;
}
extern "C" int shmem_fcollectmem(shmem_team_t team, void* dest, const void* source, size_t nelems) {
  gshmem::coll::fcollectBytes(teamGroup("shmem_fcollectmem", team), dest, source, nelems);
  return 0;
}
extern "C" int shmem_alltoallmem(shmem_team_t team, void* dest, const void* source, size_t nelems) {
  gshmem::coll::alltoallBytes(teamGroup("shmem_alltoallmem", team), dest, source, nelems);
  return 0;
}
extern "C" int shmem_alltoallsmem(shmem_team_t team, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,
                                  size_t nelems) {
  gshmem::coll::alltoallsBytes(teamGroup("shmem_alltoallsmem", team), dest, source, dst, sst, nelems, 1);
  return 0;
}

// ---------------------------------------------------------------------------------------------- active sets
// nelems counts BITS-bit elements. The deprecated broadcast leaves dest on the root unchanged (OpenSHMEM 1.4).
#define GSHMEM_DEF_SIZED_COLL(BITS)                                                                              \
  extern "C" void shmem_broadcast##BITS(void* dest, const void* source, size_t nelems, int PE_root, int PE_start, \
                                        int logPE_stride, int PE_size, long* pSync) {                           \
    Group g = activeSetGroup("shmem_broadcast" #BITS, PE_start, logPE_stride, PE_size, pSync);                  \
    gshmem::coll::broadcastBytes(g, dest, source, nelems * (BITS / 8), PE_root, false);                          \
  }                                                                                                              \
  extern "C" void shmem_collect##BITS(void* dest, const void* source, size_t nelems, int PE_start,               \
                                      int logPE_stride, int PE_size, long* pSync) {                             \
    Group g = activeSetGroup("shmem_collect" #BITS, PE_start, logPE_stride, PE_size, pSync);                    \
    gshmem::coll::collectBytes(g, dest, source, nelems * (BITS / 8));                                            \
  }                                                                                                              \
  extern "C" void shmem_fcollect##BITS(void* dest, const void* source, size_t nelems, int PE_start,              \
                                       int logPE_stride, int PE_size, long* pSync) {                            \
    Group g = activeSetGroup("shmem_fcollect" #BITS, PE_start, logPE_stride, PE_size, pSync);                   \
    gshmem::coll::fcollectBytes(g, dest, source, nelems * (BITS / 8));                                           \
  }                                                                                                              \
  extern "C" void shmem_alltoall##BITS(void* dest, const void* source, size_t nelems, int PE_start,              \
                                       int logPE_stride, int PE_size, long* pSync) {                            \
    Group g = activeSetGroup("shmem_alltoall" #BITS, PE_start, logPE_stride, PE_size, pSync);                   \
    gshmem::coll::alltoallBytes(g, dest, source, nelems * (BITS / 8));                                           \
  }                                                                                                              \
  extern "C" void shmem_alltoalls##BITS(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,            \
                                        size_t nelems, int PE_start, int logPE_stride, int PE_size, long* pSync) { \
    Group g = activeSetGroup("shmem_alltoalls" #BITS, PE_start, logPE_stride, PE_size, pSync);                  \
    gshmem::coll::alltoallsBytes(g, dest, source, dst, sst, nelems, BITS / 8);                                   \
  }
GSHMEM_DEF_SIZED_COLL(32)
GSHMEM_DEF_SIZED_COLL(64)
#undef GSHMEM_DEF_SIZED_COLL
