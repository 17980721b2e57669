// The device symmetric heap inside the host runtime. Private to src/core, and to the device entry points of src/api.
//
// Layout of each PE's device heap (one cudaMalloc, exported with a CUDA IPC handle):
//   [ user part: HeapAllocator offsets, the same on every PE | DeviceSync (barrier flags) ]
// Layering: core/device (heap, handle, kernels, proxy ring, the calls behind the device entry points) uses
// core/protocols (the dispatch site and the device transports: cuda_ipc maps the heaps of peers whose GPU can reach
// ours; the staged protocol serves the others through the shm request channel); core/protocols never includes
// core/device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/runtime/runtime.hpp"
#include "gshmem/device/impl/handle__types.cuh"

namespace gshmem::device {

/// This PE's device heap as seen by the host runtime (zero when absent). Read by resolveCold().
struct Region {
  char* base = nullptr;   ///< device address of the heap
  std::size_t size = 0;   ///< user bytes (allocations are in [base, base + size))
};
extern Region g_region;

/// The backend (device_cuda.cpp, or device_none.cpp without CUDA). All collective ones are called on every PE.
/// Failures come back as Status; the public call that asked turns them into its one-line error.
/// Called first in shmem_init, before anything may initialize CUDA (MPI, UCX, the topology): sets what CUDA reads
/// at its initialization (CUDA_MODULE_LOADING=EAGER, and CUDA_DEVICE_MAX_CONNECTIONS=8 when an MPS daemon is seen,
/// each unless the program set it; takes effect only when CUDA was not initialized before shmem_init).
void beforeCudaInit();
/// Collective: create the heap when every PE has a GPU and GSHMEM_SYMMETRIC_SIZE_DEVICE > 0; map peers; start the
/// proxy. On failure *err holds the one-line reason with its fix (an init phase).
Status backendInit(std::string* err);
void backendFinalize();
/// Host-initiated operations on offset @p off of @p pe's device heap, complete when they return. A CUDA failure
/// is logged where it happens; backendFailure() words the status for the caller's message.
Status backendPut(int pe, std::size_t off, const void* src, std::size_t n);
Status backendGet(int pe, std::size_t off, void* dst, std::size_t n);
Status backendAmo(int pe, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond, uint64_t* old);
/// "through <route> failed: <reason>" for a failed operation on @p pe's device heap.
std::string backendFailure(int pe, Status st);
Status backendMemset(void* dst, int value, std::size_t n);
/// Device address of offset `off` of PE `pe`'s heap when mapped here, else nullptr.
void* backendPeerPtr(int pe, std::size_t off);
/// Mirror team @p t, this PE's team of id @p id, into the device team table (DeviceHandle::teams). Called by a
/// split on its members; the table is filled from the host teams when the heap is made. Ok without a heap; a CUDA
/// failure is logged and returned (the caller ends the job: the split cannot be undone on the other members).
Status backendTeamSet(int id, const gshmem_team& t);
/// Forget id @p id in the device team table and zero this PE's device synchronization words of it (the team is
/// being destroyed, every member's device work on it complete). Ok without a heap; a CUDA failure is logged.
Status backendTeamClear(int id);
/// Bytes of the user part mapped now, from offset 0 (a fixed heap: all of it; no heap: 0).
std::size_t backendMappedBytes();
/// Whether the heap grows (CUDA VMM).
bool backendGrows();
/// Collective, with the same @p end on every PE: map the user part up to at least @p end (rounded up to the growth
/// step) on every PE and in every peer that maps this heap. On failure *err holds the reason and the fix.
Status backendGrow(std::size_t end, std::string* err);
/// The registration area of a growing (VMM) heap: its offset in the heap's range (after the sync area; 0 and
/// *bytes 0 for a fixed heap or none) and the granularity a registered buffer's offset is aligned to. Every PE's
/// area is at the same offset, and each peer's mapping of the heap covers it, so the device translation
/// (peer_base + offset) reaches a buffer registered there without any change.
std::size_t backendRegisterArea(std::size_t* bytes, std::size_t* granularity);
/// The size of the device allocation starting at @p addr (InvalidArgument: not the start of one).
Status backendMappingSize(const void* addr, std::size_t* bytes);
/// Map this process's VMM buffer at @p addr (the start of a cuMemMap mapping, @p length at most its size) at offset
/// @p off of the heap's range; *bytes: the mapping's size, all of it mapped (vmm::Range::adopt).
Status backendAdopt(const void* addr, std::size_t length, std::size_t off, std::size_t* bytes);
/// Collective, every PE having adopted a buffer of @p bytes at @p off: map each mapped peer's into this process.
Status backendShare(std::size_t off, std::size_t bytes, std::string* err);
/// Unmap the buffer at @p off here and the peers' buffers at @p off (every PE does it; nothing accesses them).
void backendDrop(std::size_t off);
/// The handle kernels use; nullptr when there is no device heap.
const DeviceHandle* backendHandle();
int backendDeviceId();
/// PEs of this node whose device heap is on this PE's GPU, this one included (1 without a device heap).
int backendPesOnGpu();
/// Every PE's device heap is mapped here (then device-initiated operations complete in their kernel: the proxy ring
/// carries only copy-engine puts and gets, which the device waits for).
bool backendAllPeersMapped();

/// Collective (nvshmemx_buffer_register_symmetric, device_register.cpp): map every PE's VMM buffer at the same
/// offset of the heap's registration area; returns its address there (what RMA takes), or nullptr after one line.
void* registerSymmetric(const char* call, void* addr, std::size_t length);
/// Collective: undo registerSymmetric for the address it returned; nonzero after one line when not registered.
int unregisterSymmetric(const char* call, void* ptr, std::size_t length);
/// Whether [addr, addr + len) lies in one registered buffer; *off: addr's offset from the heap's base. The cold
/// path of the host translation (an address outside the heap) asks it; heap addresses never do.
bool registeredOffset(const void* addr, std::size_t len, std::size_t* off);
/// Collective allocation from the device heap (heap.cpp's rules: same calls on every PE, barrier after).
void* alloc(const char* call, std::size_t size, std::size_t align, bool zero);
void free(const char* call, void* ptr);
bool owns(const void* ptr);
/// Called by the backend once the heap exists (creates the allocator) and at finalize (drops it).
void allocatorReset(std::size_t user_bytes);
/// Push the handle to every registered translation unit's __constant__ copy.
void syncStates(const DeviceHandle& h, int device);
/// Register @p sync (nothing for nullptr), a translation unit's copier of the handle into its __constant__ state
/// (gshmemx_device_register_state_sync, called by static initializers), and run it now when the heap exists.
void registerStateSync(void (*sync)(const void* handle, int device));

}  // namespace gshmem::device
