#include "core/memory/symmetric_data.hpp"

#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/log.hpp"
#include "base/memfd.hpp"

namespace gshmem {

namespace {

struct Span {
  uintptr_t begin = 0, end = 0;
};

// The main executable is the first object dl_iterate_phdr reports.
int findMainData(struct dl_phdr_info* info, size_t, void* arg) {
  Span* s = static_cast<Span*>(arg);
  uintptr_t relro_end = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_LOAD && (ph.p_flags & PF_W)) {
      s->begin = info->dlpi_addr + ph.p_vaddr;
      s->end = s->begin + ph.p_memsz;
    } else if (ph.p_type == PT_GNU_RELRO) {
      relro_end = info->dlpi_addr + ph.p_vaddr + ph.p_memsz;
    }
  }
  // RELRO pages become read-only after relocation; the page holding relro_end stays writable.
  if (relro_end > s->begin && relro_end <= s->end) s->begin = relro_end;
  return 1;  // stop after the main executable
}

// The scan and the copy read the whole segment, including the red zones AddressSanitizer places (poisoned) between
// the program's globals, so neither is instrumented, and the copy does not call memcpy, which a sanitizer runtime
// intercepts and checks even when only the program, not this library, is built with -fsanitize=address. Not
// inlined: an uninstrumented body must not be folded into an instrumented caller.
#define GSHMEM_UNINSTRUMENTED_READ __attribute__((no_sanitize("address"), noinline))

GSHMEM_UNINSTRUMENTED_READ bool isZeroPage(const char* p, size_t page) {
  const uint64_t* w = reinterpret_cast<const uint64_t*>(p);
  uint64_t acc = 0;
  for (size_t i = 0; i < page / sizeof(uint64_t); ++i) acc |= w[i];
  return acc == 0;
}

// `page` is a multiple of 64 and both pointers are page-aligned.
GSHMEM_UNINSTRUMENTED_READ void copyPage(char* dst, const char* src, size_t page) {
  uint64_t* d = reinterpret_cast<uint64_t*>(dst);
  const uint64_t* w = reinterpret_cast<const uint64_t*>(src);
  for (size_t i = 0; i < page / sizeof(uint64_t); i += 8) {
    for (size_t k = 0; k < 8; ++k) d[i + k] = w[i + k];
    asm volatile("" ::: "memory");  // keeps the compiler from turning the loop back into a memcpy call
  }
}

}  // namespace

Status symmetricDataCreate(LocalRegion* out) {
  Span s;
  dl_iterate_phdr(findMainData, &s);
  *out = LocalRegion{};
  if (s.begin == 0 || s.end <= s.begin) return Status::Ok;
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t begin = s.begin & ~(page - 1);
  uintptr_t end = (s.end + page - 1) & ~(page - 1);
  size_t len = end - begin;

  int fd = -1;
  if (isError(memfdCreate("gshmem-data", "the data segment", len, &fd))) return Status::SystemError;
  void* tmp = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (tmp == MAP_FAILED) {
    GSHMEM_LOG_ERROR(MEM, "mmap of the data segment copy failed: %s", strerror(errno));
    close(fd);
    return Status::SystemError;
  }
  // Copy page by page, skipping zero pages: the memfd reads as zero there and stays sparse, so a large .bss costs
  // address space, not memory, until the program touches it.
  for (size_t off = 0; off < len; off += page) {
    const char* src = reinterpret_cast<const char*>(begin + off);
    if (!isZeroPage(src, page)) copyPage(static_cast<char*>(tmp) + off, src, page);
  }
  // Replace the private pages with the shared copy at the same addresses.
  void* at = mmap(reinterpret_cast<void*>(begin), len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
  int saved = errno;
  munmap(tmp, len);
  if (at == MAP_FAILED) {
    // MAP_FIXED failing leaves the old mapping in place (the kernel validates before unmapping).
    GSHMEM_LOG_ERROR(MEM, "remapping the data segment [%p, %p) failed: %s", reinterpret_cast<void*>(begin),
                     reinterpret_cast<void*>(end), strerror(saved));
    close(fd);
    return Status::SystemError;
  }
  out->base = reinterpret_cast<char*>(begin);
  out->size = len;
  out->fd = fd;
  GSHMEM_LOG_DEBUG(MEM, "data segment [%p, %p) (%zu bytes) is symmetric", out->base, out->base + len, len);
  return Status::Ok;
}

}  // namespace gshmem
