/* C11 type-generic interfaces (_Generic): shmem_put/get/p/g and the atomics pick the typed routine. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

int ibuf[4];
double dbuf[4];
long lval;
uint64_t uval;
float fval;

int main(void) {
  shmem_init();
  int me = shmem_my_pe();
  int npes = shmem_n_pes();
  int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  int isrc[4] = {me, me + 1, me + 2, me + 3};
  double dsrc[4] = {me + 0.5, me + 1.5, me + 2.5, me + 3.5};
  int errors = 0;

  shmem_put(ibuf, isrc, 4, right);
  shmem_put(dbuf, dsrc, 4, right);
  shmem_p(&fval, (float)me + 0.25f, right);
  shmem_barrier_all();
  for (int i = 0; i < 4; i++) {
    errors += ibuf[i] != left + i;
    errors += dbuf[i] != left + i + 0.5;
  }
  errors += fval != (float)left + 0.25f;
  int iget[4];
  shmem_get(iget, ibuf, 4, right);
  for (int i = 0; i < 4; i++) errors += iget[i] != me + i;
  errors += shmem_g(&dbuf[2], right) != me + 2.5;

  shmem_atomic_add(&lval, 2L, 0);
  shmem_atomic_inc(&uval, 0);
  long old = shmem_atomic_fetch_add(&lval, 1L, 0);
  errors += old < 0;
  shmem_barrier_all();
  if (me == 0) {
    errors += lval != 3L * npes;
    errors += uval != (uint64_t)npes;
  }
  errors += shmem_atomic_fetch(&lval, 0) != 3L * npes;
  shmem_barrier_all();

  static int total;
  shmem_int_atomic_add(&total, errors, 0);
  shmem_barrier_all();
  int ok = total == 0;
  if (me == 0) printf("generic_c11: %d errors: %s\n", total, ok ? "SUCCESS" : "FAILED");
  shmem_finalize();
  return ok ? 0 : 1;
}
