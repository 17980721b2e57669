// Cost model of one protocol on one path: T(s) = overhead + s / bandwidth, piecewise over size ranges.
//
// One straight line rarely fits 8 B .. 256 MiB (small sizes are latency-bound, large ones hit another
// bottleneck: caches, pipelining, a protocol switch inside a transport), so a model is up to a few ranges, each
// with its own (overhead, bandwidth). fitPiecewise() chooses the range boundaries from the samples.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "base/parse.hpp"  // kSizeInf: the upper bound of the last range, "to infinity"

namespace gshmem {

/// T(s) = overhead_us + s / bandwidth. Bandwidth in GB/s (10^9 bytes per second), i.e. 10^3 bytes per µs.
struct LinkModel {
  double overhead_us = 0;
  double bandwidth_GBps = 0;  ///< > 0 for a usable model

  /// Predicted time in µs of moving @p bytes.
  double predictUs(double bytes) const { return overhead_us + bytes / (bandwidth_GBps * 1e3); }
  /// Slope in µs per byte (0 when the bandwidth is not positive).
  double usPerByte() const { return bandwidth_GBps > 0 ? 1.0 / (bandwidth_GBps * 1e3) : 0.0; }
};

/// One measurement: moving @p bytes took @p us microseconds.
struct Sample {
  double bytes = 0;
  double us = 0;
};

/// A size range [lo, hi) and the line fitted on it.
struct ModelRange {
  uint64_t lo = 0;
  uint64_t hi = kSizeInf;  ///< exclusive; kSizeInf for the last range
  LinkModel line;
  int samples = 0;  ///< samples the line was fitted on (0 for a default or an override)
  double r2 = 1;    ///< goodness of fit of this range (see fitLine)
};

/// Up to a few ranges covering [0, inf) without gaps, sorted by lo.
struct PiecewiseModel {
  std::vector<ModelRange> ranges;

  /// A single-range model valid for every size.
  static PiecewiseModel single(LinkModel line);
  /// The range holding @p bytes (ranges must be non-empty and cover it).
  const ModelRange& rangeFor(uint64_t bytes) const;
  double predictUs(uint64_t bytes) const { return rangeFor(bytes).line.predictUs(static_cast<double>(bytes)); }
  /// True when ranges are non-empty, start at 0, are contiguous, end at kSizeInf and every bandwidth is > 0.
  bool valid() const;
};

/// Goodness of fit of a line.
struct FitQuality {
  double r2 = 1;           ///< 1 - SSE/SST on relative residuals (1 is perfect; can be < 0 for a bad line)
  double max_rel_err = 0;  ///< largest |predicted - measured| / measured over the samples
};

/// Least-squares fit of T = o + s/B on @p samples. Residuals are weighted by 1/T (relative error), since sizes
/// span 8 decades and an absolute fit would ignore every small size. A negative fitted overhead is clamped to 0
/// and the slope refitted through the origin. When time does not grow with size over the samples (a flat,
/// latency-bound or noise-dominated range), the slope is the largest sample's time per byte and the overhead is
/// refitted: the line then never predicts the largest measured size faster than measured, and extrapolates past
/// it conservatively (an unbounded bandwidth would win every size beyond the measurements).
/// @param samples at least 1 (one sample: overhead = its time, bandwidth from the slope through the origin).
/// @param quality optional, set on success.
/// @return false when samples is empty or holds a non-positive time.
bool fitLine(const std::vector<Sample>& samples, LinkModel* out, FitQuality* quality = nullptr);

/// Piecewise fit. Sorts the samples by size, fits one line, then repeatedly splits the range with the worst
/// fit at the boundary that most lowers its error, while the split improves the total relative squared error
/// by more than @p min_gain (a fraction) and each side keeps at least @p min_per_range samples, up to
/// @p max_ranges ranges. A boundary is put halfway (geometrically) between the two samples it separates,
/// rounded to an integer size. The first range starts at 0 and the last ends at kSizeInf.
/// @return false when there are no samples or a time is not positive.
bool fitPiecewise(std::vector<Sample> samples, PiecewiseModel* out, int max_ranges = 3, int min_per_range = 3,
                  double min_gain = 0.25);

}  // namespace gshmem
