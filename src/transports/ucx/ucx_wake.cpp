// Sleeping waits: the worker's event descriptor (ucp_worker_get_efd), armed with ucp_worker_arm, lets a waiting PE
// block in the kernel until a message arrives instead of yielding the core at every poll. On a busy machine a PE
// that yields keeps competing for the core and, once another process holds it, finds its message only at that
// process's next preemption (a 4 ms tick); a PE woken from a sleep preempts it at once.
// Only messages wake the descriptor: over TCP every remote put, AMO and signal is one (UCX emulates RMA with active
// messages), while RDMA writes and atomics (and shared-memory transports) are silent. TransportConfig::wait_block
// "tcp" therefore allows the sleep only when UCX has nothing but TCP; the sleep is bounded (the caller's timeout)
// either way.
#include <poll.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/log.hpp"
#include "transports/ucx/ucx_internal.hpp"

namespace gshmem {
namespace ucxt {

namespace {

/// True when every transport resource of the context is TCP (or UCX's loopback to this process), as
/// ucp_context_print_info lists them ("resource 1  :  md 1  dev 1  flags -- tcp/eth0"). The context's resources, not
/// an endpoint's lanes: lanes are final only once wire-up has finished, which may be after the first waits.
bool resourcesAllSockets(ucp_context_h ctx) {
  char* text = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&text, &len);
  if (!f) return false;
  ucp_context_print_info(ctx, f);
  fclose(f);
  bool any = false, all = true;
  for (const char* p = text; p && (p = strstr(p, "resource ")) != nullptr; ++p) {
    const char* eol = strchr(p, '\n');
    const char* tl = strstr(p, "-- ");
    if (!tl || (eol && tl > eol)) continue;
    tl += 3;
    any = true;
    all = all && (strncmp(tl, "tcp/", 4) == 0 || strncmp(tl, "self/", 5) == 0);
  }
  free(text);
  return any && all;
}

}  // namespace

bool UcxTransport::wakeWanted() const { return !multi_ && strcmp(cfg_.wait_block, "off") != 0; }

void UcxTransport::wakeSetup() {
  efd_ = -1;
  if (!wakeWanted()) return;
  if (strcmp(cfg_.wait_block, "tcp") == 0 && !resourcesAllSockets(ctx_)) {
    GSHMEM_LOG_DEBUG(UCX, "waits yield: UCX has transports besides TCP, whose RDMA would not wake a sleeper");
    return;
  }
  int fd = -1;
  ucs_status_t s = ucp_worker_get_efd(worker_, &fd);
  if (s != UCS_OK) {
    GSHMEM_LOG_DEBUG(UCX, "waits yield: ucp_worker_get_efd: %s", ucs_status_string(s));
    return;
  }
  efd_ = fd;
}

void UcxTransport::waitInput(int timeout_ms) {
  if (!dirty_.empty()) (void)flushBatches();  // a batch (a lazy acknowledgement) someone may be waiting for
  if (ucp_worker_progress(worker_) != 0) return;
  // UCS_ERR_BUSY: events arrived since the last progress; the caller polls again at once.
  if (ucp_worker_arm(worker_) != UCS_OK) return;
  pollfd p{efd_, POLLIN, 0};
  (void)::poll(&p, 1, timeout_ms);
}

}  // namespace ucxt
}  // namespace gshmem
