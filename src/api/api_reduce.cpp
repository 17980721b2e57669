// The OpenSHMEM reductions' C entry points: shmem_TYPE_OP_reduce (teams) and shmem_TYPE_OP_to_all (deprecated
// active sets), each an instance of the collectives layer's reduce<T, Op> (collectives/reduce.hpp).
#include "collectives/reduce.hpp"
#include "gshmem/c/collectives.h"

using gshmem::coll::Group;
using gshmem::coll::OpAnd;
using gshmem::coll::OpMax;
using gshmem::coll::OpMin;
using gshmem::coll::OpOr;
using gshmem::coll::OpProd;
using gshmem::coll::OpSum;
using gshmem::coll::OpXor;

// ---------------------------------------------------------------------------------------------- team-based
#define GSHMEM_DEF_REDUCE(T, N, OP, OPCLASS)                                                                 \
  extern "C" int shmem_##N##_##OP##_reduce(shmem_team_t team, T* dest, const T* source, size_t nreduce) {   \
    Group g = gshmem::coll::teamGroup("shmem_" #N "_" #OP "_reduce", team);                                  \
    gshmem::coll::reduce<T, OPCLASS>(g, dest, source, nreduce);                                              \
    return 0;                                                                                                \
  }
#define GSHMEM_DEF_REDUCE_MINMAX(T, N) GSHMEM_DEF_REDUCE(T, N, max, OpMax) GSHMEM_DEF_REDUCE(T, N, min, OpMin)
#define GSHMEM_DEF_REDUCE_ARITH(T, N) GSHMEM_DEF_REDUCE(T, N, sum, OpSum) GSHMEM_DEF_REDUCE(T, N, prod, OpProd)
#define GSHMEM_DEF_REDUCE_BIT(T, N) \
  GSHMEM_DEF_REDUCE(T, N, and, OpAnd) GSHMEM_DEF_REDUCE(T, N, or, OpOr) GSHMEM_DEF_REDUCE(T, N, xor, OpXor)
GSHMEM_REDUCE_MINMAX_TYPES(GSHMEM_DEF_REDUCE_MINMAX)
GSHMEM_REDUCE_ARITH_TYPES(GSHMEM_DEF_REDUCE_ARITH)
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_DEF_REDUCE_BIT)

// ---------------------------------------------------------------------------------------------- active sets
// pWrk is not needed: the algorithms above use no symmetric work array.
#define GSHMEM_DEF_TOALL(T, N, OP, OPCLASS)                                                                       \
  extern "C" void shmem_##N##_##OP##_to_all(T* dest, const T* source, int nreduce, int PE_start, int logPE_stride, \
                                            int PE_size, T* pWrk, long* pSync) {                                  \
    static const char* const kCall = "shmem_" #N "_" #OP "_to_all";                                              \
    Group g = gshmem::coll::activeSetGroup(kCall, PE_start, logPE_stride, PE_size, pSync);                        \
    if (GSHMEM_UNLIKELY(nreduce < 0)) gshmem::fatal(kCall, "nreduce %d is negative", nreduce);                   \
    (void)pWrk;                                                                                                   \
    gshmem::coll::reduce<T, OPCLASS>(g, dest, source, static_cast<size_t>(nreduce));                             \
  }
#define GSHMEM_DEF_TOALL_BIT(T, N) \
  GSHMEM_DEF_TOALL(T, N, and, OpAnd) GSHMEM_DEF_TOALL(T, N, or, OpOr) GSHMEM_DEF_TOALL(T, N, xor, OpXor)
#define GSHMEM_DEF_TOALL_MINMAX(T, N) GSHMEM_DEF_TOALL(T, N, max, OpMax) GSHMEM_DEF_TOALL(T, N, min, OpMin)
#define GSHMEM_DEF_TOALL_ARITH(T, N) GSHMEM_DEF_TOALL(T, N, sum, OpSum) GSHMEM_DEF_TOALL(T, N, prod, OpProd)
GSHMEM_TOALL_BIT_TYPES(GSHMEM_DEF_TOALL_BIT)
GSHMEM_TOALL_MINMAX_TYPES(GSHMEM_DEF_TOALL_MINMAX)
GSHMEM_TOALL_ARITH_TYPES(GSHMEM_DEF_TOALL_ARITH)
