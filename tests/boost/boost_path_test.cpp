// Checks of the Boost.Math path on its own (no MPFR): the rounding routine on hand-made
// intervals, exact cases and limits, ties that only a side can break, the gelu_new table, the
// facts of docs/functions.md (computed at 40 digits elsewhere) and the identities
// f(x) − f(−x) = x, f′(x) + f′(−x) = 1 at ~100 digits.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gelucheck/common.hpp"
#include "gelucheck/facts.hpp"
#include "gelucheck/reference_boost.hpp"

#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/erf.hpp>

namespace gelucheck::boostref {
namespace {

constexpr Form kForms[] = {Form::tanh, Form::erf};
constexpr Quantity kQuantities[] = {Quantity::value, Quantity::derivative};

// Expects r to be exactly `want` (same encoding), decided.
void expect_rounds(const Approx& a, Format fmt, double want, const char* what) {
  const Rounded r = round_to(a, fmt);
  EXPECT_TRUE(same_bits(r.value, want))
      << what << " in " << name(fmt) << ": expected " << hexfloat(want) << ", got "
      << hexfloat(r.value);
  EXPECT_TRUE(r.decided) << what;
}

Approx exact(double v) { return {Real(v), Real(0), 0}; }

TEST(BoostRounding, TiesToEvenAndSides) {
  // 1 + 2^-53 is the midpoint of 1 and 1 + 2^-52: exact tie to even (1); a side breaks it.
  const Real mid = Real(1) + ldexp(Real(1), -53);
  expect_rounds({mid, Real(0), 0}, Format::binary64, 1.0, "exact tie above 1");
  expect_rounds({mid, ldexp(Real(1), -200), +1}, Format::binary64, 1 + 0x1p-52, "tie, side +1");
  expect_rounds({mid, ldexp(Real(1), -200), -1}, Format::binary64, 1.0, "tie, side -1");
  // 1 + 3·2^-53 is the midpoint of 1 + 2^-52 and 1 + 2^-51: to even (1 + 2^-51).
  expect_rounds({Real(1) + 3 * ldexp(Real(1), -53), Real(0), 0}, Format::binary64, 1 + 0x1p-51,
                "exact tie to the even neighbour above");
  // A symmetric interval around a midpoint is undecided.
  const Rounded r = round_to({mid, ldexp(Real(1), -200), 0}, Format::binary64);
  EXPECT_FALSE(r.decided);
  // Just off the midpoint by more than the error: decided.
  expect_rounds({mid + ldexp(Real(1), -150), ldexp(Real(1), -200), 0}, Format::binary64,
                1 + 0x1p-52, "above the midpoint");
  expect_rounds({-(mid - ldexp(Real(1), -150)), ldexp(Real(1), -200), 0}, Format::binary64, -1.0,
                "negative, below the midpoint");
}

TEST(BoostRounding, SubnormalsOverflowAndZeros) {
  // binary64: 0.75·2^-1074 rounds to 2^-1074; 0.25·2^-1074 to +0; 0.5·2^-1074 (tie) to 0.
  expect_rounds({ldexp(Real(3), -1076), Real(0), 0}, Format::binary64, 0x1p-1074, "3/4 ulp");
  expect_rounds({ldexp(Real(1), -1076), Real(0), 0}, Format::binary64, 0.0, "1/4 ulp");
  expect_rounds({-ldexp(Real(1), -1075), Real(0), 0}, Format::binary64, -0.0, "tie at -1/2 ulp");
  // binary16: least subnormal 2^-24, greatest finite 65504, overflow at >= 65520.
  expect_rounds(exact(0x1.8p-25), Format::binary16, 0x1p-24, "binary16 3/4 subnormal ulp");
  expect_rounds(exact(65519.0), Format::binary16, 65504.0, "binary16 below overflow");
  expect_rounds(exact(65520.0), Format::binary16, HUGE_VAL, "binary16 tie at overflow");
  expect_rounds(exact(-1e300), Format::binary32, -HUGE_VAL, "binary32 overflow");
  // 0.1 → binary16 0x1.998p-4; bfloat16 0x1.9ap-4; binary32 0x1.99999ap-4.
  expect_rounds(exact(0.1), Format::binary16, 0x1.998p-4, "0.1");
  expect_rounds(exact(0.1), Format::bfloat16, 0x1.9ap-4, "0.1");
  expect_rounds(exact(0.1), Format::binary32, 0x1.99999ap-4, "0.1");
  // Zeros keep their sign; an underflowed value keeps the side it lies on.
  expect_rounds(exact(-0.0), Format::binary64, -0.0, "-0");
  expect_rounds({Real(0), std::numeric_limits<Real>::min(), -1}, Format::binary16, -0.0,
                "underflow below 0");
}

TEST(BoostPath, ExactCasesAndLimits) {
  for (Form f : kForms) {
    for (Format fmt : {Format::binary64, Format::binary32, Format::binary16, Format::bfloat16}) {
      const char* fn = name(f).data();
      EXPECT_TRUE(same_bits(rounded(f, Quantity::value, 0.0, fmt).value, 0.0)) << fn;
      EXPECT_TRUE(same_bits(rounded(f, Quantity::value, -0.0, fmt).value, -0.0)) << fn;
      EXPECT_TRUE(same_bits(rounded(f, Quantity::derivative, 0.0, fmt).value, 0.5)) << fn;
      EXPECT_TRUE(same_bits(rounded(f, Quantity::derivative, -0.0, fmt).value, 0.5)) << fn;
      // Limits: value +inf / −0 (from below), derivative 1 / −0 (f′ < 0 for x < −0.752).
      EXPECT_TRUE(same_bits(rounded(f, Quantity::value, HUGE_VAL, fmt).value, HUGE_VAL)) << fn;
      EXPECT_TRUE(same_bits(rounded(f, Quantity::value, -HUGE_VAL, fmt).value, -0.0)) << fn;
      EXPECT_TRUE(same_bits(rounded(f, Quantity::derivative, HUGE_VAL, fmt).value, 1.0)) << fn;
      EXPECT_TRUE(same_bits(rounded(f, Quantity::derivative, -HUGE_VAL, fmt).value, -0.0)) << fn;
      for (Quantity q : kQuantities) EXPECT_TRUE(std::isnan(rounded(f, q, NAN, fmt).value)) << fn;
    }
    // Huge finite x: the value is x itself (the exact value is x·(1 − tiny), closer to x than
    // half an ulp), the derivative 1; at −DBL_MAX both are −0.
    const double big = std::numeric_limits<double>::max();
    EXPECT_TRUE(same_bits(rounded(f, Quantity::value, big, Format::binary64).value, big));
    EXPECT_TRUE(same_bits(rounded(f, Quantity::derivative, big, Format::binary64).value, 1.0));
    EXPECT_TRUE(same_bits(rounded(f, Quantity::value, -big, Format::binary64).value, -0.0));
    EXPECT_TRUE(same_bits(rounded(f, Quantity::derivative, -big, Format::binary64).value, -0.0));
  }
}

TEST(BoostPath, SubnormalInputsBreakTiesByTheSign) {
  // f(x) = x/2 + x·g(x) with 0 < x·g(x) ~ 0.4·x² far below 2^-1074: x/2 decides unless it is a
  // midpoint, and then the rounding goes toward +inf.
  for (Form f : kForms) {
    auto v = [&](double x) { return rounded(f, Quantity::value, x, Format::binary64); };
    EXPECT_TRUE(same_bits(v(0x1p-1074).value, 0x1p-1074));      // 0.5 ulp + → 1 ulp
    EXPECT_TRUE(same_bits(v(0x3p-1074).value, 0x2p-1074));      // 1.5 ulp + → 2 ulp
    EXPECT_TRUE(same_bits(v(-0x3p-1074).value, -0x1p-1074));     // −1.5 ulp + → −1 ulp
    EXPECT_TRUE(same_bits(v(-0x1p-1074).value, -0.0));          // −0.5 ulp + → −0
    EXPECT_TRUE(same_bits(v(0x1p-1060).value, 0x1p-1061));       // exact x/2, not a tie
    EXPECT_TRUE(v(-0x3p-1074).decided);
  }
}

TEST(BoostPath, GeluNewTable) {
  // docs/functions.md, "The textbook expressions": gelu_new (tanh form) to 5 decimals.
  const struct { double x, y; } table[] = {{-3.0, -0.00364}, {-1.0, -0.15881}, {0.0, 0.00000},
                                           {0.5, 0.34571},   {1.0, 0.84119},   {2.0, 1.95460}};
  for (const auto& t : table) {
    const double r = rounded(Form::tanh, Quantity::value, t.x, Format::binary64).value;
    EXPECT_LE(std::fabs(r - t.y), 0.5e-5) << "x = " << t.x << ": got " << hexfloat(r);
  }
}

// |a − b| for Real values with their bounds: true when the exact difference can be `want`.
bool close(const Real& a, const Real& b, double want, const Real& tol) {
  return abs(a - b - Real(want)) <= tol;
}

TEST(BoostPath, FactsOfTheDesignNotes) {
  // docs/functions.md (40-digit computation, printed to 17 significant digits). At a minimum,
  // f(x0 + δ) − f(x0) = O(δ²): x0 printed to 17 digits then rounded to double is δ <= 1e-16
  // away, which moves the value by ~|f″|·δ² ~ 1e-32; so the value must match to half a unit of
  // its 17th digit, 5e-18 (the printed values are read as decimal strings, not doubles).
  const Real tmin = evaluate(Form::tanh, Quantity::value, facts::argmin_tanh).v;
  const Real emin = evaluate(Form::erf, Quantity::value, facts::argmin_erf).v;
  const Real half_unit("5.000001e-18");
  EXPECT_LE(abs(tmin - Real("-0.17004075057125405")), half_unit) << tmin;
  EXPECT_LE(abs(emin - Real("-0.16997120747990366")), half_unit) << emin;
  // The derivative there is O(δ) with δ <= 2^-54: |f′| <= |f″|·2^-54 < 2^-53.
  EXPECT_LE(abs(evaluate(Form::tanh, Quantity::derivative, facts::argmin_tanh).v), Real(0x1p-53));
  EXPECT_LE(abs(evaluate(Form::erf, Quantity::derivative, facts::argmin_erf).v), Real(0x1p-53));
  // The gaps at their extrema (again stationary points): half a unit of the 17th digit.
  for (double s : {1.0, -1.0}) {
    const double x = s * facts::gap_value_x;
    const Real gap = evaluate(Form::tanh, Quantity::value, x).v -
                     evaluate(Form::erf, Quantity::value, x).v;
    EXPECT_LE(abs(abs(gap) - Real("4.7323552068728488e-4")), Real("5.000001e-21")) << gap;
    const double xd = s * facts::gap_deriv_x;
    const Real dgap = evaluate(Form::tanh, Quantity::derivative, xd).v -
                      evaluate(Form::erf, Quantity::derivative, xd).v;
    EXPECT_LE(abs(abs(dgap) - Real("8.6845183498591387e-4")), Real("5.000001e-21")) << dgap;
  }
}

TEST(BoostPath, IdentitiesAtHundredDigits) {
  // f(x) − f(−x) = x and f′(x) + f′(−x) = 1 hold exactly; each side carries its error bound.
  const Real slack = ldexp(Real(1), -290);
  for (Form f : kForms) {
    for (double x : {0x1p-60, 0.001, 0.3, -0.7525, 1.0, facts::gap_deriv_x, 3.5, 7.25, 19.0}) {
      const Approx a = evaluate(f, Quantity::value, x), b = evaluate(f, Quantity::value, -x);
      EXPECT_TRUE(close(a.v, b.v, x, a.err + b.err + slack * std::fabs(x)))
          << name(f) << " value at " << hexfloat(x) << ": " << (a.v - b.v - Real(x));
      const Approx c = evaluate(f, Quantity::derivative, x),
                   d = evaluate(f, Quantity::derivative, -x);
      EXPECT_LE(abs(c.v + d.v - 1), c.err + d.err + slack)
          << name(f) << " derivative at " << hexfloat(x) << ": " << (c.v + d.v - 1);
    }
  }
}

// The textbook definitions of docs/functions.md, straight, at Real: ½x(1 + tanh u) and
// ½x(1 + erf(x/√2)). Fine where 1 + tanh / 1 + erf does not cancel much (x > −6 loses at most
// ~20 of 334 bits).
Real textbook(Form f, const Real& x) {
  namespace bc = boost::math::constants;
  if (f == Form::tanh) {
    const Real u = bc::root_two_div_pi<Real>() * (x + Real(44715) / 1000000 * x * x * x);
    return x / 2 * (1 + tanh(u));
  }
  return x / 2 * (1 + boost::math::erf(x * bc::one_div_root_two<Real>()));
}

TEST(BoostPath, StableFormsMatchTheTextbookDefinitions) {
  // The value against the definition; the derivative against a central difference of the
  // definition, (f(x+h) − f(x−h))/2h with h = 2^-80: truncation |f‴|·h²/6 < 2^-160, rounding
  // ~2^-330/h = 2^-250. Tolerances 2^-200 (value, relative) and 2^-150 (derivative, absolute)
  // are far above both and far below anything a wrong formula would give.
  const Real h = ldexp(Real(1), -80);
  for (Form f : kForms) {
    for (double x : {-5.5, -3.0, -1.0, -0.7525, -0.1, 0x1p-30, 0.5, 1.0, facts::gap_deriv_x, 4.0,
                     9.0}) {
      const Real X(x);
      const Real v = evaluate(f, Quantity::value, x).v;
      EXPECT_LE(abs(v - textbook(f, X)), ldexp(Real(1), -200) * abs(v))
          << name(f) << " value at " << hexfloat(x);
      const Real d = (textbook(f, X + h) - textbook(f, X - h)) / (2 * h);
      EXPECT_LE(abs(evaluate(f, Quantity::derivative, x).v - d), ldexp(Real(1), -150))
          << name(f) << " derivative at " << hexfloat(x) << ": " << d;
    }
  }
}

}  // namespace
}  // namespace gelucheck::boostref
