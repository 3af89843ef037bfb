// ref::round_batch (the fast certified reference) against the MPFR path, enclose(): the three
// roundings and floor(log2|f|) bit for bit, and measure(r, Rounded) against measure(r, Enclosure)
// for results around each rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "gelucheck/facts.hpp"
#include "gelucheck/fast_reference.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/reference.hpp"
#include "fast_compare.hpp"

namespace gelucheck {
namespace {

constexpr Format k16[] = {Format::binary32, Format::binary16, Format::bfloat16};

// |a - b| <= 1e-9 relative, or within `slack` (what y's 2^-70 leaves: 2^-60 of an ulp, of |y|,
// or relative), both infinite the same way.
bool close(double a, double b, double slack) {
  if (a == b) return true;
  if (std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b)) return false;
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)) + slack;
}

// measure(r, Rounded) against measure(r, Enclosure) for r around each rounding of f(x).
void expect_same_measures(Form form, Quantity q, Format fmt, double x, const ref::Rounded& y) {
  const ref::Enclosure e = ref::enclose(form, q, x, 128);
  const double ay = std::fabs(e.approx());
  for (double r0 : {y.rn, y.rd, y.ru})
    for (double toward : std::initializer_list<double>{-INFINITY, 0.0, INFINITY}) {
      const double r = toward == 0 ? r0 : next_in(fmt, r0, toward);
      const Error a = measure(r, e, fmt), b = measure(r, y, fmt);
      const std::string where = std::string(name(form)) + " " + std::string(name(q)) + " " +
                                std::string(name(fmt)) + " x = " + hexfloat(x) +
                                " r = " + hexfloat(r);
      EXPECT_EQ(a.correctly_rounded(), b.correctly_rounded()) << where;
      EXPECT_EQ(a.faithful(), b.faithful()) << where;
      EXPECT_EQ(a.nan_mismatch, b.nan_mismatch) << where;
      EXPECT_EQ(a.zero_sign_mismatch, b.zero_sign_mismatch) << where;
      EXPECT_TRUE(close(a.ulp, b.ulp, 0x1p-60)) << where << " ulp " << a.ulp << " " << b.ulp;
      EXPECT_TRUE(close(a.abs, b.abs, 0x1p-60 * ay + 0x1p-1070))
          << where << " abs " << a.abs << " " << b.abs;
      EXPECT_TRUE(close(a.rel, b.rel, 0x1p-60)) << where << " rel " << a.rel << " " << b.rel;
    }
}

TEST(FastReference, MeasureOverloadAgreesWithTheEnclosure) {
  for (Form form : {Form::tanh, Form::erf})
    for (Quantity q : {Quantity::value, Quantity::derivative})
      for (Format fmt : k16)
        for (double x : std::initializer_list<double>{
                 -3000.0, -300.0, -40.0, -20.0, -9.5, -1.25, -0.75, -0x1p-30, 0.0, -0.0, 0x1p-20,
                 0x1p-126, 0.5, 3.0, 8.5, 9.5, 10.5, 40.0, 1e30, double(INFINITY),
                 -double(INFINITY)}) {
          const double xf = round_to_format(x, fmt);
          expect_same_measures(form, q, fmt, xf, ref::round_mpfr(form, q, fmt, xf));
          std::vector<double> xs{xf};
          std::vector<ref::Rounded> out(1);
          ref::round_batch(form, q, fmt, xs, out);
          expect_same_measures(form, q, fmt, xf, out[0]);
        }
}

// The binary32 value k values after (k < 0: before) a finite r, ±inf past the extremes.
double steps32(double r, std::int64_t k) {
  const auto b = std::bit_cast<std::uint32_t>(static_cast<float>(r));
  std::int64_t i = (b & 0x80000000u) ? -static_cast<std::int64_t>(b & 0x7fffffffu) : b;
  i = std::clamp<std::int64_t>(i + k, -0x7f800000, 0x7f800000);
  const std::uint32_t m = static_cast<std::uint32_t>(i < 0 ? -i : i) | (i < 0 ? 0x80000000u : 0u);
  return static_cast<double>(std::bit_cast<float>(m));
}

// ceil(log2 ulp), the histogram's bin (fold.cpp's histogram_add, without its clamp): 0 for 0,
// 9999 for an infinite or NaN error.
int bin_of(double ulp) {
  if (ulp == 0) return 0;
  if (!std::isfinite(ulp)) return 9999;
  int e = 0;
  const double m = std::frexp(ulp, &e);  // ulp = m·2^e, m in [0.5, 1)
  return m == 0.5 ? e - 1 : e;
}

// The exhaustive sweep classifies and sizes every result, wrong ones included, from the fast
// reference's Rounded (measure(r, Rounded), no MPFR): the same decisions as measure(r,
// Enclosure) exactly, and the ulp figure within the bound derived in measure.cpp, |Δ| <= 2^-46 +
// 2^-52·ulp (the MPFR figure, from a 2^-128 enclosure, is within 2^-100 of exact here), so the
// same histogram bin. Wrong results of every kind: a few ulps to 2^20 ulps off, at and next to
// the half-ulp and one-ulp boundaries, the other sign, ±0 of either sign for a nonzero y, a
// number for ±0, subnormals, the extremes, ±inf and NaN; at inputs whose f(x) is normal,
// subnormal, below binary32's range (scale != 0), ±0, ±inf, and near a rounding midpoint
// (x = ±2^-149, f(x) ~ x/2).
TEST(FastReference, WrongResultsMeasureAsTheEnclosureDoes) {
  const Format fmt = Format::binary32;
  const double least = 0x1p-149, big = 0x1.fffffep+127;
  std::size_t compared = 0, wrong = 0;
  for (Form form : {Form::tanh, Form::erf})
    for (Quantity q : {Quantity::value, Quantity::derivative})
      for (double x0 : std::initializer_list<double>{
               0x1p-149, -0x1p-149, 0x1.8p-148, 0x1p-126, -0x1.8p-126, 1e-20, -1e-7, -0.75,
               -0.7517916, -1.25, 0.5, 1.0, 3.0, -5.0, -9.5, -13.0, -14.5, -15.0, -20.0, -100.0,
               -3000.0, 30.0, 1e30, 0.0, -0.0, double(INFINITY), -double(INFINITY)}) {
        const double x = round_to_format(x0, fmt);
        std::vector<double> xs{x};
        std::vector<ref::Rounded> out(1);
        ref::round_batch(form, q, fmt, xs, out);
        const ref::Rounded& y = out[0];
        const ref::Enclosure e = ref::enclose(form, q, x, 128);
        std::vector<double> rs{0.0, -0.0, least, -least, 0x1p-126, -0x1p-126, big, -big,
                               INFINITY, -INFINITY, NAN, -y.rn};
        for (double r0 : {y.rn, y.rd, y.ru})
          for (std::int64_t k : {1, 2, 3, 4, 5, 8, 1000, 1 << 20}) {
            rs.push_back(steps32(r0, k));
            rs.push_back(steps32(r0, -k));
          }
        for (double r : rs) {
          if (!std::isnan(r) && round_to_format(r, fmt) != r) continue;
          const Error a = measure(r, e, fmt), b = measure(r, y, fmt);
          const std::string where = std::string(name(form)) + " " + std::string(name(q)) +
                                    " x = " + hexfloat(x) + " r = " + hexfloat(r) +
                                    " ulp " + hexfloat(a.ulp) + " (fast " + hexfloat(b.ulp) + ")";
          ++compared;
          wrong += !a.faithful() || a.zero_sign_mismatch || a.nan_mismatch;
          EXPECT_EQ(a.correctly_rounded(), b.correctly_rounded()) << where;
          EXPECT_EQ(a.faithful(), b.faithful()) << where;
          EXPECT_EQ(a.nan_mismatch, b.nan_mismatch) << where;
          EXPECT_EQ(a.zero_sign_mismatch, b.zero_sign_mismatch) << where;
          // Below 2^-40 ulp (a result y's 2^-70 cannot tell from exact, e.g. r = x = f(x) to
          // 2^-128 at x = 2^99) the fast figure may be 0 where MPFR's is 2^-128: the histogram's
          // zero against its lowest bin, for a right result; a wrong one is never there.
          if (a.ulp >= 0x1p-40) {
            EXPECT_EQ(bin_of(a.ulp), bin_of(b.ulp)) << where;
          }
          if (std::isfinite(a.ulp) || std::isfinite(b.ulp))
            EXPECT_LE(std::fabs(a.ulp - b.ulp), 0x1p-46 + 0x1p-52 * a.ulp) << where;
          else
            EXPECT_EQ(std::isinf(a.ulp), std::isinf(b.ulp)) << where;
        }
      }
  // Most of the sample is wrong (the point of it), and none of it was skipped wholesale.
  EXPECT_GT(compared, 4u * 27u * 30u);
  EXPECT_GT(wrong, compared / 2);
}

TEST(FastReference, AgreesWithMpfrOnASample) {
  std::mt19937_64 rng(7);
  for (Form form : {Form::tanh, Form::erf})
    for (Quantity q : {Quantity::value, Quantity::derivative})
      for (Format fmt : k16) {
        std::vector<double> xs;
        for (const auto& p : facts::hard_points) xs.push_back(round_to_format(p.x, fmt));
        std::uniform_real_distribution<double> u(-16, 16);
        for (int i = 0; i < 40; ++i) xs.push_back(round_to_format(u(rng), fmt));
        std::vector<ref::Rounded> out(xs.size());
        ref::FastStats stats;
        ref::round_batch(form, q, fmt, xs, out, &stats);
        EXPECT_EQ(stats.fast + stats.fallback, xs.size());
        for (std::size_t i = 0; i < xs.size(); ++i) {
          const std::string msg = compare(form, q, fmt, xs[i], out[i]);
          EXPECT_TRUE(msg.empty()) << msg;
        }
      }
}

// Every x of `xs` through round_batch, compared with enclose(); the messages of the disagreements
// (at most 20) and the counts. Two threads (the default tier's budget is seconds).
struct Sweep {
  std::vector<std::string> bad;
  std::uint64_t n = 0, fallback = 0;
};
Sweep sweep(Form form, Quantity q, Format fmt, const std::vector<double>& xs) {
  Sweep s;
  std::vector<ref::Rounded> out(xs.size());
  ref::FastStats stats;
  std::vector<std::string> msgs(xs.size());
  auto work = [&](std::size_t begin, std::size_t end, ref::FastStats* st) {
    std::span<const double> in(xs.data() + begin, end - begin);
    ref::round_batch(form, q, fmt, in, std::span<ref::Rounded>(out.data() + begin, end - begin),
                     st);
    for (std::size_t i = begin; i < end; ++i) msgs[i] = compare(form, q, fmt, xs[i], out[i]);
  };
  ref::FastStats st2;
  const std::size_t half = xs.size() / 2;
  std::thread t([&] { work(half, xs.size(), &st2); });
  work(0, half, &stats);
  t.join();
  s.n = xs.size();
  s.fallback = stats.fallback + st2.fallback;
  EXPECT_EQ(stats.fast + stats.fallback + st2.fast + st2.fallback, xs.size());
  for (const std::string& m : msgs)
    if (!m.empty() && s.bad.size() < 20) s.bad.push_back(m);
  return s;
}

// A sample of every binade of binary32 (both signs, normal and subnormal, the least subnormal,
// the largest finite numbers), every value of the 16-bit formats, the hard points and the region edges.
std::vector<double> inputs(Format fmt, int per_binade, std::uint64_t seed) {
  std::vector<double> xs;
  if (fmt != Format::binary32) {
    for (std::uint64_t b = 0; b < 65536; ++b) {
      const double x = from_bits(b, fmt);
      if (!std::isnan(x)) xs.push_back(x);
    }
    return xs;
  }
  std::mt19937_64 rng(seed);
  for (std::uint32_t e = 0; e < 255; ++e)  // biased exponent: 0 = subnormal
    for (int i = 0; i < per_binade; ++i)
      for (std::uint32_t sign : {0u, 1u}) {
        // The binade's ends, its second value (the least subnormal, for e = 0: f(x) there sits
        // just inside a rounding midpoint), then random.
        const std::uint32_t m = i == 0   ? 0
                                : i == 1 ? 0x7fffff
                                : i == 2 ? 1
                                         : static_cast<std::uint32_t>(rng() & 0x7fffff);
        const std::uint32_t b = sign << 31 | e << 23 | m;
        xs.push_back(from_bits(b, Format::binary32));
      }
  for (const auto& p : facts::hard_points32)
    for (int k = -4; k <= 4; ++k) {
      float y = p.x;
      for (int j = 0; j < std::abs(k); ++j) y = std::nextafter(y, k < 0 ? -INFINITY : INFINITY);
      xs.push_back(y);
    }
  // The edges of the fast path's regions (docs/reference.md): 2^-24, 8, 9, 10, 11, -8, -256,
  // -2048, binary32's closed-form decisions without a rounding test below 2^-26 (value) and
  // 2^-27 (derivative), and a few neighbours each.
  for (double edge : {0x1p-24, -0x1p-24, 0x1p-26, -0x1p-26, 0x1p-27, -0x1p-27, 8.0, -8.0, 9.0,
                      10.0, 11.0, -256.0, -2048.0})
    for (int k = -3; k <= 3; ++k) {
      float y = static_cast<float>(edge);
      for (int j = 0; j < std::abs(k); ++j) y = std::nextafter(y, k < 0 ? -INFINITY : INFINITY);
      xs.push_back(y);
    }
  return xs;
}

TEST(FastReference, AgreesWithMpfrOnEveryBinadeAndEvery16BitInput) {
  for (Format fmt : k16)
    for (Form form : {Form::tanh, Form::erf})
      for (Quantity q : {Quantity::value, Quantity::derivative}) {
        const Sweep s = sweep(form, q, fmt, inputs(fmt, 24, 11));
        for (const std::string& m : s.bad) ADD_FAILURE() << m;
        std::printf("%s %s %s: %llu inputs, %llu by the MPFR fallback\n", name(form).data(),
                    name(q).data(), name(fmt).data(), static_cast<unsigned long long>(s.n),
                    static_cast<unsigned long long>(s.fallback));
      }
}

// measure_batch (a vector of results at a time) gives measure()'s Error bit for bit: every
// field, for results at and around each rounding, zeros of both signs, the least subnormal, the
// largest finite values, ±inf and NaN, at inputs from every binade of binary32 and every third
// input of the 16-bit formats (so vectors mix the cases measure_batch takes itself with those it
// leaves to measure(), and the last vector is partial).
TEST(FastReference, MeasureBatchIsMeasure) {
  std::size_t compared = 0;
  for (Format fmt : k16)
    for (Form form : {Form::tanh, Form::erf})
      for (Quantity q : {Quantity::value, Quantity::derivative}) {
        // Every binary32 binade; every third input of the 16-bit formats (all their cases, at a
        // third of the time).
        std::vector<double> xs = inputs(fmt, 4, 5);
        if (fmt != Format::binary32) {
          std::vector<double> third;
          for (std::size_t i = 0; i < xs.size(); i += 3) third.push_back(xs[i]);
          xs = third;
        }
        std::vector<ref::Rounded> ys(xs.size());
        ref::round_batch(form, q, fmt, xs, ys);
        std::vector<double> r, rn, rd, ru, hi, lo;
        std::vector<std::int64_t> scale, fl;
        std::vector<std::size_t> of;
        for (std::size_t i = 0; i < xs.size(); ++i) {
          const ref::Rounded& y = ys[i];
          const double big = from_bits(info(fmt).precision == 24 ? 0x7f7fffff : fmt == Format::binary16 ? 0x7bff : 0x7f7f, fmt);
          std::vector<double> rs{y.rn, y.rd, y.ru, 0.0, -0.0, -y.rn, big, -big, INFINITY, -INFINITY, NAN,
                                 next_in(fmt, 0.0, 1.0), next_in(fmt, 0.0, -1.0)};
          for (double d : {y.rn, y.rd, y.ru})
            for (double toward : {INFINITY, -INFINITY}) {
              const double a = next_in(fmt, d, toward);
              rs.push_back(a);
              rs.push_back(next_in(fmt, a, toward));
            }
          for (double v : rs) {
            r.push_back(v);
            rn.push_back(y.rn);
            rd.push_back(y.rd);
            ru.push_back(y.ru);
            hi.push_back(y.hi);
            lo.push_back(y.lo);
            scale.push_back(y.scale);
            fl.push_back(y.floor_log2);
            of.push_back(i);
          }
        }
        r.pop_back();  // an odd count: the last vector is partial
        const std::size_t n = r.size();
        std::vector<double> ulp(n), abs(n), rel(n);
        std::vector<unsigned char> mm(n);
        measure_batch(r.data(), {rn.data(), rd.data(), ru.data(), hi.data(), lo.data(), scale.data(), fl.data()},
                      n, fmt, {ulp.data(), abs.data(), rel.data(), mm.data()});
        for (std::size_t j = 0; j < n; ++j) {
          const Error e = measure(r[j], ys[of[j]], fmt);
          const std::string where = std::string(name(form)) + " " + std::string(name(q)) + " " +
                                    std::string(name(fmt)) + " x = " + hexfloat(xs[of[j]]) +
                                    " r = " + hexfloat(r[j]);
          ++compared;
          ASSERT_EQ(bits(e.ulp), bits(ulp[j])) << where << ": " << hexfloat(e.ulp) << " " << hexfloat(ulp[j]);
          ASSERT_EQ(bits(e.abs), bits(abs[j])) << where;
          ASSERT_EQ(bits(e.rel), bits(rel[j])) << where;
          ASSERT_EQ(e.nan_mismatch, (mm[j] & kNanMismatch) != 0) << where;
          ASSERT_EQ(e.zero_sign_mismatch, (mm[j] & kZeroSignMismatch) != 0) << where;
        }
      }
  EXPECT_GT(compared, 500000u);
}

// The same for the fast path's portable build (no FMA: Dekker's products; the lanes as pairs of
// SSE2 vectors), which round_batch runs only on CPUs without FMA: a smaller binary32 sample.
TEST(FastReference, PortableBuildAgreesWithMpfr) {
  ref::testing::ScopedPortableFastPath portable;
  for (Format fmt : k16)
    for (Form form : {Form::tanh, Form::erf})
      for (Quantity q : {Quantity::value, Quantity::derivative}) {
        const Sweep s = sweep(form, q, fmt, inputs(fmt, 8, 17));
        for (const std::string& m : s.bad) ADD_FAILURE() << m;
      }
}

// The comparison can fail: with every approximation moved by 2^-30 of itself and its bound left
// as it was (a deliberately wrong bound), results near rounding boundaries come out wrong and
// the comparison with MPFR says so.
TEST(FastReference, AWrongBoundIsCaught) {
  std::vector<double> xs;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-12, 12);
  for (int i = 0; i < 3000; ++i) xs.push_back(static_cast<float>(u(rng)));
  std::vector<ref::Rounded> out(xs.size());
  for (Form form : {Form::tanh, Form::erf}) {
    {
      ref::testing::ScopedFastPathPerturbation wrong(0x1p-30);
      ref::round_batch(form, Quantity::value, Format::binary32, xs, out);
    }
    int bad = 0;
    for (std::size_t i = 0; i < xs.size(); ++i)
      bad += !compare(form, Quantity::value, Format::binary32, xs[i], out[i]).empty();
    EXPECT_GT(bad, 10) << name(form) << ": a bound 2^40 too small went unnoticed";
    // and without the hook, the same inputs agree
    ref::round_batch(form, Quantity::value, Format::binary32, xs, out);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const std::string msg = compare(form, Quantity::value, Format::binary32, xs[i], out[i]);
      EXPECT_TRUE(msg.empty()) << msg;
    }
  }
}

// The numeric claims behind the closed forms (fast_path.cpp, docs/reference.md), checked at the
// region edges with MPFR: within 2^-70 of x (value) or 1 (derivative) from x = 10 / 11 (erf) and
// 9 (tanh) on; within 0.125x⁴ / 0.5|x|³ of x/2 + x²/√(2π) / 1/2 + 2x/√(2π) at |x| = 2^-24; below
// 2^-(2^20) at x = -2048 (erf) and -256 (tanh). Each bound shrinks monotonically beyond its edge
// (the proofs), so the edge is the case to check.
TEST(FastReference, ClosedFormEdgesHold) {
  const double inv_sqrt_2pi = 0.3989422804014327;
  for (Form form : {Form::tanh, Form::erf})
    for (Quantity q : {Quantity::value, Quantity::derivative}) {
      const double big = form == Form::erf ? (q == Quantity::value ? 10 : 11) : 9;
      const ref::Enclosure e = ref::enclose(form, q, big, 128);
      const double target = q == Quantity::value ? big : 1.0;
      const double dev = std::fabs(e.approx() - target) / target;
      EXPECT_LT(dev, 0x1p-70) << name(form) << " " << name(q) << " at " << big;
      for (double x : {0x1p-24, -0x1p-24}) {
        const ref::Rounded r = ref::round_mpfr(form, q, Format::binary32, x);
        // (hi - lead) is exact (Sterbenz), then the second term and lo
        const double lead = q == Quantity::value ? x / 2 : 0.5;
        const double second = q == Quantity::value ? x * x * inv_sqrt_2pi : 2 * x * inv_sqrt_2pi;
        const double tol = q == Quantity::value ? 0.125 * x * x * x * x + 0x1p-53 * x * x
                                                : 0.5 * std::fabs(x * x * x) + 0x1p-53 * std::fabs(x);
        EXPECT_LE(std::fabs(((r.hi - lead) - second) + r.lo), tol) << name(form) << " " << name(q);
      }
      const double very_negative = form == Form::erf ? -2048 : -256;
      // enclose()'s floor_log2 there is an upper bound of floor(log2|f|) (docs/reference.md §5)
      const ref::Enclosure tiny = ref::enclose(form, q, very_negative, 128);
      EXPECT_LT(tiny.floor_log2(), -(1L << 20)) << name(form) << " " << name(q);
    }
}

TEST(FastReference, RejectsInputsOutsideTheFormat) {
  std::vector<double> xs{0.1};
  std::vector<ref::Rounded> out(1);
  EXPECT_THROW(ref::round_batch(Form::erf, Quantity::value, Format::binary32, xs, out),
               std::invalid_argument);
  std::vector<ref::Rounded> wrong(2);
  xs[0] = 0.5;
  EXPECT_THROW(ref::round_batch(Form::erf, Quantity::value, Format::binary32, xs, wrong),
               std::invalid_argument);
}

}  // namespace
}  // namespace gelucheck
