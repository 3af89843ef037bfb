// Identities checked on the enclosures themselves (independent of any rounding), the enclosure
// contract, and the closed-form derivative against a numerical derivative of the value.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <random>
#include <vector>

#include "gelucheck/facts.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"

namespace gelucheck {
namespace {

std::vector<double> binade_points() {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> m(1, 2);
  std::vector<double> xs;
  for (int e = -1074; e <= 1023; e += 13)
    for (double s : {1.0, -1.0}) xs.push_back(s * std::ldexp(m(rng), e));
  for (double x : {DBL_MAX, 0x1p-1074, 1.0, 2.0, 38.5, 21.5, -facts::argmin_tanh})
    for (double s : {1.0, -1.0}) xs.push_back(s * x);
  return xs;
}

// f(x) - f(-x) = x and f'(x) + f'(-x) = 1 (docs/functions.md): the interval combination of the two
// enclosures, rounded outward, must contain the exact right-hand side.
TEST(ReferenceIdentities, OddAndEvenParts) {
  MpfrRange wide;  // operations on enclosures may involve exponents beyond the default range
  Mpfr a(2300), b(2300);  // wide enough that the subtraction of 128-bit bounds is nearly exact
  int n = 0;
  for (Form form : {Form::tanh, Form::erf})
    for (double x : binade_points()) {
      const ref::Enclosure vp = ref::enclose(form, Quantity::value, x),
                           vm = ref::enclose(form, Quantity::value, -x);
      mpfr_sub(a, vp.lo(), vm.hi(), MPFR_RNDD);
      mpfr_sub(b, vp.hi(), vm.lo(), MPFR_RNDU);
      EXPECT_TRUE(mpfr_cmp_d(a, x) <= 0 && mpfr_cmp_d(b, x) >= 0)
          << name(form) << " value: f(x) - f(-x) misses x = " << hexfloat(x);
      const ref::Enclosure dp = ref::enclose(form, Quantity::derivative, x),
                           dm = ref::enclose(form, Quantity::derivative, -x);
      mpfr_add(a, dp.lo(), dm.lo(), MPFR_RNDD);
      mpfr_add(b, dp.hi(), dm.hi(), MPFR_RNDU);
      EXPECT_TRUE(mpfr_cmp_ui(a, 1) <= 0 && mpfr_cmp_ui(b, 1) >= 0)
          << name(form) << " derivative: f'(x) + f'(-x) misses 1 at x = " << hexfloat(x);
      ++n;
    }
  EXPECT_GE(n, 300);
}

// The contract of enclose(): lo <= hi, relative width <= 2^-bits (except results below MPFR's
// range, whose bound nearer zero is a signed zero of the result's sign).
TEST(ReferenceIdentities, EnclosureWidth) {
  MpfrRange wide;
  Mpfr w(64), lim(64);
  for (Form form : {Form::tanh, Form::erf})
    for (Quantity q : {Quantity::value, Quantity::derivative})
      for (double x : binade_points())
        for (int bits : {60, 128}) {
          const ref::Enclosure y = ref::enclose(form, q, x, bits);
          ASSERT_TRUE(mpfr_lessequal_p(y.lo(), y.hi())) << hexfloat(x);
          if (mpfr_zero_p(y.lo()) || mpfr_zero_p(y.hi())) {
            EXPECT_LT(x, -1e5) << "zero bound at x = " << hexfloat(x);
            EXPECT_TRUE(mpfr_signbit(y.hi())) << hexfloat(x);
            continue;
          }
          mpfr_sub(w, y.hi(), y.lo(), MPFR_RNDU);
          mpfr_abs(lim, y.lo(), MPFR_RNDD);
          mpfr_mul_2si(lim, lim, -bits, MPFR_RNDD);
          EXPECT_TRUE(mpfr_lessequal_p(w, lim))
              << name(form) << " " << name(q) << " x = " << hexfloat(x) << " bits " << bits;
        }
}

// The closed-form derivative against a numerical derivative of the value enclosures: Richardson
// extrapolation of central differences, D(h) = (f(x+h) - f(x-h))/2h, R = (4D(h/2) - D(h))/3,
// whose error is h⁴·f⁽⁵⁾/480 + O(h⁶) ≈ 2^-48·|f⁽⁵⁾| for h = 2^-12 (f⁽⁵⁾ is O(1) here: the
// tolerance 1e-11 has a wide margin). x ± h, x ± h/2 are exact doubles for |x| <= 50 and x a
// multiple of 2^-13. Enclosure errors (2^-128 relative) are negligible even after dividing by h.
TEST(ReferenceIdentities, NumericalDerivative) {
  MpfrRange wide;
  Mpfr d1(256), d2(256);
  auto central = [&](Form form, double x, double h, mpfr_ptr out) {
    const ref::Enclosure p = ref::enclose(form, Quantity::value, x + h),
                         m = ref::enclose(form, Quantity::value, x - h);
    mpfr_sub(out, p.lo(), m.lo(), MPFR_RNDN);
    mpfr_div_d(out, out, 2 * h, MPFR_RNDN);
  };
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> k(-8 * 8192, 8 * 8192);
  int n = 0;
  for (Form form : {Form::tanh, Form::erf})
    for (int i = 0; i < 25; ++i) {
      const double x = k(rng) / 8192.0, h = 0x1p-12;
      central(form, x, h, d1);
      central(form, x, h / 2, d2);
      mpfr_mul_ui(d2, d2, 4, MPFR_RNDN);
      mpfr_sub(d2, d2, d1, MPFR_RNDN);
      mpfr_div_ui(d2, d2, 3, MPFR_RNDN);
      const double numeric = mpfr_get_d(d2, MPFR_RNDN);
      const double closed = ref::correctly_rounded(form, Quantity::derivative, x, Format::binary64);
      EXPECT_NEAR(numeric, closed, 1e-11) << name(form) << " x = " << hexfloat(x);
      ++n;
    }
  EXPECT_EQ(n, 50);
}

}  // namespace
}  // namespace gelucheck
