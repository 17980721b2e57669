// The set of peers with outstanding work, so that quiet, fence and the watchdog visit those peers only, not every
// PE of the job. Independent of UCX: the transport keeps the per-peer counters, this set only says which peers to
// look at.
//
// Layout: a bit per peer (words_) and a bit per word of those (summary_), so a scan reads one summary word per
// 4,096 peers, then only the words with a summary bit, then only the set bits.
//
// Contract.
// - mark(pe) is called after the operation that made the peer outstanding is counted (the counter's increment
//   must be a sequentially consistent read-modify-write). Its fast path is two loads; it writes only when the
//   peer's bit or its word's summary bit is clear.
// - unmark(pe, dirty) is called when a completion may have made the peer clean; dirty() re-reads the peer's
//   counters. It clears the bit only when dirty() is false, then re-checks and sets the bit back when an operation
//   was counted meanwhile, so a mark that saw the bit still set is never lost.
// - forEach(f) visits every peer marked before the scan began and not made clean since (plus, at times, a clean
//   peer whose mark raced with its completion: the visitor finds its counters equal and unmarks it). An unmark runs
//   between "clearing_ up" and "clearing_ down", and may hide a bit for that short window; a scan first waits until
//   no unmark is running, so a window that opened before the scan has closed again (one opened during the scan
//   cannot hide an operation counted before the scan: its dirty() sees that operation). If the wait does not see
//   the count drop to zero within a bound, forEach returns false and the caller scans every peer instead.
// - Every call may come from any thread at once. No allocation, lock or system call after reset().
#pragma once
#include <sched.h>

#include <atomic>
#include <cstdint>
#include <memory>

namespace gshmem {
namespace ucxt {

class OutstandingSet {
 public:
  /// Sized for peers 0..npes-1, all clean. Not thread-safe: before the transport is in use.
  void reset(int npes) {
    nwords_ = (npes + 63) / 64;
    nsummary_ = (nwords_ + 63) / 64;
    words_.reset(new std::atomic<uint64_t>[nwords_ > 0 ? nwords_ : 1]);
    summary_.reset(new std::atomic<uint64_t>[nsummary_ > 0 ? nsummary_ : 1]);
    for (int i = 0; i < nwords_; ++i) words_[i].store(0, std::memory_order_relaxed);
    for (int i = 0; i < nsummary_; ++i) summary_[i].store(0, std::memory_order_relaxed);
  }

  void mark(int pe) {
    std::atomic<uint64_t>& w = words_[pe >> 6];
    std::atomic<uint64_t>& s = summary_[pe >> 12];
    const uint64_t bit = 1ull << (pe & 63), sbit = 1ull << ((pe >> 6) & 63);
    if (!(w.load() & bit)) w.fetch_or(bit);
    if (!(s.load() & sbit)) s.fetch_or(sbit);
  }

  template <typename Dirty>
  void unmark(int pe, Dirty&& dirty) {
    std::atomic<uint64_t>& w = words_[pe >> 6];
    std::atomic<uint64_t>& s = summary_[pe >> 12];
    const uint64_t bit = 1ull << (pe & 63), sbit = 1ull << ((pe >> 6) & 63);
    clearing_.fetch_add(1);
    if (!dirty()) {
      const uint64_t old = w.fetch_and(~bit);
      if (dirty()) {
        mark(pe);  // an operation was counted after dirty() and its mark saw the bit still set
      } else if (old == bit) {  // the word is empty now: clear its summary bit, unless a mark refilled it
        s.fetch_and(~sbit);
        if (w.load() != 0) s.fetch_or(sbit);
      }
    }
    clearing_.fetch_sub(1);
  }

  /// Calls f(pe) for each marked peer (see the contract); f returns false to stop. False when the scan could not
  /// begin (unmarks kept running): the caller then visits every peer.
  template <typename F>
  bool forEach(F&& f) const {
    for (unsigned spin = 0; clearing_.load() != 0; ++spin) {
      if (spin >= kWaitSpins) return false;
      if (spin >= kWaitSpins / 2) sched_yield();
    }
    for (int si = 0; si < nsummary_; ++si) {
      uint64_t s = summary_[si].load();
      while (s) {
        const int wi = si * 64 + __builtin_ctzll(s);
        s &= s - 1;
        uint64_t w = words_[wi].load();
        while (w) {
          const int pe = wi * 64 + __builtin_ctzll(w);
          w &= w - 1;
          if (!f(pe)) return true;
        }
      }
    }
    return true;
  }

  /// True when no peer is marked (a hint: a concurrent mark may land right after).
  bool empty() const {
    for (int si = 0; si < nsummary_; ++si)
      if (summary_[si].load(std::memory_order_relaxed)) return false;
    return true;
  }

 private:
  static constexpr unsigned kWaitSpins = 1u << 12;
  int nwords_ = 0, nsummary_ = 0;
  std::unique_ptr<std::atomic<uint64_t>[]> words_;
  std::unique_ptr<std::atomic<uint64_t>[]> summary_;
  std::atomic<uint64_t> clearing_{0};  ///< unmarks running now
};

}  // namespace ucxt
}  // namespace gshmem
