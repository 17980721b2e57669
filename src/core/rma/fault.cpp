// The SIGSEGV/SIGBUS handler behind fault.hpp: names the public call whose local buffer faulted, or passes the
// signal on unchanged.
#include "core/rma/fault.hpp"

#include <signal.h>

#include <atomic>
#include <cstdint>
#include <cstring>

#include "core/runtime/runtime.hpp"

namespace gshmem {

__thread const char* t_api_call __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

struct sigaction g_prev_segv, g_prev_bus;

bool endsWith(const char* s, const char* tail) {
  const std::size_t n = std::strlen(s), m = std::strlen(tail);
  return n >= m && std::strcmp(s + n - m, tail) == 0;
}

/// Whether @p addr lies in a symmetric region of any PE as mapped here: a fault there is not the caller's buffer.
bool inSymmetricMapping(uintptr_t addr) {
  for (int r = 0; r < kNumRegions; ++r) {
    auto in = [&](const char* base) {
      return base != nullptr && addr - reinterpret_cast<uintptr_t>(base) < g_rt.size[r];
    };
    if (in(g_rt.base[r])) return true;
    for (int pe = 0; g_rt.peers != nullptr && pe < g_rt.n_pes; ++pe)
      if (in(g_rt.peers[pe].base[r])) return true;
  }
  return false;
}

/// The local buffer @p call reads or writes, from its name: the fetch result of an _nbi atomic, the dest of a get,
/// the source of a put.
[[noreturn]] void reportLocalFault(const char* call, const void* addr) {
  if (std::strstr(call, "_atomic_") != nullptr && endsWith(call, "_nbi"))
    fatal(call, "local fetch %p is not writable memory; pass a fetch pointer to a variable the calling PE can write",
          addr);
  if (std::strstr(call, "get") != nullptr || endsWith(call, "_g"))
    fatal(call, "local dest %p is not writable memory; pass a dest buffer the calling PE can write, as long as the "
          "bytes requested", addr);
  if (std::strstr(call, "put") != nullptr || endsWith(call, "_p"))
    fatal(call, "local source %p is not readable memory; pass a source buffer the calling PE can read, as long as "
          "the bytes requested", addr);
  fatal(call, "local memory %p is not accessible; pass buffers the calling PE can read and write", addr);
}

/// Hands the signal to what was in place before: its handler, or (default or ignored) the default action, which
/// the faulting instruction raises again once this handler returns.
void chain(int sig, siginfo_t* info, void* uctx) {
  const struct sigaction& prev = sig == SIGBUS ? g_prev_bus : g_prev_segv;
  if ((prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction != nullptr) {
    prev.sa_sigaction(sig, info, uctx);
    return;
  }
  if (prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN) {
    prev.sa_handler(sig);
    return;
  }
  signal(sig, SIG_DFL);
}

void onFault(int sig, siginfo_t* info, void* uctx) {
  const char* call = t_api_call;
  const uintptr_t addr = reinterpret_cast<uintptr_t>(info->si_addr);
  if (call == nullptr || info->si_code <= 0 || inSymmetricMapping(addr)) return chain(sig, info, uctx);
  t_api_call = nullptr;  // a fault while reporting is not reported again
  reportLocalFault(call, info->si_addr);
}

}  // namespace

void faultHandlerInstall() {
  static std::atomic<bool> s_installed{false};
  if (s_installed.exchange(true)) return;
  struct sigaction sa {};
  sa.sa_sigaction = onFault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &g_prev_segv);
  sigaction(SIGBUS, &sa, &g_prev_bus);
}

}  // namespace gshmem
