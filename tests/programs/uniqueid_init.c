/* NVSHMEM's unique-id start under mpirun, through the compatibility header: rank 0 makes the id
 * (nvshmemx_get_uniqueid), MPI_Bcast hands it out, and every rank initializes through it
 * (nvshmemx_set_attr_uniqueid_args + nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID)). gshmem then meets the PEs over
 * its socket bootstrap, making no MPI call of its own.
 *   uniqueid_init          every rank passes its MPI rank: PE numbers are the ranks, a ring of puts arrives, a
 *                          reduction sums
 *   uniqueid_init swap     ranks passed reversed: PE numbers are the ranks passed, the same checks hold
 *   uniqueid_init nonce    every process makes its own id: init fails on every rank within GSHMEM_TIMEOUT
 *   uniqueid_init zero     an id never made (all zero): init fails at once
 * Prints "uniqueid_init: ... SUCCESS" when the outcome is the expected one. */
#include <mpi.h>
#include <gshmem/nvshmem_compat.h>
#include <stdio.h>
#include <string.h>

static int box = -1, src, sum;

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "good";
  const int good = strcmp(mode, "good") == 0 || strcmp(mode, "swap") == 0;
  int rank = 0, size = 0, ok = 1;
  nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (strcmp(mode, "zero") != 0 && (rank == 0 || strcmp(mode, "nonce") == 0))
    ok &= nvshmemx_get_uniqueid(&id) == NVSHMEMX_SUCCESS;
  if (strcmp(mode, "nonce") != 0) MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  const int pe = strcmp(mode, "swap") == 0 ? size - 1 - rank : rank;
  nvshmemx_set_attr_uniqueid_args(pe, size, &id, &attr);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  const int rc = nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr);
  const double t1 = MPI_Wtime();
  if (rank == 0 && rc == NVSHMEMX_SUCCESS) printf("uniqueid_init: rank 0 initialized in %.1f ms\n", (t1 - t0) * 1e3);
  if (good) {
    ok &= rc == NVSHMEMX_SUCCESS && shmem_my_pe() == pe && shmem_n_pes() == size;
    if (rc == NVSHMEMX_SUCCESS) {
      src = pe + 1;
      shmem_int_p(&box, pe, (pe + 1) % size);
      shmem_barrier_all();
      ok &= box == (pe + size - 1) % size;
      ok &= shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &sum, &src, 1) == 0 && sum == size * (size + 1) / 2;
      nvshmem_finalize();
    }
  } else {
    ok &= rc != NVSHMEMX_SUCCESS && nvshmemx_init_status() == NVSHMEM_STATUS_NOT_INITIALIZED;
  }
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0)
    printf("uniqueid_init: %s, %d PEs: %s\n", strcmp(mode, "good") == 0 ? "started" : mode, size,
           all ? "SUCCESS" : "FAILED");
  MPI_Finalize();
  return all ? 0 : 1;
}
