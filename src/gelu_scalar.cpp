// The four scalar functions of gelucheck/gelu.hpp: the accurate path (x87 long double kernel,
// extra-precision arguments, Taylor expansion at the derivative's zero) and the naive path (the
// textbook formulas of docs/functions.md, for comparison only).
//
// ===================================== Error budget ==========================================
// u = 2^-64 is the unit roundoff of x87 long double (64-bit significand): every long double
// +, -, *, / and conversion has relative error <= u. First-order bounds (products of (1 + d_i)
// are summed; the second-order terms are below 2^-120). Library functions relied on (glibc,
// ldbl-96), measured against MPFR by tests/library/kernel_test.cpp on the ranges used here:
//   expl  <= 2 ulp  (relative <= 4u),   erfcl <= 6 ulp (relative <= 12u).
// One long double ulp is at most 2^-63 relative = 2u.
//
// Arguments. t = 2u(x) = K1 x + K2 x^3 (K1 = 2 sqrt(2/pi), K2 = K1 * 0.044715), z = -x/sqrt2 and
// q = x^2/2 are computed in double-double (Dekker's exact products, relative error <= 2^-100),
// then split exactly into a long double pair H + L (|L| <= u|H|). Why: e^t and erfc(z) amplify
// the ABSOLUTE error of the argument: |t| reaches 2389 (x = -32) and erfc's relative condition
// number is about 2z^2 (1500 at x = -38.6), so a single long double argument would cost up to
// 2^-52 relative. With the pair: e^-(H+L) = e^-H (1 - L) + O(L^2), L^2 <= 2^-108;
// erfc(H + L) = erfc(H) (1 - L R(H)) + O((L R)^2), R(z) = (2/sqrt(pi)) e^-z^2 / erfc(z), which
// for z > 0 lies in [z + sqrt(z^2 + 4/pi), z + sqrt(z^2 + 2)) (Abramowitz-Stegun 7.1.13);
// using the upper end costs <= 0.253 |L| R relative, i.e. <= 0.5u. For z <= 0 the correction is
// dropped: erfc's relative condition there is <= max z (2/sqrt pi) e^-z^2 = 0.484, so <= 0.5u.
//
//   tanh value   x / (1 + E), E = e^-t:      E: 4u (expl) + 2u (1 - L, product) = 6u;
//                1 + E (both > 0): 7u; division: 8u.                          bound 8u  <= 2^-60
//   erf value    x/2 * erfc(z):  erfcl 12u, correction 0.5u + 2u, times x 1u.  bound 17u <= 2^-59
//   tanh deriv   [(1 + E) + x t' E] / (1 + E)^2, t' = K1 + 3 K2 x^2 (4u): a = 1 + E: 7u,
//                b = x t' E: 12u; a + b: L * 12u + u; (1 + E)^2: 15u; division u.
//   erf deriv    a + b, a = erfc(z)/2: 15.5u, b = x e^-q / sqrt(2 pi): 9u; a + b: L * 15.5u + u.
//   L = (|a| + |b|) / |a + b| is the cancellation factor: a and b have opposite signs for x < 0
//   and cancel at the derivative's zero x0. Outside |x - x0| <= 1/8, L <= 8.97 (tanh) and
//   <= 8.96 (erf) (gen_constants.cpp samples [-40, 0] every 2^-8 and prints it; L decreases
//   away from x0), so the derivatives are within 125u resp. 141u <= 2^-56.
//   Near x0, f'(x0 + t) = t P(t) (Taylor, constants.hpp): t = (x - x0_hi) - x0_lo, where
//   x - x0_hi is exact (Sterbenz: x0_hi/2 <= x <= 2 x0_hi), t has error <= 2u|t| (rounding and
//   the representation error u|x0_lo| <= u|t|, since every double other than x0_hi is at least
//   2|x0_lo| from x0); Horner on 17 terms whose magnitudes fall by >= 8x per term: <= 8u;
//   coefficients u; truncation <= 2^-72; product t P: u. About 12u <= 2^-56.
// These bounds are kernel_rel_bound() in gelu_kernel.hpp.
//
// Final rounding. If the kernel's y' satisfies |y' - f| <= e|f|, the binary64 result r = RN(y')
// has |r - f| <= ulp/2 + e |f| < (1/2 + e 2^53) ulp(f) <= (1/2 + 2^-3) ulp: FAITHFUL for e <= 2^-56
// (subnormal results: ulp is larger, the bound only improves). binary32: RN32(y') is the correct
// rounding of f unless y' lies within e|y'| of a binary32 midpoint; tests/library/
// float_midpoint_test.cpp counts such inputs over all 2^32 floats (must be 0, or be listed).
// =============================================================================================
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "gelucheck/constants.hpp"
#include "gelucheck/gelu.hpp"
#include "gelucheck/gelu_kernel.hpp"
#include "double_double.hpp"

namespace gelucheck {
namespace {

namespace k = constants;
using LD = long double;
// The whole error analysis assumes x87 extended precision (64-bit significand, 15-bit exponent).
static_assert(std::numeric_limits<LD>::digits == 64 && std::numeric_limits<LD>::max_exponent == 16384,
              "the accurate path needs x87 80-bit long double");

using dd::DD;
using dd::mul;
using dd::two_prod;

// The double-double a as a long double pair H + L exactly (Fast2Sum in long double, |hi| >= |lo|).
void to_ld_pair(DD a, LD& h, LD& l) {
  h = static_cast<LD>(a.hi) + static_cast<LD>(a.lo);
  l = (static_cast<LD>(a.hi) - h) + static_cast<LD>(a.lo);
}

// ---- thresholds -------------------------------------------------------------------------------
// tanh form, |x| > 32 (0x1p+5): t = K1|x| + K2|x|^3 > 2389, so e^-t < 2^-3446. For x > 32 the
// value x/(1 + e^-t) = x(1 - d), d < 2^-3446, rounds to x and the derivative 1 - O(x^3 e^-t) to 1
// in every format; for x < -32 |value| <= |x| e^-t and |derivative| <= (1 + |x| t') e^-t are below
// 2^-3000 (|x| e^(-K2 |x|^3) decreases for |x| >= 32): they round to -0 (negative: the value is
// x times a positive number, the derivative is negative left of x0).
constexpr double kTanhTail = 0x1p+5;
// erf form, |x| > 40 (0x1.4p+5): Phi(-40) < e^-800 < 2^-1154 and 40 phi(40) < 2^-1150, so the
// value rounds to x (x > 40) or -0 (x < -40), the derivative to 1 or -0, in every format. (The
// value underflows to -0 already below -38.58; the kernel handles [-40, -38.58] by rounding.)
constexpr double kErfTail = 0x1.4p+5;

// Tiny |x| < 2^-40 (0x1p-40), value of either form: f(x) = x/2 + x^2/sqrt(2 pi) + O(x^4) (tanh:
// x sigma(t) with t = K1 x + O(x^3), sigma(t) = 1/2 + t/4 + O(t^3), K1/4 = 1/sqrt(2 pi); erf:
// x Phi(x), Phi(x) = 1/2 + x/sqrt(2 pi) + O(x^3)): relative truncation <= x^3 < 2^-120. Why a
// branch: x/2 of an odd subnormal is a binary64/binary32 MIDPOINT, and f(x) > x/2 for every
// x != 0 (x (sigma(t) - 1/2) > 0, x (Phi(x) - 1/2) > 0), so the rounding must go up; in long
// double x/2 + x^2 c rounds back to x/2 once x^2 c < ulp/2, and a tie would then round to even.
// So when the correction is lost, the kernel returns a long double just above x/2 instead:
// x/2 + |x/2| 2^-63 (the product exact; the addend is at least one long double ulp of x/2, so
// the rounded sum is strictly above x/2, and at most 2^-62 relative above it). There f - x/2 <
// 2^-63 relative (the correction was lost), so f and it both lie strictly between x/2 and the
// next binary64 value or midpoint above x/2 (2^-54 relative away at least), and both round to
// the correct results. (nextafterl did the same, one ulp up, at the cost of a libm call that
// took 15 % of an exhaustive sweep over the tiny inputs.)
constexpr double kTiny = 0x1p-40;
LD tiny_value(double x) {
  const LD half = 0.5L * static_cast<LD>(x);  // exact
  const LD y = half + static_cast<LD>(x) * static_cast<LD>(x) * k::kInvSqrt2PiL;
  return y == half ? half + std::fabs(half) * 0x1p-63L : y;
}

// ---- the kernel -------------------------------------------------------------------------------
// e^-(H + L), |L| <= u|H|.
LD exp_neg_pair(LD h, LD l) { return expl(-h) * (1.0L - l); }

// erfc(-x/sqrt2), z as a long double pair.
LD erfc_of(double x) {
  DD z = mul(DD{k::kInvSqrt2.hi, k::kInvSqrt2.lo}, -x);
  LD zh, zl;
  to_ld_pair(z, zh, zl);
  LD c = erfcl(zh);
  if (zh > 0) c *= 1.0L - zl * (zh + sqrtl(zh * zh + 2.0L));
  return c;
}

// f'(x0 + t) = t P(t) near the zero x0 = hi + lo of the derivative.
LD near_zero(double x, double hi, LD lo, const LD (&p)[17]) {
  LD t = static_cast<LD>(x - hi) - lo;  // x - hi exact (Sterbenz)
  LD acc = p[16];
  for (int i = 15; i >= 0; --i) acc = acc * t + p[i];
  return t * acc;
}

LD tanh_kernel(Quantity q, double x) {
  if (std::isnan(x)) return x;
  if (x > kTanhTail) return q == Quantity::value ? static_cast<LD>(x) : 1.0L;
  if (x < -kTanhTail) return -0.0L;
  const LD X = x;
  if (q == Quantity::value && std::fabs(x) < kTiny) return x == 0 ? X : tiny_value(x);
  if (q == Quantity::derivative && std::fabs(x - k::kTanhZeroHi) <= k::kTanhZeroRadius)
    return near_zero(x, k::kTanhZeroHi, k::kTanhZeroLo, k::kTanhZeroPoly);
  LD th, tl;
  to_ld_pair(dd::tanh_arg(x), th, tl);
  const LD e = exp_neg_pair(th, tl);  // e^-t
  const LD d = 1.0L + e;
  if (q == Quantity::value) return X / d;  // x sigma(t)
  const LD tp = k::kTwoSqrt2OverPiL + k::kSixSqrt2OverPiCubicL * (X * X);  // t'(x)
  return (d + X * tp * e) / (d * d);  // sigma(t) + x t' sigma(t) sigma(-t)
}

LD erf_kernel(Quantity q, double x) {
  if (std::isnan(x)) return x;
  if (x > kErfTail) return q == Quantity::value ? static_cast<LD>(x) : 1.0L;
  if (x < -kErfTail) return -0.0L;
  const LD X = x;
  if (q == Quantity::value && std::fabs(x) < kTiny) return x == 0 ? X : tiny_value(x);
  if (q == Quantity::value) return 0.5L * X * erfc_of(x);
  if (std::fabs(x - k::kErfZeroHi) <= k::kErfZeroRadius)
    return near_zero(x, k::kErfZeroHi, k::kErfZeroLo, k::kErfZeroPoly);
  DD s = two_prod(x, x);
  LD qh, ql;
  to_ld_pair(DD{0.5 * s.hi, 0.5 * s.lo}, qh, ql);  // x^2/2 (halving exact above underflow)
  const LD phi_times_sqrt2pi = exp_neg_pair(qh, ql);
  return 0.5L * erfc_of(x) + X * phi_times_sqrt2pi * k::kInvSqrt2PiL;  // Phi(x) + x phi(x)
}

// ---- naive: the textbook formulas (docs/functions.md), for comparison only ----------------------
// tanh (the gelu_new exercise): 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
// with x^3 computed as x*x*x; derivative: docs/functions.md closed form. erf (the exercise):
// Phi = 0.5 * (1 + erf(x / sqrt2)), value x * Phi, derivative Phi + x * phi,
// phi = exp(-x^2/2) / sqrt(2 pi) with the exercise's math.sqrt(2 * math.pi). In type T throughout.
template <class T>
T naive_value(Form form, T x) {
  if (form == Form::tanh) {
    const T c = static_cast<T>(k::kSqrt2OverPi), a = static_cast<T>(k::kCubic);
    return T(0.5) * x * (1 + std::tanh(c * (x + a * (x * x * x))));
  }
  const T phi_ = T(0.5) * (1 + std::erf(x / static_cast<T>(k::kSqrt2)));
  return x * phi_;
}
template <class T>
T naive_deriv(Form form, T x) {
  if (form == Form::tanh) {
    const T c = static_cast<T>(k::kSqrt2OverPi), a = static_cast<T>(k::kCubic);
    const T th = std::tanh(c * (x + a * (x * x * x)));
    return T(0.5) * (1 + th) + T(0.5) * x * (1 - th * th) * c * (1 + 3 * a * (x * x));
  }
  const T Phi = T(0.5) * (1 + std::erf(x / static_cast<T>(k::kSqrt2)));
  const T phi = std::exp(-(x * x) / 2) / static_cast<T>(k::kSqrt2PiTextbook);
  return Phi + x * phi;
}

}  // namespace

namespace detail {
long double accurate_kernel(Form form, Quantity q, double x) {
  return form == Form::tanh ? tanh_kernel(q, x) : erf_kernel(q, x);
}
}  // namespace detail

// The accurate path: the fast path of gelu_fast.cpp when its rounding test proves its result
// (correctly rounded in binary32, faithful in binary64), else the kernel above rounded once.
double scalar(Form form, double x, Path path) {
  if (path == Path::naive) return naive_value(form, x);
  double r;
  if (detail::fast_only(form, Quantity::value, x, &r)) return r;
  return static_cast<double>(detail::accurate_kernel(form, Quantity::value, x));
}
float scalar(Form form, float x, Path path) {
  if (path == Path::naive) return naive_value(form, x);
  float r;
  if (detail::fast_only(form, Quantity::value, x, &r)) return r;
  return static_cast<float>(detail::accurate_kernel(form, Quantity::value, x));
}
double scalar_deriv(Form form, double x, Path path) {
  if (path == Path::naive) return naive_deriv(form, x);
  double r;
  if (detail::fast_only(form, Quantity::derivative, x, &r)) return r;
  return static_cast<double>(detail::accurate_kernel(form, Quantity::derivative, x));
}
float scalar_deriv(Form form, float x, Path path) {
  if (path == Path::naive) return naive_deriv(form, x);
  float r;
  if (detail::fast_only(form, Quantity::derivative, x, &r)) return r;
  return static_cast<float>(detail::accurate_kernel(form, Quantity::derivative, x));
}

namespace detail {
namespace {
// The scalar path for a lane simd_fast refused: binary32 tries gelu_fast.cpp's evaluation first
// (glibc exp/erfc; a different bound, the same correctly rounded bits), binary64 has already run
// its only fast path (simd_fast is fast_only(double)) and goes to the kernel.
float scalar_path(Form form, Quantity q, float x) {
  float r;
  if (fast_only(form, q, x, &r)) return r;
  return static_cast<float>(accurate_kernel(form, q, x));
}
double scalar_path(Form form, Quantity q, double x) {
  return static_cast<double>(accurate_kernel(form, q, x));
}

constexpr std::size_t kBlock = 256;

template <class T>
void block_impl(Form form, Quantity q, const T* x, T* out, std::size_t n) {
  std::uint32_t refused[kBlock];
  T saved[kBlock];  // in place: the inputs of refused lanes, before simd_fast overwrites them
  for (std::size_t i0 = 0; i0 < n; i0 += kBlock) {
    const std::size_t m = std::min(kBlock, n - i0);
    const T* xi = x + i0;
    if (xi == out + i0) {
      std::copy(xi, xi + m, saved);
      xi = saved;
    }
    const std::size_t nref = simd_fast(form, q, xi, out + i0, refused, m);
    for (std::size_t k = 0; k < nref; ++k) out[i0 + refused[k]] = scalar_path(form, q, xi[refused[k]]);
  }
}

// The binary32 erf form's scalar path, for the lanes its vector code refuses (simd_erf32).
float erf32_scalar(int value, float x) {
  return scalar_path(Form::erf, value ? Quantity::value : Quantity::derivative, x);
}

// backward: the derivative of a block, then the products (the block is read before dx is written).
template <class T>
void backward_block_impl(Form form, const T* x, const T* dy, T* dx, std::size_t n) {
  T db[kBlock];
  for (std::size_t i0 = 0; i0 < n; i0 += kBlock) {
    const std::size_t m = std::min(kBlock, n - i0);
    block_impl(form, Quantity::derivative, x + i0, db, m);
    simd_multiply(dy + i0, db, dx + i0, m);
  }
}
}  // namespace

void accurate_block(Form form, Quantity q, const float* x, float* out, std::size_t n) {
  if (form == Form::erf) return simd_erf32(q, x, nullptr, out, erf32_scalar, n);
  block_impl(form, q, x, out, n);
}
void accurate_block(Form form, Quantity q, const double* x, double* out, std::size_t n) {
  block_impl(form, q, x, out, n);
}
void accurate_backward_block(Form form, const float* x, const float* dy, float* dx, std::size_t n) {
  if (form == Form::erf) return simd_erf32(Quantity::derivative, x, dy, dx, erf32_scalar, n);
  backward_block_impl(form, x, dy, dx, n);
}
void accurate_backward_block(Form form, const double* x, const double* dy, double* dx, std::size_t n) {
  backward_block_impl(form, x, dy, dx, n);
}
}  // namespace detail

}  // namespace gelucheck
