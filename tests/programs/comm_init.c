/* gshmem over an MPI communicator other than MPI_COMM_WORLD, under mpirun.
 *   comm_init subset     ranks 1..size-1, in reverse order, form the communicator and initialize through NVSHMEM's
 *                        nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM); rank 0 never initializes gshmem
 *   comm_init disjoint   even and odd ranks form two communicators (each in reverse order) and each runs its own
 *                        gshmem job at the same time, through gshmemx_init_mpi_comm
 *   comm_init world      shmem_init, for the init time of the MPI bootstrap over the world
 * On every PE: PE number = rank in the communicator, n_pes = its size, a ring of puts, gets, barriers and a
 * reduction. Prints "comm_init: <mode>, N ranks: SUCCESS" on world rank 0, and each job's init time on its PE 0. */
#include <mpi.h>
#include <gshmem/nvshmem_compat.h>
#include <stdio.h>
#include <string.h>

#include "ring_exercise.h"

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "subset";
  int rank = 0, size = 0, ok = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm = MPI_COMM_NULL;
  int color = 0;
  if (strcmp(mode, "subset") == 0) color = rank > 0 ? 0 : MPI_UNDEFINED;
  if (strcmp(mode, "disjoint") == 0) color = rank % 2;
  /* reverse order inside each communicator (world: the world's order, as shmem_init numbers the PEs) */
  MPI_Comm_split(MPI_COMM_WORLD, color, strcmp(mode, "world") == 0 ? rank : size - rank, &comm);
  if (comm != MPI_COMM_NULL) {
    int crank = 0, csize = 0, rc = -1;
    MPI_Comm_rank(comm, &crank);
    MPI_Comm_size(comm, &csize);
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    if (strcmp(mode, "world") == 0) {
      shmem_init();
      rc = 0;
    } else if (strcmp(mode, "subset") == 0) {
      nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
      nvshmemx_set_attr_mpi_comm_args(&comm, &attr);
      rc = nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr) == NVSHMEMX_SUCCESS ? 0 : -1;
    } else {
      rc = gshmemx_init_mpi_comm(&comm);
    }
    const double t1 = MPI_Wtime();
    ok &= rc == 0 && shmem_my_pe() == crank && shmem_n_pes() == csize;
    if (rc == 0 && crank == 0)
      printf("comm_init: %s job of world rank %d: %d PEs initialized in %.1f ms\n", mode, rank, csize,
             (t1 - t0) * 1e3);
    if (rc == 0) {
      ok &= ring_exercise("comm_init", crank, csize);
      shmem_finalize();
    }
    MPI_Comm_free(&comm);
  }
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0) printf("comm_init: %s, %d ranks: %s\n", mode, size, all ? "SUCCESS" : "FAILED");
  MPI_Finalize();
  return all ? 0 : 1;
}
