// host memory between two hosts: put + quiet, PE 0 -> PE 1, 8 B..MAX, with each UCX put path
// forced and with the automatic choice, interleaved rep by rep in one process (the order rotates every rep; each
// mode is warmed before its timing), so the comparison is not run-to-run noise between separate launches:
//   direct  every put is a UCP put (aggregate = 0)
//   batch   puts up to 2 KiB go into the per-peer active-message batch (aggregate = the largest it takes)
//   auto    GSHMEM_UCX_AGGREGATE as the runtime read it
// The modes are set through the calibration hook gshmem::remoteSetAggregate (Transport::setAggregate). Every size
// is verified on PE 1 after the timed runs. Needs a remote transport to PE 1 (two hosts, or GSHMEM_TRANSPORTS=ucx).
//   mpirun -np 2 gshmem_hsweep [MAX]        prints CSV rows: mode,bytes,us,verified
#include <shmem.h>

#include <algorithm>
#include <cstdint>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/runtime/runtime.hpp"

namespace {
double nowUs() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
unsigned char pattern(size_t i, size_t n) { return static_cast<unsigned char>((i * 2654435761u + n) >> 13); }
}  // namespace

int main(int argc, char** argv) {
  const size_t max = argc > 1 ? strtoull(argv[1], nullptr, 0) : (size_t(256) << 20);
  shmem_init();
  const int me = shmem_my_pe();
  if (shmem_n_pes() != 2) {
    if (me == 0) fprintf(stderr, "hsweep: needs 2 PEs\n");
    shmem_finalize();
    return 2;
  }
  const size_t dflt = gshmem::remoteSetAggregate(SIZE_MAX);        // read: the runtime's choice
  const size_t cap = gshmem::remoteSetAggregate(size_t(1) << 30);  // the largest batched put
  gshmem::remoteSetAggregate(dflt);
  if (cap == 0 && me == 0) fprintf(stderr, "hsweep: PE 1 is not reached through UCX (or batching is off)\n");
  struct Mode {
    const char* name;
    size_t agg;
  };
  const Mode modes[] = {{"direct", 0}, {"batch", cap}, {"auto", dflt}};
  const int nm = 3, reps = 7;
  char* dst = static_cast<char*>(shmem_malloc(max));
  std::vector<char> src(max);
  static int bad;
  if (me == 0) printf("# auto aggregate %zu B, batch %zu B\nmode,bytes,us,verified\n", dflt, cap);
  for (size_t n = 8; n <= max; n *= 2) {
    for (size_t i = 0; i < n; ++i) src[i] = static_cast<char>(pattern(i, n));
    const int iters = n <= (64u << 10) ? 1000 : n <= (4u << 20) ? 30 : n <= (64u << 20) ? 10 : 5;
    std::vector<double> us[3];
    for (int r = 0; r < reps; ++r) {
      for (int k = 0; k < nm; ++k) {
        const Mode& m = modes[(k + r) % nm];
        gshmem::remoteSetAggregate(m.agg);
        shmem_barrier_all();
        if (me == 0) {
          shmem_putmem(dst, src.data(), n, 1);  // warm-up
          shmem_quiet();
          // The median of 10 batches (as the osu-like programs do): a mean would carry the scheduler's stalls.
          const int nb = iters >= 100 ? 10 : iters >= 10 ? 5 : 1, per = iters / nb;
          std::vector<double> batch;
          for (int b = 0; b < nb; ++b) {
            double t0 = nowUs();
            for (int i = 0; i < per; ++i) {
              shmem_putmem(dst, src.data(), n, 1);
              shmem_quiet();
            }
            batch.push_back((nowUs() - t0) / per);
          }
          std::sort(batch.begin(), batch.end());
          us[(k + r) % nm].push_back(batch[batch.size() / 2]);
        }
      }
    }
    shmem_barrier_all();
    if (me == 1) {
      bad = 0;
      for (size_t i = 0; i < n; ++i) bad |= static_cast<unsigned char>(dst[i]) != pattern(i, n);
      memset(dst, 0, n);
    }
    shmem_barrier_all();
    const int verdict = shmem_int_g(&bad, 1);
    if (me == 0) {
      for (int m = 0; m < nm; ++m) {
        std::sort(us[m].begin(), us[m].end());
        printf("%s,%zu,%.3f,%s\n", modes[m].name, n, us[m][us[m].size() / 2], verdict ? "BAD" : "ok");
      }
      fflush(stdout);
    }
    shmem_barrier_all();
  }
  gshmem::remoteSetAggregate(dflt);
  shmem_free(dst);
  shmem_finalize();
  return 0;
}
