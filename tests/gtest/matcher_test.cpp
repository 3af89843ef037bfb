// The GoogleTest matchers of gelucheck/gtest.hpp, on values whose verdict is known without them:
// the MPFR reference's own correctly rounded results (which every matcher must accept) and their
// neighbours one and two ulps away (next_in), whose error against the exact value y lies in
// (0.5, 1.5] resp. (1.5, 2.5] ulp since the correctly rounded value is within 0.5 ulp of y (at a
// binade edge the ulp below is half as wide, which only makes those errors larger by at most
// a factor of 2; the points below are not at one).
#include <gtest/gtest-spi.h>

#include <cmath>
#include <limits>
#include <string>

#include "gelucheck/common.hpp"
#include "gelucheck/gtest.hpp"
#include "gelucheck/reference.hpp"

namespace gelucheck {
namespace {

using ::testing::Not;

constexpr GeluFunction kFns[] = {tanh_value, tanh_derivative, erf_value, erf_derivative};
constexpr double kXs[] = {-5.25, -0.75, 0x1.8p-20, 0.5, 1.25, 3.0, 7.5};

double cr(GeluFunction f, double x, Format fmt) {
  return ref::correctly_rounded(f.form, f.quantity, x, fmt);
}
double up(double v, Format fmt, int k) {
  for (int i = 0; i < k; ++i) v = next_in(fmt, v, INFINITY);
  return v;
}

// What the matcher says about a value, as EXPECT_THAT would print it.
template <class M, class T>
std::string explain(const M& m, T v) {
  ::testing::StringMatchResultListener l;
  ::testing::ExplainMatchResult(m, v, &l);
  return l.str();
}

TEST(GtestMatcher, AcceptsTheReferencesRoundingInDoubleAndFloat) {
  for (GeluFunction f : kFns)
    for (double x : kXs) {
      const double y = cr(f, x, Format::binary64);
      EXPECT_THAT(y, IsCorrectlyRounded(f, x));
      EXPECT_THAT(y, IsFaithful(f, x));
      EXPECT_THAT(y, IsWithinUlp(0.5, f, x));
      const float xf = static_cast<float>(x);  // the kXs are floats too
      const auto yf = static_cast<float>(cr(f, xf, Format::binary32));
      EXPECT_THAT(yf, IsCorrectlyRounded(f, xf));
      EXPECT_THAT(yf, IsFaithful(f, xf));
    }
}

TEST(GtestMatcher, RefusesOneAndTwoUlpsOff) {
  for (GeluFunction f : kFns)
    for (double x : kXs)
      for (Format fmt : {Format::binary64, Format::binary32}) {
        const double y = cr(f, x, fmt), y1 = up(y, fmt, 1), y2 = up(y, fmt, 2);
        SCOPED_TRACE(std::string(name(f.form)) + " " + std::string(name(f.quantity)) + " " +
                     std::string(name(fmt)) + " x = " + hexfloat(x));
        if (fmt == Format::binary32) {
          const auto f1 = static_cast<float>(y1), f2 = static_cast<float>(y2);
          const auto xf = static_cast<float>(x);
          EXPECT_THAT(f1, Not(IsCorrectlyRounded(f, xf)));
          EXPECT_THAT(f1, IsWithinUlp(1.5, f, xf));
          EXPECT_THAT(f2, Not(IsFaithful(f, xf)));
          EXPECT_THAT(f2, Not(IsWithinUlp(1.5, f, xf)));
          EXPECT_THAT(f2, IsWithinUlp(2.5, f, xf));
          continue;
        }
        EXPECT_THAT(y1, Not(IsCorrectlyRounded(f, x)));
        EXPECT_THAT(y1, IsWithinUlp(1.5, f, x));
        EXPECT_THAT(y2, Not(IsFaithful(f, x)));
        EXPECT_THAT(y2, Not(IsWithinUlp(1.5, f, x)));
        EXPECT_THAT(y2, IsWithinUlp(2.5, f, x));
      }
}

TEST(GtestMatcher, SixteenBitFormatsGivenExplicitly) {
  for (Format fmt : {Format::binary16, Format::bfloat16})
    for (double x : {-2.5, -0.75, 0.5, 3.0}) {
      const double y = cr(erf_value, x, fmt);
      EXPECT_THAT(y, IsCorrectlyRounded(erf_value, x, fmt));
      EXPECT_THAT(up(y, fmt, 1), Not(IsCorrectlyRounded(erf_value, x, fmt)));
      EXPECT_THAT(up(y, fmt, 2), Not(IsFaithful(erf_value, x, fmt)));
    }
}

TEST(GtestMatcher, NaNAndTheSignOfZero) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(nan, IsCorrectlyRounded(tanh_value, nan));
  EXPECT_THAT(0.0, Not(IsWithinUlp(1000, tanh_value, nan)));
  EXPECT_THAT(nan, Not(IsWithinUlp(1000, tanh_value, 1.0)));
  // gelu_erf(-40) = -40·Φ(-40) ≈ -1.5e-349 underflows to -0 in binary64 (below half the least
  // subnormal, -0x1p-1075, from x < -38.58: gelucheck/facts.hpp), so +0 has the wrong sign.
  ASSERT_TRUE(std::signbit(cr(erf_value, -40.0, Format::binary64)));
  EXPECT_THAT(-0.0, IsCorrectlyRounded(erf_value, -40.0));
  EXPECT_THAT(0.0, Not(IsFaithful(erf_value, -40.0)));
  EXPECT_THAT(explain(IsFaithful(erf_value, -40.0), 0.0), ::testing::HasSubstr("wrong sign"));
}

// The failure message names x, the result and the correctly rounded value in C99 hex, and the
// error; the expected figures are the reference's and next_in's, printed by hexfloat.
TEST(GtestMatcher, FailureMessageGivesXGotExpectedAndTheError) {
  const double x = 1.25, y = cr(tanh_value, x, Format::binary64), y2 = up(y, Format::binary64, 2);
  const std::string why = explain(IsCorrectlyRounded(tanh_value, x), y2);
  EXPECT_NE(why.find("x = " + hexfloat(x)), std::string::npos) << why;
  EXPECT_NE(why.find("got " + hexfloat(y2)), std::string::npos) << why;
  EXPECT_NE(why.find("expected " + hexfloat(y)), std::string::npos) << why;
  EXPECT_NE(why.find(" ulp"), std::string::npos) << why;

  // And EXPECT_THAT itself fails with it (a failure caught by GoogleTest's own reporter).
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter catcher(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    EXPECT_THAT(y2, IsFaithful(tanh_value, x));
    EXPECT_THAT(y, IsFaithful(tanh_value, x));
  }
  ASSERT_EQ(failures.size(), 1);
  const std::string msg = failures.GetTestPartResult(0).message();
  EXPECT_NE(msg.find("faithful"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected " + hexfloat(y)), std::string::npos) << msg;
}

}  // namespace
}  // namespace gelucheck
