// The exhaustive sweep's chunk fold (checking/src/fold_chunk.cpp's fold_chunk, vectorized, and
// facts.cpp's Facts::points) against the per-result calls it replaces (measure, fold,
// Facts::point, one result after the other: exhaustive::testing::ScopedScalarFold): the sweep's
// whole state (exhaustive::to_json: every region's statistics, the histogram, the plot envelope,
// the first breaks, the observations with their samples, the failures, the facts' ends) must be
// the same, bit for bit, for right subjects and wrong ones of every kind, under every rule of the
// claims (nearest, step, slack, none), over blocks that hold the special inputs (±0, subnormals,
// ±inf, the largest finite values), the region edges and the argmin — all but the exact sums of
// ulp errors and their squares, which add in another order: each block's sum (n <= 2^16
// nonnegative terms, a few dozen runs of a region) is within (n + 64)·2^-53 of its exact value
// either way, relative, so the two sweeps' sums differ by at most 2^-35 of the larger.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gelucheck/common.hpp"
#include "gelucheck/exhaustive.hpp"
#include "patterns.hpp"

namespace gelucheck::report {
namespace {

using json = nlohmann::ordered_json;

// Blocks of 2^16 patterns (a sweep's unit), each holding some of the inputs above: x from +0
// up (subnormals), from -0 down, up to +inf and the positive NaNs, down to -inf, around x = 1
// and x = 10 (region edges), -1, -10 and -38.6, and the argmin of both forms near -0.752.
std::vector<exhaustive::BitRange> ranges() {
  auto at = [](std::uint64_t lo) { return exhaustive::BitRange{lo, lo + exhaustive::kBlock}; };
  return {at(0x00000000), at(0x80000000), at(0x7f7f8000), at(0xff7f8000), at(0x3f7f8000),
          at(0x411f8000), at(0xbf7f8000), at(0xc11f8000), at(0xc21a0000), at(0xbf400000)};
}

exhaustive::Sweep sweep(const std::string& spec, const std::vector<std::string>& claims,
                        const exhaustive::BitRange& range, bool scalar) {
  exhaustive::SweepOptions so;
  so.report.subjects = {spec};
  so.report.claims = claims;
  so.report.threads = 1;
  so.range = range;
  so.cap = 20;
  if (!scalar) return exhaustive::run(so);
  exhaustive::testing::ScopedScalarFold hook;
  return exhaustive::run(so);
}

// The state without the run time, and the sums apart.
json state(const exhaustive::Sweep& s, std::vector<double>& sums) {
  json j = exhaustive::to_json(s);
  j.erase("seconds");
  for (json& f : j.at("functions")) {
    f.erase("ulp_sum");
    f.erase("ulp_sq_sum");
  }
  for (const exhaustive::FunctionSweep& f : s.fns)
    for (std::size_t r = 0; r < f.ulp_sum.size(); ++r) {
      sums.push_back(f.ulp_sum[r].value());
      sums.push_back(f.ulp_sq_sum[r].value());
    }
  return j;
}

void expect_same_sweep(const std::string& spec, const std::vector<std::string>& claims) {
  for (const exhaustive::BitRange& r : ranges()) {
    std::vector<double> fast_sums, scalar_sums;
    const json fast = state(sweep(spec, claims, r, false), fast_sums);
    const json scalar = state(sweep(spec, claims, r, true), scalar_sums);
    const std::string where = spec + " over " + exhaustive::range_text(r) +
                              (claims.empty() ? "" : " --claim " + claims.front());
    EXPECT_EQ(fast.dump(), scalar.dump()) << where;
    ASSERT_EQ(fast_sums.size(), scalar_sums.size()) << where;
    for (std::size_t k = 0; k < fast_sums.size(); ++k) {
      const double a = fast_sums[k], b = scalar_sums[k];
      if (std::isinf(a) || std::isinf(b)) EXPECT_EQ(a, b) << where;
      else EXPECT_LE(std::fabs(a - b), 0x1p-35 * std::max(a, b)) << where << " sum " << k;
    }
  }
}

// Right: the library's accurate path under its own claims (correctly rounded: the nearest
// rule) and as faithful (the step rule).
TEST(SweepFold, RightSubjectsFoldAsTheScalarCalls) {
  expect_same_sweep("accurate", {});
  expect_same_sweep("accurate", {"faithful"});
}

// Wrong everywhere or in places: every result two values away, +0 for -0, NaN at -inf, the
// other form, a mistyped constant, a missing half, a tail of every call on another path; the
// textbook formulas (flushes, NaN, wrong zeros) under no claim (the framework default: the slack
// rule), a loose ulp claim (slack) and faithful (step).
TEST(SweepFold, WrongSubjectsFoldAsTheScalarCalls) {
  expect_same_sweep("broken:away:2", {"faithful"});
  expect_same_sweep("broken:plus-zero", {"cr"});
  expect_same_sweep("broken:nan-at-minus-inf", {});
  expect_same_sweep("broken:erf-for-tanh", {"ulp:4"});
  expect_same_sweep("broken:constant-0.0447", {"faithful"});
  expect_same_sweep("broken:missing-half", {"cr"});
  expect_same_sweep("broken:vector-tail", {"faithful"});
  expect_same_sweep("naive", {});
  expect_same_sweep("naive", {"ulp:4"});
  expect_same_sweep("naive", {"faithful"});
}

// The sweep's inputs (patterns.cpp's fill_patterns, vectorized) against from_bits one pattern
// at a time, bit for bit: runs of every length up to a few vectors, at the ends of the ranges the
// sweep takes (from +0, from -0, up to +inf and -inf, where the NaNs begin), and a whole block.
TEST(SweepInputs, AreTheirPatternsValuesWidened) {
  const std::vector<std::pair<std::uint32_t, std::size_t>> runs = {
      {0x00000000u, 0},  {0x00000000u, 1},   {0x00000000u, 37}, {0x80000000u, 70},
      {0x7f7fffc0u, 65}, {0xff7fffc3u, 62},  {0x3f800000u, 16}, {0xbf7ffff1u, 33},
      {0x3f000000u, std::size_t{1} << 16}};
  for (const auto& [from, count] : runs) {
    std::vector<double> xs(count + 1, -1.0);
    std::vector<std::uint32_t> bits(count + 1, 7u);
    fill_patterns(from, count, xs.data(), bits.data());
    for (std::size_t k = 0; k < count; ++k) {
      const auto b = static_cast<std::uint32_t>(from + k);
      ASSERT_EQ(bits[k], b) << "run from " << from << ", element " << k;
      ASSERT_EQ(std::bit_cast<std::uint64_t>(xs[k]),
                std::bit_cast<std::uint64_t>(from_bits(b, Format::binary32)))
          << "run from " << from << ", element " << k;
    }
    EXPECT_EQ(xs[count], -1.0) << "written past the run from " << from;
    EXPECT_EQ(bits[count], 7u) << "written past the run from " << from;
  }
}

}  // namespace
}  // namespace gelucheck::report
