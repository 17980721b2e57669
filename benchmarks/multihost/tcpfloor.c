/* The wire floor between two hosts: what plain TCP sockets, with no runtime at all, cost for the two message
 * patterns the two-host benchmarks are made of. Run by `benchmarks/run two-hosts` in the same run as gshmem and
 * Open MPI, so a target ratio can be checked against what the kernel's TCP path allows on this machine.
 *
 *   pingpong   rank 0 sends 8 bytes, rank 1 answers 8 bytes; one way = round trip / 2. The floor of a put or a
 *              signal (one way) and of a get or a fetching AMO (one round trip).
 *   exchange   both ranks send 8 bytes at once, then each receives the other's: the floor of a 2-PE barrier
 *              (one message each way, both in flight together). Over veth this costs more than one one-way hop:
 *              each send also runs the receive path of the peer's socket (softirq on the sender's core).
 *
 * One TCP connection (TCP_NODELAY), rank 1 listening on the address of $UCX_NET_DEVICES (else its first non-loopback
 * IPv4 address), the port sent over MPI. Receives poll with MSG_DONTWAIT (busy polling, no epoll: the cheapest
 * way to notice a message). Each pattern: warm-up, then 5 timed batches; the median batch is printed, like the
 * osu-like programs. Needs exactly 2 ranks, one per host:
 *   mpirun -np 2 gshmem_tcpfloor [ITERATIONS]
 * Output: "# ..." header lines, then "pingpong_oneway <us>" and "exchange <us>". */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <mpi.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCHES 5

static void die(const char* what) {
  fprintf(stderr, "tcpfloor: %s: %s\n", what, strerror(errno));
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static double nowUs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* The IPv4 address to listen on: the interface UCX is told to use, else the first non-loopback one. */
static struct in_addr localAddress(void) {
  const char* want = getenv("UCX_NET_DEVICES");
  struct ifaddrs *all, *i;
  struct in_addr found = {htonl(INADDR_LOOPBACK)};
  int have = 0;
  if (getifaddrs(&all) != 0) die("getifaddrs");
  for (i = all; i; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || (i->ifa_flags & IFF_LOOPBACK)) continue;
    int named = want && strcmp(want, "all") != 0 && strstr(want, i->ifa_name) != NULL;
    if (!have || named) {
      found = ((struct sockaddr_in*)i->ifa_addr)->sin_addr;
      have = 1;
      if (named) break;
    }
  }
  freeifaddrs(all);
  return found;
}

static void nodelay(int s) {
  int one = 1;
  if (setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) die("TCP_NODELAY");
}

static void sendWord(int s) {
  char b[8] = {0};
  if (send(s, b, sizeof b, 0) != (ssize_t)sizeof b) die("send");
}

static void recvWord(int s) {
  char b[8];
  size_t got = 0;
  while (got < sizeof b) {
    ssize_t r = recv(s, b + got, sizeof b - got, MSG_DONTWAIT);
    if (r > 0) got += (size_t)r;
    else if (r == 0) die("peer closed");
    else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) die("recv");
  }
}

static int cmpDouble(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

/* Runs `iters` iterations of one pattern in BATCHES batches on both ranks; returns the median batch, us/iteration. */
static double timed(int s, int me, int pingpong, long iters) {
  double batch[BATCHES];
  long per = iters / BATCHES;
  for (int b = -1; b < BATCHES; ++b) { /* b == -1: warm-up */
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = nowUs();
    for (long i = 0; i < per; ++i) {
      if (pingpong && me == 1) {
        recvWord(s);
        sendWord(s);
      } else {
        sendWord(s);
        recvWord(s);
      }
    }
    if (b >= 0) batch[b] = (nowUs() - t0) / per;
  }
  qsort(batch, BATCHES, sizeof batch[0], cmpDouble);
  return batch[BATCHES / 2];
}

int main(int argc, char** argv) {
  long iters = argc > 1 ? atol(argv[1]) : 20000;
  int me, n;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (n != 2) {
    if (me == 0) fprintf(stderr, "tcpfloor: needs exactly 2 ranks (one per host), got %d\n", n);
    MPI_Finalize();
    return 2;
  }
  if (iters < BATCHES) iters = BATCHES;
  struct sockaddr_in addr;
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  int s = -1;
  if (me == 1) {
    int l = socket(AF_INET, SOCK_STREAM, 0);
    if (l < 0) die("socket");
    addr.sin_addr = localAddress();
    if (bind(l, (struct sockaddr*)&addr, sizeof addr) != 0 || listen(l, 1) != 0) die("bind/listen");
    socklen_t len = sizeof addr;
    if (getsockname(l, (struct sockaddr*)&addr, &len) != 0) die("getsockname");
    MPI_Send(&addr, sizeof addr, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    s = accept(l, NULL, NULL);
    if (s < 0) die("accept");
    close(l);
  } else {
    MPI_Recv(&addr, sizeof addr, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0 || connect(s, (struct sockaddr*)&addr, sizeof addr) != 0) die("connect");
  }
  nodelay(s);
  double pp = timed(s, me, 1, iters) / 2;
  double ex = timed(s, me, 0, iters);
  if (me == 0) {
    char ip[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &addr.sin_addr, ip, sizeof ip);
    printf("# tcpfloor: plain TCP between 2 ranks (rank 1 at %s), 8-byte messages, %ld iterations, median of %d "
           "batches\n", ip, iters, BATCHES);
    printf("pingpong_oneway %.2f\nexchange %.2f\n", pp, ex);
  }
  close(s);
  MPI_Finalize();
  return 0;
}
