/* One fault per run, for tests/fault/run_fault.sh.
 *   fault_wait <case> <victim> <seconds>
 * case: where the other PEs wait while PE <victim> misbehaves
 *   barrier     the victim stops itself (SIGSTOP) while the others are in shmem_barrier_all
 *   preinit     the victim stops itself just before it calls shmem_init while the others are inside it (its rank is
 *               read from the launcher's environment): nobody can name it, the bootstrap's bound ends the job
 *   ininit      no fault of its own: run with GSHMEM_TEST_STOP_IN_INIT=<victim>:<phase>, the library stops the
 *               victim inside shmem_init before that phase; the others must end the job naming it
 *   init        the victim stops as soon as shmem_init returns (its watchdog thread may not have run yet) while the
 *               others are in their first shmem_barrier_all
 *   wait_until  the victim stops while the others are in shmem_long_wait_until on a flag only it would set
 *   test        the victim stops while the others loop on shmem_long_test for a flag only it would set
 *   broadcast   the victim stops while the others are in shmem_long_broadcast (root 0); with victim 0 the root is
 *               silent and every other PE waits for its data (a root does not wait for the others: the team
 *               collectives imply no barrier, so a root that pushes its data may return first)
 *   kill        the victim kills itself (SIGKILL) while the others are in shmem_barrier_all
 *   exit        the victim calls exit(0) without shmem_finalize while the others are in shmem_barrier_all
 *   link        the victim announces the fault (the harness then takes its host's link down), waits 2 s and
 *               joins the barrier
 *   linkput     as link, while the others put 64 KiB blocks into the victim (quiet after each) for 4 s, then enter
 *               shmem_barrier_all
 *   linkwait    as link, while the others are in shmem_long_wait_until on a flag the victim sets after its 2 s
 *   linkbcast   as link, while the others are in shmem_long_broadcast from the victim (root), which it enters
 *               after its 2 s
 *   forge       as barrier, while a thread of every waiter sends it heartbeat datagrams that claim to come from the
 *               victim (right ports, rising counts, wrong MAC) every 10 ms: they must not keep the victim alive
 *   slow        the victim sleeps <seconds> (twice the timeout) before the barrier: nobody may be ended
 *   putloop     the victim stops while the others put 64 KiB blocks into it (quiet after each) for 1 s, then
 *               enter shmem_barrier_all
 *   finalize    the victim stops just before shmem_finalize while the others are in shmem_finalize
 *   fatal       the victim makes an erroneous call (a put to PE n_pes) while the others are in shmem_barrier_all:
 *               its one-line error must reach the launcher before the job ends
 * The faulty cases must end with a message naming the victim; "returned" lines mean the wait did not hold. */
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <pthread.h>
#include <shmem.h>
#include <signal.h>
#include <stdint.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long flag;
static char blk[1 << 16]; /* the put loop's target (symmetric: a global) */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
static long src[4], dst[4];

/* A broadcast of 4 longs over every PE. */
static void bcast(int root) {
#ifdef FAULT_WAIT_OPENSHMEM_14 /* an OpenSHMEM 1.4 library (tests/fault/compare_openmpi.sh): the active-set form */
  static long psync[SHMEM_BCAST_SYNC_SIZE];
  for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  shmem_broadcast64(dst, src, 4, root, 0, 0, shmem_n_pes(), psync);
#else
  shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 4, root);
#endif
}

/* The forger (case forge): the UDP ports of this process, found through /proc (its socket inodes in /proc/self/fd,
 * their local addresses in /proc/net/udp), get datagrams shaped as heartbeats from the victim with a wrong MAC. */
struct forge_args {
  uint32_t from, to;
};
static int udp_ports(uint32_t* ip, uint16_t* port, int max) {
  unsigned long inodes[64];
  int ni = 0, n = 0;
  DIR* d = opendir("/proc/self/fd");
  struct dirent* e;
  while (d && (e = readdir(d)) && ni < 64) {
    char path[300], link[64];
    snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
    ssize_t k = readlink(path, link, sizeof link - 1);
    if (k <= 0) continue;
    link[k] = '\0';
    if (sscanf(link, "socket:[%lu]", &inodes[ni]) == 1) ++ni;
  }
  if (d) closedir(d);
  FILE* f = fopen("/proc/net/udp", "r");
  char line[512];
  while (f && fgets(line, sizeof line, f) && n < max) {
    unsigned a, p;
    unsigned long inode;
    if (sscanf(line, " %*d: %x:%x %*x:%*x %*x %*x:%*x %*x:%*x %*x %*d %*d %lu", &a, &p, &inode) != 3) continue;
    for (int i = 0; i < ni; ++i)
      if (inodes[i] == inode) {
        ip[n] = a; /* /proc prints the address as the raw 32-bit word: network order in memory */
        port[n++] = htons((uint16_t)p);
      }
  }
  if (f) fclose(f);
  return n;
}
static void* forge(void* arg) {
  const struct forge_args* a = arg;
  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  uint64_t count = 1000;
  for (;;) {
    uint32_t ip[8];
    uint16_t port[8];
    int n = udp_ports(ip, port, 8);
    for (int i = 0; i < n; ++i) {
      struct {
        uint32_t from, to;
        uint64_t count, mac;
      } beat = {a->from, a->to, count, count * 0x9e3779b97f4a7c15ull};
      struct sockaddr_in sa;
      memset(&sa, 0, sizeof sa);
      sa.sin_family = AF_INET;
      sa.sin_port = port[i];
      sa.sin_addr.s_addr = ip[i];
      sendto(fd, &beat, sizeof beat, 0, (struct sockaddr*)&sa, sizeof sa);
    }
    ++count;
    usleep(10000);
  }
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: fault_wait barrier|preinit|ininit|init|putloop|finalize|wait_until|test|broadcast|kill|exit|fatal|forge|link|linkput|linkwait|linkbcast|slow "
                    "<victim> <seconds>\n");
    return 2;
  }
  const char* mode = argv[1];
  int victim = atoi(argv[2]);
  int seconds = atoi(argv[3]);
  if (strcmp(mode, "preinit") == 0) {
    const char* r = getenv("OMPI_COMM_WORLD_RANK");
    if (!r) r = getenv("PMI_RANK");
    if (r && atoi(r) == victim) {
      sleep(1); /* the others are inside shmem_init by now */
      printf("fault_wait: PE %d: preinit now\n", victim);
      fflush(stdout);
      raise(SIGSTOP);
    }
  }
  shmem_init();
  int me = shmem_my_pe();
  if (strcmp(mode, "preinit") == 0 || strcmp(mode, "ininit") == 0) {
    shmem_barrier_all();
    printf("fault_wait: PE %d: %s returned\n", me, mode);
    shmem_finalize();
    return 0;
  }
  if (strcmp(mode, "init") == 0) {
    if (me == victim) {
      printf("fault_wait: PE %d: init now\n", me);
      fflush(stdout);
      raise(SIGSTOP);
    }
    shmem_barrier_all();
    if (me != victim) printf("fault_wait: PE %d: init returned\n", me);
    shmem_finalize();
    return 0;
  }
  shmem_barrier_all();
  if (strcmp(mode, "forge") == 0 && me != victim) {
    static struct forge_args fa;
    pthread_t t;
    fa.from = (uint32_t)victim;
    fa.to = (uint32_t)me;
    pthread_create(&t, NULL, forge, &fa);
  }
  if (me == victim) {
    printf("fault_wait: PE %d: %s now\n", me, mode);
    fflush(stdout);
    if (strcmp(mode, "kill") == 0) raise(SIGKILL);
    if (strcmp(mode, "fatal") == 0) shmem_long_p(&flag, 1, shmem_n_pes());
    if (strcmp(mode, "exit") == 0) exit(0);
    if (strcmp(mode, "slow") == 0) sleep((unsigned)seconds);
    else if (strncmp(mode, "link", 4) == 0) sleep(2);
    else raise(SIGSTOP);
  }
  if (strcmp(mode, "finalize") == 0) {
    shmem_finalize(); /* the stopped victim never reaches it */
    if (me != victim) printf("fault_wait: PE %d: finalize returned\n", me);
    return 0;
  }
  if (strcmp(mode, "linkwait") == 0 && me == victim)
    for (int pe = 0; pe < shmem_n_pes(); ++pe) shmem_long_p(&flag, 1, pe);
  if ((strcmp(mode, "putloop") == 0 || strcmp(mode, "linkput") == 0) && me != victim) {
    static char block[1 << 16];
    const double t0 = now(), span = strcmp(mode, "linkput") == 0 ? 4.0 : 1.0;
    while (now() - t0 < span) {
      shmem_putmem(blk, block, sizeof block, victim);
      shmem_quiet();
    }
  }
  if (strcmp(mode, "wait_until") == 0 || strcmp(mode, "linkwait") == 0) {
    if (me != victim) shmem_long_wait_until(&flag, SHMEM_CMP_NE, 0);
  } else if (strcmp(mode, "linkbcast") == 0) {
    bcast(victim);
  } else if (strcmp(mode, "test") == 0) {
    if (me != victim)
      while (!shmem_long_test(&flag, SHMEM_CMP_NE, 0)) {
      }
  } else if (strcmp(mode, "broadcast") == 0) {
    bcast(0);
  } else {
    shmem_barrier_all();
  }
  /* A stopped victim may be resumed by the launcher's abort: only a waiter's return counts. */
  if (me != victim || strcmp(mode, "slow") == 0 || strncmp(mode, "link", 4) == 0) {
    printf("fault_wait: PE %d: %s returned\n", me, mode);
    fflush(stdout);
  }
  shmem_finalize();
  return 0;
}
