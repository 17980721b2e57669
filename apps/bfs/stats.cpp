// bfs statistics block in the layout of the Graph500 reference output (its field names), computed here:
// order statistics with the reference's quartile convention (mean of the two middle order statistics),
// sample standard deviation (n - 1), and for TEPS the harmonic mean m / t over searches with Norris's
// standard error of the harmonic mean: s(t/m) / (mean(t/m)^2 * sqrt(n - 1)).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bfs.hpp"

namespace bfs {
namespace {

struct Stats {
  double min, q1, median, q3, max, mean, stddev;
};

Stats stats_of(std::vector<double> x) {
  Stats s{};
  const size_t n = x.size();
  if (n == 0) return s;
  double sum = 0;
  for (double v : x) sum += v;
  s.mean = sum / n;
  double var = 0;
  for (double v : x) var += (v - s.mean) * (v - s.mean);
  s.stddev = n > 1 ? std::sqrt(var / (n - 1)) : 0.0;
  std::sort(x.begin(), x.end());
  s.min = x[0];
  s.q1 = (x[(n - 1) / 4] + x[n / 4]) * 0.5;
  s.median = (x[(n - 1) / 2] + x[n / 2]) * 0.5;
  s.q3 = (x[n - 1 - (n - 1) / 4] + x[n - 1 - n / 4]) * 0.5;
  s.max = x[n - 1];
  return s;
}

void print_block(const char *prefix, const char *what, const Stats &s, const char *fmt) {
  const char *names[] = {"min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev"};
  const double vals[] = {s.min, s.q1, s.median, s.q3, s.max, s.mean, s.stddev};
  for (int i = 0; i < 7; ++i) {
    char key[64];
    std::snprintf(key, sizeof key, "%s%s_%s:", prefix, names[i], what);
    std::printf("%-32s", key);
    std::printf(fmt, vals[i]);
    std::printf("\n");
  }
}

}  // namespace

void print_statistics(const Params &p, int npes, double construction, const std::vector<double> &times,
                      const std::vector<double> &edges, const std::vector<double> &validate_times) {
  const size_t n = times.size();
  std::printf("%-32s%d\n", "SCALE:", p.scale);
  std::printf("%-32s%d\n", "edgefactor:", p.edgefactor);
  std::printf("%-32s%zu\n", "NBFS:", n);
  std::printf("%-32s%d\n", "num_pes:", npes);
  std::printf("%-32s%g\n", "construction_time:", construction);
  if (n == 0) return;
  print_block("bfs  ", "time", stats_of(times), "%g");
  print_block("", "nedge", stats_of(edges), "%.11g");
  std::vector<double> spe(n);
  for (size_t i = 0; i < n; ++i) spe[i] = times[i] / edges[i];
  const Stats s = stats_of(spe);
  std::printf("%-32s%g\n", "bfs  min_TEPS:", 1.0 / s.max);
  std::printf("%-32s%g\n", "bfs  firstquartile_TEPS:", 1.0 / s.q3);
  std::printf("%-32s%g\n", "bfs  median_TEPS:", 1.0 / s.median);
  std::printf("%-32s%g\n", "bfs  thirdquartile_TEPS:", 1.0 / s.q1);
  std::printf("%-32s%g\n", "bfs  max_TEPS:", 1.0 / s.min);
  std::printf("%-32s%g\n", "bfs  harmonic_mean_TEPS:", 1.0 / s.mean);
  std::printf("%-32s%g\n", "bfs  harmonic_stddev_TEPS:",
              n > 1 ? s.stddev / (s.mean * s.mean * std::sqrt((double)(n - 1))) : 0.0);
  print_block("bfs  ", "validate", stats_of(validate_times), "%g");
}

}  // namespace bfs
