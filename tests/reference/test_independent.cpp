// The reference against an independent computation (independent.hpp: textbook formulas at a
// precision that outruns their cancellation, MPFR's own format emulation) at points across the
// ordinary range, both tails down past the underflow points, the derivative's zero and tiny
// inputs, in every format. Fixed seed.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "gelucheck/facts.hpp"
#include "gelucheck/reference.hpp"
#include "independent.hpp"

namespace gelucheck {
namespace {

std::vector<double> points(Form form) {
  std::mt19937_64 rng(20240602);
  std::vector<double> xs;
  std::uniform_real_distribution<double> mid(-8, 8), tail(form == Form::tanh ? -30 : -39.5, -8),
      big(8, 40);
  for (int i = 0; i < 60; ++i) xs.push_back(mid(rng));
  for (int i = 0; i < 30; ++i) xs.push_back(tail(rng));
  for (int i = 0; i < 8; ++i) xs.push_back(big(rng));
  // The derivative's zero (docs/functions.md argmins) and neighbours a few ulps away.
  const double argmin = facts::derivative_zero(form);
  for (int k = -3; k <= 3; ++k) xs.push_back(argmin + k * 0x1p-53);
  // Tiny inputs, where f(x) = x/2 + x²/√(2π) + … sits next to the boundary x/2.
  for (int e : {-1074, -1073, -1000, -600, -149, -133, -126, -100, -40, -24, -14, -3}) {
    xs.push_back(std::ldexp(1.0, e));
    xs.push_back(-std::ldexp(1.0, e));
    xs.push_back(std::ldexp(3.0, e));
    xs.push_back(-std::ldexp(3.0, e));
  }
  // The erf form's binary64 underflow point (docs/functions.md) and the tanh form's.
  for (double x : {facts::underflow_value_erf, std::nextafter(facts::underflow_value_erf, 0.0),
                   std::nextafter(facts::underflow_value_erf, -INFINITY), -21.5, -21.6})
    xs.push_back(x);
  return xs;
}

void check(Form form, Quantity q) {
  Mpfr y(64);
  int failures = 0;
  for (double x : points(form)) {
    testing::naive(y, form, q, x);
    for (Format fmt : all_formats) {
      const double expected = testing::round_independent(y, fmt);
      const double got = ref::correctly_rounded(form, q, x, fmt);
      if (!same_bits(expected, got) && ++failures <= 20)
        ADD_FAILURE() << name(form) << " " << name(q) << " in " << name(fmt)
                      << ": x = " << hexfloat(x) << " expected " << hexfloat(expected) << " got "
                      << hexfloat(got);
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(ReferenceIndependent, TanhValue) { check(Form::tanh, Quantity::value); }
TEST(ReferenceIndependent, TanhDerivative) { check(Form::tanh, Quantity::derivative); }
TEST(ReferenceIndependent, ErfValue) { check(Form::erf, Quantity::value); }
TEST(ReferenceIndependent, ErfDerivative) { check(Form::erf, Quantity::derivative); }

// The enclosure itself holds f(x): [lo, hi] from enclose() at widths 2^-60 and 2^-128 against the
// independent value (relative error < 2^-248, far inside either width), at the points above. A
// bound on the wrong side of f(x) by as little as 2^-200 relative fails, so this sees an
// interval operation whose bound is too tight even when every rounding still comes out right.
TEST(ReferenceIndependent, EnclosuresHoldTheValue) {
  MpfrRange wide;
  Mpfr y(256), slack(256);
  int failures = 0;
  for (Form form : {Form::tanh, Form::erf})
    for (Quantity q : {Quantity::value, Quantity::derivative})
      for (double x : points(form)) {
        testing::naive(y, form, q, x);
        mpfr_abs(slack, y, MPFR_RNDN);
        mpfr_mul_2si(slack, slack, -200, MPFR_RNDN);
        for (int bits : {60, 128}) {
          const ref::Enclosure e = ref::enclose(form, q, x, bits);
          Mpfr lo(mpfr_get_prec(e.lo()) + 256), hi(mpfr_get_prec(e.hi()) + 256);
          mpfr_sub(lo, e.lo(), slack, MPFR_RNDD);
          mpfr_add(hi, e.hi(), slack, MPFR_RNDU);
          if (!(mpfr_lessequal_p(lo, y) && mpfr_lessequal_p(y, hi)) && ++failures <= 20)
            ADD_FAILURE() << name(form) << " " << name(q) << " x = " << hexfloat(x) << " width 2^-"
                          << bits << ": the enclosure misses the independent value";
        }
      }
  EXPECT_EQ(failures, 0);
}

// Decimal output against the same independent values: 17 and 40 significant digits.
TEST(ReferenceIndependent, Decimal) {
  Mpfr y(64);
  for (Form form : {Form::tanh, Form::erf})
    for (Quantity q : {Quantity::value, Quantity::derivative})
      for (double x : {-30.0, -12.5, -3.0, -0.75, -0x1p-30, 0x1p-30, 0.5, 2.0, 7.25})
        for (int digits : {17, 40}) {
          testing::naive(y, form, q, x);
          mpfr_exp_t e = 0;
          char* s = mpfr_get_str(nullptr, &e, 10, static_cast<size_t>(digits), y, MPFR_RNDN);
          std::string str(s);
          mpfr_free_str(s);
          const std::string got = ref::decimal(form, q, x, digits);
          // got is "[-]d.ddd…e±N": strip to the digit string and compare, then the exponent.
          std::string gd;
          for (char ch : got.substr(0, got.find('e')))
            if (ch != '.') gd += ch;
          EXPECT_EQ(gd, str) << name(form) << " " << name(q) << " x = " << hexfloat(x);
          EXPECT_EQ(std::stol(got.substr(got.find('e') + 1)), static_cast<long>(e) - 1)
              << name(form) << " " << name(q) << " x = " << hexfloat(x);
        }
}

}  // namespace
}  // namespace gelucheck
