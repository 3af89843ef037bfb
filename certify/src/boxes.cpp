// certify/src/boxes.cpp — see boxes.hpp.
#include "boxes.hpp"

namespace gelucheck::certify {

namespace {
int sign(const arb_t x) { return arb_is_positive(x) ? 1 : arb_is_negative(x) ? -1 : 0; }
}  // namespace

// Taylor forms about the midpoint m, r = (hi − lo)/2, of each order p = 1, 2, 3:
//   F^(j)(X) ⊆ Σ_{i<p} F^(j+i)(m)·[−r, r]^i/i! + F^(j+p)(X)·[−r, r]^p/p!
// (Lagrange's remainder), all intersected with the plain ball evaluation F^(j)(X). The plain one
// alone overestimates: Arb's series of a ball carry radii ~ C_k·r in the k-th coefficient with
// C_k growing with k (σ's series at x = 0 ± 0.001: 5% of its 4th coefficient), so near the
// multiple zero at 0 of the gaps' derivatives no bisection would decide the sign. A Taylor form's
// error is O(r^(p+1)); which order wins depends on the box, so each is tried (all hold).
void on_ball(const ScanSpec& s, int j, const arb_t x, Ball& out) {
  constexpr int kMaxP = 3;
  Ball X, m, t;
  arb_set(X.v, x);
  arb_get_mid_arb(m.v, X.v);          // exact
  arb_sub(t.v, X.v, m.v, kPrec);      // contains [−r, r]
  const slong n = s.order + j;        // F^(j+i) = base^(n+i)
  Poly at_m, at_X;
  taylor(s.base, m.v, n + kMaxP, at_m.v);
  taylor(s.base, X.v, n + kMaxP + 1, at_X.v);
  // The term F^(j+i)(·)·t^i/i! = c_{n+i}·(n+i)!/i!·t^i, c_k = base^(k)/k! the series
  // coefficient, at m (centre = true) or over X (centre = false).
  auto term = [&](int i, bool centre, Ball& res) {
    Ball fac, tp;
    arb_poly_get_coeff_arb(res.v, centre ? at_m.v : at_X.v, n + i);
    arb_fac_ui(fac.v, static_cast<ulong>(n + i), kPrec);
    arb_mul(res.v, res.v, fac.v, kPrec);
    arb_fac_ui(fac.v, static_cast<ulong>(i), kPrec);
    arb_div(res.v, res.v, fac.v, kPrec);
    arb_pow_ui(tp.v, t.v, static_cast<ulong>(i), kPrec);
    arb_mul(res.v, res.v, tp.v, kPrec);
  };
  term(0, false, out);  // the plain evaluation
  Ball sum;             // Σ_{i<p} of the terms at m
  for (int p = 1; p <= kMaxP; ++p) {
    Ball ti, form;
    term(p - 1, true, ti);
    arb_add(sum.v, sum.v, ti.v, kPrec);
    term(p, false, ti);
    arb_add(form.v, sum.v, ti.v, kPrec);
    // Both contain F^(j)(X), so they meet; an empty meet would be an arithmetic bug.
    arb_intersection(out.v, out.v, form.v, kPrec);
  }
}

void on_box(const ScanSpec& s, int j, double lo, double hi, Ball& out) {
  const Ball X = interval(lo, hi);
  on_ball(s, j, X.v, out);
}

int sign_of_fprime(const ScanSpec& s, double lo, double hi) {
  Ball f;
  on_box(s, 1, lo, hi, f);
  return sign(f.v);
}

int sign_of_fsecond(const ScanSpec& s, double lo, double hi) {
  Ball f;
  on_box(s, 2, lo, hi, f);
  return sign(f.v);
}

bool krawczyk(const ScanSpec& s, double lo, double hi) {
  const Ball X = interval(lo, hi);
  Ball m, fm, dX, Y, K, t, xm;
  Arf a(lo), b(hi), mid;
  arf_add(mid.v, a.v, b.v, ARF_PREC_EXACT, ARF_RND_DOWN);
  arf_mul_2exp_si(mid.v, mid.v, -1);  // exact: the midpoint of two doubles is dyadic
  arb_set_arf(m.v, mid.v);
  derivative(s.base, s.order + 1, m.v, fm.v);
  on_box(s, 2, lo, hi, dX);
  if (arb_contains_zero(dX.v)) return false;
  arb_get_mid_arb(Y.v, dX.v);
  arb_inv(Y.v, Y.v, kPrec);
  arb_get_mid_arb(Y.v, Y.v);  // any point Y works; a point keeps K tight
  arb_mul(K.v, Y.v, fm.v, kPrec);
  arb_sub(K.v, m.v, K.v, kPrec);
  arb_mul(t.v, Y.v, dX.v, kPrec);
  arb_sub_ui(t.v, t.v, 1, kPrec);
  arb_neg(t.v, t.v);  // 1 − Y F''(X)
  arb_sub(xm.v, X.v, m.v, kPrec);
  arb_addmul(K.v, t.v, xm.v, kPrec);
  // K strictly inside (lo, hi): compare with the exact ends, not with the ball X (which may
  // be a little wider than the box).
  Arf kl, ku;
  arb_get_lbound_arf(kl.v, K.v, kPrec);
  arb_get_ubound_arf(ku.v, K.v, kPrec);
  return arf_cmp(kl.v, a.v) > 0 && arf_cmp(ku.v, b.v) < 0;
}

int sign_at_zero_order(const ScanSpec& s, double lo, double hi) {
  if (s.zero_order_at_0 <= 0 || !(lo < 0 && 0 < hi)) return 0;
  Ball f;
  on_box(s, 1 + s.zero_order_at_0, lo, hi, f);
  return sign(f.v);
}

const char* zero_extremum(int k, int sign) {
  if (k % 2 == 0 || sign == 0) return "none";
  return sign < 0 ? "max" : "min";
}

}  // namespace gelucheck::certify
