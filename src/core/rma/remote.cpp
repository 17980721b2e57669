// The remote path of every operation: peers whose regions are not mapped here are reached through g_rt.remote.
// Kept out of line so the load/store fast path stays small.
#include "core/rma/ops.hpp"
#include "core/runtime/runtime.hpp"

namespace gshmem {

namespace {

[[noreturn]] __attribute__((cold)) void transportFailed(const char* call, const RemoteAddr& ra, const char* what,
                                                        Status s) {
  fatal(call, "%s to PE %d through %s failed: %s (is PE %d still alive? see GSHMEM_TIMEOUT)", what, ra.pe,
        g_rt.remote->name(), statusString(s), ra.pe);
}

inline Transport* remoteFor(const char* call, int pe) {
  if (GSHMEM_UNLIKELY(g_rt.remote == nullptr)) errorUnreachable(call, pe);
  return g_rt.remote;
}

}  // namespace

void remotePut(const char* call, const RemoteAddr& ra, const void* src, std::size_t n) {
  Status s = remoteFor(call, ra.pe)->putNbi(ra, src, n);
  if (isError(s)) transportFailed(call, ra, "put", s);
}

void remoteGet(const char* call, const RemoteAddr& ra, void* dst, std::size_t n) {
  Status s = remoteFor(call, ra.pe)->get(ra, dst, n);
  if (isError(s)) transportFailed(call, ra, "get", s);
}

uint64_t remoteAmo(const char* call, const RemoteAddr& ra, AmoOp op, unsigned size, uint64_t value, uint64_t cond) {
  uint64_t result = 0;
  Status s = remoteFor(call, ra.pe)->amo(ra, op, size, value, cond, &result);
  if (isError(s)) transportFailed(call, ra, "atomic", s);
  return result;
}

void remoteSignal(const char* call, const RemoteAddr& ra, uint64_t value, bool add) {
  Transport* t = remoteFor(call, ra.pe);
  Status s = add ? t->signalAddNbi(ra, value) : t->signalNbi(ra, value);
  if (isError(s)) transportFailed(call, ra, "signal", s);
}

void remoteSignalLazy(const char* call, const RemoteAddr& ra, uint64_t value) {
  Status s = remoteFor(call, ra.pe)->signalLazy(ra, value);
  if (isError(s)) transportFailed(call, ra, "signal", s);
}

void remotePutSignal(const char* call, const RemoteAddr& rd, const void* src, std::size_t n, const RemoteAddr& rs,
                     uint64_t value, bool add) {
  Status s = remoteFor(call, rd.pe)->putSignal(rd, src, n, rs, value, add);
  if (isError(s)) transportFailed(call, rd, "put with signal", s);
}

void remoteFence(const char* call) {
  if (!g_rt.remote) return;
  Status s = g_rt.remote->fence();
  if (isError(s)) fatal(call, "fence through %s failed: %s", g_rt.remote->name(), statusString(s));
}

std::size_t remoteSetAggregate(std::size_t bytes) { return g_rt.remote ? g_rt.remote->setAggregate(bytes) : 0; }

void remoteQuiet(const char* call) {
  if (!g_rt.remote) return;
  Status s = g_rt.remote->quiet();
  if (isError(s)) fatal(call, "quiet through %s failed: %s", g_rt.remote->name(), statusString(s));
}

namespace ops {

void signalOnly(const char* call, uint64_t* sig, uint64_t signal, int sig_op, int wpe) {
  if (GSHMEM_UNLIKELY(reinterpret_cast<uintptr_t>(sig) % 8)) errorMisaligned(call, sig, 8);
  if (GSHMEM_UNLIKELY(sig_op != kSignalSet && sig_op != kSignalAdd)) errorBadSignalOp(call, sig_op);
  RemoteAddr rs;
  auto* s = reinterpret_cast<uint64_t*>(userResolve(call, "sig_addr", sig, 8, wpe, &rs));
  if (s == nullptr) {
    offAmo(call, rs, sig_op == kSignalSet ? AmoOp::Set : AmoOp::Add, 8, signal, 0);
  } else if (sig_op == kSignalSet) {
    __atomic_store_n(s, signal, __ATOMIC_RELEASE);
  } else {
    __atomic_fetch_add(s, signal, __ATOMIC_RELEASE);
  }
}

}  // namespace ops

}  // namespace gshmem
