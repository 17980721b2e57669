/* Built by a project whose target links MPI::MPI_C before gshmem::gshmem (and as C++ too): every OpenSHMEM header
 * name must be gshmem's, and mpi.h must still be found. Prints OK on each PE. */
#define OMPI_SKIP_MPICXX 1 /* the C API only: MPI's C++ bindings are not linked */
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <mpp/shmem.h>
#include <pshmem.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>

#if !defined(GSHMEM_SHMEM_H) || !defined(GSHMEMX) || !defined(GSHMEM_PSHMEM) || !defined(GSHMEM_MPP_SHMEM_H)
#error "an OpenSHMEM header of another implementation was found before gshmem's"
#endif

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes();
  int initialized = 0;
  MPI_Initialized(&initialized);
  printf("mpi_first: PE %d of %d, gshmem's headers first OK\n", me, npes);
  shmem_finalize();
  return 0;
}
