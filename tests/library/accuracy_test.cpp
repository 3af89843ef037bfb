// Accuracy of the accurate path against the MPFR reference (docs/reference.md §5 measure): binary64
// faithful (< 1 ulp) and binary32 correctly rounded (<= 0.5 ulp), region by region, for all four
// functions. Expected values come from ref::enclose (never from src/). Each test prints the
// measured maximum per function, which docs/library.md quotes.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "gelucheck/claims.hpp"
#include "gelucheck/facts.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/reference.hpp"
#include "support.hpp"

namespace gelucheck::testing {
namespace {

struct Region {
  std::string name;
  std::vector<double> xs;
};

std::vector<Region> regions(Format fmt) {
  std::mt19937_64 rng(20240607);  // fixed seed
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  const bool f32 = fmt == Format::binary32;
  auto cvt = [&](double x) { return f32 ? static_cast<double>(static_cast<float>(x)) : x; };
  std::vector<Region> r;
  {  // every binade, both signs, three significands each
    Region g{"binades", {}};
    const int lo = f32 ? -149 : -1074, hi = f32 ? 127 : 1023;
    for (int e = lo; e <= hi; ++e)
      for (double m : {1.0, 1.0 + uni(0, 1), 2.0 - (f32 ? 0x1p-23 : 0x1p-52)})
        for (double s : {-1.0, 1.0}) g.xs.push_back(cvt(s * std::ldexp(m, e)));
    r.push_back(std::move(g));
  }
  {
    Region g{"[-40, 10] dense", {}};
    for (int i = 0; i < 3000; ++i) g.xs.push_back(cvt(uni(-40, 10)));
    r.push_back(std::move(g));
  }
  {
    Region g{"tail [-40, -20] to underflow", {}};
    for (int i = 0; i < 600; ++i) g.xs.push_back(cvt(uni(-40, -20)));
    r.push_back(std::move(g));
  }
  {
    Region g{"derivative zero +-1e-12, +-64 ulp, +-1/8", {}};
    for (Form f : {Form::tanh, Form::erf}) {
      const double z = derivative_zero(f);
      for (int i = 0; i < 300; ++i) g.xs.push_back(cvt(z + uni(-1e-12, 1e-12)));
      for (int k = -64; k <= 64; ++k)
        g.xs.push_back(f32 ? static_cast<double>(static_cast<float>(z)) + k * 0x1p-24 : z + k * 0x1p-53);
      for (int i = 0; i < 300; ++i) g.xs.push_back(cvt(z + uni(-0.15, 0.15)));
    }
    r.push_back(std::move(g));
  }
  {
    Region g{"subnormal inputs", {}};
    const double tiny = f32 ? 0x1p-126 : 0x1p-1022;
    for (int i = 0; i < 200; ++i) g.xs.push_back(cvt(uni(-tiny, tiny)));
    r.push_back(std::move(g));
  }
  {
    Region g{"hard points and thresholds", {}};
    for (double x : hard_points()) g.xs.push_back(cvt(x));
    if (f32)  // the binary32 boundaries (facts.hpp) and their neighbours
      for (const facts::Point32& p : facts::hard_points32) {
        float y = std::nextafter(std::nextafter(p.x, -INFINITY), -INFINITY);
        for (int k = 0; k < 5; ++k, y = std::nextafter(y, INFINITY))
          g.xs.push_back(static_cast<double>(y));
      }
    r.push_back(std::move(g));
  }
  return r;
}

struct Max {
  double ulp = 0, x = 0;
};

// Runs every region for one format against the library's claim for it (claims.hpp: the bound and
// the sign of zero); prints the max ulp per function.
void run(Format fmt) {
  const Claim c = *claim(Path::accurate, fmt);
  const char* fname = fmt == Format::binary32 ? "binary32" : "binary64";
  Max worst[4];
  long n = 0;
  for (const Region& reg : regions(fmt)) {
    for (int fi = 0; fi < 4; ++fi) {
      const Fn& f = kFns[fi];
      for (double x : reg.xs) {
        if (!std::isfinite(x)) continue;
        const double got = fmt == Format::binary32 ? static_cast<double>(eval(f, static_cast<float>(x)))
                                                   : eval(f, x);
        const ref::Enclosure y = ref::enclose(f.form, f.q, x);
        const Error e = measure(got, y, fmt);
        ++n;
        EXPECT_TRUE(meets(c, e))
            << f.name << " " << fname << " [" << reg.name << "] input " << hex(x) << " expected "
            << hex(ref::correctly_rounded(f.form, f.q, x, fmt)) << " got " << hex(got) << " ("
            << e.ulp << " ulp" << (e.zero_sign_mismatch ? ", zero sign" : "") << "; claim: " << c.text
            << ")";
        if (e.ulp > worst[fi].ulp) worst[fi] = {e.ulp, x};
      }
    }
  }
  for (int fi = 0; fi < 4; ++fi)
    std::printf("[measured] accurate %-16s %s: max %.4f ulp at x = %s (%ld evaluations all functions)\n",
                kFns[fi].name, fname, worst[fi].ulp, hex(worst[fi].x).c_str(), n);
}

TEST(LibraryAccuracy, Binary64IsFaithfulInEveryRegion) { run(Format::binary64); }
TEST(LibraryAccuracy, Binary32IsCorrectlyRoundedInEveryRegion) { run(Format::binary32); }

// Specials: NaN -> NaN; value(+inf) = +inf, value(-inf) = -0, derivative(+inf) = 1,
// derivative(-inf) = -0, value(-0) = -0, value(+0) = +0, derivative(+-0) = 1/2.
TEST(LibraryAccuracy, SpecialValues) {
  const double inf = INFINITY;
  for (Form f : {Form::tanh, Form::erf}) {
    for (double nan : {NAN, -NAN}) {
      EXPECT_TRUE(std::isnan(scalar(f, nan)));
      EXPECT_TRUE(std::isnan(scalar_deriv(f, nan)));
      EXPECT_TRUE(std::isnan(scalar(f, static_cast<float>(nan))));
      EXPECT_TRUE(std::isnan(scalar_deriv(f, static_cast<float>(nan))));
    }
    EXPECT_TRUE(same_bits(scalar(f, inf), inf));
    EXPECT_TRUE(same_bits(scalar(f, -inf), -0.0)) << hex(scalar(f, -inf));
    EXPECT_TRUE(same_bits(scalar_deriv(f, inf), 1.0));
    EXPECT_TRUE(same_bits(scalar_deriv(f, -inf), -0.0)) << hex(scalar_deriv(f, -inf));
    EXPECT_TRUE(same_bits(scalar(f, -0.0), -0.0));
    EXPECT_TRUE(same_bits(scalar(f, 0.0), 0.0));
    EXPECT_TRUE(same_bits(scalar_deriv(f, -0.0), 0.5));
    EXPECT_TRUE(same_bits(scalar(f, static_cast<float>(inf)), static_cast<float>(inf)));
    EXPECT_TRUE(same_bits(scalar(f, static_cast<float>(-inf)), -0.0f));
    EXPECT_TRUE(same_bits(scalar_deriv(f, static_cast<float>(inf)), 1.0f));
    EXPECT_TRUE(same_bits(scalar_deriv(f, static_cast<float>(-inf)), -0.0f));
    EXPECT_TRUE(same_bits(scalar(f, -0.0f), -0.0f));
    EXPECT_TRUE(same_bits(scalar_deriv(f, -0.0f), 0.5f));
  }
}

// No NaN or overflow from x^3 or exp for any finite input: every binade's extreme significands,
// both signs, give a finite result equal (as encoding) to the reference's correct rounding in the
// tails (x, 1 or -0), for both formats.
TEST(LibraryAccuracy, NoNaNOrOverflowAtHugeInputs) {
  for (const Fn& f : kFns) {
    for (int e = 100; e <= 1023; ++e) {
      for (double s : {-1.0, 1.0}) {
        const double x = s * std::ldexp(2.0 - 0x1p-52, e);
        const double got = eval(f, x);
        ASSERT_TRUE(std::isfinite(got)) << f.name << " input " << hex(x) << " got " << hex(got);
        EXPECT_TRUE(same_bits(got, ref::correctly_rounded(f.form, f.q, x, Format::binary64)))
            << f.name << " input " << hex(x) << " got " << hex(got);
      }
    }
    const float fmax = FLT_MAX;
    for (float x : {fmax, -fmax, 1e20f, -1e20f, 5e12f, -5e12f}) {
      const float got = eval(f, x);
      ASSERT_TRUE(std::isfinite(got)) << f.name << " input " << hex(x);
      EXPECT_TRUE(same_bits(static_cast<double>(got),
                            ref::correctly_rounded(f.form, f.q, x, Format::binary32)))
          << f.name << " input " << hex(x) << " got " << hex(got);
    }
  }
}

}  // namespace
}  // namespace gelucheck::testing
