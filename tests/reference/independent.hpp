// Independent computations for the reference's tests: the TEXTBOOK formulas of DESIGN.md §1
// (1 + tanh u, 1 + erf(x/√2), 1 - tanh²u: not the reference's stable forms, and MPFR's tanh/erf
// rather than its exp/erfc), evaluated in round-to-nearest at a precision that outruns their
// cancellation by >= 150 bits; and rounding to a format through MPFR's own emulation
// (mpfr_set_emin/emax + mpfr_check_range + mpfr_subnormalize), not the reference's round_to.
#pragma once

#include <mpfr.h>

#include <cmath>
#include <initializer_list>

#include "gelucheck/common.hpp"
#include "gelucheck/mpfr.hpp"

namespace gelucheck::testing {

// Working precision: the naive forms lose about log2(e)·2|u| bits (tanh: 1 + tanh u ~ 2e^(2u)
// for u < 0) or log2(e)·x²/2 bits (erf: 1 + erf(x/√2) ~ e^(-x²/2)), plus up to ~110 bits of
// cancellation at the derivative's zero; 256 more bits cover rounding errors of the few steps.
inline mpfr_prec_t naive_precision(Form form, double x) {
  const double ax = std::fabs(x);
  const double lost = form == Form::tanh ? 2.9 * 0.8 * ax * (1 + 0.045 * ax * ax) : 0.73 * ax * ax;
  // Near 0, f(x) = x/2 + O(x²) and f'(x) = 1/2 + O(x): telling f from the boundary x/2 (or 1/2)
  // takes -log2|x| more bits.
  const double tiny = ax < 1 ? -std::log2(ax) : 0;
  return static_cast<mpfr_prec_t>(256 + 110 + lost + tiny);
}

// f(x) by the textbook formula, round-to-nearest at naive_precision: relative error below
// 2^-150 for |x| <= 45 (the reference's job is to agree with it after rounding).
inline void naive(mpfr_ptr out, Form form, Quantity q, double x) {
  const mpfr_prec_t p = naive_precision(form, x);
  mpfr_set_prec(out, p);
  Mpfr X(p, x), k(p), c(p), t(p), u(p), th(p), a(p), b(p);
  if (form == Form::tanh) {
    mpfr_const_pi(k, MPFR_RNDN);
    mpfr_ui_div(k, 2, k, MPFR_RNDN);
    mpfr_sqrt(k, k, MPFR_RNDN);                    // √(2/π)
    mpfr_set_str(c, "0.044715", 10, MPFR_RNDN);
    mpfr_mul(t, X, X, MPFR_RNDN);
    mpfr_mul(u, t, X, MPFR_RNDN);                  // x³
    mpfr_mul(u, u, c, MPFR_RNDN);
    mpfr_add(u, u, X, MPFR_RNDN);
    mpfr_mul(u, u, k, MPFR_RNDN);                  // u = √(2/π)(x + 0.044715x³)
    mpfr_tanh(th, u, MPFR_RNDN);
    mpfr_add_ui(a, th, 1, MPFR_RNDN);
    mpfr_mul(a, a, X, MPFR_RNDN);
    mpfr_div_2ui(a, a, 1, MPFR_RNDN);              // 0.5x(1 + tanh u)
    if (q == Quantity::value) {
      mpfr_set(out, a, MPFR_RNDN);
    } else {
      mpfr_add_ui(a, th, 1, MPFR_RNDN);
      mpfr_div_2ui(a, a, 1, MPFR_RNDN);            // 0.5(1 + tanh u)
      mpfr_sqr(b, th, MPFR_RNDN);
      mpfr_ui_sub(b, 1, b, MPFR_RNDN);             // 1 - tanh²u
      mpfr_mul(b, b, X, MPFR_RNDN);
      mpfr_div_2ui(b, b, 1, MPFR_RNDN);
      mpfr_mul(b, b, k, MPFR_RNDN);
      mpfr_mul_ui(c, c, 3, MPFR_RNDN);
      mpfr_mul(c, c, t, MPFR_RNDN);
      mpfr_add_ui(c, c, 1, MPFR_RNDN);             // 1 + 3·0.044715x²
      mpfr_mul(b, b, c, MPFR_RNDN);
      mpfr_add(out, a, b, MPFR_RNDN);
    }
  } else {
    mpfr_sqrt_ui(k, 2, MPFR_RNDN);
    mpfr_div(u, X, k, MPFR_RNDN);
    mpfr_erf(th, u, MPFR_RNDN);
    mpfr_add_ui(a, th, 1, MPFR_RNDN);
    mpfr_div_2ui(a, a, 1, MPFR_RNDN);              // Φ(x) = 0.5(1 + erf(x/√2))
    if (q == Quantity::value) {
      mpfr_mul(out, a, X, MPFR_RNDN);
    } else {
      mpfr_mul(t, X, X, MPFR_RNDN);
      mpfr_div_2ui(t, t, 1, MPFR_RNDN);
      mpfr_neg(t, t, MPFR_RNDN);
      mpfr_exp(t, t, MPFR_RNDN);
      mpfr_const_pi(b, MPFR_RNDN);
      mpfr_mul_2ui(b, b, 1, MPFR_RNDN);
      mpfr_sqrt(b, b, MPFR_RNDN);
      mpfr_div(t, t, b, MPFR_RNDN);                // φ(x)
      mpfr_mul(t, t, X, MPFR_RNDN);
      mpfr_add(out, a, t, MPFR_RNDN);
    }
  }
}

// v rounded to nearest-even in fmt by MPFR's emulation of a format with subnormals.
inline double round_independent(mpfr_srcptr v, Format fmt) {
  const FormatInfo fi = info(fmt);
  Mpfr r(fi.precision);
  int inex = mpfr_set(r, v, MPFR_RNDN);
  {
    // MPFR writes numbers as 0.1b…·2^e: the least subnormal 2^(emin-p+1) has e = emin - p + 2,
    // the greatest finite number has e = emax + 1.
    MpfrRange range(fi.emin - fi.precision + 2, fi.emax + 1);
    inex = mpfr_check_range(r, inex, MPFR_RNDN);
    mpfr_subnormalize(r, inex, MPFR_RNDN);
  }
  return mpfr_get_d(r, MPFR_RNDN);
}

}  // namespace gelucheck::testing
