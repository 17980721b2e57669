// The one-line errors of the runtime: "gshmem: PE <n>: <call>: <message>", then the job ends on every PE.
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "base/str_format.hpp"
#include "core/runtime/runtime.hpp"

namespace gshmem {

namespace {

/// The first fatal error of the process reports and ends the job; a thread that fails after it parks, so there is
/// one message and one abort however many threads fail at once. A thread that fails again while reporting (inside
/// the abort) leaves at once instead of parking the reporter.
void claimFailure() {
  static std::atomic<bool> s_failing{false};
  static thread_local bool t_failing = false;
  if (t_failing) _exit(1);
  t_failing = true;
  if (s_failing.exchange(true))
    for (;;) pause();
}

/// Bytes written to `fd` that its reader has not taken yet: for a pipe (FIONREAD counts the pipe's contents from
/// either end) or a socket (SIOCOUTQ, the same number as TIOCOUTQ); -1 for a file, a terminal or an error.
int unreadBytes(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) return -1;
  int n = 0;
  if (S_ISFIFO(st.st_mode)) return ioctl(fd, FIONREAD, &n) == 0 ? n : -1;
  if (S_ISSOCK(st.st_mode)) return ioctl(fd, TIOCOUTQ, &n) == 0 ? n : -1;
  return -1;
}

/// Flushes stdout (when no other thread holds it) and stderr, then waits, at most 1 s, until their readers have
/// taken every byte. Open MPI's launcher closes its end of a PE's output once the PE has died, so a line that a
/// reader between them (the `tee` of a wrapper script) takes only after the abort dies with it.
void drainOutput() {
  if (ftrylockfile(stdout) == 0) {
    fflush_unlocked(stdout);
    funlockfile(stdout);
  }
  fflush(stderr);
  for (int i = 0; i < 1000 && (unreadBytes(STDOUT_FILENO) > 0 || unreadBytes(STDERR_FILENO) > 0); ++i) {
    const timespec ms{0, 1000000};
    nanosleep(&ms, nullptr);
  }
}

/// The one place that ends the job: the first failure of the process prints its line, waits until it has left the
/// process (drainOutput) and aborts every PE with @p status.
[[noreturn]] void endJob(const std::string& line, int status = 1) {
  claimFailure();
  fprintf(stderr, "%s\n", line.c_str());
  drainOutput();
  if (g_rt.bootstrap) g_rt.bootstrap->abortJob(status, line.c_str());
  _exit(status);
}

/// "gshmem: PE <n>: <who>: " (no PE before the bootstrap knows it).
std::string prefix(const char* who) {
  return g_log.pe >= 0 ? strFormat("gshmem: PE %d: %s: ", g_log.pe, who) : strFormat("gshmem: %s: ", who);
}

}  // namespace

void fatal(const char* call, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const std::string msg = strFormatV(fmt, ap);
  va_end(ap);
  endJob(prefix(call) + msg);
}

void endJobWithStatus(int status, const char* call, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const std::string msg = strFormatV(fmt, ap);
  va_end(ap);
  endJob(prefix(call) + msg, status);
}

void serviceFailed(const char* service, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const std::string msg = strFormatV(fmt, ap);
  va_end(ap);
  endJob(prefix(service) + msg + "; ending the job");
}

void peerLost(int pe, const char* why) {
  endJob(strFormat("gshmem: PE %d: lost PE %d (%s): ending the job", g_rt.my_pe, pe, why));
}

void errorNotSymmetric(const char* call, const char* what, const void* addr, std::size_t len) {
  const char* h = g_rt.base[kRegionHeap];
  const char* d = g_rt.base[kRegionData];
  fatal(call,
        "%s %p (+%zu bytes) is not in a symmetric region (heap [%p, %p), data [%p, %p)); allocate it with "
        "shmem_malloc or make it a global/static variable",
        what, addr, len, static_cast<const void*>(h), static_cast<const void*>(h + controlOffset()),
        static_cast<const void*>(d), static_cast<const void*>(d + g_rt.size[kRegionData]));
}

void errorBadPe(const char* call, int pe, int n) { fatal(call, "PE %d is out of range [0, %d)", pe, n); }

void errorUnreachable(const char* call, int pe) {
  fatal(call, "PE %d is not reachable: it is on another node and this build has no inter-node transport", pe);
}

void errorNotInitialized(const char* call) {
  if (g_rt.finalized) fatal(call, "called after shmem_finalize; OpenSHMEM calls belong between shmem_init and it");
  fatal(call, "called before shmem_init; call shmem_init first");
}

void errorBadAlignment(const char* call, std::size_t align) {
  fatal(call, "alignment %zu is not a power of two", align);
}

void errorNotAllocated(const char* call, const void* ptr, const char* allocator) {
  fatal(call, "%p was not returned by %s (or was already freed)", ptr, allocator);
}

void errorNoDeviceHeap(const char* call) {
  fatal(call, "there is no device symmetric heap (no GPU, or GSHMEM_SYMMETRIC_SIZE_DEVICE=0)");
}

void errorNotInDeviceHeap(const char* call, const char* what, const void* addr, std::size_t len) {
  fatal(call, "%s %p (+%zu bytes) is not in the device symmetric heap; allocate it with gshmemx_malloc_device", what,
        addr, len);
}

}  // namespace gshmem

namespace gshmem::ops {

void errorMisaligned(const char* call, const void* addr, std::size_t align) {
  fatal(call, "address %p is not aligned to %zu bytes; atomics and signals need naturally aligned objects", addr,
        align);
}
void errorBadCmp(const char* call, int cmp) {
  fatal(call, "comparison %d is not one of SHMEM_CMP_EQ/NE/GT/GE/LT/LE", cmp);
}
void errorBadSignalOp(const char* call, int op) {
  fatal(call, "signal operation %d is not SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD", op);
}
void errorNull(const char* call, const char* what) { fatal(call, "%s is NULL", what); }

}  // namespace gshmem::ops
