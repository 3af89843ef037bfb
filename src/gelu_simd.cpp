// Vector fast paths of the accurate library (detail::simd_fast, gelucheck/gelu_kernel.hpp), through
// Highway with run-time dispatch (HWY_DYNAMIC_DISPATCH picks AVX-512, AVX2 or SSE4 on x86-64, a
// portable emulation elsewhere). Same structure as gelu_fast.cpp (Ziv): a cheap evaluation with a
// RIGOROUS relative error bound e, then a rounding test per lane; a lane whose test fails (or that
// lies outside the fast region) is reported as not accepted and the caller computes it with the
// scalar accurate path (gelu_scalar.cpp).
//   binary32: evaluated in binary64 lanes; accept RN32(y) iff [y - e|y|, y + e|y|] contains no
//             binary32 midpoint, so the result is the CORRECT rounding: the same bits as the scalar
//             path's, which is correctly rounded too, whichever instruction set ran. The erf form
//             runs a direct pass first ("binary32 erf form: the direct pass" below: no bound per
//             lane, correct rounding proved by exhaustion) and this code only for the lanes that
//             pass marks.
//   binary64: in double-double; accept r = hi iff [y - e|y|, y + e|y|] lies
//             strictly inside (pred r, succ r): r is FAITHFUL. Faithful roundings are not unique,
//             so scalar(double) itself calls this code on one lane (gelu_fast.cpp, fast_only): the
//             scalar function and every vector lane run the same instructions on the same machine,
//             whatever the position, length, alignment or stride.
// Lanes are independent: no operation mixes lanes (no horizontal op, no shuffle), so a lane's
// result depends on its own x only; a tail is padded with +1 (its results are discarded).
//
// FMA: where the target has it (HWY_NATIVE_FMA), MulAdd is one rounding and two_prod is
// a*b - RN(a*b) by MulSub (exact); elsewhere MulAdd is a product and a sum, and two_prod is
// Dekker's. Every bound below counts a product and a sum separately; a fused operation has one
// rounding fewer, so the bounds hold either way.
//
// ===================================== Error budget ==========================================
// u = 2^-53. Notation and rules as in gelu_fast.cpp (first-order sums, every bound inflated by
// 1.01, dynamic bounds trusted only below 2^-20).
//
// exp: exp_d below (inline, table + polynomial): derived <= 3.1u, used as kExpRel = 4u.
// erfc: erfc_phi below (inline, a polynomial fitted by src/tools/fit_erfc32.py): c = erfc(-x/sqrt2)
//   computed from the binary32 x itself (no rounded argument z = -x/sqrt2 is formed; its only
//   rounded variable, y, is counted): derived from measured approximation terms, <= 26.4u, used
//   as kErfcRel = 32u (2^-48).
//   Both measured against MPFR by tests/library/simd_test.cpp
//   (VectorExpAndErfcAreAsAccurateAsAssumed).
//
// binary32, tanh (x a float, so s = x^2 is exact in double):
//   t = x (K1 + K2 s): K1, K2 rounded (u each), K2 s (u), + K1 (u), times x (u): |t' - t| <= 4u|t|.
//   E = exp(-t'): 4u (exp_d) + |t' - t| (the argument's error, relative on E): (4|t| + 4)u.
//   value x/(1 + E): 1 + E (both > 0) +u, division +u: e = (4|t| + 6)u      [code: 4.1|t| + 7].
//   derivative (a + b)/d^2, a = d = 1 + E: (4|t| + 5)u; t'' = K1 + (3 K2) s: 3K2 rounded twice (2u),
//     times s (u), + K1 (u, K1 rounded: u): 4u... counted as 4u; b = x t'' E: (4|t| + 4)u + 4u + 2u
//     (two products) = (4|t| + 10)u; a + b: (|a| + |b|) max(e_a, e_b) + u|a + b|, i.e. relative
//     L (4|t| + 10)u + u with L = (|a| + |b|)/|a + b| evaluated; d^2: 2 (4|t| + 5)u + u; its
//     reciprocal q u, the product (a + b) q u. e = L (4|t| + 10)u + (8|t| + 14)u, taken as
//     e|y| = (|a| + |b|) q (4.1|t| + 10)u + |y| (8.1|t| + 14)u (L|y| = (|a| + |b|)/d^2: no division
//     of its own; its roundings are inside the 1.01 inflation).
// binary32, erf (x a float: x^2/2 exact in double; the lanes the direct pass marks, below):
//   g = exp_d(-x^2/2): 4u (the argument is exact; clamped at -708 for x > 37.6, see below).
//   c = erfc_phi(x, g) = erfc(-x/sqrt2): e_c = kErfcRel = 32u, everything included (the exp_d
//     above, the argument's effect: there is no rounded argument but y, counted there).
//     (Before, with erfc(z') of a rounded z' = -x RN(1/sqrt2), the argument's effect alone was
//     (4z^2 + 3|z|)u, up to 2^-44 at z = 11.3.)
//   value x/2 * c: x/2 exact, one product: e = e_c + u                   [code: (32 + 1) 1.01 u].
//   derivative a + b, a = c/2: e_c; b = x g / sqrt(2 pi), the same g: exp 4u, the constant u, two
//     products 2u: e_b = 7u; a + b: abs error (|a| + |b|) max(e_c, e_b) + u|a + b|, plus an
//     absolute 2^-1000 for e^-(x^2/2) below the normal range (x > 37.6; |b| < 2^-1100 there and
//     a >= 1/2, so any exp result in [0, 2^-1010] is covered; c is then 2, see erfc_phi).
// binary64, tanh:
//   t = tanh_arg(x) in double-double: relative 2^-100 (double_double.hpp; the FMA two_prod is exact
//     like Dekker's, so the same bound); |t| <= 694.3 for -21 <= x <= 16.
//   E = exp_dd(-t): relative <= 2^-68 (derived at exp_dd below).
//   value: d = 1 + E (dd add, 2^-104): 2^-67.9; x / d as x (1/d) (recip 2^-102, mul 2^-104):
//     e <= 2^-67.
//   derivative (x >= -16, d^2 <= e^636 finite): t'' x = K1 x + 3K2 x^3 = t + 2 K2 x^3 in dd
//     (2^-100, at tanh_f64), b = (t'' x) E: 2^-67.9; a = d: 2^-67.9; a + b (2^-104 (|a| + |b|));
//     d^2 (2^-102); the quotient as (a + b) (1/d^2): recip 2^-102 and mul 2^-102, within 2^-101:
//     e = L 2^-67 + 2^-66.
// binary64, erf (x in [-36, 36]; x > 36: value x and derivative 1, faithful; x < -36 refused):
//   g = exp_half_square_dd(x) = e^(-x^2/2): x^2 by two_prod (exact), halved (exact): exp_dd's
//     2^-68 (its argument's |hi| <= 648, |lo| <= 2^-44, result >= e^-648 > 2^-968).
//   m c = erfc_dd(x, g, m), c = erfc(-x/sqrt2): relative e_c <= kErf64Rel = 2^-57, everything
//     included (derived at erfc_dd from measured polynomial terms, g's 2^-68 and the products
//     by m).
//   value x/2 c = erfc_dd(x, g, x/2) (x/2 exact: |x| >= 2^-40): e = 2^-57.
//   derivative a + b, a = c/2 = erfc_dd(x, g, 1/2) (e_c), b = (x g) / sqrt(2 pi) (mul 2^-104,
//     the constant as a pair 2^-106 and mul 2^-102, g 2^-68: below 2^-67.9); add_any: 2^-104
//     (|a| + |b|). Absolute
//     error <= (|a| + |b|) (2^-57 + 2^-100), trusted while it is below 2^-20 |a + b|. Within 1/8
//     of the derivative's zero, where a + b cancels, a Taylor series instead (below).
// =============================================================================================
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gelu_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "gelucheck/constants.hpp"
#include "gelucheck/gelu_kernel.hpp"
#include "gelucheck/erf32_tables.hpp"

HWY_BEFORE_NAMESPACE();
namespace gelucheck::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace k = constants;

using D = hn::ScalableTag<double>;
using V = hn::Vec<D>;
using M = hn::Mask<D>;
using DI = hn::RebindToSigned<D>;
using VI = hn::Vec<DI>;

constexpr double u = 0x1p-53;
constexpr double kExpRel = 4 * u;    // exp_d, derived <= 3.1u
constexpr double kErfcRel = kSimdErfcRelBound;  // erfc_phi below: 32u (derived there)
constexpr double kInflate = 1.01;
constexpr double kTrustDynamic = 0x1p-20;

// Regions: the same thresholds, with the same derivations, as gelu_fast.cpp; and for binary64:
// the tanh derivative needs x >= -16 ((1 + e^-t)^2 <= e^636 stays finite), the value |t| <= 700
// for exp_dd: x >= -21 (|t| <= 694.3).
constexpr double kTiny = 0x1p-40;          // value: below, the kernel's tiny branch
constexpr double kTanhBig = 0x1p+4;        // tanh x > 16: value x, derivative 1
constexpr double kNegF32 = -0x1p+4;        // binary32 x < -16: -0 for all four functions
constexpr double kTanhNegDeriv = -0x1p+4;  // binary64 tanh derivative needs x >= -16
constexpr double kTanhNegValue = -0x1.5p+4;  // binary64 tanh value needs x >= -21
constexpr double kErfTail = 0x1.4p+5;      // erf x > 40: the kernel's tail
// binary64 erf, |x| <= 36: x > 36 gives value x and derivative 1 (faithful: Phi(-x) < phi(x)/x <
// e^-648 / 90 < 2^-940, so f = x (1 - delta) and f' = 1 + delta' with 0 < delta, delta' < 2^-930:
// x and 1 are one of the two neighbours of f); x < -36 goes to the kernel (e^(-x^2/2) leaves
// exp_dd's accurate range below 2^-968 at |x| = 36.6).
constexpr double kErf64Clamp = 0x1.2p+5;

// ---- double-double, per lane (the operations of double_double.hpp, same bounds) -------------
struct VD {
  V hi, lo;
};
HWY_INLINE VD two_sum(V a, V b) {
  const V s = hn::Add(a, b);
  const V bb = hn::Sub(s, a);
  return {s, hn::Add(hn::Sub(a, hn::Sub(s, bb)), hn::Sub(b, bb))};
}
HWY_INLINE VD fast_two_sum(V a, V b) {
  const V s = hn::Add(a, b);
  return {s, hn::Sub(b, hn::Sub(s, a))};
}
HWY_INLINE VD two_prod(V a, V b) {
  const V p = hn::Mul(a, b);
#if HWY_NATIVE_FMA
  return {p, hn::MulSub(a, b, p)};  // a*b - p, one rounding of an exact value: exact
#else
  const D d;
  const V c27 = hn::Set(d, 134217729.0);  // Veltkamp split, 2^27 + 1
  const V ca = hn::Mul(c27, a), cb = hn::Mul(c27, b);
  const V ah = hn::Sub(ca, hn::Sub(ca, a)), al = hn::Sub(a, ah);
  const V bh = hn::Sub(cb, hn::Sub(cb, b)), bl = hn::Sub(b, bh);
  const V e = hn::Add(hn::Add(hn::Add(hn::Sub(hn::Mul(ah, bh), p), hn::Mul(ah, bl)), hn::Mul(al, bh)),
                      hn::Mul(al, bl));
  return {p, e};
#endif
}
HWY_INLINE VD mul(VD a, V b) {
  const VD p = two_prod(a.hi, b);
  return fast_two_sum(p.hi, hn::MulAdd(a.lo, b, p.lo));
}
HWY_INLINE VD mul(VD a, VD b) {
  const VD p = two_prod(a.hi, b.hi);
  return fast_two_sum(p.hi, hn::Add(p.lo, hn::MulAdd(a.hi, b.lo, hn::Mul(a.lo, b.hi))));
}
HWY_INLINE VD add(VD a, VD b) {
  const VD s = two_sum(a.hi, b.hi);
  return fast_two_sum(s.hi, hn::Add(s.lo, hn::Add(a.lo, b.lo)));
}
HWY_INLINE VD add_any(VD a, VD b) {
  const VD s = two_sum(a.hi, b.hi);
  return two_sum(s.hi, hn::Add(s.lo, hn::Add(a.lo, b.lo)));
}
// 1/b for b > 0 (normal, normal reciprocal), one division: q1 = RN(1/b.hi), corrected by q1 times
// the remainder (double_double.hpp's div divides it by b.hi instead, a second division on the
// critical path). The remainder 1 - q1 b is |rem| <= 2u; q1 rem
// differs from rem/b by a factor 1/(q1 b) = 1 + O(u): 2^-106; the remainder's two roundings and
// q1 b.lo's (each <= u |rem|) and the product's (u |q1 rem|): relative <= 2^-102 in all.
HWY_INLINE VD recip(VD b) {
  const D d;
  const V q1 = hn::Div(hn::Set(d, 1.0), b.hi);
  const VD p = two_prod(q1, b.hi);
  const V r = hn::Sub(hn::Sub(hn::Sub(hn::Set(d, 1.0), p.hi), p.lo), hn::Mul(q1, b.lo));  // 1 - p.hi exact
  return fast_two_sum(q1, hn::Mul(q1, r));
}
HWY_INLINE VD constant(k::DoubleDouble c) {
  const D d;
  return {hn::Set(d, c.hi), hn::Set(d, c.lo)};
}

// e^(a.hi + a.lo) per lane. The 1.5 2^52 shift gives k in the low bits of the shifted sum: read
// from the bits (exact for |k| < 2^51) rather than converted.
// e^(a.hi + a.lo) for |a.hi| <= 700, |a.lo| <= 2^-43 (-t or -x^2/2): relative error <= 2^-68
// when the result is >= 2^-968; below, its low part is subnormal: add an absolute 2^-1074.
//   k = RN(a.hi 128/ln2) (|k| < 2^17, the 1.5 2^52 trick: exact integer rounding for |.| < 2^51),
//   r = a - k ln2/128, ln2/128 = L1 + L2 (constants.hpp: L1 of 36 bits, so k L1 is exact):
//     a.hi - k L1 exact (k L1 has <= 53 bits, and Sterbenz: a.hi and k L1 are within a factor 2
//     when k != 0), then two_sum with the rest, a.lo - k L2 in one fused rounding (<= 2^-82,
//     counted twice), and |k| |ln2/128 - L1 - L2| <= 2^17 2^-99: |r' - r| <= 2^-80;
//     |r| <= ln2/256 + 2^-30 < 0.00271 < 2^-8.5.
//   e^r = 1 + r + Q(r), Q = sum_{k>=2} r^k/k!, kept to r^6: truncation <= r^7/7! 1.001 < 2^-71.9;
//     Q evaluated at r.hi instead of r: |r.lo| max|Q'| <= 2^-62 2^-8.5 = 2^-70.5; Horner in
//     double: relative 4u on |Q| <= 2^-18: 2^-69; (r.lo + q) rounded: u 2^-18 = 2^-71;
//     the final Fast2Sum is exact and the low-part sum adds 2^-105. Sum <= 2^-68.2, divided by
//     e^r >= 0.997.
//   times 2^(j/128) = T.hi + T.lo (2^-106) with mul (2^-102), times 2^m: exact (normal).
HWY_INLINE VD exp_dd(VD a) {
  const D d;
  const DI di;
  const V shifter = hn::Set(d, 0x1.8p52);
  const V ks = hn::MulAdd(a.hi, hn::Set(d, k::kInvLn2Over128), shifter);
  const VI ki = hn::Sub(hn::BitCast(di, ks), hn::BitCast(di, shifter));
  const V kd = hn::Sub(ks, shifter);
  const V r0 = hn::NegMulAdd(kd, hn::Set(d, k::kLn2Over128.hi), a.hi);  // exact (see above)
  const VD r = two_sum(r0, hn::NegMulAdd(kd, hn::Set(d, k::kLn2Over128.lo), a.lo));
  const V h = r.hi;
  V c = hn::Set(d, 1.0 / 720);
  c = hn::MulAdd(c, h, hn::Set(d, 1.0 / 120));
  c = hn::MulAdd(c, h, hn::Set(d, 1.0 / 24));
  c = hn::MulAdd(c, h, hn::Set(d, 1.0 / 6));
  c = hn::MulAdd(c, h, hn::Set(d, 0.5));
  const V q = hn::Mul(hn::Mul(h, h), c);
  VD p = fast_two_sum(hn::Set(d, 1.0), h);  // |h| < 1
  p = fast_two_sum(p.hi, hn::Add(p.lo, hn::Add(r.lo, q)));
  const VI j = hn::And(ki, hn::Set(di, 127));
  const double* table = &k::kExp2Table[0].hi;  // {hi, lo} pairs, standard layout
  const VI j2 = hn::ShiftLeft<1>(j);
  const VD t{hn::GatherIndex(d, table, j2), hn::GatherIndex(d, table + 1, j2)};
  const VD e = mul(p, t);
  const VI m = hn::ShiftRight<7>(ki);
  const V scale = hn::BitCast(d, hn::ShiftLeft<52>(hn::Add(m, hn::Set(di, 1023))));
  return {hn::Mul(e.hi, scale), hn::Mul(e.lo, scale)};
}

// e^a in plain double, per lane, for -708 <= a <= 709 (results normal; callers clamp): relative
// error <= 3.1u <= kExpRel. The reduction of exp_dd without its low parts:
//   k = RN(a 128/ln2) (the 1.5 2^52 shift), r = (a - k L1) - k L2: a - k L1 is exact (k L1 has
//   <= 53 bits: L1 36 bits, |k| < 2^17; and a, k L1 are within a factor 2 of each other when
//   k != 0: Sterbenz), the second step rounds (u|r|) and |k| |ln2/128 - L1 - L2| <= 2^-82;
//   |r| <= ln2/256 + 2^-40 < 2^-8.5.
//   e^r = 1 + r + Q, Q = r^2 (1/2 + r/6 + r^2/24 + r^3/120): truncation r^6/720 1.001 < 2^-60.5;
//   |Q| <= 2^-17.9 is computed with relative error <= 4u (coefficients, Horner): < 2^-70.
//   s = 1 + (r + Q): two roundings, 2u (|r + Q| < 2^-8.4, so the first is 2^-8.4 u relative to s).
//   times T = RN(2^(j/128)) (kExp2Table's hi: u) and the product (u); times 2^m exact (normal).
//   Sum: u (r) 2^-8.5 + 2u (s) + u (T) + u (product) + 2^-60 < 3.1u, first order; so <= 4u.
// Measured against MPFR: tests/library/simd_test.cpp (VectorExpAndErfcAreAsAccurateAsAssumed).
HWY_INLINE V exp_d(V a) {
  const D d;
  const DI di;
  const V shifter = hn::Set(d, 0x1.8p52);
  const V ks = hn::MulAdd(a, hn::Set(d, k::kInvLn2Over128), shifter);
  const VI ki = hn::Sub(hn::BitCast(di, ks), hn::BitCast(di, shifter));
  const V kd = hn::Sub(ks, shifter);
  const V r0 = hn::NegMulAdd(kd, hn::Set(d, k::kLn2Over128.hi), a);  // exact (see above)
  const V r = hn::NegMulAdd(kd, hn::Set(d, k::kLn2Over128.lo), r0);
  V c = hn::Set(d, 1.0 / 120);
  c = hn::MulAdd(c, r, hn::Set(d, 1.0 / 24));
  c = hn::MulAdd(c, r, hn::Set(d, 1.0 / 6));
  c = hn::MulAdd(c, r, hn::Set(d, 0.5));
  const V q = hn::Mul(hn::Mul(r, r), c);
  const V s = hn::Add(hn::Set(d, 1.0), hn::Add(r, q));
  const VI j2 = hn::ShiftLeft<1>(hn::And(ki, hn::Set(di, 127)));
  const V t = hn::GatherIndex(d, &k::kExp2Table[0].hi, j2);
  const V scale = hn::BitCast(d, hn::ShiftLeft<52>(hn::Add(hn::ShiftRight<7>(ki), hn::Set(di, 1023))));
  return hn::Mul(hn::Mul(s, t), scale);
}

// ---- erfc(-x/sqrt2) for binary32 x, per lane ---------------------------------------------------
// c(x) = erfc(-x/sqrt2) = 2 Phi(x) for a binary32 x (held exactly in the double lane) in [-16, 40],
// written in x itself so that no rounded argument enters (no z = -x/sqrt2 is formed). With
// v = min(|x|, 16):
//   erfc(v/sqrt2) = e^(-x^2/2) Q(v), Q(v) = e^(v^2/2) erfc(v/sqrt2) (the scaled erfc of v/sqrt2)
//     = F(y) r, r = 1/(v + 4), y = (v - 4) r = (v - 4)/(v + 4) in [-1, 3/5], F(y) = Q(v) (v + 4)
//     a polynomial of degree 20 in y (F varies 4-fold on [0, 16] where Q varies 20-fold, so its
//     sum has little cancellation);
//   c = e^(-x^2/2) Q for x < 0, 2 - that for x > 0: no cancellation on either side (c >= 1 for
//     x >= 0), so one formula serves all of [-16, 40], 0 included.
//   v is clamped to 16 for x in (16, 40] only: there erfc(x/sqrt2) < 2^-188, so c rounds to 2
//   whether Q is taken at 16 or at x: an absolute error < 2^-184 on c >= 1, far below the 1.01
//   inflation of the bound.
// g = e^(-x^2/2) is the caller's exp_half_square(x) (the derivative needs it too): for |x| <= 16
// its argument is exact.
// Coefficients: src/tools/fit_erfc32.py (Chebyshev interpolation in 60 digits, each coefficient
// rounded to the nearest double; run `/usr/bin/python3 src/tools/fit_erfc32.py`, which prints
// this array and the measured terms below).
//
// Bound, relative, first order, u = 2^-53 (a product and a sum counted separately everywhere, so
// it holds with and without FMA). Terms MEASURED by the script at each point of a dense grid
// (12,151 points of [0, 16]: uniform in y and in v, both ends, and v = 2^-k down to 2^-149; not
// a proof, hence doubled below): A = approximation error of the polynomial with its double
// coefficients (max 0.61u); H = rounding error of its evaluation (poly_split4 below) / |F|, by a
// running error analysis of exactly those operations (each rounds by u times its exact result,
// errors propagated to first order; max 5.94); G = |y d ln F/dy|, the effect of a relative error
// u in y (max 1.10). DERIVED, per point:
//   x < 0: v + 4 and v - 4 are exact for v >= 2^-25 (a binary32 v there has ulp >= 2^-48, and
//          v + 4 < 32 fits in 53 bits); r = 1/(v + 4): u; y = (v - 4) r: 2u on y, 2G u on F;
//          below 2^-25 (v +- 4 rounded): 4u on y (4G on F), 2u on r. Evaluation (A + H)u; F r:
//          r's error + u (the product); g: 4u (exp_d, kExpRel); g (F r): u. Max over the grid
//          of A + H + nY G + nR + 6: 16.6u.
//   x > 0: c = 2 - e, e = g F r = erfc(v/sqrt2) (1 + that error), c = 2 - erfc(v/sqrt2) >= 1:
//          relative (that error) erfc/(2 - erfc) + u (the subtraction): max 17.6u (at v -> 0).
//   With the measured A, H, G doubled: max 26.1u; times 1.01: 26.4u. Used: 32u (2^-48) =
//   kSimdErfcRelBound (gelu_kernel.hpp), measured against MPFR on every target by
//   tests/library/simd_test.cpp (VectorExpAndErfcAreAsAccurateAsAssumed).
// fit_erfc32.py: N = 20, K = 4, v in [0, 16], 12151 points
constexpr double kErfcPoly[] = {0x1.82b4bb8c94dcep0, -0x1.373e3a893c28ep0, 0x1.8c6dbf2cfc20dp-1,
                                -0x1.7dff2bff67c7dp-2, 0x1.eec4cc3e61f25p-4, -0x1.ee2761062be44p-7,
                                -0x1.c81719f60650ep-8, 0x1.ab82600c0624fp-9, 0x1.17a4c8779fb18p-12,
                                -0x1.e4a42bc2caeedp-12, -0x1.004dd00a2fabfp-18, 0x1.26cf64053fa77p-14,
                                0x1.83c6c2eef4593p-20, -0x1.8cee185c7ade3p-17, -0x1.58c4c6c1e8197p-20,
                                0x1.0ce4861de736ep-19, 0x1.2ec4c3ccd04d7p-21, -0x1.03c56963b754dp-22,
                                -0x1.46057baf49573p-23, -0x1.29e28f8aa7263p-26, 0x1.6b8bae0bbf233p-29};
constexpr double kErfcClamp = 16.0;  // F is fitted for v in [0, 16]
constexpr double kErfcShift = 4.0;   // K of y = (v - K)/(v + K)

// Horner's scheme, unrolled, over every 4th coefficient from S: c[S] + c[S+4] w + c[S+8] w^2 + ...
template <std::size_t S, std::size_t N, std::size_t... I>
HWY_INLINE V horner_every4(V w, const double (&c)[N], std::index_sequence<I...>) {
  constexpr std::size_t kTaken = (N - S + 3) / 4;
  const D d;
  V q = hn::Set(d, c[S + (kTaken - 1) * 4]);
  ((q = hn::MulAdd(q, w, hn::Set(d, c[S + (kTaken - 2 - I) * 4]))), ...);
  return q;
}
template <std::size_t S, std::size_t N>
HWY_INLINE V horner_every4(V w, const double (&c)[N]) {
  return horner_every4<S>(w, c, std::make_index_sequence<(N - S + 3) / 4 - 1>{});
}
// P(t) = sum_j c[j] t^j as (P_0 + t P_1) + t^2 (P_2 + t P_3), P_j(t^4) by Horner, t^2 = t t,
// t^4 = t^2 t^2. The loop is latency-bound: four short dependency chains instead of one long one
// (measured with an earlier two-branch version: 4.51 ns per element with plain Horner, 3.77 with
// split chains, bench_peers f32 erf forward). fit_erfc32.py's split_eval does the same
// operations for the rounding error bound.
template <std::size_t N>
HWY_INLINE V poly_split4(V t, const double (&c)[N]) {
  static_assert(N >= 8);
  const V t2 = hn::Mul(t, t);
  const V t4 = hn::Mul(t2, t2);
  const V a = hn::MulAdd(horner_every4<1>(t4, c), t, horner_every4<0>(t4, c));
  const V b = hn::MulAdd(horner_every4<3>(t4, c), t, horner_every4<2>(t4, c));
  return hn::MulAdd(b, t2, a);
}

HWY_INLINE V erfc_phi(V x, V g) {
  const D d;
  const V v = hn::Min(hn::Abs(x), hn::Set(d, kErfcClamp));
  const V K = hn::Set(d, kErfcShift);
  const V r = hn::Div(hn::Set(d, 1.0), hn::Add(v, K));
  const V y = hn::Mul(hn::Sub(v, K), r);
  const V e = hn::Mul(g, hn::Mul(poly_split4(y, kErfcPoly), r));
  return hn::IfThenElse(hn::Lt(x, hn::Zero(d)), e, hn::Sub(hn::Set(d, 2.0), e));
}

// e^(-x^2/2) for the binary32 x of erf_f32 (x^2/2 exact); clamped at -708 for x > 37.6, where the
// callers' absolute slack covers it.
HWY_INLINE V exp_half_square(V x) {
  const D d;
  return exp_d(hn::Max(hn::Neg(hn::Mul(hn::Set(d, 0.5), hn::Mul(x, x))), hn::Set(d, -708.0)));
}

// ---- erfc(-x/sqrt2) in double-double for binary64 x, per lane ------------------------------------
// The construction of erfc_phi, accurate to 2^-57 (four bits finer than a double, so that the
// faithful rounding test passes on nearly every lane): c(x) = erfc(-x/sqrt2) for x in
// [-36, 36], v = |x|, erfc(v/sqrt2) = e^(-x^2/2) F(y) r, r = 1/(v + 4), y = (v - 4) r in [-1, 4/5],
// F(y) = e^(v^2/2) erfc(v/sqrt2) (v + 4) in [0.88, 4] a polynomial of degree 26; c = that for
// x < 0, 2 - that for x >= 0 (no cancellation: it is >= 1), times the caller's factor m.
// g = e^(-x^2/2) is the caller's exp_half_square_dd(x).
// F(y) = sum_{k<5} c_k y^k + y^5 T(y): T (degree 21, |terms| < 2^-6 of F) in plain double at y.hi
// by poly_split4, then the rest in double-double (the c_k as pairs) in Estrin's order:
// F = A + y^2 (B + y^2 C), A = c0 + c1 y, B = c2 + c3 y, C = c4 + y T, five steps q <- c + w q
// (horner_dd_step) but three deep: the loop is latency-bound (measured: 12.1 ns per element with
// five Horner steps, 10.2 in this order, bench_peers f64 erf forward). Coefficients: src/tools/fit_erfc64.py (Chebyshev interpolation in 60 digits; run
// `/usr/bin/python3 src/tools/fit_erfc64.py`, which prints both arrays and the measured terms).
//
// Bound, relative, first order. MEASURED by the script at 13,076 points of [0, 36] (uniform in y
// and in v, both ends, and v = 2^-k down to 2^-1074; not a proof, hence doubled): A = the
// polynomial's error with its rounded coefficients (max 0.0027u, u = 2^-53); H = the rounding
// error of T's double evaluation times |y|^5, by a running error analysis of poly_split4's very
// operations (max 0.028u); Y = |y^6 T'(y)|/F, the effect of taking T at y.hi (|y.lo| <= u|y|;
// max 0.0028u); S = the Estrin part's error bound over F in units of a step's (the script's
// estrin_error: each step's error propagated to first order; max 5.48) and G = |y F'/F| (max 1.10).
// The script's max of 2 (A + H + Y): 0.0613u = 2^-57.03. DERIVED:
//   horner_dd_step(q, w, c) = c + w q: w.lo q.lo dropped (u^2 |w q|), the cross terms and p.lo
//     summed in three roundings (3u^2 |wq| each at most, counted 6u^2 |wq|), s.lo + t + c.lo in
//     two roundings (2u^2 (|s| + 3|wq| + |c|)); two_prod, two_sum and the final fast_two_sum are
//     exact: at most 16u^2 (|c| + |w q|) = 2^-102 (|c| + |w q|) a step; y^2 by mul, 2^-102; in
//     all 2^-102 S |F| <= 2^-99.5 |F|.
//   r = 1/(v + 4): v + 4 by two_sum (exact), recip 2^-102; y = (v - 4) r: two_sum exact, mul
//     2^-102: |y'/y - 1| <= 2^-101, on F: G 2^-101 < 2^-100.8. The caller's factor m (a double)
//     and g: h = (g r) m, g's 2^-68 and two muls (2^-102, 2^-104); z = h F: mul 2^-102. x >= 0:
//     2m - z: fast_two_sum(2m, -z.hi) exact (|z| <= |m|), then the low parts' difference rounded
//     (2^-106 relative to |2m - z| >= |m|); z's relative error enters times |z|/|2m - z| <= 1.
//   Sum: 2^-57.03 + 2^-68 + 2^-97 < 0.985 2^-57: kErf64Rel = 2^-57 = kSimdErfcDDRelBound
//   (gelu_kernel.hpp), measured against MPFR on every target by tests/library/simd_test.cpp
//   (VectorErfcDDIsAsAccurateAsAssumed).
// fit_erfc64.py: N = 26, K = 4, M = 5, v in [0, 36], 13076 points
constexpr k::DoubleDouble kErfcLead[] = {{0x1.82b4bb8c94dcep0, -0x1.9915b8305991dp-55},
    {-0x1.373e3a893c28ap0, -0x1.c496dc32709abp-55}, {0x1.8c6dbf2cfc2aep-1, -0x1.0e77a1f1af4cfp-58},
    {-0x1.7dff2bff68360p-2, 0x1.e6e06227d1714p-56}, {0x1.eec4cc3e4ded6p-4, 0x1.1769dbfeb8b93p-59}};
constexpr double kErfcTail[] = {-0x1.ee2761049087bp-7, -0x1.c81719d67b30bp-8, 0x1.ab825fc593587p-9,
    0x1.17a4af29b3608p-12, -0x1.e4a426b7ef4abp-12, -0x1.002036a2ca7b8p-18, 0x1.26d0b3cf4cb83p-14,
    0x1.80d7c0e652428p-20, -0x1.8d4d819d0c72ap-17, -0x1.5262d036b05f4p-20, 0x1.12435fbc911bcp-19,
    0x1.256e4ee57dafcp-21, -0x1.4caf4119a13dfp-22, -0x1.7902bb3bf9537p-23, 0x1.b1d5c82076490p-26,
    0x1.7984f3b9fe5f5p-25, 0x1.a7f544b50de88p-28, -0x1.03991e2e9132bp-27, -0x1.c7458ff922f5ap-29,
    0x1.c0a700fddcebdp-32, 0x1.40d06ba7ca682p-31, 0x1.fcfb387344e50p-34};
constexpr double kErf64Rel = kSimdErfcDDRelBound;

// One Horner step q <- c + y q in double-double (bound above): the product's high part exact by
// two_prod, its cross terms folded into the low sum without a normalization of their own.
HWY_INLINE VD horner_dd_step(VD q, VD y, VD c) {
  const VD p = two_prod(y.hi, q.hi);
  const V t = hn::Add(hn::MulAdd(y.hi, q.lo, hn::Mul(y.lo, q.hi)), p.lo);
  const VD s = two_sum(c.hi, p.hi);
  return fast_two_sum(s.hi, hn::Add(hn::Add(s.lo, t), c.lo));
}
HWY_INLINE VD horner_dd_step(VD q, VD y, k::DoubleDouble c) { return horner_dd_step(q, y, constant(c)); }

// e^(-x^2/2) in double-double for |x| <= 36 (bound in the budget above).
HWY_INLINE VD exp_half_square_dd(V x) {
  const D d;
  const VD s = two_prod(x, x);
  const V h = hn::Set(d, -0.5);
  return exp_dd(VD{hn::Mul(s.hi, h), hn::Mul(s.lo, h)});
}

// m erfc(-x/sqrt2) for a double m: x/2 (the value), 1/2 (the derivative), 1 (the tests). The factors off F's path are multiplied first, h = (g r) m, so that
// one product follows F on the critical path: z = h F = m e, e = erfc(|x|/sqrt2); the result is z
// for x < 0 and 2m - z for x >= 0 (|z| <= |m|: fast_two_sum(2m, -z.hi) is exact, then the low
// parts' difference rounds by u^2 |2m - z| at most).
HWY_INLINE VD erfc_dd(V x, VD g, V m) {
  const D d;
  const V v = hn::Abs(x);
  const V K = hn::Set(d, kErfcShift);
  const VD r = recip(two_sum(v, K));
  const VD y = mul(two_sum(v, hn::Neg(K)), r);
  const VD h = mul(mul(g, r), m);
  static_assert(std::size(kErfcLead) == 5);
  const VD y2 = mul(y, y);
  const VD A = horner_dd_step(constant(kErfcLead[1]), y, kErfcLead[0]);
  const VD B = horner_dd_step(constant(kErfcLead[3]), y, kErfcLead[2]);
  const VD C = horner_dd_step(VD{poly_split4(y.hi, kErfcTail), hn::Zero(d)}, y, kErfcLead[4]);
  const VD F = horner_dd_step(horner_dd_step(C, y2, B), y2, A);
  const VD z = mul(h, F);
  const VD s = fast_two_sum(hn::Add(m, m), hn::Neg(z.hi));
  const VD c = fast_two_sum(s.hi, hn::Sub(s.lo, z.lo));
  const M neg = hn::Lt(x, hn::Zero(d));
  return {hn::IfThenElse(neg, z.hi, c.hi), hn::IfThenElse(neg, z.lo, c.lo)};
}

// ---- rounding tests, per lane ----------------------------------------------------------------
// binary32: ay = |y| approximates |f| with |ay - |f|| <= err. r = RN32(ay), held exactly in a
// double; its binary32 neighbours' midpoints are doubles computed exactly from r's bits: r's
// significand ends at bit 29 of the double, so + 2^28 (in the bits) is the midpoint above, even at
// the top of a binade (the carry moves into the exponent), and - 2^28 the midpoint below, except
// when r is a power of two (the float below is half an ulp closer: - 2^27). Valid for
// 2^-125 <= ay < 2^126 (normal r and neighbours); other lanes are refused. RN is monotone and the
// midpoints are doubles, so RN(ay + err) < m implies ay + err < m (gelu_fast.cpp). Accepted lanes
// get sign(y) r, the correct rounding of f.
HWY_INLINE M round_to_float(V y, V err, V& out) {
  const D d;
  const DI di;
  const hn::Rebind<float, D> df;
  const V ay = hn::Abs(y);
  const V r = hn::PromoteTo(d, hn::DemoteTo(df, ay));
  const VI bits = hn::BitCast(di, r);
  const VI mant32 = hn::And(bits, hn::Set(di, std::int64_t{0x7fffff} << 29));
  const VI half_dn = hn::IfThenElse(hn::Eq(mant32, hn::Zero(di)), hn::Set(di, std::int64_t{1} << 27),
                                    hn::Set(di, std::int64_t{1} << 28));
  const V mid_up = hn::BitCast(d, hn::Add(bits, hn::Set(di, std::int64_t{1} << 28)));
  const V mid_dn = hn::BitCast(d, hn::Sub(bits, half_dn));
  const M in_range = hn::And(hn::Ge(ay, hn::Set(d, 0x1p-125)), hn::Lt(ay, hn::Set(d, 0x1p+126)));
  const M ok = hn::And(in_range, hn::And(hn::Lt(hn::Add(ay, err), mid_up), hn::Gt(hn::Sub(ay, err), mid_dn)));
  out = hn::CopySignToAbs(r, y);
  return ok;
}

// binary64, faithful: y = hi + lo, |y - f| <= err. With a = |hi| in [2^e, 2^(e+1)), the gap
// to the double above is 2^(e-52), the one below the same, or 2^(e-53) when a = 2^e; accept
// r = hi iff |lo| + err < the smaller gap g: then |f| lies within |lo| + err of a, strictly inside
// (pred a, succ a). 2^e is a's bits with the significand cleared, and 2^(e-52), 2^(e-53) are
// exact for 2^-1021 <= a < 2^1023 (other lanes are refused); RN is monotone, so
// RN(|lo| + err) < g implies |lo| + err < g. Testing |lo| against the smaller gap, whatever lo's
// sign, refuses more than needed only at a = 2^e with lo > 0, and only lanes whose lo is within
// err of 2^(e-53), the midpoint above a: as rare as any lane near a midpoint. (Four vector
// operations fewer than testing l + err and l - err, l = lo signed like hi, against both gaps.)
HWY_INLINE M round_to_double(VD y, V err) {
  const D d;
  const DI di;
  const V a = hn::Abs(y.hi);
  const V p2 = hn::BitCast(d, hn::And(hn::BitCast(di, a), hn::Set(di, std::int64_t{0x7ff} << 52)));
  const V g = hn::Mul(p2, hn::IfThenElse(hn::Eq(a, p2), hn::Set(d, 0x1p-53), hn::Set(d, 0x1p-52)));
  const M in_range = hn::And(hn::Ge(a, hn::Set(d, 0x1p-1021)), hn::Lt(a, hn::Set(d, 0x1p+1023)));
  return hn::And(in_range, hn::Lt(hn::Add(hn::Abs(y.lo), err), g));
}

// ---- binary32 lanes (x promoted to double) ---------------------------------------------------
// Returns the accepted mask; out holds the result of accepted lanes.
HWY_INLINE M tanh_f32(bool value, V x, V& out) {
  const D d;
  // Lanes outside the fast region compute at a clamped xc (finite, in range; NaN too) and are refused
  // or overwritten below.
  const V xc = hn::Min(hn::Max(x, hn::Set(d, kNegF32)), hn::Set(d, kTanhBig));
  const V s = hn::Mul(xc, xc);  // exact
  const V t = hn::Mul(xc, hn::MulAdd(hn::Set(d, k::kTwoSqrt2OverPiCubic.hi), s, hn::Set(d, k::kTwoSqrt2OverPi.hi)));
  const V at = hn::Abs(t);
  const V E = exp_d(hn::Neg(t));  // |t| <= 318 for |x| <= 16
  const V dd = hn::Add(hn::Set(d, 1.0), E);
  const V uu = hn::Set(d, u * kInflate);
  M ok;
  if (value) {
    const V y = hn::Div(xc, dd);
    const V rel = hn::Mul(hn::MulAdd(hn::Set(d, 4.1), at, hn::Set(d, 7.0)), uu);
    ok = round_to_float(y, hn::Mul(hn::Abs(y), rel), out);
  } else {
    const V tp = hn::MulAdd(hn::Set(d, 3 * k::kTwoSqrt2OverPiCubic.hi), s, hn::Set(d, k::kTwoSqrt2OverPi.hi));
    const V b = hn::Mul(hn::Mul(xc, tp), E);
    const V num = hn::Add(dd, b);
    // One division: q = 1/d^2, y = num q and L |y| = (d + |b|) q (the bound's L without a
    // division of its own).
    const V q = hn::Div(hn::Set(d, 1.0), hn::Mul(dd, dd));
    const V y = hn::Mul(num, q);
    const V ay = hn::Abs(y);
    const V Ly = hn::Mul(hn::Add(dd, hn::Abs(b)), q);
    const V err = hn::MulAdd(Ly, hn::MulAdd(hn::Set(d, 4.1 * u), at, hn::Set(d, 10 * u)),
                             hn::Mul(ay, hn::MulAdd(hn::Set(d, 8.1 * u), at, hn::Set(d, 14 * u))));
    // The dynamic bound is trusted below 2^-20 relative: err < 2^-20 |y| (a zero y is refused).
    ok = hn::And(hn::Lt(err, hn::Mul(hn::Set(d, kTrustDynamic), ay)),
                 round_to_float(y, hn::Mul(err, hn::Set(d, kInflate)), out));
  }
  // Regions: x > 16 exact answers, x < -16 gives -0, |x| < 2^-40 (value) and NaN refused; +inf
  // too (Highway's emulated targets saturate it to FLT_MAX when demoting to float).
  const M pinf = hn::Eq(x, hn::Set(d, HUGE_VAL));
  const M big = hn::AndNot(pinf, hn::Gt(x, hn::Set(d, kTanhBig)));
  const M neg = hn::Lt(x, hn::Set(d, kNegF32));
  out = hn::IfThenElse(big, value ? x : hn::Set(d, 1.0), out);
  out = hn::IfThenElse(neg, hn::Set(d, -0.0), out);
  ok = hn::AndNot(pinf, hn::Or(ok, hn::Or(big, neg)));
  if (value) ok = hn::AndNot(hn::Lt(hn::Abs(x), hn::Set(d, kTiny)), ok);
  return hn::AndNot(hn::IsNaN(x), ok);  // NaN lanes were clamped to a finite xc: refuse them
}

HWY_INLINE M erf_f32(bool value, V x, V& out) {
  const D d;
  const V xc = hn::Min(hn::Max(x, hn::Set(d, kNegF32)), hn::Set(d, kErfTail));
  const V g = exp_half_square(xc);
  const V c = erfc_phi(xc, g);
  const V uu = hn::Set(d, u);
  M ok;
  if (value) {
    const V y = hn::Mul(hn::Mul(hn::Set(d, 0.5), xc), c);
    const V rel = hn::Set(d, (kErfcRel + u) * kInflate);
    ok = round_to_float(y, hn::Mul(hn::Abs(y), rel), out);
  } else {
    const V a = hn::Mul(hn::Set(d, 0.5), c);
    // b from the same g: below -708 (x > 37.6) its argument is clamped: e^-708 < 2^-1021 and the
    // absolute slack 2^-1000 below covers the difference (|x| / sqrt(2 pi) < 16).
    const V b = hn::Mul(hn::Mul(xc, g), hn::Set(d, k::kInvSqrt2PiD));
    const V num = hn::Add(a, b);
    const V abs_err = hn::Add(hn::MulAdd(hn::Add(a, hn::Abs(b)), hn::Set(d, std::max(kErfcRel, kExpRel + 3 * u)),
                                         hn::Mul(uu, hn::Abs(num))),
                              hn::Set(d, 0x1p-1000));
    // The dynamic bound is trusted below 2^-20 relative: abs_err < 2^-20 |num| (no division).
    ok = hn::And(hn::Lt(abs_err, hn::Mul(hn::Set(d, kTrustDynamic), hn::Abs(num))),
                 round_to_float(num, hn::Mul(abs_err, hn::Set(d, kInflate)), out));
  }
  const M neg = hn::Lt(x, hn::Set(d, kNegF32));
  out = hn::IfThenElse(neg, hn::Set(d, -0.0), out);
  ok = hn::AndNot(hn::Gt(x, hn::Set(d, kErfTail)), hn::Or(ok, neg));
  if (value) ok = hn::AndNot(hn::Lt(hn::Abs(x), hn::Set(d, kTiny)), ok);
  return hn::AndNot(hn::IsNaN(x), ok);  // NaN lanes were clamped to a finite xc: refuse them
}

// ---- binary64 lanes (tanh form) --------------------------------------------------------------
HWY_INLINE M tanh_f64(bool value, V x, V& out) {
  const D d;
  const V lo_x = hn::Set(d, value ? kTanhNegValue : kTanhNegDeriv);
  const V xc = hn::Min(hn::Max(x, lo_x), hn::Set(d, kTanhBig));
  const VD s = two_prod(xc, xc);
  // The value: t = (K1 + K2 x^2) x. The derivative also needs t' x = K1 x + 3 K2 x^3 = t + 2B with
  // B = K2 x^3: t = K1 x + B, then t' x = t + 2B (2B exact); the terms of both sums have x's sign,
  // so nothing cancels: each is within 2^-100 relative like the value's t (two muls and an add
  // more than B's, 2^-102 and 2^-104 each), and t' x one add more than t (2^-104). Seven vector
  // operations fewer than forming t' = K1 + 3 K2 x^2 and multiplying by x: bench_peers f64 tanh
  // backward over PyTorch 1.09-1.23x before, 1.04-1.10x after, in four interleaved rounds.
  VD t, tpx;
  if (value) {
    t = mul(add(constant(k::kTwoSqrt2OverPi), mul(constant(k::kTwoSqrt2OverPiCubic), s)), xc);
  } else {
    const VD B = mul(mul(constant(k::kTwoSqrt2OverPiCubic), s), xc);
    t = add(mul(constant(k::kTwoSqrt2OverPi), xc), B);
    tpx = add(t, VD{hn::Add(B.hi, B.hi), hn::Add(B.lo, B.lo)});
  }
  const VD E = exp_dd(VD{hn::Neg(t.hi), hn::Neg(t.lo)});
  const VD dd = add(VD{hn::Set(d, 1.0), hn::Zero(d)}, E);
  M ok;
  if (value) {
    const VD y = mul(recip(dd), xc);  // one division instead of div's two (the loop is latency-bound)
    ok = round_to_double(y, hn::Mul(hn::Abs(y.hi), hn::Set(d, 0x1p-67 * kInflate)));
    out = y.hi;
  } else {
    const VD b = mul(tpx, E);
    const VD num = add_any(dd, b);
    // One division (the reciprocal of d^2) instead of three (div's two and L's): the error bound
    // |y| (L 2^-67 + 2^-66) is computed as (d + |b|)/d^2 2^-67 + |y| 2^-66, (d + |b|)/d^2 =
    // L |y| taken from the reciprocal's high part (relative 2^-50: inside the 1.01 inflation).
    const VD inv = recip(mul(dd, dd));
    const VD y = mul(num, inv);
    const V ay = hn::Abs(y.hi);
    const V Ly = hn::Mul(hn::Add(dd.hi, hn::Abs(b.hi)), inv.hi);
    const V err = hn::MulAdd(Ly, hn::Set(d, 0x1p-67), hn::Mul(ay, hn::Set(d, 0x1p-66)));
    // The dynamic bound is trusted below 2^-20 relative: err < 2^-20 |y| (a zero y is refused).
    ok = hn::And(hn::Lt(err, hn::Mul(hn::Set(d, kTrustDynamic), ay)),
                 round_to_double(y, hn::Mul(err, hn::Set(d, kInflate))));
    out = y.hi;
  }
  const M big = hn::Gt(x, hn::Set(d, kTanhBig));
  out = hn::IfThenElse(big, value ? x : hn::Set(d, 1.0), out);
  ok = hn::AndNot(hn::Lt(x, lo_x), hn::Or(ok, big));
  if (value) ok = hn::AndNot(hn::Lt(hn::Abs(x), hn::Set(d, kTiny)), ok);
  return hn::AndNot(hn::IsNaN(x), ok);  // NaN lanes were clamped to a finite xc: refuse them
}

// ---- binary64 lanes (erf form) ---------------------------------------------------------------
// Near the derivative's zero x0 the sum a + b cancels ((|a| + |b|)/|a + b| reaches 9 at 1/8 from
// x0, 33 at 1/16, and the rounding test needs the error below about 2^-54), so there the
// derivative is x0's Taylor series instead, as the kernel does (constants.hpp: f'(x0 + t) =
// t P(t), p[k] rounded to long double, truncation 1.9e-24 relative for |t| <= 1/8 =
// kErfZeroRadius). Used for |x - x0.hi| <= 1/8:
//   t = (x - x0.hi) - x0.lo: the first difference is exact (Sterbenz: x/x0.hi in [0.83, 1.17]), then
//     two_sum with x0.lo's high double and x0.lo's low double added (x0.lo has 64 bits, so it is
//     their exact sum): relative 2^-104 + x0's own error |x0 - hi - lo| < 2^-120 over |t|, and
//     |t| >= 2^-56 (x - hi is a multiple of 2^-53 and |lo| > 2^-56): 2^-64.
//   P(t) = p0 + t (p1 + t R(t)), p0 and p1 as pairs (exact copies of the long doubles), R =
//     sum_{k>=2} p[k] t^(k-2) in double (poly_split4): p[k] rounded to double (u) and the
//     evaluation (<= 8u sum |terms| for degree 14, counted as 16u): 17u t^2 sum |p[k] t^(k-2)|
//     <= 17u 2^-6 0.035 against P >= 0.37: 0.025u = 2^-58.3; taking R at t.hi: |t.lo| <= u|t|,
//     times t^2 |R'| <= 2^-6 0.12, over P: 2^-63.6; the two Horner steps 2^-102 each; the long
//     doubles' rounding 2^-64 relative on every term, with the truncation: 2^-63.6; t P: mul
//     2^-102.
//   Sum < 2^-58: within the same kErf64Rel (2^-57).
constexpr double kErfZeroNear = k::kErfZeroRadius;
struct ErfZeroTail {
  double c[std::size(k::kErfZeroPoly) - 2];  // p[2..] rounded to double
};
constexpr ErfZeroTail erf_zero_tail() {
  ErfZeroTail t{};
  for (std::size_t j = 0; j < std::size(t.c); ++j) t.c[j] = static_cast<double>(k::kErfZeroPoly[j + 2]);
  return t;
}
constexpr ErfZeroTail kErfZeroTail = erf_zero_tail();
// A long double (64-bit significand) as hi + lo, exactly.
constexpr k::DoubleDouble pair_of(long double v) {
  const double hi = static_cast<double>(v);
  return {hi, static_cast<double>(v - static_cast<long double>(hi))};
}
constexpr k::DoubleDouble kErfZeroLoPair = pair_of(k::kErfZeroLo);
constexpr k::DoubleDouble kErfZeroP0 = pair_of(k::kErfZeroPoly[0]);
constexpr k::DoubleDouble kErfZeroP1 = pair_of(k::kErfZeroPoly[1]);

// f'(x) = (x - x0) P(x - x0) for |x - x0.hi| <= 1/16 (bound above).
HWY_INLINE VD erf_derivative_near_zero(V x) {
  const D d;
  const V t1 = hn::Sub(x, hn::Set(d, k::kErfZeroHi));
  const VD t0 = two_sum(t1, hn::Set(d, -kErfZeroLoPair.hi));
  const VD t = fast_two_sum(t0.hi, hn::Sub(t0.lo, hn::Set(d, kErfZeroLoPair.lo)));
  VD q{poly_split4(t.hi, kErfZeroTail.c), hn::Zero(d)};
  q = horner_dd_step(q, t, kErfZeroP1);
  q = horner_dd_step(q, t, kErfZeroP0);
  return mul(q, t);
}

HWY_INLINE M erf_f64(bool value, V x, V& out) {
  const D d;
  const V lim = hn::Set(d, kErf64Clamp);
  const V xc = hn::Min(hn::Max(x, hn::Neg(lim)), lim);
  const VD g = exp_half_square_dd(xc);
  const V h = hn::Set(d, 0.5);
  M ok;
  if (value) {
    const VD y = erfc_dd(xc, g, hn::Mul(xc, h));  // x/2 exact: |x| >= 2^-40 where accepted
    ok = round_to_double(y, hn::Mul(hn::Abs(y.hi), hn::Set(d, kErf64Rel * kInflate)));
    out = y.hi;
  } else {
    const VD a = erfc_dd(xc, g, h);
    const k::DoubleDouble inv_sqrt_2pi{k::kTwoSqrt2OverPi.hi / 4, k::kTwoSqrt2OverPi.lo / 4};  // exact scaling
    const VD b = mul(mul(g, xc), constant(inv_sqrt_2pi));
    VD num = add_any(a, b);
    V abs_err = hn::Mul(hn::Add(hn::Abs(a.hi), hn::Abs(b.hi)), hn::Set(d, kErf64Rel + 0x1p-100));
    const M near = hn::Le(hn::Abs(hn::Sub(x, hn::Set(d, k::kErfZeroHi))), hn::Set(d, kErfZeroNear));
    if (!hn::AllFalse(d, near)) {  // one lane in 64 on [-8, 8]
      const VD z = erf_derivative_near_zero(x);
      num = {hn::IfThenElse(near, z.hi, num.hi), hn::IfThenElse(near, z.lo, num.lo)};
      abs_err = hn::IfThenElse(near, hn::Mul(hn::Abs(z.hi), hn::Set(d, kErf64Rel)), abs_err);
    }
    ok = hn::And(hn::Lt(abs_err, hn::Mul(hn::Set(d, kTrustDynamic), hn::Abs(num.hi))),
                 round_to_double(num, hn::Mul(abs_err, hn::Set(d, kInflate))));
    out = num.hi;
  }
  const M big = hn::Gt(x, lim);
  out = hn::IfThenElse(big, value ? x : hn::Set(d, 1.0), out);
  ok = hn::AndNot(hn::Lt(x, hn::Neg(lim)), hn::Or(ok, big));
  if (value) ok = hn::AndNot(hn::Lt(hn::Abs(x), hn::Set(d, kTiny)), ok);
  return hn::AndNot(hn::IsNaN(x), ok);  // NaN lanes were clamped to a finite xc: refuse them
}

// ---- entry points: n elements, any n ---------------------------------------------------------
// Runs lanes(x, y) -> accepted mask over x[0..n), stores every lane's y into out and the indices
// of the refused lanes into refused (ascending); returns their number.
template <class T, class Lanes>
HWY_INLINE std::size_t run(const T* x, T* out, std::uint32_t* refused, std::size_t n, Lanes lanes) {
  const D d;
  const hn::Rebind<T, D> dt;
  const std::size_t N = hn::Lanes(d);
  std::size_t nref = 0;
  auto one = [&](const T* xi, T* oi, std::size_t base, std::size_t m) HWY_ATTR __attribute__((always_inline)) {
    V y;
    V xv;
    if constexpr (sizeof(T) == sizeof(double)) xv = hn::LoadU(dt, xi);
    else xv = hn::PromoteTo(d, hn::LoadU(dt, xi));
    const M acc = lanes(xv, y);
    if (m == N) {
      if constexpr (sizeof(T) == sizeof(double)) hn::StoreU(y, dt, oi);
      else hn::StoreU(hn::DemoteTo(dt, y), dt, oi);
      if (hn::AllTrue(d, acc)) return;
    } else {
      HWY_ALIGN T ob[hn::MaxLanes(d)];
      if constexpr (sizeof(T) == sizeof(double)) hn::Store(y, dt, ob);
      else hn::Store(hn::DemoteTo(dt, y), dt, ob);
      for (std::size_t i = 0; i < m; ++i) oi[i] = ob[i];
    }
    std::uint8_t bits[(hn::MaxLanes(d) + 7) / 8 + 8] = {};
    hn::StoreMaskBits(d, acc, bits);
    for (std::size_t i = 0; i < m; ++i)
      if (!((bits[i / 8] >> (i % 8)) & 1)) refused[nref++] = static_cast<std::uint32_t>(base + i);
  };
  std::size_t i = 0;
  for (; i + N <= n; i += N) one(x + i, out + i, i, N);
  if (i < n) {
    HWY_ALIGN T xb[hn::MaxLanes(d)];
    for (std::size_t j = 0; j < N; ++j) xb[j] = j < n - i ? x[i + j] : T(1);
    one(xb, out + i, i, n - i);
  }
  return nref;
}

#define GELUCHECK_LANES(fn) [value](V v, V& y) HWY_ATTR __attribute__((always_inline)) { return fn(value != 0, v, y); }

// ---- binary32 erf form: the direct pass -------------------------------------------------------
// map and backward of the binary32 erf form run this pass first; erf_f32 above (rigorous bound and
// rounding test) redoes only the lanes it marks, and the scalar path the lanes erf_f32 refuses.
// It has NO error bound per lane: it evaluates f (value) or f' (derivative) in double lanes to
// about 2^-34 relative, rounds that double y once to binary32, and marks a lane when y lies within
// a window of 2^20 units in its last place (2^-33 to 2^-32 relative) of a binary32 midpoint, or when
// x is outside the region below. That every unmarked lane is the correct rounding is PROVED BY
// EXHAUSTION: tests/library/erf32_direct_test.cpp (test_library_erf32_exhaustive, LABELS long) runs
// all 2^32 binary32 inputs through this pass on every instruction set this CPU has, compares each
// unmarked lane with the MPFR-certified reference (ref::round_batch) and requires them all equal;
// it also reports the largest |y - f| of an unmarked lane in units of the window (below 1: y and f
// round alike because no midpoint lies within a window of y). Measured there: docs/library.md,
// "Vector paths".
// Why no bound: the rounding test of erf_f32 (error bound, midpoints, range checks: ~40 vector
// operations per 8 lanes) and the accuracy it needs (2^-48, a degree-20 polynomial and a division)
// cost more than PyTorch's whole evaluation; here the test is 3 operations (add, and, test) and the
// accuracy 2^-34 (degree 7, no division).
// Instruction sets: the pass uses correctly rounded operations only (add, subtract, multiply,
// multiply-add, exact conversions and table lookups), so its bits depend only on whether MulAdd is
// fused: one function of x on every target with FMA (AVX3, AVX2) and another on the targets
// without (SSE4, SSSE3, the emulated ones); the exhaustive test runs both.
//
// The evaluation, for v = |x| <= 13 (x a binary32 value, exact in the double lane), the tables of
// gelucheck/erf32_tables.hpp (src/tools/fit_erf32_direct.py, which measures their approximation
// errors):
//   interval k = RN(v 19/16), k = 0..15 (exact: v 19/16 needs 29 bits, so an unfused MulAdd rounds
//   the same), t = v - c[k] (|t| < 0.46; exact for the derivative's interval around its zero);
//   value:      Q = Phi(-v) = exp(A_k(t)), A_k the degree-7 polynomial of log Q on interval k
//               (approximation error <= 2^-34.6, at k = 1), and f(x) = max(x, 0) - v Q (x Phi(x)
//               for both signs: v Q <= |f| for x >= 0, so Q's relative error enters f at most once),
//               the sign of a zero x restored by CopySign;
//   derivative: D = Phi(-v) - v phi(v) = (v0 - v) exp(B_k(t)), B_k the degree-7 polynomial of
//               log(D/(v0 - v)) (<= 2^-35.5, at k = 1), v0 - v = z[k] - t (z[1] the low part of
//               v0: relative accuracy next to the zero), and f'(x) = D for x < 0, 1 - D for
//               x >= 0 (D <= 1/2 there);
//   exp(a), a in [-90, 0]: m 16 + j = RN(a 16/ln2) by the 1.5 2^52 shift, r = a - (m 16 + j) ln2/16
//               (one rounded constant: |m 16 + j| <= 2100, so its error is < 2^-46 on r), e^r a
//               degree-4 polynomial (<= 2^-38.5 on |r| <= ln2/32), times 2^m RN(2^(j/16)) built from
//               a 16-entry table by one integer add of (m 16 + j) << 48 (erf32_tables.hpp).
// Region (marked lanes go to erf_f32): |x| <= 13, where the tables apply and both results are
//   normal binary32 numbers (|f(-13)| = 8.0e-38, |f'(-13)| = 1.0e-36 > 2^-126 = 1.2e-38: the window
//   looks at normal midpoints only); NaN is outside; the value also needs |x| >= 2^-125 or x = 0:
//   below, f ~ x/2 is subnormal (±0 gives ±0 exactly).
// Closed forms (unmarked, +-inf included but +inf's value; the exhaustive test checks them as
//   every other lane):
//   x > 13: f = x - x Phi(-x) and x Phi(-x) / x = Phi(-x) < phi(13)/13 < 2^-126 (Mills ratio), far
//     below the 2^-25 that would move RN32 off x (the midpoint below a power of two): f -> x;
//     f' = Phi(x) + x phi(x) = 1 + (x phi(x) - Phi(-x)) in (1, 1 + x phi(x)), x phi(x) < 2^-119 (both decrease in x):
//     f' -> 1.
//   x < -14.75, v = -x: f = -v Phi(-v) and |f| < phi(v) (Phi(-v) < phi(v)/v) <= phi(14.75)
//     = e^-109.7 < 2^-158; f' = Phi(-v) - v phi(v) < 0 and |f'| < v phi(v) <= 14.75 phi(14.75)
//     < 2^-154 (v phi(v) decreases for v > 1): both negative and below half the least subnormal
//     (2^-150): -0. (Not from -14.5: there v phi(v) - Phi(-v) ~ v phi(v) = 2^-149.1.)
constexpr std::int64_t kErf32Big = 0x402a000000000000;   // bits of 13.0
constexpr std::int64_t kErf32Tiny = 0x3820000000000000;  // bits of 0x1p-125
// The window (W = kErf32WindowLog2 = 20): the low 29 bits of y's significand place y among the
// binary32 values of its binade (2^28 is a midpoint); the lane is marked iff they lie in
// [2^28 - 2^W, 2^28 + 2^W), i.e. iff those bits plus 2^28 + 2^W have none of the bits W+1..28 set.
// Midpoints of the neighbouring binades are 2^27 units or more away.
constexpr std::int64_t kWindowAdd = (std::int64_t{1} << 28) + (std::int64_t{1} << kErf32WindowLog2);
constexpr std::int64_t kWindowMask = (std::int64_t{1} << 29) - (std::int64_t{1} << (kErf32WindowLog2 + 1));

// table[idx & 15] per lane. AVX-512 holds the 16 doubles in two registers (one permute); the
// other targets gather them: the same values, so the same results.
HWY_INLINE V lookup16(const double* table, VI idx) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return V{_mm512_permutex2var_pd(_mm512_loadu_pd(table), idx.raw, _mm512_loadu_pd(table + 8))};
#else
  const DI di;
  return hn::GatherIndex(D(), table, hn::And(idx, hn::Set(di, 15)));
#endif
}

// sum_i c[i][k] t^i by Horner's scheme, c[i][k] looked up per lane (unrolled).
template <std::size_t N, std::size_t... I>
HWY_INLINE V horner16(const double (&c)[N][16], VI k, V t, std::index_sequence<I...>) {
  V p = lookup16(c[N - 1], k);
  ((p = hn::MulAdd(p, t, lookup16(c[N - 2 - I], k))), ...);
  return p;
}
template <std::size_t N>
HWY_INLINE V horner16(const double (&c)[N][16], VI k, V t) {
  return horner16(c, k, t, std::make_index_sequence<N - 1>{});
}

// e^a = p * scale (returned apart: the callers multiply scale into a factor that is ready early).
HWY_INLINE V exp16(V a, V& scale) {
  const D d;
  const DI di;
  const V shifter = hn::Set(d, 0x1.8p52);
  const V ks = hn::MulAdd(a, hn::Set(d, 16 / 0x1.62e42fefa39efp-1), shifter);
  const V r = hn::NegMulAdd(hn::Sub(ks, shifter), hn::Set(d, 0x1.62e42fefa39efp-1 / 16), a);
  const double* c = erf32::kExpP;
  V p = hn::Set(d, c[4]);
  p = hn::MulAdd(p, r, hn::Set(d, c[3]));
  p = hn::MulAdd(p, r, hn::Set(d, c[2]));
  p = hn::MulAdd(p, r, hn::Set(d, c[1]));
  p = hn::MulAdd(p, r, hn::Set(d, c[0]));
  const VI kb = hn::BitCast(di, ks);  // m 16 + j in the low bits
  const VI t = hn::BitCast(di, lookup16(reinterpret_cast<const double*>(erf32::kExpBits), kb));
  scale = hn::BitCast(d, hn::Add(t, hn::ShiftLeft<48>(kb)));
  return p;
}

// y ~ f(x) or f'(x) per lane; redo marks the lanes whose RN32(y) is not known to be right.
HWY_INLINE V erf32_direct(bool value, V x, M& redo) {
  const D d;
  const DI di;
  const hn::RebindToUnsigned<D> du;
  const V v = hn::Abs(x);
  const VI vb = hn::BitCast(di, v);
  const VI k = hn::BitCast(di, hn::MulAdd(v, hn::Set(d, erf32::kSigma), hn::Set(d, 0x1.8p52)));
  V y, scale;
  if (value) {
    // Outside [2^-125, 13] (NaN included: its bits are above), but for +-0.
    redo = hn::RebindMask(d, hn::Gt(hn::BitCast(du, hn::Sub(vb, hn::Set(di, kErf32Tiny))),
                                    hn::Set(du, static_cast<std::uint64_t>(kErf32Big - kErf32Tiny))));
    redo = hn::AndNot(hn::Eq(x, hn::Zero(d)), redo);
    const V t = hn::Sub(v, lookup16(erf32::kValueC, k));
    const V p = exp16(horner16(erf32::kValueP, k, t), scale);
    y = hn::CopySign(hn::NegMulAdd(p, hn::Mul(v, scale), hn::Max(x, hn::Zero(d))), x);
  } else {
    redo = hn::RebindMask(d, hn::Gt(vb, hn::Set(di, kErf32Big)));  // NaN too
    const V t = hn::Sub(v, lookup16(erf32::kDerivC, k));
    const V p = exp16(horner16(erf32::kDerivP, k, t), scale);
    const V w = hn::Mul(hn::Sub(lookup16(erf32::kDerivZ, k), t), scale);  // (v0 - v) 2^m RN(2^(j/16))
    y = hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Mul(p, w), hn::NegMulAdd(p, w, hn::Set(d, 1.0)));
  }
  // The closed forms beyond the region (their derivation above, "Closed forms"): binary32 values,
  // which the window below never marks.
  // (+inf's value stays marked: Highway's DemoteTo to binary32 does not keep an infinity.)
  const M above = value ? hn::And(hn::Gt(x, hn::Set(d, 13.0)), hn::Lt(x, hn::Inf(d))) : hn::Gt(x, hn::Set(d, 13.0));
  const M below = hn::Lt(x, hn::Set(d, -14.75));
  y = hn::IfThenElse(above, value ? x : hn::Set(d, 1.0), y);
  y = hn::IfThenElse(below, hn::Set(d, -0.0), y);
  redo = hn::AndNot(hn::Or(above, below), redo);
  const VI yb = hn::Add(hn::BitCast(di, y), hn::Set(di, kWindowAdd));
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  const M near{_mm512_testn_epi64_mask(yb.raw, hn::Set(di, kWindowMask).raw)};  // one instruction
#else
  const M near = hn::RebindMask(d, hn::Eq(hn::And(yb, hn::Set(di, kWindowMask)), hn::Zero(di)));
#endif
  redo = hn::Or(redo, near);
  return y;
}

// The binary32 erf form over n elements: out[i] = the value or derivative at x[i], or
// for backward (g non-null) g[i] times the rounded derivative, one rounding. The direct pass on
// every vector (a tail padded with +1), then erf_f32 on the marked lanes, gathered into a buffer
// and run when it holds kPending of them and at the end (about 1 lane in 300 is marked on [-8, 8];
// run per block of 256 elements, a vector of erf_f32 for a lane or two cost 0.2 ns per element).
// The lanes erf_f32 refuses go to scalar (the scalar path, gelu_scalar.cpp) when it is given, else
// their indices to refused (simd_fast's contract, n < 2^32; out[i] is then unspecified; g must be
// null).
// x or g may alias out exactly: a marked lane's x and g are saved before its vector's results are
// stored.
using Scalar32 = float (*)(int value, float x);
using DF = hn::Rebind<float, D>;
using VF = hn::Vec<DF>;
template <int kValue, bool kGrad>
class Erf32Run {
 public:
  Erf32Run(float* out, std::uint32_t* refused, Scalar32 scalar) : out_(out), refused_(refused), scalar_(scalar) {}

  std::size_t operator()(const float* x, const float* g, std::size_t n) {
    const D d;
    const DF df;
    const std::size_t N = hn::Lanes(d);
    std::size_t i = 0;
    for (; i + N <= n; i += N) {
      const VF xf = hn::LoadU(df, x + i);
      const VF gf = kGrad ? hn::LoadU(df, g + i) : xf;
      M redo;
      hn::StoreU(one(xf, gf, redo), df, out_ + i);
      if (HWY_UNLIKELY(!hn::AllFalse(d, redo))) mark(i, N, xf, gf, redo);
    }
    if (i < n) {
      HWY_ALIGN float xt[kMax], gt[kMax], yt[kMax];
      for (std::size_t j = 0; j < N; ++j) {
        xt[j] = i + j < n ? x[i + j] : 1.0f;
        gt[j] = kGrad && i + j < n ? g[i + j] : 1.0f;
      }
      const VF xf = hn::Load(df, xt), gf = hn::Load(df, gt);
      M redo;
      hn::Store(one(xf, gf, redo), df, yt);
      for (std::size_t j = 0; i + j < n; ++j) out_[i + j] = yt[j];
      if (!hn::AllFalse(d, redo)) mark(i, n - i, xf, gf, redo);
    }
    if (np_ > 0) flush();
    return nref_;
  }

 private:
  static constexpr std::size_t kPending = 256;
  static constexpr std::size_t kMax = hn::MaxLanes(D());

  // One vector's results (times g for backward).
  HWY_INLINE VF one(VF xf, VF gf, M& redo) {
    const VF r = hn::DemoteTo(DF(), erf32_direct(kValue != 0, hn::PromoteTo(D(), xf), redo));
    return kGrad ? hn::Mul(r, gf) : r;
  }
  // The marked lanes of the vector at i (len of its lanes are elements): their x and g, packed.
  void mark(std::size_t i, std::size_t len, VF xf, VF gf, M redo) {
    std::uint8_t bits[(kMax + 7) / 8 + 8] = {};
    hn::StoreMaskBits(D(), redo, bits);
    hn::StoreU(xf, DF(), xr_ + np_);
    if (kGrad) hn::StoreU(gf, DF(), gr_ + np_);
    const std::size_t first = np_;
    for (std::size_t j = 0; j < len; ++j) {
      if (!((bits[j / 8] >> (j % 8)) & 1)) continue;
      xr_[np_] = xr_[first + j], gr_[np_] = gr_[first + j];  // moves left: in place
      at_[np_++] = i + j;
    }
    if (np_ > kPending - hn::Lanes(D())) flush();
  }
  void flush() {
    const int value = kValue;
    const std::size_t n2 = run(xr_, yr_, ref2_, np_, GELUCHECK_LANES(erf_f32));
    for (std::size_t j = 0; j < n2; ++j) {
      if (scalar_) yr_[ref2_[j]] = scalar_(kValue, xr_[ref2_[j]]);
      else refused_[nref_++] = static_cast<std::uint32_t>(at_[ref2_[j]]);  // simd_fast: n < 2^32
    }
    for (std::size_t j = 0; j < np_; ++j) out_[at_[j]] = kGrad ? gr_[j] * yr_[j] : yr_[j];
    np_ = 0;
  }

  float* out_;
  std::uint32_t* refused_;
  Scalar32 scalar_;
  std::size_t nref_ = 0, np_ = 0;
  HWY_ALIGN float xr_[kPending + kMax], gr_[kPending + kMax], yr_[kPending];
  std::size_t at_[kPending];  // the marked lanes' indices (map/backward may pass n >= 2^32)
  std::uint32_t ref2_[kPending];
};
template <int kValue, bool kGrad>
std::size_t RunErf32(const float* x, const float* g, float* out, std::uint32_t* refused, Scalar32 scalar,
                     std::size_t n) {
  Erf32Run<kValue, kGrad> r(out, refused, scalar);
  return r(x, g, n);
}

std::size_t Fast32(int form, int value, const float* x, float* out, std::uint32_t* refused, std::size_t n) {
  if (form == 0) return run(x, out, refused, n, GELUCHECK_LANES(tanh_f32));
  return value ? RunErf32<1, false>(x, nullptr, out, refused, nullptr, n)
               : RunErf32<0, false>(x, nullptr, out, refused, nullptr, n);
}

std::size_t Erf32(int value, const float* x, const float* g, float* out, std::uint32_t* refused, Scalar32 scalar,
                  std::size_t n) {
  if (g) return RunErf32<0, true>(x, g, out, refused, scalar, n);
  return value ? RunErf32<1, false>(x, nullptr, out, refused, scalar, n)
               : RunErf32<0, false>(x, nullptr, out, refused, scalar, n);
}

std::size_t Fast64(int form, int value, const double* x, double* out, std::uint32_t* refused, std::size_t n) {
  if (form == 0) return run(x, out, refused, n, GELUCHECK_LANES(tanh_f64));
  return run(x, out, refused, n, GELUCHECK_LANES(erf_f64));
}
#undef GELUCHECK_LANES

void ExpErfc(const double* a, double* e, const float* x, double* c, std::size_t n) {
  const D d;
  const hn::Rebind<float, D> df;
  const std::size_t N = hn::Lanes(d);
  HWY_ALIGN double ab[hn::MaxLanes(d)], eb[hn::MaxLanes(d)], cb[hn::MaxLanes(d)];
  HWY_ALIGN float xb[hn::MaxLanes(d)];
  for (std::size_t i = 0; i < n; i += N) {
    const std::size_t m = std::min(N, n - i);
    for (std::size_t j = 0; j < N; ++j) ab[j] = j < m ? a[i + j] : 0.0, xb[j] = j < m ? x[i + j] : 0.0f;
    hn::Store(exp_d(hn::Max(hn::Load(d, ab), hn::Set(d, -708.0))), d, eb);
    const V xv = hn::PromoteTo(d, hn::Load(df, xb));
    hn::Store(erfc_phi(xv, exp_half_square(xv)), d, cb);
    for (std::size_t j = 0; j < m; ++j) e[i + j] = eb[j], c[i + j] = cb[j];
  }
}

void ErfcDD(const double* x, double* hi, double* lo, std::size_t n) {
  const D d;
  const std::size_t N = hn::Lanes(d);
  HWY_ALIGN double xb[hn::MaxLanes(d)], hb[hn::MaxLanes(d)], lb[hn::MaxLanes(d)];
  for (std::size_t i = 0; i < n; i += N) {
    const std::size_t m = std::min(N, n - i);
    for (std::size_t j = 0; j < N; ++j) xb[j] = j < m ? x[i + j] : 0.0;
    const V xv = hn::Load(d, xb);
    const VD c = erfc_dd(xv, exp_half_square_dd(xv), hn::Set(d, 1.0));
    hn::Store(c.hi, d, hb);
    hn::Store(c.lo, d, lb);
    for (std::size_t j = 0; j < m; ++j) hi[i + j] = hb[j], lo[i + j] = lb[j];
  }
}

// out[i] = a[i] * b[i] (backward's products over contiguous rows; exact aliasing of out with a or b
// is fine: each vector is loaded before it is stored). The compiler leaves the plain loop scalar
// (it cannot rule out a partial overlap): 0.5 ns per element of the binary32 backward.
template <class T>
HWY_INLINE void multiply(const T* a, const T* b, T* out, std::size_t n) {
  const hn::ScalableTag<T> dt;
  const std::size_t N = hn::Lanes(dt);
  std::size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(hn::Mul(hn::LoadU(dt, a + i), hn::LoadU(dt, b + i)), dt, out + i);
  for (; i < n; ++i) out[i] = a[i] * b[i];
}
void Multiply32(const float* a, const float* b, float* out, std::size_t n) { multiply(a, b, out, n); }
void Multiply64(const double* a, const double* b, double* out, std::size_t n) { multiply(a, b, out, n); }

void Erf32Direct(int value, const float* x, double* y, std::uint8_t* redo, std::size_t n) {
  const D d;
  const hn::Rebind<float, D> df;
  const std::size_t N = hn::Lanes(d);
  HWY_ALIGN float xb[hn::MaxLanes(d)];
  HWY_ALIGN double yb[hn::MaxLanes(d)];
  for (std::size_t i = 0; i < n; i += N) {
    const std::size_t m = std::min(N, n - i);
    for (std::size_t j = 0; j < N; ++j) xb[j] = j < m ? x[i + j] : 1.0f;
    M r;
    hn::Store(erf32_direct(value != 0, hn::PromoteTo(d, hn::Load(df, xb)), r), d, yb);
    std::uint8_t bits[(hn::MaxLanes(d) + 7) / 8 + 8] = {};
    hn::StoreMaskBits(d, r, bits);
    for (std::size_t j = 0; j < m; ++j) y[i + j] = yb[j], redo[i + j] = (bits[j / 8] >> (j % 8)) & 1;
  }
}

void ExpDD(double hi, double lo, double* rhi, double* rlo) {
  const D d;
  const VD e = exp_dd(VD{hn::Set(d, hi), hn::Set(d, lo)});
  *rhi = hn::GetLane(e.hi);
  *rlo = hn::GetLane(e.lo);
}

}  // namespace gelucheck::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gelucheck::detail {

HWY_EXPORT(Fast32);
HWY_EXPORT(Erf32);
HWY_EXPORT(Fast64);
HWY_EXPORT(ExpDD);
HWY_EXPORT(ExpErfc);
HWY_EXPORT(ErfcDD);
HWY_EXPORT(Erf32Direct);
HWY_EXPORT(Multiply32);
HWY_EXPORT(Multiply64);

std::size_t simd_fast(Form form, Quantity q, const float* x, float* out, std::uint32_t* refused, std::size_t n) {
  return HWY_DYNAMIC_DISPATCH(Fast32)(form == Form::tanh ? 0 : 1, q == Quantity::value ? 1 : 0, x, out, refused, n);
}
std::size_t simd_fast(Form form, Quantity q, const double* x, double* out, std::uint32_t* refused, std::size_t n) {
  return HWY_DYNAMIC_DISPATCH(Fast64)(form == Form::tanh ? 0 : 1, q == Quantity::value ? 1 : 0, x, out, refused, n);
}
constants::DoubleDouble fast_exp_dd(constants::DoubleDouble a) {
  constants::DoubleDouble r{};
  HWY_DYNAMIC_DISPATCH(ExpDD)(a.hi, a.lo, &r.hi, &r.lo);
  return r;
}
void simd_exp_erfc(const double* a, double* exp_a, const float* x, double* erfc_x, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(ExpErfc)(a, exp_a, x, erfc_x, n);
}
void simd_erfc_dd(const double* x, double* hi, double* lo, std::size_t n) { HWY_DYNAMIC_DISPATCH(ErfcDD)(x, hi, lo, n); }
void simd_erf32(Quantity q, const float* x, const float* dy, float* out, float (*scalar)(int value, float x),
                std::size_t n) {
  HWY_DYNAMIC_DISPATCH(Erf32)(q == Quantity::value ? 1 : 0, x, dy, out, nullptr, scalar, n);
}
void simd_multiply(const float* a, const float* b, float* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(Multiply32)(a, b, out, n);
}
void simd_multiply(const double* a, const double* b, double* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(Multiply64)(a, b, out, n);
}
void simd_erf32_direct(Quantity q, const float* x, double* y, std::uint8_t* redo, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(Erf32Direct)(q == Quantity::value ? 1 : 0, x, y, redo, n);
}
std::vector<std::int64_t> simd_targets() { return hwy::SupportedAndGeneratedTargets(); }
void simd_force_target(std::int64_t target) { hwy::SetSupportedTargetsForTest(target); }
// The target HWY_DYNAMIC_DISPATCH runs: the best (lowest bit) of those compiled and supported.
const char* simd_target() {
  const std::int64_t t = hwy::SupportedTargets() & HWY_TARGETS;
  return hwy::TargetName(t & -t);
}

}  // namespace gelucheck::detail
#endif
