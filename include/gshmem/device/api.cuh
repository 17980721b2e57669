// Layer 1 of the device API: what each call does and when it may be called. Bodies: impl/api__funcs.cuh.
//
// Two spellings of every operation:
//   * methods on the handle's namespace, taking the DeviceHandle by value/reference: gshmem::dev::putmem<Scope>(h, ...)
//   * NVSHMEM-style free functions (gshmem_putmem, gshmem_int_p, gshmemx_putmem_block, ...) that read this
//     translation unit's __constant__ copy of the handle, which the runtime fills at shmem_init.
//
// Scopes: *_warp must be called by all 32 lanes of a warp with the same arguments; *_block by every thread of the
// block. Data moves with 16-byte vector loads/stores shared across the group when both ends are 16-byte aligned.
//
// Memory model (P2P peers): put/p/put_signal are weak stores issued before return (the source may be reused);
// they are visible at the target after gshmem_quiet (or, for put_signal, when the signal is seen: the signal is a
// release store at system scope; signal_wait_until ends with an acquire at system scope). fence orders earlier
// puts/AMOs to a PE before later ones (system-scope fence). AMOs are relaxed system-scope atomics over NVLink/PCIe.
// Proxy peers (not P2P-mapped): requests go through the ring to the CPU proxy and are applied in order; blocking
// puts/gets return when done, _nbi forms complete at quiet. Sources and destinations of proxied put/get must be
// device (or pinned/mapped) memory that the proxy thread can copy with cudaMemcpy.
//
// Barriers: gshmem_barrier_all / gshmem_sync_all must be called by exactly ONE thread per PE per barrier (e.g.
// `if (blockIdx.x == 0 && threadIdx.x == 0)`), and every PE must reach it; gshmemx_barrier_all_block by every
// thread of exactly one block per PE. Other blocks of the grid must not wait on the barrier's outcome unless the
// grid is launched cooperatively (all blocks resident). Barriers share their epoch with
// gshmemx_barrier_all_on_stream, so host-stream and device barriers may be mixed in order.
//
// Strided RMA (iput/iget, impl/ext__funcs.cuh): element by element, as p/g (8 bytes and less) or putmem/getmem.
// Multi-variable waits (_all/_any/_some and their _vector forms): one thread; `status` (may be null) excludes the
// ivars whose entry is nonzero; _any returns SIZE_MAX and _some 0 at once when every ivar is excluded.
//
// Collectives (impl/coll__funcs.cuh; gshmem_T_OP_reduce, _reducescatter, _broadcast, _fcollect, _alltoall,
// gshmem_barrier, gshmem_team_sync and their _warp/_block forms): on any team this PE belongs to (the world, the
// predefined teams, a team from a split: gshmem/device/team_ids.h), every member's heap mapped (same node, P2P on;
// barrier and sync also reach unmapped members through the proxy). One group per member calls each collective,
// every member the same collectives on the team in the same order; the caller spins on the other members, so the
// calling group of every member must be running at the same time (other blocks of the grid must not wait on it
// unless the grid is launched cooperatively). Host-stream collectives (gshmemx_*_on_stream) and device collectives
// must not be in flight at the same time on one PE.
//
// Teams (impl/team__funcs.cuh; gshmem_team_my_pe, _n_pes, _translate_pe, host and device): a team id names the
// team of that id this PE belongs to; a kernel sees the teams made before it was launched. A team must not be
// destroyed while device or stream work on it is in flight on any member.
#pragma once
#include "gshmem/device/handle.cuh"

namespace gshmem {
/// Operand of the device atomics (same values as the host runtime's AmoOp).
enum AmoCode : uint32_t {
  kAmoFetch = 0, kAmoSet, kAmoSwap, kAmoCompareSwap, kAmoFetchAdd, kAmoAdd, kAmoFetchInc, kAmoInc,
  kAmoFetchAnd, kAmoAnd, kAmoFetchOr, kAmoOr, kAmoFetchXor, kAmoXor,
};
/// Cooperation scope of an operation.
enum Scope : int { kScopeThread = 0, kScopeWarp = 1, kScopeBlock = 2 };
}  // namespace gshmem

#ifndef GSHMEM_CMP_EQ
#define GSHMEM_CMP_EQ 0
#define GSHMEM_CMP_NE 1
#define GSHMEM_CMP_GT 2
#define GSHMEM_CMP_GE 3
#define GSHMEM_CMP_LT 4
#define GSHMEM_CMP_LE 5
#define GSHMEM_SIGNAL_SET 0
#define GSHMEM_SIGNAL_ADD 1
#endif

#if defined(__CUDACC__)
#include <cstdio>

#include "gshmem/device/impl/api__funcs.cuh"
#include "gshmem/device/impl/team__funcs.cuh"
#include "gshmem/device/impl/coll__funcs.cuh"
#include "gshmem/device/impl/ext__funcs.cuh"
#endif
