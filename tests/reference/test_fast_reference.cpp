// ref::round_batch (the fast certified reference) against the MPFR path, enclose(): the three
// roundings and floor(log2|f|) bit for bit, and measure(r, Rounded) against measure(r, Enclosure)
// for results around each rounding.
#include <gtest/gtest.h>

#include <cmath>
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

namespace gelucheck {
namespace {

constexpr Format k16[] = {Format::binary32, Format::binary16, Format::bfloat16};

// Every disagreement of round_batch's result with enclose() at x, as a message ("" when none).
std::string compare(Form form, Quantity q, Format fmt, double x, const ref::Rounded& r) {
  const ref::Enclosure e = ref::enclose(form, q, x, 128);
  std::string msg;
  auto check = [&](const char* what, double got, double want) {
    if (!same_bits(got, want))
      msg += std::string(" ") + what + " " + hexfloat(got) + " (MPFR " + hexfloat(want) + ")";
  };
  check("rn", r.rn, e.rounded(fmt));
  check("rd", r.rd, e.rounded_down(fmt));
  check("ru", r.ru, e.rounded_up(fmt));
  const long fl = e.floor_log2();
  if (std::isfinite(r.rn) && !(fl < -1200 && r.floor_log2 < -1200) && fl != r.floor_log2)
    msg += " floor_log2 " + std::to_string(r.floor_log2) + " (MPFR " + std::to_string(fl) + ")";
  if (!msg.empty())
    msg = std::string(name(form)) + " " + std::string(name(q)) + " " + std::string(name(fmt)) +
          " x = " + hexfloat(x) + ":" + msg;
  return msg;
}

// |a - b| <= 1e-9 relative, or both beyond double range the same way, or both tiny in ulps.
bool close(double a, double b) {
  if (a == b) return true;
  if (std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b)) return false;
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)) + 0x1p-1060;
}

TEST(FastReference, MeasureOverloadAgreesWithTheEnclosure) {
  for (Form form : {Form::tanh, Form::erf})
    for (Quantity q : {Quantity::value, Quantity::derivative})
      for (Format fmt : k16)
        for (double x : std::initializer_list<double>{-20.0, -9.5, -1.25, -0.75, -0x1p-30, 0.0, -0.0, 0x1p-20, 0.5, 3.0, 40.0,
                         double(INFINITY), -double(INFINITY)}) {
          const double xf = round_to_format(x, fmt);
          const ref::Enclosure e = ref::enclose(form, q, xf, 128);
          const ref::Rounded y = ref::round_mpfr(form, q, fmt, xf);
          for (double r0 : {y.rn, y.rd, y.ru})
            for (double toward : std::initializer_list<double>{-INFINITY, 0.0, INFINITY}) {
              const double r = toward == 0 ? r0 : next_in(fmt, r0, toward);
              const Error a = measure(r, e, fmt), b = measure(r, y, fmt);
              const std::string where = std::string(name(form)) + " " + std::string(name(q)) +
                                        " " + std::string(name(fmt)) + " x = " + hexfloat(xf) +
                                        " r = " + hexfloat(r);
              EXPECT_EQ(a.correctly_rounded(), b.correctly_rounded()) << where;
              EXPECT_EQ(a.faithful(), b.faithful()) << where;
              EXPECT_EQ(a.nan_mismatch, b.nan_mismatch) << where;
              EXPECT_EQ(a.zero_sign_mismatch, b.zero_sign_mismatch) << where;
              EXPECT_TRUE(close(a.ulp, b.ulp)) << where << " ulp " << a.ulp << " " << b.ulp;
              EXPECT_TRUE(close(a.abs, b.abs)) << where << " abs " << a.abs << " " << b.abs;
              EXPECT_TRUE(close(a.rel, b.rel)) << where << " rel " << a.rel << " " << b.rel;
            }
        }
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

// A sample of every binade of binary32 (both signs, normal and subnormal, the largest finite
// numbers), every value of the 16-bit formats, the hard points and the region edges.
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
        const std::uint32_t m = i == 0 ? 0 : i == 1 ? 0x7fffff : static_cast<std::uint32_t>(rng() & 0x7fffff);
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
  // -2048, and a few neighbours each.
  for (double edge : {0x1p-24, -0x1p-24, 8.0, -8.0, 9.0, 10.0, 11.0, -256.0, -2048.0})
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
