// common.cpp: round_to_format (subnormals, overflow, ties to even) with hand-derived results,
// parse_real, hexfloat, same_bits.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

#include "gelucheck/common.hpp"

namespace gelucheck {
namespace {

#define EXPECT_BITS(expected, got)                                                     \
  EXPECT_TRUE(same_bits(static_cast<double>(expected), static_cast<double>(got)))     \
      << "expected " << hexfloat(static_cast<double>(expected)) << " got "             \
      << hexfloat(static_cast<double>(got))

TEST(RoundToFormat, Binary16) {
  const Format f = Format::binary16;
  EXPECT_BITS(65504.0, round_to_format(65504, f));
  EXPECT_BITS(65504.0, round_to_format(65519.99, f));
  EXPECT_BITS(INFINITY, round_to_format(65520, f));     // midpoint to 2^16: even → inf
  EXPECT_BITS(-INFINITY, round_to_format(-65520, f));
  EXPECT_BITS(0x1p-24, round_to_format(0x1p-24, f));    // least subnormal
  EXPECT_BITS(0.0, round_to_format(0x1p-25, f));        // tie between 0 and 2^-24 → 0 (even)
  EXPECT_BITS(-0.0, round_to_format(-0x1p-25, f));
  EXPECT_BITS(0x1p-24, round_to_format(0x1.0000001p-25, f));
  EXPECT_BITS(0x1p-23, round_to_format(0x3p-25, f));    // 1.5 → 2 (even)
  EXPECT_BITS(0x2p-24, round_to_format(0x5p-25, f));    // 2.5 → 2 (even)
  EXPECT_BITS(0x3p-24, round_to_format(0x5.1p-25, f));
  EXPECT_BITS(0x1.ff8p-15, round_to_format(0x1.ff8p-15, f));  // greatest subnormal 1023·2^-24
  EXPECT_BITS(0x1p-14, round_to_format(0x1.ffcp-15, f));      // rounds up to the least normal
  EXPECT_BITS(1.0, round_to_format(1 + 0x1p-11, f));          // tie → even 1
  EXPECT_BITS(1 + 0x1p-9, round_to_format(1 + 0x3p-11, f));   // tie → even 1 + 2·2^-10
  EXPECT_BITS(1 + 0x1p-10, round_to_format(1 + 0x1.0001p-11, f));
}

TEST(RoundToFormat, Bfloat16) {
  const Format f = Format::bfloat16;
  EXPECT_BITS(0x1p-133, round_to_format(0x1p-133, f));
  EXPECT_BITS(0.0, round_to_format(0x1p-134, f));
  EXPECT_BITS(0x1p-132, round_to_format(0x3p-134, f));
  EXPECT_BITS((2 - 0x1p-7) * 0x1p127, round_to_format((2 - 0x1p-7) * 0x1p127, f));
  EXPECT_BITS((2 - 0x1p-7) * 0x1p127, round_to_format((2 - 0x1.1p-8) * 0x1p127, f));
  EXPECT_BITS(INFINITY, round_to_format((2 - 0x1p-8) * 0x1p127, f));
  EXPECT_BITS(1.0, round_to_format(1 + 0x1p-8, f));
  EXPECT_BITS(1 + 0x1p-6, round_to_format(1 + 0x3p-8, f));
  EXPECT_BITS(-(1 + 0x1p-7), round_to_format(-(1 + 0x1.8p-8), f));
}

TEST(RoundToFormat, Binary32AndBinary64) {
  EXPECT_BITS(0.0, round_to_format(0x1p-150, Format::binary32));
  EXPECT_BITS(0x1p-148, round_to_format(0x3p-150, Format::binary32));
  EXPECT_BITS(0x1p-149, round_to_format(0x1.0000000001p-150, Format::binary32));
  EXPECT_BITS(INFINITY, round_to_format((2 - 0x1p-24) * 0x1p127, Format::binary32));
  EXPECT_BITS(FLT_MAX, round_to_format((2 - 0x1.1p-24) * 0x1p127, Format::binary32));
  for (double x : {0x1p-1074, -DBL_MAX, 0.1, -0.0})
    EXPECT_BITS(x, round_to_format(x, Format::binary64));
  for (Format f : {Format::binary64, Format::binary32, Format::binary16, Format::bfloat16}) {
    EXPECT_TRUE(std::isnan(round_to_format(NAN, f)));
    EXPECT_BITS(-INFINITY, round_to_format(-INFINITY, f));
    EXPECT_BITS(-0.0, round_to_format(-0.0, f));
    if (f != Format::binary64) {
      EXPECT_BITS(-0.0, round_to_format(-0x1p-1074, f));
    }
  }
}

TEST(ParseReal, AcceptsAndRefuses) {
  EXPECT_BITS(3.0, *parse_real("0x1.8p+1"));
  EXPECT_BITS(-2.5, *parse_real("  -2.5 \t"));
  EXPECT_BITS(0x1p-1074, *parse_real("0x1p-1074"));
  EXPECT_BITS(0.1, *parse_real("0.1"));
  EXPECT_BITS(INFINITY, *parse_real("inf"));
  EXPECT_BITS(-INFINITY, *parse_real("-INF"));
  EXPECT_TRUE(std::isnan(*parse_real("NaN")));
  EXPECT_BITS(0.0, *parse_real("1e-400"));     // underflow: nearest is +0
  EXPECT_BITS(INFINITY, *parse_real("1e400"));  // overflow: nearest is inf
  EXPECT_BITS(-0.0, *parse_real("-0"));
  for (const char* bad : {"", "   ", "abc", "1.0x", "1 2", "--1", "1e", "0x", "nan(1)", "1,5"})
    EXPECT_FALSE(parse_real(bad).has_value()) << "'" << bad << "'";
}

TEST(Hexfloat, PrintsAndRoundTrips) {
  EXPECT_EQ(hexfloat(3.0), "0x1.8p+1");
  EXPECT_EQ(hexfloat(-0.0), "-0x0p+0");
  EXPECT_EQ(hexfloat(INFINITY), "inf");
  EXPECT_EQ(hexfloat(-INFINITY), "-inf");
  EXPECT_EQ(hexfloat(NAN), "nan");
  for (double x : {0x1p-1074, 0x1.fffffffffffffp-1023, DBL_MAX, -0.1, 1.0 / 3})
    EXPECT_BITS(x, *parse_real(hexfloat(x)));
}

TEST(SameBits, ZerosAndNaNs) {
  EXPECT_FALSE(same_bits(0.0, -0.0));
  EXPECT_TRUE(same_bits(std::nan(""), -std::nan("")));
  EXPECT_FALSE(same_bits(std::nan(""), 1.0));
  EXPECT_TRUE(same_bits(0.0f, 0.0f));
  EXPECT_FALSE(same_bits(0.0f, -0.0f));
}

TEST(DecimalRoundtrip, ShortestThatRoundTrips) {
  EXPECT_EQ(decimal_roundtrip(0.1, Format::binary64), "0.1");
  EXPECT_EQ(decimal_roundtrip(65504, Format::binary16), "6.55e+04");  // 65500 → 65504: shortest
  const double x = round_to_format(0.1, Format::binary16);
  EXPECT_BITS(x, round_to_format(*parse_real(decimal_roundtrip(x, Format::binary16)), Format::binary16));
}

}  // namespace
}  // namespace gelucheck
