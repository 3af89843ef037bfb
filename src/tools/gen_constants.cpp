// gen_constants — writes src/include/gelucheck/constants.hpp, the one home of every constant of
// the library under test, from MPFR at 320 bits:
//   cmake --build build --target gelucheck_gen_constants &&
//   build/src/gelucheck_gen_constants > src/include/gelucheck/constants.hpp
// It also prints, on stderr, the figures the error analysis of src/gelu_scalar.cpp relies on
// (Taylor truncation bounds, cancellation factors, distance of the derivative zero to the nearest
// double). This is a build-time tool: it is not part of gelucheck::gelu and the library never
// calls MPFR.
#include <mpfr.h>

#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gelucheck/mpfr.hpp"

namespace {

using R = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<100>, boost::multiprecision::et_off>;  // ~332 bits
using std::vector;

R pi() { R p; mpfr_const_pi(p.backend().data(), MPFR_RNDN); return p; }
R sqrtR(const R& x) { return boost::multiprecision::sqrt(x); }
R expR(const R& x) { return boost::multiprecision::exp(x); }
R erfcR(const R& x) { R r; mpfr_erfc(r.backend().data(), x.backend().data(), MPFR_RNDN); return r; }

double rn_double(const R& x) { return mpfr_get_d(x.backend().data(), MPFR_RNDN); }
long double rn_ld(const R& x) { return mpfr_get_ld(x.backend().data(), MPFR_RNDN); }

std::string dec(const R& x, int digits = 25) {
  std::vector<char> buf(100);
  mpfr_snprintf(buf.data(), buf.size(), "%.*Rg", digits, x.backend().data());
  return buf.data();
}
std::string hexd(double d) { char b[64]; std::snprintf(b, sizeof b, "%a", d); return b; }
std::string hexld(long double d) { char b[64]; std::snprintf(b, sizeof b, "%LaL", d); return b; }

void scalar(const char* name, const char* real, const R& v) {
  double d = rn_double(v);
  std::printf("// %s, rounded to nearest binary64 (%s)\ninline constexpr double %s = %s;\n", real,
              dec(v, 21).c_str(), name, hexd(d).c_str());
}
void scalar_ld(const char* name, const char* real, const R& v) {
  long double d = rn_ld(v);
  std::printf("// %s, rounded to nearest x87 long double (%s)\ninline constexpr long double %s = %s;\n",
              real, dec(v, 25).c_str(), name, hexld(d).c_str());
}
void pair(const char* name, const char* real, const R& v) {
  double hi = rn_double(v);
  double lo = rn_double(v - R(hi));
  std::printf("// %s = hi + lo (%s): hi = RN64(real), lo = RN64(real - hi)\n"
              "inline constexpr DoubleDouble %s = {%s, %s};\n",
              real, dec(v, 34).c_str(), name, hexd(hi).c_str(), hexd(lo).c_str());
}

// Truncated power series in t (coefficient n of t^n), N terms.
using S = vector<R>;
S s_exp(const S& g) {
  S e(g.size());
  e[0] = expR(g[0]);
  for (std::size_t n = 1; n < g.size(); ++n) {
    R acc = 0;
    for (std::size_t k = 1; k <= n; ++k) acc += R(k) * g[k] * e[n - k];
    e[n] = acc / R(n);
  }
  return e;
}
S s_recip(const S& h) {
  S r(h.size());
  r[0] = 1 / h[0];
  for (std::size_t n = 1; n < h.size(); ++n) {
    R acc = 0;
    for (std::size_t k = 1; k <= n; ++k) acc += h[k] * r[n - k];
    r[n] = -acc / h[0];
  }
  return r;
}

// Series of f(x0 + t) for the value of each form; then f'(x0 + t) = sum (n+1) f_{n+1} t^n.
S value_series(bool tanh_form, const R& x0, std::size_t N) {
  const R c = R(44715) / R(1000000);
  const R k1 = 2 * sqrtR(2 / pi());  // 2 sqrt(2/pi)
  const R k2 = k1 * c;
  S s(N, R(0));
  if (tanh_form) {
    S negT(N, R(0));  // -T(x0+t), T = k1 x + k2 x^3
    negT[0] = -(k1 * x0 + k2 * x0 * x0 * x0);
    if (N > 1) negT[1] = -(k1 + 3 * k2 * x0 * x0);
    if (N > 2) negT[2] = -(3 * k2 * x0);
    if (N > 3) negT[3] = -k2;
    S den = s_exp(negT);
    den[0] += 1;
    s = s_recip(den);  // sigma(T)
  } else {
    S g(N, R(0));  // -(x0+t)^2/2
    g[0] = -x0 * x0 / 2;
    if (N > 1) g[1] = -x0;
    if (N > 2) g[2] = R(-1) / 2;
    S phi = s_exp(g);
    const R inv = 1 / sqrtR(2 * pi());
    s[0] = erfcR(-x0 / sqrtR(R(2))) / 2;  // Phi(x0)
    for (std::size_t n = 1; n < N; ++n) s[n] = phi[n - 1] * inv / R(n);
  }
  S f(N, R(0));  // (x0 + t) * s
  for (std::size_t n = 0; n < N; ++n) f[n] = x0 * s[n] + (n ? s[n - 1] : R(0));
  return f;
}
S deriv_series(bool tanh_form, const R& x0, std::size_t N) {
  S f = value_series(tanh_form, x0, N + 1);
  S d(N);
  for (std::size_t n = 0; n < N; ++n) d[n] = R(n + 1) * f[n + 1];
  return d;
}

// f' as the two terms a + b the direct formulas add (tanh: a = 1+E, b = x t' E, over (1+E)^2;
// erf: a = Phi, b = x phi), for the cancellation factor L = (|a|+|b|)/|a+b|.
R cancel_factor(bool tanh_form, const R& x) {
  R a, b;
  if (tanh_form) {
    const R k1 = 2 * sqrtR(2 / pi()), k2 = k1 * R(44715) / R(1000000);
    R T = k1 * x + k2 * x * x * x, E = expR(-T);
    a = 1 + E;
    b = x * (k1 + 3 * k2 * x * x) * E;
  } else {
    a = erfcR(-x / sqrtR(R(2))) / 2;
    b = x * expR(-x * x / 2) / sqrtR(2 * pi());
  }
  return (abs(a) + abs(b)) / abs(a + b);
}

void taylor(bool tanh_form, const char* tag, double guess, double radius, std::size_t degree) {
  R x0 = guess;
  for (int it = 0; it < 20; ++it) {
    S d = deriv_series(tanh_form, x0, 2);
    x0 -= d[0] / d[1];
  }
  const std::size_t M = 80;  // terms used to bound the truncated tail
  S d = deriv_series(tanh_form, x0, M);
  double x0_hi = rn_double(x0);
  long double x0_lo = rn_ld(x0 - R(x0_hi));
  // P(t) = f'(x0+t)/t = sum_{k>=0} d_{k+1} t^k, kept to t^degree.
  R r = radius, tail = 0, head_min = abs(d[1]);
  for (std::size_t k = degree + 1; k + 1 < M; ++k) tail += abs(d[k + 1]) * pow(r, k);
  for (std::size_t k = 1; k <= degree; ++k) head_min -= abs(d[k + 1]) * pow(r, k);
  R geo = abs(d[M - 1]) * pow(r, M - 2);  // the last terms kept shrinking geometrically: see stderr
  R Lmax = 0, Lat = 0;
  for (int i = -40 * 256; i <= 0; ++i) {  // sampled cancellation factor outside |x - x0| < r
    R x = R(i) / 256;
    if (abs(x - x0) < r) continue;
    R L = cancel_factor(tanh_form, x);
    if (L > Lmax) { Lmax = L; Lat = x; }
  }
  for (R x : {x0 - r, x0 + r}) {
    R L = cancel_factor(tanh_form, x);
    if (L > Lmax) { Lmax = L; Lat = x; }
  }
  std::fprintf(stderr,
               "%s: x0 = %s\n  |x0 - RN64(x0)| = %s\n  radius %g degree %zu: relative truncation "
               "<= %s (tail %s / min|P| %s), last term of the %zu-term tail %s\n"
               "  cancellation factor L outside the radius (sampled every 2^-8 on [-40, 0] and at "
               "x0 +- r): max %s at x = %s\n",
               tag, dec(x0, 30).c_str(), dec(abs(x0 - R(x0_hi)), 6).c_str(), radius, degree,
               dec(tail / head_min, 6).c_str(), dec(tail, 6).c_str(), dec(head_min, 6).c_str(), M,
               dec(geo, 6).c_str(), dec(Lmax, 6).c_str(), dec(Lat, 8).c_str());
  std::printf(
      "\n// The zero of the %s-form derivative (the minimum of the value), x0 = %s,\n"
      "// as x0 = hi + lo: hi = RN64(x0), lo = RN80(x0 - hi). Near it, for |x - x0| <= %a,\n"
      "// f'(x0 + t) = t * P(t), P(t) = sum_k p[k] t^k, p[k] = f^(k+2)(x0) / (k+1)! rounded to long\n"
      "// double (Taylor coefficients by power-series arithmetic in MPFR, gen_constants.cpp).\n"
      "// Truncation after t^%zu: relative error <= %s over the interval.\n"
      "inline constexpr double k%sZeroHi = %s;\n"
      "inline constexpr long double k%sZeroLo = %s;\n"
      "inline constexpr double k%sZeroRadius = %a;\n"
      "inline constexpr long double k%sZeroPoly[%zu] = {\n",
      tag, dec(x0, 30).c_str(), radius, degree, dec(tail / head_min, 3).c_str(), tag,
      hexd(x0_hi).c_str(), tag, hexld(x0_lo).c_str(), tag, radius, tag, degree + 1);
  for (std::size_t k = 0; k <= degree; ++k)
    std::printf("    %s,  // %s\n", hexld(rn_ld(d[k + 1])).c_str(), dec(d[k + 1], 21).c_str());
  std::printf("};\n");
}

// The fast paths' exp in double-double (src/gelu_fast.cpp): e^a = 2^(k/128) e^r, k = RN(a 128/ln2),
// r = a - k ln2/128 with ln2/128 = hi + lo, hi rounded to 36 significant bits so that k * hi is
// exact for |k| < 2^17, and the table 2^(j/128) = hi + lo for j = 0..127.
void exp_constants() {
  const R ln2 = [] { R l; mpfr_const_log2(l.backend().data(), MPFR_RNDN); return l; }();
  const R step = ln2 / 128;
  R hi36;
  {
    gelucheck::Mpfr t(36);
    mpfr_set(t, step.backend().data(), MPFR_RNDN);
    hi36 = R(mpfr_get_d(t, MPFR_RNDN));  // exact: 36 bits fit in a double
  }
  std::printf("\n// ln(2)/128 = hi + lo (%s): hi = ln(2)/128 rounded to nearest with 36 significant bits (k * hi\n"
              "// is exact for |k| < 2^17), lo = RN64(ln(2)/128 - hi). For the fast paths' exp (gelu_fast.cpp).\n"
              "inline constexpr DoubleDouble kLn2Over128 = {%s, %s};\n",
              dec(step, 34).c_str(), hexd(rn_double(hi36)).c_str(), hexd(rn_double(step - hi36)).c_str());
  scalar("kInvLn2Over128", "128/ln(2)", 128 / ln2);
  std::printf("// 2^(j/128) = hi + lo for j = 0..127: hi = RN64(real), lo = RN64(real - hi)\n"
              "inline constexpr DoubleDouble kExp2Table[128] = {\n");
  for (int j = 0; j < 128; ++j) {
    R v = boost::multiprecision::exp2(R(j) / 128);
    double hi = rn_double(v);
    std::printf("    {%s, %s},\n", hexd(hi).c_str(), hexd(rn_double(v - R(hi))).c_str());
  }
  std::printf("};\n");
}

}  // namespace

int main() {
  mpfr_set_default_prec(332);
  const R c = R(44715) / R(1000000);
  const R s2pi = sqrtR(2 / pi());
  std::printf(
      "// gelucheck/constants.hpp — every constant of the library under test, in one place.\n"
      "// GENERATED by src/tools/gen_constants.cpp (MPFR, 332 bits); do not edit by hand:\n"
      "//   cmake --build <build> --target gelucheck_gen_constants\n"
      "//   <build>/src/gelucheck_gen_constants > src/include/gelucheck/constants.hpp\n"
      "// tests/library/constants_test.cpp recomputes each value with MPFR.\n"
      "// Each constant names the exact real it rounds and how; 0.044715 is the decimal 44715/10^6.\n"
      "#pragma once\n\nnamespace gelucheck::constants {\n\n"
      "// An unevaluated sum hi + lo of two doubles, |lo| <= ulp(hi)/2.\n"
      "struct DoubleDouble {\n  double hi;\n  double lo;\n};\n\n");
  scalar("kSqrt2OverPi", "sqrt(2/pi)", s2pi);
  scalar("kCubic", "0.044715 (the decimal 44715/10^6)", c);
  scalar("kSqrt2", "sqrt(2)", sqrtR(R(2)));
  scalar("kSqrt2Pi", "sqrt(2 pi)", sqrtR(2 * pi()));
  {
    // The exercise's _SQRT_2PI (docs/functions.md) is math.sqrt(2 * math.pi): the square root of 2 RN64(pi), rounded.
    // It is NOT the correctly rounded sqrt(2 pi) (one ulp below it); only the naive path uses it.
    R textbook = sqrtR(2 * R(rn_double(pi())));
    std::printf("// sqrt(2 RN64(pi)) rounded to nearest binary64 (%s): the exercise's math.sqrt(2 * math.pi),\n"
                "// used ONLY by the naive (textbook) path so that it reproduces docs/functions.md's expressions bit for bit.\n"
                "inline constexpr double kSqrt2PiTextbook = %s;\n",
                dec(textbook, 21).c_str(), hexd(rn_double(textbook)).c_str());
  }
  std::printf("\n");
  pair("kTwoSqrt2OverPi", "2 sqrt(2/pi)", 2 * s2pi);
  pair("kTwoSqrt2OverPiCubic", "2 sqrt(2/pi) * 0.044715", 2 * s2pi * c);
  pair("kInvSqrt2", "1/sqrt(2)", 1 / sqrtR(R(2)));
  std::printf("\n");
  scalar_ld("kTwoSqrt2OverPiL", "2 sqrt(2/pi)", 2 * s2pi);
  scalar_ld("kSixSqrt2OverPiCubicL", "6 sqrt(2/pi) * 0.044715", 6 * s2pi * c);
  scalar_ld("kInvSqrt2PiL", "1/sqrt(2 pi)", 1 / sqrtR(2 * pi()));
  scalar("kInvSqrt2PiD", "1/sqrt(2 pi)", 1 / sqrtR(2 * pi()));
  taylor(true, "Tanh", -0.7524614220710163, 0.125, 16);
  taylor(false, "Erf", -0.7517915246935645, 0.125, 16);
  exp_constants();
  std::printf("\n}  // namespace gelucheck::constants\n");
  // Do the textbook run-time expressions (docs/functions.md) give the correctly rounded constants?
  std::fprintf(stderr, "sqrt(2/pi) expr %s CR; sqrt(2) expr %s; sqrt(2 pi) expr %s\n",
               std::sqrt(2 / M_PI) == rn_double(s2pi) ? "==" : "!=",
               std::sqrt(2.0) == rn_double(sqrtR(R(2))) ? "==" : "!=",
               std::sqrt(2 * M_PI) == rn_double(sqrtR(2 * pi())) ? "==" : "!=");
  return 0;
}
