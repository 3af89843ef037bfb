// The report's ulp figures near a claim's boundary (reports/src/text.cpp, fmt_ulp): the fewest
// digits that keep the figure on its side of 0.5 or 1 (never the boundary itself, never across
// it); the expected strings are written out, each the shortest %g on that side.
#include <cmath>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "internal.hpp"

namespace {

using gelucheck::report::fmt_ulp;
using json = nlohmann::ordered_json;

TEST(FmtUlp, AwayFromTheBoundariesThreeDigits) {
  EXPECT_EQ(fmt_ulp(json(0.25)), "0.25");
  EXPECT_EQ(fmt_ulp(json(0.123456)), "0.123");
  EXPECT_EQ(fmt_ulp(json(1234.5)), "1.23e+03");
  EXPECT_EQ(fmt_ulp(json(0.5)), "0.5");
  EXPECT_EQ(fmt_ulp(json(1.0)), "1");
  EXPECT_EQ(fmt_ulp(json(nullptr)), "–");
}

TEST(FmtUlp, NearABoundaryTheFewestDigitsThatShowTheSide) {
  // measure()'s floor for a result that is not correctly rounded.
  EXPECT_EQ(fmt_ulp(json(std::nextafter(0.5, 1.0))), "0.5000000000000001");
  EXPECT_EQ(fmt_ulp(json(std::nextafter(0.5, 0.0))), "0.4999999999999999");
  EXPECT_EQ(fmt_ulp(json(0.50000000000003125)), "0.50000000000003");
  EXPECT_EQ(fmt_ulp(json(0.5004)), "0.5004");
  EXPECT_EQ(fmt_ulp(json(0.9996)), "0.9996");
  EXPECT_EQ(fmt_ulp(json(std::nextafter(1.0, 2.0))), "1.0000000000000002");
  // Each figure printed is on its own side, at any distance within 10^-3 of either boundary.
  for (const double b : {0.5, 1.0})
    for (double e = 1e-16; e < 1e-3; e *= 3.7)
      for (const double u : {b + e, b - e}) {
        if (u == b) continue;  // 1 + 1e-16 is 1
        const std::string s = fmt_ulp(json(u));
        const double back = std::strtod(s.c_str(), nullptr);
        EXPECT_GT((back - b) * (u - b), 0) << u << " printed " << s;
      }
}

}  // namespace
