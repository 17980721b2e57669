// The harness of the transport contract test (contract_harness.hpp) and its main(): MPI ranks are the PEs, one MPI
// bootstrap is shared by every case, PE 0 prints the gtest output and the other PEs their own failures only.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include "transports/contract_harness.hpp"
#include "transports/cpu_amo.hpp"

#include <mpi.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace gshmem::contract {
namespace {

std::unique_ptr<Bootstrap> g_bs;
int g_rank = 0;

long nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Bootstrap& jobBootstrap() { return *g_bs; }

void patternFill(void* p, std::size_t n, uint64_t seed) {
  auto* b = static_cast<unsigned char*>(p);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t w = patternWord(seed, i / 8);
    for (int k = 0; k < 8; ++k) b[i + k] = static_cast<unsigned char>(w >> (8 * k));
  }
  for (; i < n; ++i) b[i] = patternByte(seed, i);
}

std::size_t patternMismatch(const void* p, std::size_t n, uint64_t seed) {
  const auto* b = static_cast<const unsigned char*>(p);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t w = patternWord(seed, i / 8);
    for (int k = 0; k < 8; ++k)
      if (b[i + k] != static_cast<unsigned char>(w >> (8 * k))) return i + k;
  }
  for (; i < n; ++i)
    if (b[i] != patternByte(seed, i)) return i;
  return n;
}

std::size_t byteMismatch(const void* p, std::size_t n, unsigned char v) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i)
    if (b[i] != v) return i;
  return n;
}

MemfdRegion::MemfdRegion(std::size_t size) {
  region.fd = memfd_create("gshmem-contract", MFD_CLOEXEC);
  EXPECT_GE(region.fd, 0);
  EXPECT_EQ(ftruncate(region.fd, static_cast<off_t>(size)), 0);
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, region.fd, 0);
  EXPECT_NE(p, MAP_FAILED);
  region.base = static_cast<char*>(p);
  region.size = size;
}

MemfdRegion::~MemfdRegion() {
  munmap(region.base, region.size);
  close(region.fd);
}

Status Link::open(const std::string& name) {
  const TransportEntry* e = nullptr;
  for (int i = 0; i < kNumTransports; ++i)
    if (name == kTransports[i].name) e = &kTransports[i];
  if (e == nullptr) return Status::InvalidArgument;
  TransportConfig cfg;
  cfg.timeout_s = 30;
  // The core's defaults for what changes a transport's data path; ctest runs ucx once more with each set otherwise.
  if (const char* amo = getenv("GSHMEM_UCX_AMO")) cfg.amo = amo;
  cfg.aggregate = 2048;  // GSHMEM_UCX_AGGREGATE's default: puts up to 2 KiB batched (ucx)
  if (const char* agg = getenv("GSHMEM_UCX_AGGREGATE")) cfg.aggregate = std::strtoul(agg, nullptr, 10);
  Bootstrap& bs = jobBootstrap();
  me = bs.rank();
  npes = bs.size();
  t_ = e->create(cfg);
  if (!t_) return Status::Unsupported;
  // A request channel reaches a peer's memory through the peer's server thread and takes no region: its link
  // reads the caps of the kind it reaches (device) over host regions the harness keeps for the common cases.
  request = t_->regionKinds() == 0;
  device = !request && !(e->mem_kinds & (1u << int(MemKind::Host)));
  kind = device || request ? MemKind::Device : MemKind::Host;
  if (device && (cfg.device = deviceSelect(me)) < 0) return Status::Unsupported;
  if (device) t_ = e->create(cfg);  // with the GPU it serves
  std::vector<LocalRegion> regions;
  if (device) {
    dev_heap_ = std::make_unique<DeviceRegion>(kBig + kSlot);
    if (!dev_heap_->region.base) return Status::NoMemory;
    mirror_.assign(kBig + kSlot, 0);
    regions = {dev_heap_->region};
  } else {
    heap_ = std::make_unique<MemfdRegion>(kBig + kSlot);
    data_ = std::make_unique<MemfdRegion>(kDataSize);
    regions = {heap_->region, data_->region};
  }
  if (request) regions.clear();
  Status s = t_->connect(bs, regions, &reach_);
  if (s != Status::Ok) {
    error = t_->lastError();
    t_.reset();
    return s;
  }
  std::vector<unsigned> row(npes);
  for (int pe = 0; pe < npes; ++pe) row[pe] = reach_[pe].capsFor(kind);
  caps_.assign(std::size_t(npes) * npes, 0);
  MPI_Allgather(row.data(), npes, MPI_UNSIGNED, caps_.data(), npes, MPI_UNSIGNED, MPI_COMM_WORLD);
  return Status::Ok;
}

void Link::push(std::size_t n) {
  if (device) {
    EXPECT_TRUE(deviceCopy(dev_heap_->region.base, mirror_.data(), n)) << "copy to the GPU";
  }
}

void Link::pull(std::size_t n) {
  if (device) {
    EXPECT_TRUE(deviceCopy(mirror_.data(), dev_heap_->region.base, n)) << "copy from the GPU";
  }
}

void Link::close() {
  if (!t_) return;
  syncAll();
  t_->disconnect();
  t_.reset();
  if (dev_heap_) {  // every PE has closed its mappings of the others' GPU memory before any frees its own
    syncAll();
    dev_heap_.reset();
  }
}

std::vector<int> Link::targets() const {
  std::vector<int> v;
  for (int pe = 0; pe < npes; ++pe)
    if (caps(me, pe) != 0) v.push_back(pe);
  return v;
}

std::vector<int> Link::sources() const {
  std::vector<int> v;
  for (int pe = 0; pe < npes; ++pe)
    if (caps(pe, me) != 0) v.push_back(pe);
  return v;
}

std::vector<int> Link::pairing() const {
  std::vector<int> partner(npes, -1);
  std::vector<bool> taken(npes, false);
  for (int s = 0; s < npes; ++s)
    for (int k = 1; k <= npes; ++k) {
      const int d = (s + k) % npes;
      if (caps(s, d) == 0 || taken[d]) continue;
      partner[s] = d;
      taken[d] = true;
      break;
    }
  return partner;
}

Status Link::put(int pe, int region, std::size_t off, const void* src, std::size_t n) {
  const unsigned c = caps(me, pe);
  if (c & kCapRma) return t_->putNbi(RemoteAddr{pe, region, off}, src, n);
  if (!(c & kCapLoadStore)) return Status::Unsupported;
  if (device) return deviceCopy(reach_[pe].mapped[region] + off, src, n) ? Status::Ok : Status::Internal;
  std::memcpy(reach_[pe].mapped[region] + off, src, n);
  return Status::Ok;
}

Status Link::get(int pe, int region, std::size_t off, void* dst, std::size_t n, bool nbi) {
  const unsigned c = caps(me, pe);
  if (c & kCapRma)
    return nbi ? t_->getNbi(RemoteAddr{pe, region, off}, dst, n) : t_->get(RemoteAddr{pe, region, off}, dst, n);
  if (!(c & kCapLoadStore)) return Status::Unsupported;
  if (device) return deviceCopy(dst, reach_[pe].mapped[region] + off, n) ? Status::Ok : Status::Internal;
  std::memcpy(dst, reach_[pe].mapped[region] + off, n);
  return Status::Ok;
}

Status Link::amo(int pe, int region, std::size_t off, AmoOp op, unsigned size, uint64_t value, uint64_t cond,
                 uint64_t* old) {
  const unsigned c = caps(me, pe);
  if (c & kCapAmo) return t_->amo(RemoteAddr{pe, region, off}, op, size, value, cond, old);
  if (!(c & kCapLoadStore) || device) return Status::Unsupported;
  char* p = reach_[pe].mapped[region] + off;
  if (size == 4)
    *old = applyAmo(reinterpret_cast<uint32_t*>(p), op, uint32_t(value), uint32_t(cond));
  else
    *old = applyAmo(reinterpret_cast<uint64_t*>(p), op, value, cond);
  return Status::Ok;
}

Status Link::signal(int pe, std::size_t off, uint64_t value, SignalKind kind) {
  const unsigned c = caps(me, pe);
  const RemoteAddr at{pe, 1, off};
  if (c & (kCapRma | kCapAmo)) {
    if (kind == SignalKind::Add) return t_->signalAddNbi(at, value);
    return kind == SignalKind::Lazy ? t_->signalLazy(at, value) : t_->signalNbi(at, value);
  }
  if (!(c & kCapLoadStore) || device) return Status::Unsupported;
  auto* w = reinterpret_cast<uint64_t*>(reach_[pe].mapped[1] + off);
  if (kind == SignalKind::Add)
    __atomic_fetch_add(w, value, __ATOMIC_RELEASE);
  else
    __atomic_store_n(w, value, __ATOMIC_RELEASE);
  return Status::Ok;
}

Status Link::putSignal(int pe, std::size_t off, const void* src, std::size_t n, std::size_t sig_off,
                       uint64_t value, bool add) {
  const unsigned c = caps(me, pe);
  if (c & kCapRma) return t_->putSignal(RemoteAddr{pe, 0, off}, src, n, RemoteAddr{pe, 1, sig_off}, value, add);
  if (!(c & kCapLoadStore) || device) return Status::Unsupported;
  std::memcpy(reach_[pe].mapped[0] + off, src, n);
  return signal(pe, sig_off, value, add ? SignalKind::Add : SignalKind::Set);
}

Status Link::fence() {
  Status s = t_->fence();
  std::atomic_thread_fence(std::memory_order_seq_cst);  // orders this PE's stores through mappings
  return s;
}

Status Link::quiet() {
  Status s = t_->quiet();
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return s;
}

void Link::syncAll() {
  MPI_Request rq;
  MPI_Ibarrier(MPI_COMM_WORLD, &rq);
  int done = 0;
  for (long i = 0; !done; ++i) {
    if (t_) t_->progress();
    MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
    if (i % 64 == 63) sched_yield();  // 4 PEs share 2 cores in CI
  }
}

bool Link::timedOut(long polls) {
  if (polls == 0) wait_start_ms_ = nowMs();
  if (polls % 64 == 63) sched_yield();
  return polls % 1024 == 1023 && nowMs() - wait_start_ms_ > 20000;
}

bool allPes(bool ok_here) {
  int mine = ok_here ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

void TransportContract::SetUp() {
  Status s = link_.open(GetParam());
  if (s == Status::Unsupported) GTEST_SKIP() << GetParam() << " is not built here";
  ASSERT_EQ(s, Status::Ok) << GetParam() << ": connect failed: " << link_.error;
  opened_ = true;
}

void TransportContract::TearDown() {
  link_.close();
  const bool ok_here = !HasFailure();
  if (!allPes(ok_here) && ok_here) ADD_FAILURE() << "failed on another PE (see its [PE n] lines)";
}

namespace {

/// On PEs other than 0: failures only, each prefixed with the PE.
class FailurePrinter : public ::testing::EmptyTestEventListener {
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (!r.failed()) return;
    fprintf(stderr, "[PE %d] %s:%d: Failure\n%s\n", g_rank, r.file_name() ? r.file_name() : "?", r.line_number(),
            r.message());
  }
};

/// Aborts a PE whose test runs longer than GSHMEM_TEST_WATCHDOG_S seconds, naming the test, so that a hang is
/// reported before ctest's TIMEOUT kills the job silently. Its state is static: the thread outlives the listener.
std::atomic<long> g_started_ms{0};
char g_test_name[256];

class Watchdog : public ::testing::EmptyTestEventListener {
 public:
  explicit Watchdog(long limit_s) { std::thread([limit_s] { run(limit_s); }).detach(); }
  void OnTestStart(const ::testing::TestInfo& t) override {
    snprintf(g_test_name, sizeof g_test_name, "%s.%s", t.test_suite_name(), t.name());
    g_started_ms.store(nowMs());
  }
  void OnTestEnd(const ::testing::TestInfo&) override { g_started_ms.store(0); }

 private:
  static void run(long limit_s) {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      const long t0 = g_started_ms.load();
      if (t0 == 0 || nowMs() - t0 <= limit_s * 1000) continue;
      fprintf(stderr, "[PE %d] WATCHDOG: test %s still running after %ld s; aborting\n", g_rank, g_test_name,
              limit_s);
      std::abort();
    }
  }
};

}  // namespace
}  // namespace gshmem::contract

int main(int argc, char** argv) {
  using namespace gshmem::contract;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm world = MPI_COMM_WORLD;
  std::string err;
  if (gshmem::isError(gshmem::mpiBootstrapCreate(0, &world, &g_bs, &err))) {
    fprintf(stderr, "[PE %d] cannot make the MPI bootstrap: %s\n", g_rank, err.c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  ::testing::InitGoogleTest(&argc, argv);
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (g_rank != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter);
  }
  const char* w = getenv("GSHMEM_TEST_WATCHDOG_S");
  listeners.Append(new Watchdog(w && atol(w) > 0 ? atol(w) : 100));
  const int result = RUN_ALL_TESTS();
  const bool ok = allPes(result == 0);
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  if (ok && g_rank == 0 && unit.test_to_run_count() > 0 && unit.skipped_test_count() == unit.test_to_run_count())
    printf("gshmem-test: all %d tests skipped\n", unit.test_to_run_count());  // ctest's SKIP_REGULAR_EXPRESSION
  fflush(stdout);
  (void)g_bs->finalize();
  g_bs.reset();
  MPI_Finalize();
  return ok ? 0 : 1;
}
