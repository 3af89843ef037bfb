// certify/src/spec.cpp — the scans, the facts, and the tail lemmas (their derivations).
//
// Notation: c = √(2/π), a = 44715/10^6, u = c(x + a x³), u' = c(1 + 3a x²), u'' = 6ac x,
// s = tanh u, σ = (1 + s)/2, φ(x) = e^(−x²/2)/√(2π), Φ(x) = ∫_{−∞}^x φ, Φ̄ = 1 − Φ.
//   T = xσ,  T' = σ + ½x(1 − s²)u',  T'' = (1 − s²)·[u' − x s u'² + 3ac x²];
//   E = xΦ,  E' = Φ + xφ,            E'' = φ(x)(2 − x²);
//   d = T − E = x(Φ̄ − ½(1 − s)),    d' = (Φ̄ − xφ) − ½(1 − s) + ½x(1 − s²)u'.
// Symmetries: T(x) − T(−x) = x = E(x) − E(−x) (tanh is odd, Φ(−x) = 1 − Φ(x)), so d is EVEN,
// d' odd, d'' even; f'(x) + f'(−x) = 1 for both forms, so f'' is even.
// Inequalities used below, for x > 0:
//   (M) Mills: Φ̄(x) < φ(x)/x;
//   (S) 0 < 1 − s = 2e^(−2u)/(1 + e^(−2u)) < 2e^(−2u), and 1 − s² = 4/(e^u + e^(−u))² < 4e^(−2u);
//   (H_m) for m >= 0 and x >= L >= 1/(12ac) (≈ 2.34) with k_m'(L) = L + m/L − 2u'(L) < 0:
//         e^(−2u(x)) <= K_m·x^(−m)·e^(−x²/2),  K_m = L^m·e^(−2u(L) + L²/2).
//         Proof: k_m(x) = −2u + x²/2 + m ln x has k_m'' = −12ac x + 1 − m/x² < 0 for
//         x > 1/(12ac), so k_m' <= k_m'(L) < 0 on [L, ∞) and k_m(x) <= k_m(L).
//   (U) u' = c x²(x^(−2) + 3a) <= C1 x² for x >= L, C1 = c(L^(−2) + 3a); x·u'(x) increases.
#include "spec.hpp"

#include <limits>

namespace gelucheck::certify {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

const std::vector<ScanSpec>& scans() {
  static const std::vector<ScanSpec> s = {
      {"gap.value", "d(x) = gelu_tanh(x) − gelu_erf(x)", Base::gap, 0, 3,
       "d is even (T(x) − T(−x) = x = E(x) − E(−x)), so d' and d''' are odd and vanish at 0; "
       "d''(0) = T''(0) − E''(0) = u'(0) − 2φ(0) = √(2/π) − 2/√(2π) = 0",
       0.0, 0.0},
      {"gap.derivative", "d'(x) = gelu_tanh'(x) − gelu_erf'(x)", Base::gap, 1, 2,
       "d''(0) = √(2/π) − 2/√(2π) = 0 and d''' is odd (d is even), so d'''(0) = 0", 0.0, 0.0},
      {"tanh.value", "gelu_tanh(x)", Base::tanh, 0, 0, "", 0.0, kInf},
      {"erf.value", "gelu_erf(x)", Base::erf, 0, 0, "", 0.0, kInf},
      {"tanh.derivative", "gelu_tanh'(x)", Base::tanh, 1, 0, "", 0.0, 1.0},
      {"erf.derivative", "gelu_erf'(x)", Base::erf, 1, 0, "", 0.0, 1.0},
      {"tanh.second", "gelu_tanh''(x)", Base::tanh, 2, 1,
       "f'(x) + f'(−x) = 1, so f'' is even and f''' odd: f'''(0) = 0", 0.0, 0.0},
      {"erf.second", "gelu_erf''(x)", Base::erf, 2, 1,
       "f'(x) + f'(−x) = 1, so f'' is even and f''' odd: f'''(0) = 0", 0.0, 0.0},
  };
  return s;
}

const ScanSpec* find_scan(const std::string& name) {
  for (const ScanSpec& s : scans())
    if (name == s.name) return &s;
  return nullptr;
}

const std::vector<FactSpec>& facts() {
  static const std::vector<FactSpec> f = {
      {"gap_value_sup", "gap.value", FactKind::max_abs,
       "sup over all real x of |gelu_tanh(x) − gelu_erf(x)|"},
      {"gap_deriv_sup", "gap.derivative", FactKind::max_abs,
       "sup over all real x of |gelu_tanh'(x) − gelu_erf'(x)|"},
      {"min_tanh", "tanh.value", FactKind::min, "min over all real x of gelu_tanh(x)"},
      {"min_erf", "erf.value", FactKind::min, "min over all real x of gelu_erf(x)"},
      {"deriv_zero_tanh", "tanh.value", FactKind::zero,
       "the only real zero of gelu_tanh' (where the minimum is attained)"},
      {"deriv_zero_erf", "erf.value", FactKind::zero,
       "the only real zero of gelu_erf' (where the minimum is attained)"},
      {"deriv_max_tanh", "tanh.derivative", FactKind::max, "max over all real x of gelu_tanh'(x)"},
      {"deriv_min_tanh", "tanh.derivative", FactKind::min, "min over all real x of gelu_tanh'(x)"},
      {"deriv_max_erf", "erf.derivative", FactKind::max, "max over all real x of gelu_erf'(x)"},
      {"deriv_min_erf", "erf.derivative", FactKind::min, "min over all real x of gelu_erf'(x)"},
      {"deriv_sup_abs_tanh", "tanh.derivative", FactKind::max_abs,
       "sup over all real x of |gelu_tanh'(x)|"},
      {"deriv_sup_abs_erf", "erf.derivative", FactKind::max_abs,
       "sup over all real x of |gelu_erf'(x)|"},
      {"second_sup_abs_tanh", "tanh.second", FactKind::max_abs,
       "sup over all real x of |gelu_tanh''(x)| (a Lipschitz constant of gelu_tanh')"},
      {"second_sup_abs_erf", "erf.second", FactKind::max_abs,
       "sup over all real x of |gelu_erf''(x)| (a Lipschitz constant of gelu_erf')"},
  };
  return f;
}

const MaxOfSpec& lipschitz_spec() {
  static const MaxOfSpec m = {"lipschitz", "deriv_sup_abs_tanh", "deriv_sup_abs_erf",
                              "sup over all real x of |f'(x)| for both forms: a Lipschitz "
                              "constant of gelu_tanh and of gelu_erf"};
  return m;
}

const char* kind_name(FactKind k) {
  switch (k) {
    case FactKind::max: return "max";
    case FactKind::min: return "min";
    case FactKind::max_abs: return "max_abs";
    case FactKind::zero: return "zero";
  }
  return "?";
}

bool Tail::ok() const {
  if (sign_right == 0 || sign_left == 0) return false;
  for (const TailQuantity& q : quantities)
    if (!q.holds) return false;
  return true;
}

namespace {

// The pieces every lemma evaluates at x = L.
struct AtL {
  Ball L, c, a, u, up, phi, e2u;  // L, c, a, u(L), u'(L), φ(L), e^(−2u(L))
  explicit AtL(double l) : L(l) {
    const_c(c.v);
    const_a(a.v);
    Ball t;
    arb_pow_ui(t.v, L.v, 3, kPrec);
    arb_mul(t.v, t.v, a.v, kPrec);
    arb_add(u.v, L.v, t.v, kPrec);
    arb_mul(u.v, u.v, c.v, kPrec);
    arb_sqr(t.v, L.v, kPrec);
    arb_mul(t.v, t.v, a.v, kPrec);
    arb_mul_ui(t.v, t.v, 3, kPrec);
    arb_add_ui(t.v, t.v, 1, kPrec);
    arb_mul(up.v, t.v, c.v, kPrec);
    arb_sqr(t.v, L.v, kPrec);
    arb_mul_2exp_si(t.v, t.v, -1);
    arb_neg(t.v, t.v);
    arb_exp(t.v, t.v, kPrec);
    const_inv_sqrt_2pi(phi.v);
    arb_mul(phi.v, phi.v, t.v, kPrec);
    arb_mul_2exp_si(t.v, u.v, 1);
    arb_neg(t.v, t.v);
    arb_exp(e2u.v, t.v, kPrec);
  }
  // K_m = L^m e^(−2u(L) + L²/2) and k_m'(L) = L + m/L − 2u'(L) of (H_m).
  void h(unsigned m, Ball& K, Ball& kprime) const {
    Ball t;
    arb_pow_ui(K.v, L.v, m, kPrec);
    arb_mul(K.v, K.v, e2u.v, kPrec);
    arb_sqr(t.v, L.v, kPrec);
    arb_mul_2exp_si(t.v, t.v, -1);
    arb_exp(t.v, t.v, kPrec);
    arb_mul(K.v, K.v, t.v, kPrec);
    arb_set_ui(t.v, m);
    arb_div(t.v, t.v, L.v, kPrec);
    arb_add(kprime.v, L.v, t.v, kPrec);
    arb_mul_2exp_si(t.v, up.v, 1);
    arb_sub(kprime.v, kprime.v, t.v, kPrec);
  }
  // C1 = c(L^(−2) + 3a) of (U).
  void c1(Ball& out) const {
    Ball t;
    arb_sqr(t.v, L.v, kPrec);
    arb_inv(t.v, t.v, kPrec);
    Ball a3;
    arb_mul_ui(a3.v, a.v, 3, kPrec);
    arb_add(t.v, t.v, a3.v, kPrec);
    arb_mul(out.v, t.v, c.v, kPrec);
  }
};

TailQuantity less_than(std::string name, const Ball& v, long bound, const char* what = nullptr) {
  TailQuantity q;
  q.name = std::move(name);
  q.condition = what ? what : "< " + std::to_string(bound);
  q.value = v;
  Ball b(static_cast<double>(bound));
  q.holds = below(v.v, b.v);
  return q;
}
TailQuantity greater_than(std::string name, const Ball& v, long bound) {
  TailQuantity q;
  q.name = std::move(name);
  q.condition = "> " + std::to_string(bound);
  q.value = v;
  Ball b(static_cast<double>(bound));
  q.holds = below(b.v, v.v);
  return q;
}

// 12acL > 1: the range of (H_m).
TailQuantity h_range(const AtL& p) {
  Ball t;
  arb_mul(t.v, p.a.v, p.c.v, kPrec);
  arb_mul_ui(t.v, t.v, 12, kPrec);
  arb_mul(t.v, t.v, p.L.v, kPrec);
  return greater_than("12acL", t, 1);
}
TailQuantity l_uprime(const AtL& p, long bound) {
  Ball t;
  arb_mul(t.v, p.L.v, p.up.v, kPrec);
  return greater_than("L*u'(L)", t, bound);
}

}  // namespace

Tail tail_of(const ScanSpec& s, double l) {
  const AtL p(l);
  Tail t;
  const std::string name = s.name;
  if (name == "tanh.value") {
    // x >= L (> 0): T' = σ + ½x(1 − s²)u' > 0, every term positive.
    // x <= −L: s < 0, so 1 − s² = (1 + s)(1 − s) >= 1 + s, and x·u' < 0, so
    //   T' <= ½(1 + s) + ½x(1 + s)u' = ½(1 + s)(1 + x u') = ½(1 + s)(1 − |x|u'(|x|)) < 0
    // once L·u'(L) > 1 (|x|u'(|x|) increases with |x|).
    t.lemma = "tanh-value-tail";
    t.statement = "T' > 0 for x >= L; T' <= (1+s)(1 + x u')/2 < 0 for x <= -L when L u'(L) > 1";
    t.sign_right = +1;
    t.sign_left = -1;
    t.quantities.push_back(l_uprime(p, 1));
  } else if (name == "erf.value") {
    // x >= L: E' = Φ + xφ > 0. x <= −L: E'(x) = Φ̄(|x|) − |x|φ(x) < φ(x)(1/|x| − |x|) < 0 by (M)
    // once L > 1.
    t.lemma = "erf-value-tail";
    t.statement = "E' > 0 for x >= L; E' < phi(x)(1/|x| - |x|) < 0 for x <= -L (Mills) when L > 1";
    t.sign_right = +1;
    t.sign_left = -1;
    t.quantities.push_back(greater_than("L", p.L, 1));
  } else if (name == "tanh.derivative") {
    // x >= L: s >= tanh u(L) >= ½, 3ac x² <= u', so the bracket of T'' is
    //   u' − x s u'² + 3acx² <= 2u' − ½x u'² = u'(2 − ½x u') < 0 once L·u'(L) > 4;
    // 1 − s² > 0, so T'' < 0. T'' is even: the same for x <= −L.
    t.lemma = "tanh-derivative-tail";
    t.statement = "T'' = (1-s^2)[u' - x s u'^2 + 3acx^2] <= (1-s^2) u'(2 - x u'/2) < 0 for |x| >= L "
                  "when tanh u(L) >= 1/2 and L u'(L) > 4 (T'' even)";
    t.sign_right = -1;
    t.sign_left = -1;
    Ball th;
    arb_tanh(th.v, p.u.v, kPrec);
    arb_mul_2exp_si(th.v, th.v, 1);
    t.quantities.push_back(greater_than("2*tanh(u(L))", th, 1));
    t.quantities.push_back(l_uprime(p, 4));
  } else if (name == "erf.derivative") {
    // E'' = φ(x)(2 − x²) < 0 for |x| >= L once L² > 2.
    t.lemma = "erf-derivative-tail";
    t.statement = "E'' = phi(x)(2 - x^2) < 0 for |x| >= L when L^2 > 2";
    t.sign_right = -1;
    t.sign_left = -1;
    Ball sq;
    arb_sqr(sq.v, p.L.v, kPrec);
    t.quantities.push_back(greater_than("L^2", sq, 2));
  } else if (name == "tanh.second") {
    // x >= L: with w = 1 − s², g = u' − x s u'² + 3acx² (T'' = w g), w' = −2s u' w, so
    //   T''' = w·(g' − 2s u' g),  g' = u'' + 6acx − s u'² − x w u'³ − 2x s u' u''.
    // With s <= 1, w < 4e^(−2u), u'' = 6acx > 0 and 12acx² u' <= 4u'² (3acx² <= u'):
    //   g' >= −5u'² − 4x e^(−2u) u'³;
    // with s >= ½ (tanh u(L) >= ½): −g >= u'(½x u' − 2) (tanh-derivative-tail), so
    //   −2s u' g >= u'²(½x u' − 2).
    // Together g' − 2s u' g >= u'²(x u'(½ − 4e^(−2u)) − 7) > 0 once Q = L u'(L)(½ − 4e^(−2u(L)))
    // > 7 (x u' increases, e^(−2u) decreases). So T''' > 0 for x >= L; T''' odd: < 0 for x <= −L.
    t.lemma = "tanh-second-tail";
    t.statement = "T''' = (1-s^2)(g' - 2 s u' g) >= (1-s^2) u'^2 (x u'(1/2 - 4e^(-2u)) - 7) > 0 for "
                  "x >= L when tanh u(L) >= 1/2 and Q = L u'(L)(1/2 - 4e^(-2u(L))) > 7 (T''' odd)";
    t.sign_right = +1;
    t.sign_left = -1;
    Ball th, q, h;
    arb_tanh(th.v, p.u.v, kPrec);
    arb_mul_2exp_si(th.v, th.v, 1);
    t.quantities.push_back(greater_than("2*tanh(u(L))", th, 1));
    arb_mul_ui(h.v, p.e2u.v, 8, kPrec);
    arb_sub_ui(h.v, h.v, 1, kPrec);
    arb_neg(h.v, h.v);
    arb_mul_2exp_si(h.v, h.v, -1);  // ½ − 4e^(−2u(L))
    arb_mul(q.v, p.L.v, p.up.v, kPrec);
    arb_mul(q.v, q.v, h.v, kPrec);
    t.quantities.push_back(greater_than("Q", q, 7));
  } else if (name == "erf.second") {
    // E''' = φ(x)(x³ − 4x) = φ(x)·x(x² − 4) > 0 for x >= L once L² > 4; odd: < 0 for x <= −L.
    t.lemma = "erf-second-tail";
    t.statement = "E''' = phi(x) x (x^2 - 4) > 0 for x >= L when L^2 > 4 (E''' odd)";
    t.sign_right = +1;
    t.sign_left = -1;
    Ball sq;
    arb_sqr(sq.v, p.L.v, kPrec);
    t.quantities.push_back(greater_than("L^2", sq, 4));
  } else if (name == "gap.value") {
    // x >= L: by (M) and (S), Φ̄ − xφ < −φ(x)(x − 1/x) and ½x(1 − s²)u' < 2x u' e^(−2u), and
    // −½(1 − s) < 0, so d' < −φ(x)(x − 1/x) + 2x u' e^(−2u). By (H_4) and (U):
    //   2x u' e^(−2u) / (φ(x)(x − 1/x)) <= 2√(2π)·K_4·x u' x^(−4)·x/(x² − 1)
    //                                   <= 2√(2π)·K_4·C1/(x² − 1) <= ρ1 = 2√(2π) K_4 C1/(L² − 1),
    // so d' < 0 on [L, ∞) once ρ1 < 1; d' odd: d' > 0 on (−∞, −L].
    // The size of the tail (a bound, beside the monotonicity the check uses): by (M), (S),
    //   |d| = x|Φ̄ − ½(1 − s)| <= xΦ̄ + ½x(1 − s) <= φ(x) + x e^(−2u) <= τ_v = φ(L) + L e^(−2u(L)),
    // both terms decreasing for x >= 1 ((x e^(−2u))' = e^(−2u)(1 − 2x u') < 0 as 2xu' >= 2cx > 1).
    t.lemma = "gap-value-tail";
    t.statement = "for x >= L: d' < -phi(x)(x - 1/x) + 2x u' e^(-2u) < 0 when rho1 = "
                  "2 sqrt(2 pi) K4 C1/(L^2 - 1) < 1 (Mills ratio, e^(-2u) <= K4 x^-4 e^(-x^2/2)); "
                  "d' odd; |d| <= phi(x) + x e^(-2u) <= tau_v = phi(L) + L e^(-2u(L))";
    t.sign_right = -1;
    t.sign_left = +1;
    Ball K, kp, C1, rho, den, tau;
    p.h(4, K, kp);
    p.c1(C1);
    const_inv_sqrt_2pi(rho.v);
    arb_inv(rho.v, rho.v, kPrec);  // √(2π)
    arb_mul_2exp_si(rho.v, rho.v, 1);
    arb_mul(rho.v, rho.v, K.v, kPrec);
    arb_mul(rho.v, rho.v, C1.v, kPrec);
    arb_sqr(den.v, p.L.v, kPrec);
    arb_sub_ui(den.v, den.v, 1, kPrec);
    arb_div(rho.v, rho.v, den.v, kPrec);
    arb_mul(tau.v, p.L.v, p.e2u.v, kPrec);
    arb_add(tau.v, tau.v, p.phi.v, kPrec);
    t.quantities.push_back(h_range(p));
    t.quantities.push_back(less_than("k4'(L)", kp, 0));
    t.quantities.push_back(less_than("rho1", rho, 1));
    t.quantities.push_back(less_than("tau_v", tau, 1, "< 1e-12 (informative bound on |d|, |x| >= L)"));
    Ball small;
    arb_set_str(small.v, "1e-12", kPrec);
    t.quantities.back().holds = below(tau.v, small.v);
  } else if (name == "gap.derivative") {
    // x >= L: d'' = T'' − E'' = T'' + φ(x)(x² − 2). With 3acx² <= u' and x u' >= 2,
    //   |u' − x s u'² + 3acx²| <= 2u' + x u'² <= 3x u'², so by (S), (U), (H_7)
    //   |T''| <= 12 x u'² e^(−2u) <= 12 C1² x^5 K_7 x^(−7) e^(−x²/2) = 12 C1² K_7 x^(−2) e^(−x²/2),
    //   |T''| / (φ(x)(x² − 2)) <= 12√(2π) C1² K_7 / (x²(x² − 2)) <= ρ2 = 12√(2π) C1² K_7/(L²(L² − 2)),
    // so d'' > 0 on [L, ∞) once ρ2 < 1; d'' even: d'' > 0 on (−∞, −L] too.
    // The size: |d'| <= |Φ̄ − xφ| + ½(1 − s) + ½x(1 − s²)u' <= xφ + e^(−2u)(1 + 2x u') <= τ_d =
    // Lφ(L) + e^(−2u(L))(1 + 2L u'(L)) (0 < Φ̄ < φ/x <= xφ for x >= 1; both terms decrease for
    // x >= 1: (e^(−2u)(1 + 2xu'))' = 2x e^(−2u)(u'' − 2u'²) < 0 as 2u'² >= 2c²(1 + 6ax²) > 6acx).
    t.lemma = "gap-derivative-tail";
    t.statement = "for |x| >= L: |T''| <= 12 x u'^2 e^(-2u) < phi(x)(x^2 - 2) = -E'' when rho2 = "
                  "12 sqrt(2 pi) C1^2 K7/(L^2 (L^2 - 2)) < 1, so d'' > 0 (d'' even); "
                  "|d'| <= tau_d = L phi(L) + e^(-2u(L))(1 + 2L u'(L))";
    t.sign_right = +1;
    t.sign_left = +1;
    Ball K, kp, C1, rho, den, tau, t2;
    p.h(7, K, kp);
    p.c1(C1);
    const_inv_sqrt_2pi(rho.v);
    arb_inv(rho.v, rho.v, kPrec);
    arb_mul_ui(rho.v, rho.v, 12, kPrec);
    arb_mul(rho.v, rho.v, K.v, kPrec);
    arb_mul(rho.v, rho.v, C1.v, kPrec);
    arb_mul(rho.v, rho.v, C1.v, kPrec);
    arb_sqr(den.v, p.L.v, kPrec);
    arb_sub_ui(t2.v, den.v, 2, kPrec);
    arb_mul(den.v, den.v, t2.v, kPrec);
    arb_div(rho.v, rho.v, den.v, kPrec);
    arb_mul(tau.v, p.L.v, p.up.v, kPrec);
    arb_mul_2exp_si(tau.v, tau.v, 1);
    arb_add_ui(tau.v, tau.v, 1, kPrec);
    arb_mul(tau.v, tau.v, p.e2u.v, kPrec);
    arb_mul(t2.v, p.L.v, p.phi.v, kPrec);
    arb_add(tau.v, tau.v, t2.v, kPrec);
    t.quantities.push_back(h_range(p));
    t.quantities.push_back(less_than("k7'(L)", kp, 0));
    t.quantities.push_back(l_uprime(p, 2));
    t.quantities.push_back(less_than("rho2", rho, 1));
    t.quantities.push_back(less_than("tau_d", tau, 1, "< 1e-12 (informative bound on |d'|, |x| >= L)"));
    Ball small;
    arb_set_str(small.v, "1e-12", kPrec);
    t.quantities.back().holds = below(tau.v, small.v);
  }
  return t;
}

}  // namespace gelucheck::certify
