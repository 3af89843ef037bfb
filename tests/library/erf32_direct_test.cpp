// The binary32 erf form's direct pass (src/gelu_simd.cpp, erf32_direct): an evaluation in double
// lanes with no error bound per lane, whose unmarked lanes are claimed correctly rounded. The proof
// is by exhaustion, against the MPFR-certified reference (ref::round_batch, which shares no code
// with src/):
//  - default tier: every entry of its tables (gelucheck/erf32_tables.hpp) recomputed with MPFR
//    (centres, the derivative's zero, the exp table's bits, each interval's polynomial against the
//    function it approximates, within the error the generator measured); and, on every
//    instruction set this CPU supports, about 10^6 inputs (dense around every place where it could go
//    wrong: the derivative's zero, the interval ends, the region's ends, the binades of the results
//    near 1/2 and 1, plus random ones);
//  - long tier (test_library_erf32_exhaustive, LABELS long): all 2^32 bit patterns, value and
//    derivative, every instruction set this CPU supports (with FMA: AVX3, AVX2; without: SSE4,
//    SSSE3, the emulated SCALAR). GELUCHECK_FLOAT_BITS=lo:hi (hex, hi exclusive) restricts it to a
//    range of bit patterns.
// At each input: every unmarked lane's RN32(y) equals the reference's correct rounding, and so do
// the accurate path's results at every input (detail::accurate_block, what map runs, and for the
// derivative detail::accurate_backward_block with grad_output 1, what backward runs: the pass with
// erf_f32 and the scalar path behind it); the
// largest |y - f| of an unmarked lane in units of the window (2^20 units in the last place of y)
// is reported, and must be below 1: that is what makes y and f round alike.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <random>
#include <string>
#include <vector>

#include "gelucheck/erf32_tables.hpp"
#include "gelucheck/facts.hpp"
#include "gelucheck/fast_reference.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/textbook.hpp"
#include "support.hpp"

namespace gelucheck::testing {
namespace {

namespace e = detail::erf32;

const double kWindowUlps = std::ldexp(1.0, detail::kErf32WindowLog2);  // in units in the last place of y

// ---- the tables against MPFR ---------------------------------------------------------------------
// The functions the tables approximate, from ref::textbook (the MPFR evaluator of the textbook
// formulas, which shares nothing with src/; relative error below 2^-248): Q(v) = Phi(-v) = f(-v)/(-v) (1/2 at 0)
// and D(v) = f'(-v).
constexpr mpfr_prec_t kBits = 300;
void q_of(mpfr_ptr out, mpfr_srcptr v) {
  if (mpfr_zero_p(v)) {
    mpfr_set_d(out, 0.5, MPFR_RNDN);
    return;
  }
  Mpfr x(kBits);
  mpfr_neg(x, v, MPFR_RNDN);
  ref::textbook(out, Form::erf, Quantity::value, x);
  mpfr_div(out, out, x, MPFR_RNDN);
}
void d_of(mpfr_ptr out, mpfr_srcptr v) {
  Mpfr x(kBits);
  mpfr_neg(x, v, MPFR_RNDN);
  ref::textbook(out, Form::erf, Quantity::derivative, x);
}
// v0, D's zero, by the secant method from the tables' RN(v0) and a neighbour.
void v0_of(mpfr_ptr v0) {
  Mpfr a(kBits, e::kV0Hi), b(kBits, e::kV0Hi + 0x1p-40), da(kBits), db(kBits), s(kBits);
  d_of(da, a);
  for (int i = 0; i < 12 && !mpfr_equal_p(a, b); ++i) {
    d_of(db, b);
    mpfr_sub(s, b, a, MPFR_RNDN);
    mpfr_mul(s, s, db, MPFR_RNDN);
    mpfr_sub(da, db, da, MPFR_RNDN);
    if (mpfr_zero_p(da)) break;
    mpfr_div(s, s, da, MPFR_RNDN);
    mpfr_set(a, b, MPFR_RNDN);
    mpfr_set(da, db, MPFR_RNDN);
    mpfr_sub(b, b, s, MPFR_RNDN);
  }
  mpfr_set(v0, b, MPFR_RNDN);
}

// |sum_i c[i][k] t^i - g| for a double t, the polynomial evaluated exactly (at kBits).
double poly_error(const double (&c)[8][16], int k, double t, mpfr_srcptr g) {
  Mpfr p(kBits), tt(kBits, t);
  mpfr_set_d(p, c[7][k], MPFR_RNDN);
  for (int i = 6; i >= 0; --i) {
    mpfr_mul(p, p, tt, MPFR_RNDN);
    mpfr_add_d(p, p, c[i][k], MPFR_RNDN);
  }
  mpfr_sub(p, p, g, MPFR_RNDN);
  return std::fabs(mpfr_get_d(p, MPFR_RNDU));
}

TEST(LibraryErf32Direct, TablesMatchTheReference) {
  EXPECT_EQ(e::kSigma, 19.0 / 16);
  // The derivative's zero: the tables' against the facts' (x0 = -v0) and MPFR's.
  EXPECT_EQ(e::kV0Hi, -facts::derivative_zero(Form::erf));
  Mpfr v0(kBits);
  v0_of(v0);
  EXPECT_EQ(e::kV0Hi, mpfr_get_d(v0, MPFR_RNDN));
  double worst_a = 0, worst_b = 0;
  for (int k = 0; k < 16; ++k) {
    const double c = static_cast<double>(k * 16) / 19.0;  // RN(k 16/19): exact numerator, one division
    EXPECT_EQ(e::kValueC[k], c) << "k = " << k;
    EXPECT_EQ(e::kDerivC[k], k == 1 ? e::kV0Hi : c) << "k = " << k;
    Mpfr z(kBits);
    mpfr_sub_d(z, v0, e::kDerivC[k], MPFR_RNDN);
    EXPECT_EQ(e::kDerivZ[k], mpfr_get_d(z, MPFR_RNDN)) << "k = " << k;
    // The polynomials at 129 points of the interval [(k - 1/2) 16/19, (k + 1/2) 16/19] (from 0 for
    // k = 0), ends included.
    const double lo = std::max(0.0, (k - 0.5) * 16 / 19), hi = (k + 0.5) * 16 / 19;
    double ea = 0, eb = 0;
    for (int i = 0; i <= 128; ++i) {
      const double v = lo + (hi - lo) * i / 128;
      Mpfr mv(kBits, v), a(kBits), b(kBits), diff(kBits);
      q_of(a, mv);
      mpfr_log(a, a, MPFR_RNDN);  // A(v) = log Q(v)
      ea = std::max(ea, poly_error(e::kValueP, k, v - e::kValueC[k], a));
      d_of(b, mv);
      mpfr_sub(diff, v0, mv, MPFR_RNDN);
      mpfr_div(b, b, diff, MPFR_RNDN);
      mpfr_log(b, b, MPFR_RNDN);  // B(v) = log(D(v)/(v0 - v))
      eb = std::max(eb, poly_error(e::kDerivP, k, v - e::kDerivC[k], b));
    }
    std::printf("[measured] erf32 direct interval %2d: log Q error 2^%.1f, log(D/(v0 - v)) error 2^%.1f\n", k,
                std::log2(ea), std::log2(eb));
    worst_a = std::max(worst_a, ea), worst_b = std::max(worst_b, eb);
  }
  // The generator's figures (erf32_tables.hpp's header: 2^-34.6 and 2^-35.5 at most, on 1,025
  // points an interval), rounded up.
  EXPECT_LE(worst_a, std::exp2(-34.5));
  EXPECT_LE(worst_b, std::exp2(-35.4));
  // exp: 2^(j/16), and the polynomial's relative error on |r| <= ln2/32.
  for (int j = 0; j < 16; ++j) {
    Mpfr t(kBits);
    mpfr_set_ui(t, static_cast<unsigned>(j), MPFR_RNDN);
    mpfr_div_ui(t, t, 16, MPFR_RNDN);
    mpfr_exp2(t, t, MPFR_RNDN);
    const auto bits = std::bit_cast<std::uint64_t>(mpfr_get_d(t, MPFR_RNDN)) - (std::uint64_t{static_cast<unsigned>(j)} << 48);
    EXPECT_EQ(e::kExpBits[j], bits) << "j = " << j;
  }
  double ee = 0;
  for (int i = 0; i <= 512; ++i) {
    const double r = (i - 256) / 256.0 * (0x1.62e42fefa39efp-1 / 32) * 1.0001;
    Mpfr p(kBits), ex(kBits, r), rr(kBits, r);
    mpfr_set_d(p, e::kExpP[4], MPFR_RNDN);
    for (int m = 3; m >= 0; --m) {
      mpfr_mul(p, p, rr, MPFR_RNDN);
      mpfr_add_d(p, p, e::kExpP[m], MPFR_RNDN);
    }
    mpfr_exp(ex, ex, MPFR_RNDN);
    mpfr_div(p, p, ex, MPFR_RNDN);
    mpfr_sub_ui(p, p, 1, MPFR_RNDN);
    ee = std::max(ee, std::fabs(mpfr_get_d(p, MPFR_RNDU)));
  }
  std::printf("[measured] erf32 direct exp polynomial: relative error 2^%.1f\n", std::log2(ee));
  EXPECT_LE(ee, std::exp2(-38.4));
}

// ---- the pass against the reference ---------------------------------------------------------------
struct Tally {
  std::uint64_t inputs = 0, marked = 0, marked_inside = 0, wrong = 0, wrong_map = 0;
  double worst = 0;  // largest |y - f| / window over unmarked lanes
  float worst_at = 0;
};

// Checks the inputs xs (binary32 values, NaN excluded) for one function on the current target.
void check(Quantity q, const std::vector<float>& xs, const std::vector<ref::Rounded>& want, Tally& t) {
  const std::size_t n = xs.size();
  std::vector<double> y(n);
  std::vector<std::uint8_t> redo(n);
  std::vector<float> mapped(n), back(n);
  detail::simd_erf32_direct(q, xs.data(), y.data(), redo.data(), n);
  detail::accurate_block(Form::erf, q, xs.data(), mapped.data(), n);
  if (q == Quantity::derivative) {  // backward's own loop (the products fused), with grad_output 1
    const std::vector<float> ones(n, 1.0f);
    detail::accurate_backward_block(Form::erf, xs.data(), ones.data(), back.data(), n);
  }
  const char* what = q == Quantity::value ? "value" : "derivative";
  for (std::size_t i = 0; i < n; ++i) {
    ++t.inputs;
    const auto rn = static_cast<float>(want[i].rn);
    if (!same_bits(mapped[i], rn) && ++t.wrong_map <= 10)
      std::printf("map wrong: erf %s at %s: %s, reference %s\n", what, hex(xs[i]).c_str(), hex(mapped[i]).c_str(),
                  hex(rn).c_str());
    if (q == Quantity::derivative && !same_bits(back[i], rn) && ++t.wrong_map <= 10)
      std::printf("backward wrong: erf derivative at %s: %s, reference %s\n", hex(xs[i]).c_str(),
                  hex(back[i]).c_str(), hex(rn).c_str());
    if (redo[i]) {
      ++t.marked;
      // Inside the region (gelu_simd.cpp: |x| <= 13, and for the value |x| >= 2^-125 or 0): marked by
      // the window.
      const float a = std::fabs(xs[i]);
      if (a <= 13.0f && (q == Quantity::derivative || a >= 0x1p-125f || a == 0)) ++t.marked_inside;
      continue;
    }
    if (!same_bits(static_cast<float>(y[i]), rn) && ++t.wrong <= 10)
      std::printf("unmarked lane wrong: erf %s at %s: y %s, reference %s\n", what, hex(xs[i]).c_str(),
                  hex(y[i]).c_str(), hex(rn).c_str());
    // |y - f| in units of the window, for the evaluated lanes (|x| <= 13; beyond are the closed
    // forms, exact binary32 values): f = hi + lo (scale 0: |f| >= 2^-126 there).
    if (!(std::fabs(xs[i]) <= 13.0f)) continue;
    const double ulp = std::ldexp(1.0, std::ilogb(y[i]) - 52);
    const double r = std::fabs((y[i] - want[i].hi) - want[i].lo) / (kWindowUlps * ulp);
    if (!(r <= t.worst)) t.worst = r, t.worst_at = xs[i];
  }
}

void report(const char* target, Quantity q, const Tally& t) {
  std::printf("[measured] erf32 direct (%s) erf %-10s %llu inputs, %llu marked (%llu inside the region), %llu "
              "unmarked lanes wrong, %llu map/backward results wrong; largest |y - f| of an unmarked lane: %.3f "
              "windows (at %s)\n",
              target, q == Quantity::value ? "value" : "derivative", static_cast<unsigned long long>(t.inputs),
              static_cast<unsigned long long>(t.marked), static_cast<unsigned long long>(t.marked_inside),
              static_cast<unsigned long long>(t.wrong), static_cast<unsigned long long>(t.wrong_map), t.worst,
              hex(t.worst_at).c_str());
  EXPECT_EQ(t.wrong, 0u);
  EXPECT_EQ(t.wrong_map, 0u);
  EXPECT_LT(t.worst, 1.0);
}

// The sample: every float within 2^12 bit patterns of the derivative's zero, of the ends of every
// interval (+-(k + 1/2) 16/19), of +-13, +-14.75 and +-2^-125 (the ends of the region and of the
// closed forms), of +-0.5625, +-0.75, +-1 and +-2 (binade ends of x), of +-0 (the smallest
// subnormals), and 2^19 random bit patterns with |x| <= 14; then the hard points and the specials.
std::vector<float> sample() {
  std::vector<float> xs;
  auto around = [&](float c, int r) {
    const auto b = std::bit_cast<std::uint32_t>(c);
    for (int d = -r; d <= r; ++d) xs.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(static_cast<std::int64_t>(b) + d)));
  };
  for (float s : {1.0f, -1.0f}) {
    around(s * static_cast<float>(-facts::derivative_zero(Form::erf)), 1 << 12);
    for (int k = 0; k < 16; ++k) around(s * static_cast<float>((k + 0.5) * 16 / 19), 1 << 12);
    for (float c : {13.0f, 14.75f, 0x1p-125f, 0x1.8p-1f, 0x1.2p-1f, 1.0f, 2.0f}) around(s * c, 1 << 12);
  }
  around(0x1p-149f, 1 << 12);  // +0 and the positive subnormals
  around(-0x1p-149f, 1 << 12);
  std::mt19937 rng(20261207);  // fixed seed
  while (xs.size() < (std::size_t{1} << 19) * 2) {
    const float x = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
    if (std::fabs(x) <= 14.0f) xs.push_back(x);
  }
  for (double h : hard_points()) xs.push_back(static_cast<float>(h));
  for (float s : {0.0f, -0.0f, INFINITY, -INFINITY, 0x1p-149f, -0x1p-149f, 3e38f, -3e38f}) xs.push_back(s);
  xs.erase(std::remove_if(xs.begin(), xs.end(), [](float x) { return std::isnan(x); }), xs.end());
  return xs;
}

std::vector<ref::Rounded> reference(Quantity q, const std::vector<float>& xs) {
  std::vector<double> xd(xs.begin(), xs.end());
  std::vector<ref::Rounded> r(xs.size());
  ref::round_batch(Form::erf, q, Format::binary32, xd, r);
  return r;
}

TEST(LibraryErf32Direct, CorrectlyRoundedOnASampleOnEveryTarget) {
  const std::vector<float> xs = sample();
  for (Quantity q : {Quantity::value, Quantity::derivative}) {
    const std::vector<ref::Rounded> want = reference(q, xs);
    on_every_target([&] {
      Tally t;
      check(q, xs, want, t);
      report(detail::simd_target(), q, t);
    });
  }
}

// How many lanes the pass marks on the benchmark's distribution (bench_peers: 2^22 x uniform in
// [-8, 8], drawn in binary64 with seed 42 and rounded): about 2^21 / 2^29 of them (a window of
// 2^21 units among the 2^29 between binary32 values), each costing erf_f32's evaluation.
TEST(LibraryErf32Direct, MarksFewLanes) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> uni(-8, 8);
  std::vector<float> x(std::size_t{1} << 22);
  for (float& v : x) v = static_cast<float>(uni(rng));
  std::vector<double> y(x.size());
  std::vector<std::uint8_t> redo(x.size());
  for (Quantity q : {Quantity::value, Quantity::derivative}) {
    detail::simd_erf32_direct(q, x.data(), y.data(), redo.data(), x.size());
    const auto marked = static_cast<std::size_t>(std::count(redo.begin(), redo.end(), 1));
    std::printf("[measured] erf32 direct (%s) erf %s: %zu of %zu lanes marked on [-8, 8]\n", detail::simd_target(),
                q == Quantity::value ? "value" : "derivative", marked, x.size());
    EXPECT_LT(marked, x.size() / 200);
  }
}

#ifdef GELUCHECK_EXHAUSTIVE
// One batch of the sweep: the non-NaN floats of 2^16 consecutive bit patterns (NaN skipped:
// map/backward's NaN results are tested bit for bit against the scalar function by simd_test.cpp)
// and the reference at each.
struct Batch {
  std::vector<float> xs;
  std::vector<ref::Rounded> value, derivative;
};
Batch make_batch(std::uint64_t from, std::uint64_t to) {
  Batch b;
  for (std::uint64_t p = from; p < to; ++p) {
    const float x = std::bit_cast<float>(static_cast<std::uint32_t>(p));
    if (!std::isnan(x)) b.xs.push_back(x);
  }
  b.value = reference(Quantity::value, b.xs);
  b.derivative = reference(Quantity::derivative, b.xs);
  return b;
}

// All 2^32 bit patterns in batches of 2^16: the reference of the next batch is computed on a second
// thread while this one checks the current batch on each instruction set in turn (the dispatch is
// process-wide, so the checks stay on one thread).
TEST(LibraryErf32Direct, Exhaustive) {
  std::uint64_t lo = 0, hi = 1ull << 32;
  if (const char* r = std::getenv("GELUCHECK_FLOAT_BITS")) {
    ASSERT_EQ(std::sscanf(r, "%lx:%lx", &lo, &hi), 2) << "GELUCHECK_FLOAT_BITS=lo:hi (hex)";
    std::printf("bit patterns [0x%lx, 0x%lx)\n", lo, hi);
  }
  const std::vector<std::int64_t> targets = detail::simd_targets();
  std::vector<std::string> names;
  for (std::int64_t tg : targets) {
    detail::simd_force_target(tg);
    names.emplace_back(detail::simd_target());
  }
  std::vector<Tally> tv(targets.size()), td(targets.size());
  const std::uint64_t step = 1u << 16;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  std::future<Batch> next = std::async(std::launch::async, make_batch, lo, std::min(hi, lo + step));
  for (std::uint64_t b = lo; b < hi; b += step) {
    const Batch cur = next.get();
    if (b + step < hi) next = std::async(std::launch::async, make_batch, b + step, std::min(hi, b + 2 * step));
    for (std::size_t i = 0; i < targets.size(); ++i) {
      detail::simd_force_target(targets[i]);
      check(Quantity::value, cur.xs, cur.value, tv[i]);
      check(Quantity::derivative, cur.xs, cur.derivative, td[i]);
    }
  }
  detail::simd_force_target(0);
  std::printf("[measured] erf32 direct exhaustive: %.0f s wall (two threads)\n",
              std::chrono::duration<double>(Clock::now() - start).count());
  for (std::size_t i = 0; i < targets.size(); ++i) {
    report(names[i].c_str(), Quantity::value, tv[i]);
    report(names[i].c_str(), Quantity::derivative, td[i]);
  }
}
#endif

}  // namespace
}  // namespace gelucheck::testing
