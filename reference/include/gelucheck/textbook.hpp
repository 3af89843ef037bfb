// gelucheck/textbook.hpp — the textbook formulas (the literal forms of the Lean definitions
// geluScalar, geluErfScalar and the closed-form derivatives geluScalarDeriv_eq,
// geluErfScalarDeriv_eq) evaluated in MPFR, round-to-nearest, at a precision that outruns their
// cancellation. The one evaluator for the INDEPENDENT check of the reference: the reference's
// tests (tests/reference) and the property suite's reference_* properties compare ref:: results
// with it. It shares nothing with reference.cpp — other formulas (1 + tanh u, 1 + erf(x/√2),
// 1 - tanh²u, against the reference's x·σ(2u) and erfc forms), MPFR's tanh/erf rather than its
// exp/erfc, plain rounding rather than intervals and Ziv's loop — so a wrong constant, form or
// term in either shows up as a disagreement. The reference itself never calls it.
#pragma once

#include <mpfr.h>

#include <algorithm>
#include <cmath>

#include "gelucheck/common.hpp"
#include "gelucheck/mpfr.hpp"

namespace gelucheck::ref {

// Working precision for x (an estimate from its double value). Every MPFR operation is correctly
// rounded at p, so each contributes a relative error <= 2^-p; the only growth is cancellation:
//   1 + tanh u (u < 0) = 2/(1 + e^(-2u)) ≈ 2e^(2u): loses ≈ 2|u|/ln 2 bits,
//     |u| = √(2/π)|x|(1 + 0.044715x²) <= 0.8|x|(1 + 0.044715x²);
//   1 - tanh²u = sech²u ≈ 4e^(-2|u|): the same for x < 0 (for x > 0 that term is outweighed by
//     0.5(1 + tanh u) ≈ 1, and its absolute error, <= 2^-p·x³, is covered by 3·log2|x| bits);
//   1 + erf(x/√2) (x < 0) ≈ erfc(|x|/√2) ≈ e^(-x²/2): loses ≈ x²/(2 ln 2) bits;
//   Φ(x) + x·φ(x) and the tanh derivative near their zero x0 ≈ -0.75: up to ~110 bits;
//   near 0, f(x) = x/2 + O(x²) and f'(x) = 1/2 + O(x): telling f from the boundary x/2 (or 1/2)
//     takes -log2|x| more bits.
// p = base_bits + 2·lost + 3·log2⁺|x| + (-log2|x| for |x| < 1) + 110 leaves a relative error
// below 2^-(base_bits - 8) after the dozen operations (the factor 2 covers the estimate of u in
// double). Affordable in the tails the checks use: about 6100 bits at x = -30 (tanh) and 3300
// at x = -45 (erf) with base_bits = 256.
inline mpfr_prec_t textbook_precision(Form form, double x, int base_bits) {
  const double ax = std::fabs(x);
  double lost = 0;
  if (x < 0)
    lost = form == Form::tanh ? 2 * 0.8 * ax * (1 + 0.044715 * ax * ax) / std::log(2.0)
                              : 0.5 * ax * ax / std::log(2.0);
  const double big = ax > 1 ? 3 * std::log2(ax) : 0;
  const double tiny = ax < 1 && ax > 0 ? -std::log2(ax) : 0;
  return static_cast<mpfr_prec_t>(base_bits + 2 * lost + big + tiny + 110);
}

// f(x) by the textbook formula, for finite x; out's precision is set to
// textbook_precision(form, x, base_bits) and its relative error is below 2^-(base_bits - 8).
//   tanh value       0.5·x·(1 + tanh u),  u = √(2/π)·(x + 0.044715·x³)
//   tanh derivative  0.5·(1 + tanh u) + 0.5·x·(1 - tanh²u)·√(2/π)·(1 + 3·0.044715·x²)
//   erf value        x·Φ(x),  Φ(x) = (1 + erf(x/√2))/2
//   erf derivative   Φ(x) + x·φ(x),  φ(x) = e^(-x²/2)/√(2π)
// 0.044715 is the decimal 44715/10^6, rounded once to the working precision.
inline void textbook(mpfr_ptr out, Form form, Quantity q, mpfr_srcptr x, int base_bits = 256) {
  const mpfr_prec_t p = textbook_precision(form, mpfr_get_d(x, MPFR_RNDN), base_bits);
  mpfr_set_prec(out, p);
  Mpfr X(std::max(p, mpfr_get_prec(x))), k(p), c(p), t(p), u(p), th(p), a(p), b(p);
  mpfr_set(X, x, MPFR_RNDN);  // exact
  if (form == Form::tanh) {
    mpfr_const_pi(k, MPFR_RNDN);
    mpfr_ui_div(k, 2, k, MPFR_RNDN);
    mpfr_sqrt(k, k, MPFR_RNDN);                    // √(2/π)
    mpfr_set_ui(c, 44715, MPFR_RNDN);
    mpfr_div_ui(c, c, 1000000, MPFR_RNDN);         // 0.044715
    mpfr_mul(t, X, X, MPFR_RNDN);
    mpfr_mul(u, t, X, MPFR_RNDN);                  // x³
    mpfr_mul(u, u, c, MPFR_RNDN);
    mpfr_add(u, u, X, MPFR_RNDN);
    mpfr_mul(u, u, k, MPFR_RNDN);                  // u = √(2/π)(x + 0.044715x³)
    mpfr_tanh(th, u, MPFR_RNDN);
    mpfr_add_ui(a, th, 1, MPFR_RNDN);
    if (q == Quantity::value) {
      mpfr_mul(a, a, X, MPFR_RNDN);
      mpfr_div_2ui(out, a, 1, MPFR_RNDN);          // 0.5x(1 + tanh u)
      return;
    }
    mpfr_div_2ui(a, a, 1, MPFR_RNDN);              // 0.5(1 + tanh u)
    mpfr_sqr(b, th, MPFR_RNDN);
    mpfr_ui_sub(b, 1, b, MPFR_RNDN);               // 1 - tanh²u
    mpfr_mul(b, b, X, MPFR_RNDN);
    mpfr_div_2ui(b, b, 1, MPFR_RNDN);
    mpfr_mul(b, b, k, MPFR_RNDN);
    mpfr_mul_ui(c, c, 3, MPFR_RNDN);
    mpfr_mul(c, c, t, MPFR_RNDN);
    mpfr_add_ui(c, c, 1, MPFR_RNDN);               // 1 + 3·0.044715x²
    mpfr_mul(b, b, c, MPFR_RNDN);
    mpfr_add(out, a, b, MPFR_RNDN);
    return;
  }
  mpfr_sqrt_ui(k, 2, MPFR_RNDN);
  mpfr_div(u, X, k, MPFR_RNDN);
  mpfr_erf(th, u, MPFR_RNDN);
  mpfr_add_ui(a, th, 1, MPFR_RNDN);
  mpfr_div_2ui(a, a, 1, MPFR_RNDN);                // Φ(x) = 0.5(1 + erf(x/√2))
  if (q == Quantity::value) {
    mpfr_mul(out, a, X, MPFR_RNDN);
    return;
  }
  mpfr_mul(t, X, X, MPFR_RNDN);
  mpfr_div_2ui(t, t, 1, MPFR_RNDN);
  mpfr_neg(t, t, MPFR_RNDN);
  mpfr_exp(t, t, MPFR_RNDN);
  mpfr_const_pi(b, MPFR_RNDN);
  mpfr_mul_2ui(b, b, 1, MPFR_RNDN);
  mpfr_sqrt(b, b, MPFR_RNDN);
  mpfr_div(t, t, b, MPFR_RNDN);                    // φ(x)
  mpfr_mul(t, t, X, MPFR_RNDN);
  mpfr_add(out, a, t, MPFR_RNDN);
}

}  // namespace gelucheck::ref
