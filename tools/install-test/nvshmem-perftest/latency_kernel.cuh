// The ping-pong kernel of shmem_put_latency, in a header so that the program links it in and put_latency_module.cu
// builds the same kernel into a cubin for the driver API (-m). One thread on each of PEs 0 and 1: PE 0 puts `bytes`
// of `data` to PE 1, completes the put (nvshmem_quiet), raises PE 1's signal to seq + i + 1 and waits for its own
// signal to reach that value; PE 1 answers each round the same way. Signals only grow, so calls with consecutive
// `seq` ranges need no reset in between.
#pragma once
#include <nvshmem.h>
#include <nvshmemx.h>

extern "C" __global__ void put_latency_kernel(char* data, uint64_t* sig, size_t bytes, int iters, uint64_t seq) {
  const int me = nvshmem_my_pe(), peer = 1 - me;
  for (int i = 0; i < iters; ++i) {
    const uint64_t v = seq + static_cast<uint64_t>(i) + 1;
    if (me == 1) nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, v);
    nvshmem_putmem(data, data, bytes, peer);
    nvshmem_quiet();
    nvshmemx_signal_op(sig, v, NVSHMEM_SIGNAL_SET, peer);
    if (me == 0) nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, v);
  }
}
