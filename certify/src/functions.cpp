// certify/src/functions.cpp — see functions.hpp.
//
// Both forms are written in the shape that keeps ball arithmetic tight on the whole interval:
// ½(1 + tanh u) = 1/(1 + e^(−2u)) (no cancellation for x < 0), Φ(x) = erfc(−x/√2)/2, and the gap
// d = x·(σ − Φ) with σ = 1/(1 + e^(−2u)), so the two factors x of T and E cancel before any
// radius is multiplied by |x| (T and E separately are ≈ x for large x; their difference ≈ 1e-15
// at x = 8 would drown in a radius |x|·rad(σ) of each otherwise).
#include "functions.hpp"

#include <arb_hypgeom.h>

namespace gelucheck::certify {

void const_c(arb_t out) {
  arb_const_pi(out, kPrec);
  arb_ui_div(out, 2, out, kPrec);
  arb_sqrt(out, out, kPrec);
}
void const_a(arb_t out) {
  arb_set_ui(out, 44715);
  arb_div_ui(out, out, 1000000, kPrec);
}
void const_inv_sqrt_2pi(arb_t out) {
  arb_const_pi(out, kPrec);
  arb_mul_2exp_si(out, out, 1);
  arb_rsqrt(out, out, kPrec);
}

namespace {

// σ(2u(x + t)) = 1/(1 + e^(−2u)) as a series of length len.
void sigma_series(const arb_poly_t X, slong len, arb_poly_t out) {
  Ball c, a;
  const_c(c.v);
  const_a(a.v);
  Poly x3, u, e;
  arb_poly_mullow(x3.v, X, X, len, kPrec);
  arb_poly_mullow(x3.v, x3.v, X, len, kPrec);
  arb_poly_scalar_mul(x3.v, x3.v, a.v, kPrec);
  arb_poly_add(u.v, X, x3.v, kPrec);
  arb_poly_scalar_mul(u.v, u.v, c.v, kPrec);  // u
  arb_poly_scalar_mul_2exp_si(u.v, u.v, 1);
  arb_poly_neg(u.v, u.v);                     // −2u
  arb_poly_exp_series(e.v, u.v, len, kPrec);
  Ball one;
  arb_one(one.v);
  Poly onep;
  arb_poly_set_coeff_arb(onep.v, 0, one.v);
  arb_poly_add(e.v, e.v, onep.v, kPrec);      // 1 + e^(−2u)
  arb_poly_inv_series(out, e.v, len, kPrec);
}

// Φ(x + t) = erfc(−(x + t)/√2)/2.
void phi_series(const arb_poly_t X, slong len, arb_poly_t out) {
  Ball s;
  arb_set_ui(s.v, 2);
  arb_rsqrt(s.v, s.v, kPrec);
  arb_neg(s.v, s.v);
  Poly z;
  arb_poly_scalar_mul(z.v, X, s.v, kPrec);
  arb_hypgeom_erfc_series(out, z.v, len, kPrec);
  arb_poly_scalar_mul_2exp_si(out, out, -1);
}

}  // namespace

void taylor(Base b, const arb_t x, slong len, arb_poly_t out) {
  Poly X, f;
  arb_poly_set_coeff_arb(X.v, 0, x);
  Ball one;
  arb_one(one.v);
  arb_poly_set_coeff_arb(X.v, 1, one.v);  // x + t
  if (b == Base::tanh) {
    sigma_series(X.v, len, f.v);
  } else if (b == Base::erf) {
    phi_series(X.v, len, f.v);
  } else {
    Poly p;
    sigma_series(X.v, len, f.v);
    phi_series(X.v, len, p.v);
    arb_poly_sub(f.v, f.v, p.v, kPrec);
  }
  arb_poly_mullow(out, X.v, f.v, len, kPrec);
}

void derivative(Base b, int k, const arb_t x, arb_t out) {
  Poly p;
  taylor(b, x, k + 1, p.v);
  arb_poly_get_coeff_arb(out, p.v, k);
  Ball fact;
  arb_fac_ui(fact.v, static_cast<ulong>(k), kPrec);
  arb_mul(out, out, fact.v, kPrec);
}

}  // namespace gelucheck::certify
