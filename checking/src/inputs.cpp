// The campaign's inputs: random bit patterns, a dense grid, the hard points, the specials.
// Deterministic in the seed on every platform: splitmix64 and integer arithmetic only (no std::
// distributions, whose output is not specified across standard libraries).
#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include "gelucheck/facts.hpp"
#include "gelucheck/regions.hpp"
#include "gelucheck/subject.hpp"
#include "internal.hpp"

namespace gelucheck::report {
namespace {

// splitmix64 (Steele, Lea, Flood 2014), the reference constants.
struct SplitMix64 {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }
};

// A finite value drawn uniformly over the finite encodings of the format (both signs, every binade
// equally likely, subnormals and zeros included): draw bits, reject inf/NaN exponents.
double random_finite(Format fmt, SplitMix64& g) {
  for (;;) {
    const std::uint64_t b = g.next();
    if (fmt == Format::binary64) {
      if (((b >> 52) & 0x7ff) == 0x7ff) continue;
      return std::bit_cast<double>(b);
    }
    const auto b32 = static_cast<std::uint32_t>(b >> 32);
    if (((b32 >> 23) & 0xff) == 0xff) continue;
    return static_cast<double>(std::bit_cast<float>(b32));
  }
}

// The hard points of docs/functions.md (gelucheck/facts.hpp, the one home of them, with the binary32
// ones for binary32) and the edges of the formats and of the regions; each is rounded to the
// format and taken with its two neighbours on each side.
std::vector<double> hard_points(Format fmt) {
  const FormatInfo fi = info(fmt);
  const double max_finite = fmt == Format::binary64 ? DBL_MAX : static_cast<double>(FLT_MAX);
  const double min_normal = std::ldexp(1.0, fi.emin);
  const double min_sub = std::ldexp(1.0, fi.emin - fi.precision + 1);
  std::vector<double> centres;
  if (fmt == Format::binary64)
    for (const facts::Point& p : facts::hard_points) centres.push_back(p.x);
  else
    for (const facts::Point32& p : facts::hard_points32) centres.push_back(static_cast<double>(p.x));
  for (double c : kRegionEdges) centres.push_back(c);
  for (double c : {
           -3.0, -0.5, 0.5, 2.0,  // the gelu_new table (docs/functions.md, "The textbook expressions")
           -20.0,                 // PyTorch's float64 erf form returns -0.0 here (docs/functions.md)
           max_finite, -max_finite, min_normal, -min_normal, min_sub, -min_sub})
    centres.push_back(c);
  std::vector<double> out;
  for (double c : centres) {
    const double x = round_to_format(c, fmt);
    double lo = x, hi = x;
    for (int k = 0; k < 2; ++k) {
      lo = next_in(fmt, lo, -INFINITY);
      hi = next_in(fmt, hi, INFINITY);
    }
    for (double y = lo;; y = next_in(fmt, y, INFINITY)) {
      if (std::isfinite(y)) out.push_back(y);
      if (y == hi || !std::isfinite(y)) break;
    }
  }
  return out;
}

// Runs of consecutive values of the format, for the monotonicity the facts check over adjacent
// pairs of results (facts.cpp): random points almost never fall inside one of the flat stretches
// that cancellation leaves (a float erf form computed as 0.5·x·(1 + erff(x/√2)) reverses by up to
// 3.5 % of the value between neighbours in the negative tail). 16 runs spread over the negative
// tail [U, -1], U the erf value's underflow point of the format (below it both forms are ±0 or
// subnormal), and one run at each of 9 places across the regions of x (one across the argmin,
// whose pairs straddling it are not checked), each start moved by a seeded fraction of its slot.
// Each run has points/400 values (8 to 128): at the default 50,000 points 3,125 inputs more
// per format, 6 %.
constexpr int kTailRuns = 16;
constexpr double kRunPlaces[] = {-50.0, -20.0, -0.75, -0.3, 0.3, 1.5, 5.0, 20.0, 1e4};
std::size_t run_length(std::size_t points) { return std::clamp<std::size_t>(points / 400, 8, 128); }
std::size_t run_inputs(std::size_t points) {
  return (kTailRuns + std::size(kRunPlaces)) * run_length(points);
}
std::vector<double> runs(Format fmt, SplitMix64& g, std::size_t points) {
  const std::size_t len = run_length(points);
  auto unit = [&g] { return static_cast<double>(g.next() >> 11) * 0x1p-53; };  // [0, 1)
  std::vector<double> starts;
  const double U = fmt == Format::binary64 ? facts::underflow_value_erf
                                           : static_cast<double>(facts::f32_underflow_value_erf);
  for (int i = 0; i < kTailRuns; ++i) starts.push_back(U + (i + unit()) * (-1 - U) / kTailRuns);
  for (double c : kRunPlaces) starts.push_back(c * (1 + 0.1 * unit()));
  std::vector<double> out;
  for (double s : starts) {
    double x = round_to_format(s, fmt);
    for (std::size_t k = 0; k < len; ++k, x = next_in(fmt, x, INFINITY)) out.push_back(x);
  }
  return out;
}

}  // namespace


std::vector<double> inputs(Format fmt, std::uint64_t seed, std::size_t points,
                           InputCounts* counts) {
  const std::vector<double> hard = hard_points(fmt);
  const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, std::numeric_limits<double>::quiet_NaN()};
  std::vector<double> xs;
  if (fmt == Format::binary16 || fmt == Format::bfloat16) {
    // Exhaustive: every non-NaN bit pattern in pattern order, then one NaN (the formats' NaN
    // payloads travel as the default NaN: results are compared with NaNs equal).
    std::size_t n_special = 0;
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
      const double v = from_bits(b, fmt);
      if (std::isnan(v)) continue;
      if (std::isinf(v) || v == 0) ++n_special;
      xs.push_back(v);
    }
    xs.push_back(std::numeric_limits<double>::quiet_NaN());
    if (counts) *counts = {0, 0, 0, n_special + 1, xs.size()};
    return xs;
  }
  // Exactly what is needed (8 bytes a point: estimate() counts on it), not a doubling vector's
  // up to twice as much.
  xs.reserve(points + hard.size() + std::size(specials) + run_inputs(points));
  // Independent streams per format from one seed.
  SplitMix64 g{seed ^ (fmt == Format::binary64 ? 0x6a09e667f3bcc908u : 0xbb67ae8584caa73bu)};
  const std::size_t n_random = points / 2, n_grid = points - points / 2;
  for (std::size_t i = 0; i < n_random; ++i) xs.push_back(random_finite(fmt, g));
  // Uniform grid over [-40, 10]: x_i = -40 + 50 i / (n-1), rounded to the format. The spacing
  // (50/n) is far above the ulp of the format there, so the points are distinct.
  for (std::size_t i = 0; i < n_grid; ++i) {
    const double t = n_grid == 1 ? 0.0 : 50.0 * static_cast<double>(i) / static_cast<double>(n_grid - 1);
    xs.push_back(round_to_format(-40.0 + t, fmt));
  }
  xs.insert(xs.end(), hard.begin(), hard.end());
  xs.insert(xs.end(), std::begin(specials), std::end(specials));
  SplitMix64 gr{seed ^ (fmt == Format::binary64 ? 0x3c6ef372fe94f82bu : 0xa54ff53a5f1d36f1u)};
  const std::vector<double> run = runs(fmt, gr, points);
  xs.insert(xs.end(), run.begin(), run.end());
  if (counts) {
    *counts = {n_random, n_grid, hard.size(), std::size(specials), xs.size(), run.size()};
  }
  return xs;
}

}  // namespace gelucheck::report
