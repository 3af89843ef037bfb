#include "support.hpp"

#include <cfloat>
#include <cmath>
#include <cstdio>

#include <mpfr.h>

#include "gelucheck/facts.hpp"
#include "gelucheck/mpfr.hpp"

namespace gelucheck::testing {

double eval(const Fn& f, double x, Path p) {
  return f.q == Quantity::value ? scalar(f.form, x, p) : scalar_deriv(f.form, x, p);
}
float eval(const Fn& f, float x, Path p) {
  return f.q == Quantity::value ? scalar(f.form, x, p) : scalar_deriv(f.form, x, p);
}

double derivative_zero(Form f) { return facts::derivative_zero(f); }

// ulp error of a result r of g at a (g = exp or erfc) in a format of p significand bits (64: x87
// long double, 53: binary64 on normal results, docs/reference.md §5's ulp), against MPFR at 200 bits. A
// double r or a converts to long double exactly.
double ulps(long double r, long double a, int (*g)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), int p) {
  Mpfr y(200), d(200);
  mpfr_set_ld(y, a, MPFR_RNDN);
  g(y, y, MPFR_RNDN);
  mpfr_set_ld(d, r, MPFR_RNDN);
  mpfr_sub(d, d, y, MPFR_RNDN);
  mpfr_abs(d, d, MPFR_RNDN);
  mpfr_mul_2si(d, d, -(mpfr_get_exp(y) - p), MPFR_RNDN);  // ulp(y) = 2^(floor(log2 y) - (p - 1))
  return mpfr_get_d(d, MPFR_RNDU);
}

std::vector<double> hard_points() {
  std::vector<double> v;  // the shared set (facts.hpp), then these tests' extras
  for (const facts::Point& p : facts::hard_points) v.push_back(p.x);
  v.insert(v.end(), {
      -38.58,  -38.6, -33, -33.5,  // erf underflow, erfc argument rounding
      -7.2, -7.25, -8.4, -8.45, -20, -21.8, -22, -25, -31.9,  // where naive goes to -0
      -3, -1, 0.5, 1, 2, 3, 8, 9, 10, 20,                     // the gelu_new table and friends
      32, -32, std::nextafter(32.0, 64.0), std::nextafter(-32.0, -64.0),  // tanh thresholds
      40, -40, std::nextafter(40.0, 64.0), std::nextafter(-40.0, -64.0),  // erf thresholds
      1e100, -1e100, 5.6e102, -5.6e102, 1e300, -1e300, DBL_MAX, -DBL_MAX,
      DBL_MIN, -DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN, 0x1p-1022 - 0x1p-1074, 1e-300, -1e-300});
  for (Form f : {Form::tanh, Form::erf}) {  // the derivative zero's neighbours, binary64 and float
    double z = derivative_zero(f);
    for (int k = -8; k <= 8; ++k) v.push_back(z + k * 0x1p-53);
    float zf = static_cast<float>(z);
    for (int k = -4; k <= 4; ++k) v.push_back(static_cast<double>(zf) + k * 0x1p-24);
    v.push_back(z - 0.125);  // the Taylor interval's ends (src uses radius 1/8)
    v.push_back(z + 0.125);
  }
  return v;
}

std::string hex(double x) { return hexfloat(x); }
std::string hex_ld(long double x) {
  char b[64];
  std::snprintf(b, sizeof b, "%La", x);
  return b;
}

}  // namespace gelucheck::testing
