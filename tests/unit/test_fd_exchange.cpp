// Tier (a): passing memfds over an abstract Unix socket (src/transports/shm/fd_exchange.hpp), between two threads
// or two processes of this test.
#include <gtest/gtest.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "transports/shm/fd_exchange.hpp"

namespace gshmem {
namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int openFds() {
  int n = 0;
  DIR* d = opendir("/proc/self/fd");
  if (!d) return -1;
  while (readdir(d)) ++n;
  closedir(d);
  return n;
}

/// A memfd of `size` bytes holding `fill` in its first byte.
UniqueFd makeMemfd(std::size_t size, char fill) {
  UniqueFd f(memfd_create("gshmem-test", MFD_CLOEXEC));
  EXPECT_TRUE(f);
  EXPECT_EQ(fchmod(f.get(), 0600), 0);
  EXPECT_EQ(ftruncate(f.get(), static_cast<off_t>(size)), 0);
  EXPECT_EQ(pwrite(f.get(), &fill, 1, 0), 1);
  return f;
}

char firstByte(int fd) {
  char c = 0;
  EXPECT_EQ(pread(fd, &c, 1, 0), 1);
  return c;
}

struct Job {
  FdNonce nonce;
  std::string name;
  Job() {
    std::string err;
    EXPECT_EQ(fdNonceMake(&nonce, &err), Status::Ok) << err;
    name = fdExchangeName(nonce, 0);
  }
  FdHello hello(int pe) const {
    FdHello h;
    h.nonce = nonce;
    h.pe = pe;
    return h;
  }
};

TEST(FdExchange, NamesAreUniquePerNonceAndPe) {
  Job a, b;
  EXPECT_NE(a.name, b.name);
  EXPECT_NE(fdExchangeName(a.nonce, 0), fdExchangeName(a.nonce, 1));
  EXPECT_EQ(a.name.rfind("gshmem-", 0), 0u);
  EXPECT_LT(a.name.size(), 100u);
}

TEST(FdExchange, ThreadsPassDescriptorsAndCloseEverything) {
  const int before = openFds();
  {
    Job job;
    UniqueFd heap = makeMemfd(1 << 16, 'h'), data = makeMemfd(4096, 'd');
    FdServer server;
    std::string err;
    ASSERT_EQ(server.listen(job.name, 2, &err), Status::Ok) << err;
    FdClient c1, c2;  // connections queue in the kernel before the server accepts
    ASSERT_EQ(c1.connect(job.name, job.hello(1), Deadline(5), &err), Status::Ok) << err;
    ASSERT_EQ(c2.connect(job.name, job.hello(2), Deadline(5), &err), Status::Ok) << err;
    std::vector<int> pending = {1, 2};
    ASSERT_EQ(server.serve(job.nonce, &pending, {heap.get(), data.get()}, Deadline(5), &err), Status::Ok) << err;
    EXPECT_TRUE(pending.empty());
    EXPECT_FALSE(server.listening());  // closed once every client is served
    for (FdClient* c : {&c1, &c2}) {
      std::vector<UniqueFd> got;
      ASSERT_EQ(c->receive(2, Deadline(5), &got, &err), Status::Ok) << err;
      ASSERT_EQ(got.size(), 2u);
      EXPECT_EQ(firstByte(got[0].get()), 'h');
      EXPECT_EQ(firstByte(got[1].get()), 'd');
      struct stat st;
      ASSERT_EQ(fstat(got[0].get(), &st), 0);
      EXPECT_EQ(st.st_size, 1 << 16);
      EXPECT_EQ(st.st_mode & 07777, 0600u);
      EXPECT_FALSE(c->connected());
    }
    FdClient late;  // nobody listens under the name any more
    EXPECT_EQ(late.connect(job.name, job.hello(3), Deadline(5), &err), Status::RemoteError);
    EXPECT_NE(err.find("Connection refused"), std::string::npos) << err;
  }
  EXPECT_EQ(openFds(), before);  // every socket and descriptor closed
}

TEST(FdExchange, ProcessesShareTheMemoryOfAPassedMemfd) {
  Job job;
  UniqueFd heap = makeMemfd(4096, 'x');
  FdServer server;
  std::string err;
  ASSERT_EQ(server.listen(job.name, 1, &err), Status::Ok) << err;
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // PE 1: receive the memfd, map it, write through the mapping
    server.close();
    heap.reset();
    FdClient c;
    std::vector<UniqueFd> got;
    std::string e;
    if (isError(c.connect(job.name, job.hello(1), Deadline(10), &e)) || isError(c.receive(1, Deadline(10), &got, &e)))
      _exit(2);
    char* m = static_cast<char*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, got[0].get(), 0));
    if (m == MAP_FAILED || m[0] != 'x') _exit(3);
    m[100] = 'y';
    _exit(0);
  }
  std::vector<int> pending = {1};
  EXPECT_EQ(server.serve(job.nonce, &pending, {heap.get()}, Deadline(10), &err), Status::Ok) << err;
  int st = 0;
  ASSERT_EQ(waitpid(child, &st, 0), child);
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 0);
  char c = 0;
  EXPECT_EQ(pread(heap.get(), &c, 1, 100), 1);
  EXPECT_EQ(c, 'y');  // the child's store landed in this process's memfd
}

TEST(FdExchange, ClientOfAnotherJobOrPeIsDropped) {
  Job job, other;
  UniqueFd heap = makeMemfd(4096, 'h');
  FdServer server;
  std::string err;
  ASSERT_EQ(server.listen(job.name, 4, &err), Status::Ok) << err;
  FdClient wrong_nonce, wrong_pe;
  FdHello h = other.hello(1);  // another job's nonce
  ASSERT_EQ(wrong_nonce.connect(job.name, h, Deadline(5), &err), Status::Ok) << err;
  ASSERT_EQ(wrong_pe.connect(job.name, job.hello(7), Deadline(5), &err), Status::Ok) << err;
  std::vector<int> pending = {1};
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(server.serve(job.nonce, &pending, {heap.get()}, Deadline(0.5), &err), Status::Timeout);
  EXPECT_LT(secondsSince(t0), 5.0);
  EXPECT_EQ(pending, std::vector<int>{1});  // neither counted as PE 1
  EXPECT_NE(err.find("no connection within 0.5 s"), std::string::npos) << err;
  for (FdClient* c : {&wrong_nonce, &wrong_pe}) {
    std::vector<UniqueFd> got;
    EXPECT_EQ(c->receive(1, Deadline(5), &got, &err), Status::RemoteError);
    EXPECT_NE(err.find("closed"), std::string::npos) << err;
    EXPECT_TRUE(got.empty());
  }
}

TEST(FdExchange, WaitsAreBounded) {
  Job job;
  FdServer server;
  std::string err;
  ASSERT_EQ(server.listen(job.name, 1, &err), Status::Ok) << err;
  FdClient c;
  ASSERT_EQ(c.connect(job.name, job.hello(1), Deadline(5), &err), Status::Ok) << err;
  auto t0 = std::chrono::steady_clock::now();
  std::vector<UniqueFd> got;
  EXPECT_EQ(c.receive(1, Deadline(0.3), &got, &err), Status::Timeout);  // the server never serves
  EXPECT_GE(secondsSince(t0), 0.25);
  EXPECT_LT(secondsSince(t0), 5.0);
  EXPECT_NE(err.find("no answer within 0.3 s"), std::string::npos) << err;
  FdServer lonely;
  Job job2;
  ASSERT_EQ(lonely.listen(job2.name, 1, &err), Status::Ok) << err;
  std::vector<int> pending = {1, 2};
  t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(lonely.serve(job2.nonce, &pending, {}, Deadline(0.3), &err), Status::Timeout);  // nobody connects
  EXPECT_LT(secondsSince(t0), 5.0);
  EXPECT_EQ(pending.size(), 2u);
  EXPECT_FALSE(lonely.listening());  // closed on failure too
}

// The deadline every bounded wait of the bootstrap and the descriptor exchange uses (base/deadline.hpp).
TEST(Deadline, NeverAfterAndLater) {
  EXPECT_TRUE(Deadline::never().isNever());
  EXPECT_EQ(Deadline::never().pollMs(), -1);
  EXPECT_EQ(Deadline(-1).pollMs(), -1);  // GSHMEM_TIMEOUT=0 or below: no bound
  EXPECT_TRUE(Deadline::afterMs(0).expired());  // a bound even at 0, unlike the seconds form
  EXPECT_FALSE(Deadline::afterMs(0).isNever());
  const Deadline d(2);
  EXPECT_GT(d.pollMs(), 1000);
  EXPECT_LE(d.pollMs(), 2000);
  EXPECT_EQ(d.describe(), "2 s");
  EXPECT_GT(d.later(3000).pollMs(), 4000);
  EXPECT_TRUE(Deadline::never().later(1000).isNever());
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  UniqueFd a(sv[0]), b(sv[1]);
  char c = 0;
  std::string err;
  EXPECT_EQ(recvAll(a.get(), &c, 1, Deadline(0.1), &err), Status::Timeout);
  EXPECT_EQ(err, "nothing received within 0.1 s");
  ASSERT_EQ(sendAll(b.get(), "x", 1, Deadline(1)), Status::Ok);
  EXPECT_EQ(recvAll(a.get(), &c, 1, Deadline(1)), Status::Ok);
  EXPECT_EQ(c, 'x');
  b.reset();
  EXPECT_EQ(recvAll(a.get(), &c, 1, Deadline(1), &err), Status::RemoteError);
  EXPECT_EQ(err, "the connection was closed");
  EXPECT_EQ(sendAll(a.get(), "x", 1, Deadline(1)), Status::RemoteError);  // no SIGPIPE
}

TEST(FdExchange, AServerThatDiesIsSeenAtOnce) {
  Job job;
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // listen, accept the connection, then die without answering
    FdServer s;
    std::string e;
    if (isError(s.listen(job.name, 1, &e))) _exit(2);
    char one = 1;
    if (write(ready[1], &one, 1) != 1) _exit(3);
    sleep(1);
    _exit(0);
  }
  close(ready[1]);
  char one = 0;
  ASSERT_EQ(read(ready[0], &one, 1), 1);
  close(ready[0]);
  FdClient c;
  std::string err;
  ASSERT_EQ(c.connect(job.name, job.hello(1), Deadline(5), &err), Status::Ok) << err;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<UniqueFd> got;
  EXPECT_EQ(c.receive(1, Deadline(30), &got, &err), Status::RemoteError);  // not the 30 s deadline
  EXPECT_LT(secondsSince(t0), 10.0);
  int st = 0;
  waitpid(child, &st, 0);
}

TEST(FdExchange, AnotherUserIsNeitherServedNorTrusted) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to run a client as another uid";
  Job job;
  UniqueFd heap = makeMemfd(4096, 'h');
  FdServer server;
  std::string err;
  ASSERT_EQ(server.listen(job.name, 1, &err), Status::Ok) << err;
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // uid 65534 connects: it must refuse the root-owned listener itself
    if (setuid(65534) != 0) _exit(2);
    FdClient c;
    std::string e;
    Status s = c.connect(job.name, job.hello(1), Deadline(5), &e);
    _exit(s == Status::InvalidArgument && e.find("uid 0") != std::string::npos ? 0 : 1);
  }
  int st = 0;
  ASSERT_EQ(waitpid(child, &st, 0), child);
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 0);
  std::vector<int> pending = {1};  // and the server did not count it (its connection, if queued, is dropped)
  EXPECT_EQ(server.serve(job.nonce, &pending, {heap.get()}, Deadline(0.3), &err), Status::Timeout);
  EXPECT_EQ(pending, std::vector<int>{1});
}

}  // namespace
}  // namespace gshmem
