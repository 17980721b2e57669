// A bad local buffer handed to a public call becomes its one-line error instead of a signal.
//
// Contract: the public RMA/AMO entry points mark the thread as "inside <call>" for their duration (ApiCallScope: one
// thread-local store on entry and one on exit; no syscall). faultHandlerInstall() puts a SIGSEGV/SIGBUS handler in
// place once per process; a fault taken while the thread is inside a call, at an address outside every symmetric
// mapping of this process, is the caller's local buffer: the handler prints
//   gshmem: PE <n>: <call>: local source 0x... is not readable memory; <fix>
// (or "local dest ... writable", by the call's direction) and ends the job as fatal() does. Any other fault (outside
// a call, or in symmetric memory) goes to the handler that was in place before, or to the default action, so the
// program's own crashes behave as without gshmem.
#pragma once

namespace gshmem {

/// The public call this thread is inside, or nullptr. __thread (no dynamic initializer, so no TLS wrapper call) in
/// the initial-exec model: a store is one instruction.
extern __thread const char* t_api_call __attribute__((tls_model("initial-exec")));

/// Marks the thread as inside @p call for the scope's lifetime.
class ApiCallScope {
 public:
  explicit ApiCallScope(const char* call) { t_api_call = call; }
  ~ApiCallScope() { t_api_call = nullptr; }
  ApiCallScope(const ApiCallScope&) = delete;
  ApiCallScope& operator=(const ApiCallScope&) = delete;
};

/// Install the handler (idempotent; after the transports, so theirs are the ones chained to).
void faultHandlerInstall();

}  // namespace gshmem
