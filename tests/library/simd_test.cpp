// The vector code of src/gelu_simd.cpp (detail::simd_fast, through map / backward):
//  - bit for bit equal to the scalar function (scalar / scalar_deriv) at every element, for many
//    inputs (any bit pattern, the benchmark range, the hard points, the thresholds of the fast
//    regions and their neighbours, specials ±0 ±inf NaN, subnormals), every length 0..67 (vector
//    tails), four alignments, reversed and strided views, in place;
//  - its accepted lanes are right against MPFR (binary32: ref::correctly_rounded; binary64:
//    faithful against ref::enclose) — the scalar comparison alone could not catch a shared error;
//  - its exp and its erfcs (binary32's and binary64's), as the vector code calls them on this
//    machine, are within the bounds gelu_simd.cpp derives, on the arguments it uses (every
//    instruction set);
//  - threads: 1, 2 and 3 threads give the same bits.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gelucheck/gelu_kernel.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"
#include "support.hpp"

namespace gelucheck::testing {
namespace {

// Inputs for the bit-for-bit comparison, as doubles (each is also tested rounded to float).
std::vector<double> inputs() {
  std::vector<double> xs = hard_points();
  std::mt19937_64 rng(1618);  // fixed seed
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  for (int i = 0; i < 4000; ++i) xs.push_back(uni(-8, 8));
  for (int i = 0; i < 2000; ++i) xs.push_back(uni(-45, 45));
  for (int i = 0; i < 2000; ++i) xs.push_back(std::bit_cast<double>(rng()));
  for (int i = 0; i < 2000; ++i) xs.push_back(static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(rng()))));
  // The fast regions' thresholds (gelu_fast.cpp, gelu_simd.cpp) and a few neighbours each side.
  // +-2^-25: below, the binary32 erfc's v +- 4 round (gelu_simd.cpp, erfc_phi).
  for (double t : {16.0, -16.0, -21.0, 40.0, -40.0, 32.0, -32.0, 36.0, -36.0, 0x1p-40, -0x1p-40, 0x1p-125, 0x1p-126, 0x1p-25, -0x1p-25}) {
    double a = t, b = t;
    for (int k = 0; k < 4; ++k) {
      xs.push_back(a), xs.push_back(b);
      a = std::nextafter(a, 1e300), b = std::nextafter(b, -1e300);
      xs.push_back(static_cast<double>(std::nextafter(static_cast<float>(t), 1e30f)));
      xs.push_back(static_cast<double>(std::nextafter(static_cast<float>(t), -1e30f)));
    }
  }
  const double inf = std::numeric_limits<double>::infinity();
  for (double s : {0.0, -0.0, inf, -inf, std::nan(""), -std::nan(""), 0x1p-1074, -0x1p-1074, 0x1.8p-1030,
                   0x1p-149, -0x1p-149, 0x1.4p-140, 1e300, -1e300})
    xs.push_back(s);
  for (Form f : {Form::tanh, Form::erf})
    for (int k = -64; k <= 64; ++k) xs.push_back(derivative_zero(f) + k * 0x1p-52);
  return xs;
}

template <class T>
std::vector<T> as(const std::vector<double>& xs) {
  std::vector<T> v;
  for (double x : xs) v.push_back(static_cast<T>(x));
  return v;
}

template <class T>
void expect_equal_to_scalar(const char* what, const Fn& f, const std::vector<T>& x, const std::vector<T>& got) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    const T want = eval(f, x[i]);
    ASSERT_TRUE(same_bits(got[i], want)) << what << " " << f.name << " element " << i << " of " << x.size()
                                         << " input " << hex(static_cast<double>(x[i])) << " scalar "
                                         << hex(static_cast<double>(want)) << " got "
                                         << hex(static_cast<double>(got[i]));
  }
}

// map for values; backward with grad_output = 1 for derivatives (1 * d is exact, so dx is the
// derivative itself).
template <class T>
void apply(const Fn& f, View<const T> x, View<T> out) {
  if (f.q == Quantity::value) {
    map(f.form, std::move(x), std::move(out));
    return;
  }
  const std::vector<T> ones(x.size(), T(1));
  backward(f.form, x, View<const T>::contiguous(ones.data(), x.shape), std::move(out));
}

template <class T>
void bit_for_bit() {
  const std::vector<T> all = as<T>(inputs());
  for (const Fn& f : kFns) {
    // The whole sample, contiguous.
    std::vector<T> out(all.size());
    apply(f, View<const T>::contiguous(all.data(), {all.size()}), View<T>::contiguous(out.data(), {out.size()}));
    expect_equal_to_scalar("contiguous", f, all, out);
    // Every length 0..67 at four alignments (offsets into one buffer), so that each input sits at
    // every lane position and in vector tails.
    for (std::size_t len = 0; len <= 67; ++len) {
      for (std::size_t off = 0; off < 4; ++off) {
        const std::size_t start = (len * 7 + off * 13) % (all.size() - 80);
        std::vector<T> buf(len + 8), res(len + 8);
        std::vector<T> xs(all.begin() + static_cast<std::ptrdiff_t>(start),
                          all.begin() + static_cast<std::ptrdiff_t>(start + len));
        std::copy(xs.begin(), xs.end(), buf.begin() + static_cast<std::ptrdiff_t>(off));
        apply(f, View<const T>::contiguous(buf.data() + off, {len}), View<T>::contiguous(res.data() + off, {len}));
        expect_equal_to_scalar("tail", f, xs, std::vector<T>(res.begin() + static_cast<std::ptrdiff_t>(off),
                                                             res.begin() + static_cast<std::ptrdiff_t>(off + len)));
      }
    }
    // Reversed (negative stride) and strided (every third element) views, 1000 elements.
    const std::size_t n = 1000;
    std::vector<T> xs(all.begin(), all.begin() + n), res(3 * n);
    View<const T> rev{xs.data() + (n - 1), {n}, {-1}};
    View<T> str{res.data(), {n}, {3}};
    apply(f, rev, str);
    std::vector<T> got, want_x;
    for (std::size_t i = 0; i < n; ++i) got.push_back(res[3 * i]), want_x.push_back(xs[n - 1 - i]);
    expect_equal_to_scalar("reversed into strided", f, want_x, got);
    // In place.
    std::vector<T> inplace = all;
    apply(f, View<const T>::contiguous(inplace.data(), {inplace.size()}),
          View<T>::contiguous(inplace.data(), {inplace.size()}));
    expect_equal_to_scalar("in place", f, all, inplace);
  }
}

TEST(LibrarySimd, VectorEqualsScalarBitForBitBinary32) { on_every_target([] { bit_for_bit<float>(); }); }
TEST(LibrarySimd, VectorEqualsScalarBitForBitBinary64) { on_every_target([] { bit_for_bit<double>(); }); }

// backward with grad_output other than 1: one rounding of dy * the rounded derivative.
TEST(LibrarySimd, BackwardIsOneProductOfTheScalarDerivative) {
  std::mt19937_64 rng(577);  // fixed seed
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  const std::size_t n = 3001;
  std::vector<double> x(n), dy(n), dx(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = uni(-10, 10), dy[i] = uni(-3, 3);
  const std::vector<float> xf = as<float>(x), dyf = as<float>(dy);
  std::vector<float> dxf(n);
  for (Form f : {Form::tanh, Form::erf}) {
    backward(f, View<const double>::contiguous(x.data(), {n}), View<const double>::contiguous(dy.data(), {n}),
             View<double>::contiguous(dx.data(), {n}));
    backward(f, View<const float>::contiguous(xf.data(), {n}), View<const float>::contiguous(dyf.data(), {n}),
             View<float>::contiguous(dxf.data(), {n}));
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_TRUE(same_bits(dx[i], dy[i] * scalar_deriv(f, x[i]))) << "input " << hex(x[i]);
      ASSERT_TRUE(same_bits(dxf[i], dyf[i] * scalar_deriv(f, xf[i]))) << "input " << hex(static_cast<double>(xf[i]));
    }
    // In place, binary32 (the erf form multiplies in its vector loop): over grad_output, over x.
    std::vector<float> over_dy = dyf, over_x = xf;
    backward(f, View<const float>::contiguous(xf.data(), {n}), View<const float>::contiguous(over_dy.data(), {n}),
             View<float>::contiguous(over_dy.data(), {n}));
    backward(f, View<const float>::contiguous(over_x.data(), {n}), View<const float>::contiguous(dyf.data(), {n}),
             View<float>::contiguous(over_x.data(), {n}));
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_TRUE(same_bits(over_dy[i], dxf[i])) << "in place over grad_output, input " << hex(static_cast<double>(xf[i]));
      ASSERT_TRUE(same_bits(over_x[i], dxf[i])) << "in place over x, input " << hex(static_cast<double>(xf[i]));
    }
  }
}

// Accepted vector lanes against MPFR directly (the scalar function shares their code in binary64
// and could share an error).
void accepted_lanes_are_right() {
  std::mt19937_64 rng(4242);  // fixed seed
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  std::vector<double> xs = hard_points();
  for (int i = 0; i < 1000; ++i) xs.push_back(uni(-17, 17));
  for (int i = 0; i < 400; ++i) xs.push_back(uni(-41, 41));
  for (int e = -40; e < 6; ++e) xs.push_back(std::ldexp(uni(1, 2), e)), xs.push_back(-std::ldexp(uni(1, 2), e));
  // Around the derivatives' zeros: the binary64 erf derivative's Taylor branch (|x - x0| <= 1/16)
  // and its edges, and the last ulps before the zero.
  for (Form form : {Form::tanh, Form::erf}) {
    const double z = derivative_zero(form);
    for (int i = 0; i < 300; ++i) xs.push_back(z + uni(-0.07, 0.07));
    for (int k = -40; k <= 40; ++k) xs.push_back(z + k * 0x1p-53);
    for (double e : {0x1p-4, -0x1p-4}) {
      double a = z + e;
      for (int k = 0; k < 4; ++k) xs.push_back(a), a = std::nextafter(a, 1e300);
    }
  }
  for (const Fn& f : kFns) {
    const std::vector<float> xf = as<float>(xs);
    std::vector<float> of(xs.size());
    std::vector<double> od(xs.size());
    std::vector<unsigned char> okf(xs.size(), 1), okd(xs.size(), 1);
    std::vector<std::uint32_t> refused(xs.size());
    const std::size_t nf = detail::simd_fast(f.form, f.q, xf.data(), of.data(), refused.data(), xs.size());
    for (std::size_t k = 0; k < nf; ++k) okf[refused[k]] = 0;
    const std::size_t nd = detail::simd_fast(f.form, f.q, xs.data(), od.data(), refused.data(), xs.size());
    for (std::size_t k = 0; k < nd; ++k) okd[refused[k]] = 0;
    long acc32 = 0, acc64 = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (okf[i]) {
        ++acc32;
        const double want = ref::correctly_rounded(f.form, f.q, static_cast<double>(xf[i]), Format::binary32);
        ASSERT_TRUE(same_bits(static_cast<double>(of[i]), want))
            << f.name << " binary32 input " << hex(static_cast<double>(xf[i])) << " expected " << hex(want)
            << " got " << hex(static_cast<double>(of[i]));
      }
      if (okd[i]) {
        ++acc64;
        const Error e = measure(od[i], ref::enclose(f.form, f.q, xs[i]), Format::binary64);
        ASSERT_TRUE(e.ulp < 1 && !e.zero_sign_mismatch && !e.nan_mismatch)
            << f.name << " binary64 input " << hex(xs[i]) << " got " << hex(od[i]) << " (" << e.ulp << " ulp)";
      }
    }
    std::printf("[measured] simd (%s) %-16s accepted binary32 %ld, binary64 %ld of %zu\n", detail::simd_target(),
                f.name, acc32, acc64, xs.size());
    EXPECT_GT(acc32, static_cast<long>(xs.size() / 2)) << f.name;
    EXPECT_GT(acc64, static_cast<long>(xs.size() / 2)) << f.name;
  }
}

TEST(LibrarySimd, AcceptedLanesAreRightAgainstTheReference) { on_every_target(accepted_lanes_are_right); }

// Relative error of hi + lo against erfc(-x/sqrt2), MPFR at 300 bits (x exact; hi + lo exact at
// that precision for the pairs the tests pass).
double erfc_rel_error(double x, double hi, double lo = 0) {
  Mpfr ref(300, x), sqrt2(300), d(300, hi);
  mpfr_sqrt_ui(sqrt2, 2, MPFR_RNDN);
  mpfr_div(ref, ref, sqrt2, MPFR_RNDN);
  mpfr_neg(ref, ref, MPFR_RNDN);
  mpfr_erfc(ref, ref, MPFR_RNDN);
  mpfr_add_d(d, d, lo, MPFR_RNDN);
  mpfr_sub(d, d, ref, MPFR_RNDN);
  mpfr_div(d, d, ref, MPFR_RNDN);
  return std::fabs(mpfr_get_d(d, MPFR_RNDU));
}

// The binary32 erfc's inputs: x in [-16, 40] (erf_f32's clamped range), dense near 0, on [1, 16]
// both signs and on (16, 40] (the clamp), every power of two below 1 (v +- 4 are rounded below
// 2^-25), the ends of the range and neighbours of 0, +-1, +-4 (y = 0), 16, -16, 40.
std::vector<float> erfc_inputs() {
  std::mt19937_64 rng(23);  // fixed seed
  auto uni = [&](double a, double b) { return static_cast<float>(std::uniform_real_distribution<double>(a, b)(rng)); };
  std::vector<float> xs;
  for (int i = 0; i < 1500; ++i) xs.push_back(uni(-1, 1));
  for (int i = 0; i < 200; ++i) xs.push_back(uni(-0x1p-20, 0x1p-20));
  for (int i = 0; i < 1500; ++i) xs.push_back(uni(-16, -1)), xs.push_back(uni(1, 16));
  for (int i = 0; i < 300; ++i) xs.push_back(uni(16, 40));
  for (int e = -149; e < 0; ++e) xs.push_back(std::ldexp(1.0f, e)), xs.push_back(-std::ldexp(1.0f, e));
  for (float t : {0.0f, 1.0f, -1.0f, 4.0f, -4.0f, 16.0f, -16.0f, 40.0f}) {
    float a = t, b = t;
    for (int k = 0; k < 8; ++k) {
      if (a <= 40.0f) xs.push_back(a);
      if (b >= -16.0f) xs.push_back(b);
      a = std::nextafter(a, 100.0f), b = std::nextafter(b, -100.0f);
    }
  }
  return xs;
}

// gelu_simd.cpp assumes its exp <= 2 ulp (derived 1.55) on the arguments it uses (-t, t in
// [-318, 318], and -x^2/2 in [-708, 0]), and derives its erfc's relative error <= kSimdErfcRelBound
// (partly from measured polynomial terms: fit_erfc32.py); both measured here against MPFR.
void exp_and_erfc_are_as_accurate_as_assumed() {
  std::mt19937_64 rng(17);  // fixed seed
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  const std::vector<float> xc = erfc_inputs();
  const std::size_t n = xc.size();
  std::vector<double> ae(n), e(n), c(n);
  for (std::size_t i = 0; i < n; ++i) ae[i] = i % 3 == 0 ? uni(-318, 318) : i % 3 == 1 ? uni(-708, 0) : uni(-2, 2);
  detail::simd_exp_erfc(ae.data(), e.data(), xc.data(), c.data(), n);
  double we = 0, wc = 0, at_e = 0, at_c = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double ue = ulps(e[i], ae[i], mpfr_exp, 53);
    const double rc = erfc_rel_error(static_cast<double>(xc[i]), c[i]);
    if (ue > we) we = ue, at_e = ae[i];
    if (rc > wc) wc = rc, at_c = static_cast<double>(xc[i]);
  }
  std::printf("[measured] vector (%s) exp max %.3f ulp at %s; erfc(-x/sqrt2) max relative %.2f u = 2^%.2f at x = %s "
              "(bound %.0f u), %zu points\n",
              detail::simd_target(), we, hex(at_e).c_str(), wc / 0x1p-53, std::log2(wc), hex(at_c).c_str(),
              detail::kSimdErfcRelBound / 0x1p-53, n);
  EXPECT_LE(we, 2.0) << "exp at " << hex(at_e);
  EXPECT_LE(wc, detail::kSimdErfcRelBound) << "erfc(-x/sqrt2) at x = " << hex(at_c) << ": relative " << hex(wc);
}

TEST(LibrarySimd, VectorExpAndErfcAreAsAccurateAsAssumed) { on_every_target(exp_and_erfc_are_as_accurate_as_assumed); }

// The binary64 erfc (erfc_dd) in double-double against MPFR: relative error of hi + lo, at 300
// bits, on its whole range [-36, 36]: dense near 0, both signs of [1, 36], every power of two
// from 2^-1074 to 2^5 both signs, and the neighbours of 0, +-4 (y = 0) and +-36 (the clamp).
void erfc_dd_is_as_accurate_as_assumed() {
  std::mt19937_64 rng(29);  // fixed seed
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  std::vector<double> xs;
  for (int i = 0; i < 2000; ++i) xs.push_back(uni(-1, 1));
  for (int i = 0; i < 2000; ++i) xs.push_back(uni(-36, -1)), xs.push_back(uni(1, 36));
  for (int e = -1074; e <= 5; ++e) xs.push_back(std::ldexp(1.0, e)), xs.push_back(-std::ldexp(1.0, e));
  for (double t : {0.0, 4.0, -4.0, 36.0, -36.0}) {
    double a = t, b = t;
    for (int k = 0; k < 8; ++k) {
      if (a <= 36) xs.push_back(a);
      if (b >= -36) xs.push_back(b);
      a = std::nextafter(a, 100.0), b = std::nextafter(b, -100.0);
    }
  }
  std::vector<double> hi(xs.size()), lo(xs.size());
  detail::simd_erfc_dd(xs.data(), hi.data(), lo.data(), xs.size());
  double worst = 0, at = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double r = erfc_rel_error(xs[i], hi[i], lo[i]);
    if (!(r <= worst)) worst = r, at = xs[i];  // a NaN is the worst
  }
  std::printf("[measured] vector (%s) erfc_dd(-x/sqrt2) max relative 2^%.2f at x = %s (bound 2^%.0f), %zu points\n",
              detail::simd_target(), std::log2(worst), hex(at).c_str(), std::log2(detail::kSimdErfcDDRelBound),
              xs.size());
  EXPECT_LE(worst, detail::kSimdErfcDDRelBound) << "erfc_dd at x = " << hex(at) << ": relative " << hex(worst);
}

TEST(LibrarySimd, VectorErfcDDIsAsAccurateAsAssumed) { on_every_target(erfc_dd_is_as_accurate_as_assumed); }

// How often the binary32 erf form's rounding test refuses a lane (the scalar path then answers) on
// the benchmark's distribution: 2^20 x uniform in [-8, 8], drawn in binary64 and rounded to float
// (bench/library/bench_peers.cpp, seed 42). With a bound of ~2^-48 a lane is refused only when f
// lies within ~2^-48 |f| of a binary32 midpoint (about 2^-23 of the lanes) or near the derivative's
// zero: a few lanes in a million.
// The binary64 erf form (bound 2^-57, faithful test; a Taylor series within 1/8 of the
// derivative's zero, where the sum cancels): a lane is refused only next to that interval. The
// tanh form (bounds 2^-67 and L 2^-67 + 2^-66 in binary64; (4|t| + 6)u and its derivative's in
// binary32): refused where its derivative's sum cancels by more than ~2^12 (binary64), or near a
// midpoint.
void refusals_are_rare() {
  std::mt19937_64 rng(42);  // the benchmark's seed
  std::uniform_real_distribution<double> uni(-8, 8);
  const std::size_t n = std::size_t{1} << 20;
  std::vector<double> xd(n), outd(n);
  for (double& v : xd) v = uni(rng);
  std::vector<float> x(n), out(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(xd[i]);
  std::vector<std::uint32_t> refused(n);
  for (Form form : {Form::tanh, Form::erf})
    for (Quantity q : {Quantity::value, Quantity::derivative}) {
      const std::string what = std::string(name(form)) + " " + (q == Quantity::value ? "value" : "derivative");
      const std::size_t nref = detail::simd_fast(form, q, x.data(), out.data(), refused.data(), n);
      const std::size_t nref64 = detail::simd_fast(form, q, xd.data(), outd.data(), refused.data(), n);
      std::printf("[measured] simd (%s) %s: %zu (binary32), %zu (binary64) of %zu lanes refused on [-8, 8]\n",
                  detail::simd_target(), what.c_str(), nref, nref64, n);
      EXPECT_LE(nref, std::size_t{64}) << what;
      EXPECT_LE(nref64, std::size_t{64}) << what;
    }
}

TEST(LibrarySimd, RefusesFewLanes) { on_every_target(refusals_are_rare); }

// Threads: the same bits with 1, 2 and 3 threads, above the size threshold (2^16), map and
// backward, both formats.
TEST(LibrarySimd, ThreadCountDoesNotChangeBits) {
  const std::size_t n = 3 * (std::size_t{1} << 16) + 17;
  std::mt19937_64 rng(99);  // fixed seed
  std::vector<double> x(n), dy(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = std::uniform_real_distribution<double>(-9, 9)(rng), dy[i] = std::uniform_real_distribution<double>(-1, 1)(rng);
  const std::vector<float> xf = as<float>(x), dyf = as<float>(dy);
  const unsigned before = threads();
  std::vector<std::vector<double>> r64;
  std::vector<std::vector<float>> r32;
  for (unsigned t : {1u, 2u, 3u}) {
    set_threads(t);
    EXPECT_EQ(threads(), t);
    std::vector<double> y(n), d(n);
    std::vector<float> yf(n), df(n);
    map(Form::tanh, View<const double>::contiguous(x.data(), {n}), View<double>::contiguous(y.data(), {n}));
    backward(Form::erf, View<const double>::contiguous(x.data(), {n}), View<const double>::contiguous(dy.data(), {n}),
             View<double>::contiguous(d.data(), {n}));
    map(Form::erf, View<const float>::contiguous(xf.data(), {n}), View<float>::contiguous(yf.data(), {n}));
    backward(Form::tanh, View<const float>::contiguous(xf.data(), {n}), View<const float>::contiguous(dyf.data(), {n}),
             View<float>::contiguous(df.data(), {n}));
    y.insert(y.end(), d.begin(), d.end());
    yf.insert(yf.end(), df.begin(), df.end());
    r64.push_back(y);
    r32.push_back(yf);
  }
  set_threads(before);
  for (std::size_t t = 1; t < 3; ++t) {
    for (std::size_t i = 0; i < r64[0].size(); ++i) {
      ASSERT_TRUE(same_bits(r64[t][i], r64[0][i])) << t + 1 << " threads, binary64 element " << i;
      ASSERT_TRUE(same_bits(r32[t][i], r32[0][i])) << t + 1 << " threads, binary32 element " << i;
    }
  }
  // And the one-thread results are the scalar function's.
  for (std::size_t i = 0; i < n; i += 97) {
    ASSERT_TRUE(same_bits(r64[0][i], scalar(Form::tanh, x[i])));
    ASSERT_TRUE(same_bits(r32[0][i], scalar(Form::erf, xf[i])));
  }
}

}  // namespace
}  // namespace gelucheck::testing
