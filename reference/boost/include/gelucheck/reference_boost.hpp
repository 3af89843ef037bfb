// gelucheck/reference_boost.hpp — the independent second reference: the four functions of shared
// docs/functions.md on Boost.Math over boost::multiprecision::cpp_bin_float_100 (334-bit significand),
// with no MPFR anywhere. It exists to cross-check the MPFR reference (tests/boost), so it shares
// none of its code: other formulas (the stable sigmoid / erfc forms), other special functions,
// another multiprecision type, its own rounding to the binary formats.
//
// Domain (reference/boost/README.md; the error bound's derivation is in src/reference_boost.cpp):
//  - every double x (±0, subnormal, normal, up to ±DBL_MAX), ±inf and NaN;
//  - cpp_bin_float_100's exponent range is 2^±2147482979, so values below about 2^-2147482980
//    read as 0: that happens only in the negative tails, for x < −2750 (tanh form) or
//    x < −54600 (erf form), where every binary format rounds the exact value to −0 anyway. The
//    rounded results are right on the whole domain; `evaluate` there returns v = 0 with the
//    side of 0 the exact value lies on.
//  - the error bound is NOT proven: it assumes Boost.Math's erfc and Boost.Multiprecision's exp
//    are good to 2^-300 relative (Boost targets ~2^-333 for this type), and propagates that
//    through the formulas. A rounding the bound cannot decide is reported as undecided, never
//    guessed silently.
#pragma once

#include <boost/multiprecision/cpp_bin_float.hpp>

#include "gelucheck/common.hpp"

namespace gelucheck::boostref {

using Real = boost::multiprecision::cpp_bin_float_100;

// An approximation v of f(x) with a bound: f(x) lies in [v − err, v + err] when side == 0,
// in (v, v + err] when side == +1 and in [v − err, v) when side == −1. (The sides carry what
// the tiny-|x| and underflow cases know exactly: f(x) = x/2 + something positive, or f(x) a
// negative number too small for Real.) NaN results have v NaN.
struct Approx {
  Real v;
  Real err;
  int side = 0;
};

// f(x) at ~100 significant digits, with its error bound.
Approx evaluate(Form form, Quantity q, double x);

struct Rounded {
  double value;  // the rounding to nearest-even in the format (a value of the format, as double)
  bool decided;  // false: the interval straddles a rounding boundary; `value` rounds v itself
};
// Rounds the interval of `a` to nearest-even in `fmt` (subnormals, overflow to ±inf, signed
// zeros) — done by scaling and integer rounding here, not by Real's convert_to<double>().
Rounded round_to(const Approx& a, Format fmt);

// The two above in one call.
inline Rounded rounded(Form form, Quantity q, double x, Format fmt) {
  return round_to(evaluate(form, q, x), fmt);
}

}  // namespace gelucheck::boostref
