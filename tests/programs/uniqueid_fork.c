/* A gshmem job with no launcher and no MPI: the parent forks N children, then makes the unique id (which starts its
 * rendezvous thread) and sends it to each child through a pipe, as a launcher would; each child initializes through
 * the id with its rank (gshmemx_init_uniqueid, the socket bootstrap). The children are forked while the parent has one
 * thread, so a sanitizer's runtime is never copied mid-operation into a child.
 *   uniqueid_fork N good       PE numbers, puts, gets, a barrier and a reduction; every child exits 0
 *   uniqueid_fork N kill       once every child is initialized and idle (outside any gshmem call), the parent
 *                              SIGKILLs PE N-1; every other child must end, nonzero, within GSHMEM_TIMEOUT
 *   uniqueid_fork N stop       as kill, but PE N-1 is stopped (SIGSTOP) while the others wait in a barrier: the wait
 *                              watchdog must end them within about GSHMEM_TIMEOUT (the bootstrap sees nothing)
 *   uniqueid_fork N gexit      PE N-1 calls shmem_global_exit(7) while the others are idle: every child exits with 7
 *   uniqueid_fork N exit       the good case, then every child exits without shmem_finalize: warnings, exit 0
 *   uniqueid_fork N badrank    the last child passes rank N (out of range)
 *   uniqueid_fork N nranks     the last child passes nranks N+1
 *   uniqueid_fork N dup        the last child passes rank 0, which the first child passes too
 *   uniqueid_fork N missing    the last child is never started
 *   uniqueid_fork N nonce      the last child passes an id with another nonce (a foreign job)
 * In the bad cases every started child must get -1 from init (and exit nonzero) without hanging. The parent prints
 * "uniqueid_fork: <mode>, N PEs: ... SUCCESS" when the outcome is the expected one, and the init time of PE 0. */
#define _GNU_SOURCE
#include <shmem.h>
#include <shmemx.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ring_exercise.h"

static int child(const char* mode, int id_fd, int rank, int n, int ready_fd) {
  unsigned char id[128];
  size_t got = 0;
  while (got < sizeof id) {
    const ssize_t r = read(id_fd, id + got, sizeof id - got);
    if (r <= 0) return 2; /* the parent could not make the id */
    got += (size_t)r;
  }
  int pass_rank = rank, pass_n = n;
  if (rank == n - 1 && strcmp(mode, "badrank") == 0) pass_rank = n;
  if (rank == n - 1 && strcmp(mode, "nranks") == 0) pass_n = n + 1;
  if (rank == n - 1 && strcmp(mode, "dup") == 0) pass_rank = 0;
  if (rank == n - 1 && strcmp(mode, "nonce") == 0) id[8] ^= 0xff; /* the nonce follows magic and version */
  const double t0 = shmemx_wtime();
  if (gshmemx_init_uniqueid(id, 128, pass_rank, pass_n) != 0) return 2;
  const double t1 = shmemx_wtime();
  if (shmem_my_pe() != rank || shmem_n_pes() != n) {
    fprintf(stderr, "uniqueid_fork: rank %d: PE %d of %d\n", rank, shmem_my_pe(), shmem_n_pes());
    return 3;
  }
  if (rank == 0) printf("uniqueid_fork: PE 0 initialized in %.1f ms\n", (t1 - t0) * 1e3);
  fflush(stdout);
  if (strcmp(mode, "gexit") == 0) {
    shmem_barrier_all();
    if (rank == n - 1) shmem_global_exit(7);
    for (;;) pause();
  }
  if (strcmp(mode, "kill") == 0 || strcmp(mode, "stop") == 0) {
    shmem_barrier_all();
    (void)!write(ready_fd, "r", 1);
    if (strcmp(mode, "stop") == 0)
      for (;;) shmem_barrier_all(); /* waits on the stopped PE: the watchdog's case */
    for (;;) pause(); /* idle, outside gshmem: only the bootstrap can end this process */
  }
  const int bad = !ring_exercise("uniqueid_fork", rank, n);
  if (strcmp(mode, "exit") == 0) exit(bad ? 4 : 0); /* no shmem_finalize: the atexit path */
  shmem_finalize();
  return bad ? 4 : 0;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 2;
  const char* mode = argc > 2 ? argv[2] : "good";
  const int good = strcmp(mode, "good") == 0 || strcmp(mode, "exit") == 0;
  const int kill_mode = strcmp(mode, "kill") == 0 || strcmp(mode, "stop") == 0;
  unsigned char id[128];
  int ready[2], ids[64][2];
  pid_t pids[64];
  if (n < 1 || n > 64 || pipe(ready) != 0) return 2;
  const int started = strcmp(mode, "missing") == 0 ? n - 1 : n;
  for (int r = 0; r < started; ++r) {
    if (pipe(ids[r]) != 0) return 2;
    pids[r] = fork();
    if (pids[r] == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL); /* a parent ended by its alarm leaves no child behind */
      close(ready[0]);
      close(ids[r][1]);
      _exit(child(mode, ids[r][0], r, n, ready[1]));
    }
    close(ids[r][0]);
  }
  close(ready[1]);
  const int made = gshmemx_uniqueid_make(id, sizeof id) == 0;
  for (int r = 0; r < started; ++r) {
    if (made) (void)!write(ids[r][1], id, sizeof id);
    close(ids[r][1]); /* without an id, the child reads end-of-file and exits 2 */
  }
  if (!made) fprintf(stderr, "uniqueid_fork: gshmemx_uniqueid_make failed\n");
  alarm(90); /* a hang ends the parent; ctest's timeout then reports it */
  double killed_at = 0;
  int ok = made;
  if (kill_mode) {
    char c;
    int r = 0;
    while (r < n && read(ready[0], &c, 1) == 1) ++r;
    if (r < n) {
      ok = 0;
      fprintf(stderr, "uniqueid_fork: only %d of %d PEs started\n", r, n);
    }
    killed_at = shmemx_wtime();
    kill(pids[n - 1], strcmp(mode, "stop") == 0 ? SIGSTOP : SIGKILL);
  }
  const int waited = kill_mode ? n - 1 : started;
  double last = 0;
  for (int r = 0; r < started; ++r) {
    int st = 0;
    if (kill_mode && r == n - 1) kill(pids[r], SIGKILL); /* the stopped one, once the others have ended */
    waitpid(pids[r], &st, 0);
    const double t = shmemx_wtime();
    if (r < waited && t > last) last = t;
    const int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (kill_mode && r == n - 1) continue;
    if (strcmp(mode, "gexit") == 0 ? code != 7 : good ? code != 0 : code == 0) {
      ok = 0;
      fprintf(stderr, "uniqueid_fork: rank %d exited with %d\n", r, code);
    }
  }
  if (kill_mode)
    printf("uniqueid_fork: %s, %d PEs: the others ended %.2f s after the %s: %s\n", mode, n, last - killed_at, mode,
           ok ? "SUCCESS" : "FAILED");
  else
    printf("uniqueid_fork: %s, %d PEs: %s\n", mode, n, ok ? "SUCCESS" : "FAILED");
  return ok ? 0 : 1;
}
