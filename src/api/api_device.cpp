// Public C API: gshmem's device extensions (shmemx.h, gshmem/compat/nvshmem_host.h): the device heap, its handle,
// buffer registration and the stream-ordered calls, each a wrapper over the device layer (core/device/device.hpp,
// core/device/stream.hpp). The stream collectives, CUDA builds only, are api/cuda/api_stream_coll.cpp.
#include <cstring>

#include "core/api.hpp"
#include "core/device/device.hpp"
#include "core/device/stream.hpp"
#include "shmemx.h"

using gshmem::device::Stream;

extern "C" {

// ------------------------------------------------------------------------------------- device heap and handle

int gshmemx_device_available(void) { return gshmem::device::g_region.base != nullptr ? 1 : 0; }
int gshmemx_device_id(void) { return gshmem::device::backendDeviceId(); }

void* gshmemx_malloc_device(size_t size) { return gshmem::device::alloc("gshmemx_malloc_device", size, 256, false); }

void* gshmemx_calloc_device(size_t count, size_t size) {
  size_t bytes = 0;
  if (__builtin_mul_overflow(count, size, &bytes))
    gshmem::fatal("gshmemx_calloc_device", "count %zu times size %zu overflows size_t", count, size);
  return gshmem::device::alloc("gshmemx_calloc_device", bytes, 256, true);
}

int gshmemx_device_handle_get(void* out, size_t bytes) {
  const gshmem::DeviceHandle* h = gshmem::device::backendHandle();
  if (!h || !out || bytes != sizeof(gshmem::DeviceHandle)) return -1;
  std::memcpy(out, h, sizeof *h);
  return 0;
}

void gshmemx_device_register_state_sync(void (*sync)(const void* handle, int device)) {
  gshmem::device::registerStateSync(sync);
}

void* gshmemx_buffer_register_symmetric(void* addr, size_t length, int flags) {
  (void)flags;  // NVSHMEM defines none
  return gshmem::device::registerSymmetric("nvshmemx_buffer_register_symmetric", addr, length);
}

int gshmemx_buffer_unregister_symmetric(void* ptr, size_t length) {
  return gshmem::device::unregisterSymmetric("nvshmemx_buffer_unregister_symmetric", ptr, length);
}

// ------------------------------------------------------------------------------------- stream-ordered calls

void gshmemx_putmem_on_stream(void* dest, const void* source, size_t nbytes, int pe, Stream stream) {
  gshmem::device::rmaOnStream("gshmemx_putmem_on_stream", dest, source, nbytes, pe, stream, false);
}

void gshmemx_getmem_on_stream(void* dest, const void* source, size_t nbytes, int pe, Stream stream) {
  gshmem::device::rmaOnStream("gshmemx_getmem_on_stream", dest, source, nbytes, pe, stream, true);
}

void gshmemx_putmem_signal_on_stream(void* dest, const void* source, size_t nbytes, uint64_t* sig_addr,
                                     uint64_t signal, int sig_op, int pe, Stream stream) {
  gshmem::device::putSignalOnStream("gshmemx_putmem_signal_on_stream", dest, source, nbytes, sig_addr, signal,
                                    sig_op, pe, stream);
}

void gshmemx_signal_wait_until_on_stream(uint64_t* sig_addr, int cmp, uint64_t cmp_value, Stream stream) {
  gshmem::device::signalWaitUntilOnStream("gshmemx_signal_wait_until_on_stream", sig_addr, cmp, cmp_value, stream);
}

void gshmemx_quiet_on_stream(Stream stream) { gshmem::device::quietOnStream("gshmemx_quiet_on_stream", stream); }

void gshmemx_barrier_all_on_stream(Stream stream) {
  gshmem::device::barrierAllOnStream("gshmemx_barrier_all_on_stream", true, stream);
}

void gshmemx_sync_all_on_stream(Stream stream) {
  gshmem::device::barrierAllOnStream("gshmemx_sync_all_on_stream", false, stream);
}

}  // extern "C"
