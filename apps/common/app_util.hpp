// Small helpers shared by the gshmem example applications (apps/*). Header-only, host-side only.
//
// Contracts:
//  - Counter-based random numbers: hash64(a, b, c, d) is a pure function of its four inputs, so a value
//    drawn for (seed, site, sweep, stream) is the same whatever the domain decomposition or PE count.
//    u01() maps a 64-bit hash to a double in (0, 1] (never 0, so log(u) is finite).
//  - wtime() is a monotonic wall clock in seconds.
//  - ArgParser reads "-x value", "--name value" and "--flag" options; unknown options end the program on
//    every PE with a usage message (call it on all PEs with the same argv).
#ifndef GSHMEM_APPS_APP_UTIL_HPP
#define GSHMEM_APPS_APP_UTIL_HPP

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace apps {

/** splitmix64 finalizer: a bijective 64-bit mixer. */
inline uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/** Counter-based hash of four words; independent streams for different argument tuples. */
inline uint64_t hash64(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  uint64_t h = mix64(a ^ 0x243f6a8885a308d3ULL);
  h = mix64(h ^ b);
  h = mix64(h ^ (c * 0x9e3779b97f4a7c15ULL));
  h = mix64(h ^ (d + 0x13198a2e03707344ULL));
  return h;
}

/** A double in (0, 1] from the top 53 bits of h. */
inline double u01(uint64_t h) { return (double)((h >> 11) + 1) * (1.0 / 9007199254740992.0); }

/** The spin glass's energy drift for --check-energy: |e - e0| relative to |e0|, or to the spin count n where a
 *  random start has |e0| << n (about sqrt(3 n)). */
inline double energyDrift(double e0, double e, double n) {
  const double a0 = e0 < 0 ? -e0 : e0, d = e - e0;
  return (d < 0 ? -d : d) / (a0 > n ? a0 : n);
}

inline double wtime() {
  using clk = std::chrono::steady_clock;
  return std::chrono::duration<double>(clk::now().time_since_epoch()).count();
}

/** Minimal option parser: options are consumed in order; positional arguments are not allowed. */
class ArgParser {
 public:
  ArgParser(int argc, char **argv, const char *usage) : argc_(argc), argv_(argv), usage_(usage) {}
  /** True if argv[i] names this option (short or long form; either may be null). */
  bool is(int i, const char *s, const char *l) const {
    return (s && std::strcmp(argv_[i], s) == 0) || (l && std::strcmp(argv_[i], l) == 0);
  }
  /** Integer value following argv[i]; advances i. */
  long long next_int(int &i) const {
    if (i + 1 >= argc_) fail(argv_[i]);
    char *end = nullptr;
    long long v = std::strtoll(argv_[++i], &end, 0);
    if (!end || *end) fail(argv_[i]);
    return v;
  }
  double next_double(int &i) const {
    if (i + 1 >= argc_) fail(argv_[i]);
    char *end = nullptr;
    double v = std::strtod(argv_[++i], &end);
    if (!end || *end) fail(argv_[i]);
    return v;
  }
  [[noreturn]] void fail(const char *what) const {
    std::fprintf(stderr, "bad or incomplete option '%s'\nusage: %s %s\n", what, argv_[0], usage_);
    std::exit(2);
  }
  int argc() const { return argc_; }

 private:
  int argc_;
  char **argv_;
  const char *usage_;
};

}  // namespace apps

#endif  // GSHMEM_APPS_APP_UTIL_HPP
