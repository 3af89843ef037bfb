// The naive path ("textbook, for comparison") is EXACTLY the textbook formulas, bit for bit: the
// expressions are written out again here from docs/functions.md, not taken from src/.
// A second group SHOWS its failure modes against the reference; they are what the suite exists to
// measure, not bugs to fix.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <limits>
#include <random>

#include "gelucheck/reference.hpp"
#include "support.hpp"

namespace gelucheck::testing {
namespace {

// The gelu_new exercise (GPT-2's): 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))), x^3 as
// x*x*x; sqrt(2/pi) = 0.7978845608028654 (correctly rounded; Math.sqrt(2/Math.PI) gives it too).
// Derivative: docs/functions.md, 0.5(1 + tanh u) + 0.5 x (1 - tanh^2 u) sqrt(2/pi) (1 + 3 * 0.044715 x^2).
template <class T>
T textbook_tanh(T x) {
  const T k = static_cast<T>(0.7978845608028654), c = static_cast<T>(0.044715);
  return T(0.5) * x * (1 + std::tanh(k * (x + c * (x * x * x))));
}
template <class T>
T textbook_tanh_deriv(T x) {
  const T k = static_cast<T>(0.7978845608028654), c = static_cast<T>(0.044715);
  const T th = std::tanh(k * (x + c * (x * x * x)));
  return T(0.5) * (1 + th) + T(0.5) * x * (1 - th * th) * k * (1 + 3 * c * (x * x));
}
// The exercise: Phi = 0.5 * (1 + erf(x / SQRT_2)); forward x * Phi; backward factor
// Phi + x * phi, phi = exp(-x**2 / 2) / SQRT_2PI with SQRT_2PI = math.sqrt(2 * math.pi).
template <class T>
T textbook_erf(T x) {
  const T Phi = T(0.5) * (1 + std::erf(x / static_cast<T>(std::sqrt(2.0))));
  return x * Phi;
}
template <class T>
T textbook_erf_deriv(T x) {
  const T Phi = T(0.5) * (1 + std::erf(x / static_cast<T>(std::sqrt(2.0))));
  const T phi = std::exp(-(x * x) / 2) / static_cast<T>(std::sqrt(2 * M_PI));
  return Phi + x * phi;
}

template <class T>
void check_bits(T x) {
  const T want[4] = {textbook_tanh(x), textbook_tanh_deriv(x), textbook_erf(x), textbook_erf_deriv(x)};
  for (int i = 0; i < 4; ++i) {
    const T got = eval(kFns[i], x, Path::naive);
    ASSERT_TRUE(same_bits(got, want[i])) << "naive " << kFns[i].name << " input " << hex(x) << " textbook "
                                         << hex(want[i]) << " got " << hex(got);
  }
}

TEST(LibraryNaive, IsTheTextbookFormulaBitForBit) {
  std::mt19937_64 rng(3);  // fixed seed
  for (int i = 0; i < 200000; ++i) {
    // Half: any bit pattern (every binade, specials); half: |x| in [2^-2, 2^3) where x^3 matters.
    const std::uint64_t b = rng();
    double x;
    if (i % 2) {
      x = std::bit_cast<double>(b);
    } else {
      x = std::ldexp(1.0 + static_cast<double>(b >> 12) * 0x1p-52, static_cast<int>(b % 5) - 2) *
          ((b >> 3) & 1 ? -1 : 1);
    }
    check_bits(x);
    const float xf = std::bit_cast<float>(static_cast<std::uint32_t>(b));
    check_bits(i % 2 ? xf : static_cast<float>(x));
  }
  for (double x : hard_points()) check_bits(x), check_bits(static_cast<float>(x));
  for (double x : {double(INFINITY), -double(INFINITY), 0.0, -0.0}) check_bits(x), check_bits(static_cast<float>(x));
}

// The failure modes (documented in docs/library.md): the textbook formulas return -0 in the negative
// tail where the true result is a normal number, NaN at -inf (value) and at +-inf (derivative),
// and NaN from x*x overflowing in the tanh derivative; the accurate path gets all of them right.
TEST(LibraryNaive, FailureModesAreShown) {
  // -7.5 (tanh) and -8.5 (erf): 1 + tanh(u) and 1 + erf(z) are exactly 0, the truth is normal.
  for (auto [f, x] : {std::pair{Form::tanh, -7.5}, std::pair{Form::erf, -8.5}, std::pair{Form::erf, -20.0}}) {
    const double truth = ref::correctly_rounded(f, Quantity::value, x, Format::binary64);
    EXPECT_TRUE(std::isnormal(truth)) << name(f) << " " << hex(x) << " truth " << hex(truth);
    EXPECT_TRUE(same_bits(scalar(f, x, Path::naive), -0.0)) << hex(scalar(f, x, Path::naive));
    EXPECT_TRUE(same_bits(scalar(f, x), truth)) << "accurate " << hex(scalar(f, x));
  }
  // Where naive first gives -0 (docs/functions.md: about -7.2 tanh, -8.4 erf in binary64; earlier in float).
  for (Form f : {Form::tanh, Form::erf}) {
    double first = 0;
    for (double x = -5; x > -12; x -= 1.0 / 1024)
      if (scalar(f, x, Path::naive) == 0) {
        first = x;
        break;
      }
    std::printf("[measured] naive %s value is first -0 at x = %.4f (binary64)\n", std::string(name(f)).c_str(), first);
    EXPECT_LT(first, f == Form::tanh ? -7.0 : -8.2);
    EXPECT_GT(first, f == Form::tanh ? -7.4 : -8.6);
  }
  for (Form f : {Form::tanh, Form::erf}) {
    EXPECT_TRUE(std::isnan(scalar(f, -INFINITY, Path::naive)));       // 0.5 * -inf * 0
    EXPECT_TRUE(std::isnan(scalar_deriv(f, INFINITY, Path::naive)));  // inf * 0
    EXPECT_TRUE(std::isnan(scalar_deriv(f, -INFINITY, Path::naive)));
    EXPECT_TRUE(std::isnan(scalar(f, -std::numeric_limits<float>::infinity(), Path::naive)));
  }
  // tanh derivative: x * x overflows for |x| > 1.34e154, then (1 - th^2) * inf = 0 * inf = NaN.
  EXPECT_TRUE(std::isnan(scalar_deriv(Form::tanh, 1e200, Path::naive)));
  EXPECT_TRUE(same_bits(scalar_deriv(Form::tanh, 1e200), 1.0));
  // Near the derivative's zero the naive derivative has no relative accuracy left.
  const double z = derivative_zero(Form::erf);
  const ref::Enclosure y = ref::enclose(Form::erf, Quantity::derivative, z);
  const double truth = y.approx(), naive = scalar_deriv(Form::erf, z, Path::naive);
  std::printf("[measured] naive erf derivative at %s: %s, truth %s\n", hex(z).c_str(), hex(naive).c_str(),
              hex(truth).c_str());
  EXPECT_GT(std::fabs(naive - truth), 1e6 * std::fabs(truth) * DBL_EPSILON);
}

}  // namespace
}  // namespace gelucheck::testing
