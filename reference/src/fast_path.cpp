// The fast path of ref::round_batch: f(x) for x a value of binary32 (bfloat16 and binary16 are
// subsets of it) evaluated in double-double arithmetic with a running error bound, and the
// roundings decided by a rounding test on the resulting enclosure. It shares no code with src/
// and calls no libm transcendental function: its exp and its erfc (as Φ and the Mills ratio by
// Taylor tables) are its own; MPFR only computes its constants and table coefficients, once,
// correctly rounded. Method and bounds: docs/reference.md §8, "The fast reference"; the
// derivations are also here, next to the code.
//
// ERROR ACCOUNTING. Every quantity is a V = {h, l, e}: the double-double h + l and a bound e on
// |true value - (h + l)|. Each double-double operation below is one of Joldes, Muller & Popescu,
// "Tight and rigorous error bounds for basic building blocks of double-word arithmetic" (ACM TOMS
// 44, 2017): AccurateDWPlusDW (relative error <= 3u^2 + 13u^3), DWPlusFP (<= 2u^2), DWTimesFP1
// (<= 1.5u^2 + 4u^3), DWTimesDW1 (<= 7u^2), DWDivDW2 (<= 15u^2 + 56u^3), u = 2^-53. We charge
// every one kOp = 2^-99 = 128u^2 of its result (|result| <= |z.h|(1 + 2^-52)), more than any of
// them. Propagation: for z = a op b with |a - â| <= ea, |b - b̂| <= eb:
//   a + b: ea + eb;   a·b: |â|eb + |b̂|ea + ea·eb;   a/b: (ea + |â/b̂|eb) / (|b̂| - eb)
// (|â| is taken as |a.h|(1 + 2^-50) >= |a.h + a.l|). The bounds themselves are computed in
// double with rounding to nearest: a chain of at most ~300 operations of at most 8 roundings
// each understates a bound by a factor at most (1 + u)^2400 < 1 + 2^-41, so the final bound is
// multiplied by 1 + 2^-40 (kInflate) before use (the one subtraction among them, |b̂| - eb in a
// quotient, has eb < 2^-60|b̂| wherever a result is accepted, so its rounding is as harmless).
#include "fast_path.hpp"

#include <mpfr.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>

#include "gelucheck/mpfr.hpp"

#ifdef GELUCHECK_FAST_FMA
#include <immintrin.h>  // _mm256_fmadd_pd
#endif

// This file is compiled twice (fast_path_fma.cpp): as is, and with GELUCHECK_FAST_FMA for
// x86-64 machines with FMA, where two_prod is one fused operation instead of Dekker's 17. Both
// are exact, so every bound below holds for both; round_batch picks one at run time.
#ifdef GELUCHECK_FAST_FMA
#define GELUCHECK_FAST_NS fast_fma
#else
#define GELUCHECK_FAST_NS fast
#endif

namespace gelucheck::ref {
namespace testing {
#ifndef GELUCHECK_FAST_FMA
// initial-exec: read on every rounding test, so not through __tls_get_addr (the library is
// linked into programs, never dlopen'ed).
[[gnu::tls_model("initial-exec")]] thread_local double g_fast_perturbation = 0;
#else
[[gnu::tls_model("initial-exec")]] extern thread_local double g_fast_perturbation;
#endif
}  // namespace testing

namespace GELUCHECK_FAST_NS {
namespace {

constexpr double kOp = 0x1p-99;
constexpr double kMag = 1 + 0x1p-50;
constexpr double kInflate = 1 + 0x1p-40;
constexpr double kU = 0x1p-53;

// ---- lanes ------------------------------------------------------------------------------------
// The arithmetic below is written once for T = double (one input) and T = Lanes, kLanes doubles
// in one vector (GCC's vector extension), on which each operation acts lane by lane with the
// same IEEE rounding as on a double: the tanh form evaluates kLanes inputs in one pass, and
// every bound holds for each lane as it does for a double. (A select evaluates both sides.)
constexpr int kLanes = 4;
// Without AVX (the portable build) GCC warns that such vectors pass between functions unlike
// under AVX; every function here has internal linkage, so no other code sees that ABI.
#pragma GCC diagnostic ignored "-Wpsabi"
using Lanes = double __attribute__((vector_size(8 * kLanes)));
using LaneInts = std::int64_t __attribute__((vector_size(8 * kLanes)));
template <class T> struct IntOf { using type = std::int64_t; };
template <> struct IntOf<Lanes> { using type = LaneInts; };

inline double vabs(double a) { return std::fabs(a); }
inline Lanes vabs(Lanes a) {
  return std::bit_cast<Lanes>(std::bit_cast<LaneInts>(a) & 0x7fffffffffffffff);
}
inline double select(bool m, double a, double b) { return m ? a : b; }
inline Lanes select(LaneInts m, Lanes a, Lanes b) { return m ? a : b; }
inline std::int64_t select(bool m, std::int64_t a, std::int64_t b) { return m ? a : b; }
inline LaneInts select(LaneInts m, LaneInts a, LaneInts b) { return m ? a : b; }
template <class T> inline T splat(double v) { return v - T{}; }  // v in every lane (-0 kept)
// 2^k for -1022 <= k <= 1023, from its bits.
inline double pow2_of(std::int64_t k) { return exact_pow2(static_cast<int>(k)); }
inline Lanes pow2_of(LaneInts k) { return std::bit_cast<Lanes>((k + 1023) << 52); }
#ifdef GELUCHECK_FAST_FMA
inline double fused(double a, double b, double c) { return __builtin_fma(a, b, c); }
inline Lanes fused(Lanes a, Lanes b, Lanes c) {
  return std::bit_cast<Lanes>(_mm256_fmadd_pd(std::bit_cast<__m256d>(a), std::bit_cast<__m256d>(b),
                                              std::bit_cast<__m256d>(c)));
}
#endif

// ---- exact double-double building blocks ------------------------------------------------------
template <class T> struct DDT {
  T h, l;
};
using DD = DDT<double>;
template <class T> inline DDT<T> two_sum(T a, T b) {
  const T s = a + b, bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
template <class T> inline DDT<T> fast_two_sum(T a, T b) {  // |a| >= |b| or a == 0
  const T s = a + b;
  return {s, b - (s - a)};
}
// Veltkamp's split and Dekker's product: exact (p + e == a·b) when no intermediate overflows
// and a·b is 0 or >= 2^-969 in magnitude; every product below is of numbers in [2^-600, 2^600].
template <class T> inline void split(T a, T& hi, T& lo) {
  const T c = 134217729.0 * a;  // 2^27 + 1
  hi = c - (c - a);
  lo = a - hi;
}
template <class T> inline DDT<T> two_prod(T a, T b) {
  const T p = a * b;
#ifdef GELUCHECK_FAST_FMA
  return {p, fused(a, b, -p)};  // exact under the same conditions (no underflow)
#else
  T ah, al, bh, bl;
  split(a, ah, al);
  split(b, bh, bl);
  return {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
#endif
}
template <class T> inline DDT<T> dd_add(DDT<T> x, DDT<T> y) {  // AccurateDWPlusDW
  const DDT<T> s = two_sum(x.h, y.h), t = two_sum(x.l, y.l);
  const DDT<T> v = fast_two_sum(s.h, s.l + t.h);
  return fast_two_sum(v.h, t.l + v.l);
}
template <class T> inline DDT<T> dd_add_d(DDT<T> x, T y) {  // DWPlusFP
  const DDT<T> s = two_sum(x.h, y);
  return fast_two_sum(s.h, x.l + s.l);
}
template <class T> inline DDT<T> dd_mul_d(DDT<T> x, T y) {  // DWTimesFP1
  const DDT<T> c = two_prod(x.h, y);
  const DDT<T> t = fast_two_sum(c.h, x.l * y);
  return fast_two_sum(t.h, t.l + c.l);
}
template <class T> inline DDT<T> dd_mul(DDT<T> x, DDT<T> y) {  // DWTimesDW1
  const DDT<T> c = two_prod(x.h, y.h);
  const T cl = c.l + (x.h * y.l + x.l * y.h);
  return fast_two_sum(c.h, cl);
}
template <class T> inline DDT<T> dd_div(DDT<T> x, DDT<T> y) {  // DWDivDW2
  const T th = x.h / y.h;
  const DDT<T> r = dd_mul_d(y, th);
  const T ph = x.h - r.h, dl = x.l - r.l;
  const T tl = (ph + dl) / y.h;
  return fast_two_sum(th, tl);
}

// floor(log2|a|) for a finite nonzero a (std::ilogb, fast for normal numbers).
inline int exponent(double a) {
  const int b = static_cast<int>((std::bit_cast<std::uint64_t>(a) >> 52) & 0x7ff);
  return b != 0 ? b - 1023 : std::ilogb(a);
}

// The double neighbours of a finite a toward +inf / -inf (std::nextafter without the call).
inline double next_up(double a) {
  if (a == 0) return 0x1p-1074;
  const std::uint64_t b = std::bit_cast<std::uint64_t>(a);
  return std::bit_cast<double>(a > 0 ? b + 1 : b - 1);
}
inline double next_down(double a) { return -next_up(-a); }

// ---- values with an error bound ---------------------------------------------------------------
template <class T> struct VT {
  T h, l, e;
};
using V = VT<double>;
template <class T> inline T mag(const VT<T>& a) { return vabs(a.h) * kMag; }
template <class T> inline VT<T> exact(T x) { return {x, T{}, T{}}; }
template <class T> inline VT<T> splat(const V& c) {  // a scalar value in every lane
  return {splat<T>(c.h), splat<T>(c.l), splat<T>(c.e)};
}
template <class T> inline VT<T> select(decltype(T{} > T{}) m, const VT<T>& a, const VT<T>& b) {
  return {select(m, a.h, b.h), select(m, a.l, b.l), select(m, a.e, b.e)};
}
template <class T> inline VT<T> add(const VT<T>& a, const VT<T>& b) {
  const DDT<T> z = dd_add(DDT<T>{a.h, a.l}, DDT<T>{b.h, b.l});
  return {z.h, z.l, a.e + b.e + kOp * vabs(z.h)};
}
template <class T> inline VT<T> add_d(const VT<T>& a, double b) {  // b exact
  const DDT<T> z = dd_add_d(DDT<T>{a.h, a.l}, splat<T>(b));
  return {z.h, z.l, a.e + kOp * vabs(z.h)};
}
template <class T> inline VT<T> mul(const VT<T>& a, const VT<T>& b) {
  const DDT<T> z = dd_mul(DDT<T>{a.h, a.l}, DDT<T>{b.h, b.l});
  return {z.h, z.l, mag(a) * b.e + mag(b) * a.e + a.e * b.e + kOp * vabs(z.h)};
}
template <class T> inline VT<T> mul_d(const VT<T>& a, T y) {  // y exact
  const DDT<T> z = dd_mul_d(DDT<T>{a.h, a.l}, y);
  return {z.h, z.l, vabs(y) * a.e + kOp * vabs(z.h)};
}
// Requires eb < |b̂| (checked by the callers' regions; else the bound is +inf).
template <class T> inline VT<T> div(const VT<T>& a, const VT<T>& b) {
  const DDT<T> z = dd_div(DDT<T>{a.h, a.l}, DDT<T>{b.h, b.l});
  const T den = vabs(b.h) / kMag - b.e;
  const T e = select(den > 0, (a.e + vabs(z.h) * kMag * b.e) / den, splat<T>(kInf));
  return {z.h, z.l, e + kOp * vabs(z.h)};
}
template <class T> inline VT<T> neg(const VT<T>& a) { return {-a.h, -a.l, a.e}; }
// a·2^k, -1022 <= k <= 1: exact for h; l and e may fall below 2^-1022, where their rounding
// moves them by at most 2^-1075, charged as 2^-1074 more in e.
template <class T, class I> inline VT<T> scale2(const VT<T>& a, I k) {
  const T p = pow2_of(k);
  return {a.h * p, a.l * p, a.e * p + select(k < 0, splat<T>(0x1p-1074), T{})};
}
// A value times 2^k, k an integer: what the exponential returns.
template <class T> struct ST {
  VT<T> m;
  typename IntOf<T>::type k;
};
using S = ST<double>;
// m·2^k as an unscaled V when 2^k is above 2^-1000; else 0 with the bound |m·2^k| < 2^-998
// (|m| < 4 in every use).
template <class T> inline VT<T> unscaled(const ST<T>& s) {
  using I = typename IntOf<T>::type;
  const auto keep = s.k >= -1000;
  const VT<T> v = scale2(s.m, select(keep, s.k, I{}));
  return {select(keep, v.h, T{}), select(keep, v.l, T{}), select(keep, v.e, splat<T>(0x1p-998))};
}

// ---- constants and tables, from MPFR once (correctly rounded; a double-double constant c is
// RN(c) + RN(c - RN(c)), within 2^-106|c|, charged 2^-105|c|) -----------------------------------
constexpr int kTaylorN = 24;   // Taylor terms of Φ and g = Φ + xφ per interval
constexpr int kCenters = 129;  // centres j/8, j = -64..64, intervals |x - j/8| <= 1/16

struct Poly {
  std::array<DD, kTaylorN> a;  // Taylor coefficients at the centre (kTaylorN or fewer used)
  int n = kTaylorN;            // terms used
  int k = 0;                   // a[0..k-1] in double-double, a[k..n-1] in double
  double tail_err = 0;         // bound of the double part's rounding error, |h| <= hmax
  double trunc = 0;            // bound of the truncation error (terms >= n)
};
// Mills-ratio table: t in [2^e, 2^(e+1)), e = 3..10, in 64 intervals per binade.
constexpr int kMillsN = 16;
constexpr int kMillsPerBinade = 64;

struct Tables {
  V sqrt_2_over_pi, two_sqrt_2_over_pi, c, three_c, inv_sqrt_2pi;
  double l1, l2, l3, l4, l_rest;  // ln2/256 = l1 + l2 + l3 + l4 + δ, |δ| <= l_rest
  double inv_l;                   // ~256/ln2 (any value works; it only sets the reduction)
  std::array<V, 256> exp2_j;      // 2^(j/256)
  std::array<double, 10> inv_fact_d;  // 1/n! rounded to double
  std::array<Poly, kCenters> phi, g;
  std::array<Poly, 8 * kMillsPerBinade> mills;
  Tables();
};

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
    exp2_j[static_cast<std::size_t>(j)] = to_v(y);
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
}

const Tables& tables() {
  static const Tables t;  // thread-safe initialisation (C++11 magic statics)
  return t;
}

// ---- exp ----------------------------------------------------------------------------------------
// e^t for t <= 0, |t| < 2^22, as m·2^k. Reduction: N = nearest(256t/ln2), r = t - N·ln2/256
// with N·l1, N·l2 exact (22-bit pieces, |N| < 2^31), N·l3 exact by two_prod, N·l4 rounded
// (u|N l4|), the rest of ln2/256 (< 2^-150 of it) charged |N|·l_rest; |r| <= ln2/512 + 2^-40 <
// 0.001355. e^t = 2^(N div 256)·2^((N mod 256)/256)·e^r. e^r = Σ_{n<=9} r^n/n! + R, |R| <=
// |r|^10/10!·1.01 < 2^-116: 1 + r(1 + r(1/2 + r·Q)) in double-double, Q = Σ_{n=3..9} r^(n-3)/n!
// by Horner in double on r.h: |Q̂ - Q| <= 16u·Σ|c_n||r|^(n-3) <= 16u/5.99 (coefficients rounded,
// Higham's γ_14), and replacing r by r.h moves Q by at most (|r.l| + r.e)·|Q'| <= (|r.l| +
// r.e)/23. T = double or Lanes (every lane the same steps).
inline V gather(const std::array<V, 256>& tab, std::int64_t j) {
  return tab[static_cast<std::size_t>(j)];
}
inline VT<Lanes> gather(const std::array<V, 256>& tab, LaneInts j) {
  VT<Lanes> r{};
  for (int i = 0; i < kLanes; ++i) {
    const V v = gather(tab, j[i]);
    r.h[i] = v.h;
    r.l[i] = v.l;
    r.e[i] = v.e;
  }
  return r;
}
template <class T> ST<T> exp_neg(const VT<T>& t) {
  using I = typename IntOf<T>::type;
  const Tables& Tb = tables();
  // N = nearest(t.h·inv_l) (ties to even), by adding and subtracting 1.5·2^52: the sum lies in
  // [2^52, 2^53), where doubles are the integers, for |t.h·inv_l| < 2^31; the subtraction is
  // exact, and the sum's bits less 1.5·2^52's are N as an integer.
  const T shifted = t.h * Tb.inv_l + 0x1.8p52;
  const T nd = shifted - 0x1.8p52;
  const I n = std::bit_cast<I>(shifted) - std::bit_cast<I>(splat<T>(0x1.8p52));
  // t.h - N·l1 is exact: N·l1 is exact, and |t - N·ln2/256| <= ln2/512 puts t.h within a
  // factor 2 of N·l1 (Sterbenz) unless N == 0. Then the smaller pieces, in double-double.
  const DDT<T> r1 = two_sum(t.h - nd * Tb.l1, -nd * Tb.l2);
  const DDT<T> p3 = two_prod(nd, splat<T>(Tb.l3));
  const T p4 = nd * Tb.l4;
  const DDT<T> small = two_sum(t.l - p3.h, -p3.l - p4);
  VT<T> r = add(VT<T>{r1.h, r1.l, t.e}, VT<T>{small.h, small.l, T{}});
  r.e += 2 * kU * (vabs(t.l - p3.h) + vabs(p3.l) + vabs(p4)) + vabs(nd) * Tb.l_rest;
  // e^r = 1 + r + r²·W, W = 1/2 + r·Q: W = 0.5 + r.h·Q in double-double (r.h·Q is below 2^-12,
  // its rounding u of it, and r.l·Q, r.e·Q and Q's own error ride in W's bound).
  const auto& cf = Tb.inv_fact_d;
  T q = splat<T>(cf[9]);
  for (int k = 8; k >= 3; --k) q = q * r.h + cf[static_cast<std::size_t>(k)];
  const T eq = 16 * kU / 5.99 + (vabs(r.l) + r.e) / 23;  // |Q̂ - Q(r)|
  const T rq = r.h * q;
  const DDT<T> w = fast_two_sum(splat<T>(0.5), rq);
  const VT<T> W{w.h, w.l,
                kU * vabs(rq) + (vabs(r.l) + r.e) * vabs(q) * kMag + mag(r) * eq + r.e * eq};
  VT<T> p = mul(mul(r, r), W);
  p = add_d(add(p, r), 1.0);
  p.e += 0x1p-116;
  // N mod 256 in [0, 255] and N div 256 (floor): two's complement and an arithmetic shift.
  return {mul(p, gather(Tb.exp2_j, n & 255)), n >> 8};
}

// ---- Φ and g = Φ + xφ on |x| < 8 by the Taylor tables -------------------------------------------
// Horner on N table polynomials at once (each input its own polynomial and h, the steps
// interleaved): for each, the double part first (terms [k, n)), then the double-double steps
// (terms below k), each multiplying by the exact h (mul_d propagates the bound) and adding a
// coefficient, in that order whatever N; lanes of one sweep block mostly share a polynomial.
template <int N>
void taylor_n(const Poly* const* p, const double* h, V* out) {
  int top = 0, kmin = kTaylorN, kmax = 0;
  for (int i = 0; i < N; ++i) {
    top = std::max(top, p[i]->n);
    kmin = std::min(kmin, p[i]->k);
    kmax = std::max(kmax, p[i]->k);
  }
  double q[N];
  for (int i = 0; i < N; ++i) q[i] = 0;
  for (int n = top - 1; n >= kmin; --n)
    for (int i = 0; i < N; ++i)
      if (n < p[i]->n && n >= p[i]->k) q[i] = q[i] * h[i] + p[i]->a[static_cast<std::size_t>(n)].h;
  for (int i = 0; i < N; ++i) out[i] = {q[i], 0, p[i]->tail_err};
  for (int n = kmax - 1; n >= 0; --n)
    for (int i = 0; i < N; ++i)
      if (n < p[i]->k) {
        const DD& a = p[i]->a[static_cast<std::size_t>(n)];
        out[i] = add(mul_d(out[i], h[i]), {a.h, a.l, 0x1p-105 * std::fabs(a.h)});
      }
  for (int i = 0; i < N; ++i) out[i].e += p[i]->trunc;
}
V taylor(const Poly& p, double h) {
  const Poly* pp = &p;
  V v;
  taylor_n<1>(&pp, &h, &v);
  return v;
}

// ---- the Mills ratio M(t) for 8 <= t < 2048 by its Taylor table ---------------------------------
// t in [2^e, 2^(e+1)), interval i = floor(64(t/2^e - 1)), centre c = 2^e + (i + 1/2) 2^(e-6):
// t - 2^e, the scaling and h = t - c are exact (c is a multiple of 2^(e-7), t of 2^(e-23)), and
// |h| <= 2^(e-7).
V mills(double t) {
  const int e = exponent(t);
  const int i = static_cast<int>((t * exact_pow2(-e) - 1) * kMillsPerBinade);
  const double c = exact_pow2(e) + (i + 0.5) * exact_pow2(e - 6);
  return taylor(tables().mills[static_cast<std::size_t>((e - 3) * kMillsPerBinade + i)], t - c);
}

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

// Open bounds of f(x) known in advance (each a double of at most 52 significant bits, or ±0, so
// that its double neighbour inward is no rounding boundary of any of the three formats and none
// lies between the two): f > below, f < above.
template <class T> struct FactsT {
  T below, above;
};
using Facts = FactsT<double>;
// For T = double or Lanes (lane by lane), by selects.
template <class T> FactsT<T> facts(Quantity q, T x) {
  if (q == Quantity::value)  // f(x) - x/2 = x(Φ(x) - 1/2) or (x/2) tanh(u): > 0 for x != 0
    return {x * 0.5, select(x > 0, x, splat<T>(-0.0))};  // f = x·(factor in (0, 1))
  // f' > 1/2 for x > 0, > 1 for x >= 1; f' < 1/2 for x < 0, < 0 for x <= -1
  return {select(x > 0, select(x >= 1, splat<T>(1.0), splat<T>(0.5)), splat<T>(-kInf)),
          select(x > 0, splat<T>(kInf), select(x <= -1, splat<T>(-0.0), splat<T>(0.5)))};
}

// The roundings of a nonzero f with |f| below half the least subnormal of fmt: RN gives f's
// signed zero, RD/RU zero or the least subnormal of f's sign.
void zero_roundings(bool neg, Format fmt, Rounded& out) {
  const double tiny = exact_pow2(info(fmt).emin - info(fmt).precision + 1);
  out.rn = neg ? -0.0 : 0.0;
  out.rd = neg ? -tiny : 0.0;
  out.ru = neg ? -0.0 : tiny;
}
// |f| < 2^-(2^20): the roundings above, and only the sign carried (Rounded's contract).
void sign_only(bool neg, Format fmt, Rounded& out) {
  zero_roundings(neg, fmt, out);
  out.hi = neg ? -1.0 : 1.0;
  out.lo = 0;
  out.scale = kBelowScale;
  out.floor_log2 = kBelowScale;
}

// The roundings of an f known to lie strictly between the value c of fmt (c finite, nonzero, a
// normal double) and c's neighbour in fmt on the side `above` says (toward +inf when true), and
// nearer c than half the gap to that neighbour: RN = c, and RD/RU are c and that neighbour. No
// rounding test is needed: the closed forms below prove the distance. With a = |c| in the binade
// [2^e, 2^(e+1)), the quantum is 2^(max(e, emin) - p + 1); the neighbour away from zero is a +
// quantum (2^(emax+1) is an overflow: ±inf), toward zero a - quantum, or a - quantum/2 when a =
// 2^e is the bottom of a normal binade. f's floor(log2|f|) is e, or e - 1 when f lies below a =
// 2^e in magnitude. hi/lo (scale 0) is the caller's approximation of f.
void near_value(double c, bool above, Format fmt, double hi, double lo, Rounded& out) {
  const FormatInfo fi = info(fmt);
  const double a = std::fabs(c);
  const int e = exponent(a);
  const double quantum = exact_pow2(std::max(e, fi.emin) - fi.precision + 1);
  const bool bottom = a == exact_pow2(e);
  const bool away = (c > 0) == above;  // f is farther from zero than c
  double nb = away ? a + quantum : a - (bottom && e > fi.emin ? quantum / 2 : quantum);
  if (nb >= exact_pow2(fi.emax + 1)) nb = kInf;
  nb = std::copysign(nb, c);  // a neighbour 0 keeps c's sign: the rounding toward zero of f
  out.rn = c;
  out.rd = above ? c : nb;
  out.ru = above ? nb : c;
  out.floor_log2 = !away && bottom ? e - 1 : e;
  out.hi = hi;
  out.lo = lo;
  out.scale = 0;
}

// Decides out from f(x) ∈ v·2^scale (v's bound e) and the facts. False when it cannot.
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
    v = scale2(v, static_cast<int>(scale));
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

// decide() on kLanes results at once, for the usual cases only; every other lane goes to
// decide(), which handles every case. A lane is taken when its enclosure's ends L, U (as decide()
// widens them) are of one sign and, as doubles, in one binade, and either
//  - f(x) ∈ v (scale 0), 2^-960 <= |L| < 2^(emax+1), [L, U] strictly inside the facts' open
//    bounds, and neither a value of fmt nor a midpoint between two lies in [L, U]: there decide()
//    clamps nothing and takes its round_interval path, whose steps this repeats lane by lane
//    without a branch (the floor by the 2^52 shift, exact for 0 <= ma < 2^24); or
//  - f(x) ∈ v·2^scale with 2^-(2^20) <= |f| < 2^-960 (scale + the binade's exponent in
//    [kBelowScale, -960)), where decide() gives zero_roundings, floor_log2 = that sum, and hi,
//    lo, scale as they are (below 2^-(2^20), decide()'s sign_only).
// The fields written are decide()'s, one for one.
void decide_lanes(Quantity q, Format fmt, Lanes x, const VT<Lanes>& v, LaneInts sc,
                  const std::size_t* idx, int m, Rounded* out, unsigned char* ok) {
  using L = Lanes;
  using I = LaneInts;
  const FormatInfo fi = info(fmt);
  L h = v.h;
  if (testing::g_fast_perturbation != 0) h += testing::g_fast_perturbation * h;  // test hook
  const L e = v.e * kInflate;
  const L lo = h + (v.l - e), hi = h + (v.l + e);
  // next_down(lo), next_up(hi) for nonzero finite lo, hi (other lanes are refused below).
  const L lb = std::bit_cast<L>(std::bit_cast<I>(lo) + select(lo > 0, I{} - 1, I{} + 1));
  const L ub = std::bit_cast<L>(std::bit_cast<I>(hi) + select(hi > 0, I{} + 1, I{} - 1));
  const FactsT<L> s = facts(q, x);
  const L al = vabs(lb), au = vabs(ub);
  const L a = select(al < au, al, au), b = select(al < au, au, al);
  const I ea = (std::bit_cast<I>(a) >> 52) - 1023, eb = (std::bit_cast<I>(b) >> 52) - 1023;
  const I scaled = sc != 0;
  I good = (e < 0x1p-70 * vabs(h) * (1 - 0x1p-50)) & (ea == eb) &
           (((lb > 0) & (ub > 0)) | ((lb < 0) & (ub < 0)));
  good &= select(scaled, (ea + sc < -960) & (ea + sc >= kBelowScale),
                 (ea >= -960) & (ea <= fi.emax) & (lb > s.below) & (ub < s.above));
  // The quantum's exponent: max(e, emin) - precision + 1 (the least subnormal's for scaled
  // lanes, whose f is far below it; refused lanes get any valid one).
  I qe = select(ea > fi.emin, ea, I{} + fi.emin) - (fi.precision - 1);
  qe = select(good & ~scaled, qe, I{} + (fi.emin - fi.precision + 1));
  const L ma = select(scaled, L{}, a * pow2_of(-qe));  // exact; < 2^precision; 0 if scaled
  const L mb = select(scaled, L{}, b * pow2_of(-qe));
  const L ra = (ma + 0x1p52) - 0x1p52, rb = (mb + 0x1p52) - 0x1p52;  // nearest integers
  const L fa = ra - select(ra > ma, splat<L>(1.0), L{});
  const L fb = rb - select(rb > mb, splat<L>(1.0), L{});
  const L da = ma - fa, db = mb - fa;
  good &= scaled | ((fa == fb) & (ma != fa) & ((da > 0.5) == (db > 0.5)) & (da != 0.5) &
                    (db != 0.5));
  const L quantum = pow2_of(qe);
  const double limit = exact_pow2(fi.emax + 1);
  L n = (fa + select(da > 0.5, splat<L>(1.0), L{})) * quantum;
  L up = (fa + 1) * quantum;
  const L dn = fa * quantum;  // < limit: a < 2^(emax+1)
  n = select(n >= limit, splat<L>(kInf), n);
  up = select(up >= limit, splat<L>(kInf), up);
  const I neg = ub < 0;
  const L rn = select(neg, -n, n), rd = select(neg, -up, dn), ru = select(neg, -dn, up);
  const I floor_log2 = ea + sc;
  for (int i = 0; i < m; ++i) {
    Rounded& r = out[idx[i]];
    if (good[i]) {
      r.rn = rn[i];
      r.rd = rd[i];
      r.ru = ru[i];
      r.floor_log2 = floor_log2[i];
      r.hi = h[i];
      r.lo = v.l[i];
      r.scale = sc[i];
      ok[idx[i]] = 1;
    } else {
      ok[idx[i]] = decide(fmt, V{v.h[i], v.l[i], v.e[i]}, sc[i], facts(q, x[i]), r);
    }
  }
}

// ---- the four functions ---------------------------------------------------------------------------
// tanh form: u = √(2/π)·x·(1 + c x²), E = e^(-2|u|) <= 1 (so exp never overflows), D = 1 + E:
//   value       x > 0: x / D                    x < 0: x·E / D
//   derivative  x > 0: (D + w E) / D²           x < 0: E (D + w) / D²,  w = 2√(2/π) x (1 + 3c x²)
// (f = x σ(2u); f' = σ(2u)(1 + w σ(-2u)) with σ(2u) = 1/D, σ(-2u) = E/D for x > 0 and the
// mirror for x < 0). x² is exact (x has 24 bits). Only x < 0's derivative cancels (D + w near
// the zero of f'); its bound then exceeds 2^-70 |f| and the MPFR path takes over.
//
// N inputs at once (kLanes, one vector of doubles: see "lanes" above; unused lanes compute x =
// 1): xs[idx[i]] for i < m <= kLanes. Each lane gets the operations one input alone would get.
// The signs are chosen by selects, not branches: with inputs of random sign a branch would be
// mispredicted half the time.
void tanh_lanes(Quantity q, Format fmt, const double* xs, const std::size_t* idx, int m,
                Rounded* out, unsigned char* ok) {
  using L = Lanes;
  const Tables& Tb = tables();
  L x;
  for (int i = 0; i < kLanes; ++i) x[i] = i < m ? xs[idx[i]] : 1.0;
  const L x2 = x * x;
  const LaneInts pos = x > 0;
  const VT<L> u =
      mul(mul_d(splat<L>(Tb.sqrt_2_over_pi), x), add_d(mul_d(splat<L>(Tb.c), x2), 1.0));
  const L s2 = select(u.h > 0, splat<L>(-2.0), splat<L>(2.0));  // -2|u|: a scaling by ±2, exact
  const ST<L> E = exp_neg(VT<L>{u.h * s2, u.l * s2, u.e * 2});
  const VT<L> Eu = unscaled(E);
  const VT<L> D = add_d(Eu, 1.0);
  // x < 0: f carries E as Es·2^sc, unscaled (sc = 0) while 2^k >= 2^-900 (x > -20.6), scaled
  // below. Unscaled, the value stays above 2^-926 (|x| > 2^-24, E > 2^-901, D < 2), and any
  // unscaled result is right whatever its size (its bound charges the subnormal roundings;
  // decide() takes scale 0 at any magnitude): decide_lanes can take most lanes, and decide()'s
  // rescaling is left to the tiny results.
  const LaneInts keep = pos | (E.k >= -900);
  const LaneInts sc = select(keep, LaneInts{}, E.k);
  const VT<L> Es = select(keep, Eu, E.m);
  VT<L> f;
  if (q == Quantity::value) {
    f = div(select(pos, exact(x), mul_d(Es, x)), D);
  } else {
    const VT<L> w = mul(mul_d(splat<L>(Tb.two_sqrt_2_over_pi), x),
                        add_d(mul_d(splat<L>(Tb.three_c), x2), 1.0));
    f = div(select(pos, add(D, mul(w, Eu)), mul(Es, add(D, w))), mul(D, D));
  }
  decide_lanes(q, fmt, x, f, sc, idx, m, out, ok);
}

// The erf form's |x| < 8 (the Taylor tables) on N inputs at once.
template <int N>
void erf_table_n(Quantity q, Format fmt, const double* xs, const std::size_t* idx, int m,
                 Rounded* out, unsigned char* ok) {
  const Tables& T = tables();
  const auto& tab = q == Quantity::value ? T.phi : T.g;
  double x[N], h[N];
  const Poly* p[N];
  for (int i = 0; i < N; ++i) {
    x[i] = i < m ? xs[idx[i]] : 1.0;
    const double jd = std::floor(8 * x[i] + 0.5);  // |x| < 8: jd in [-64, 64]
    // h = x - j/8 is exact: for j = 0 it is x; otherwise |x| >= 1/16, so x's ulp is at most
    // 2^-27 and divides 2^-3, both x and j/8 are multiples of it, and |h| <= 1/16 needs < 53 bits.
    h[i] = x[i] - jd / 8;
    p[i] = &tab[static_cast<std::size_t>(static_cast<long>(jd) + 64)];
  }
  V f[N];
  taylor_n<N>(p, h, f);
  if (q == Quantity::value)
    for (int i = 0; i < N; ++i) f[i] = mul_d(f[i], x[i]);
  if constexpr (N == kLanes) {  // the rounding test on the lanes at once
    Lanes xv, fh, fl, fe;
    for (int i = 0; i < N; ++i) {
      xv[i] = x[i];
      fh[i] = f[i].h;
      fl[i] = f[i].l;
      fe[i] = f[i].e;
    }
    decide_lanes(q, fmt, xv, VT<Lanes>{fh, fl, fe}, LaneInts{}, idx, m, out, ok);
  } else {
    for (int i = 0; i < m; ++i) ok[idx[i]] = decide(fmt, f[i], 0, facts(q, x[i]), out[idx[i]]);
  }
}

// erf form: |x| < 8 by the tables (value x·Φ(x), derivative g(x): erf_table_n); beyond, with t = |x| < 2048
// (the closed forms take the rest), φ(t) = e^(-t²/2)/√(2π) (t² exact) and M(t) by its table:
//   x <= -8: Φ(x) = φ(t) M(t):   value -t φ M,       derivative φ (M - t)
//   x >=  8: Φ(x) = 1 - φ(x) M(x): value x (1 - φ M), derivative 1 + φ (x - M)
bool erf_tail(Quantity q, Format fmt, double x, Rounded& out) {  // 8 <= |x| < 2048
  const Tables& T = tables();
  const double t = std::fabs(x);
  const V M = mills(t);
  const S E = exp_neg(exact(-(t * t) / 2));  // t*t exact, /2 exact
  const V phi_m = mul(E.m, T.inv_sqrt_2pi);   // φ = phi_m·2^k
  if (x < 0) {
    if (q == Quantity::value) return decide(fmt, mul_d(mul(phi_m, M), x), E.k, facts(q, x), out);
    return decide(fmt, mul(phi_m, add_d(M, -t)), E.k, facts(q, x), out);
  }
  const V phi = unscaled(S{phi_m, E.k});
  if (q == Quantity::value)
    return decide(fmt, mul_d(add_d(neg(mul(phi, M)), 1.0), x), 0, facts(q, x), out);
  return decide(fmt, add_d(mul(phi, add_d(neg(M), x)), 1.0), 0, facts(q, x), out);
}

// ---- closed forms ---------------------------------------------------------------------------------
// Where f(x) is within 2^-70 of a closed form, nothing is evaluated (proofs in docs/reference.md
// and below); the rounding test then runs on that enclosure.
//
// Tiny |x| <= 2^-24. f(x) - x/2 is even and analytic: erf form x(Φ(x) - 1/2) = (x²/√(2π))(1 -
// x²/6 + …), an alternating series with decreasing terms, so |f - x/2 - x²/√(2π)| <= x⁴/(6√(2π))
// < 0.07x⁴; tanh form (x/2) tanh(u), u = √(2/π)x(1 + cx²), |tanh u - u| <= |u|³/3, so |f - x/2 -
// x²/√(2π)| <= (√(2/π)c/2) x⁴ + (|x|/6)(0.81|x|)³ < 0.11 x⁴. Charged 0.125x⁴ plus the rounding of
// x²/√(2π) to double (u of it). Relative: <= 0.25|x|³ + 2^-51|x| < 2^-71.
// The derivative: f' - 1/2 - 2x/√(2π) = κ x³ + O(x⁵), κ = -2/(3√(2π)) (erf) and 2√(2/π)c -
// (2/3)(2/π)^(3/2) (tanh), both ≈ -0.267: charged 0.5|x|³ plus the rounding.
// Large x: erf value x - f = xΦ(-x) < φ(x) (Mills' inequality Φ(-x) < φ(x)/x), so relative to f >
// x/2 below 2φ(x)/x <= 2φ(10)/10 < 2^-73 for x >= 10; erf derivative 0 < f' - 1 = xφ(x) - Φ(-x) <
// xφ(x) <= 11φ(11) < 2^-85 for x >= 11; tanh value 0 < x - f = xσ(-2u) < x e^(-2u), relative <
// 2e^(-2u) and 2u >= 66 at x = 9; tanh derivative 0 < f' - 1 < w e^(-2u) < 2^-88 for x >= 9.
// Very negative x: |f| < 2^-(2^20) (below which only the sign is carried): tanh: |f| <= |x| e^(-2|u|)
// and |f'| <= e^(-2|u|)(2 + |w|), 2|u| >= 2√(2/π)c|x|³; at |x| = 256 log2|f| < 8 + 22 - 1.7e6;
// erf: |f| <= φ(x) and |f'| <= |x|φ(x), log2 < 11 - 0.72x² < -3e6 at |x| = 2048; both bounds
// decrease with |x| beyond.
//
// Most of these need no rounding test at all (near_value, sign_only): x is a value of fmt
// (round_batch's contract), and the bounds put f nearer a known value c of fmt than half the
// gap to c's neighbour on f's side. That gap is at least 2^-p|c| (p = fmt's precision; exactly
// that at the bottom of a binade, where the gap below is half a quantum), so half of it is at
// least 2^(-p-1)|c|.
//   Large x: |f - c| < 2^-70|c|, c = x (value, f below) or 1 (derivative, f above); p <= 24.
//   Tiny x, value: f - x/2 = x²/√(2π)(1 + ε) > 0 with |ε| < 2^-40 (the bounds above), so
//     |f - x/2| < 0.81|x||x/2| < 2^(-p-1)|x/2| when |x| < 2^(-p-1); taken for |x| < 2^(-p-2)
//     and when x/2 is a value of fmt (below 2^emin: an even multiple of the least subnormal).
//   Tiny x, derivative: |f' - 1/2| <= 0.8|x| + 0.5|x|³ < 2^(-p-2) = half the gap below 1/2
//     when |x| < 2^(-p-3); f' is above 1/2 for x > 0, below for x < 0.
// The rest of the tiny region (and x/2 not in fmt) goes through the rounding test.
bool closed_form(Form form, Quantity q, Format fmt, double x, Rounded& out, bool& done) {
  done = true;
  const double ax = std::fabs(x);
  constexpr double kInvSqrt2Pi = 0.3989422804014327;  // RN(1/√(2π))
  if (ax <= 0x1p-24) {
    const FormatInfo fi = info(fmt);
    if (q == Quantity::value) {
      const double lo = x * x * kInvSqrt2Pi;
      const DD v = fast_two_sum(x / 2, lo);
      // x/2 is a value of fmt: x's significand at or above 2^emin, or below an even multiple
      // of the least subnormal (x itself is one of them; |x| < 2^(-p-2) < 2^53 of them).
      const bool half_in_fmt =
          ax / 2 >= exact_pow2(fi.emin) ||
          (static_cast<std::uint64_t>(ax * exact_pow2(fi.precision - 1 - fi.emin)) & 1) == 0;
      if (ax < exact_pow2(-fi.precision - 2) && half_in_fmt) {
        near_value(x / 2, true, fmt, v.h, v.l, out);
        return true;
      }
      return decide(fmt, {v.h, v.l, 0.125 * x * x * x * x + kU * lo}, 0, facts(q, x), out);
    }
    const double lo = 2 * x * kInvSqrt2Pi;
    const DD v = fast_two_sum(0.5, lo);
    if (ax < exact_pow2(-fi.precision - 3)) {
      near_value(0.5, x > 0, fmt, v.h, v.l, out);
      return true;
    }
    return decide(fmt, {v.h, v.l, 0.5 * ax * ax * ax + kU * std::fabs(lo)}, 0, facts(q, x), out);
  }
  const double big = form == Form::erf ? (q == Quantity::value ? 10 : 11) : 9;
  if (x >= big) {
    // f in [x(1 - 2^-70), x) (value) or (1, 1 + 2^-70] (derivative); hi = x or 1.
    if (q == Quantity::value) near_value(x, false, fmt, x, 0, out);
    else near_value(1, true, fmt, 1, 0, out);
    return true;
  }
  const double very_negative = form == Form::erf ? -2048 : -256;
  if (x <= very_negative) {  // f < 0 (value and derivative alike)
    sign_only(true, fmt, out);
    return true;
  }
  done = false;
  return false;
}

// The exact cases and the closed forms; done = false when x needs an evaluation.
bool settle(Form form, Quantity q, Format fmt, double x, Rounded& out, bool& done) {
  if (x == 0 || !std::isfinite(x)) {
    // The exact cases, as enclose() gives them: f(±0) = ±0, f'(0) = 1/2; the limits at ±inf
    // (value +inf / -0, derivative 1 / -0); NaN.
    double r;
    if (std::isnan(x)) r = std::numeric_limits<double>::quiet_NaN();
    else if (x == 0) r = q == Quantity::value ? x : 0.5;
    else if (x > 0) r = q == Quantity::value ? kInf : 1.0;
    else r = -0.0;
    out.rn = out.rd = out.ru = out.hi = r;
    out.lo = 0;
    out.scale = 0;
    out.floor_log2 = r == 0.5 ? -1 : 0;  // enclose(): 0 when not a regular number
    done = true;
    return true;
  }
  return closed_form(form, q, fmt, x, out, done);
}

}  // namespace

void evaluate_batch(Form form, Quantity q, Format fmt, const double* x, std::size_t n,
                    Rounded* out, unsigned char* ok) {
  // Inputs that need an evaluation wait in `pending` until kLanes of them go at once: every
  // tanh one, and the erf form's |x| < 8 (its tail, rarer, goes one by one).
  std::size_t pending[kLanes];
  int m = 0;
  auto flush = [&] {
    if (form == Form::tanh) tanh_lanes(q, fmt, x, pending, m, out, ok);
    else erf_table_n<kLanes>(q, fmt, x, pending, m, out, ok);
    m = 0;
  };
  for (std::size_t i = 0; i < n; ++i) {
    bool done = false;
    const bool r = settle(form, q, fmt, x[i], out[i], done);
    if (done) {
      ok[i] = r;
      continue;
    }
    if (form == Form::erf && !(std::fabs(x[i]) < 8)) {
      ok[i] = erf_tail(q, fmt, x[i], out[i]);
      continue;
    }
    pending[m++] = i;
    if (m == kLanes) flush();
  }
  if (m > 0) flush();
}

}  // namespace GELUCHECK_FAST_NS

#ifndef GELUCHECK_FAST_FMA
namespace testing {
ScopedFastPathPerturbation::ScopedFastPathPerturbation(double rel) : saved_(g_fast_perturbation) {
  g_fast_perturbation = rel;
}
ScopedFastPathPerturbation::~ScopedFastPathPerturbation() { g_fast_perturbation = saved_; }
}  // namespace testing
#endif

}  // namespace gelucheck::ref
