/* MPI-RMA twin of osu_oshm_put_bw: a window of MPI_Put + one MPI_Win_flush (see osu_mpi_rma.h). */
#include "osu_mpi_rma.h"

static const osu_bench_t kBench = {"osu_mpi_put_bw", "MPI-RMA Put Bandwidth Test", OSU_METRIC_BW,
                                   OSU_ACCEPT_SIZES | OSU_ACCEPT_WINDOW, 1, (size_t)1 << 20, 1000, 50, 100, 5, 64};

int main(int argc, char** argv) { return osu_mpi_rma_main(argc, argv, &kBench, OSU_MPI_PUT_BW); }
