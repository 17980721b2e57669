// Microbenchmarks for the parameter parsers and size formatting in src/base/config.hpp.
// These run once per GSHMEM_* variable at init, so they only need to stay far below a microsecond;
// the benchmark guards against accidental regressions (e.g. a regex or locale-dependent parse).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>
#include <vector>

#include "base/config.hpp"

namespace {

void BM_ParseSize(benchmark::State& state) {
  const std::vector<std::string> inputs = {"7", "4096", "64K", "256M", "1G", "1536k"};
  std::size_t i = 0, out = 0;
  for (auto _ : state) {
    bool ok = gshmem::parseSize(inputs[i++ % inputs.size()], &out);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_ParseSize);

void BM_ParseInt(benchmark::State& state) {
  long out = 0;
  const std::string in = "123456";
  for (auto _ : state) {
    bool ok = gshmem::parseInt(in, &out);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_ParseInt);

void BM_ParseBool(benchmark::State& state) {
  const std::vector<std::string> inputs = {"1", "yes", "off", "true"};
  std::size_t i = 0;
  bool out = false;
  for (auto _ : state) {
    bool ok = gshmem::parseBool(inputs[i++ % inputs.size()], &out);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_ParseBool);

void BM_FormatSize(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    std::string s = gshmem::formatSize(bytes);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_FormatSize)->Arg(7)->Arg(1536 << 10)->Arg(256 << 20);

}  // namespace
