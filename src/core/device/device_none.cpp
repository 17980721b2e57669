// The backend of a build without CUDA: no device heap (every operation on one is Unsupported), and the
// stream-ordered calls, public entry points, end the job with a message naming the missing piece.
#include "core/device/device.hpp"
#include "shmemx.h"

namespace gshmem::device {

void beforeCudaInit() {}
Status backendInit(std::string*) { return Status::Ok; }
void backendFinalize() {}
Status backendPut(int, std::size_t, const void*, std::size_t) { return Status::Unsupported; }
Status backendGet(int, std::size_t, void*, std::size_t) { return Status::Unsupported; }
Status backendAmo(int, std::size_t, AmoOp, unsigned, uint64_t, uint64_t, uint64_t*) { return Status::Unsupported; }
std::string backendFailure(int, Status) { return "failed: this build has no CUDA"; }
Status backendMemset(void*, int, std::size_t) { return Status::Unsupported; }
void* backendPeerPtr(int, std::size_t) { return nullptr; }
Status backendTeamSet(int, const gshmem_team&) { return Status::Ok; }
Status backendTeamClear(int) { return Status::Ok; }
std::size_t backendMappedBytes() { return 0; }
bool backendGrows() { return false; }
Status backendGrow(std::size_t, std::string*) { return Status::Unsupported; }
const DeviceHandle* backendHandle() { return nullptr; }
int backendDeviceId() { return -1; }
int backendPesOnGpu() { return 1; }
bool backendAllPeersMapped() { return false; }
std::size_t backendRegisterArea(std::size_t* bytes, std::size_t* granularity) {
  *bytes = *granularity = 0;
  return 0;
}
Status backendMappingSize(const void*, std::size_t*) { return Status::Unsupported; }
Status backendAdopt(const void*, std::size_t, std::size_t, std::size_t*) { return Status::Unsupported; }
Status backendShare(std::size_t, std::size_t, std::string*) { return Status::Unsupported; }
void backendDrop(std::size_t) {}

}  // namespace gshmem::device

extern "C" {
#define GSHMEM_NO_CUDA(name) gshmem::fatal(name, "this build of gshmem has no CUDA support")
void gshmemx_putmem_on_stream(void*, const void*, size_t, int, struct CUstream_st*) {
  GSHMEM_NO_CUDA("gshmemx_putmem_on_stream");
}
void gshmemx_getmem_on_stream(void*, const void*, size_t, int, struct CUstream_st*) {
  GSHMEM_NO_CUDA("gshmemx_getmem_on_stream");
}
void gshmemx_putmem_signal_on_stream(void*, const void*, size_t, uint64_t*, uint64_t, int, int, struct CUstream_st*) {
  GSHMEM_NO_CUDA("gshmemx_putmem_signal_on_stream");
}
void gshmemx_signal_wait_until_on_stream(uint64_t*, int, uint64_t, struct CUstream_st*) {
  GSHMEM_NO_CUDA("gshmemx_signal_wait_until_on_stream");
}
void gshmemx_quiet_on_stream(struct CUstream_st*) { GSHMEM_NO_CUDA("gshmemx_quiet_on_stream"); }
void gshmemx_barrier_all_on_stream(struct CUstream_st*) { GSHMEM_NO_CUDA("gshmemx_barrier_all_on_stream"); }
void gshmemx_sync_all_on_stream(struct CUstream_st*) { GSHMEM_NO_CUDA("gshmemx_sync_all_on_stream"); }
}
