// The backend of a build without CUDA: no device heap (every operation on one is Unsupported), and the
// stream-ordered calls (behind public entry points) end the job with a message naming the missing piece.
#include "core/device/device.hpp"
#include "core/device/stream.hpp"

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

namespace gshmem::device {

// The stream-ordered calls (stream.hpp): this build has none.
namespace {
[[noreturn]] void noCuda(const char* call) { fatal(call, "this build of gshmem has no CUDA support"); }
}  // namespace

void rmaOnStream(const char* call, void*, const void*, std::size_t, int, Stream, bool) { noCuda(call); }
void putSignalOnStream(const char* call, void*, const void*, std::size_t, uint64_t*, uint64_t, int, int, Stream) {
  noCuda(call);
}
void signalWaitUntilOnStream(const char* call, uint64_t*, int, uint64_t, Stream) { noCuda(call); }
void quietOnStream(const char* call, Stream) { noCuda(call); }
void barrierAllOnStream(const char* call, bool, Stream) { noCuda(call); }

}  // namespace gshmem::device
