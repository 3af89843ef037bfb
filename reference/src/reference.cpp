// The MPFR reference. Method and proofs: docs/reference.md; the steps below follow it.
//
// 1. enclosure: every function is evaluated in interval arithmetic on MPFR. Each bound is one
//    correctly rounded MPFR operation in a directed mode (MPFR rounds every function correctly in
//    every mode, so RNDD gives a number <= the exact result, RNDU one >=), and every operation is
//    applied to the bounds in the order its monotonicity asks for (erfc, and e^t on a narrow
//    interval: one bound from one call, the other from a bound on the function's growth across
//    the interval; see erfc_ and exp_). By induction over the steps,
//    the true value of each intermediate lies in its interval; so f(x) lies in [lo, hi].
// 2. Ziv's loop: round lo and hi (after the strict-inequality clamps of step 3) to the target;
//    equal results decide the rounding of everything in between (rounding is monotone). Else
//    raise the working precision by half, up to the cap, then throw. One driver, ziv(), runs it
//    for correctly_rounded, decimal and enclose; each gives only its decision.
// 3. Facts used where precision cannot help (results beyond MPFR's exponent range):
//      value:      0 < f(x) < x for x > 0;  x < f(x) < 0 for x < 0  (f = x*σ(2u) or x*Φ(x), the
//                  factor in (0, 1));
//      derivative: f'(x) > 1 for x >= 1;  f'(x) < 0 for x <= -1  (proved in docs/reference.md).
#include "gelucheck/reference.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>

#include "gelucheck/mpfr.hpp"

namespace gelucheck::ref {
namespace {


thread_local long g_cap = kDefaultPrecisionCap;

// A closed interval [lo, hi] at one working precision.
struct Iv {
  Mpfr lo, hi;
  explicit Iv(mpfr_prec_t p) : lo(p), hi(p) {}
  Iv(const Iv&) = delete;
  Iv& operator=(const Iv&) = delete;
  mpfr_prec_t prec() const { return lo.prec(); }
};

void set_point(Iv& r, double x) {  // exact: working precision >= 53
  mpfr_set_d(r.lo, x, MPFR_RNDN);
  mpfr_set_d(r.hi, x, MPFR_RNDN);
}
void add(Iv& r, const Iv& a, const Iv& b) {  // r may alias a or b: lo uses only lo, hi only hi
  mpfr_add(r.lo, a.lo, b.lo, MPFR_RNDD);
  mpfr_add(r.hi, a.hi, b.hi, MPFR_RNDU);
}
void add_ui(Iv& r, unsigned long a, const Iv& b) {
  mpfr_add_ui(r.lo, b.lo, a, MPFR_RNDD);
  mpfr_add_ui(r.hi, b.hi, a, MPFR_RNDU);
}
void neg(Iv& r, const Iv& a) {  // exact
  mpfr_swap(r.lo, r.hi);
  if (&r != &a) {
    mpfr_set(r.lo, a.hi, MPFR_RNDN);
    mpfr_set(r.hi, a.lo, MPFR_RNDN);
  }
  mpfr_neg(r.lo, r.lo, MPFR_RNDN);
  mpfr_neg(r.hi, r.hi, MPFR_RNDN);
}
void mul_2si(Iv& r, const Iv& a, long k) {  // exact unless beyond the (widest) range
  mpfr_mul_2si(r.lo, a.lo, k, MPFR_RNDD);
  mpfr_mul_2si(r.hi, a.hi, k, MPFR_RNDU);
}
void mul_ui(Iv& r, const Iv& a, unsigned long k) {  // increasing in a
  mpfr_mul_ui(r.lo, a.lo, k, MPFR_RNDD);
  mpfr_mul_ui(r.hi, a.hi, k, MPFR_RNDU);
}
// The sign of an interval that does not hold 0: 1 or -1 (0 when it holds 0 or has a NaN bound).
int strict_sign(const Iv& a) {
  if (mpfr_nan_p(a.lo) || mpfr_nan_p(a.hi)) return 0;
  if (mpfr_sgn(a.lo) > 0) return 1;
  if (mpfr_sgn(a.hi) < 0) return -1;
  return 0;
}
// Product. The extremes of a bilinear function on a box are at its corners; each corner product
// is rounded down for the lower bound and up for the upper. Where neither factor holds 0 (the
// usual case) the product is monotone in each factor over the box, so the signs name the two
// corners that are the extremes: the lower bound is a_L·b_L with a_L = a.lo when b > 0 (a.hi
// when b < 0) and b_L = b.lo when a > 0 (b.hi when a < 0); the upper bound takes the other ends.
// Directed rounding is monotone, so those two rounded products are the min and max of the four
// rounded corners bit for bit, zeros' signs included (the corners' exact products have one sign).
// A factor holding 0 takes all four corners. A NaN (0 * inf) cannot arise from the formulas below
// (no interval with an infinite bound is ever a factor), but is checked. The scratch numbers are
// kept per thread (mul is the commonest step, and never nests).
void mul(Iv& r, const Iv& a, const Iv& b) {
  const mpfr_prec_t p = r.prec();
  static thread_local Mpfr lo(64), hi(64), t(64);
  mpfr_set_prec(lo, p);
  mpfr_set_prec(hi, p);
  if (const int sa = strict_sign(a), sb = strict_sign(b); sa != 0 && sb != 0) {
    mpfr_mul(lo, sb > 0 ? a.lo : a.hi, sa > 0 ? b.lo : b.hi, MPFR_RNDD);
    mpfr_mul(hi, sb > 0 ? a.hi : a.lo, sa > 0 ? b.hi : b.lo, MPFR_RNDU);
  } else {
    mpfr_set_prec(t, p);
    mpfr_srcptr as[2] = {a.lo, a.hi};
    mpfr_srcptr bs[2] = {b.lo, b.hi};
    mpfr_mul(lo, a.lo, b.lo, MPFR_RNDD);
    mpfr_mul(hi, a.lo, b.lo, MPFR_RNDU);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        if (i == 0 && j == 0) continue;  // a.lo·b.lo: the starting value above
        mpfr_mul(t, as[i], bs[j], MPFR_RNDD);
        mpfr_min(lo, lo, t, MPFR_RNDD);
        mpfr_mul(t, as[i], bs[j], MPFR_RNDU);
        mpfr_max(hi, hi, t, MPFR_RNDU);
      }
  }
  if (mpfr_nan_p(lo) || mpfr_nan_p(hi)) throw ReferenceError("internal: NaN in a product");
  mpfr_swap(r.lo, lo);
  mpfr_swap(r.hi, hi);
}
// a / b for b > 0: the quotient is increasing in a and, for fixed a, decreasing in b when a >= 0
// and increasing when a < 0 — hence the choice of the divisor for each bound.
void div_pos(Iv& r, const Iv& a, const Iv& b) {
  const mpfr_prec_t p = r.prec();
  Mpfr lo(p), hi(p);
  mpfr_div(lo, a.lo, mpfr_sgn(a.lo) >= 0 ? b.hi : b.lo, MPFR_RNDD);
  mpfr_div(hi, a.hi, mpfr_sgn(a.hi) >= 0 ? b.lo : b.hi, MPFR_RNDU);
  mpfr_swap(r.lo, lo);
  mpfr_swap(r.hi, hi);
}
void ui_div_pos(Iv& r, unsigned long a, const Iv& b) {  // a / b, b > 0: decreasing in b
  const mpfr_prec_t p = r.prec();
  Mpfr lo(p), hi(p);
  mpfr_ui_div(lo, a, b.hi, MPFR_RNDD);
  mpfr_ui_div(hi, a, b.lo, MPFR_RNDU);
  mpfr_swap(r.lo, lo);
  mpfr_swap(r.hi, hi);
}
// e^t on [a.lo, a.hi] (increasing; may overflow to [max, inf] or underflow to [0, min]) from ONE
// exponential where the interval is narrow: with d = a.hi − a.lo <= 1/2, e^(a.hi) = e^(a.lo)·e^d
// and e^d = 1 + d + d²(1/2 + d/6 + …) <= 1 + d + d², so hi = RNDU(r·(1 + d + d²)) from
// r = RNDU e^(a.lo) (every factor rounded up), and lo = the number just below r at precision p (r
// when the ternary value says it is exact). The spread r·(d + d²) is the exact e^(a.lo)(e^d − 1)
// to within d² and one ulp: as narrow as two directed calls. A wide interval (or an overflowed
// r) takes the two calls.
void exp_(Iv& r, const Iv& a) {
  const mpfr_prec_t p = r.prec();
  Mpfr lo(p), hi(p), d(p);
  mpfr_sub(d, a.hi, a.lo, MPFR_RNDU);
  const int inexact = mpfr_exp(hi, a.lo, MPFR_RNDU);
  if (mpfr_cmp_d(d, 0.5) <= 0 && mpfr_number_p(hi)) {
    mpfr_set(lo, hi, MPFR_RNDN);  // exact
    if (inexact) mpfr_nextbelow(lo);
    Mpfr g(p);
    mpfr_sqr(g, d, MPFR_RNDU);
    mpfr_add(g, g, d, MPFR_RNDU);
    mpfr_add_ui(g, g, 1, MPFR_RNDU);  // >= e^d
    mpfr_mul(hi, hi, g, MPFR_RNDU);
  } else {
    mpfr_exp(lo, a.lo, MPFR_RNDD);
    mpfr_exp(hi, a.hi, MPFR_RNDU);
  }
  mpfr_swap(r.lo, lo);
  mpfr_swap(r.hi, hi);
}
// erfc on [a.lo, a.hi] (decreasing) from ONE erfc evaluation: erfc is most of the erf form's cost,
// and the second bound follows from the first by the mean value theorem. Upper bound: erfc(a.lo)
// rounded up, r. Lower bound: erfc(a.hi) = erfc(a.lo) − (a.hi − a.lo)·(2/√π)·e^(−ξ²) for some ξ
// in [a.lo, a.hi], with e^(−ξ²) <= e^(−m²), m the least |t| on the interval (0 when it holds 0);
// and erfc(a.lo) >= the number just below r at precision p (r itself when the rounding was exact,
// ternary 0). So erfc(a.hi) >= below(r) − D, D = (a.hi − a.lo)·(2/√π)·e^(−m²) with every factor
// rounded up, and the difference rounded down; erfc > 0, so a negative result is raised to +0.
// Width: D + 1 ulp, where two calls give erfc(a.lo) − erfc(a.hi) = D·e^(m² − ξ²) ≈ D (ξ is within
// the interval's 2^-p relative width of m) plus their roundings: the same to within an ulp.
void erfc_(Iv& r, const Iv& a, mpfr_srcptr two_over_sqrt_pi_up) {
  const mpfr_prec_t p = r.prec();
  Mpfr hi(p), lo(p), d(p), t(p);
  const int exact = mpfr_erfc(hi, a.lo, MPFR_RNDU) == 0;
  mpfr_sub(d, a.hi, a.lo, MPFR_RNDU);  // width >= 0
  if (mpfr_sgn(a.lo) > 0 || mpfr_sgn(a.hi) < 0) {
    mpfr_sgn(a.lo) > 0 ? mpfr_sqr(t, a.lo, MPFR_RNDD) : mpfr_sqr(t, a.hi, MPFR_RNDD);  // m² down
    mpfr_neg(t, t, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDU);         // >= e^(−m²)
    mpfr_mul(d, d, t, MPFR_RNDU);
  }                                    // else e^(−m²) = 1
  mpfr_mul(d, d, two_over_sqrt_pi_up, MPFR_RNDU);  // >= 2/√π (rounded up)
  mpfr_set(lo, hi, MPFR_RNDN);         // exact
  if (!exact) mpfr_nextbelow(lo);
  mpfr_sub(lo, lo, d, MPFR_RNDD);
  if (mpfr_sgn(lo) < 0) mpfr_set_zero(lo, +1);
  mpfr_swap(r.lo, lo);
  mpfr_swap(r.hi, hi);
}

// √(2/π): decreasing in π, so the lower bound uses π rounded up.
void const_sqrt_2_over_pi(Iv& k) {
  Mpfr pi(k.prec());
  mpfr_const_pi(pi, MPFR_RNDU);
  mpfr_ui_div(k.lo, 2, pi, MPFR_RNDD);
  mpfr_sqrt(k.lo, k.lo, MPFR_RNDD);
  mpfr_const_pi(pi, MPFR_RNDD);
  mpfr_ui_div(k.hi, 2, pi, MPFR_RNDU);
  mpfr_sqrt(k.hi, k.hi, MPFR_RNDU);
}
// √(2π): increasing in π.
void const_sqrt_2pi(Iv& s) {
  mpfr_const_pi(s.lo, MPFR_RNDD);
  mpfr_mul_2ui(s.lo, s.lo, 1, MPFR_RNDD);
  mpfr_sqrt(s.lo, s.lo, MPFR_RNDD);
  mpfr_const_pi(s.hi, MPFR_RNDU);
  mpfr_mul_2ui(s.hi, s.hi, 1, MPFR_RNDU);
  mpfr_sqrt(s.hi, s.hi, MPFR_RNDU);
}
void const_sqrt2(Iv& s) {
  mpfr_sqrt_ui(s.lo, 2, MPFR_RNDD);
  mpfr_sqrt_ui(s.hi, 2, MPFR_RNDU);
}
// c = 0.044715 exactly = 44715 / 10^6 (not its binary64 rounding).
void const_c(Iv& c) {
  mpfr_set_ui(c.lo, 44715, MPFR_RNDN);  // exact
  mpfr_set_ui(c.hi, 44715, MPFR_RNDN);
  mpfr_div_ui(c.lo, c.lo, 1000000, MPFR_RNDD);
  mpfr_div_ui(c.hi, c.hi, 1000000, MPFR_RNDU);
}

// The constants' enclosures at one working precision. They depend on p alone, so each thread
// computes them once per precision it meets (a few hundred at most: p0 ranges over the loss
// and near-zero terms, the loop's steps over next_prec) and keeps them: their square roots and
// quotients were about a tenth of an evaluation where the function itself is cheap (|x| large).
struct Constants {
  explicit Constants(mpfr_prec_t p) : c(p), k(p), s2(p), s2p(p), two_over_sqrt_pi_up(p) {
    const_c(c);
    const_sqrt_2_over_pi(k);
    const_sqrt2(s2);
    const_sqrt_2pi(s2p);
    Mpfr t(p);
    mpfr_const_pi(t, MPFR_RNDD);
    mpfr_sqrt(t, t, MPFR_RNDD);
    mpfr_ui_div(two_over_sqrt_pi_up, 2, t, MPFR_RNDU);  // >= 2/√π
  }
  Iv c, k, s2, s2p;  // 0.044715, √(2/π), √2, √(2π)
  Mpfr two_over_sqrt_pi_up;
};
const Constants& constants(mpfr_prec_t p) {
  thread_local std::unordered_map<mpfr_prec_t, std::unique_ptr<Constants>> cache;
  std::unique_ptr<Constants>& c = cache[p];
  if (!c) c = std::make_unique<Constants>(p);
  return *c;
}

// f(x) enclosed at working precision p, for finite nonzero x. The formulas (docs/functions.md in
// stable form, no cancellation except the derivative's near its zero, where Ziv's loop raises p):
//   tanh value       x / (1 + e^(-2u)),  u = √(2/π)·x·(1 + c·x²)        [= x·σ(2u)]
//   tanh derivative  σ(2u)·(1 + 2·x·√(2/π)·(1 + 3c·x²)·σ(-2u))          [1 - tanh²u = 4σ(2u)σ(-2u)]
//   erf value        ½·x·erfc(-x/√2)
//   erf derivative   ½·erfc(-x/√2) + x·e^(-x²/2)/√(2π)
// σ(±2u) are computed as 1/(1 + e^(∓2u)) separately (never as 1 - the other), so each is accurate
// to a few ulps of itself however close to 0 or 1 it is.
void eval(Form form, Quantity q, double x, mpfr_prec_t p, Iv& out) {
  const Constants& K = constants(p);
  Iv X(p), t(p);
  set_point(X, x);
  if (form == Form::tanh) {
    const Iv &c = K.c, &k = K.k;
    Iv w(p), u(p), e(p), d(p);
    mul(t, X, X);               // x²
    mul(w, c, t);               // c·x²
    add_ui(w, 1, w);            // 1 + c·x² (>= 1)
    mul(u, k, X);
    mul(u, u, w);               // u
    neg(e, u);
    mul_2si(e, e, 1);           // -2u
    exp_(e, e);                 // e^(-2u)
    add_ui(d, 1, e);            // 1 + e^(-2u) (>= 1)
    if (q == Quantity::value) {
      div_pos(out, X, d);
      return;
    }
    Iv s(p), sm(p), w3(p), b(p);
    ui_div_pos(s, 1, d);        // σ(2u)
    mul_2si(e, u, 1);
    exp_(e, e);                 // e^(2u)
    add_ui(d, 1, e);
    ui_div_pos(sm, 1, d);       // σ(-2u)
    mul_ui(w3, c, 3);
    mul(w3, w3, t);
    add_ui(w3, 1, w3);          // 1 + 3c·x²
    mul(b, X, k);
    mul(b, b, w3);
    mul(b, b, sm);
    mul_2si(b, b, 1);           // 2·x·√(2/π)·(1 + 3c·x²)·σ(-2u)
    add_ui(b, 1, b);
    mul(out, s, b);
    return;
  }
  Iv z(p), E(p);
  neg(z, X);
  div_pos(z, z, K.s2);          // -x/√2
  erfc_(E, z, K.two_over_sqrt_pi_up);  // erfc(-x/√2) in (0, 2)
  if (q == Quantity::value) {
    mul(out, X, E);
    mul_2si(out, out, -1);
    return;
  }
  Iv g(p), phi(p);
  mul(t, X, X);
  neg(g, t);
  mul_2si(g, g, -1);
  exp_(g, g);                   // e^(-x²/2)
  div_pos(phi, g, K.s2p);       // φ(x)
  mul(phi, X, phi);             // x·φ(x)
  mul_2si(E, E, -1);            // Φ(x)
  add(out, E, phi);
}

// Bits of relative accuracy lost by the evaluation at x (conditioning), so that the first
// working precision usually decides: e^(±2u) amplifies u's relative error by |2u| ≈ 1.6|x|(1 +
// 0.045x²); erfc(z) has relative condition ≈ 2z² = x²; e^(-x²/2) amplifies by x².
long loss_bits(Form form, double x) {
  const double ax = std::fabs(x);
  const double cond = form == Form::tanh ? 1.6 * ax * (1 + 0.045 * ax * ax) : ax * ax;
  // From 2^64 on the exponentials' arguments (|2u|, z² = x²/2 within a factor 2 of cond) are
  // beyond 2^62·ln 2, so e^(±2u), e^(-x²/2) and erfc(±x/√2)'s tail leave MPFR's range whatever
  // the precision: the result is decided by the facts and clamps (docs/reference.md §4), which
  // no added precision helps, so none is added.
  if (cond >= 0x1p64) return 0;
  return static_cast<long>(std::ceil(std::log2(2 + cond)));
}

// Bits an enclosure needs to tell f(x) from the rounding boundary it sits next to near 0: the
// value is x/2·(1 + O(x)) and the derivative 1/2 + O(x), ≈ 0.8|x| relative from the boundaries
// x/2 and 1/2, so a relative width below |x|/2, -log2|x| + 1 bits, decides them. Where that is
// more than a target's t bits, f is within 2^-t of x/2 (or 1/2) and the target's next boundary
// is about half its spacing, 2^-(t+1), away: max(t, this) bits (plus the guard bits) decide both.
long near_zero_bits(double x) {
  const double ax = std::fabs(x);
  return ax < 1 ? static_cast<long>(std::ceil(-std::log2(ax))) + 1 : 0;
}

// Open bounds L < f(x) < U known in advance (see the header comment); ±inf when none.
struct Strict {
  double L = -kInf, U = kInf;
};
Strict strict_bounds(Quantity q, double x) {
  Strict s;
  if (q == Quantity::value) {
    if (x > 0) s = {0, x};
    else s = {x, 0};
  } else if (x >= 1) {
    s.L = 1;
  } else if (x <= -1) {
    s.U = 0;
  }
  return s;
}

// Narrows [lo, hi] to the closed [L, U] (valid: L < f(x) < U). Where an exponential left MPFR's
// range a bound can fall on the wrong side of 0 (e.g. the erf derivative at x = -1e10 is
// [-tiny, +tiny]); the clamp gives it f's sign, as a signed zero.
void clamp_closed(Iv& f, const Strict& s) {
  if (!std::isinf(s.L) && mpfr_cmp_d(f.lo, s.L) < 0) {
    if (s.L == 0) mpfr_set_zero(f.lo, +1);
    else mpfr_set_d(f.lo, s.L, MPFR_RNDN);
  }
  if (!std::isinf(s.U) && mpfr_cmp_d(f.hi, s.U) > 0) {
    if (s.U == 0) mpfr_set_zero(f.hi, -1);
    else mpfr_set_d(f.hi, s.U, MPFR_RNDN);
  }
}

// A zero bound of an enclosure of a nonzero f(x) (x finite, nonzero) comes from an exponential
// beyond MPFR's range; then f itself is within 2^(2^20) of MPFR's least positive number and no
// precision narrows the interval further. Any other zero bound only asks for more precision.
bool below_mpfr_range(const Iv& f) {
  const bool zl = mpfr_zero_p(f.lo), zh = mpfr_zero_p(f.hi);
  if (!zl && !zh) return false;
  if (zl && zh) return true;
  return mpfr_get_exp(zl ? f.hi : f.lo) < mpfr_get_emin_min() + (1L << 20);
}

// Effective bounds for a decision: [lo, hi] ∩ [next above L, next below U] at precision P. No
// rounding boundary of any target (binary formats: numbers of <= 55 bits; decimal: d-digit
// numbers and ties, which differ from a double by more than 2^-(P-8) relative, docs/reference.md)
// lies strictly between L and its successor at precision P, so rounding the successor gives the
// rounding of every number in (L, L + tiny]; likewise for U.
struct Eff {
  Mpfr lo, hi;
  Eff(const Iv& iv, const Strict& s, mpfr_prec_t P)
      : lo(std::max(P, iv.prec())), hi(std::max(P, iv.prec())) {
    mpfr_set(lo, iv.lo, MPFR_RNDN);  // exact
    mpfr_set(hi, iv.hi, MPFR_RNDN);
    if (!std::isinf(s.L) && mpfr_cmp_d(lo, s.L) <= 0) {
      if (s.L == 0) mpfr_set_zero(lo, +1);
      else mpfr_set_d(lo, s.L, MPFR_RNDN);
      mpfr_nextabove(lo);
    }
    if (!std::isinf(s.U) && mpfr_cmp_d(hi, s.U) >= 0) {
      if (s.U == 0) mpfr_set_zero(hi, -1);
      else mpfr_set_d(hi, s.U, MPFR_RNDN);
      mpfr_nextbelow(hi);
    }
  }
  Eff(const Eff&) = delete;
  Eff& operator=(const Eff&) = delete;
};

// v rounded to fmt in mode RNDN (ties to even), RNDD or RNDU, straight from the MPFR value (one
// rounding). Quantum of v's binade in fmt: 2^q, q = max(floor(log2|v|), emin) - p + 1. Rounding
// at that quantum is rounding to P = floor(log2|v|) - q + 1 significant bits (P = p for normal
// results, fewer for subnormal ones): one mpfr_set into a P-bit number, whose RNDN is ties to
// even like fmt's; a carry out of the binade gives 2^(floor(log2|v|) + 1), a multiple of 2^q too.
// The result has <= 53 bits at a quantum >= 2^-1074, so it is exact as a double, or it is
// 2^(emax + 1) (overflow). P <= 0 (|v| < 2^q, the least subnormal) is scaled instead: v/2^q < 1
// rounded to an integer. This runs 15 times an enclose() decision, so its scratch numbers are
// kept per thread rather than allocated each call.
double round_to(mpfr_srcptr v, Format fmt, mpfr_rnd_t mode) {
  if (mpfr_nan_p(v)) return std::numeric_limits<double>::quiet_NaN();
  const bool negv = mpfr_signbit(v) != 0;
  if (mpfr_inf_p(v)) return negv ? -kInf : kInf;
  if (mpfr_zero_p(v)) return negv ? -0.0 : 0.0;
  const FormatInfo fi = info(fmt);
  struct Limits {
    double maxfinite, overflow_at;  // (2 - 2^(1-p))·2^emax and 2^(emax+1) (inf for binary64)
  };
  static const std::array<Limits, 4> limits = [] {
    std::array<Limits, 4> l{};
    for (Format f : all_formats) {
      const FormatInfo i = info(f);
      l[static_cast<int>(f)] = {std::ldexp(2 - std::ldexp(1.0, 1 - i.precision), i.emax),
                                std::ldexp(1.0, i.emax + 1)};
    }
    return l;
  }();
  const Limits& lim = limits[static_cast<int>(fmt)];
  auto overflow = [&]() -> double {
    if (mode == MPFR_RNDN) return negv ? -kInf : kInf;
    if (mode == MPFR_RNDD) return negv ? -kInf : lim.maxfinite;
    return negv ? -lim.maxfinite : kInf;  // RNDU
  };
  const long e = mpfr_get_exp(v) - 1;  // floor(log2|v|): v = 0.1b… × 2^exp
  if (e > fi.emax) return overflow();
  const long q = std::max(e, static_cast<long>(fi.emin)) - fi.precision + 1;
  const long P = e - q + 1;
  static thread_local Mpfr n(64), m(64);
  double r;
  if (P >= 1) {
    mpfr_set_prec(n, P);
    mpfr_set(n, v, mode);
    r = mpfr_get_d(n, MPFR_RNDN);  // exact
  } else {
    mpfr_set_prec(m, mpfr_get_prec(v));
    mpfr_mul_2si(m, v, -q, MPFR_RNDN);  // exact
    mpfr_set_prec(n, 2);
    if (mode == MPFR_RNDN) mpfr_roundeven(n, m);
    else if (mode == MPFR_RNDD) mpfr_floor(n, m);
    else mpfr_ceil(n, m);
    r = std::ldexp(mpfr_get_d(n, MPFR_RNDN), static_cast<int>(q));  // exact: 0 or ±2^q
  }
  if (std::fabs(r) >= lim.overflow_at) return overflow();
  if (r == 0) return negv ? -0.0 : 0.0;
  return r;
}

std::string describe(Form form, Quantity q, double x) {
  return std::string(name(form)) + " " + std::string(name(q)) + " at x = " + hexfloat(x);
}

[[noreturn]] void cap_reached(Form form, Quantity q, double x, const std::string& target,
                              mpfr_prec_t p) {
  throw ReferenceError("reference: rounding of the " + describe(form, q, x) + " to " + target +
                       " not decided within the precision cap (" + std::to_string(g_cap) +
                       " bits; last tried " + std::to_string(p) + " bits)");
}

mpfr_prec_t next_prec(mpfr_prec_t p) { return p + p / 2 + 16; }

// Ziv's loop (step 2), the one driver of correctly_rounded, decimal and enclose: f(x) is enclosed
// at working precision p0 = max(max(target_bits, near_zero_bits(x)) + 24 + loss_bits(x), 64),
// then at next_prec(p) (half as much again, plus 16 bits) while `decide` asks for more; past the
// cap (g_cap bits) it throws ReferenceError naming target() (built only then). decide(f, strict,
// p) gets the enclosure at precision p after the strict-inequality clamps (step 3) and returns
// true when it has taken its answer from it, false for more precision; it may throw.
template <class Decide, class Target>
void ziv(Form form, Quantity q, double x, long target_bits, const Target& target,
         const Decide& decide) {
  const Strict strict = strict_bounds(q, x);
  mpfr_prec_t p = std::max<mpfr_prec_t>(
      std::max(target_bits, near_zero_bits(x)) + 24 + loss_bits(form, x), 64);
  for (;; p = next_prec(p)) {
    if (p > g_cap) cap_reached(form, q, x, target(), p);
    Iv f(p);
    eval(form, q, x, p, f);
    clamp_closed(f, strict);
    if (decide(f, strict, p)) return;
  }
}

// The exact cases (no loop): ±0, ±inf, NaN. Sets lo = hi and returns true when x is one.
bool exact_case(Quantity q, double x, mpfr_ptr lo, mpfr_ptr hi) {
  if (std::isnan(x)) {
    mpfr_set_nan(lo);
  } else if (x == 0) {
    if (q == Quantity::value) mpfr_set_d(lo, x, MPFR_RNDN);  // f(±0) = ±0
    else mpfr_set_d(lo, 0.5, MPFR_RNDN);                     // f'(0) = 1/2 exactly
  } else if (std::isinf(x)) {
    // Limits: value(+inf) = +inf, value(-inf) = -0 (f(x) < 0 for x < 0); derivative(+inf) = 1,
    // derivative(-inf) = -0 (f'(x) < 0 for x <= -1).
    if (x > 0) mpfr_set_d(lo, q == Quantity::value ? kInf : 1.0, MPFR_RNDN);
    else mpfr_set_zero(lo, -1);
  } else {
    return false;
  }
  mpfr_set(hi, lo, MPFR_RNDN);
  return true;
}

}  // namespace

ScopedPrecisionCap::ScopedPrecisionCap(long bits) : saved_(g_cap) { g_cap = bits; }
ScopedPrecisionCap::~ScopedPrecisionCap() { g_cap = saved_; }

double correctly_rounded(Form form, Quantity q, double x, Format fmt) {
  MpfrRange guard;
  {
    Mpfr lo(64), hi(64);
    if (exact_case(q, x, lo, hi)) return round_to(lo, fmt, MPFR_RNDN);
  }
  double result = 0;
  ziv(form, q, x, info(fmt).precision, [fmt] { return std::string(name(fmt)); },
      [&](const Iv& f, const Strict& strict, mpfr_prec_t) {
        Eff eff(f, strict, 256);
        result = round_to(eff.lo, fmt, MPFR_RNDN);
        return same_bits(result, round_to(eff.hi, fmt, MPFR_RNDN));
      });
  return result;
}

namespace {
std::string format_decimal(mpfr_srcptr v, int digits) {
  mpfr_exp_t e = 0;
  char* s = mpfr_get_str(nullptr, &e, 10, static_cast<size_t>(digits), v, MPFR_RNDN);
  if (s == nullptr) throw ReferenceError("reference: mpfr_get_str failed");
  std::string str(s);
  mpfr_free_str(s);
  std::string out;
  std::size_t i = 0;
  if (str[0] == '-') {
    out += '-';
    i = 1;
  }
  out += str[i];
  if (digits > 1) {
    out += '.';
    out += str.substr(i + 1);
  }
  // value = 0.d1d2… × 10^e = d1.d2… × 10^(e-1)
  const long ex = static_cast<long>(e) - 1;
  std::string es = std::to_string(ex < 0 ? -ex : ex);
  if (es.size() < 2) es = "0" + es;
  out += ex < 0 ? "e-" : "e+";
  out += es;
  return out;
}
}  // namespace

std::string decimal(Form form, Quantity q, double x, int digits) {
  if (digits < 1 || digits > 10000)
    throw std::invalid_argument("decimal: digits must be in [1, 10000], got " +
                                std::to_string(digits));
  MpfrRange guard;
  {
    Mpfr lo(64), hi(64);
    if (exact_case(q, x, lo, hi)) {
      if (mpfr_nan_p(lo)) return "nan";
      if (mpfr_inf_p(lo)) return mpfr_signbit(lo) ? "-inf" : "inf";
      if (mpfr_zero_p(lo)) return mpfr_signbit(lo) ? "-0" : "0";
      return format_decimal(lo, digits);
    }
  }
  const long need = static_cast<long>(std::ceil(digits * 3.3219280948873623));
  // P for the strict clamps: decimal boundaries differ from a double or from 1 by more than
  // 2^-(3.33·digits + 810) relative (docs/reference.md), so 4·digits + 1200 bits leave a margin.
  const mpfr_prec_t P = 4L * digits + 1200;
  std::string result;
  ziv(form, q, x, need, [digits] { return std::to_string(digits) + " decimal digits"; },
      [&](const Iv& f, const Strict& strict, mpfr_prec_t) {
        if (mpfr_zero_p(f.lo) || mpfr_zero_p(f.hi)) {
          if (!below_mpfr_range(f)) return false;
          // The (nonzero) value is below about 2^(emin_min) ≈ 10^-1.39e18: no MPFR decimal form.
          throw ReferenceError("reference: the " + describe(form, q, x) +
                               " is nonzero but below MPFR's exponent range (|f| < 2^" +
                               std::to_string(mpfr_get_emin_min()) +
                               "); no decimal form (binary formats round it to a signed zero)");
        }
        Eff eff(f, strict, P);
        result = format_decimal(eff.lo, digits);
        return result == format_decimal(eff.hi, digits);
      });
  return result;
}

Enclosure::Enclosure() {
  for (int i = 0; i < 4; ++i) rn_[i] = rd_[i] = ru_[i] = std::numeric_limits<double>::quiet_NaN();
}
Enclosure::Enclosure(const Enclosure&) = default;
Enclosure& Enclosure::operator=(const Enclosure&) = default;
Enclosure::~Enclosure() = default;
double Enclosure::approx() const {
  MpfrRange guard;
  if (mpfr_nan_p(lo_) || mpfr_nan_p(hi_)) return std::numeric_limits<double>::quiet_NaN();
  if (mpfr_equal_p(lo_, hi_) || mpfr_inf_p(lo_) || mpfr_inf_p(hi_))
    return mpfr_get_d(mpfr_inf_p(lo_) ? lo_ : hi_, MPFR_RNDN);
  if (mpfr_zero_p(hi_)) return mpfr_get_d(hi_, MPFR_RNDN);  // below MPFR's range: a signed 0
  if (mpfr_zero_p(lo_)) return mpfr_get_d(lo_, MPFR_RNDN);
  Mpfr m(std::max(mpfr_get_prec(lo_), mpfr_get_prec(hi_)) + 1);
  mpfr_add(m, lo_, hi_, MPFR_RNDN);
  mpfr_div_2ui(m, m, 1, MPFR_RNDN);
  return mpfr_get_d(m, MPFR_RNDN);
}

Enclosure enclose(Form form, Quantity q, double x, int bits) {
  MpfrRange guard;
  Enclosure out;
  if (exact_case(q, x, out.lo_, out.hi_)) {
    for (int i = 0; i < 4; ++i) {
      const double r = round_to(out.lo_, all_formats[i], MPFR_RNDN);
      out.rn_[i] = out.rd_[i] = out.ru_[i] = r;
    }
    out.floor_log2_ = mpfr_regular_p(out.lo_) ? mpfr_get_exp(out.lo_) - 1 : 0;
    out.decided_ = true;
    return out;
  }
  ziv(form, q, x, bits, [bits] { return "a relative width 2^-" + std::to_string(bits); },
      [&](const Iv& f, const Strict& strict, mpfr_prec_t p) {
        // (a) width. A zero bound with the value below MPFR's range is accepted as it is (no
        // precision changes it); any other zero bound asks for more precision.
        if (mpfr_zero_p(f.lo) || mpfr_zero_p(f.hi)) {
          if (!below_mpfr_range(f)) return false;
        } else {
          if (mpfr_sgn(f.lo) != mpfr_sgn(f.hi)) return false;
          Mpfr w(p), lim(p);
          mpfr_sub(w, f.hi, f.lo, MPFR_RNDU);
          mpfr_abs(lim, f.lo, MPFR_RNDN);
          mpfr_mul_2si(lim, lim, -bits, MPFR_RNDD);
          if (!mpfr_lessequal_p(w, lim)) return false;
        }
        // (b) rounding to nearest, down and up in each binary format, and (c) floor(log2|f|).
        // binary64 first, both bounds. Equal roundings down and up of lo and hi leave no
        // binary64 number in [lo, hi] (but for lo = hi); every rounding boundary of the narrower
        // formats — their numbers, the midpoints between them, their overflow thresholds, 0 —
        // has at most 25 significant bits at an exponent within binary64's normal range, so it
        // is a binary64 number and not in [lo, hi] either: hi rounds as lo does in each of them,
        // and only lo is rounded (15 roundings a decision instead of 24).
        static_assert(all_formats[0] == Format::binary64);
        Eff eff(f, strict, 256);
        const mpfr_rnd_t modes[3] = {MPFR_RNDN, MPFR_RNDD, MPFR_RNDU};
        double* dst[3] = {out.rn_, out.rd_, out.ru_};
        for (int m = 0; m < 3; ++m) {
          dst[m][0] = round_to(eff.lo, Format::binary64, modes[m]);
          if (!same_bits(dst[m][0], round_to(eff.hi, Format::binary64, modes[m]))) return false;
        }
        for (int i = 1; i < 4; ++i)
          for (int m = 0; m < 3; ++m) dst[m][i] = round_to(eff.lo, all_formats[i], modes[m]);
        if (mpfr_sgn(eff.lo) != mpfr_sgn(eff.hi) || mpfr_zero_p(eff.lo) || mpfr_zero_p(eff.hi))
          return false;
        const long el = mpfr_get_exp(eff.lo) - 1, eh = mpfr_get_exp(eff.hi) - 1;
        if (el != eh && std::max(el, eh) >= -1200) return false;
        // Below 2^-1200 the exact exponent does not matter (every format's ulp there is its least
        // subnormal); the larger one is kept as an upper bound.
        out.floor_log2_ = std::max(el, eh);
        mpfr_set_prec(out.lo_, p);
        mpfr_set_prec(out.hi_, p);
        mpfr_set(out.lo_, f.lo, MPFR_RNDN);  // exact
        mpfr_set(out.hi_, f.hi, MPFR_RNDN);
        out.decided_ = true;
        return true;
      });
  return out;
}

}  // namespace gelucheck::ref
