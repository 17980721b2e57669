/* Scale check: what a job of many PEs over several hosts costs each PE, and that a long wait is not a fault.
 *
 *   scale_check [--reps R] [--wait S] [--quiet]
 *
 * Written to the OpenSHMEM API only: the same source builds with any OpenSHMEM compiler wrapper (oshcc), so the
 * numbers can be set beside another implementation's in the same run. Against a library older than 1.5 (no teams)
 * it uses the active-set collectives with alternating pSync arrays, as OSU's benchmarks do, and skips the split.
 *
 * In order, each step checked for the right values:
 *   init       shmem_init's wall time (the largest over the PEs)
 *   barrier    shmem_barrier_all, R times
 *   reduce8    shmem_long_sum_reduce of one element over the world team, R times
 *   bcast8     shmem_long_broadcast of one element from a rotating root, R times
 *   alltoall8  shmem_long_alltoall of one element per PE, R times
 *   split      shmem_team_split_strided (even PEs) + a sync on it + destroy, R / 4 times (at least 2)
 *   wait       PE 0 sleeps S seconds while every other PE waits in shmem_barrier_all (S = 0: skipped): a PE that
 *              only waits must not be taken for a dead one, however long the wait
 * Per PE, read from /proc after init (before any collective has addressed a peer) and at the end: resident memory
 * (VmRSS) and open descriptors. Per host (PEs grouped by hostname; the lowest PE of each reads for its host): UDP
 * datagrams received and receive-buffer drops of the host's network namespace (/proc/net/snmp), between the two
 * readings.
 * PE 0 prints one `scale:` line of key=value pairs (times are the largest over the PEs, per operation) and, when
 * every check held, "scale_check: N PEs: SUCCESS". Exit status 1 on a wrong value. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long rssKb(void) {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "VmRSS:", 6) == 0) kb = strtol(line + 6, NULL, 10);
  fclose(f);
  return kb;
}

static long openFds(void) {
  DIR* d = opendir("/proc/self/fd");
  long n = 0;
  if (!d) return -1;
  for (struct dirent* e; (e = readdir(d)) != NULL;)
    if (e->d_name[0] != '.') ++n;
  closedir(d);
  return n - 1; /* the directory stream's own descriptor */
}

/* Udp InDatagrams and RcvbufErrors of this network namespace; -1 when unreadable. */
static void udpCounters(long* in, long* rcvbuf_errors) {
  FILE* f = fopen("/proc/net/snmp", "r");
  char head[1024], vals[1024];
  *in = *rcvbuf_errors = -1;
  if (!f) return;
  while (fgets(head, sizeof head, f) && fgets(vals, sizeof vals, f)) {
    if (strncmp(head, "Udp:", 4) != 0) continue;
    char *hs, *vs;
    char* h = strtok_r(head + 4, " \n", &hs);
    char* v = strtok_r(vals + 4, " \n", &vs);
    for (; h && v; h = strtok_r(NULL, " \n", &hs), v = strtok_r(NULL, " \n", &vs)) {
      if (strcmp(h, "InDatagrams") == 0) *in = strtol(v, NULL, 10);
      if (strcmp(h, "RcvbufErrors") == 0) *rcvbuf_errors = strtol(v, NULL, 10);
    }
    break;
  }
  fclose(f);
}

static uint64_t hostHash(void) {
  char name[256] = {0};
  gethostname(name, sizeof name - 1);
  uint64_t h = 1469598103934665603ull;
  for (const char* c = name; *c; ++c) h = (h ^ (unsigned char)*c) * 1099511628211ull;
  return h;
}

#if SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION < 5
#define SCALE_LEGACY 1
#else
#define SCALE_LEGACY 0
#endif

#if SCALE_LEGACY
static long g_psync[2][SHMEM_REDUCE_SYNC_SIZE > SHMEM_ALLTOALL_SYNC_SIZE ? SHMEM_REDUCE_SYNC_SIZE
                                                                       : SHMEM_ALLTOALL_SYNC_SIZE];
static long g_lwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static double g_dwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static int g_turn = 0;
static long* nextPsync(void) { return g_psync[g_turn ^= 1]; }
#endif

/* The world-team collectives of one element this program times, in the library's newest form. */
static void sumLong(long* dst, long* src) {
#if SCALE_LEGACY
  shmem_long_sum_to_all(dst, src, 1, 0, 0, shmem_n_pes(), g_lwrk, nextPsync());
#else
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 1);
#endif
}
static void maxDouble(double* dst, double* src) {
#if SCALE_LEGACY
  shmem_double_max_to_all(dst, src, 1, 0, 0, shmem_n_pes(), g_dwrk, nextPsync());
#else
  shmem_double_max_reduce(SHMEM_TEAM_WORLD, dst, src, 1);
#endif
}
static void bcastLong(long* dst, long* src, int root) {
#if SCALE_LEGACY
  shmem_broadcast64(dst, src, 1, root, 0, 0, shmem_n_pes(), nextPsync());
  if (shmem_my_pe() == root) *dst = *src; /* the active-set form leaves the root's target alone */
#else
  shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 1, root);
#endif
}
static void alltoallLong(long* dst, long* src) {
#if SCALE_LEGACY
  shmem_alltoall64(dst, src, 1, 0, 0, shmem_n_pes(), nextPsync());
#else
  shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, 1);
#endif
}
static void fcollectU64(uint64_t* dst, uint64_t* src) {
#if SCALE_LEGACY
  shmem_fcollect64(dst, src, 1, 0, 0, shmem_n_pes(), nextPsync());
#else
  shmem_uint64_fcollect(SHMEM_TEAM_WORLD, dst, src, 1);
#endif
}

static int g_fail = 0;
#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "scale_check: PE %d: ", shmem_my_pe()); \
      fprintf(stderr, __VA_ARGS__);                        \
      fprintf(stderr, "\n");                               \
      g_fail = 1;                                          \
    }                                                      \
  } while (0)

/* Largest value of `v` over the world team (collective). */
static double maxOver(double v) {
  static double src, dst;
  src = v;
  maxDouble(&dst, &src);
  return dst;
}

static long sumOver(long v) {
  static long src, dst;
  src = v;
  sumLong(&dst, &src);
  return dst;
}

/* Seconds per call of `what`, `reps` calls. Targets alternate between two buffers: a PE that has returned from
 * call r may already be in call r + 1 and writing into its peers' targets, never into the targets of call r - 1. */
static double timeCollectives(const char* what, int reps, int me, int n, long* a2a_src, long* a2a_dst[2]) {
  static long src, dst[2];
  enum { kWarmup = 2 }; /* untimed: connections made on first use are not the operation's cost */
  double t0 = now();
  for (int r = 0; r < kWarmup + reps; ++r) {
    if (r == kWarmup) t0 = now();
    long* d = &dst[r % 2];
    if (strcmp(what, "barrier") == 0) {
      shmem_barrier_all();
    } else if (strcmp(what, "reduce8") == 0) {
      src = me + r;
      sumLong(d, &src);
      CHECK(*d == (long)n * (n - 1) / 2 + (long)n * r, "reduce8: sum %ld, expected %ld", *d,
            (long)n * (n - 1) / 2 + (long)n * r);
    } else if (strcmp(what, "bcast8") == 0) {
      const int root = r % n;
      src = 1000 * r + root;
      bcastLong(d, &src, root);
      CHECK(*d == 1000 * r + root, "bcast8: got %ld from root %d, expected %ld", *d, root, 1000L * r + root);
    } else {
      long* a = a2a_dst[r % 2];
      for (int p = 0; p < n; ++p) a2a_src[p] = (long)me * n + p + r;
      alltoallLong(a, a2a_src);
      for (int p = 0; p < n; ++p)
        CHECK(a[p] == (long)p * n + me + r, "alltoall8: element %d is %ld, expected %ld", p, a[p],
              (long)p * n + me + r);
    }
  }
  return (now() - t0) / reps;
}

/* Seconds per split + sync + destroy; -1 where the library has no teams. */
static double timeSplits(int reps, int me, int n) {
#if SCALE_LEGACY
  (void)reps, (void)me, (void)n;
  return -1;
#else
  const double t0 = now();
  for (int r = 0; r < reps; ++r) {
    shmem_team_t t = SHMEM_TEAM_INVALID;
    const int size = (n + 1) / 2;
    const int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, size, NULL, 0, &t);
    CHECK(rc == 0, "split: shmem_team_split_strided returned %d", rc);
    if (me % 2 == 0) {
      CHECK(t != SHMEM_TEAM_INVALID && shmem_team_n_pes(t) == size && shmem_team_my_pe(t) == me / 2,
            "split: team of %d PEs with me at %d, expected %d and %d", shmem_team_n_pes(t), shmem_team_my_pe(t),
            size, me / 2);
      shmem_team_sync(t);
    } else {
      CHECK(t == SHMEM_TEAM_INVALID, "split: PE %d (odd) got a team", me);
    }
    if (t != SHMEM_TEAM_INVALID) shmem_team_destroy(t);
  }
  return (now() - t0) / reps;
#endif
}

int main(int argc, char** argv) {
  int reps = 50, wait_s = 0, quiet = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--wait") == 0 && i + 1 < argc) wait_s = atoi(argv[++i]);
    else if (strcmp(argv[i], "--quiet") == 0) quiet = 1;
  }
  if (reps < 1) reps = 1;
  const double t_init0 = now();
  shmem_init();
  const double t_init = now() - t_init0;
#if SCALE_LEGACY
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < (int)(sizeof g_psync[0] / sizeof g_psync[0][0]); ++i) g_psync[k][i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
#endif
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const long rss0 = rssKb(), fds0 = openFds();

  /* Hosts: the lowest PE of each hostname reads that host's UDP counters. */
  uint64_t* hosts = (uint64_t*)shmem_malloc(sizeof(uint64_t) * (size_t)n);
  static uint64_t my_host;
  my_host = hostHash();
  fcollectU64(hosts, &my_host);
  int leader = 1, nhosts = 0;
  for (int p = 0; p < n; ++p) {
    int first = 1;
    for (int q = 0; q < p; ++q) first &= hosts[q] != hosts[p];
    nhosts += first;
    if (p < me && hosts[p] == my_host) leader = 0;
  }
  long udp_in0 = 0, udp_drop0 = 0;
  if (leader) udpCounters(&udp_in0, &udp_drop0);
  const double t_run0 = now();

  long* a2a_src = (long*)shmem_malloc(sizeof(long) * (size_t)n);
  long* a2a_dst[2] = {(long*)shmem_malloc(sizeof(long) * (size_t)n), (long*)shmem_malloc(sizeof(long) * (size_t)n)};
  const char* ops[] = {"barrier", "reduce8", "bcast8", "alltoall8"};
  double t_op[4];
  for (int i = 0; i < 4; ++i) t_op[i] = timeCollectives(ops[i], reps, me, n, a2a_src, a2a_dst);
  const double t_split = timeSplits(reps / 4 > 2 ? reps / 4 : 2, me, n);

  double waited = 0;
  if (wait_s > 0) {
    const double w0 = now();
    if (me == 0) sleep((unsigned)wait_s); /* computing, as far as the others can tell */
    shmem_barrier_all();
    waited = now() - w0;
    CHECK(waited >= wait_s - 1, "wait: left the barrier after %.1f s, before PE 0 arrived (%d s)", waited, wait_s);
  }

  long udp_in1 = 0, udp_drop1 = 0;
  if (leader) udpCounters(&udp_in1, &udp_drop1);
  const double span = now() - t_run0;
  const long rss1 = rssKb(), fds1 = openFds();
  const long udp_in = sumOver(leader ? udp_in1 - udp_in0 : 0);
  const long udp_drop = sumOver(leader ? udp_drop1 - udp_drop0 : 0);
  const double init_max = maxOver(t_init), rss_max = maxOver((double)rss1), fds_max = maxOver((double)fds1);
  const double rss_init_max = maxOver((double)rss0), fds_init_max = maxOver((double)fds0);
  const double rss_init_avg = (double)sumOver(rss0) / n;
  const double rss_growth = maxOver((double)(rss1 - rss0)), fds_growth = maxOver((double)(fds1 - fds0));
  double op_max[4];
  for (int i = 0; i < 4; ++i) op_max[i] = maxOver(t_op[i]);
  const double split_max = t_split < 0 ? -1 : maxOver(t_split), span_max = maxOver(span);
  const int failed = (int)sumOver(g_fail);
  if (me == 0) {
    char split[32] = "n/a";
    if (split_max >= 0) snprintf(split, sizeof split, "%.3f", 1e3 * split_max);
    printf("scale: np=%d hosts=%d reps=%d init_s=%.3f barrier_us=%.1f reduce8_us=%.1f bcast8_us=%.1f "
           "alltoall8_us=%.1f split_ms=%s rss_init_kb_max=%.0f rss_init_kb_avg=%.0f fds_init_max=%.0f "
           "rss_kb_max=%.0f "
           "rss_growth_kb_max=%.0f fds_max=%.0f fds_growth_max=%.0f udp_rx_per_pe_s=%.2f udp_rcvbuf_drops=%ld "
           "wait_s=%.1f\n",
           n, nhosts, reps, init_max, 1e6 * op_max[0], 1e6 * op_max[1], 1e6 * op_max[2], 1e6 * op_max[3],
           split, rss_init_max, rss_init_avg, fds_init_max, rss_max, rss_growth, fds_max, fds_growth,
           span_max > 0 ? (double)udp_in / n / span_max : 0.0, udp_drop, waited);
    if (!failed) printf("scale_check: %d PEs: SUCCESS\n", n);
    else if (!quiet) printf("scale_check: %d PEs: %d PE(s) saw a wrong value\n", n, failed);
    fflush(stdout);
  }
  shmem_free(a2a_dst[1]);
  shmem_free(a2a_dst[0]);
  shmem_free(a2a_src);
  shmem_free(hosts);
  shmem_finalize();
  return failed ? 1 : 0;
}
