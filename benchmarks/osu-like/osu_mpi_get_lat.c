/* MPI-RMA twin of osu_oshm_get_lat: MPI_Get + MPI_Win_flush per iteration (see osu_mpi_rma.h). */
#include "osu_mpi_rma.h"

static const osu_bench_t kBench = {"osu_mpi_get_lat", "MPI-RMA Get Latency Test", OSU_METRIC_LATENCY,
                                   OSU_ACCEPT_SIZES, 1, (size_t)1 << 20, 10000, 1000, 1000, 100, 0};

int main(int argc, char** argv) { return osu_mpi_rma_main(argc, argv, &kBench, OSU_MPI_GET_LAT); }
