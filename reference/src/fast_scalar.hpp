// Private to the reference library: what the fast path (fast_path.cpp, compiled once per Highway
// target) shares whatever the target: its error accounting's constants, its MPFR-made tables, and
// the scalar steps that lanes leave to one input at a time (the general rounding test decide(),
// the exact cases). Method and bounds: docs/reference.md, "The fast reference"; the derivations
// are in fast_scalar.cpp and fast_path.cpp, next to the code.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gelucheck/fast_reference.hpp"

namespace gelucheck::ref::fast {

// ERROR ACCOUNTING (fast_path.cpp's header has the whole of it): every double-double operation is
// charged kOp of its result; magnitudes |h + l| are taken as |h|·kMag; the final bound is
// multiplied by kInflate for the roundings of the bound's own computation.
inline constexpr double kOp = 0x1p-99;
inline constexpr double kMag = 1 + 0x1p-50;
inline constexpr double kInflate = 1 + 0x1p-40;
inline constexpr double kU = 0x1p-53;

struct DD {
  double h, l;
};
// A double-double h + l with a bound e on its distance to the true value.
struct V {
  double h, l, e;
};

// ---- tables, from MPFR once (correctly rounded; a double-double constant c is RN(c) + RN(c -
// RN(c)), within 2^-106|c|, charged 2^-105|c|) ---------------------------------------------------
inline constexpr int kTaylorN = 24;   // Taylor terms of Φ and g = Φ + xφ per interval
inline constexpr int kCenters = 129;  // centres j/8, j = -64..64, intervals |x - j/8| <= 1/16
// Mills-ratio table: t in [2^e, 2^(e+1)), e = 3..10, in 64 intervals per binade.
inline constexpr int kMillsN = 16;
inline constexpr int kMillsPerBinade = 64;
inline constexpr int kMillsPolys = 8 * kMillsPerBinade;

struct Poly {
  std::array<DD, kTaylorN> a;  // Taylor coefficients at the centre (n of them used)
  int n = kTaylorN;            // terms used
  int k = 0;                   // a[0..k-1] in double-double, a[k..n-1] in double
  double tail_err = 0;         // bound of the double part's rounding error, |h| <= hmax
  double trunc = 0;            // bound of the truncation error (terms >= n)
};

// The polynomials of one table laid out for per-lane gathers: coefficient i of polynomial p at
// [p·kTaylorN + i] (high part, low part, and the 2^-105|a.h| charged when a double-double step
// adds it); n, k, tail_err and trunc at [p].
struct PolyColumns {
  std::vector<double> ah, al, ae, tail_err, trunc;
  std::vector<std::int64_t> n, k;
  int max_n = 0, min_k = kTaylorN, max_k = 0;
  void add(const Poly& p);
};

struct Tables {
  V sqrt_2_over_pi, two_sqrt_2_over_pi, c, three_c, inv_sqrt_2pi;
  double l1, l2, l3, l4, l_rest;  // ln2/256 = l1 + l2 + l3 + l4 + δ, |δ| <= l_rest
  double inv_l;                   // ~256/ln2 (any value works; it only sets the reduction)
  std::array<double, 256> exp2_h, exp2_l, exp2_e;  // 2^(j/256) as a V, by columns
  std::array<double, 10> inv_fact_d;               // 1/n! rounded to double
  std::array<Poly, kCenters> phi, g;
  std::array<Poly, kMillsPolys> mills;
  PolyColumns phi_cols, g_cols, mills_cols;
  Tables();
};
// Built once, on first use (about 50 ms); thread-safe.
const Tables& tables();

// floor(log2|a|) for a finite nonzero a.
int exponent(double a);

// Open bounds of f(x) known in advance (each a double of at most 52 significant bits, or ±0, so
// that its double neighbour inward is no rounding boundary of any of the three formats and none
// lies between the two): f > below, f < above.
struct Facts {
  double below, above;
};
Facts facts(Quantity q, double x);

// The roundings of a nonzero f with |f| below half the least subnormal of fmt: RN gives f's
// signed zero, RD/RU zero or the least subnormal of f's sign.
void zero_roundings(bool neg, Format fmt, Rounded& out);
// |f| < 2^-(2^20): the roundings above, and only the sign carried (Rounded's contract).
void sign_only(bool neg, Format fmt, Rounded& out);

// Decides out from f(x) ∈ v·2^scale (v's bound e) and the facts. False when it cannot. The
// general rounding test, one input at a time (fast_path.cpp's lanes take the usual cases).
bool decide(Format fmt, V v, long scale, const Facts& s, Rounded& out);

// The exact cases, as enclose() gives them: f(±0) = ±0, f'(0) = 1/2; the limits at ±inf (value
// +inf / -0, derivative 1 / -0); NaN. x must be 0, infinite or NaN.
void exact_case(Quantity q, double x, Rounded& out);

}  // namespace gelucheck::ref::fast

namespace gelucheck::ref::testing {
// The perturbation of ScopedFastPathPerturbation (fast_reference.hpp), read by every rounding test.
// initial-exec: read on every rounding test, so not through __tls_get_addr (the library is linked
// into programs, never dlopen'ed).
[[gnu::tls_model("initial-exec")]] extern thread_local double g_fast_perturbation;
}  // namespace gelucheck::ref::testing
