// The error measures of docs/reference.md §5 (gelucheck::measure) on hand-derived cases.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

#include "gelucheck/measure.hpp"

namespace gelucheck {
namespace {

constexpr Quantity V = Quantity::value;

TEST(Measure, CorrectlyRoundedAndNeighbours) {
  for (Form form : {Form::tanh, Form::erf})
    for (Format fmt : {Format::binary64, Format::binary32, Format::binary16, Format::bfloat16})
      for (double x : {-7.5, -0.75, 0.3, 1.0, 3.0}) {
        const ref::Enclosure y = ref::enclose(form, V, x);
        const double r = ref::correctly_rounded(form, V, x, fmt);
        const Error e = measure(r, y, fmt);
        EXPECT_TRUE(e.correctly_rounded()) << hexfloat(x) << " " << e.ulp;
        EXPECT_FALSE(e.nan_mismatch || e.zero_sign_mismatch);
        // One ulp of the format away: error in (0.5, 2.5) (2 when r + ulp crosses into a
        // binade of ulp(y)/2... bounded by 1 + 0.5 + 1), abs and rel consistent with it.
        const FormatInfo fi = info(fmt);
        const double ulp = std::ldexp(1.0, std::max(std::ilogb(r), fi.emin) - fi.precision + 1);
        const Error e2 = measure(r + ulp, y, fmt);
        EXPECT_GT(e2.ulp, 0.5) << "x = " << hexfloat(x) << " r = " << hexfloat(r);
        EXPECT_LT(e2.ulp, 2.5) << "x = " << hexfloat(x) << " r = " << hexfloat(r);
        EXPECT_FALSE(e2.correctly_rounded());
        EXPECT_NEAR(e2.abs, std::fabs(r + ulp - y.approx()), std::fabs(r) * 1e-12);
        EXPECT_NEAR(e2.rel, e2.abs / std::fabs(y.approx()), e2.rel * 1e-12);
      }
}

TEST(Measure, Specials) {
  const ref::Enclosure nan = ref::enclose(Form::tanh, V, NAN);
  EXPECT_EQ(measure(NAN, nan, Format::binary64).ulp, 0);
  EXPECT_TRUE(measure(1.0, nan, Format::binary64).nan_mismatch);
  EXPECT_EQ(measure(1.0, nan, Format::binary64).ulp, INFINITY);
  const ref::Enclosure one = ref::enclose(Form::tanh, V, 1.0);
  const Error en = measure(NAN, one, Format::binary64);
  EXPECT_TRUE(en.nan_mismatch);
  EXPECT_EQ(en.ulp, INFINITY);
  EXPECT_EQ(measure(INFINITY, one, Format::binary64).ulp, INFINITY);
  const ref::Enclosure inf = ref::enclose(Form::erf, V, INFINITY);
  EXPECT_EQ(measure(INFINITY, inf, Format::binary64).ulp, 0);
  EXPECT_EQ(measure(DBL_MAX, inf, Format::binary64).ulp, INFINITY);
  // Overflow to the correctly rounded infinity: correctly rounded, infinite abs error.
  const ref::Enclosure big = ref::enclose(Form::erf, V, 65536);
  EXPECT_TRUE(measure(INFINITY, big, Format::binary16).correctly_rounded());
  EXPECT_FALSE(measure(65504, big, Format::binary16).correctly_rounded());
}

TEST(Measure, ZerosAndSigns) {
  // y = +0 exactly (x = +0): ulp(0) is the least subnormal; rel = inf for r != 0.
  const ref::Enclosure z = ref::enclose(Form::erf, V, 0.0);
  const Error e = measure(0x1p-1074, z, Format::binary64);
  EXPECT_EQ(e.ulp, 1.0);
  EXPECT_EQ(e.abs, 0x1p-1074);
  EXPECT_EQ(e.rel, INFINITY);
  EXPECT_EQ(measure(0x1p-24, z, Format::binary16).ulp, 1.0);
  const Error e0 = measure(-0.0, z, Format::binary64);
  EXPECT_EQ(e0.ulp, 0);
  EXPECT_EQ(e0.rel, 0);
  EXPECT_TRUE(e0.zero_sign_mismatch);
  EXPECT_FALSE(measure(0.0, z, Format::binary64).zero_sign_mismatch);
  // y tiny negative (x = -1000): +0 has the wrong sign, -0 the right one; both correctly rounded.
  const ref::Enclosure t = ref::enclose(Form::tanh, V, -1000);
  EXPECT_TRUE(measure(0.0, t, Format::binary64).zero_sign_mismatch);
  EXPECT_TRUE(measure(0.0, t, Format::binary64).correctly_rounded());
  EXPECT_FALSE(measure(-0.0, t, Format::binary64).zero_sign_mismatch);
  EXPECT_EQ(measure(-0.0, t, Format::binary64).ulp, 0);
}

// f(2^-1074) lies 2^-1075·(1 + ~2^-1074) — within 2^-1074 relative of the midpoint 2^-1075: far
// inside any 128-bit enclosure's width. The decisions carried by enclose() keep it exact.
TEST(Measure, MidpointTrapStaysExact) {
  const ref::Enclosure y = ref::enclose(Form::tanh, V, 0x1p-1074);
  const Error good = measure(0x1p-1074, y, Format::binary64);
  const Error bad = measure(0.0, y, Format::binary64);
  EXPECT_TRUE(good.correctly_rounded());
  EXPECT_FALSE(bad.correctly_rounded());
  EXPECT_TRUE(bad.faithful());
  EXPECT_GT(bad.ulp, 0.5);
  EXPECT_FALSE(measure(2 * 0x1p-1074, y, Format::binary64).faithful());
  // Huge midpoint: f(65520) < 65520 in binary16 rounds to 65504, not inf.
  const ref::Enclosure h = ref::enclose(Form::erf, V, 65520);
  EXPECT_TRUE(measure(65504, h, Format::binary16).correctly_rounded());
  EXPECT_FALSE(measure(INFINITY, h, Format::binary16).correctly_rounded());
}

}  // namespace
}  // namespace gelucheck
