// The fetch-add address sweep that gshmem_gpu_bench.cu and peers/nvshmem_bench.cu share, so that both libraries
// are timed at the same offsets and summed up the same way. Host code only; no library call.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <vector>

/// Offsets into a 256 MiB symmetric buffer where the fetch-add round trip is timed: a remote atomic is served by
/// the memory side that owns the address, so its latency depends on where the counter lies.
constexpr size_t kFaddOffsets[] = {0, 8, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 65536, size_t(1) << 20,
                                   size_t(16) << 20, size_t(128) << 20, (size_t(256) << 20) - 8};

/// Prints "RESULT <lib>_device_fetch_add_u64_round_trip_median_of_<n>_addresses <median> us" (nothing when empty).
inline void printFaddMedian(const char* lib, std::vector<float> us) {
  if (us.empty()) return;
  std::sort(us.begin(), us.end());
  printf("RESULT %s_device_fetch_add_u64_round_trip_median_of_%zu_addresses %.3f us\n", lib, us.size(),
         us[us.size() / 2]);
}
