// Every constant of src/include/gelucheck/constants.hpp recomputed with MPFR (here, not by the
// generator): binary64 values are the correct roundings of their reals, pairs are hi = RN(v),
// lo = RN(v - hi), long doubles are RN80(v). The Taylor polynomials at the derivative's zero are
// checked as a whole against the reference derivative (which knows nothing of them).
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>

#include "gelucheck/constants.hpp"
#include "gelucheck/gelu_kernel.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"
#include "support.hpp"

namespace gelucheck::testing {
namespace {

namespace k = constants;

// A 400-bit MPFR number with a few operations, enough to write each real once.
struct M {
  Mpfr v{400};
  M() = default;
  explicit M(long n) { mpfr_set_si(v, n, MPFR_RNDN); }
  M(const M&) = default;
  M& operator=(const M&) = delete;
  static M pi() { M r; mpfr_const_pi(r.v, MPFR_RNDN); return r; }
  friend M operator/(const M& a, const M& b) { M r; mpfr_div(r.v, a.v, b.v, MPFR_RNDN); return r; }
  friend M operator*(const M& a, const M& b) { M r; mpfr_mul(r.v, a.v, b.v, MPFR_RNDN); return r; }
  friend M operator-(const M& a, double b) { M r; mpfr_sub_d(r.v, a.v, b, MPFR_RNDN); return r; }
  friend M sqrt(const M& a) { M r; mpfr_sqrt(r.v, a.v, MPFR_RNDN); return r; }
  double rn() const { return mpfr_get_d(v, MPFR_RNDN); }
  long double rn80() const { return mpfr_get_ld(v, MPFR_RNDN); }
};

const M c = M(44715) / M(1000000);  // the decimal 0.044715, exactly as a real (to 400 bits)
const M s2p = sqrt(M(2) / M::pi());  // sqrt(2/pi)

void expect_pair(const k::DoubleDouble& p, const M& v, const char* name) {
  EXPECT_TRUE(same_bits(p.hi, v.rn())) << name << ".hi " << hex(p.hi) << " want " << hex(v.rn());
  const M rest = v - p.hi;
  EXPECT_TRUE(same_bits(p.lo, rest.rn())) << name << ".lo " << hex(p.lo) << " want " << hex(rest.rn());
}

TEST(LibraryConstants, Binary64ValuesAreCorrectlyRounded) {
  EXPECT_TRUE(same_bits(k::kSqrt2OverPi, s2p.rn()));
  EXPECT_TRUE(same_bits(k::kCubic, c.rn()));
  EXPECT_TRUE(same_bits(k::kCubic, 0.044715));  // the C++ literal is the same rounding
  EXPECT_TRUE(same_bits(k::kSqrt2, sqrt(M(2)).rn()));
  EXPECT_TRUE(same_bits(k::kSqrt2Pi, sqrt(M(2) * M::pi()).rn()));
  // The exercise's math.sqrt(2 * math.pi) (docs/functions.md): sqrt of 2 RN(pi), rounded; one ulp below sqrt(2 pi).
  M pi64;
  mpfr_set_d(pi64.v, M::pi().rn(), MPFR_RNDN);
  EXPECT_TRUE(same_bits(k::kSqrt2PiTextbook, sqrt(M(2) * pi64).rn()));
  EXPECT_TRUE(same_bits(k::kSqrt2PiTextbook, std::sqrt(2 * M_PI)));
}

TEST(LibraryConstants, PairsAreRoundingAndRoundedRemainder) {
  expect_pair(k::kTwoSqrt2OverPi, M(2) * s2p, "kTwoSqrt2OverPi");
  expect_pair(k::kTwoSqrt2OverPiCubic, M(2) * s2p * c, "kTwoSqrt2OverPiCubic");
  expect_pair(k::kInvSqrt2, M(1) / sqrt(M(2)), "kInvSqrt2");
}

TEST(LibraryConstants, LongDoublesAreCorrectlyRounded) {
  EXPECT_EQ(k::kTwoSqrt2OverPiL, (M(2) * s2p).rn80());
  EXPECT_EQ(k::kSixSqrt2OverPiCubicL, (M(6) * s2p * c).rn80());
  EXPECT_EQ(k::kInvSqrt2PiL, (M(1) / sqrt(M(2) * M::pi())).rn80());
}

// t * P(t) with t = x - (hi + lo), evaluated EXACTLY-ish in MPFR from the header's long double
// coefficients, against the reference derivative at doubles x across the Taylor interval: the
// relative gap is bounded by coefficient rounding (2^-64 on the dominant term, <= 2^-63 in all)
// plus truncation (< 2^-72): tolerance 2^-62. This checks x0 (hi and lo) and every coefficient
// that matters at this precision.
void check_taylor(Form f, double hi, long double lo, double radius, const long double (&p)[17]) {
  for (int i = -64; i <= 64; ++i) {
    const double x = i == 0 ? hi : hi + radius * i / 64;
    M t, acc, ti;
    mpfr_set_d(t.v, x, MPFR_RNDN);
    mpfr_sub_d(t.v, t.v, hi, MPFR_RNDN);
    mpfr_set_ld(ti.v, lo, MPFR_RNDN);
    mpfr_sub(t.v, t.v, ti.v, MPFR_RNDN);
    mpfr_set_ld(acc.v, p[16], MPFR_RNDN);
    for (int j = 15; j >= 0; --j) {
      mpfr_mul(acc.v, acc.v, t.v, MPFR_RNDN);
      mpfr_set_ld(ti.v, p[j], MPFR_RNDN);
      mpfr_add(acc.v, acc.v, ti.v, MPFR_RNDN);
    }
    mpfr_mul(acc.v, acc.v, t.v, MPFR_RNDN);
    const ref::Enclosure y = ref::enclose(f, Quantity::derivative, x, 160);
    M d;
    mpfr_sub(d.v, acc.v, y.lo(), MPFR_RNDN);
    mpfr_div(d.v, d.v, y.lo(), MPFR_RNDN);
    const double rel = std::fabs(d.rn());
    EXPECT_LE(rel, 0x1p-62) << name(f) << " Taylor at x = " << hex(x) << ": relative gap " << rel;
  }
}

TEST(LibraryConstants, TaylorPolynomialsAtTheDerivativeZero) {
  check_taylor(Form::tanh, k::kTanhZeroHi, k::kTanhZeroLo, k::kTanhZeroRadius, k::kTanhZeroPoly);
  check_taylor(Form::erf, k::kErfZeroHi, k::kErfZeroLo, k::kErfZeroRadius, k::kErfZeroPoly);
  // hi is x0 rounded to double: docs/functions.md's 17-digit facts round to the same doubles.
  EXPECT_TRUE(same_bits(k::kTanhZeroHi, derivative_zero(Form::tanh)));
  EXPECT_TRUE(same_bits(k::kErfZeroHi, derivative_zero(Form::erf)));
}


// The fast paths' constants (src/gelu_fast.cpp): 1/sqrt(2 pi) in binary64, and exp_dd's:
// ln2/128 = hi + lo with hi of at most 36 significant bits (so that k hi is exact for
// |k| < 2^17) and |ln2/128 - hi - lo| <= 2^-99, 128/ln2 rounded, 2^(j/128) pairs.
TEST(LibraryConstants, FastPathConstants) {
  EXPECT_TRUE(same_bits(k::kInvSqrt2PiD, (M(1) / sqrt(M(2) * M::pi())).rn()));
  M ln2;
  mpfr_const_log2(ln2.v, MPFR_RNDN);
  const M step = ln2 / M(128);
  int e;
  const double m = std::frexp(k::kLn2Over128.hi, &e);  // hi = m 2^e, m in [1/2, 1)
  EXPECT_EQ(std::ldexp(m, 36), std::trunc(std::ldexp(m, 36))) << "hi has more than 36 significant bits";
  const M rest = step - k::kLn2Over128.hi;
  EXPECT_TRUE(same_bits(k::kLn2Over128.lo, rest.rn()));
  const M rest2 = rest - k::kLn2Over128.lo;
  EXPECT_LE(std::fabs(rest2.rn()), 0x1p-99);
  EXPECT_LE(std::fabs((step - k::kLn2Over128.hi).rn()), 0x1p-36 * k::kLn2Over128.hi);  // hi is the 36-bit rounding
  EXPECT_TRUE(same_bits(k::kInvLn2Over128, (M(128) / ln2).rn()));
  for (int j = 0; j < 128; ++j) {
    M v, jj(j);
    mpfr_div_ui(jj.v, jj.v, 128, MPFR_RNDN);  // j/128 exact
    mpfr_exp2(v.v, jj.v, MPFR_RNDN);
    const M r = v - k::kExp2Table[j].hi;
    EXPECT_TRUE(same_bits(k::kExp2Table[j].hi, v.rn()) && r.rn() == k::kExp2Table[j].lo) << "2^(" << j << "/128)";
  }
}

}  // namespace
}  // namespace gelucheck::testing
