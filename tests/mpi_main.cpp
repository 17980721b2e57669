// main() for multi-PE GoogleTest binaries.
//
// - Initializes with shmem_init(), or shmem_init_thread(SHMEM_THREAD_MULTIPLE) when the binary is built with
//   GSHMEM_TEST_THREAD_MULTIPLE (the thread tests need it; the others keep exercising plain shmem_init).
// - Each test's verdict is reduced with MPI_MIN over MPI_COMM_WORLD (MPI is independent of the code under test);
//   when MPI is not initialized by the runtime the reduction falls back to shmem_int_p + barrier.
// - PE 0 prints the usual gtest output; other PEs print only their own failures, prefixed with "[PE n]".
// - A watchdog thread aborts the PE when one test runs longer than GSHMEM_TEST_WATCHDOG_S seconds (default 100),
//   naming the test, so a hang is reported before the ctest TIMEOUT kills the job silently.
// - When every selected test skipped (a GPU suite on a machine without a GPU, say) and none failed, PE 0 prints
//   "gshmem-test: all N tests skipped", which ctest's SKIP_REGULAR_EXPRESSION turns into a skipped test.
// Only the C API of MPI is used; skip the deprecated C++ bindings (they need libmpi_cxx).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <shmem.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "pe_test.hpp"

namespace gshmem_test {
namespace {

int g_me = 0;
int g_npes = 1;
bool g_use_mpi = false;
int g_verdicts[1024];  // symmetric (global) fallback buffer, one slot per PE

std::atomic<long> g_test_started_ms{0};  // 0: no test running
std::string g_test_name;
std::atomic<bool> g_watchdog_stop{false};

long nowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void watchdog(long limit_s) {
  while (!g_watchdog_stop.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    long t0 = g_test_started_ms.load();
    if (t0 != 0 && nowMs() - t0 > limit_s * 1000) {
      fprintf(stderr, "[PE %d] WATCHDOG: test %s still running after %ld s; aborting\n", g_me, g_test_name.c_str(),
              limit_s);
      fflush(stderr);
      std::abort();
    }
  }
}

// Prints only failures, with the PE prefixed; used on PEs other than 0.
class FailurePrinter : public ::testing::EmptyTestEventListener {
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (!r.failed()) return;
    fprintf(stderr, "[PE %d] %s:%d: Failure\n%s\n", g_me, r.file_name() ? r.file_name() : "?", r.line_number(),
            r.message());
    fflush(stderr);
  }
};

// Starts and stops the watchdog clock around each test.
class Clock : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo& t) override {
    g_test_name = std::string(t.test_suite_name()) + "." + t.name();
    g_test_started_ms.store(nowMs());
  }
  void OnTestEnd(const ::testing::TestInfo&) override { g_test_started_ms.store(0); }
};

}  // namespace

bool allPesAgree(bool ok_here) {
  int mine = ok_here ? 1 : 0;
  if (g_use_mpi) {
    int all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all == 1;
  }
  shmem_barrier_all();
  for (int pe = 0; pe < g_npes; ++pe) shmem_int_p(&g_verdicts[g_me], mine, pe);
  shmem_barrier_all();
  int all = 1;
  for (int pe = 0; pe < g_npes; ++pe) all = all && g_verdicts[pe];
  shmem_barrier_all();
  return all == 1;
}

void PeTest::TearDown() {
  bool ok_here = !HasFailure();
  bool ok_all = allPesAgree(ok_here);
  if (ok_here && !ok_all) ADD_FAILURE() << "failed on another PE (see its [PE n] lines)";
  shmem_barrier_all();
}

}  // namespace gshmem_test

int main(int argc, char** argv) {
  using namespace gshmem_test;
#ifdef GSHMEM_TEST_THREAD_MULTIPLE
  int provided = -1;
  int rc = shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  if (rc != 0 || provided != SHMEM_THREAD_MULTIPLE) {
    fprintf(stderr, "shmem_init_thread(SHMEM_THREAD_MULTIPLE) returned %d, provided %d\n", rc, provided);
    return 1;
  }
#else
  shmem_init();
#endif
  g_me = shmem_my_pe();
  g_npes = shmem_n_pes();
  int mpi_inited = 0;
  MPI_Initialized(&mpi_inited);
  g_use_mpi = mpi_inited != 0;
  if (!g_use_mpi && g_npes > 1024) {
    fprintf(stderr, "too many PEs for the shmem verdict fallback\n");
    return 1;
  }

  ::testing::InitGoogleTest(&argc, argv);
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (g_me != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter);
  }
  listeners.Append(new Clock);

  long limit_s = 100;
  if (const char* w = getenv("GSHMEM_TEST_WATCHDOG_S")) limit_s = atol(w) > 0 ? atol(w) : limit_s;
  std::thread dog(watchdog, limit_s);

  int result = RUN_ALL_TESTS();
  // All PEs agree on every verdict, so `result` is the same everywhere; reduce it anyway for setup failures.
  bool ok = allPesAgree(result == 0);
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  if (ok && g_me == 0 && unit.test_to_run_count() > 0 && unit.skipped_test_count() == unit.test_to_run_count()) {
    printf("gshmem-test: all %d tests skipped\n", unit.test_to_run_count());
    fflush(stdout);
  }
  g_watchdog_stop.store(true);
  dog.join();
  shmem_finalize();
  return ok ? 0 : 1;
}
