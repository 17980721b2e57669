/* C11 type-generic bitwise reductions over every BITRED type of the 1.5 table, int8_t and int16_t included:
 * shmem_and_reduce / shmem_or_reduce / shmem_xor_reduce must compile for each and compute the right value. */
#include <shmem.h>
#include <stdio.h>

static int errors, me, npes;

#define CHECK_BITRED(T, FMT)                                                                                   \
  do {                                                                                                         \
    static T src[2], dst[2];                                                                                   \
    long want_and = -1, want_or = 0, want_xor = 0;                                                             \
    for (int p = 0; p < npes; ++p) {                                                                           \
      long v = (long)(T)(0x15 + 3 * p);                                                                        \
      want_and &= v, want_or |= v, want_xor ^= v;                                                              \
    }                                                                                                          \
    src[0] = (T)(0x15 + 3 * me);                                                                               \
    src[1] = src[0];                                                                                           \
    shmem_and_reduce(SHMEM_TEAM_WORLD, dst, src, 2);                                                           \
    if (dst[1] != (T)want_and) printf("generic_bitwise: PE %d: " #T " and = " FMT "\n", me, dst[1]), ++errors; \
    shmem_or_reduce(SHMEM_TEAM_WORLD, dst, src, 2);                                                            \
    if (dst[0] != (T)want_or) printf("generic_bitwise: PE %d: " #T " or = " FMT "\n", me, dst[0]), ++errors;   \
    shmem_xor_reduce(SHMEM_TEAM_WORLD, dst, src, 2);                                                           \
    if (dst[0] != (T)want_xor) printf("generic_bitwise: PE %d: " #T " xor = " FMT "\n", me, dst[0]), ++errors; \
  } while (0)

int main(void) {
  shmem_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  CHECK_BITRED(int8_t, "%d");
  CHECK_BITRED(int16_t, "%d");
  CHECK_BITRED(int32_t, "%d");
  CHECK_BITRED(int64_t, "%ld");
  CHECK_BITRED(uint8_t, "%u");
  CHECK_BITRED(uint16_t, "%u");
  CHECK_BITRED(uint32_t, "%u");
  CHECK_BITRED(uint64_t, "%lu");
  CHECK_BITRED(unsigned char, "%u");
  CHECK_BITRED(unsigned short, "%u");
  CHECK_BITRED(unsigned int, "%u");
  CHECK_BITRED(unsigned long, "%lu");
  CHECK_BITRED(unsigned long long, "%llu");
  CHECK_BITRED(size_t, "%zu");
  shmem_barrier_all();
  if (me == 0) printf("generic_bitwise: %d PEs: %s\n", npes, errors ? "FAILED" : "SUCCESS");
  shmem_finalize();
  return errors != 0;
}
