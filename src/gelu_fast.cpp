// Fast paths of the accurate library (detail::fast_only, gelucheck/gelu_kernel.hpp): Ziv-style.
// A cheap evaluation in binary64 arithmetic returns y with a RIGOROUS relative error bound e
// (derived below, step by step), then a rounding test decides whether y's rounding is proved:
//   binary32: accept RN32(y) only if [y - e|y|, y + e|y|] contains no binary32 midpoint; then
//             RN32(y) == RN32(f): the correct rounding (the kernel's result is the same bits).
//   binary64: accept r = RN(y) only if [y - e|y|, y + e|y|] lies strictly inside (pred r, succ r);
//             then r is a faithful rounding of f (the contract of the accurate path).
// Otherwise fast_only returns false and scalar() uses the long double kernel (gelu_scalar.cpp),
// whose own bound is proved there (and, for binary32, by the midpoint exhaustion test).
// Every result depends on (form, q, x) only: no state, no FMA (the build pins -ffp-contract=off).
// binary32 results are correct roundings, so they equal the vector lanes' of gelu_simd.cpp bit for
// bit; binary64 goes through gelu_simd.cpp itself (fast_only below).
//
// ===================================== Error budget ==========================================
// u = 2^-53 (binary64 unit roundoff). First-order sums of relative errors; second-order terms are
// below 2^-80 relative wherever the bound is used, and every bound is multiplied by 1.01 (or
// rounded up) before use. Dynamic bounds (computed from the evaluated terms) are only trusted when
// they come out below 2^-20, so evaluated and true magnitudes differ by < 2^-19 (covered by 1.01).
//
// Libraries relied on, with the bound assumed here and where it is measured (MPFR, kernel_test):
//   glibc 2.36 exp   (double): claims < 0.51 ulp (sysdeps/ieee754/dbl-64/e_exp.c); assumed <= 1 ulp,
//                              i.e. relative <= 2u = kExpRel, for normal results.
//   glibc 2.36 erfc  (double): libm-test-ulps lists 5 ulp for x86_64; assumed <= 8 ulp, i.e.
//                              relative <= 16u = kErfcRel, for normal results (erfc(z) >= 2^-200
//                              on every argument used: z <= 11.4).
//   Measured: tests/library/kernel_test.cpp (GlibcDoubleFunctionsAreAsAccurateAsAssumed).
//
// binary32 inputs (x a float, so x^2 is exact in double: 48 bits, and x^2/2 too):
//   tanh, t = x (K1 + K2 x^2): K1, K2 rounded (u each), K2 x^2 (u), sum of positives (u), times x
//        (u): |t' - t| <= 4u|t|. E = exp(-t'): relative 2u (exp) + |t' - t| <= (4|t| + 2)u.
//        value x/(1 + E): 1 + E (both > 0) +u, division +u: e = (4|t| + 4)u   [code: 4.1|t| + 5].
//        derivative (a + b)/d^2, a = d = 1 + E: (4|t| + 3)u; t' = K1 + 3K2 x^2: 4u (3K2 rounded
//        once more); b = x t' E: (4|t| + 2)u + 4u + 2u; a + b: (|a| + |b|) max(e_a, e_b) + u|a+b|;
//        d^2: 2 e_d + u; division u. So e = L (4|t| + 8)u + (8|t| + 9)u with L = (|a|+|b|)/|a+b|
//        evaluated (the cancellation near the derivative's zero x0 shows up as a large L and the
//        rounding test then fails: no special branch is needed).
//   erf, z = -x/sqrt2: 1/sqrt2 rounded and the product: |z' - z| <= 2u|z|. erfc(z'): 16u (erfc)
//        plus the argument's effect |z' - z| R, R(w) = -d ln erfc / dw = (2/sqrt pi) e^-w^2/erfc(w)
//        < w + sqrt(w^2 + 2) <= 2|w| + 1.5 for w > 0 (Abramowitz-Stegun 7.1.13) and <= 2/sqrt pi
//        < 1.5 for w <= 0: (4z^2 + 3|z|)u, so e_c = (4z^2 + 3|z| + 16)u.
//        value x/2 * c: *0.5 exact, *x +u: e = (4z^2 + 3|z| + 17)u          [code: 4.1z^2 + ... + 18].
//        derivative a + b, a = c/2: e_c; b = x e^-(x^2/2) / sqrt(2 pi): exp 2u, 1/sqrt(2 pi)
//        rounded u, two products 2u: 5u; a + b as above: e = L max(e_a, e_b) + u, plus an
//        absolute 40 * 2^-1074 where e^-(x^2/2) is subnormal (x > 37.6; a >= 1/2 there).
// binary64 inputs: the vector code of gelu_simd.cpp (both forms, double-double), one lane at a
//   time here; its budget is written there.
// =============================================================================================
#include <bit>
#include <cmath>
#include <cstdint>

#include "gelucheck/constants.hpp"
#include "gelucheck/gelu.hpp"
#include "gelucheck/gelu_kernel.hpp"

namespace gelucheck::detail {
namespace {

namespace k = constants;

constexpr double u = 0x1p-53;
constexpr double kExpRel = 2 * u;    // glibc exp, assumed <= 1 ulp (claims 0.51)
constexpr double kErfcRel = 16 * u;  // glibc erfc, assumed <= 8 ulp (libm-test-ulps: 5)
constexpr double kInflate = 1.01;    // second-order terms and evaluated-vs-true magnitudes
constexpr double kTrustDynamic = 0x1p-20;

// Regions (hex float thresholds; why each):
// 0x1p-40: below it the value goes to the kernel's tiny branch (odd subnormal midpoints x/2,
//   gelu_scalar.cpp) — it is cheap there.
constexpr double kTiny = 0x1p-40;
// tanh, x > 16 (0x1p+4): t > K1 16 + K2 16^3 > 317, E = e^-t < 2^-457. Value x/(1 + E) =
//   x (1 - d), 0 < d < 2^-457: RN(f) = x in binary64 and binary32 (x's neighbours are >= 2^-54 |x|
//   away). Derivative 1 - E (x t' - 1 - E)/(1+E)^2 with |x t' E| < 16 * 56 * 2^-457 < 2^-447:
//   rounds to 1 in both formats. (So in the fast paths E >= e^-318 is always a normal number.)
constexpr double kTanhBig = 0x1p+4;
// x < -16 (-0x1p+4), binary32 only: every function's |f(x)| < 2^-151 (half the least binary32
//   subnormal is 2^-150), so RN32(f) = -0 (f < 0 there: the value is x times a positive number, the
//   derivative is negative left of x0). tanh: |value| <= |x| e^t, |derivative| <= (1 + |x| t') e^t,
//   t <= -318 at x = -16 and both bounds decrease as x decreases: < 16 * 56 * e^-318 < 2^-448.
//   erf: |value| = |x| Phi(x) <= phi(x) and |derivative| <= |x| phi(x) (Phi(x) <= phi(x)/|x|),
//   both decreasing for x <= -1: 16 e^-128 / sqrt(2 pi) < 2^-180.
constexpr double kNegF32 = -0x1p+4;
// erf, binary32: x > 40 goes to the kernel's exact tail (cheap).
constexpr double kErfTail = 0x1.4p+5;

// ---- rounding tests --------------------------------------------------------------------------
// binary32: y approximates f with |y - f| <= err. Accept r = RN32(y) iff the two binary32
// midpoints next to r lie strictly outside [y - err, y + err]. Midpoints of binary32 numbers
// are doubles (25 bits) computed exactly below, so comparing with RN(y -+ err) is safe: RN is
// monotone, so RN(y + err) < m implies y + err < m. Zero results: r = +-0 (sign of y), its
// neighbours are +-2^-149.
bool round_to_float(double y, double err, float* out) {
  const float r = static_cast<float>(y);
  if (!std::isfinite(r)) return false;
  const std::uint32_t b = std::bit_cast<std::uint32_t>(r);
  float up, dn;  // next binary32 toward +inf, -inf
  if ((b & 0x7fffffffu) == 0) {
    up = 0x1p-149f;
    dn = -0x1p-149f;
  } else if (r > 0) {
    up = std::bit_cast<float>(b + 1);
    dn = std::bit_cast<float>(b - 1);
  } else {
    up = std::bit_cast<float>(b - 1);
    dn = std::bit_cast<float>(b + 1);
  }
  const double mid_up = (static_cast<double>(r) + static_cast<double>(up)) * 0.5;  // exact
  const double mid_dn = (static_cast<double>(r) + static_cast<double>(dn)) * 0.5;  // exact
  if (!(y + err < mid_up && y - err > mid_dn)) return false;
  *out = r;
  return true;
}

// ---- binary32 ---------------------------------------------------------------------------------
bool tanh_f32(Quantity q, double x, float* out) {
  const double s = x * x;  // exact
  const double t = x * (k::kTwoSqrt2OverPi.hi + k::kTwoSqrt2OverPiCubic.hi * s);
  const double at = std::fabs(t);
  const double E = std::exp(-t);
  const double d = 1.0 + E;
  if (q == Quantity::value) {
    const double y = x / d;
    return round_to_float(y, std::fabs(y) * ((4.1 * at + 5) * u * kInflate), out);
  }
  constexpr double k6 = 3 * k::kTwoSqrt2OverPiCubic.hi;  // rounded once more (counted)
  const double tp = k::kTwoSqrt2OverPi.hi + k6 * s;
  const double b = x * tp * E;
  const double num = d + b;
  const double y = num / (d * d);
  if (num == 0) return false;
  const double L = (d + std::fabs(b)) / std::fabs(num);
  const double rel = (L * (4 * at + 8) + (8 * at + 9)) * u;
  if (!(rel < kTrustDynamic)) return false;
  return round_to_float(y, std::fabs(y) * rel * kInflate, out);
}

bool erf_f32(Quantity q, double x, float* out) {
  const double z = -x * k::kInvSqrt2.hi;
  const double az = std::fabs(z);
  const double c = std::erfc(z);
  const double ec = (4 * z * z + 3 * az + kErfcRel / u) * u;
  if (q == Quantity::value) {
    const double y = 0.5 * x * c;
    return round_to_float(y, std::fabs(y) * ((ec + 2 * u) * kInflate), out);
  }
  const double a = 0.5 * c;
  const double b = x * std::exp(-(0.5 * (x * x))) * k::kInvSqrt2PiD;  // x^2/2 exact (float x)
  const double num = a + b;
  if (num == 0) return false;
  const double eb = kExpRel + 3 * u;
  const double abs_err = (a + std::fabs(b)) * std::fmax(ec, eb) + u * std::fabs(num) + 0x1p-1000;
  const double rel = abs_err / std::fabs(num);
  if (!(rel < kTrustDynamic)) return false;
  return round_to_float(num, std::fabs(num) * rel * kInflate, out);
}

}  // namespace

bool fast_only(Form form, Quantity q, float xf, float* out) {
  const double x = static_cast<double>(xf);
  if (std::isnan(x)) return false;
  if (x < kNegF32) {
    *out = -0.0f;
    return true;
  }
  if (q == Quantity::value && std::fabs(x) < kTiny) return false;
  if (form == Form::tanh) {
    if (x > kTanhBig) {
      *out = q == Quantity::value ? xf : 1.0f;
      return true;
    }
    return tanh_f32(q, x, out);
  }
  if (x > kErfTail) return false;
  return erf_f32(q, x, out);
}

// binary64: the vector code (gelu_simd.cpp) on one lane, so that scalar(double) and every lane of
// map/backward run the same instructions (faithful roundings are not unique).
bool fast_only(Form form, Quantity q, double x, double* out) {
  std::uint32_t refused;
  double r = 0;
  if (simd_fast(form, q, &x, &r, &refused, 1) != 0) return false;
  *out = r;
  return true;
}

}  // namespace gelucheck::detail
