/* Strided RMA: every PE owns an N x N row-major matrix; PE p sends column p % N of its matrix into row me % N of
 * its right neighbour's matrix with shmem_long_iput (source stride N, target stride 1), then reads the neighbour's
 * diagonal back with shmem_long_iget (stride N + 1). */
#include <shmem.h>
#include <stdio.h>

#define N 8

static long mat[N * N];

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes(), errors = 0;
  int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  long local[N * N];
  for (int i = 0; i < N * N; ++i) {
    local[i] = me * 10000 + i;
    mat[i] = -1;
  }
  shmem_barrier_all();
  int col = me % N, row = me % N;
  /* target row `row` of the right neighbour (stride 1) <- my column `col` (stride N) */
  shmem_long_iput(&mat[row * N], &local[col], 1, N, N, right);
  shmem_barrier_all();
  int lrow = left % N, lcol = left % N;
  for (int j = 0; j < N; ++j) {
    long want = left * 10000 + j * N + lcol;
    if (mat[lrow * N + j] != want) {
      printf("iput_columns: PE %d: mat[%d][%d] = %ld, want %ld\n", me, lrow, j, mat[lrow * N + j], want);
      errors++;
    }
  }
  shmem_barrier_all();
  long diag[N];
  shmem_long_iget(diag, mat, 1, N + 1, N, right); /* the right neighbour's diagonal */
  for (int j = 0; j < N; ++j) {
    long want = j == me % N ? me * 10000 + j * N + col : -1; /* only my row there was written, by me */
    if (diag[j] != want) {
      printf("iput_columns: PE %d: diag[%d] = %ld, want %ld\n", me, j, diag[j], want);
      errors++;
    }
  }
  shmem_barrier_all();
  if (me == 0) printf("iput_columns: %d PEs: %s\n", npes, errors ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return errors != 0;
}
