// put_latency_kernel alone, built whole-program into a cubin (nvcc -cubin, no -rdc) for shmem_put_latency -m.
#include "latency_kernel.cuh"
