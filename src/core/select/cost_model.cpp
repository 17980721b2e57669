#include "core/select/cost_model.hpp"

#include <algorithm>
#include <cmath>

namespace gshmem {

namespace {

/// Bandwidth of a line with no slope (every sample of size 0): the transfer is all overhead.
constexpr double kFlatBandwidthGBps = 1e9;

/// Weighted sums of one range of samples, weight 1/t^2 (relative error).
struct Sums {
  double w = 0, s = 0, ss = 0, t = 0, st = 0, tt = 0;
  void add(const Sample& x) {
    double wi = 1.0 / (x.us * x.us);
    w += wi;
    s += wi * x.bytes;
    ss += wi * x.bytes * x.bytes;
    t += wi * x.us;
    st += wi * x.bytes * x.us;
    tt += wi * x.us * x.us;
  }
};

/// Solve the weighted normal equations for (o, k), k in µs/byte, with o >= 0 and k > 0. @p flat_k is the slope
/// used when time does not grow with size: the largest sample's time per byte, so that the line never predicts
/// the largest measured size faster than measured and extrapolates beyond it conservatively.
void solve(const Sums& m, double flat_k, double* o, double* k) {
  double det = m.w * m.ss - m.s * m.s;
  double oo = 0, kk = 0;
  if (det > 1e-12 * m.w * m.ss) {
    oo = (m.t * m.ss - m.s * m.st) / det;
    kk = (m.w * m.st - m.s * m.t) / det;
  } else {  // one distinct size: a line through the origin and the point
    kk = m.ss > 0 ? m.st / m.ss : 0;
  }
  if (oo < 0) {  // refit through the origin
    oo = 0;
    kk = m.ss > 0 ? m.st / m.ss : 0;
  }
  if (kk <= 0) {  // time does not grow with size over these samples
    kk = flat_k;
    oo = std::max(0.0, (m.t - kk * m.s) / m.w);
  }
  *o = oo;
  *k = kk;
}

/// Weighted squared error of (o, k) on the sums: Σ w (o + k s - t)^2 expanded.
double sse(const Sums& m, double o, double k) {
  double v = o * o * m.w + k * k * m.ss + m.tt + 2 * o * k * m.s - 2 * o * m.t - 2 * k * m.st;
  return v > 0 ? v : 0;
}

LinkModel toLine(double o, double k) { return LinkModel{o, k > 0 ? 1.0 / (k * 1e3) : kFlatBandwidthGBps}; }

/// Time per byte of the largest sample (0 when every size is 0).
double flatSlope(const Sample* b, const Sample* e) {
  const Sample* big = b;
  for (const Sample* x = b; x != e; ++x)
    if (x->bytes > big->bytes) big = x;
  return big->bytes > 0 ? big->us / big->bytes : 0;
}

/// Best line on samples [b, e) and its error.
double fitRange(const std::vector<Sample>& x, size_t b, size_t e, double* o, double* k) {
  Sums m;
  for (size_t i = b; i < e; ++i) m.add(x[i]);
  solve(m, flatSlope(x.data() + b, x.data() + e), o, k);
  return sse(m, *o, *k);
}

struct Piece {
  size_t b, e;  ///< sample indices [b, e)
  double o, k, err;
};

}  // namespace

PiecewiseModel PiecewiseModel::single(LinkModel line) {
  PiecewiseModel m;
  m.ranges.push_back(ModelRange{0, kSizeInf, line, 0, 1});
  return m;
}

const ModelRange& PiecewiseModel::rangeFor(uint64_t bytes) const {
  // Few ranges (<= 3 from a fit): a linear scan beats a binary search. Only used at init.
  for (const ModelRange& r : ranges)
    if (bytes < r.hi) return r;
  return ranges.back();
}

bool PiecewiseModel::valid() const {
  if (ranges.empty() || ranges.front().lo != 0 || ranges.back().hi != kSizeInf) return false;
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (!(ranges[i].line.bandwidth_GBps > 0) || !(ranges[i].line.overhead_us >= 0)) return false;
    if (ranges[i].lo >= ranges[i].hi) return false;
    if (i > 0 && ranges[i].lo != ranges[i - 1].hi) return false;
  }
  return true;
}

bool fitLine(const std::vector<Sample>& samples, LinkModel* out, FitQuality* quality) {
  if (samples.empty()) return false;
  Sums m;
  for (const Sample& x : samples) {
    if (!(x.us > 0) || x.bytes < 0) return false;
    m.add(x);
  }
  double o, k;
  solve(m, flatSlope(samples.data(), samples.data() + samples.size()), &o, &k);
  LinkModel line = toLine(o, k);
  if (quality) {
    FitQuality q;
    double mean = m.t / m.w, sst = m.tt - 2 * mean * m.t + mean * mean * m.w, err = sse(m, o, k);
    q.r2 = sst > 1e-12 * m.tt ? 1 - err / sst : (err < 1e-9 * m.w ? 1 : 0);
    for (const Sample& x : samples) q.max_rel_err = std::max(q.max_rel_err, std::fabs(o + k * x.bytes - x.us) / x.us);
    *quality = q;
  }
  *out = line;
  return true;
}

bool fitPiecewise(std::vector<Sample> x, PiecewiseModel* out, int max_ranges, int min_per_range, double min_gain) {
  if (x.empty()) return false;
  for (const Sample& s : x)
    if (!(s.us > 0) || s.bytes < 0) return false;
  std::stable_sort(x.begin(), x.end(), [](const Sample& a, const Sample& b) { return a.bytes < b.bytes; });
  if (min_per_range < 1) min_per_range = 1;
  std::vector<Piece> pieces(1);
  pieces[0].b = 0;
  pieces[0].e = x.size();
  pieces[0].err = fitRange(x, 0, x.size(), &pieces[0].o, &pieces[0].k);
  // A fit within ~1% rms relative error is as good as the measurements; splitting further would fit noise.
  const double kGoodRms2 = 1e-4;
  while (static_cast<int>(pieces.size()) < max_ranges) {
    double total = 0;
    for (const Piece& p : pieces) total += p.err;
    if (total / x.size() < kGoodRms2) break;
    double best_gain = 0;
    size_t best_piece = 0, best_split = 0;
    Piece best_l{}, best_r{};
    for (size_t pi = 0; pi < pieces.size(); ++pi) {
      const Piece& p = pieces[pi];
      for (size_t i = p.b + min_per_range; i + min_per_range <= p.e; ++i) {
        if (x[i - 1].bytes == x[i].bytes) continue;  // never split equal sizes
        Piece l{p.b, i, 0, 0, 0}, r{i, p.e, 0, 0, 0};
        l.err = fitRange(x, l.b, l.e, &l.o, &l.k);
        r.err = fitRange(x, r.b, r.e, &r.o, &r.k);
        double gain = p.err - l.err - r.err;
        if (gain > best_gain) {
          best_gain = gain;
          best_piece = pi;
          best_split = i;
          best_l = l;
          best_r = r;
        }
      }
    }
    if (best_split == 0 || best_gain <= min_gain * total) break;
    pieces[best_piece] = best_r;
    pieces.insert(pieces.begin() + best_piece, best_l);
  }
  PiecewiseModel m;
  for (size_t pi = 0; pi < pieces.size(); ++pi) {
    const Piece& p = pieces[pi];
    ModelRange r;
    r.lo = pi == 0 ? 0 : m.ranges.back().hi;
    if (pi + 1 == pieces.size()) {
      r.hi = kSizeInf;
    } else {
      double a = std::max(1.0, x[p.e - 1].bytes), b = x[p.e].bytes;
      r.hi = static_cast<uint64_t>(std::llround(std::sqrt(a * b)));
      if (r.hi <= x[p.e - 1].bytes) r.hi = static_cast<uint64_t>(x[p.e - 1].bytes) + 1;
    }
    r.line = toLine(p.o, p.k);
    r.samples = static_cast<int>(p.e - p.b);
    std::vector<Sample> part(x.begin() + p.b, x.begin() + p.e);
    FitQuality q;
    LinkModel unused;
    fitLine(part, &unused, &q);
    r.r2 = q.r2;
    m.ranges.push_back(r);
  }
  *out = m;
  return true;
}

}  // namespace gshmem
