// Helpers shared by the microbenchmarks of benchmarks/micro. Private to this folder.
#pragma once
#include <benchmark/benchmark.h>

namespace gshmem::micro {

/// Return @p v unchanged, but make the optimizer assume it could be anything (no constant folding of a loop's
/// inputs). Use this instead of benchmark::DoNotOptimize(lvalue) on a value that is read afterwards: with GCC 12
/// and Debian 12's libbenchmark 1.7.1, the non-const overload (asm "+m,r") was seen to hand back garbage here
/// (an AmoOp read after it was 1280589905, and ops::amo took its fatal branch). Integers, enums and pointers
/// only (register constraint).
template <typename T>
inline T opaque(T v) {
  asm volatile("" : "+r"(v));
  return v;
}

/// Keep @p v computed (a result sink). Goes through DoNotOptimize's const overload, which only reads.
template <typename T>
inline void sink(const T& v) {
  benchmark::DoNotOptimize(v);
}

}  // namespace gshmem::micro
