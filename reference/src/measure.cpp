// The error measures of docs/reference.md §5, computed from the enclosure of the exact value (not from
// its rounding). See docs/reference.md "Error measures".
#include "gelucheck/measure.hpp"

#include <algorithm>
#include <cmath>
#include <climits>
#include <limits>

#include "gelucheck/mpfr.hpp"

namespace gelucheck {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Error infinite_error(bool nan_mismatch) {
  Error e;
  e.ulp = e.abs = e.rel = kInf;
  e.nan_mismatch = nan_mismatch;
  return e;
}

}  // namespace

Error measure(double r, const ref::Enclosure& y, Format fmt) {
  MpfrRange guard;
  mpfr_srcptr lo = y.lo(), hi = y.hi();
  const bool y_nan = mpfr_nan_p(lo) || mpfr_nan_p(hi);
  if (y_nan) return std::isnan(r) ? Error{} : infinite_error(true);
  if (std::isnan(r)) return infinite_error(true);
  if (mpfr_inf_p(lo) || mpfr_inf_p(hi)) {  // y = ±inf (an enclosure of a finite y is finite)
    const double yi = mpfr_get_d(mpfr_inf_p(lo) ? lo : hi, MPFR_RNDN);
    return r == yi ? Error{} : infinite_error(false);
  }
  // The sign of y: hi's sign bit (y > 0 has hi > 0; y < 0 has hi < 0 or hi = -0; an exact zero
  // is its own sign).
  const bool y_neg = mpfr_signbit(hi) != 0;
  const bool y_zero = mpfr_zero_p(lo) && mpfr_zero_p(hi);
  Error e;
  e.zero_sign_mismatch = (r == 0 || y_zero) && (std::signbit(r) != y_neg);
  if (std::isinf(r)) {
    // Overflow: when the correctly rounded value is this infinity, r is counted as correctly
    // rounded (0.5 ulp); its absolute and relative errors are infinite all the same.
    Error inf = infinite_error(false);
    if (y.decided() && r == y.rounded(fmt)) inf.ulp = 0.5;
    return inf;
  }

  const FormatInfo fi = info(fmt);
  // ulp(y) = 2^(max(floor(log2|y|), emin) - p + 1); for y = 0 the least subnormal.
  long e2 = fi.emin;
  if (!y_zero) {
    long fl;
    if (y.decided()) {
      fl = y.floor_log2();
    } else {  // a hand-made enclosure: the exponent of its bound of larger magnitude
      fl = std::max(mpfr_zero_p(lo) ? LONG_MIN : mpfr_get_exp(lo) - 1,
                    mpfr_zero_p(hi) ? LONG_MIN : mpfr_get_exp(hi) - 1);
    }
    e2 = std::max(fl, e2);
  }
  const long ulp_exp = e2 - fi.precision + 1;

  // |r - y| at the enclosure's midpoint m; |y - m| <= (hi - lo)/2, i.e. 2^-bits relative for an
  // enclosure from enclose(), far below what a double result shows.
  const mpfr_prec_t pm = std::max(mpfr_get_prec(lo), mpfr_get_prec(hi)) + 2;
  Mpfr m(pm), d(pm + 64);
  mpfr_add(m, lo, hi, MPFR_RNDN);
  mpfr_div_2ui(m, m, 1, MPFR_RNDN);
  mpfr_sub_d(d, m, r, MPFR_RNDU);
  mpfr_abs(d, d, MPFR_RNDN);
  e.abs = mpfr_get_d(d, MPFR_RNDU);
  Mpfr u(pm + 64);
  mpfr_mul_2si(u, d, -ulp_exp, MPFR_RNDN);
  e.ulp = mpfr_get_d(u, MPFR_RNDN);
  if (y_zero) {
    e.rel = r == 0 ? 0 : kInf;
  } else if (mpfr_zero_p(m)) {
    e.rel = r == 0 ? 0 : kInf;  // cannot happen for an enclosure from enclose()
  } else {
    Mpfr rel(pm + 64);
    mpfr_div(rel, d, m, MPFR_RNDN);
    mpfr_abs(rel, rel, MPFR_RNDN);
    e.rel = mpfr_get_d(rel, MPFR_RNDN);
  }

  // The exact decisions carried by enclose(): correctly rounded ⇔ r is y rounded to nearest;
  // faithful ⇔ r is y rounded down or up. The ulp figure is kept consistent with them where
  // rounding it to a double (or the enclosure's width) would put it on the wrong side of 0.5 or 1
  // (f(x) within 2^-1074 relative of a midpoint, as at x = 2^-1074).
  if (y.decided()) {
    const bool cr = r == y.rounded(fmt);  // ±0 compare equal: the sign is counted apart
    const bool faithful = r == y.rounded_down(fmt) || r == y.rounded_up(fmt);
    if (cr) e.ulp = std::min(e.ulp, 0.5);
    else e.ulp = std::max(e.ulp, std::nextafter(0.5, 1.0));
    if (faithful) e.ulp = std::min(e.ulp, std::nextafter(1.0, 0.0));
    else e.ulp = std::max(e.ulp, 1.0);
  }
  return e;
}

}  // namespace gelucheck
