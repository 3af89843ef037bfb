// The fast path's target-independent part (fast_scalar.hpp): the tables it evaluates, made
// once with MPFR (correctly rounded constants, Taylor coefficients at 320 bits), and the scalar
// steps: the general rounding test decide() for the lanes the vector one refuses, and the exact
// cases. Method and bounds: docs/reference.md, "The fast reference"; each derivation is here,
// next to its code.
#include "fast_scalar.hpp"

#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "gelucheck/mpfr.hpp"

namespace gelucheck::ref {
namespace testing {
[[gnu::tls_model("initial-exec")]] thread_local double g_fast_perturbation = 0;

ScopedFastPathPerturbation::ScopedFastPathPerturbation(double rel) : saved_(g_fast_perturbation) {
  g_fast_perturbation = rel;
}
ScopedFastPathPerturbation::~ScopedFastPathPerturbation() { g_fast_perturbation = saved_; }
}  // namespace testing

namespace fast {
namespace {

// The working precision of the constants and the Taylor tables.
constexpr mpfr_prec_t kTablePrec = 320;
DD to_dd(mpfr_srcptr x) {
  Mpfr t(kTablePrec);
  const double h = mpfr_get_d(x, MPFR_RNDN);
  mpfr_sub_d(t, x, h, MPFR_RNDN);
  return {h, mpfr_get_d(t, MPFR_RNDN)};
}
V to_v(mpfr_srcptr x) {
  const DD d = to_dd(x);
  return {d.h, d.l, 0x1p-105 * std::fabs(d.h)};
}
double up(mpfr_srcptr x) { return mpfr_get_d(x, MPFR_RNDU); }

// Cramér's inequality |He_n(x)| e^(-x²/4) <= K √(n!) (K = 1.086435; Hermite polynomials of
// probabilists), charged K = 1.0865.
constexpr double kCramer = 1.0865;

// The split of p's n terms into double-double and double ones, and the bound of the double
// part's rounding, given |a_i| (rounded up) and |h| <= 2^hexp.
void finish(Poly& p, const std::array<double, kTaylorN>& absd, int hexp) {
  // Double-double for the leading terms until the rest, Σ_{i>=k} |a_i| |h|^i, is below 2^-32 of
  // |a_0| (near g's zero, where a_0 is small, that means more double-double terms).
  const double ref = absd[0];
  int k = p.n;
  double rest = 0;
  for (int i = p.n - 1; i >= 1; --i) {
    rest += std::ldexp(absd[static_cast<std::size_t>(i)], hexp * i);
    if (rest > 0x1p-32 * ref) break;
    k = i;
  }
  p.k = k;
  // Horner in double of Σ_{i=k}^{n-1} a_i h^{i-k}, coefficients rounded to double: error <=
  // (2(n-k) + 2) u Σ |a_i| |h|^{i-k} (Higham, Accuracy and Stability, §5.1, plus u for each
  // coefficient's rounding); the double-double steps then scale it by |h|^k (mul_d by h
  // propagates it).
  double sum = 0;
  for (int i = k; i < p.n; ++i) sum += std::ldexp(absd[static_cast<std::size_t>(i)], hexp * (i - k));
  p.tail_err = (2.0 * (p.n - k) + 2) * kU * sum * 1.01;
}

void make_poly(Poly& p, bool is_g, long j) {
  // At c = j/8: φ(c + h) = φ(c) Σ b_n h^n with b_0 = 1, b_1 = -c, (n+1) b_{n+1} = -c b_n - b_{n-1}
  // (from φ' = -xφ); Φ(c + h) = Σ a_n h^n with a_0 = Φ(c), a_{n+1} = φ(c) b_n / (n+1);
  // g(c + h) = Φ(c+h) + (c+h) φ(c+h): g_n = a_n + φ(c)(c b_n + b_{n-1}). At 320 bits the
  // recurrences lose far less than the 2^-106 of the final rounding.
  Mpfr c(kTablePrec), phi(kTablePrec), Phi(kTablePrec), t(kTablePrec), u(kTablePrec),
      bprev(kTablePrec), b(kTablePrec), bnext(kTablePrec);
  mpfr_set_si(c, j, MPFR_RNDN);
  mpfr_div_ui(c, c, 8, MPFR_RNDN);  // exact
  mpfr_sqr(t, c, MPFR_RNDN);
  mpfr_div_2ui(t, t, 1, MPFR_RNDN);
  mpfr_neg(t, t, MPFR_RNDN);
  mpfr_exp(phi, t, MPFR_RNDN);
  mpfr_const_pi(u, MPFR_RNDN);
  mpfr_mul_2ui(u, u, 1, MPFR_RNDN);
  mpfr_sqrt(u, u, MPFR_RNDN);
  mpfr_div(phi, phi, u, MPFR_RNDN);  // φ(c)
  mpfr_sqrt_ui(u, 2, MPFR_RNDN);
  mpfr_div(t, c, u, MPFR_RNDN);
  mpfr_neg(t, t, MPFR_RNDN);
  mpfr_erfc(Phi, t, MPFR_RNDN);
  mpfr_div_2ui(Phi, Phi, 1, MPFR_RNDN);  // Φ(c)
  std::array<double, kTaylorN> absd{};
  mpfr_set_ui(bprev, 0, MPFR_RNDN);  // b_{-1}
  mpfr_set_ui(b, 1, MPFR_RNDN);      // b_0
  for (int n = 0; n < kTaylorN; ++n) {
    // coefficient n: Φ's is a_n (a_0 = Φ(c), a_n = φ(c) b_{n-1}/n), held in t
    if (n == 0) {
      mpfr_set(t, Phi, MPFR_RNDN);
    } else {
      mpfr_mul(t, phi, bprev, MPFR_RNDN);
      mpfr_div_ui(t, t, static_cast<unsigned long>(n), MPFR_RNDN);
    }
    if (is_g) {  // + φ(c)(c b_n + b_{n-1})
      mpfr_mul(u, c, b, MPFR_RNDN);
      mpfr_add(u, u, bprev, MPFR_RNDN);
      mpfr_mul(u, u, phi, MPFR_RNDN);
      mpfr_add(t, t, u, MPFR_RNDN);
    }
    p.a[static_cast<std::size_t>(n)] = to_dd(t);
    absd[static_cast<std::size_t>(n)] = std::fabs(mpfr_get_d(t, MPFR_RNDU)) * (1 + 0x1p-50);
    // b_{n+1} = (-c b_n - b_{n-1}) / (n+1)
    mpfr_mul(bnext, c, b, MPFR_RNDN);
    mpfr_add(bnext, bnext, bprev, MPFR_RNDN);
    mpfr_neg(bnext, bnext, MPFR_RNDN);
    mpfr_div_ui(bnext, bnext, static_cast<unsigned long>(n + 1), MPFR_RNDN);
    mpfr_swap(bprev, b);
    mpfr_swap(b, bnext);
  }
  finish(p, absd, -4);
  // Truncation: |R_N| <= sup|F^(N)(ξ)| |h|^N / N!, ξ within 1/16 of c. Φ^(N) = ±He_{N-1} φ and
  // g^(N) = Φ^(N) + x φ^(N) + N φ^(N-1) with φ^(n) = ±He_n φ; by Cramér, |He_n φ|(ξ) <=
  // K √(n!) e^(-ξ²/4) / √(2π).
  const double cmin = std::max(0.0, std::fabs(static_cast<double>(j) / 8) - 1.0 / 16);
  const double cmax = std::fabs(static_cast<double>(j) / 8) + 1.0 / 16;
  Mpfr w(kTablePrec);
  mpfr_set_d(w, -cmin * cmin / 4, MPFR_RNDU);
  mpfr_exp(w, w, MPFR_RNDU);
  const double damp = up(w);
  const double fact_nm1 = std::tgamma(kTaylorN), fact_n = fact_nm1 * kTaylorN;  // exact enough
  double deriv = std::sqrt(fact_nm1);
  if (is_g) deriv += cmax * std::sqrt(fact_n) + kTaylorN * std::sqrt(fact_nm1);
  p.trunc = 2 * kCramer * deriv * damp / 2.5066 / fact_n * std::ldexp(1.0, -4 * kTaylorN);
}

// The Mills ratio M(t) = Φ(-t)/φ(t) = ∫_0^∞ e^(-ts - s²/2) ds near c: M' = tM - 1 and, by
// differentiating, M^(n+1) = t M^(n) + n M^(n-1); so m_n = M^(n)(c)/n! has m_1 = c m_0 - 1 and
// m_{n+1} = (c m_n + m_{n-1})/(n+1). The recurrence cancels (m_n alternates and shrinks like
// c^-(n+1)), losing about 2 log2(c) <= 2(e+1) bits a step: the precision below covers 16 steps.
// Truncation: |M^(n)(ξ)| = ∫ s^n e^(-ξs - s²/2) ds <= n!/ξ^(n+1), so the terms from n on are
// at most Σ |h|^i / ξ^(i+1) <= 2 |h|^n / t_lo^(n+1) for |h|/t_lo <= 1/128.
void make_mills(Poly& p, int e, int i) {
  // Precision: the recurrence's loss plus 160 bits.
  const mpfr_prec_t prec = 160 + 2 * (e + 1) * kMillsN;
  Mpfr c(prec), m0(prec), m1(prec), m2(prec), t(prec), u(prec);
  // c = 2^e + (i + 1/2) 2^(e-6)
  mpfr_set_si(c, 2 * i + 1, MPFR_RNDN);
  mpfr_mul_2si(c, c, e - 7, MPFR_RNDN);
  mpfr_set_ui(t, 1, MPFR_RNDN);
  mpfr_mul_2si(t, t, e, MPFR_RNDN);
  mpfr_add(c, c, t, MPFR_RNDN);
  // M(c) by Laplace's continued fraction 1/(c + 1/(c + 2/(c + …))), its n-th and (n+1)-th
  // approximants evaluated backward: they bracket M (positive elements), so n is doubled until
  // they agree to 2^-(prec-8). (MPFR's erfc is far slower here, and at this precision.)
  auto approximant = [&](long n, mpfr_ptr out) {
    mpfr_set(out, c, MPFR_RNDN);
    for (long j = n; j >= 1; --j) {
      mpfr_ui_div(out, static_cast<unsigned long>(j), out, MPFR_RNDN);
      mpfr_add(out, out, c, MPFR_RNDN);
    }
    mpfr_ui_div(out, 1, out, MPFR_RNDN);
  };
  for (long n = 8;; n *= 2) {
    approximant(n, m0);
    approximant(n + 1, t);
    mpfr_sub(u, m0, t, MPFR_RNDN);
    mpfr_abs(u, u, MPFR_RNDN);
    mpfr_mul_2si(t, m0, -(prec - 8), MPFR_RNDN);
    if (mpfr_lessequal_p(u, t)) break;
  }
  std::array<double, kTaylorN> absd{};
  p.n = kMillsN;
  mpfr_mul(m1, c, m0, MPFR_RNDN);
  mpfr_sub_ui(m1, m1, 1, MPFR_RNDN);  // m_1
  p.a[0] = to_dd(m0);
  absd[0] = std::fabs(mpfr_get_d(m0, MPFR_RNDU)) * (1 + 0x1p-50);
  for (int n = 1; n < kMillsN; ++n) {
    p.a[static_cast<std::size_t>(n)] = to_dd(m1);
    absd[static_cast<std::size_t>(n)] = std::fabs(mpfr_get_d(m1, MPFR_RNDA)) * (1 + 0x1p-50);
    mpfr_mul(m2, c, m1, MPFR_RNDN);  // m_{n+1} = (c m_n + m_{n-1})/(n+1)
    mpfr_add(m2, m2, m0, MPFR_RNDN);
    mpfr_div_ui(m2, m2, static_cast<unsigned long>(n + 1), MPFR_RNDN);
    mpfr_swap(m0, m1);
    mpfr_swap(m1, m2);
  }
  finish(p, absd, e - 7);
  p.trunc = 2 * std::ldexp(1.0, (e - 7) * kMillsN - e * (kMillsN + 1)) * 1.01;
}

}  // namespace

Tables::Tables() {
  Mpfr x(kTablePrec), y(kTablePrec), pi(kTablePrec);
  mpfr_const_pi(pi, MPFR_RNDN);
  mpfr_ui_div(x, 2, pi, MPFR_RNDN);
  mpfr_sqrt(x, x, MPFR_RNDN);
  sqrt_2_over_pi = to_v(x);
  mpfr_mul_2ui(x, x, 1, MPFR_RNDN);
  two_sqrt_2_over_pi = to_v(x);
  mpfr_set_ui(x, 44715, MPFR_RNDN);
  mpfr_div_ui(x, x, 1000000, MPFR_RNDN);
  c = to_v(x);
  mpfr_mul_ui(x, x, 3, MPFR_RNDN);
  three_c = to_v(x);
  mpfr_mul_2ui(x, pi, 1, MPFR_RNDN);
  mpfr_rec_sqrt(x, x, MPFR_RNDN);
  inv_sqrt_2pi = to_v(x);
  // ln2/256 in pieces: l1, l2 of 22 bits (N·l1, N·l2 exact for |N| < 2^31), l3, l4 of 53.
  mpfr_const_log2(x, MPFR_RNDN);
  mpfr_div_2ui(x, x, 8, MPFR_RNDN);
  inv_l = 1 / mpfr_get_d(x, MPFR_RNDN);
  double* pieces[4] = {&l1, &l2, &l3, &l4};
  for (int i = 0; i < 4; ++i) {
    Mpfr r(i < 2 ? 22 : 53);
    mpfr_set(r, x, MPFR_RNDN);
    *pieces[i] = mpfr_get_d(r, MPFR_RNDN);
    mpfr_sub(x, x, r, MPFR_RNDN);  // exact at 320 bits
  }
  mpfr_abs(x, x, MPFR_RNDN);
  l_rest = up(x) * 2;
  for (int j = 0; j < 256; ++j) {
    mpfr_set_si(y, j, MPFR_RNDN);
    mpfr_div_2ui(y, y, 8, MPFR_RNDN);
    mpfr_exp2(y, y, MPFR_RNDN);
    const V v = to_v(y);
    exp2_h[static_cast<std::size_t>(j)] = v.h;
    exp2_l[static_cast<std::size_t>(j)] = v.l;
    exp2_e[static_cast<std::size_t>(j)] = v.e;
  }
  double f = 1;
  for (int n = 0; n < 10; ++n) {
    if (n > 0) f *= n;  // exact: 9! < 2^53
    mpfr_set_d(y, f, MPFR_RNDN);
    mpfr_ui_div(y, 1, y, MPFR_RNDN);
    inv_fact_d[static_cast<std::size_t>(n)] = mpfr_get_d(y, MPFR_RNDN);
  }
  for (long j = -64; j <= 64; ++j) {
    make_poly(phi[static_cast<std::size_t>(j + 64)], false, j);
    make_poly(g[static_cast<std::size_t>(j + 64)], true, j);
  }
  for (int e = 3; e <= 10; ++e)
    for (int i = 0; i < kMillsPerBinade; ++i)
      make_mills(mills[static_cast<std::size_t>((e - 3) * kMillsPerBinade + i)], e, i);
  for (const Poly& p : phi) phi_cols.add(p);
  for (const Poly& p : g) g_cols.add(p);
  for (const Poly& p : mills) mills_cols.add(p);
}


void PolyColumns::add(const Poly& p) {
  for (int i = 0; i < kTaylorN; ++i) {
    const DD& a = p.a[static_cast<std::size_t>(i)];
    ah.push_back(a.h);
    al.push_back(a.l);
    ae.push_back(0x1p-105 * std::fabs(a.h));
  }
  tail_err.push_back(p.tail_err);
  trunc.push_back(p.trunc);
  n.push_back(p.n);
  k.push_back(p.k);
  max_n = std::max(max_n, p.n);
  min_k = std::min(min_k, p.k);
  max_k = std::max(max_k, p.k);
}

const Tables& tables() {
  static const Tables t;  // thread-safe initialisation (C++11 magic statics)
  return t;
}

int exponent(double a) {
  const int b = static_cast<int>((std::bit_cast<std::uint64_t>(a) >> 52) & 0x7ff);
  return b != 0 ? b - 1023 : std::ilogb(a);
}

namespace {
// The double neighbours of a finite a toward +inf / -inf (std::nextafter without the call).
double next_up(double a) {
  if (a == 0) return 0x1p-1074;
  const std::uint64_t b = std::bit_cast<std::uint64_t>(a);
  return std::bit_cast<double>(a > 0 ? b + 1 : b - 1);
}
double next_down(double a) { return -next_up(-a); }

// ---- the rounding test --------------------------------------------------------------------------
// The roundings to nearest-even, down and up in fmt of every number of [L, U] (0 < L <= U or L
// <= U < 0, one binade: floor(log2|L|) == floor(log2|U|)), or false when one of them is not
// constant there. The quantum of the binade in fmt is 2^q, q = max(floor(log2|L|), emin) - p + 1;
// |L|/2^q and |U|/2^q are exact (power-of-two scalings within double's range); with a = their
// floor (the same for both, else the roundings down differ), rounding down gives a·2^q, up
// (a + 1)·2^q (a·2^q for a value of fmt, which only L == U can be here), to nearest whichever
// side both fractions are on. Results of 2^(emax+1) are overflows (to ±inf, or the largest
// finite number when rounding toward zero).
bool round_interval(double L, double U, Format fmt, double& rn, double& rd, double& ru) {
  // Sign-free: 0 < a <= b are |L| and |U| in order (min/max, no branch on the sign).
  const double a = std::min(std::fabs(L), std::fabs(U)), b = std::max(std::fabs(L), std::fabs(U));
  const FormatInfo fi = info(fmt);
  const int e = exponent(a);
  if (e > fi.emax) return false;  // |f| >= 2^128: never for these functions and inputs
  const int q = std::max(e, fi.emin) - fi.precision + 1;  // in [-149, 120]
  const double sc = exact_pow2(-q);
  const double ma = a * sc, mb = b * sc, fa = std::floor(ma);
  if (std::floor(mb) != fa) return false;
  const bool exact_value = ma == fa && mb == fa;
  if (ma == fa && !exact_value) return false;  // L a value of fmt, U above it
  const double da = ma - fa, db = mb - fa;     // exact
  // To nearest: fa below both halves, fa + 1 above both; on a half only when both are (L ==
  // U), then the even one. Written so that the usual case takes no data-dependent branch.
  const bool a_up = da > 0.5, b_up = db > 0.5;
  double nearest = fa + static_cast<double>(a_up);  // arithmetic: a select here was a branch
  if (a_up != b_up || da == 0.5 || db == 0.5) {
    if (!(da == 0.5 && db == 0.5)) return false;
    nearest = std::fmod(fa, 2.0) == 0 ? fa : fa + 1;
  }
  const double quantum = exact_pow2(q), limit = exact_pow2(fi.emax + 1);
  const double maxfinite = (2 - exact_pow2(1 - fi.precision)) * exact_pow2(fi.emax);
  double n = nearest * quantum, dn = fa * quantum, up = (exact_value ? fa : fa + 1) * quantum;
  if (n >= limit) n = kInf;
  if (up >= limit) up = kInf;
  if (dn >= limit) dn = maxfinite;
  // Back to f's sign: rn = ±n; with the sign applied to dn <= up, the smaller is the rounding
  // down and the larger the rounding up (for f < 0: -up and -dn; -0 stays above -up).
  const double sg = std::copysign(1.0, U), c1 = sg * dn, c2 = sg * up;
  rn = sg * n;
  rd = std::min(c1, c2);
  ru = std::max(c1, c2);
  return true;
}

}  // namespace

Facts facts(Quantity q, double x) {
  if (q == Quantity::value)  // f(x) - x/2 = x(Φ(x) - 1/2) or (x/2) tanh(u): > 0 for x != 0
    return {x * 0.5, x > 0 ? x : -0.0};  // f = x·(factor in (0, 1))
  // f' > 1/2 for x > 0, > 1 for x >= 1; f' < 1/2 for x < 0, < 0 for x <= -1
  return {x > 0 ? (x >= 1 ? 1.0 : 0.5) : -kInf, x > 0 ? kInf : (x <= -1 ? -0.0 : 0.5)};
}

void zero_roundings(bool neg, Format fmt, Rounded& out) {
  const double tiny = exact_pow2(info(fmt).emin - info(fmt).precision + 1);
  out.rn = neg ? -0.0 : 0.0;
  out.rd = neg ? -tiny : 0.0;
  out.ru = neg ? -0.0 : tiny;
}
void sign_only(bool neg, Format fmt, Rounded& out) {
  zero_roundings(neg, fmt, out);
  out.hi = neg ? -1.0 : 1.0;
  out.lo = 0;
  out.scale = kBelowScale;
  out.floor_log2 = kBelowScale;
}

bool decide(Format fmt, V v, long scale, const Facts& s, Rounded& out) {
  if (testing::g_fast_perturbation != 0) v.h += testing::g_fast_perturbation * v.h;  // test hook
  const double e = v.e * kInflate;
  // The hi/lo contract, and NaN bounds: e < 2^-70 |h|/kMag, tested as e < 2^-70 |h|(1 - 2^-50)
  // (a smaller right side, so no weaker; a product where a quotient would cost a division).
  if (!(e < 0x1p-70 * std::fabs(v.h) * (1 - 0x1p-50))) return false;
  double L = next_down(v.h + (v.l - e));
  double U = next_up(v.h + (v.l + e));
  if (!std::isfinite(L) || !std::isfinite(U)) return false;
  if (L == 0 || U == 0 || (L < 0) != (U < 0)) return false;
  const int ev = exponent(v.h);
  const long top = scale + ev;  // |f| ~ 2^top
  if (top < -200) {
    // |f| < 2^-190: below half the least subnormal of every format here (2^-150 for binary32
    // and bfloat16, 2^-25 for binary16): RN gives f's signed zero; RD/RU zero or the least
    // subnormal of f's sign.
    const bool neg = U < 0;
    if (top < kBelowScale) {  // only the sign is carried
      sign_only(neg, fmt, out);
      return true;
    }
    zero_roundings(neg, fmt, out);
    const long fl = exponent(L) + scale, fu = exponent(U) + scale;
    if (fl != fu && std::max(fl, fu) >= -1200) return false;
    out.floor_log2 = std::max(fl, fu);
    if (top >= -960) {
      out.hi = ldexp_fast(v.h, scale);
      out.lo = ldexp_fast(v.l, scale);
      out.scale = 0;
    } else {
      out.hi = v.h;
      out.lo = v.l;
      out.scale = scale;
    }
    return true;
  }
  if (scale != 0) {  // exact: the results stay normal doubles (|f| > 2^-202); scale < 0
    const double p = exact_pow2(static_cast<int>(scale));
    L *= p;
    U *= p;
    // v·2^scale: exact for h; l and e may fall below 2^-1022, where their rounding moves them by
    // at most 2^-1075, charged as 2^-1074 more in e (scale < 0 here).
    v = {v.h * p, v.l * p, v.e * p + 0x1p-1074};
  }
  if (L <= s.below) L = next_up(s.below);
  if (U >= s.above) U = next_down(s.above);
  if (L > U) return false;  // a bound contradicts a proved fact: never trust it
  const int il = exponent(L), iu = exponent(U);
  if (il != iu || (L < 0) != (U < 0)) return false;
  double rn, rd, ru;
  if (!round_interval(L, U, fmt, rn, rd, ru)) return false;
  out.rn = rn;
  out.rd = rd;
  out.ru = ru;
  out.floor_log2 = il;
  out.hi = v.h;
  out.lo = v.l;
  out.scale = 0;
  return true;
}

void exact_case(Quantity q, double x, Rounded& out) {
  double r;
  if (std::isnan(x)) r = std::numeric_limits<double>::quiet_NaN();
  else if (x == 0) r = q == Quantity::value ? x : 0.5;
  else if (x > 0) r = q == Quantity::value ? kInf : 1.0;
  else r = -0.0;
  out.rn = out.rd = out.ru = out.hi = r;
  out.lo = 0;
  out.scale = 0;
  out.floor_log2 = r == 0.5 ? -1 : 0;  // enclose(): 0 when not a regular number
}

}  // namespace fast
}  // namespace gelucheck::ref
