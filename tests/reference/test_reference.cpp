// The reference: gelu_new's table, docs/functions.md facts, specials and limits, exact cases, the traps of
// docs/reference.md with hand-derived results, each format's rounding, the precision cap.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <random>
#include <string>

#include <mpfr.h>

#include "gelucheck/facts.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"

namespace gelucheck {
namespace {

using ref::correctly_rounded;
constexpr Quantity V = Quantity::value;
constexpr Quantity D = Quantity::derivative;

#define EXPECT_BITS(expected, got) \
  EXPECT_TRUE(same_bits(static_cast<double>(expected), static_cast<double>(got))) << "expected " << hexfloat(static_cast<double>(expected)) << " got " << hexfloat(static_cast<double>(got))

// docs/functions.md, "The textbook expressions": gelu_new (tanh form) to 5 decimals.
TEST(Reference, GeluNewTable) {
  const double xs[] = {-3, -1, 0, 0.5, 1, 2};
  const long hundred_thousandths[] = {-364, -15881, 0, 34571, 84119, 195460};
  for (int i = 0; i < 6; ++i) {
    const double r = correctly_rounded(Form::tanh, V, xs[i], Format::binary64);
    EXPECT_EQ(std::lround(r * 1e5), hundred_thousandths[i]) << "x = " << xs[i];
  }
}

// docs/functions.md (40-digit computations made elsewhere): the minima of both forms.
TEST(Reference, MinimaAtTheArgmins) {
  struct {
    Form form;
    double argmin, min;
  } cases[] = {{Form::tanh, facts::argmin_tanh, facts::min_tanh},
               {Form::erf, facts::argmin_erf, facts::min_erf}};
  for (auto c : cases) {
    const double v = correctly_rounded(c.form, V, c.argmin, Format::binary64);
    // The double nearest the argmin moves the value by f''·δ²/2 < 1e-32: within 1 ulp of the
    // 17-digit figure (itself within 1/2 ulp of the true minimum).
    EXPECT_LE(std::fabs(v - c.min), 0x1p-55) << name(c.form) << " " << hexfloat(v);
    // The derivative changes sign across the argmin, and the value there is a local minimum.
    const double h = 1e-6;
    EXPECT_LT(correctly_rounded(c.form, D, c.argmin - h, Format::binary64), 0);
    EXPECT_GT(correctly_rounded(c.form, D, c.argmin + h, Format::binary64), 0);
    EXPECT_GT(correctly_rounded(c.form, V, c.argmin - h, Format::binary64), v);
    EXPECT_GT(correctly_rounded(c.form, V, c.argmin + h, Format::binary64), v);
  }
}

double gap(Quantity q, double x) {
  // The difference of the two 128-bit enclosures, taken in MPFR (no cancellation in doubles).
  const ref::Enclosure t = ref::enclose(Form::tanh, q, x), e = ref::enclose(Form::erf, q, x);
  Mpfr d(200);
  mpfr_sub(d, t.lo(), e.lo(), MPFR_RNDN);
  const double r = mpfr_get_d(d, MPFR_RNDN);
  return std::fabs(r);
}

// docs/functions.md: sup |gelu_tanh − gelu_erf| and sup |gelu_tanh′ − gelu_erf′|.
TEST(Reference, GapSuprema) {
  const double xv = facts::gap_value_x, xd = facts::gap_deriv_x;
  const double sv = facts::gap_value_sup, sd = facts::gap_deriv_sup;
  EXPECT_NEAR(gap(V, xv), sv, sv * 1e-14);
  EXPECT_NEAR(gap(V, -xv), sv, sv * 1e-14);  // even
  EXPECT_NEAR(gap(D, xd), sd, sd * 1e-14);
  EXPECT_NEAR(gap(D, -xd), sd, sd * 1e-14);  // odd
  EXPECT_LE(sv, facts::gap_value_sup_up);    // the rounded-up bounds the properties use
  EXPECT_LE(sd, facts::gap_deriv_sup_up);
  for (double h : {1e-3, -1e-3}) {  // local maxima
    EXPECT_LT(gap(V, xv + h), gap(V, xv));
    EXPECT_LT(gap(D, xd + h), gap(D, xd));
  }
}

// docs/functions.md: the erf form's binary64 result is below half the least subnormal for
// x < -38.580140223782359. Just above that point the result is -2^-1074; just below, -0.
TEST(Reference, ErfUnderflowPoint) {
  const double x = facts::underflow_value_erf;
  EXPECT_BITS(-0x1p-1074, correctly_rounded(Form::erf, V, x, Format::binary64));
  EXPECT_BITS(-0x1p-1074, correctly_rounded(Form::erf, V, std::nextafter(x, 0.0), Format::binary64));
  const double below = std::nextafter(std::nextafter(x, -INFINITY), -INFINITY);
  EXPECT_BITS(-0.0, correctly_rounded(Form::erf, V, below, Format::binary64));
}

// Every underflow point of facts.hpp is RN of the real x where |f(x)| is half the least subnormal
// (f < 0 there, and |f| grows toward 0): the neighbour toward 0 gives -(least subnormal), the one
// away from 0 gives -0, in its own format.
TEST(Reference, AllUnderflowPointsOfTheFacts) {
  struct Case {
    Form form;
    Quantity q;
    double x;
    Format fmt;
  } cases[] = {{Form::tanh, V, facts::underflow_value_tanh, Format::binary64},
               {Form::erf, V, facts::underflow_value_erf, Format::binary64},
               {Form::tanh, D, facts::underflow_deriv_tanh, Format::binary64},
               {Form::erf, D, facts::underflow_deriv_erf, Format::binary64},
               {Form::tanh, V, facts::f32_underflow_value_tanh, Format::binary32},
               {Form::erf, V, facts::f32_underflow_value_erf, Format::binary32},
               {Form::tanh, D, facts::f32_underflow_deriv_tanh, Format::binary32},
               {Form::erf, D, facts::f32_underflow_deriv_erf, Format::binary32}};
  for (const Case& c : cases) {
    const bool f32 = c.fmt == Format::binary32;
    auto next = [&](double x, double to) {
      return f32 ? static_cast<double>(std::nextafter(static_cast<float>(x), static_cast<float>(to)))
                 : std::nextafter(x, to);
    };
    const double least = f32 ? 0x1p-149 : 0x1p-1074;
    EXPECT_BITS(-least, correctly_rounded(c.form, c.q, next(c.x, 0.0), c.fmt))
        << name(c.form) << " " << name(c.q) << " " << name(c.fmt) << " at " << hexfloat(c.x);
    EXPECT_BITS(-0.0, correctly_rounded(c.form, c.q, next(c.x, -INFINITY), c.fmt))
        << name(c.form) << " " << name(c.q) << " " << name(c.fmt) << " at " << hexfloat(c.x);
  }
}

// facts::cube_overflow and f32_cube_overflow are cbrt(max finite) rounded to nearest (MPFR).
TEST(Reference, CubeOverflowPointsOfTheFacts) {
  Mpfr c(200);
  mpfr_set_d(c, DBL_MAX, MPFR_RNDN);
  mpfr_cbrt(c, c, MPFR_RNDN);
  EXPECT_BITS(mpfr_get_d(c, MPFR_RNDN), facts::cube_overflow);
  mpfr_set_d(c, static_cast<double>(FLT_MAX), MPFR_RNDN);
  mpfr_cbrt(c, c, MPFR_RNDN);
  EXPECT_BITS(mpfr_get_flt(c, MPFR_RNDN), facts::f32_cube_overflow);
}

TEST(Reference, SpecialsAndExactCases) {
  for (Form form : {Form::tanh, Form::erf})
    for (Format fmt : all_formats) {
      EXPECT_TRUE(std::isnan(correctly_rounded(form, V, NAN, fmt)));
      EXPECT_TRUE(std::isnan(correctly_rounded(form, D, NAN, fmt)));
      EXPECT_BITS(INFINITY, correctly_rounded(form, V, INFINITY, fmt));
      EXPECT_BITS(-0.0, correctly_rounded(form, V, -INFINITY, fmt));   // f < 0 for x < 0
      EXPECT_BITS(1.0, correctly_rounded(form, D, INFINITY, fmt));
      EXPECT_BITS(-0.0, correctly_rounded(form, D, -INFINITY, fmt));   // f' < 0 for x <= -1
      EXPECT_BITS(0.0, correctly_rounded(form, V, 0.0, fmt));
      EXPECT_BITS(-0.0, correctly_rounded(form, V, -0.0, fmt));
      EXPECT_BITS(0.5, correctly_rounded(form, D, 0.0, fmt));
      EXPECT_BITS(0.5, correctly_rounded(form, D, -0.0, fmt));
    }
  for (Form form : {Form::tanh, Form::erf}) {
    EXPECT_EQ(ref::decimal(form, V, NAN, 5), "nan");
    EXPECT_EQ(ref::decimal(form, V, INFINITY, 5), "inf");
    EXPECT_EQ(ref::decimal(form, V, -INFINITY, 5), "-0");
    EXPECT_EQ(ref::decimal(form, V, -0.0, 5), "-0");
    EXPECT_EQ(ref::decimal(form, V, 0.0, 5), "0");
    EXPECT_EQ(ref::decimal(form, D, 0.0, 5), "5.0000e-01");
    EXPECT_EQ(ref::decimal(form, D, 0.0, 1), "5e-01");
    EXPECT_EQ(ref::decimal(form, D, INFINITY, 3), "1.00e+00");
    const ref::Enclosure z = ref::enclose(form, D, 0.0);
    EXPECT_TRUE(mpfr_equal_p(z.lo(), z.hi()));
    EXPECT_EQ(mpfr_cmp_d(z.lo(), 0.5), 0);
  }
  EXPECT_EQ(ref::decimal(Form::tanh, V, 2.0, 6), "1.95460e+00");
  EXPECT_EQ(ref::decimal(Form::tanh, V, -3.0, 3), "-3.64e-03");
  EXPECT_THROW(ref::decimal(Form::tanh, V, 1.0, 0), std::invalid_argument);
  EXPECT_THROW(ref::decimal(Form::tanh, V, 1.0, 10001), std::invalid_argument);
}

// Trap a): f(x) = x/2 + x²/√(2π) + … for both forms, so f(x) lies just above |x|/2 in
// magnitude for x > 0 and just below for x < 0 (x² > 0 adds to x/2 whatever x's sign).
TEST(Reference, TinyInputsNextToMidpoints) {
  struct {
    Format fmt;
    double least;  // least subnormal: 2^(emin - p + 1)
  } fs[] = {{Format::binary64, 0x1p-1074}, {Format::binary32, 0x1p-149},
            {Format::binary16, 0x1p-24}, {Format::bfloat16, 0x1p-133}};
  for (Form form : {Form::tanh, Form::erf})
    for (auto f : fs) {
      const double s = f.least;
      // x = s: f ≈ s/2 (the midpoint between 0 and s), just above → s; x = -s: just below → -0.
      EXPECT_BITS(s, correctly_rounded(form, V, s, f.fmt));
      EXPECT_BITS(-0.0, correctly_rounded(form, V, -s, f.fmt));
      // x = 3s: f ≈ 1.5s (midpoint of s and 2s), above → 2s; x = -3s: below → -s.
      EXPECT_BITS(2 * s, correctly_rounded(form, V, 3 * s, f.fmt));
      EXPECT_BITS(-s, correctly_rounded(form, V, -3 * s, f.fmt));
      // Derivative 1/2 ± O(s): 1/2 is representable, not a boundary.
      EXPECT_BITS(0.5, correctly_rounded(form, D, s, f.fmt));
      EXPECT_BITS(0.5, correctly_rounded(form, D, -s, f.fmt));
    }
  // A normal midpoint of binary32: x/2 = (1 + 2^-24)·2^-100, between 1 and 1 + 2^-23 (×2^-100);
  // ties-to-even would give 1·2^-100, the truth above gives the odd neighbour.
  const double x = (1 + 0x1p-24) * 0x1p-99;
  EXPECT_BITS((1 + 0x1p-23) * 0x1p-100, correctly_rounded(Form::tanh, V, x, Format::binary32));
  EXPECT_BITS(-0x1p-100, correctly_rounded(Form::erf, V, -x, Format::binary32));
}

// Trap b): for huge x > 0, f(x) = x·(1 - ε) with ε far below MPFR's range (or needing ~10^13 bits
// to see): the truth is strictly below x, so a midpoint x rounds DOWN.
TEST(Reference, HugeInputsAtMidpoints) {
  for (Form form : {Form::tanh, Form::erf}) {
    // binary16: 65520 = (2 - 2^-11)·2^15 is the overflow threshold; f(65520) < 65520 → 65504.
    EXPECT_BITS(65504.0, correctly_rounded(form, V, 65520, Format::binary16));
    EXPECT_BITS(INFINITY, correctly_rounded(form, V, 65536, Format::binary16));  // f > 65520
    // binary32 and bfloat16 overflow thresholds (2 - 2^-p)·2^127 → the largest finite value.
    EXPECT_BITS((2 - 0x1p-23) * 0x1p127,
                correctly_rounded(form, V, (2 - 0x1p-24) * 0x1p127, Format::binary32));
    EXPECT_BITS((2 - 0x1p-7) * 0x1p127,
                correctly_rounded(form, V, (2 - 0x1p-8) * 0x1p127, Format::bfloat16));
    // An ordinary binary32 midpoint: 10000001.5 lies between 10000001 and 10000002 (even);
    // the truth below it → 10000001.
    EXPECT_BITS(10000001.0, correctly_rounded(form, V, 10000001.5, Format::binary32));
    EXPECT_BITS(-0.0, correctly_rounded(form, V, -10000001.5, Format::binary32));
    EXPECT_EQ(ref::decimal(form, V, 10000001.5, 8), "1.0000001e+07");   // truth just below .5
    EXPECT_EQ(ref::decimal(form, V, 10000001.5, 9), "1.00000015e+07");  // .4999… → 15
    // Trap e): up to DBL_MAX (x³ inside MPFR's range).
    EXPECT_BITS(DBL_MAX, correctly_rounded(form, V, DBL_MAX, Format::binary64));
    EXPECT_BITS(INFINITY, correctly_rounded(form, V, DBL_MAX, Format::binary32));
    EXPECT_BITS(-0.0, correctly_rounded(form, V, -DBL_MAX, Format::binary64));
    // The derivative tends to 1 from above and to 0 from below.
    for (Format fmt : all_formats) {
      EXPECT_BITS(1.0, correctly_rounded(form, D, DBL_MAX, fmt));
      EXPECT_BITS(1.0, correctly_rounded(form, D, 1e7, fmt));
      EXPECT_BITS(-0.0, correctly_rounded(form, D, -DBL_MAX, fmt));
      EXPECT_BITS(-0.0, correctly_rounded(form, D, -1e10, fmt));
    }
    EXPECT_EQ(ref::decimal(form, D, 1e7, 30), "1.00000000000000000000000000000e+00");
    EXPECT_EQ(ref::decimal(form, V, DBL_MAX, 17), "1.7976931348623157e+308");
    // A nonzero result below MPFR's exponent range has no decimal form.
    EXPECT_THROW(ref::decimal(form, V, -DBL_MAX, 5), ref::ReferenceError);
    EXPECT_THROW(ref::decimal(form, D, -DBL_MAX, 5), ref::ReferenceError);
  }
  EXPECT_THROW(ref::decimal(Form::erf, V, -1e10, 5), ref::ReferenceError);
}

// Trap c): negative tails, where the results underflow each format; the sign of zero is the sign
// of the (negative) truth.
TEST(Reference, NegativeTailsUnderflowToMinusZero) {
  for (Form form : {Form::tanh, Form::erf})
    for (Format fmt : all_formats) {
      EXPECT_BITS(-0.0, correctly_rounded(form, V, -1000, fmt));
      EXPECT_BITS(-0.0, correctly_rounded(form, D, -1000, fmt));
    }
  // PyTorch's float64 erf form returns -0 at x = -20; the truth is about -5.5e-88 (docs/functions.md).
  const double r = correctly_rounded(Form::erf, V, -20, Format::binary64);
  EXPECT_LT(r, -5.4e-88);
  EXPECT_GT(r, -5.6e-88);
  EXPECT_BITS(-0.0, correctly_rounded(Form::tanh, V, -40, Format::binary64));
  EXPECT_LT(correctly_rounded(Form::tanh, V, -21.5, Format::binary64), 0);
}

// Every result of every format belongs to the format (no double rounding through binary64).
TEST(Reference, ResultsBelongToTheirFormat) {
  for (Form form : {Form::tanh, Form::erf})
    for (Quantity q : {V, D})
      for (Format fmt : all_formats)
        for (double x = -45; x <= 45; x += 0.37) {
          const double r = correctly_rounded(form, q, x, fmt);
          EXPECT_BITS(round_to_format(r, fmt), r);
        }
}

// enclose()'s decisions do not depend on the width asked for: at 8 bits its first precision (64
// bits) leaves about one binary64 rounding in a hundred undecided by width alone, so the loop's
// own rounding test must catch them; every rounding and floor_log2 must equal those of a 200-bit
// enclosure (decided by its width) and, to nearest, correctly_rounded's (another decision).
TEST(Reference, EnclosureDecisionsAtAnyWidth) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> dist(-12.0, 12.0);
  for (int i = 0; i < 1500; ++i) {
    const double x = dist(rng);
    for (Form form : {Form::tanh, Form::erf})
      for (Quantity q : {V, D}) {
        const ref::Enclosure narrow = ref::enclose(form, q, x, 8), wide = ref::enclose(form, q, x, 200);
        for (Format fmt : all_formats) {
          SCOPED_TRACE(std::string(name(form)) + " " + std::string(name(q)) + " " +
                       std::string(name(fmt)) + " x = " + hexfloat(x));
          EXPECT_BITS(wide.rounded(fmt), narrow.rounded(fmt));
          EXPECT_BITS(wide.rounded_down(fmt), narrow.rounded_down(fmt));
          EXPECT_BITS(wide.rounded_up(fmt), narrow.rounded_up(fmt));
          EXPECT_BITS(correctly_rounded(form, q, x, fmt), narrow.rounded(fmt));
        }
        EXPECT_EQ(wide.floor_log2(), narrow.floor_log2());
      }
  }
}

// The cap ends in ReferenceError, never a loop or a wrong answer.
TEST(Reference, PrecisionCapThrows) {
  {
    ref::ScopedPrecisionCap cap(400);  // x = 2^-1074 needs > 1075 bits
    EXPECT_THROW(correctly_rounded(Form::tanh, V, 0x1p-1074, Format::binary64), ref::ReferenceError);
    EXPECT_THROW(ref::enclose(Form::erf, V, 0x1p-1074), ref::ReferenceError);
    EXPECT_THROW(ref::decimal(Form::erf, V, 1.0, 200), ref::ReferenceError);
    EXPECT_BITS(0.5, correctly_rounded(Form::tanh, D, 0.0, Format::binary64));  // exact: no loop
  }
  EXPECT_BITS(0x1p-1074, correctly_rounded(Form::tanh, V, 0x1p-1074, Format::binary64));
}

TEST(Reference, ManyDigits) {
  const std::string s = ref::decimal(Form::erf, D, -0.75, 10000);
  EXPECT_EQ(s.size(), 1u + 1 + 9999 + 4);  // "d" "." 9999 digits "e-03"
  EXPECT_EQ(s.substr(0, 12), ref::decimal(Form::erf, D, -0.75, 20).substr(0, 12));
}

}  // namespace
}  // namespace gelucheck
