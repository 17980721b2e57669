/* MPI-RMA twins of the OpenSHMEM put/get tests, for the peer comparison: one window from
 * MPI_Win_allocate, a passive-target MPI_Win_lock_all epoch for the whole run, and
 *   put latency: MPI_Put + MPI_Win_flush(1) per iteration;
 *   get latency: MPI_Get + MPI_Win_flush(1) per iteration;
 *   put bandwidth: a window of W MPI_Put + one MPI_Win_flush(1).
 * Rank 0 is the origin, rank 1 the target; same options and output as the osu_oshm_* programs. */
#ifndef GSHMEM_OSU_MPI_RMA_H
#define GSHMEM_OSU_MPI_RMA_H

#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "osu_util.h"

typedef enum { OSU_MPI_PUT_LAT, OSU_MPI_GET_LAT, OSU_MPI_PUT_BW } osu_mpi_kind_t;

static void osu_mpi_library(char* out, size_t n) {
  char v[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(v, &len);
  char* nl = strchr(v, '\n');
  if (nl) *nl = '\0';
  char* comma = strchr(v, ',');
  if (comma) *comma = '\0';
  snprintf(out, n, "%.200s (MPI-3 RMA)", v);
}

static int osu_mpi_rma_main(int argc, char** argv, const osu_bench_t* b, osu_mpi_kind_t kind) {
  MPI_Init(&argc, &argv);
  int me = 0, np = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  osu_opts_t o;
  int r = osu_parse(argc, argv, b, &o, me == 0);
  if (r != OSU_PARSE_OK || np < 2) {
    if (r == OSU_PARSE_OK && me == 0) fprintf(stderr, "%s: needs at least 2 ranks\n", b->prog);
    MPI_Finalize();
    return r == OSU_PARSE_EXIT ? 0 : 1;
  }
  char* base = NULL;
  MPI_Win win;
  MPI_Win_allocate((MPI_Aint)o.max_size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  char* local = NULL;
  MPI_Alloc_mem((MPI_Aint)o.max_size, MPI_INFO_NULL, &local);
  memset(local, 'a', o.max_size);
  memset(base, 'b', o.max_size);
  if (me == 0) {
    char lib[256];
    osu_mpi_library(lib, sizeof(lib));
    const char* mode = kind == OSU_MPI_PUT_LAT   ? "MPI_Put + MPI_Win_flush per iteration, lock_all epoch, rank 0 -> 1"
                       : kind == OSU_MPI_GET_LAT ? "MPI_Get + MPI_Win_flush per iteration, lock_all epoch, rank 0 <- 1"
                                                 : "window of MPI_Put + one MPI_Win_flush, lock_all epoch, rank 0 -> 1";
    osu_print_header(b, &o, lib, mode);
  }
  MPI_Win_lock_all(0, win);
  const long w = o.window;
  for (size_t size = o.min_size; size; size = osu_next_size(&o, size)) {
    long iters = osu_iters(b, &o, size);
    int nb = osu_batches(&o, iters);
    int cnt = (int)size;
    double us = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (me != 0) continue;
    switch (kind) {
      case OSU_MPI_PUT_LAT:
        OSU_TIMED(osu_warmup(b, &o, size), iters, nb, &us, {
          MPI_Put(local, cnt, MPI_BYTE, 1, 0, cnt, MPI_BYTE, win);
          MPI_Win_flush(1, win);
        });
        osu_print_row(&o, size, us);
        break;
      case OSU_MPI_GET_LAT:
        OSU_TIMED(osu_warmup(b, &o, size), iters, nb, &us, {
          MPI_Get(local, cnt, MPI_BYTE, 1, 0, cnt, MPI_BYTE, win);
          MPI_Win_flush(1, win);
        });
        osu_print_row(&o, size, us);
        break;
      case OSU_MPI_PUT_BW:
        OSU_TIMED(osu_warmup(b, &o, size), iters, nb, &us, {
          for (long j = 0; j < w; ++j) MPI_Put(local, cnt, MPI_BYTE, 1, 0, cnt, MPI_BYTE, win);
          MPI_Win_flush(1, win);
        });
        osu_print_row(&o, size, osu_bw_mbs(size * (size_t)w, us));
        break;
    }
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Free_mem(local);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}

#endif /* GSHMEM_OSU_MPI_RMA_H */
