// map / backward / pdiv / jacobian over views: elementwise means elementwise (bits equal to the
// scalar function per element, whatever the shape, strides, order or alignment), the gelu_new
// exercise's [4, 64] fixture and the MLP's [T, 3072] scratchpad, rank 0, empty, bad shapes
// refused before any write, inputs untouched, in place allowed, partial overlap refused.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "support.hpp"

namespace gelucheck::testing {
namespace {

constexpr Form kForms[2] = {Form::tanh, Form::erf};
constexpr Path kPaths[2] = {Path::accurate, Path::naive};

template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-8, 8);
  std::vector<T> v(n);
  for (auto& e : v) e = static_cast<T>(u(rng));
  if (n > 4) v[0] = T(-0.0), v[1] = static_cast<T>(derivative_zero(Form::tanh)), v[2] = T(-30), v[3] = T(1e30);
  return v;
}

template <class T>
void expect_same_bits_as_scalar(Form f, Path p, const std::vector<T>& x, const std::vector<T>& out, bool deriv,
                                const std::vector<T>* dy = nullptr) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    T want = deriv ? scalar_deriv(f, x[i], p) : scalar(f, x[i], p);
    if (dy) want = (*dy)[i] * want;
    ASSERT_TRUE(same_bits(out[i], want)) << "element " << i << " input " << hex(x[i]) << " expected " << hex(want)
                                         << " got " << hex(out[i]);
  }
}

template <class T>
void fixture_and_scratchpad_shapes() {
  for (auto shape : {std::vector<std::size_t>{4, 64}, std::vector<std::size_t>{7, 3072}}) {
    const std::size_t n = shape[0] * shape[1];
    const auto x = random_values<T>(n, 5), dy = random_values<T>(n, 6);
    for (Form f : kForms)
      for (Path p : kPaths) {
        std::vector<T> out(n, T(99)), dx(n, T(99));
        map(f, View<const T>::contiguous(x.data(), shape), View<T>::contiguous(out.data(), shape), p);
        expect_same_bits_as_scalar(f, p, x, out, false);
        auto x_before = x, dy_before = dy;
        backward(f, View<const T>::contiguous(x.data(), shape), View<const T>::contiguous(dy.data(), shape),
                 View<T>::contiguous(dx.data(), shape), p);
        expect_same_bits_as_scalar(f, p, x, dx, true, &dy);
        EXPECT_EQ(0, std::memcmp(x.data(), x_before.data(), n * sizeof(T)));  // inputs untouched
        EXPECT_EQ(0, std::memcmp(dy.data(), dy_before.data(), n * sizeof(T)));
      }
  }
}
TEST(LibraryArray, GeluNewFixtureAndMlpScratchpadDouble) { fixture_and_scratchpad_shapes<double>(); }
TEST(LibraryArray, GeluNewFixtureAndMlpScratchpadFloat) { fixture_and_scratchpad_shapes<float>(); }

// Strided, transposed and reversed views, at every alignment offset: element bits never change.
TEST(LibraryArray, StridedPermutedReversedViewsGiveTheSameBits) {
  const std::size_t R = 5, C = 7;
  auto buf = random_values<double>(R * C + 8, 9);
  for (std::size_t off = 0; off < 4; ++off) {
    const double* base = buf.data() + off;
    // Transposed view of the R x C block: shape [C, R], strides [1, C].
    View<const double> xt{base, {C, R}, {1, static_cast<std::ptrdiff_t>(C)}};
    std::vector<double> outt(C * R);
    map(Form::erf, xt, View<double>::contiguous(outt.data(), {C, R}));
    for (std::size_t i = 0; i < C; ++i)
      for (std::size_t j = 0; j < R; ++j)
        ASSERT_TRUE(same_bits(outt[i * R + j], scalar(Form::erf, base[j * C + i])));
    // Reversed rows and columns with negative strides, written into a strided output.
    View<const double> xr{base + R * C - 1, {R, C}, {-static_cast<std::ptrdiff_t>(C), -1}};
    std::vector<double> outr(R * C * 2, 7.0);
    map(Form::tanh, xr, View<double>{outr.data(), {R, C}, {static_cast<std::ptrdiff_t>(2 * C), 2}});
    for (std::size_t i = 0; i < R; ++i)
      for (std::size_t j = 0; j < C; ++j) {
        ASSERT_TRUE(same_bits(outr[i * 2 * C + 2 * j], scalar(Form::tanh, base[R * C - 1 - i * C - j])));
        ASSERT_EQ(outr[i * 2 * C + 2 * j + 1], 7.0);  // the gaps are not written
      }
  }
}

TEST(LibraryArray, RankZeroAndEmpty) {
  const double x = -1.5;
  double out = 0;
  map(Form::tanh, View<const double>{&x, {}, {}}, View<double>{&out, {}, {}});
  EXPECT_TRUE(same_bits(out, scalar(Form::tanh, x)));
  EXPECT_EQ((View<const double>{&x, {}, {}}.size()), 1u);
  // Empty: zero-length dimension, null data allowed, nothing written.
  map(Form::erf, View<const double>{nullptr, {3, 0}, {0, 1}}, View<double>{nullptr, {3, 0}, {0, 1}});
  std::vector<float> e;
  backward(Form::erf, View<const float>::contiguous(e.data(), {0}), View<const float>::contiguous(e.data(), {0}),
           View<float>::contiguous(e.data(), {0}));
}

TEST(LibraryArray, BadArgumentsThrowBeforeAnyWrite) {
  std::vector<double> x(12, 1.0), out(12, 42.0), dy(12, 1.0);
  auto untouched = [&] {
    for (double v : out) ASSERT_EQ(v, 42.0);
  };
  EXPECT_THROW(map(Form::tanh, View<const double>::contiguous(x.data(), {3, 4}),
                   View<double>::contiguous(out.data(), {4, 3})),
               std::invalid_argument);
  untouched();
  EXPECT_THROW(backward(Form::tanh, View<const double>::contiguous(x.data(), {12}),
                        View<const double>::contiguous(dy.data(), {11}), View<double>::contiguous(out.data(), {12})),
               std::invalid_argument);
  untouched();
  EXPECT_THROW(map(Form::tanh, View<const double>{x.data(), {3, 4}, {4}}, View<double>::contiguous(out.data(), {3, 4})),
               std::invalid_argument);  // strides of the wrong rank
  untouched();
  EXPECT_THROW(map(Form::tanh, View<const double>{nullptr, {2}, {1}}, View<double>::contiguous(out.data(), {2})),
               std::invalid_argument);
  untouched();
  // Partial overlap (shifted by one element) is refused; the output overlapping itself too.
  EXPECT_THROW(map(Form::tanh, View<const double>::contiguous(out.data(), {11}),
                   View<double>::contiguous(out.data() + 1, {11})),
               std::invalid_argument);
  untouched();
  EXPECT_THROW(map(Form::tanh, View<const double>::contiguous(x.data(), {3}), View<double>{out.data(), {3}, {0}}),
               std::invalid_argument);
  untouched();
  EXPECT_THROW(backward(Form::erf, View<const double>::contiguous(out.data() + 2, {4}),
                        View<const double>::contiguous(dy.data(), {4}), View<double>::contiguous(out.data(), {4})),
               std::invalid_argument);
  untouched();
}

TEST(LibraryArray, InPlaceExactAliasing) {
  for (Form f : kForms) {
    auto x = random_values<double>(300, 12);
    const auto orig = x;
    map(f, View<const double>::contiguous(x.data(), {300}), View<double>::contiguous(x.data(), {300}));
    expect_same_bits_as_scalar(f, Path::accurate, orig, x, false);
    auto dy = random_values<double>(300, 13);
    const auto dy0 = dy;
    backward(f, View<const double>::contiguous(orig.data(), {300}), View<const double>::contiguous(dy.data(), {300}),
             View<double>::contiguous(dy.data(), {300}));  // grad_input written over grad_output
    expect_same_bits_as_scalar(f, Path::accurate, orig, dy, true, &dy0);
  }
}

TEST(LibraryArray, PdivAndJacobian) {
  const auto x = random_values<double>(20, 14);
  const auto xf = random_values<float>(20, 14);
  for (Form f : kForms) {
    const auto J = jacobian(f, std::span<const double>(x));
    const auto Jf = jacobian(f, std::span<const float>(xf));
    ASSERT_EQ(J.size(), 400u);
    for (std::size_t i = 0; i < 20; ++i)
      for (std::size_t j = 0; j < 20; ++j) {
        const double d = pdiv(f, std::span<const double>(x), i, j);
        EXPECT_TRUE(same_bits(d, i == j ? scalar_deriv(f, x[i]) : 0.0));  // off-diagonal +0
        EXPECT_TRUE(same_bits(J[i * 20 + j], d));
        EXPECT_TRUE(same_bits(Jf[i * 20 + j], pdiv(f, std::span<const float>(xf), i, j)));
      }
    EXPECT_THROW(pdiv(f, std::span<const double>(x), 20, 0), std::out_of_range);
  }
  std::vector<double> big(4097, 0.0);
  EXPECT_THROW(jacobian(Form::tanh, std::span<const double>(big)), std::invalid_argument);
  big.resize(4096);  // the largest allowed (128 MiB) is not built here: too slow for the default tier
  EXPECT_TRUE(jacobian(Form::tanh, std::span<const double>(big.data(), 3)).size() == 9);
  // backward equals the Jacobian contracted with dy (hasVJP_correct): a single nonzero per row.
  const auto dy = random_values<double>(20, 15);
  std::vector<double> dx(20);
  backward(Form::erf, View<const double>::contiguous(x.data(), {20}), View<const double>::contiguous(dy.data(), {20}),
           View<double>::contiguous(dx.data(), {20}));
  const auto J = jacobian(Form::erf, std::span<const double>(x));
  for (std::size_t i = 0; i < 20; ++i) {
    double s = 0;
    for (std::size_t j = 0; j < 20; ++j) s += J[i * 20 + j] * dy[j];
    // The other terms are exact zeros, so the values agree exactly; == because the sum's zeros
    // may carry another sign than dy[i] * f'(x[i]) (e.g. dy[i] = -0 gives -0, the sum +0).
    EXPECT_EQ(dx[i], s) << i;
  }
}

}  // namespace
}  // namespace gelucheck::testing
