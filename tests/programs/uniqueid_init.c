/* NVSHMEM's unique-id start (nvshmemx_get_uniqueid on one process, broadcast by the program, then
 * NVSHMEMX_INIT_WITH_UNIQUEID) as gshmem serves it: gshmemx_uniqueid_make and gshmemx_init_uniqueid, under mpirun.
 *   uniqueid_init          every PE passes PE 0's id and its MPI rank and size: initialized, PE numbers are the
 *                          ranks, a ring of puts arrives
 *   uniqueid_init swap     ranks passed reversed: every PE gets -1 (one line from PE 0), nothing hangs
 *   uniqueid_init nonce    every process makes its own id: -1 on every PE
 *   uniqueid_init zero     an id never made (all zero): -1 before any start
 * Prints "uniqueid_init: ... SUCCESS" when the outcome is the expected one. */
#include <mpi.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "good";
  int rank = 0, size = 0, ok = 1;
  unsigned char id[128];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  memset(id, 0, sizeof id);
  if (strcmp(mode, "zero") != 0 && (rank == 0 || strcmp(mode, "nonce") == 0))
    ok &= gshmemx_uniqueid_make(id, sizeof id) == 0;
  if (strcmp(mode, "nonce") != 0) MPI_Bcast(id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  const int pass_rank = strcmp(mode, "swap") == 0 ? size - 1 - rank : rank;
  const int rc = gshmemx_init_uniqueid(id, sizeof id, pass_rank, size);
  if (strcmp(mode, "good") == 0) {
    ok &= rc == 0 && shmem_my_pe() == rank && shmem_n_pes() == size;
    static int box = -1;
    if (rc == 0) {
      shmem_int_p(&box, rank, (rank + 1) % size);
      shmem_barrier_all();
      ok &= box == (rank + size - 1) % size;
      shmem_finalize();
    }
  } else {
    ok &= rc == -1 && !gshmemx_query_initialized();
  }
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0)
    printf("uniqueid_init: %s, %d PEs: %s\n", strcmp(mode, "good") == 0 ? "started" : mode,
           size, all ? "SUCCESS" : "FAILED");
  MPI_Finalize();
  return all ? 0 : 1;
}
