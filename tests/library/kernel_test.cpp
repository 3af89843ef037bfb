// The accurate path's kernel (gelucheck/gelu_kernel.hpp) meets the relative error bounds derived
// in src/gelu_scalar.cpp ("Error budget"), and the glibc long double functions it relies on are
// as accurate as that budget assumes (expl <= 2 ulp, erfcl <= 6 ulp), measured here with MPFR on
// the argument ranges the kernel uses.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "gelucheck/gelu_kernel.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"
#include "support.hpp"

namespace gelucheck::testing {
namespace {

// max(|k - lo|, |k - hi|) / min(|lo|, |hi|): an upper bound of |k - f| / |f| for f in [lo, hi].
double rel_error(long double k, const ref::Enclosure& y) {
  Mpfr d1(256), d2(256), m(256);
  mpfr_set_ld(d1, k, MPFR_RNDN);
  mpfr_sub(d1, d1, y.lo(), MPFR_RNDU);
  mpfr_abs(d1, d1, MPFR_RNDU);
  mpfr_set_ld(d2, k, MPFR_RNDN);
  mpfr_sub(d2, d2, y.hi(), MPFR_RNDU);
  mpfr_abs(d2, d2, MPFR_RNDU);
  mpfr_max(d1, d1, d2, MPFR_RNDU);
  mpfr_abs(m, y.lo(), MPFR_RNDD);
  mpfr_abs(d2, y.hi(), MPFR_RNDD);
  mpfr_min(m, m, d2, MPFR_RNDD);
  mpfr_div(d1, d1, m, MPFR_RNDU);
  const double r = mpfr_get_d(d1, MPFR_RNDU);
  return r;
}

bool in_tail(Form f, double x) { return std::fabs(x) > (f == Form::tanh ? 32.0 : 40.0); }

TEST(LibraryKernel, RelativeErrorWithinTheDerivedBound) {
  std::mt19937_64 rng(7);  // fixed seed
  std::vector<double> xs = hard_points();
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  for (int i = 0; i < 2000; ++i) xs.push_back(uni(-40, 12));
  for (int i = 0; i < 400; ++i) xs.push_back(uni(-1, 0));
  for (Form f : {Form::tanh, Form::erf})
    for (int i = 0; i < 400; ++i) xs.push_back(derivative_zero(f) + uni(-0.2, 0.2));
  for (int e = -1074; e < 6; e += 3) xs.push_back(-std::ldexp(1.5, e));
  // |x| <= 2^-10, where the derivatives' bound is tighter (gelu_kernel.hpp), both signs, and the
  // two binary32 inputs that need it.
  for (int i = 0; i < 400; ++i) xs.push_back(std::ldexp(uni(-1, 1), -10 - i % 60));
  xs.push_back(0x1.40d932p-25);
  xs.push_back(-0x1.40d932p-26);
  for (const Fn& f : kFns) {
    const long double bound = detail::kernel_rel_bound(f.form, f.q);
    double worst = 0, at = 0;
    for (double x : xs) {
      if (x == 0 || in_tail(f.form, x)) continue;
      const long double k = detail::accurate_kernel(f.form, f.q, x);
      const double e = rel_error(k, ref::enclose(f.form, f.q, x));
      EXPECT_LE(e, detail::kernel_rel_bound(f.form, f.q, x)) << f.name << " input " << hex(x) << " kernel " << hex_ld(k) << " relative error "
                          << e << " > bound 2^" << std::log2(static_cast<double>(detail::kernel_rel_bound(f.form, f.q, x)));
      if (e > worst) worst = e, at = x;
    }
    std::printf("[measured] kernel %-16s max relative error %.3g = 2^%.2f at x = %s (bound 2^%.0f)\n", f.name,
                worst, std::log2(worst), hex(at).c_str(), std::log2(static_cast<double>(bound)));
  }
}

TEST(LibraryKernel, GlibcLongDoubleFunctionsAreAsAccurateAsAssumed) {
  std::mt19937_64 rng(11);  // fixed seed
  auto uni = [&](long double a, long double b) {
    return a + (b - a) * static_cast<long double>(std::uniform_real_distribution<double>(0, 1)(rng));
  };
  double wexp = 0, werfc = 0;
  long double aexp = 0, aerfc = 0;
  // expl at -t (|t| <= 2389 for |x| <= 32) and at -x^2/2 (>= -800 for |x| <= 40).
  for (int i = 0; i < 20000; ++i) {
    const long double a = i % 2 ? uni(-2400, 2400) : uni(-800, 0);
    const double u = ulps(expl(a), a, mpfr_exp, 64);
    if (u > wexp) wexp = u, aexp = a;
  }
  // erfcl at z = -x/sqrt2, |z| <= 28.3 for |x| <= 40.
  for (int i = 0; i < 20000; ++i) {
    const long double a = i % 2 ? uni(-28.5L, 28.5L) : uni(-2, 6);
    const double u = ulps(erfcl(a), a, mpfr_erfc, 64);
    if (u > werfc) werfc = u, aerfc = a;
  }
  std::printf("[measured] glibc expl max %.3f ulp at %s; erfcl max %.3f ulp at %s\n", wexp, hex_ld(aexp).c_str(),
              werfc, hex_ld(aerfc).c_str());
  EXPECT_LE(wexp, 2.0) << "expl at " << hex_ld(aexp);
  EXPECT_LE(werfc, 6.0) << "erfcl at " << hex_ld(aerfc);
}

// The binary32 fast paths of src/gelu_fast.cpp assume glibc's double exp <= 1 ulp and erfc <= 8 ulp
// (relative 2^-52 and 2^-49) on the arguments they use: exp at -t, t in [-318, 694.3] (tanh form,
// -21 <= x <= 16) and at -x^2/2 >= -800 (erf form, |x| <= 40; below -708 the result is subnormal
// and only bounded absolutely); erfc at z = -x/sqrt2 in
// [-28.3, 11.32] (-16 <= x <= 40). Measured here (normal results only: the paths never rely on a
// relative bound for subnormal results).
TEST(LibraryKernel, GlibcDoubleFunctionsAreAsAccurateAsAssumed) {
  std::mt19937_64 rng(13);  // fixed seed
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  double wexp = 0, werfc = 0, aexp = 0, aerfc = 0;
  for (int i = 0; i < 12000; ++i) {
    const double a = i % 3 == 0 ? uni(-700, 318) : i % 3 == 1 ? uni(-708, 0) : uni(-2, 2);
    const double u = ulps(std::exp(a), a, mpfr_exp, 53);
    if (u > wexp) wexp = u, aexp = a;
  }
  for (int i = 0; i < 12000; ++i) {
    const double a = i % 3 == 0 ? uni(-28.5, 11.4) : i % 3 == 1 ? uni(-1, 3) : uni(3, 11.4);
    const double u = ulps(std::erfc(a), a, mpfr_erfc, 53);
    if (u > werfc) werfc = u, aerfc = a;
  }
  std::printf("[measured] glibc exp max %.3f ulp at %s; erfc max %.3f ulp at %s\n", wexp, hex(aexp).c_str(), werfc,
              hex(aerfc).c_str());
  EXPECT_LE(wexp, 1.0) << "exp at " << hex(aexp);
  EXPECT_LE(werfc, 8.0) << "erfc at " << hex(aerfc);
}

}  // namespace
}  // namespace gelucheck::testing
