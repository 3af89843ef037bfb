// The independent second reference (see the header and reference/boost/README.md). Formulas, all in
// Real = cpp_bin_float_100 (334-bit significand, unit roundoff 2^-334), constants from
// boost::math::constants at Real (110-digit strings) and c = 44715/10^6 divided in Real:
//   tanh value       x·σ(2u) = x/(1 + e^(−2u)),             u = √(2/π)·x·(1 + c·x²)
//   tanh derivative  σ(2u)·[1 + 2x√(2/π)(1 + 3c·x²)·σ(−2u)]
//   erf  value       ½·x·erfc(−x/√2)
//   erf  derivative  ½·erfc(−x/√2) + x·e^(−x²/2)/√(2π)
// None of them cancels except the derivatives near their zero (x ≈ −0.752), where the bound
// below is absolute and grows with the size of the cancelling terms.
//
// Error bound. Assumption (not proven; Boost targets ~2^-333 for this type): one call of exp or
// erfc at an exactly known argument has relative error <= E = 2^-300. Every +,−,·,/ in Real adds
// <= 2^-334 relative; a chain of <= 6 of them and the constants' roundings stays <= 2^-331.
// An argument w known to relative 2^-331 moves e^w by a relative |w|·2^-331 <= |w|·E·2^-31 and
// erfc(z) (z > 0) by (relative condition <= 2z² + 2 = x² + 2)·2^-331. Hence, with s = σ(2u),
// t = σ(−2u) (so 1 + e^(−2u) has relative error <= t·(E + |2u|·2^-331) + 2^-334):
//   tanh value       rel <= E·(2 + 2|u|·t)
//   tanh derivative  abs <= E·s·(|B|·(3 + 2|u|·t) + |T|·(3 + 2|u|·s)),  T = 2x√(2/π)(1+3cx²)·t,
//                    B = 1 + T (the factor s and the term T each carry their exp's error)
//   erf  value       rel <= E·(2 + [x < 0]·x²)          (erfc at z <= 0 has condition <= 1/2)
//   erf  derivative  abs <= E·(|A|·(2 + [x < 0]·x²) + |P|·(2 + x²)), A = ½erfc, P = x·φ(x)
// These are generous: each E term is >= 2^30 times the roundings it covers.
#include "gelucheck/reference_boost.hpp"

#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <cmath>
#include <limits>

namespace gelucheck::boostref {
namespace {

namespace bc = boost::math::constants;

const Real& E() {  // assumed relative error of one exp / erfc call
  static const Real e = ldexp(Real(1), -300);
  return e;
}
const Real& C() {  // 0.044715 as the decimal 44715/10^6, rounded once in Real
  static const Real c = Real(44715) / Real(1000000);
  return c;
}
// Below |x| = 2^-200 the value is x/2 + x·g(x) with 0 < x·g(x) <= 0.41·x² (g = ½erf(x/√2) or
// ½tanh(u), both of x's sign, |g| <= 0.41|x|·(1 + c·x²)): x/2 is exact, and the rest only breaks
// ties, so it is carried as a side of x/2 rather than added (Real's 334 bits cannot hold both
// x/2 and 0.4·x² for subnormal x, and x/2 is then often an exact binary64 midpoint).
constexpr double kTiny = 0x1p-200;

Approx tanh_value(const Real& x) {
  const Real u = bc::root_two_div_pi<Real>() * x * (1 + C() * x * x);
  const Real s = 1 / (1 + exp(-2 * u));  // σ(2u); exp overflow to inf gives s = 0
  const Real t = 1 / (1 + exp(2 * u));   // σ(−2u)
  const Real v = x * s;
  return {v, E() * (2 + 2 * abs(u) * t) * abs(v), 0};
}

Approx tanh_derivative(const Real& x) {
  const Real u = bc::root_two_div_pi<Real>() * x * (1 + C() * x * x);
  const Real s = 1 / (1 + exp(-2 * u));
  const Real t = 1 / (1 + exp(2 * u));
  const Real T = 2 * x * bc::root_two_div_pi<Real>() * (1 + 3 * C() * x * x) * t;
  const Real B = 1 + T;
  const Real v = s * B;
  return {v, E() * s * (abs(B) * (3 + 2 * abs(u) * t) + abs(T) * (3 + 2 * abs(u) * s)), 0};
}

Approx erf_value(const Real& x) {
  const Real A = boost::math::erfc(-x * bc::one_div_root_two<Real>());
  const Real v = x * A / 2;
  const Real cond = x < 0 ? Real(x * x) : Real(0);
  return {v, E() * (2 + cond) * abs(v), 0};
}

Approx erf_derivative(const Real& x) {
  const Real A = boost::math::erfc(-x * bc::one_div_root_two<Real>()) / 2;
  const Real P = x * exp(-x * x / 2) * bc::one_div_root_two_pi<Real>();
  const Real v = A + P;
  const Real cond = x < 0 ? Real(x * x) : Real(0);
  return {v, E() * (abs(A) * (2 + cond) + abs(P) * (2 + x * x)), 0};
}

}  // namespace

Approx evaluate(Form form, Quantity q, double x) {
  const bool value = q == Quantity::value;
  if (std::isnan(x)) return {Real(std::numeric_limits<double>::quiet_NaN()), Real(0), 0};
  if (std::isinf(x)) {
    // Limits: value → +inf / −0 (from below); derivative → 1 / −0 (from below: f' < 0 for
    // x < −0.752).
    if (x > 0) return {value ? Real(x) : Real(1), Real(0), 0};
    return {Real(0), std::numeric_limits<Real>::min(), -1};
  }
  const Real X(x);  // exact: Real holds every double
  if (x == 0) return {value ? X : Real(0.5), Real(0), 0};  // f(±0) = ±0, f'(0) = 1/2 exactly
  if (value && std::fabs(x) < kTiny) return {X / 2, abs(X) * Real(kTiny) / 2, +1};

  Approx a = form == Form::tanh ? (value ? tanh_value(X) : tanh_derivative(X))
                                : (value ? erf_value(X) : erf_derivative(X));
  if (a.v == 0) {
    // Underflow of Real (only for x < −2750 or so, see the header): both the value and the
    // derivative are negative there, and smaller in magnitude than Real's least normal number.
    a = {Real(0), std::numeric_limits<Real>::min(), x < 0 ? -1 : +1};
  }
  return a;
}

Rounded round_to(const Approx& a, Format fmt) {
  using std::numeric_limits;
  if (isnan(a.v)) return {numeric_limits<double>::quiet_NaN(), true};
  if (isinf(a.v)) return {a.v > 0 ? HUGE_VAL : -HUGE_VAL, true};
  const FormatInfo fi = info(fmt);
  const int least_exp = fi.emin - fi.precision + 1;  // least subnormal 2^least_exp
  if (a.v == 0) {
    const bool neg = a.side < 0 || (a.side == 0 && signbit(a.v));
    const double z = neg ? -0.0 : 0.0;
    if (a.err == 0) return {z, true};
    // Decided when the interval stays within half the least subnormal and does not reach both
    // signs (side != 0).
    return {z, a.side != 0 && a.err < ldexp(Real(1), least_exp - 1)};
  }
  const bool neg = a.v < 0;
  const int side = neg ? -a.side : a.side;  // side of the magnitude
  const Real V = abs(a.v);
  int e = 0;
  (void)frexp(V, &e);  // V = m·2^e, m in [1/2, 1): floor(log2 V) = e − 1
  const int qe = std::max(e - 1, fi.emin) - fi.precision + 1;  // quantum 2^qe at V
  const Real s = ldexp(V, -qe);  // exact (power-of-two scaling)
  const Real n = floor(s);
  const Real d = s - n - Real(0.5);  // exact; V lies d quanta above the midpoint n + 1/2
  const Real w = ldexp(a.err, -qe);  // error bound in quanta
  // The interval is [d−w, d+w], (d, d+w] or [d−w, d) (side 0, +1, −1): decided when it lies on
  // one side of 0. A width >= 1/4 quantum could also cross a binade: call that undecided.
  const Real lo = d - w, hi = d + w;
  bool decided, up;
  if (w == 0 && d == 0) {
    decided = true;  // an exact tie: to even
    up = fmod(n, Real(2)) != 0;
  } else if (side > 0 ? d >= 0 : lo > 0) {
    decided = true, up = true;
  } else if (side < 0 ? d <= 0 : hi < 0) {
    decided = true, up = false;
  } else {
    decided = false, up = d > 0 || (d == 0 && fmod(n, Real(2)) != 0);
  }
  if (w >= Real(0.25)) decided = false;
  // n + up <= 2^p <= 2^53: exact as an integer, as a double, and the ldexp below is exact
  // (qe >= least_exp >= −1074) unless it overflows, which is the format's overflow anyway.
  const auto m = static_cast<std::uint64_t>(n.convert_to<unsigned long long>()) + (up ? 1 : 0);
  double r = std::ldexp(static_cast<double>(m), qe);
  if (r >= std::ldexp(1.0, fi.emax + 1)) r = HUGE_VAL;
  return {neg ? -r : r, decided};
}

}  // namespace gelucheck::boostref
