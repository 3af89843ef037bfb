// The error measures of docs/reference.md §5, computed from the enclosure of the exact value (not from
// its rounding), or from the fast reference's double-double approximation of it. See
// docs/reference.md "Error measures". Both overloads share one decision/ulp logic (measure_with).
#include "gelucheck/measure.hpp"

#include <algorithm>
#include <cmath>
#include <climits>
#include <limits>

#include "gelucheck/mpfr.hpp"

namespace gelucheck {
namespace {


Error infinite_error(bool nan_mismatch) {
  Error e;
  e.ulp = e.abs = e.rel = kInf;
  e.nan_mismatch = nan_mismatch;
  return e;
}

// What the measure needs to know about the exact value y, whatever carries it.
struct Target {
  bool nan = false;
  bool inf = false;
  double inf_value = 0;  // ±inf when inf
  bool neg = false;      // y's sign (an exact zero is its own sign)
  bool zero = false;     // y is exactly ±0
  bool decided = false;  // rn/rd/ru and floor_log2 are exact decisions
  double rn = 0, rd = 0, ru = 0;
  long floor_log2 = 0;   // for nonzero y: exact when decided, else the larger bound's
};

// |r - y|: abs (rounded up), in ulps of 2^ulp_exp, and relative to |y|.
struct Distance {
  double abs = 0, ulp = 0, rel = 0;
};

// The one decision/ulp logic. distance(ulp_exp) measures |r - y| for finite r and finite y.
template <class DistanceFn>
Error measure_with(double r, const Target& y, Format fmt, DistanceFn distance) {
  if (y.nan) return std::isnan(r) ? Error{} : infinite_error(true);
  if (std::isnan(r)) return infinite_error(true);
  if (y.inf) return r == y.inf_value ? Error{} : infinite_error(false);
  Error e;
  e.zero_sign_mismatch = (r == 0 || y.zero) && (std::signbit(r) != y.neg);
  if (std::isinf(r)) {
    // Overflow: when the correctly rounded value is this infinity, r is counted as correctly
    // rounded (0.5 ulp); its absolute and relative errors are infinite all the same.
    Error inf = infinite_error(false);
    if (y.decided && r == y.rn) inf.ulp = 0.5;
    return inf;
  }

  const FormatInfo fi = info(fmt);
  // ulp(y) = 2^(max(floor(log2|y|), emin) - p + 1); for y = 0 the least subnormal.
  long e2 = fi.emin;
  if (!y.zero) e2 = std::max(y.floor_log2, e2);
  const long ulp_exp = e2 - fi.precision + 1;
  const Distance d = distance(ulp_exp);
  e.abs = d.abs;
  e.ulp = d.ulp;
  e.rel = d.rel;

  // The exact decisions: correctly rounded ⇔ r is y rounded to nearest; faithful ⇔ r is y
  // rounded down or up. The ulp figure is kept consistent with them where rounding it to a
  // double (or the enclosure's width) would put it on the wrong side of 0.5 or 1 (f(x) within
  // 2^-1074 relative of a midpoint, as at x = 2^-1074).
  if (y.decided) e.ulp = detail::decided_ulp(e.ulp, r, y.rn, y.rd, y.ru);
  return e;
}

}  // namespace

Error measure(double r, const ref::Enclosure& y, Format fmt) {
  MpfrRange guard;
  mpfr_srcptr lo = y.lo(), hi = y.hi();
  Target t;
  t.nan = mpfr_nan_p(lo) || mpfr_nan_p(hi);
  t.inf = !t.nan && (mpfr_inf_p(lo) || mpfr_inf_p(hi));  // an enclosure of a finite y is finite
  if (t.inf) t.inf_value = mpfr_get_d(mpfr_inf_p(lo) ? lo : hi, MPFR_RNDN);
  // The sign of y: hi's sign bit (y > 0 has hi > 0; y < 0 has hi < 0 or hi = -0; an exact zero
  // is its own sign).
  t.neg = mpfr_signbit(hi) != 0;
  t.zero = mpfr_zero_p(lo) && mpfr_zero_p(hi);
  t.decided = y.decided();
  if (t.decided) {
    t.rn = y.rounded(fmt);
    t.rd = y.rounded_down(fmt);
    t.ru = y.rounded_up(fmt);
    t.floor_log2 = y.floor_log2();
  } else if (!t.nan && !t.inf && !t.zero) {  // hand-made: the larger bound's exponent
    t.floor_log2 = std::max(mpfr_zero_p(lo) ? LONG_MIN : mpfr_get_exp(lo) - 1,
                            mpfr_zero_p(hi) ? LONG_MIN : mpfr_get_exp(hi) - 1);
  }
  return measure_with(r, t, fmt, [&](long ulp_exp) {
    // |r - y| at the enclosure's midpoint m; |y - m| <= (hi - lo)/2, i.e. 2^-bits relative for
    // an enclosure from enclose(), far below what a double result shows.
    Distance dist;
    const mpfr_prec_t pm = std::max(mpfr_get_prec(lo), mpfr_get_prec(hi)) + 2;
    Mpfr m(pm), d(pm + 64);
    mpfr_add(m, lo, hi, MPFR_RNDN);
    mpfr_div_2ui(m, m, 1, MPFR_RNDN);
    mpfr_sub_d(d, m, r, MPFR_RNDU);
    mpfr_abs(d, d, MPFR_RNDN);
    dist.abs = mpfr_get_d(d, MPFR_RNDU);
    Mpfr u(pm + 64);
    mpfr_mul_2si(u, d, -ulp_exp, MPFR_RNDN);
    dist.ulp = mpfr_get_d(u, MPFR_RNDN);
    if (t.zero || mpfr_zero_p(m)) {  // the second cannot happen for an enclosure from enclose()
      dist.rel = r == 0 ? 0 : kInf;
    } else {
      Mpfr rel(pm + 64);
      mpfr_div(rel, d, m, MPFR_RNDN);
      mpfr_abs(rel, rel, MPFR_RNDN);
      dist.rel = mpfr_get_d(rel, MPFR_RNDN);
    }
    return dist;
  });
}

// The error bound of this measure's ulp figure (the exhaustive sweep's, wrong results included:
// no MPFR call). Let u = 2^ulp_exp, r a value of fmt, y = f(x), ŷ = hi + lo with |ŷ - y| <=
// 2^-70 |y| (fast_reference.hpp's contract).
//  - y.scale == 0, y != 0: s + e = r - hi exactly (TwoSum); t = fl(e - lo) errs by at most
//    2^-53 (|e| + |lo|) <= 2^-105 (|r - hi| + |hi|); dh + dl = s + t exactly; ad = fl|dh + dl|
//    errs by 2^-53 ad. So |ad - |r - y|| <= 2^-70 |y| + 2^-53 ad + 2^-105 (|r - y| + 2|y|), and
//    ldexp by -ulp_exp is exact (a power of two; ad/u is far above the subnormals unless it is
//    0). With u > 2^-p |y| (u = 2^(max(floor log2|y|, emin) - p + 1)), in ulps:
//        |ulp - |r - y|/u| <= 2^(p-70) + 2^-52 ulp      (binary32: 2^-46 + 2^-52 ulp).
//  - y.scale != 0 (|y| < 2^-960, far below fmt's least subnormal 2^(emin-p+1)): r == 0 gives
//    |y|/u to 2^-52 relative, itself below 2^-800; r != 0 gives |r - yd| with |yd| < 2^-960, which
//    is |r - y| to 2^-52 relative.
//  - y == 0, ±inf, NaN, r infinite or NaN: exact (0, 0.5 or +inf).
// measure_with() then moves the figure only to the side of 0.5 and of 1 the exact decisions
// (rn, rd, ru, bit for bit those of enclose()) put it on, which keeps the bound. So the
// classification (correctly rounded, faithful, NaN and zero-sign mismatches) is exact, the
// figure is good to 2^-46 absolute plus 2^-52 relative, and the histogram bin ceil(log2 ulp) is
// exact unless the figure lies within that of a power of two other than 0.5 and 1 (f(x) within
// 2^-46 ulp of a value of fmt: no such input is known; tests/reference/test_fast_reference.cpp,
// WrongResultsMeasureAsTheEnclosureDoes, checks the bound on wrong results of every kind). Three
// significant digits (fmt_num) are then always right for figures >= 2^-30; near 0.5 and 1
// report.md prints the fewest digits that keep a figure on its side (reports/src/text.cpp).
Error measure(double r, const ref::Rounded& y, Format fmt) {
  Target t;
  t.nan = std::isnan(y.hi);
  t.inf = std::isinf(y.hi);
  t.inf_value = y.hi;
  t.neg = std::signbit(y.hi);
  t.zero = y.hi == 0 && y.lo == 0 && y.scale == 0;
  t.decided = true;
  t.rn = y.rn;
  t.rd = y.rd;
  t.ru = y.ru;
  t.floor_log2 = y.floor_log2;
  return measure_with(r, t, fmt, [&](long ulp_exp) {
    Distance dist;
    const int ue = static_cast<int>(std::clamp(-ulp_exp, -4000L, 4000L));
    if (t.zero) {
      dist.abs = std::fabs(r);
      dist.ulp = ldexp_fast(dist.abs, ue);
      dist.rel = r == 0 ? 0 : kInf;
    } else if (y.scale == 0) {
      // d = r - (hi + lo) in double-double: r - hi exactly by TwoSum, then the error term; the
      // result carries |d| to ~2^-100 relative unless r and y agree to more than 2^-70 of y,
      // where y's own 2^-70 dominates (docs/reference.md).
      const double ad = detail::distance_dd(r, y.hi, y.lo);
      dist.abs = ad;
      if (ad == 0 && r != y.hi + y.lo) dist.abs = std::numeric_limits<double>::denorm_min();
      dist.ulp = ldexp_fast(ad, ue);
      dist.rel = ad / std::fabs(y.hi + y.lo);
    } else {
      // |y| < 2^-960: r (a value of fmt, 0 or of magnitude >= 2^-1074) and y are compared at
      // double precision; where r == 0 the distance is |y| itself, kept to its scale.
      const int sc = static_cast<int>(std::max(y.scale, -4000L));
      if (r == 0) {
        dist.abs = std::max(ldexp_fast(std::fabs(y.hi), sc),
                            std::numeric_limits<double>::denorm_min());
        dist.ulp = ldexp_fast(std::fabs(y.hi + y.lo), static_cast<int>(std::clamp(
                                                          y.scale - ulp_exp, -4000L, 4000L)));
        dist.rel = 1;
      } else {
        const double yd = ldexp_fast(y.hi, sc);
        double ad = std::fabs(r - yd);
        if (ad == 0) ad = std::numeric_limits<double>::denorm_min();
        dist.abs = ad;
        dist.ulp = ldexp_fast(ad, ue);
        dist.rel = ldexp_fast(ad / std::fabs(y.hi), static_cast<int>(std::clamp(-y.scale, -4000L,
                                                                                 4000L)));
      }
    }
    return dist;
  });
}

}  // namespace gelucheck
