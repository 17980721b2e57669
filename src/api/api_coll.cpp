// The OpenSHMEM collectives' C entry points: barrier, broadcast, collect, fcollect, alltoall(s), team-based and
// active-set. Each validates its group and runs the algorithm of the collectives layer (src/collectives).
#include "collectives/coll.hpp"
#include "gshmem/c/collectives.h"

using gshmem::coll::Group;
using gshmem::coll::activeSetGroup;
using gshmem::coll::teamGroup;

// ---------------------------------------------------------------------------------------------- team-based
#define GSHMEM_DEF_COLL(T, N)                                                                                          \
  extern "C" int shmem_##N##_broadcast(shmem_team_t team, T* dest, const T* source, size_t nelems, int PE_root) {      \
    Group g = teamGroup("shmem_" #N "_broadcast", team, sizeof(T));                                                    \
    gshmem::coll::broadcastBytes(g, dest, source, nelems * sizeof(T), PE_root, true);                                  \
    return 0;                                                                                                          \
  }                                                                                                                    \
  extern "C" int shmem_##N##_collect(shmem_team_t team, T* dest, const T* source, size_t nelems) {                     \
    gshmem::coll::collectBytes(teamGroup("shmem_" #N "_collect", team, sizeof(T)), dest, source, nelems * sizeof(T));  \
    return 0;                                                                                                          \
  }                                                                                                                    \
  extern "C" int shmem_##N##_fcollect(shmem_team_t team, T* dest, const T* source, size_t nelems) {                    \
    Group g = teamGroup("shmem_" #N "_fcollect", team, sizeof(T));                                                     \
    gshmem::coll::fcollectBytes(g, dest, source, nelems * sizeof(T));                                                  \
    return 0;                                                                                                          \
  }                                                                                                                    \
  extern "C" int shmem_##N##_alltoall(shmem_team_t team, T* dest, const T* source, size_t nelems) {                    \
    Group g = teamGroup("shmem_" #N "_alltoall", team, sizeof(T));                                                     \
    gshmem::coll::alltoallBytes(g, dest, source, nelems * sizeof(T));                                                  \
    return 0;                                                                                                          \
  }                                                                                                                    \
  extern "C" int shmem_##N##_alltoalls(shmem_team_t team, T* dest, const T* source, ptrdiff_t dst, ptrdiff_t sst,      \
                                       size_t nelems) {                                                                \
    gshmem::coll::alltoallsBytes(teamGroup("shmem_" #N "_alltoalls", team, sizeof(T)), dest, source, dst, sst, nelems, \
                                 sizeof(T));                                                                           \
    return 0;                                                                                                          \
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
#define GSHMEM_DEF_SIZED_COLL(BITS)                                                                                \
  extern "C" void shmem_broadcast##BITS(void* dest, const void* source, size_t nelems, int PE_root, int PE_start,  \
                                        int logPE_stride, int PE_size, long* pSync) {                              \
    Group g = activeSetGroup("shmem_broadcast" #BITS, PE_start, logPE_stride, PE_size, pSync, BITS / 8);           \
    gshmem::coll::broadcastBytes(g, dest, source, nelems * (BITS / 8), PE_root, false);                            \
  }                                                                                                                \
  extern "C" void shmem_collect##BITS(void* dest, const void* source, size_t nelems, int PE_start,                 \
                                      int logPE_stride, int PE_size, long* pSync) {                                \
    Group g = activeSetGroup("shmem_collect" #BITS, PE_start, logPE_stride, PE_size, pSync, BITS / 8);             \
    gshmem::coll::collectBytes(g, dest, source, nelems * (BITS / 8));                                              \
  }                                                                                                                \
  extern "C" void shmem_fcollect##BITS(void* dest, const void* source, size_t nelems, int PE_start,                \
                                       int logPE_stride, int PE_size, long* pSync) {                               \
    Group g = activeSetGroup("shmem_fcollect" #BITS, PE_start, logPE_stride, PE_size, pSync, BITS / 8);            \
    gshmem::coll::fcollectBytes(g, dest, source, nelems * (BITS / 8));                                             \
  }                                                                                                                \
  extern "C" void shmem_alltoall##BITS(void* dest, const void* source, size_t nelems, int PE_start,                \
                                       int logPE_stride, int PE_size, long* pSync) {                               \
    Group g = activeSetGroup("shmem_alltoall" #BITS, PE_start, logPE_stride, PE_size, pSync, BITS / 8);            \
    gshmem::coll::alltoallBytes(g, dest, source, nelems * (BITS / 8));                                             \
  }                                                                                                                \
  extern "C" void shmem_alltoalls##BITS(void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst,              \
                                        size_t nelems, int PE_start, int logPE_stride, int PE_size, long* pSync) { \
    Group g = activeSetGroup("shmem_alltoalls" #BITS, PE_start, logPE_stride, PE_size, pSync, BITS / 8);           \
    gshmem::coll::alltoallsBytes(g, dest, source, dst, sst, nelems, BITS / 8);                                     \
  }
GSHMEM_DEF_SIZED_COLL(32)
GSHMEM_DEF_SIZED_COLL(64)
#undef GSHMEM_DEF_SIZED_COLL

extern "C" void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long* pSync) {
  Group g = gshmem::coll::activeSetGroup("shmem_barrier", PE_start, logPE_stride, PE_size, pSync);
  gshmem::coll::groupSync(g);
}

extern "C" void gshmem_sync_active_set(int PE_start, int logPE_stride, int PE_size, long* pSync) {
  Group g = gshmem::coll::activeSetGroup("shmem_sync", PE_start, logPE_stride, PE_size, pSync);
  gshmem::coll::groupSync(g);
}
