// The consumer's own unit test of its GELU with gelucheck's GoogleTest matchers
// (gelucheck/gtest.hpp): faithful at points of every kind, the tail where the textbook formula
// cancels included.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>

#include "gelucheck/gtest.hpp"

extern "C" void gelu_erf_f32(const float* x, float* y, std::size_t n);

namespace {

TEST(MyGelu, FaithfulAcrossTheRange) {
  const float xs[] = {-14.0f, -9.5f, -5.25f, -3.0f, -0.75f, -0x1p-20f, 0.0f, 0x1p-20f, 0.5f,
                      1.25f, 3.0f, 40.0f, INFINITY, -INFINITY};
  for (float x : xs) {
    float y;
    gelu_erf_f32(&x, &y, 1);
    EXPECT_THAT(y, gelucheck::IsFaithful(gelucheck::erf_value, x));
  }
}

}  // namespace
