#include <mpi.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "base/bootstrap.hpp"
#include "base/config.hpp"
#include "base/log.hpp"
#include "base/str_format.hpp"

namespace gshmem {

namespace {

constexpr unsigned kAbortGraceS = 2;     ///< the longest this process waits inside MPI_Abort
constexpr unsigned kLauncherGraceS = 5;  ///< the longest the launcher may take to end the job after an abort

/// Whether process `pid` is an MPI launcher or its node daemon (Open MPI, PRRTE, MPICH's Hydra).
bool isLauncher(pid_t pid) {
  char path[64], comm[32] = {};
  snprintf(path, sizeof path, "/proc/%d/comm", static_cast<int>(pid));
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const ssize_t n = read(fd, comm, sizeof comm - 1);
  close(fd);
  if (n <= 0) return false;
  for (const char* l : {"mpirun\n", "mpiexec\n", "orterun\n", "orted\n", "prterun\n", "prted\n",
                        "hydra_pmi_proxy\n", "mpiexec.hydra\n"})
    if (strcmp(comm, l) == 0) return true;
  return false;
}

/// Forks a small process, detached from this one's output, that ends this PE's launcher (its parent, when that is
/// an MPI launcher or node daemon) with SIGTERM, then SIGKILL, if it still runs kLauncherGraceS seconds from now:
/// a launcher whose control channel to another node crosses a cut link waits for that node for many minutes after
/// an abort. It leaves as soon as the launcher has ended. Only async-signal-safe calls after the fork.
void launcherReaper() {
  const pid_t launcher = getppid();
  if (launcher <= 1 || !isLauncher(launcher)) return;
  // The raw system call: fork() runs the libraries' atfork handlers, which may wait for locks of threads that
  // the child does not have.
  const pid_t child = static_cast<pid_t>(syscall(SYS_fork));
  if (child != 0) return;
  setsid();  // out of the PE's process group, which the launcher's abort kills
  const int null = open("/dev/null", O_RDWR);
  for (int fd = 0; fd < 3 && null >= 0; ++fd) dup2(null, fd);
  for (unsigned t = 0; t < kLauncherGraceS * 10; ++t) {
    if (kill(launcher, 0) != 0) _exit(0);
    usleep(100000);
  }
  if (isLauncher(launcher)) kill(launcher, SIGTERM);
  for (unsigned t = 0; t < 20; ++t) {
    if (kill(launcher, 0) != 0) _exit(0);
    usleep(100000);
  }
  if (isLauncher(launcher)) kill(launcher, SIGKILL);
  _exit(0);
}

class MpiBootstrap final : public Bootstrap {
 public:
  // No MPI call here: a static destructor of a process leaving without shmem_finalize must not block.
  ~MpiBootstrap() override = default;

  Status finalize() override {
    if (mpiFinalized()) return Status::Ok;
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    if (owns_mpi_) MPI_Finalize();
    return Status::Ok;
  }

  void leave(int timeout_s) override {
    leaving_.store(true, std::memory_order_release);
    if (!owns_mpi_ || mpiFinalized()) return;
    static std::atomic<bool> done{false};
    if (timeout_s > 0) {
      int rank = rank_;
      std::thread([timeout_s, rank] {
        for (int t = 0; t < timeout_s * 10 && !done.load(); ++t) usleep(100000);
        if (done.load()) return;
        fprintf(stderr,
                "gshmem: PE %d: exit: this PE ended without shmem_finalize and the other PEs did not end within "
                "GSHMEM_TIMEOUT (%d s): ending the job; call shmem_finalize on every PE before exit\n",
                rank, timeout_s);
        fflush(stderr);
        _exit(1);
      }).detach();
    }
    MPI_Finalize();  // no MPI_Comm_free first: it may wait for the others
    done.store(true);
  }

  /// @p comm: the program's communicator, or nullptr for the world (initializing MPI when the program has not).
  Status init(int thread_level, const MPI_Comm* comm, std::string* err) {
    int inited = 0;
    MPI_Initialized(&inited);
    if (comm != nullptr && (!inited || mpiFinalized())) {
      *err = "a communicator was passed but MPI is not initialized; call MPI_Init before initializing gshmem over "
             "a communicator";
      return Status::InvalidArgument;
    }
    if (comm != nullptr && *comm == MPI_COMM_NULL) {
      *err = "the communicator is MPI_COMM_NULL; only the processes of a communicator initialize gshmem over it";
      return Status::InvalidArgument;
    }
    if (!inited) {
      static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                                   MPI_THREAD_MULTIPLE};
      int provided = 0;
      if (thread_level < 0 || thread_level > 3) thread_level = 0;
      if (MPI_Init_thread(nullptr, nullptr, levels[thread_level], &provided) != MPI_SUCCESS) {
        *err = "MPI_Init_thread failed; start the program with mpirun, or initialize through a unique id";
        return Status::SystemError;
      }
      owns_mpi_ = true;
    }
    world_ = comm == nullptr;
    // A private communicator keeps our traffic apart from the program's.
    if (MPI_Comm_dup(comm ? *comm : MPI_COMM_WORLD, &comm_) != MPI_SUCCESS) {
      *err = "MPI_Comm_dup of the communicator failed; pass a valid intracommunicator";
      return Status::InvalidArgument;
    }
    int inter = 0;
    MPI_Comm_test_inter(comm_, &inter);
    if (inter) {
      MPI_Comm_free(&comm_);
      *err = "the communicator is an intercommunicator; pass an intracommunicator (MPI_Intercomm_merge makes one)";
      return Status::InvalidArgument;
    }
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    // Node id: dense index, in rank order of first appearance, of the host name with the machine's boot id (as the
    // socket bootstrap numbers nodes; the boot id keeps machines that share a name apart). One exchange, where
    // MPI_Comm_split_type would cost a split and a broadcast more.
    struct Name {
      char text[96];
    };
    Name mine{};
    gethostname(mine.text, 64);
    mine.text[63] = '\0';
    snprintf(mine.text + std::strlen(mine.text), sizeof mine.text - std::strlen(mine.text), "/%016llx",
             static_cast<unsigned long long>(machineBootHash()));
    std::vector<Name> names(size_);
    if (MPI_Allgather(&mine, sizeof mine, MPI_BYTE, names.data(), sizeof mine, MPI_BYTE, comm_) != MPI_SUCCESS) {
      *err = "MPI_Allgather of the host names failed";
      return Status::RemoteError;
    }
    std::vector<std::string> keys(size_);
    for (int r = 0; r < size_; ++r) keys[r] = names[r].text;
    node_of_ = denseIds(keys);
    return Status::Ok;
  }

  std::string describe() const override {
    return world_ ? "MPI over MPI_COMM_WORLD" : "MPI over the program's communicator";
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const std::vector<int>& nodeOf() const override { return node_of_; }

  Status allGather(const void* in, void* out, std::size_t bytes) override {
    int rc = MPI_Allgather(in, static_cast<int>(bytes), MPI_BYTE, out, static_cast<int>(bytes), MPI_BYTE, comm_);
    return rc == MPI_SUCCESS ? Status::Ok : Status::RemoteError;
  }

  Status barrier() override { return MPI_Barrier(comm_) == MPI_SUCCESS ? Status::Ok : Status::RemoteError; }

  /// MPI_Abort over our communicator: Open MPI and MPICH then end every process of the launch, those outside it too.
  /// Bounded: where the launcher cannot be reached (a cut link between nodes) MPI_Abort may block, so this process
  /// leaves after kAbortGraceS whatever happens; and a launcher that still runs kLauncherGraceS later (waiting for a
  /// node it cannot reach) is told to end (launcherReaper).
  [[noreturn]] void abortJob(int code, const char*) override {
    launcherReaper();
    std::thread([code] {
      sleep(kAbortGraceS);
      _exit(code);
    }).detach();
    MPI_Abort(comm_ != MPI_COMM_NULL ? comm_ : MPI_COMM_WORLD, code);
    _Exit(code);
  }

 private:
  static bool mpiFinalized() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    return finalized != 0;
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  bool owns_mpi_ = false;
  bool world_ = true;  ///< comm_ is a dup of MPI_COMM_WORLD
  std::vector<int> node_of_;
};

}  // namespace

Status mpiBootstrapCreate(int thread_level, const void* comm, std::unique_ptr<Bootstrap>* out, std::string* err) {
  auto bs = std::make_unique<MpiBootstrap>();
  GSHMEM_CHECK(bs->init(thread_level, static_cast<const MPI_Comm*>(comm), err));
  *out = std::move(bs);
  return Status::Ok;
}

}  // namespace gshmem
