// The fast paths of src/gelu_fast.cpp (detail::fast_only) against the MPFR reference and the
// long double kernel:
//  - binary32: wherever the fast path accepts, its result is the reference's correct rounding
//    (all accepted results of a 2^20 sample against the kernel's rounding, which is proved
//    correctly rounded by float_midpoint_test; a 2^14 subsample and the hard points against
//    ref::correctly_rounded directly);
//  - binary64 (tanh form): wherever it accepts, the result is faithful against ref::enclose;
//  - fallbacks happen (near the derivative's zero the cancellation factor makes the rounding
//    test fail; regions without a fast path return false) and scalar() then returns the kernel's
//    rounding, which is correct;
//  - exp_dd, the binary64 path's exponential, meets its claimed relative bound (MPFR).
// Every count printed here is quoted in docs/library.md.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "gelucheck/gelu_kernel.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"
#include "support.hpp"

namespace gelucheck::testing {
namespace {

// The 2^20-input sample: alternately any bit pattern and a uniform float in [-40, 24), then the
// hard points and the neighbourhood of each derivative zero (where fallbacks must happen).
std::vector<float> float_sample() {
  std::mt19937 rng(314159);  // fixed seed
  std::vector<float> xs;
  for (int n = 0; n < (1 << 20); ++n) {
    const std::uint32_t b = static_cast<std::uint32_t>(rng());
    xs.push_back(n & 1 ? std::ldexp(static_cast<float>(b >> 8) * 0x1p-24f, 6) - 40.0f : std::bit_cast<float>(b));
  }
  for (double x : hard_points()) xs.push_back(static_cast<float>(x));
  for (Form f : {Form::tanh, Form::erf}) {
    const float z = static_cast<float>(derivative_zero(f));
    float v = z;
    for (int k = 0; k < 64; ++k) v = std::nextafter(v, 0.0f), xs.push_back(v);
    v = z;
    for (int k = 0; k < 64; ++k) v = std::nextafter(v, -1.0f), xs.push_back(v);
    xs.push_back(z);
  }
  return xs;
}

// The region where gelu_fast.cpp evaluates (outside it, fast_only answers by a proved tail or
// declines on purpose): a fallback inside it is a rounding-test (or dynamic-bound) failure.
bool in_fast_region(const Fn& f, double x) {
  if (f.q == Quantity::value && std::fabs(x) < 0x1p-40) return false;
  return x >= -16 && x <= (f.form == Form::tanh ? 16 : 40);
}

TEST(LibraryFastPath, Binary32AcceptedResultsAreCorrectlyRounded) {
  const std::vector<float> xs = float_sample();
  for (const Fn& f : kFns) {
    long accepted = 0, fallback = 0, test_failed = 0, checked_ref = 0, i = 0;
    for (float x : xs) {
      ++i;
      float fast = 0;
      const bool ok = detail::fast_only(f.form, f.q, x, &fast);
      const float kernel = static_cast<float>(detail::accurate_kernel(f.form, f.q, x));
      const float got = eval(f, x);
      // scalar() returns the fast result when accepted, else the kernel's rounding.
      EXPECT_TRUE(same_bits(got, ok ? fast : kernel))
          << f.name << " input " << hex(x) << " scalar " << hex(got) << " fast " << hex(fast) << " ok " << ok;
      if (std::isnan(x)) continue;
      if (!ok) {
        ++fallback;
        if (in_fast_region(f, x)) ++test_failed;
        continue;
      }
      ++accepted;
      EXPECT_TRUE(same_bits(fast, kernel))
          << f.name << " input " << hex(x) << " kernel " << hex(kernel) << " fast " << hex(fast);
      if (i % 64 == 0 || i > (1 << 20)) {  // a 2^14 subsample and every hard point: the reference
        ++checked_ref;
        const double want = ref::correctly_rounded(f.form, f.q, x, Format::binary32);
        EXPECT_TRUE(same_bits(static_cast<double>(fast), want))
            << f.name << " binary32 input " << hex(x) << " expected " << hex(want) << " got " << hex(fast);
      }
    }
    std::printf("[measured] fast binary32 %-16s %ld accepted, %ld fallbacks (%ld of them rounding-test failures "
                "inside the fast region), %ld accepted results checked against MPFR\n",
                f.name, accepted, fallback, test_failed, checked_ref);
    EXPECT_GT(accepted, 500000) << f.name;
    // The derivative's zero: there the cancellation factor is unbounded and the test must fall back.
    if (f.q == Quantity::derivative) {
      float r;
      EXPECT_FALSE(detail::fast_only(f.form, f.q, static_cast<float>(derivative_zero(f.form)), &r)) << f.name;
      EXPECT_GT(test_failed, 0) << f.name;
    }
  }
}

// Fallback rate on the benchmark's distribution (x uniform in [-8, 8], bench_library's seed and
// generator), the figure that decides the speed: printed for docs/library.md.
TEST(LibraryFastPath, FallbackRateOnTheBenchmarkDistribution) {
  for (const Fn& f : kFns) {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> uni(-8, 8);
    long fb32 = 0, fb64 = 0;
    const long n = 1 << 20;
    for (long i = 0; i < n; ++i) {
      const double x = uni(rng);
      float r32;
      double r64;
      fb32 += !detail::fast_only(f.form, f.q, static_cast<float>(x), &r32);
      fb64 += !detail::fast_only(f.form, f.q, x, &r64);
    }
    std::printf("[measured] fallbacks on 2^20 x uniform in [-8, 8], %-16s binary32 %ld, binary64 %ld\n", f.name,
                fb32, fb64);
    EXPECT_LT(fb32, n / 1000) << f.name;  // the fast path is the common case
    EXPECT_LT(fb64, n / 1000) << f.name;
  }
}

// Inputs where a fallback is certain: the derivative's zero and its nearest neighbours (binary64
// cancellation factor L > 2^40: the dynamic bound exceeds 2^-20) of the tanh form (the erf form's
// binary64 derivative has a Taylor branch there), the tiny-|x| value branch, the binary64 tanh
// value below -21 and derivative below -16, and the binary64 erf form below -36.
// scalar() must then return the kernel's rounding, faithful against the reference.
TEST(LibraryFastPath, FallbacksAreTakenAndCorrect) {
  std::vector<std::pair<Fn, double>> cases;
  for (const Fn& f : kFns) {
    if (f.q == Quantity::derivative && f.form == Form::tanh)
      for (int k = -4; k <= 4; ++k) cases.push_back({f, derivative_zero(f.form) + k * 0x1p-53});
    if (f.q == Quantity::value)
      for (double x : {0x1p-41, -0x1p-41, 0x1p-1074, -0x1p-700}) cases.push_back({f, x});
    if (f.form == Form::erf)
      for (double x : {-36.5, std::nextafter(-36.0, -37.0), -37.5, -1e10}) cases.push_back({f, x});
  }
  cases.push_back({kFns[0], -25.0});  // tanh value below -21
  cases.push_back({kFns[1], -18.0});  // tanh derivative below -16
  for (const auto& [f, x] : cases) {
    double r;
    EXPECT_FALSE(detail::fast_only(f.form, f.q, x, &r)) << f.name << " input " << hex(x) << " accepted " << hex(r);
    const double got = eval(f, x);
    EXPECT_TRUE(same_bits(got, static_cast<double>(detail::accurate_kernel(f.form, f.q, x))));
    const Error e = measure(got, ref::enclose(f.form, f.q, x), Format::binary64);
    EXPECT_TRUE(e.ulp < 1 && !e.zero_sign_mismatch && !e.nan_mismatch)
        << f.name << " input " << hex(x) << " expected " << hex(ref::correctly_rounded(f.form, f.q, x, Format::binary64))
        << " got " << hex(got) << " (" << e.ulp << " ulp)";
  }
}

TEST(LibraryFastPath, Binary64AcceptedResultsAreFaithful) {
  std::mt19937_64 rng(2718);  // fixed seed
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  std::vector<double> xs = hard_points();
  for (int i = 0; i < 6000; ++i) xs.push_back(uni(-22, 17));
  for (int i = 0; i < 1000; ++i) xs.push_back(uni(-1, 1));
  for (int i = 0; i < 1000; ++i) xs.push_back(derivative_zero(Form::tanh) + uni(-1e-6, 1e-6));
  for (int i = 0; i < 300; ++i) xs.push_back(derivative_zero(Form::erf) + uni(-1e-6, 1e-6));
  for (int i = 0; i < 300; ++i) xs.push_back(derivative_zero(Form::erf) + uni(-0.15, 0.15));
  for (int i = 0; i < 500; ++i) xs.push_back(uni(-37, 37));
  for (int e = -40; e < 5; ++e) xs.push_back(std::ldexp(uni(1, 2), e)), xs.push_back(-std::ldexp(uni(1, 2), e));
  for (const Fn& f : kFns) {
    long accepted = 0, fallback = 0, not_cr = 0;
    double worst = 0, at = 0;
    for (double x : xs) {
      double r;
      if (!detail::fast_only(f.form, f.q, x, &r)) {
        ++fallback;
        continue;
      }
      ++accepted;
      EXPECT_TRUE(same_bits(r, eval(f, x))) << f.name << " input " << hex(x);
      const Error e = measure(r, ref::enclose(f.form, f.q, x), Format::binary64);
      EXPECT_TRUE(e.ulp < 1 && !e.zero_sign_mismatch && !e.nan_mismatch)
          << f.name << " binary64 input " << hex(x) << " expected "
          << hex(ref::correctly_rounded(f.form, f.q, x, Format::binary64)) << " got " << hex(r) << " (" << e.ulp
          << " ulp)";
      if (e.ulp > 0.5) ++not_cr;
      if (e.ulp > worst) worst = e.ulp, at = x;
    }
    std::printf("[measured] fast binary64 %-16s %ld accepted (max %.4f ulp at %s, %ld not correctly rounded), "
                "%ld fallbacks\n",
                f.name, accepted, worst, hex(at).c_str(), not_cr, fallback);
    // The sample puts 1000 points within 1e-6 of the tanh form's x0, where its derivative falls
    // back, and ~15% outside the binary64 tanh fast region [-21, 16] (value) / [-16, 16]
    // (derivative); the erf form's is [-36, +inf].
    EXPECT_GT(accepted, 5000) << f.name;
  }
}

// exp_dd against MPFR at 200 bits: relative error of hi + lo <= kFastExpRelBound on the claimed
// domain (results >= 2^-968, i.e. a >= -670, up to a <= 700), which contains the range the binary64
// tanh path uses (-t for -21 <= x <= 16: [-318, 694.3]). (Below 2^-968 the low part is subnormal:
// at a = -699.7 the relative error reaches 2^-65.6 — outside the claim, and unused.)
TEST(LibraryFastPath, ExpDoubleDoubleMeetsItsBound) {
  std::mt19937_64 rng(1618);  // fixed seed
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  Mpfr y(200), v(200), d(200);
  double worst = 0, at = 0;
  for (int i = 0; i < 40000; ++i) {
    const double hi = i % 4 == 0 ? uni(-670, 700) : i % 4 == 1 ? uni(-1, 1) : i % 4 == 2 ? uni(-318, 0) : uni(0, 50);
    const double lo = uni(-0.5, 0.5) * std::ldexp(1.0, std::ilogb(hi) - 52);  // |lo| <= ulp(hi)/2
    const constants::DoubleDouble e = detail::fast_exp_dd({hi, lo});
    mpfr_set_d(y, hi, MPFR_RNDN);
    mpfr_add_d(y, y, lo, MPFR_RNDN);  // exact at 200 bits
    mpfr_exp(y, y, MPFR_RNDN);
    mpfr_set_d(v, e.hi, MPFR_RNDN);
    mpfr_add_d(v, v, e.lo, MPFR_RNDN);
    mpfr_sub(d, v, y, MPFR_RNDN);
    mpfr_div(d, d, y, MPFR_RNDN);
    const double rel = std::fabs(mpfr_get_d(d, MPFR_RNDU));
    EXPECT_LE(rel, detail::kFastExpRelBound) << "exp_dd at " << hex(hi) << " + " << hex(lo) << ": relative " << rel;
    if (rel > worst) worst = rel, at = hi;
  }
  std::printf("[measured] exp_dd max relative error %.3g = 2^%.2f at %s (bound 2^-68)\n", worst, std::log2(worst),
              hex(at).c_str());
}

}  // namespace
}  // namespace gelucheck::testing
