// Unit tests of the cost model fits (src/core/select/cost_model.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/select/cost_model.hpp"

namespace gshmem {
namespace {

/// Sizes 8 B .. 256 MiB by powers of two, times from @p truth with multiplicative noise of +-@p noise.
std::vector<Sample> synth(const PiecewiseModel& truth, double noise, unsigned seed = 7) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-noise, noise);
  std::vector<Sample> s;
  for (uint64_t b = 8; b <= (256ull << 20); b *= 2) s.push_back({double(b), truth.predictUs(b) * (1 + u(rng))});
  return s;
}

TEST(CostModel, PredictIsOverheadPlusSizeOverBandwidth) {
  LinkModel m{2.0, 10.0};  // 10 GB/s = 10^4 bytes per µs
  EXPECT_DOUBLE_EQ(m.predictUs(0), 2.0);
  EXPECT_DOUBLE_EQ(m.predictUs(1e4), 3.0);
}

TEST(CostModel, FitLineRecoversKnownParametersWithNoise) {
  LinkModel truth{3.7, 395};
  std::vector<Sample> s = synth(PiecewiseModel::single(truth), 0.03);
  LinkModel fit;
  FitQuality q;
  ASSERT_TRUE(fitLine(s, &fit, &q));
  EXPECT_NEAR(fit.overhead_us, 3.7, 3.7 * 0.05);
  EXPECT_NEAR(fit.bandwidth_GBps, 395, 395 * 0.05);
  EXPECT_GT(q.r2, 0.99);
  EXPECT_LT(q.max_rel_err, 0.08);
}

TEST(CostModel, FitLineExactWithoutNoise) {
  LinkModel truth{0.5, 12};
  LinkModel fit;
  ASSERT_TRUE(fitLine(synth(PiecewiseModel::single(truth), 0), &fit));
  EXPECT_NEAR(fit.overhead_us, 0.5, 1e-9);
  EXPECT_NEAR(fit.bandwidth_GBps, 12, 1e-6);
}

TEST(CostModel, FitLineRejectsBadInput) {
  LinkModel fit;
  EXPECT_FALSE(fitLine({}, &fit));
  EXPECT_FALSE(fitLine({{8, 0}}, &fit));
  EXPECT_FALSE(fitLine({{8, -1}}, &fit));
}

TEST(CostModel, FlatTimesExtrapolateConservatively) {
  // Time does not grow with size: the slope is the largest sample's time per byte (32 B per µs), so the line
  // never predicts the largest size faster than measured and does not win every size past the samples.
  LinkModel fit;
  ASSERT_TRUE(fitLine({{8, 1.0}, {16, 1.0}, {32, 1.0}}, &fit));
  EXPECT_NEAR(fit.bandwidth_GBps, 0.032, 1e-12);
  EXPECT_GE(fit.predictUs(32), 1.0);
  EXPECT_GE(fit.overhead_us, 0.0);
  EXPECT_GT(fit.predictUs(1 << 20), 1000.0);
}

TEST(CostModel, PiecewiseFitFindsTheCutoff) {
  // Latency-bound to 64 KiB, then a slower bandwidth with a larger overhead (e.g. a protocol switch inside a
  // transport): a 2-range truth with a cutoff at 64 KiB.
  PiecewiseModel truth;
  truth.ranges = {{0, 65536, {0.2, 20}, 0, 1}, {65536, kSizeInf, {10.0, 8}, 0, 1}};
  ASSERT_TRUE(truth.valid());
  PiecewiseModel fit;
  ASSERT_TRUE(fitPiecewise(synth(truth, 0.02), &fit));
  ASSERT_TRUE(fit.valid());
  ASSERT_EQ(fit.ranges.size(), 2u);
  // The boundary lies between the samples around the true cutoff (32K..128K, geometric midpoints).
  EXPECT_GE(fit.ranges[0].hi, 32768u);
  EXPECT_LE(fit.ranges[0].hi, 131072u);
  EXPECT_NEAR(fit.ranges[1].line.bandwidth_GBps, 8, 8 * 0.05);
  EXPECT_NEAR(fit.ranges[0].line.overhead_us, 0.2, 0.2 * 0.1);
  EXPECT_GT(fit.ranges[1].r2, 0.99);
  EXPECT_EQ(fit.ranges[0].samples + fit.ranges[1].samples, 26);
}

TEST(CostModel, PiecewiseFitKeepsOneRangeForALine) {
  PiecewiseModel fit;
  ASSERT_TRUE(fitPiecewise(synth(PiecewiseModel::single({1.0, 50}), 0.005), &fit));
  EXPECT_EQ(fit.ranges.size(), 1u);
  EXPECT_TRUE(fit.valid());
}

TEST(CostModel, PiecewiseFitAtMostMaxRanges) {
  PiecewiseModel truth;
  truth.ranges = {{0, 4096, {0.1, 40}, 0, 1},
                  {4096, 1 << 20, {2, 10}, 0, 1},
                  {1 << 20, 64 << 20, {200, 4}, 0, 1},
                  {64 << 20, kSizeInf, {0, 2}, 0, 1}};
  PiecewiseModel fit;
  ASSERT_TRUE(fitPiecewise(synth(truth, 0.01), &fit, 3));
  EXPECT_LE(fit.ranges.size(), 3u);
  EXPECT_TRUE(fit.valid());
  ASSERT_TRUE(fitPiecewise(synth(truth, 0.01), &fit, 1));
  EXPECT_EQ(fit.ranges.size(), 1u);
}

}  // namespace
}  // namespace gshmem
