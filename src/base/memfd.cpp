// Anonymous shared memory files (contract in memfd.hpp).
#include "base/memfd.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/log.hpp"

namespace gshmem {

Status memfdCreate(const char* name, const char* what, std::size_t bytes, int* fd) {
  const int f = memfd_create(name, MFD_CLOEXEC);
  if (f < 0 || fchmod(f, 0600) != 0) {
    GSHMEM_LOG_ERROR(MEM, "%s for %s failed: %s", f < 0 ? "memfd_create" : "fchmod 0600", what, strerror(errno));
    if (f >= 0) close(f);
    return Status::SystemError;
  }
  if (ftruncate(f, static_cast<off_t>(bytes)) != 0) {
    GSHMEM_LOG_ERROR(MEM, "cannot size %s to %zu bytes: %s", what, bytes, strerror(errno));
    close(f);
    return Status::NoMemory;
  }
  *fd = f;
  return Status::Ok;
}

}  // namespace gshmem
