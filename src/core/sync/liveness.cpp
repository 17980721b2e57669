// Heartbeat thread and the wait-side check (see liveness.hpp for the contract).
// Silence is counted in the watchdog thread's own running time: each tick adds the time since its previous tick,
// at most a quarter of the timeout, to the silence of every watched PE whose heartbeat did not move. A watchdog
// thread that is held off the CPU for long (a suspended or stopped waiter, a badly overloaded node) therefore
// needs several ticks before it accuses a peer, which meanwhile gets the chance to beat; a stopped process accrues
// silence at the full rate.
#include "core/sync/liveness.hpp"

#include <pthread.h>
#include <sys/stat.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "base/config.hpp"
#include "base/deadline.hpp"
#include "core/runtime/runtime.hpp"
#include "core/sync/liveness_net.hpp"

namespace gshmem::liveness {

namespace {

enum BeatState : uint32_t { kNotStarted = 0, kRunning = 1, kFinalized = 2, kExited = 3 };

/// The heartbeat line at the end of every PE's heap. One writer (the owner's watchdog thread, or its finalize).
struct alignas(64) BeatLine {
  std::atomic<uint64_t> count;
  std::atomic<uint32_t> state;
  int32_t pid;
  uint64_t pid_ns;      ///< inode of the owner's PID namespace: pid means something here only when it matches
  uint64_t start_time;  ///< field 22 of /proc/<pid>/stat: tells a recycled pid apart
};
static_assert(sizeof(BeatLine) == kBeatBytes, "the heartbeat line is one cache line");

uint64_t nowNs() { return static_cast<uint64_t>(monotonicNs()); }

/// One PE this watchdog watches: through its heartbeat line when its heap is mapped here, else as a ring successor
/// over the network. Written by the watchdog thread under Watchdog::mu.
struct Watched {
  int pe = -1;
  BeatLine* line = nullptr;              ///< its heartbeat line, mapped here
  const NetBeats::Peer* net = nullptr;  ///< else its ring successor entry
  uint64_t last = 0;                     ///< the count (word) read at the previous tick
  uint64_t silent_ns = 0;                ///< silence accrued in the thread's running time
};

struct Watchdog {
  NetBeats net;                     ///< the ring neighbours on other nodes
  std::vector<Watched> watched;     ///< the PEs of this node and the ring successors; under mu
  BeatLine* mine = nullptr;         ///< this PE's heartbeat line once attached (under mu); before, `early`
  uint64_t early = 0;
  uint64_t ticks = 0;
  std::atomic<const char*> phase{nullptr};  ///< the init phase running; nullptr once init is complete
  uint64_t timeout_ns = 0;
  long timeout_s = 0;
  uint64_t period_ns = 0;
  uint64_t max_step_ns = 0;  ///< most silence one tick may add: a quarter of the timeout
  uint64_t pid_ns = 0;       ///< this process's PID namespace: a node-mate's pid means something here when equal
  std::mutex mu;
  std::condition_variable cv;
  bool stopping = false;
  std::thread thread;

  void run();
  void sample(Watched* w, uint64_t step);
  std::vector<int> silent(uint64_t bound, bool skip_finalized) const;
  void initCheck();
  void watchCheck(uint64_t now);
  void deadCheck();
};

/// Live between start and stop; never destroyed by a static destructor (a PE may exit without finalize).
std::atomic<Watchdog*> g_dog{nullptr};
std::atomic<bool> g_reported{false};
bool g_atexit_registered = false;

/// The call this PE was last seen blocked in, and when (poll()); the thread's report names it while it is fresh.
std::atomic<const char*> g_wait_call{nullptr};
std::atomic<uint64_t> g_wait_ns{0};
constexpr uint64_t kCallFreshNs = 1000000000ull;  ///< far longer than kWaitPollStride polls of a wait take
/// A PE in no polling wait (computing, or blocked in a transport's own bounded wait, which names the peer itself)
/// gives the silence this much longer before the thread reports it under the name "watchdog".
constexpr uint64_t kAnonymousGraceNs = 2000000000ull;

/// The call this PE is blocked in, nullptr when no wait has polled lately.
const char* blockedCall(uint64_t now) {
  const uint64_t t = g_wait_ns.load(std::memory_order_acquire);
  const char* call = g_wait_call.load(std::memory_order_relaxed);
  return call && t != 0 && t + kCallFreshNs > now ? call : nullptr;
}

/// The count PE w watches now; false when it has none yet (a ring successor not heard from, or unwatched).
bool readCount(const Watched& w, uint64_t* c) {
  if (w.line) {
    *c = w.line->count.load(std::memory_order_acquire);
    return true;
  }
  if (!w.net || w.net->port == 0 || !w.net->seen) return false;
  *c = w.net->word;
  return true;
}

bool finalizedPe(const Watched& w) {
  if (w.line) return w.line->state.load(std::memory_order_acquire) == kFinalized;
  return w.net && w.net->seen && wireState(w.net->word) == kWireFinalized;
}

void Watchdog::sample(Watched* w, uint64_t step) {
  uint64_t c;
  if (!readCount(*w, &c)) return;
  if (c != w->last) {
    w->last = c;
    w->silent_ns = 0;
  } else {
    w->silent_ns += step;
  }
}

/// The watched PEs silent for `bound` ns (under mu), those that finalized left out when `skip_finalized`.
std::vector<int> Watchdog::silent(uint64_t bound, bool skip_finalized) const {
  std::vector<int> out;
  for (const Watched& w : watched)
    if (w.silent_ns >= bound && !(skip_finalized && finalizedPe(w))) out.push_back(w.pe);
  return out;
}

void Watchdog::run() {
  uint64_t prev = nowNs();
  std::unique_lock<std::mutex> lk(mu);
  while (!stopping) {
    const uint64_t count = mine ? mine->count.fetch_add(1, std::memory_order_release) + 1 : ++early;
    net.send(beatWord(count, kWireRunning));
    net.receive();
    ++ticks;
    const uint64_t now = nowNs();
    const uint64_t step = now - prev < max_step_ns ? now - prev : max_step_ns;
    prev = now;
    for (Watched& w : watched) sample(&w, step);
    deadCheck();
    if (phase.load(std::memory_order_acquire) && g_rt.initialized.load()) phase.store(nullptr);  // init is over
    if (phase.load(std::memory_order_acquire)) initCheck();
    else watchCheck(now);
    cv.wait_for(lk, std::chrono::nanoseconds(period_ns), [this] { return stopping; });
  }
}

void stopAtExit() { stop(false); }

/// True when `l`'s owner is a process of this PID namespace and still the same process (not a recycled pid).
bool sameProcess(const BeatLine* l, char* st) {
  uint64_t start = 0;
  return l->pid_ns != 0 && l->pid_ns == pidNamespace("/proc/self/ns/pid") && procStat(l->pid, st, &start) &&
         start == l->start_time;
}

/// True when `p`, known from its card, is a process of this machine and PID namespace, still the same one.
bool sameProcess(const NetBeats::Proc& p, char* st) {
  uint64_t start = 0;
  return p.boot != 0 && p.boot == machineBootHash() && p.pid_ns != 0 && p.pid_ns == pidNamespace("/proc/self/ns/pid") &&
         procStat(p.pid, st, &start) && start == p.start_time;
}

const Watched* entry(const Watchdog* d, int pe) {
  for (const Watched& w : d->watched)
    if (w.pe == pe) return &w;
  return nullptr;
}

/// PE pe's heartbeat line when it is mapped here and its owner has filled it in (attach), else nullptr.
const BeatLine* filledLine(const Watchdog* d, int pe) {
  const Watched* w = entry(d, pe);
  const BeatLine* l = w ? w->line : nullptr;
  return l && l->state.load(std::memory_order_acquire) != kNotStarted ? l : nullptr;
}

/// Why PE `pe` is silent, from its heartbeat line or the state in its datagrams, its card and /proc.
const char* reason(const Watchdog* d, int pe) {
  const BeatLine* l = filledLine(d, pe);
  char st = 0;
  if (!l) {
    const Watched* w = entry(d, pe);
    const WireState ws = w && w->net && w->net->seen ? wireState(w->net->word) : kWireRunning;
    if (ws == kWireFinalized) return "it has called shmem_finalize";
    if (ws == kWireExited) return "it is exiting without shmem_finalize";
    const NetBeats::Proc p = d->net.proc(pe);
    if (sameProcess(p, &st)) {
      if (st == 'Z' || st == 'X') return "its process has exited";
      if (st == 'T' || st == 't') return "its process is stopped, by SIGSTOP or a debugger";
      return "stopped, hung or dead";
    }
    if (p.boot != 0 && p.boot == machineBootHash()) return "stopped, hung, dead or exited";
    return "on another node: stopped, hung, dead or unreachable";
  }
  const uint32_t state = l->state.load(std::memory_order_acquire);
  if (state == kFinalized) return "it has called shmem_finalize";
  if (state == kExited) return "it is exiting without shmem_finalize";
  if (l->pid_ns == 0 || l->pid_ns != pidNamespace("/proc/self/ns/pid")) return "stopped, hung or dead";
  if (!sameProcess(l, &st) || st == 'Z' || st == 'X') return "its process has exited";
  if (st == 'T' || st == 't') return "its process is stopped, by SIGSTOP or a debugger";
  return "stopped, hung or dead";
}

/// Pids of the silent PEs that are stopped processes of this machine and PID namespace.
std::vector<int> stoppedPids(const Watchdog* d, const std::vector<int>& silent) {
  std::vector<int> stopped;
  for (int pe : silent) {
    char st = 0;
    const BeatLine* l = filledLine(d, pe);
    const NetBeats::Proc p = d->net.proc(pe);
    const bool same = l ? sameProcess(l, &st) : sameProcess(p, &st);
    if (same && (st == 'T' || st == 't')) stopped.push_back(l ? l->pid : p.pid);
  }
  return stopped;
}

[[noreturn]] void reportSilent(const char* call, const std::vector<int>& silent, const char* phase = nullptr) {
  if (g_reported.exchange(true)) {  // one report per process; the first reporter ends the job
    for (;;) pause();
  }
  const Watchdog* d = g_dog.load(std::memory_order_acquire);
  std::string who;
  for (size_t i = 0; i < silent.size() && i < 8; ++i) {
    char one[160];
    snprintf(one, sizeof one, "%sPE %d (%s)", i ? ", " : "", silent[i], reason(d, silent[i]));
    who += one;
  }
  if (silent.size() > 8) who += ", ...";
  // A stopped PE of this node is also killed, 300 ms after the report (which the launcher must see first): the
  // launcher's abort resumes and terminates each process in turn, which a loaded node has been seen to take 20 s
  // over, while a killed process ends the job at once.
  std::vector<int> stopped = stoppedPids(d, silent);
  if (!stopped.empty())
    std::thread([stopped] {
      usleep(300000);
      for (int pid : stopped) kill(pid, SIGKILL);
    }).detach();
  const std::string during = phase ? std::string(" during init (") + phase + ")" : std::string();
  fatal(call, "%s %s not made progress for %ld s%s; ending the job (GSHMEM_TIMEOUT=%ld; 0 turns this check off)",
        who.c_str(), silent.size() == 1 ? "has" : "have", d->timeout_s, during.c_str(), d->timeout_s);
}

/// Ends this process 3 s from now: the watchdog thread's report aborts the job through the launcher while the
/// init thread may hold the launcher's library (an MPI collective); the launcher ends the rest once this exits.
void exitSoon() {
  std::thread([] {
    sleep(3);
    _exit(1);
  }).detach();
}

/// The one line for a PE of this node found dead (Watchdog::deadCheck), then the job ends.
[[noreturn]] void reportDead(int pe) {
  if (g_reported.exchange(true)) {  // one report per process; the first reporter ends the job
    for (;;) pause();
  }
  peerLost(pe, "its process has exited without shmem_finalize: killed or crashed");
}

/// The early bound of init (initTimerArm).
struct InitTimer {
  std::mutex mu;
  std::condition_variable cv;
  bool armed = false;
};
InitTimer g_timer;

/// On the watchdog thread during init: no waitFor polls there, so the thread itself ends the job for a silent PE.
void Watchdog::initCheck() {
  const char* ph = phase.load(std::memory_order_acquire);
  std::vector<int> quiet = silent(timeout_ns, false);
  if (quiet.empty() || !ph) return;
  exitSoon();
  mu.unlock();  // stop(), from the exit path, takes it
  reportSilent("shmem_init", quiet, ph);
}

/// On the watchdog thread, every tick: a PE of this node whose process is gone while its heartbeat line still says
/// it runs (SIGKILL, a crash) is reported at once as a lost PE, not after the timeout's silence. Nothing else may
/// watch it: the UCX transport makes no endpoint to a PE that shared memory reaches. One kill(pid, 0) per mapped
/// peer; a process not reaped yet (a zombie) or a recycled pid is left to the silence check.
void Watchdog::deadCheck() {
  for (const Watched& w : watched) {
    const BeatLine* l = w.line;
    if (!l || l->pid <= 0 || l->pid_ns == 0 || l->pid_ns != pid_ns) continue;
    if (l->state.load(std::memory_order_acquire) != kRunning) continue;
    if (kill(l->pid, 0) == 0 || errno != ESRCH) continue;
    // Read again: an owner that finalized or exited through exit() just before kill() is no fault.
    if (l->state.load(std::memory_order_acquire) != kRunning) continue;
    exitSoon();
    mu.unlock();  // stop(), from the exit path, takes it
    reportDead(w.pe);
  }
}

/// On the watchdog thread once init is over: this PE may wait on a PE it does not watch, whose watchers may be
/// computing, so whoever watches a silent PE ends the job, naming the call it is blocked in; when it is in no
/// polling wait, after kAnonymousGraceNs more, as "watchdog". A PE that finalized is left out: its partners are in
/// finalize too.
void Watchdog::watchCheck(uint64_t now) {
  bool any = false;
  for (const Watched& w : watched) any = any || w.silent_ns >= timeout_ns;
  if (!any) return;
  const char* call = blockedCall(now);
  std::vector<int> quiet = silent(call ? timeout_ns : timeout_ns + kAnonymousGraceNs, true);
  if (quiet.empty()) return;
  exitSoon();
  mu.unlock();  // stop(), from the exit path, takes it
  reportSilent(call ? call : "watchdog", quiet);
}

}  // namespace

void begin(Bootstrap& bs, long timeout_s) {
  if (g_dog.load()) return;
  auto d = std::make_unique<Watchdog>();
  // Collective: every PE takes part, whatever its own GSHMEM_TIMEOUT.
  if (isError(d->net.setup(bs, timeout_s > 0, static_cast<long>(params().LIVENESS_RCVBUF))))
    fatal("shmem_init", "bootstrap allgather failed (wait watchdog)");
  initTimerDisarm();  // from here on a silent PE is told apart and named
  if (timeout_s <= 0) {
    if (isError(d->net.greet(bs, 0))) fatal("shmem_init", "bootstrap barrier failed (wait watchdog)");
    return;
  }
  for (int i = 0; i < d->net.watchedCount(); ++i) {
    Watched w;
    w.pe = d->net.watched(i).pe;
    w.net = &d->net.watched(i);
    d->watched.push_back(w);
  }
  d->timeout_s = timeout_s;
  d->timeout_ns = uint64_t(timeout_s) * 1000000000ull;
  // 20 beats per timeout, between 50 and 250 ms apart: a stopped PE is found within about a period of the timeout.
  d->period_ns = heartbeatPeriodNs(timeout_s);
  d->max_step_ns = d->timeout_ns / 4 > 2 * d->period_ns ? d->timeout_ns / 4 : 2 * d->period_ns;
  d->pid_ns = pidNamespace("/proc/self/ns/pid");
  d->phase.store("liveness", std::memory_order_release);
  // The first beat goes out now, from the init thread: a peer that stops before its watchdog thread first runs is
  // watched all the same.
  if (isError(d->net.greet(bs, beatWord(++d->early, kWireRunning))))
    fatal("shmem_init", "bootstrap barrier failed (wait watchdog)");
  for (Watched& w : d->watched) (void)readCount(w, &w.last);
  Watchdog* w = d.release();
  g_dog.store(w, std::memory_order_release);
  g_wait_poll.store(&poll, std::memory_order_release);  // every blocking wait now reports to this watchdog
  w->thread = std::thread([w] {
    pthread_setname_np(pthread_self(), "gshmem-watchdog");
    w->run();
  });
  if (!g_atexit_registered) g_atexit_registered = atexit(stopAtExit) == 0;
}

void attach(const std::vector<char*>& heaps, std::size_t heap_bytes) {
  Watchdog* d = g_dog.load(std::memory_order_acquire);
  if (!d) return;
  const int me = d->net.rank();
  BeatLine* mine = reinterpret_cast<BeatLine*>(heaps[me] + heap_bytes - kBeatBytes);
  mine->pid = static_cast<int32_t>(getpid());
  mine->pid_ns = pidNamespace("/proc/self/ns/pid");
  char st;
  if (!procStat(getpid(), &st, &mine->start_time)) mine->pid_ns = 0;
  // The new watched set, built before the lock: the mapped peers, then the ring successors not mapped here.
  std::vector<Watched> next;
  for (int pe = 0; pe < static_cast<int>(heaps.size()); ++pe) {
    if (!heaps[pe] || pe == me) continue;
    Watched w;
    w.pe = pe;
    w.line = reinterpret_cast<BeatLine*>(heaps[pe] + heap_bytes - kBeatBytes);
    next.push_back(w);
  }
  std::lock_guard<std::mutex> lk(d->mu);
  for (const Watched& w : next) d->net.unwatch(w.pe);  // no beats with a mapped ring neighbour, either way
  for (const Watched& old : d->watched) {
    if (old.pe >= static_cast<int>(heaps.size()) || !heaps[old.pe]) {
      next.push_back(old);  // keeps its silence
      continue;
    }
    for (Watched& w : next)  // a ring successor now read through its line keeps the silence it had accrued
      if (w.pe == old.pe) w.silent_ns = old.silent_ns;
  }
  for (Watched& w : next)
    if (w.line) w.last = w.line->count.load(std::memory_order_acquire);
  d->watched.swap(next);
  mine->count.store(d->early, std::memory_order_release);  // the count goes on rising: peers keep the largest
  mine->state.store(kRunning, std::memory_order_release);
  d->mine = mine;
}

void initPhase(const char* name) {
  if (Watchdog* d = g_dog.load(std::memory_order_acquire)) d->phase.store(name, std::memory_order_release);
}
void initEnd() { initPhase(nullptr); }

void initTimerArm(long timeout_s, const char* what) {
  if (timeout_s <= 0) return;
  {
    std::lock_guard<std::mutex> lk(g_timer.mu);
    if (g_timer.armed) return;
    g_timer.armed = true;
  }
  std::thread([timeout_s, what] {
    std::unique_lock<std::mutex> lk(g_timer.mu);
    if (g_timer.cv.wait_for(lk, std::chrono::seconds(timeout_s), [] { return !g_timer.armed; })) return;
    lk.unlock();
    exitSoon();
    fatal("shmem_init", "%s has not completed within %ld s: some PE has not arrived (not started, stopped, hung "
          "or dead); ending the job (GSHMEM_TIMEOUT=%ld; 0 turns this check off)", what, timeout_s, timeout_s);
  }).detach();
}

void initTimerDisarm() {
  {
    std::lock_guard<std::mutex> lk(g_timer.mu);
    g_timer.armed = false;
  }
  g_timer.cv.notify_all();
}

void stop(bool finalized) {
  Watchdog* d = g_dog.exchange(nullptr);
  if (!d) return;
  {
    std::lock_guard<std::mutex> lk(d->mu);
    d->stopping = true;
  }
  d->cv.notify_all();
  if (d->thread.joinable() && d->thread.get_id() != std::this_thread::get_id()) d->thread.join();
  if (d->mine) d->mine->state.store(finalized ? kFinalized : kExited, std::memory_order_release);
  // The last word, three times: one lost datagram must not make a PE that left look dead to its watchers.
  const uint64_t count = d->mine ? d->mine->count.load(std::memory_order_relaxed) : d->early;
  d->net.send(beatWord(count, finalized ? kWireFinalized : kWireExited), 3);
  GSHMEM_LOG_INFO(INIT, "liveness: %llu ticks, %d PE(s) watched, %llu heartbeat datagram(s) sent, %llu received",
                  static_cast<unsigned long long>(d->ticks), static_cast<int>(d->watched.size()),
                  static_cast<unsigned long long>(d->net.sentCount()),
                  static_cast<unsigned long long>(d->net.receivedCount()));
  if (finalized) delete d;  // at exit another thread may still be inside poll(): leave it be
}

namespace {
std::atomic<StuckHook> g_stuck_hook{nullptr};
}  // namespace

void setStuckHook(StuckHook hook) { g_stuck_hook.store(hook, std::memory_order_release); }

void poll(const char* call, WaitWatch* w) {
  Watchdog* d = g_dog.load(std::memory_order_acquire);
  if (!d) return;
  const uint64_t now = nowNs();
  g_wait_call.store(call, std::memory_order_relaxed);
  g_wait_ns.store(now, std::memory_order_release);
  if (w->start_ns == 0) {
    w->start_ns = now;
    w->next_ns = now + d->timeout_ns / 2;  // no scan in the first half of the timeout
    return;
  }
  if (now < w->next_ns) return;
  w->next_ns = now + 100000000ull;  // then every 100 ms at most
  std::vector<int> quiet;
  uint64_t quietest = 0;
  {
    std::unique_lock<std::mutex> lk(d->mu, std::try_to_lock);  // the thread holds it for a tick: scan next time
    if (!lk.owns_lock()) return;
    quiet = d->silent(d->timeout_ns, false);
    for (const Watched& x : d->watched) quietest = x.silent_ns > quietest ? x.silent_ns : quietest;
  }
  if (!quiet.empty()) reportSilent(call, quiet);
  // The hook reads other PEs' state, remotely where they are not mapped: only when every watched PE was heard from
  // within half the timeout, so a PE that is going silent is named by reportSilent, not waited on by the hook.
  StuckHook hook = g_stuck_hook.load(std::memory_order_acquire);
  if (hook && now - w->start_ns >= d->timeout_ns && quietest < d->timeout_ns / 2) hook(call, now - w->start_ns);
}

std::size_t watchdogBytes(int node_pes) {
  const std::size_t others = node_pes > 1 ? std::size_t(node_pes - 1) : 0;
  // The object (NetBeats' four ring neighbours inside), a watched entry per other PE of the node and per ring
  // successor, and NetBeats' process identities of this machine's PEs.
  return sizeof(Watchdog) + (others + kRingPeers) * sizeof(Watched) + others * NetBeats::bytesPerLocalPeer();
}

}  // namespace gshmem::liveness
