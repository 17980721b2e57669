// The typed operations behind every public RMA/AMO/signal/wait call, as inline templates.
// Each takes the public call's name for error messages. A context's PE numbers are team-relative.
// Not-mapped branches go through offPut/offGet/offAmo (core/runtime/runtime.hpp): device heap or remote transport.
// Memory model (load/store path): put/get complete when they return (memcpy into the peer's mapping);
// fence = release ordering, quiet = full fence; AMOs are sequentially consistent CPU atomics.
#pragma once
#include <climits>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/runtime/runtime.hpp"

namespace gshmem {

/// Comparison operators of wait_until/test (values match shmem.h's SHMEM_CMP_*).
enum Cmp : int { kCmpEq = 0, kCmpNe = 1, kCmpGt = 2, kCmpGe = 3, kCmpLt = 4, kCmpLe = 5 };
/// Signal operators (values match SHMEM_SIGNAL_SET/ADD).
enum SignalOp : int { kSignalSet = 0, kSignalAdd = 1 };

namespace ops {

[[noreturn]] void errorMisaligned(const char* call, const void* addr, std::size_t align) __attribute__((cold));
[[noreturn]] void errorBadCmp(const char* call, int cmp) __attribute__((cold));
[[noreturn]] void errorBadSignalOp(const char* call, int op) __attribute__((cold));
[[noreturn]] void errorNull(const char* call, const char* what) __attribute__((cold));

inline void requireInit(const char* call) {
  if (GSHMEM_UNLIKELY(g_rt.peers == nullptr)) errorNotInitialized(call);
}

// ---------------------------------------------------------------------------------------------- user range

/// resolve() (core/runtime/runtime.hpp) over the user range: the entry of every user RMA, AMO and signal address.
__attribute__((always_inline)) inline char* userResolve(const char* call, const char* what, const void* addr,
                                                        std::size_t len, int pe, RemoteAddr* ra) {
  if (GSHMEM_UNLIKELY(static_cast<unsigned>(pe) >= static_cast<unsigned>(g_rt.n_pes))) errorBadPe(call, pe, g_rt.n_pes);
  std::size_t off;
  const int r = userRegionOf(addr, len, &off);
  if (GSHMEM_UNLIKELY(r < 0)) return resolveCold(call, what, addr, len, pe, ra);  // device heap or fatal
  char* b = g_rt.peers[pe].base[r];
  if (GSHMEM_LIKELY(b != nullptr)) return b + off;
  *ra = RemoteAddr{pe, r, off};
  return nullptr;
}

/// Which range an operation may reach: the public calls pass User; the runtime's own traffic (collectives, teams,
/// locks on the control area) keeps the default, the whole of each region.
enum class Reach { Runtime, User };

template <Reach kReach>
__attribute__((always_inline)) inline char* reach(const char* call, const char* what, const void* addr,
                                                  std::size_t len, int pe, RemoteAddr* ra) {
  if constexpr (kReach == Reach::User) return userResolve(call, what, addr, len, pe, ra);
  else return resolve(call, what, addr, len, pe, ra);
}

// ---------------------------------------------------------------------------------------------- RMA

/// Copy `n` bytes from local `src` to symmetric `dst` on `pe`. Zero bytes is a no-op whatever the addresses (NULL
/// included), as in the other OpenSHMEM implementations; the context and PE are still checked.
template <Reach kReach = Reach::Runtime>
inline void put(const char* call, const gshmem_ctx* ctx, void* dst, const void* src, std::size_t n, int pe) {
  requireInit(call);
  int wpe = ctxWorldPe(call, ctx, pe);
  if (GSHMEM_UNLIKELY(n == 0)) return;
  RemoteAddr ra;
  char* p = reach<kReach>(call, "dest", dst, n, wpe, &ra);
  if (GSHMEM_UNLIKELY(src == nullptr && n)) errorNull(call, "source");
  if (GSHMEM_LIKELY(p != nullptr)) copyBytes(p, src, n);
  else offPut(call, ra, src, n);
}

/// Copy `n` bytes from symmetric `src` on `pe` to local `dst`. Zero bytes is a no-op, as for put.
template <Reach kReach = Reach::Runtime>
inline void get(const char* call, const gshmem_ctx* ctx, void* dst, const void* src, std::size_t n, int pe) {
  requireInit(call);
  int wpe = ctxWorldPe(call, ctx, pe);
  if (GSHMEM_UNLIKELY(n == 0)) return;
  RemoteAddr ra;
  const char* p = reach<kReach>(call, "source", src, n, wpe, &ra);
  if (GSHMEM_UNLIKELY(dst == nullptr && n)) errorNull(call, "dest");
  if (GSHMEM_LIKELY(p != nullptr)) copyBytes(dst, p, n);
  else offGet(call, ra, dst, n);
}

template <typename T>
inline void p(const char* call, const gshmem_ctx* ctx, T* dst, T value, int pe) {
  requireInit(call);
  int wpe = ctxWorldPe(call, ctx, pe);
  RemoteAddr ra;
  char* q = userResolve(call, "dest", dst, sizeof(T), wpe, &ra);
  if (GSHMEM_LIKELY(q != nullptr)) std::memcpy(q, &value, sizeof(T));
  else offPut(call, ra, &value, sizeof(T));
}

template <typename T>
inline T g(const char* call, const gshmem_ctx* ctx, const T* src, int pe) {
  requireInit(call);
  int wpe = ctxWorldPe(call, ctx, pe);
  RemoteAddr ra;
  const char* q = userResolve(call, "source", src, sizeof(T), wpe, &ra);
  T v;
  if (GSHMEM_LIKELY(q != nullptr)) std::memcpy(&v, q, sizeof(T));
  else offGet(call, ra, &v, sizeof(T));
  return v;
}

/// Strided put (kPut: local -> remote) or get of `nelems` elements of `esize` bytes; strides in elements. Both
/// ends of the remote range are validated before the first element moves.
template <bool kPut, Reach kReach = Reach::Runtime>
inline void strided(const char* call, const gshmem_ctx* ctx, std::conditional_t<kPut, const char*, char*> local,
                    std::ptrdiff_t local_stride, const void* remote, std::ptrdiff_t remote_stride, std::size_t nelems,
                    std::size_t esize, int pe) {
  requireInit(call);
  if (nelems == 0) return;
  const int wpe = ctxWorldPe(call, ctx, pe);
  const char* what = kPut ? "dest" : "source";
  RemoteAddr ra, last;
  char* first = reach<kReach>(call, what, remote, esize, wpe, &ra);
  reach<kReach>(call, what, static_cast<const char*>(remote) + (nelems - 1) * remote_stride * esize, esize, wpe, &last);
  const std::ptrdiff_t ls = local_stride * static_cast<std::ptrdiff_t>(esize);
  const std::ptrdiff_t rs = remote_stride * static_cast<std::ptrdiff_t>(esize);
  if (first) {
    for (std::size_t i = 0; i < nelems; ++i) {
      if constexpr (kPut) std::memcpy(first + i * rs, local + i * ls, esize);
      else std::memcpy(local + i * ls, first + i * rs, esize);
    }
  } else {
    for (std::size_t i = 0; i < nelems; ++i) {
      RemoteAddr e = ra;
      e.offset += i * rs;
      if constexpr (kPut) offPut(call, e, local + i * ls, esize);
      else offGet(call, e, local + i * ls, esize);
    }
  }
}

template <Reach kReach = Reach::Runtime>
inline void iput(const char* call, const gshmem_ctx* ctx, void* dst, const void* src, std::ptrdiff_t dst_stride,
                 std::ptrdiff_t src_stride, std::size_t nelems, std::size_t esize, int pe) {
  strided<true, kReach>(call, ctx, static_cast<const char*>(src), src_stride, dst, dst_stride, nelems, esize, pe);
}

template <Reach kReach = Reach::Runtime>
inline void iget(const char* call, const gshmem_ctx* ctx, void* dst, const void* src, std::ptrdiff_t dst_stride,
                 std::ptrdiff_t src_stride, std::size_t nelems, std::size_t esize, int pe) {
  strided<false, kReach>(call, ctx, static_cast<char*>(dst), dst_stride, src, src_stride, nelems, esize, pe);
}

inline void fence(const gshmem_ctx*) {
  std::atomic_thread_fence(std::memory_order_release);
  if (GSHMEM_UNLIKELY(g_rt.remote != nullptr)) remoteFence("shmem_fence");
}
inline void quiet(const gshmem_ctx*) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (GSHMEM_UNLIKELY(g_rt.remote != nullptr)) remoteQuiet("shmem_quiet");
}

// ---------------------------------------------------------------------------------------------- AMO

template <typename T>
struct AmoBits {  // integer type of the same size, for float/double through CAS
  using type = std::conditional_t<sizeof(T) == 8, uint64_t, std::conditional_t<sizeof(T) == 4, uint32_t, T>>;
};

/// AMO through the remote transport: values travel as their bit patterns, zero-extended to 64 bits.
template <typename T>
__attribute__((noinline)) T amoRemote(const char* call, const RemoteAddr& ra, AmoOp op, T value, T cond) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "remote AMOs are 32- or 64-bit");
  using B = typename AmoBits<T>::type;
  B vb, cb;
  std::memcpy(&vb, &value, sizeof vb);
  std::memcpy(&cb, &cond, sizeof cb);
  uint64_t r = offAmo(call, ra, op, sizeof(T), vb, cb);
  B rb = static_cast<B>(r);
  T out;
  std::memcpy(&out, &rb, sizeof out);
  return out;
}

/// Atomic `op` on symmetric `dest` at `pe`. Returns the old value for fetching ops (T{} otherwise).
template <typename T, Reach kReach = Reach::Runtime>
inline T amo(const char* call, const gshmem_ctx* ctx, AmoOp op, T* dest, T value, T cond, int pe) {
  requireInit(call);
  int wpe = ctxWorldPe(call, ctx, pe);
  if (GSHMEM_UNLIKELY(reinterpret_cast<uintptr_t>(dest) % sizeof(T))) errorMisaligned(call, dest, sizeof(T));
  RemoteAddr ra;
  T* q = reinterpret_cast<T*>(reach<kReach>(call, "dest", dest, sizeof(T), wpe, &ra));
  if (GSHMEM_UNLIKELY(q == nullptr)) return amoRemote<T>(call, ra, op, value, cond);
  constexpr int kMo = __ATOMIC_SEQ_CST;
  if constexpr (std::is_floating_point_v<T>) {
    using B = typename AmoBits<T>::type;
    B* qb = reinterpret_cast<B*>(q);
    B vb;
    std::memcpy(&vb, &value, sizeof vb);
    B old;
    switch (op) {
      case AmoOp::Fetch: old = __atomic_load_n(qb, kMo); break;
      case AmoOp::Set: __atomic_store_n(qb, vb, kMo); return T{};
      case AmoOp::Swap: old = __atomic_exchange_n(qb, vb, kMo); break;
      default: fatal(call, "operation not defined for floating-point types");
    }
    T r;
    std::memcpy(&r, &old, sizeof r);
    return r;
  } else {
    switch (op) {
      case AmoOp::Fetch: return __atomic_load_n(q, kMo);
      case AmoOp::Set: __atomic_store_n(q, value, kMo); return T{};
      case AmoOp::Swap: return __atomic_exchange_n(q, value, kMo);
      case AmoOp::CompareSwap: {
        T expected = cond;
        __atomic_compare_exchange_n(q, &expected, value, false, kMo, kMo);
        return expected;
      }
      case AmoOp::FetchAdd: return __atomic_fetch_add(q, value, kMo);
      case AmoOp::Add: __atomic_fetch_add(q, value, kMo); return T{};
      case AmoOp::FetchInc: return __atomic_fetch_add(q, T(1), kMo);
      case AmoOp::Inc: __atomic_fetch_add(q, T(1), kMo); return T{};
      case AmoOp::FetchAnd: return __atomic_fetch_and(q, value, kMo);
      case AmoOp::And: __atomic_fetch_and(q, value, kMo); return T{};
      case AmoOp::FetchOr: return __atomic_fetch_or(q, value, kMo);
      case AmoOp::Or: __atomic_fetch_or(q, value, kMo); return T{};
      case AmoOp::FetchXor: return __atomic_fetch_xor(q, value, kMo);
      case AmoOp::Xor: __atomic_fetch_xor(q, value, kMo); return T{};
    }
    return T{};
  }
}

/// A 64-bit synchronization word on `pe` that its owner polls: store `value` (or add it, `add`). Mapped peers: one
/// CPU atomic (seq_cst). Others: a transport signal, which is not tracked by quiet (its arrival is what the owner
/// waits for) and costs no round trip, where an AMO would wait for the reply. Ordered after this PE's earlier
/// signals to `pe`; callers quiet first when data must land before it.
inline void signal(const char* call, uint64_t* word, uint64_t value, bool add, int pe) {
  RemoteAddr ra;
  auto* q = reinterpret_cast<uint64_t*>(resolve(call, "signal word", word, sizeof(uint64_t), pe, &ra));
  if (GSHMEM_LIKELY(q != nullptr)) {
    if (add) __atomic_fetch_add(q, value, __ATOMIC_SEQ_CST);
    else __atomic_store_n(q, value, __ATOMIC_SEQ_CST);
  } else if (ra.region == kRegionDevice) {
    (void)offAmo(call, ra, add ? AmoOp::Add : AmoOp::Set, sizeof(uint64_t), value, 0);
  } else {
    remoteSignal(call, ra, value, add);
  }
}

// ---------------------------------------------------------------------------------------------- signals

/// Update the 64-bit signal at `sig` on world PE `wpe` alone: the zero-byte put-with-signal (dest and source are
/// not looked at, the signal is still delivered, as the specification requires).
void signalOnly(const char* call, uint64_t* sig, uint64_t signal, int sig_op, int wpe);

/// Put `n` bytes, then (ordered after the data) update the 64-bit signal at `sig` on the same PE.
inline void putSignal(const char* call, const gshmem_ctx* ctx, void* dst, const void* src, std::size_t n,
                      uint64_t* sig, uint64_t signal, int sig_op, int pe) {
  requireInit(call);
  int wpe = ctxWorldPe(call, ctx, pe);
  if (GSHMEM_UNLIKELY(n == 0)) return signalOnly(call, sig, signal, sig_op, wpe);
  RemoteAddr rd, rs;
  char* d = userResolve(call, "dest", dst, n, wpe, &rd);
  if (GSHMEM_UNLIKELY(reinterpret_cast<uintptr_t>(sig) % 8)) errorMisaligned(call, sig, 8);
  uint64_t* s = reinterpret_cast<uint64_t*>(userResolve(call, "sig_addr", sig, 8, wpe, &rs));
  if (GSHMEM_UNLIKELY(s == nullptr || d == nullptr)) {
    if (sig_op != kSignalSet && sig_op != kSignalAdd) errorBadSignalOp(call, sig_op);
    if (!d && !s && rd.region != kRegionDevice && rs.region != kRegionDevice) {  // both through the transport
      remotePutSignal(call, rd, src, n, rs, signal, sig_op == kSignalAdd);
      return;
    }
    if (d) std::memcpy(d, src, n);
    else offPut(call, rd, src, n);
    remoteFence(call);  // the signal lands after the data
    offAmo(call, rs, sig_op == kSignalSet ? AmoOp::Set : AmoOp::Add, 8, signal, 0);
    return;
  }
  copyBytes(d, src, n);
  if (sig_op == kSignalSet) __atomic_store_n(s, signal, __ATOMIC_RELEASE);
  else if (sig_op == kSignalAdd) __atomic_fetch_add(s, signal, __ATOMIC_RELEASE);
  else errorBadSignalOp(call, sig_op);
}

inline uint64_t signalFetch(const char* call, const uint64_t* sig) {
  requireInit(call);
  return __atomic_load_n(sig, __ATOMIC_ACQUIRE);
}

// ---------------------------------------------------------------------------------------------- wait/test

template <typename T>
inline bool compare(const char* call, int cmp, T a, T b) {
  switch (cmp) {
    case kCmpEq: return a == b;
    case kCmpNe: return a != b;
    case kCmpGt: return a > b;
    case kCmpGe: return a >= b;
    case kCmpLt: return a < b;
    case kCmpLe: return a <= b;
  }
  errorBadCmp(call, cmp);
}

template <typename T>
inline T load(const T* ivar) {
  return __atomic_load_n(const_cast<T*>(ivar), __ATOMIC_ACQUIRE);
}

/// A wait/test variable must be symmetric (the specification's "remotely accessible"): a PE waiting on anything
/// else waits forever, since no other PE can write it. Checked with GSHMEM_CHECK >= 1, like the RMA addresses.
template <typename T>
inline void checkIvars(const char* call, const T* ivars, std::size_t n, const char* what = "ivars") {
  requireInit(call);
  if (n == 0) return;
  if (GSHMEM_UNLIKELY(ivars == nullptr)) errorNull(call, what);
  if (GSHMEM_UNLIKELY(reinterpret_cast<uintptr_t>(ivars) % alignof(T))) errorMisaligned(call, ivars, alignof(T));
  std::size_t off;
  if (GSHMEM_UNLIKELY(g_rt.check > 0 && userRegionOf(ivars, n * sizeof(T), &off) < 0))
    errorNotSymmetric(call, what, ivars, n * sizeof(T));
}

template <typename T>
inline void checkIvar(const char* call, const T* ivar) {
  checkIvars(call, ivar, 1, "ivar");
}

template <typename T>
inline void waitUntil(const char* call, T* ivar, int cmp, T value) {
  checkIvar(call, ivar);
  compare(call, cmp, T{}, T{});  // validates cmp before a possibly endless wait
  waitFor([&] { return compare(call, cmp, load(ivar), value); }, call);
}

/// Polling forms must drive the remote transport: over UCX/TCP a put to this PE lands only when it progresses.
/// A program that loops on test calls is watched like a blocking wait (core/runtime/wait_watch.hpp), from its first test call.
inline thread_local WaitWatch t_test_watch;
inline void pollProgress(const char* call) {
  if (GSHMEM_UNLIKELY(++t_test_watch.polls % kWaitPollStride == 0)) waitPoll(call, &t_test_watch);
  if (GSHMEM_UNLIKELY(g_rt.remote != nullptr)) g_rt.remote->progress();
}

template <typename T>
inline int test(const char* call, T* ivar, int cmp, T value) {
  checkIvar(call, ivar);
  pollProgress(call);
  return compare(call, cmp, load(ivar), value) ? 1 : 0;
}

/// `values` == nullptr means every element compares against `value` (scalar forms).
template <typename T>
inline bool elemReady(const char* call, T* ivars, std::size_t i, int cmp, const T* values, T value) {
  return compare(call, cmp, load(&ivars[i]), values ? values[i] : value);
}

// scan*: one pass over the elements, no progress (wait loops progress in waitFor); test*: the public forms, which
// drive the remote transport once per call.
template <typename T>
inline int scanAll(const char* call, T* ivars, std::size_t n, const int* status, int cmp, const T* values, T value) {
  for (std::size_t i = 0; i < n; ++i)
    if (!(status && status[i]) && !elemReady(call, ivars, i, cmp, values, value)) return 0;
  return 1;
}

/// _any forms: the scan starts after the index this thread returned last and wraps, so a caller that polls without
/// masking returned indices (status == NULL) sees every ready element in turn instead of always the lowest one.
/// Any ready index is a valid answer; only the choice among several changes.
inline thread_local std::size_t t_any_cursor = 0;

template <typename T>
inline std::size_t scanAny(const char* call, T* ivars, std::size_t n, const int* status, int cmp, const T* values,
                           T value) {
  if (n == 0) return SIZE_MAX;
  std::size_t i = t_any_cursor < n ? t_any_cursor : 0;
  for (std::size_t k = 0; k < n; ++k, i = (i + 1 == n) ? 0 : i + 1) {
    if (!(status && status[i]) && elemReady(call, ivars, i, cmp, values, value)) {
      t_any_cursor = i + 1;
      return i;
    }
  }
  return SIZE_MAX;
}

template <typename T>
inline std::size_t scanSome(const char* call, T* ivars, std::size_t n, std::size_t* indices, const int* status,
                            int cmp, const T* values, T value) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (!(status && status[i]) && elemReady(call, ivars, i, cmp, values, value)) indices[k++] = i;
  return k;
}

template <typename T>
inline int testAll(const char* call, T* ivars, std::size_t n, const int* status, int cmp, const T* values, T value) {
  checkIvars(call, ivars, n);
  pollProgress(call);
  return scanAll(call, ivars, n, status, cmp, values, value);
}

template <typename T>
inline std::size_t testAny(const char* call, T* ivars, std::size_t n, const int* status, int cmp, const T* values,
                           T value) {
  checkIvars(call, ivars, n);
  pollProgress(call);
  return scanAny(call, ivars, n, status, cmp, values, value);
}

template <typename T>
inline std::size_t testSome(const char* call, T* ivars, std::size_t n, std::size_t* indices, const int* status,
                            int cmp, const T* values, T value) {
  checkIvars(call, ivars, n);
  pollProgress(call);
  return scanSome(call, ivars, n, indices, status, cmp, values, value);
}

inline bool allMasked(std::size_t n, const int* status) {
  if (!status) return n == 0;
  for (std::size_t i = 0; i < n; ++i)
    if (!status[i]) return false;
  return true;
}

template <typename T>
inline void waitUntilAll(const char* call, T* ivars, std::size_t n, const int* status, int cmp, const T* values,
                         T value) {
  checkIvars(call, ivars, n);
  compare(call, cmp, T{}, T{});
  waitFor([&] { return scanAll(call, ivars, n, status, cmp, values, value) != 0; }, call);
}

template <typename T>
inline std::size_t waitUntilAny(const char* call, T* ivars, std::size_t n, const int* status, int cmp,
                                const T* values, T value) {
  checkIvars(call, ivars, n);
  compare(call, cmp, T{}, T{});
  if (allMasked(n, status)) return SIZE_MAX;
  std::size_t idx = SIZE_MAX;
  waitFor([&] { return (idx = scanAny(call, ivars, n, status, cmp, values, value)) != SIZE_MAX; }, call);
  return idx;
}

template <typename T>
inline std::size_t waitUntilSome(const char* call, T* ivars, std::size_t n, std::size_t* indices, const int* status,
                                 int cmp, const T* values, T value) {
  checkIvars(call, ivars, n);
  compare(call, cmp, T{}, T{});
  if (allMasked(n, status)) return 0;
  std::size_t k = 0;
  waitFor([&] { return (k = scanSome(call, ivars, n, indices, status, cmp, values, value)) != 0; }, call);
  return k;
}

inline uint64_t signalWaitUntil(const char* call, uint64_t* sig, int cmp, uint64_t value) {
  waitUntil(call, sig, cmp, value);
  return load(sig);
}

}  // namespace ops
}  // namespace gshmem
