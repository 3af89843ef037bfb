// The extern "C" entry points (gelucheck/gelu_c.h): same bits as the C++ API, error codes with
// nothing written.
#include <gtest/gtest.h>

#include <vector>

#include "gelucheck/gelu_c.h"
#include "support.hpp"

namespace gelucheck::testing {
namespace {

TEST(LibraryCApi, MatchesTheCppApiAndRefusesBadArguments) {
  std::vector<double> x = {-40, -8.5, -0.75, -0.0, 0.5, 3, 1e300};
  std::vector<float> xf = {-14, -8.5f, -0.75f, -0.0f, 0.5f, 3, 1e30f};
  const std::size_t n = x.size();
  for (int form = 0; form < 2; ++form)
    for (int path = 0; path < 2; ++path) {
      const Form f = form ? Form::erf : Form::tanh;
      const Path p = path ? Path::naive : Path::accurate;
      std::vector<double> out(n), dx(n);
      std::vector<float> outf(n), dxf(n);
      ASSERT_EQ(gelucheck_map_f64(form, path, x.data(), out.data(), n), 0);
      ASSERT_EQ(gelucheck_map_f32(form, path, xf.data(), outf.data(), n), 0);
      ASSERT_EQ(gelucheck_backward_f64(form, path, x.data(), x.data(), dx.data(), n), 0);
      ASSERT_EQ(gelucheck_backward_f32(form, path, xf.data(), xf.data(), dxf.data(), n), 0);
      for (std::size_t i = 0; i < n; ++i) {
        EXPECT_TRUE(same_bits(out[i], scalar(f, x[i], p)));
        EXPECT_TRUE(same_bits(outf[i], scalar(f, xf[i], p)));
        EXPECT_TRUE(same_bits(dx[i], x[i] * scalar_deriv(f, x[i], p)));
        EXPECT_TRUE(same_bits(dxf[i], xf[i] * scalar_deriv(f, xf[i], p)));
      }
    }
  std::vector<double> out(n, 42.0);
  EXPECT_NE(gelucheck_map_f64(2, 0, x.data(), out.data(), n), 0);   // bad form
  EXPECT_NE(gelucheck_map_f64(0, -1, x.data(), out.data(), n), 0);  // bad path
  EXPECT_NE(gelucheck_map_f64(0, 0, nullptr, out.data(), n), 0);
  EXPECT_NE(gelucheck_map_f64(0, 0, x.data(), nullptr, n), 0);
  EXPECT_NE(gelucheck_backward_f64(0, 0, x.data(), nullptr, out.data(), n), 0);
  EXPECT_NE(gelucheck_map_f64(0, 0, out.data(), out.data() + 1, n - 1), 0);  // partial overlap
  for (double v : out) EXPECT_EQ(v, 42.0);
  EXPECT_EQ(gelucheck_map_f64(0, 0, nullptr, nullptr, 0), 0);  // n == 0: nothing to do
  // In place.
  std::vector<double> y = x;
  ASSERT_EQ(gelucheck_map_f64(1, 0, y.data(), y.data(), n), 0);
  for (std::size_t i = 0; i < n; ++i) EXPECT_TRUE(same_bits(y[i], scalar(Form::erf, x[i])));
}

}  // namespace
}  // namespace gelucheck::testing
