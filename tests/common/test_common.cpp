// common.cpp: round_to_format (subnormals, overflow, ties to even) with hand-derived results,
// parse_real, hexfloat, same_bits; to_bits/from_bits against the hardware's conversions.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

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

// glibc's strtod honours the rounding mode, for decimal and hex input: what parse_real(s, fmt)
// builds its enclosure on. 0x1.00000000000008p+0 = 1 + 2^-53 is the midpoint of 1 and 1 + 2^-52.
TEST(ParseRealInFormat, StrtodHonoursTheRoundingMode) {
  const int saved = std::fegetround();
  const auto in_mode = [](int mode, const char* s) {
    std::fesetround(mode);
    const double v = std::strtod(s, nullptr);
    std::fesetround(FE_TONEAREST);
    return v;
  };
  EXPECT_BITS(1.0, in_mode(FE_DOWNWARD, "0x1.00000000000008p+0"));
  EXPECT_BITS(1 + 0x1p-52, in_mode(FE_UPWARD, "0x1.00000000000008p+0"));
  EXPECT_BITS(0x1.9999999999999p-4, in_mode(FE_DOWNWARD, "0.1"));  // 0.1 = 0x1.99999…p-4
  EXPECT_BITS(0x1.999999999999ap-4, in_mode(FE_UPWARD, "0.1"));
  EXPECT_BITS(-0x1.999999999999ap-4, in_mode(FE_DOWNWARD, "-0.1"));
  EXPECT_BITS(DBL_MAX, in_mode(FE_DOWNWARD, "1e400"));
  EXPECT_BITS(0x1p-1074, in_mode(FE_UPWARD, "1e-400"));
  EXPECT_BITS(-0.0, in_mode(FE_UPWARD, "-1e-400"));
  std::fesetround(saved);
}

TEST(ParseRealInFormat, ReviewersRepros) {
  // 1 + 2^-24 = 1.000000059604644775390625 is the binary32 midpoint between 1 and 1 + 2^-23;
  // the string is above it by 1e-32, so the nearest binary32 is 1 + 2^-23. Rounding first to
  // binary64 lands exactly on the midpoint and ties to 1: the old double rounding.
  EXPECT_BITS(0x1.000002p+0, *parse_real("1.00000005960464477539062500000001", Format::binary32));
  // 1 + 2^-11 = 1.00048828125 is the binary16 midpoint between 1 and 1 + 2^-10.
  EXPECT_BITS(0x1.004p+0, *parse_real("1.00048828125000000000000001", Format::binary16));
  // The restored mode: parse_real(s, fmt) leaves round-to-nearest behind.
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

// A hex float with 60 significant bits: 1 + 2^-24 + 2^-60 rounds to 1 + 2^-24 in binary64 (a
// binary32 midpoint, tie → 1), but it is above the midpoint, so binary32 gives 1 + 2^-23.
TEST(ParseRealInFormat, HexFloatsWithMoreBitsThanADouble) {
  EXPECT_BITS(0x1.000002p+0, *parse_real("0x1.000001000000001p+0", Format::binary32));
  EXPECT_BITS(1.0, *parse_real("0x1.000000fffffffffp+0", Format::binary32));
  EXPECT_BITS(1.0, *parse_real("0x1.000001p+0", Format::binary32));             // tie → even 1
  EXPECT_BITS(0x1.000004p+0, *parse_real("0x1.000003p+0", Format::binary32));   // tie → even
  EXPECT_BITS(-0x1.004p+0, *parse_real("-0x1.002000000000001p+0", Format::binary16));
  EXPECT_BITS(0x1.02p+0, *parse_real("0x1.010000000000001p+0", Format::bfloat16));
  EXPECT_BITS(1.0, *parse_real("0x1.010000000000000p+0", Format::bfloat16));
}

// The exact decimal of a double (glibc prints it exactly given enough digits), as "d.ddd" and
// exponent, trailing zeros removed.
struct Decimal {
  std::string mantissa, exponent;
};
Decimal exact_decimal(double x) {
  char buf[1200];
  std::snprintf(buf, sizeof buf, "%.1100e", x);
  std::string s(buf);
  const auto e = s.find('e');
  std::string m = s.substr(0, e);
  while (m.back() == '0') m.pop_back();
  if (m.back() == '.') m += '0';
  return {m, s.substr(e)};
}
// A number 1e-30 (relative, about) above |x|: digits appended after the exact expansion.
std::string just_above(double x) {
  const Decimal d = exact_decimal(x);
  return d.mantissa + "000000000000000000000000000001" + d.exponent;
}
// About 1e-30 below |x| (x != 0): the last nonzero digit lowered by one, then thirty 9s.
std::string just_below(double x) {
  Decimal d = exact_decimal(x);
  const auto i = d.mantissa.find_last_not_of("0.");
  d.mantissa[i] = static_cast<char>(d.mantissa[i] - 1);
  return d.mantissa + "999999999999999999999999999999" + d.exponent;
}

// Ties, and strings just above / below the boundaries of every format: between 0 and the least
// subnormal, in the subnormals, at the subnormal/normal seam, at a binade seam, around 1, at the
// overflow threshold; both signs. Expected values by hand: the strings above a boundary give
// the upper neighbour, below give the lower, exactly on it the neighbour with even significand
// (an integer multiple of the quantum q = hi - lo: even when (lo / q) is even, hi otherwise;
// beyond the largest finite value the upper neighbour is inf, "even" by IEEE 754's rule).
TEST(ParseRealInFormat, TiesAndBoundariesOfEveryFormat) {
  for (Format f : {Format::binary32, Format::binary16, Format::bfloat16}) {
    const FormatInfo fi = info(f);
    const double sub = std::ldexp(1.0, fi.emin - fi.precision + 1);   // least subnormal
    const double normal = std::ldexp(1.0, fi.emin);                   // least normal
    const double ulp1 = std::ldexp(1.0, 1 - fi.precision);            // quantum of [1, 2)
    const double maxf = std::ldexp(2 - ulp1, fi.emax);
    struct Pair { double lo, hi; };
    const Pair pairs[] = {
        {0, sub}, {sub, 2 * sub}, {5 * sub, 6 * sub}, {normal - sub, normal},
        {normal, normal + sub}, {1 - ulp1 / 2, 1}, {1, 1 + ulp1}, {1 + ulp1, 1 + 2 * ulp1},
        {std::ldexp(1 + 5 * ulp1, 7), std::ldexp(1 + 6 * ulp1, 7)},
        {maxf - std::ldexp(ulp1, fi.emax), maxf}, {maxf, INFINITY}};
    for (const Pair& p : pairs) {
      const double q = std::isinf(p.hi) ? std::ldexp(ulp1, fi.emax) : p.hi - p.lo;
      const double mid = p.lo + q / 2;  // exact: p + 1 bits
      const bool lo_even = std::isinf(p.hi) ? false : std::fmod(p.lo / q, 2.0) == 0;
      const double tie = lo_even ? p.lo : p.hi;
      for (double sign : {1.0, -1.0}) {
        const std::string sg = sign < 0 ? "-" : "";
        const std::string exact = sg + exact_decimal(mid).mantissa + exact_decimal(mid).exponent;
        const std::string above = sg + just_above(mid), below = sg + just_below(mid);
        SCOPED_TRACE(std::string(name(f)) + " between " + hexfloat(sign * p.lo) + " and " +
                     hexfloat(sign * p.hi));
        EXPECT_BITS(sign * tie, *parse_real(exact, f)) << exact;
        EXPECT_BITS(sign * p.hi, *parse_real(above, f)) << above;
        EXPECT_BITS(sign * p.lo, *parse_real(below, f)) << below;
        // Hex spelling of the midpoint: the same tie.
        EXPECT_BITS(sign * tie, *parse_real(hexfloat(sign * mid), f));
        // binary64 unchanged: the old one-argument parse, bit for bit.
        for (const std::string& s : {exact, above, below})
          EXPECT_BITS(*parse_real(s), *parse_real(s, Format::binary64)) << s;
      }
    }
  }
}

TEST(ParseRealInFormat, OverflowThresholdsZerosAndSpecials) {
  const Format h = Format::binary16;
  EXPECT_BITS(INFINITY, *parse_real("65520", h));  // midpoint of 65504 and 2^16: even → inf
  EXPECT_BITS(65504.0, *parse_real("65519.999999999999999999", h));
  EXPECT_BITS(-65504.0, *parse_real("-65519.999999999999999999", h));
  EXPECT_BITS(INFINITY, *parse_real("65520.000000000000000001", h));
  EXPECT_BITS(INFINITY, *parse_real("1e400", Format::binary32));
  EXPECT_BITS(-INFINITY, *parse_real("-1e400", Format::bfloat16));
  EXPECT_BITS(FLT_MAX, *parse_real("340282356779733661637539395458142568447.99999", Format::binary32));
  EXPECT_BITS(INFINITY, *parse_real("340282356779733661637539395458142568448", Format::binary32));
  for (Format f : {Format::binary64, Format::binary32, Format::binary16, Format::bfloat16}) {
    EXPECT_BITS(-0.0, *parse_real("-0", f));
    EXPECT_BITS(0.0, *parse_real("0x0p+0", f));
    EXPECT_BITS(-0.0, *parse_real("-1e-400", f));
    EXPECT_BITS(0.0, *parse_real("1e-400", f));
    EXPECT_BITS(-INFINITY, *parse_real("-inf", f));
    EXPECT_TRUE(std::isnan(*parse_real("nan", f)));
    for (const char* bad : {"", "abc", "1.0x", "nan(1)", "1,5"})
      EXPECT_FALSE(parse_real(bad, f).has_value()) << "'" << bad << "'";
  }
  // binary64 unchanged, including its own midpoint 1 + 2^-53 (tie → 1) and just above it.
  EXPECT_BITS(1.0, *parse_real("1.00000000000000011102230246251565404236316680908203125",
                               Format::binary64));
  EXPECT_BITS(1 + 0x1p-52,
              *parse_real("1.000000000000000111022302462515654042363166809082031250001",
                          Format::binary64));
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

// to_bits / from_bits against the hardware's own conversions as the independent path: binary32
// through float, bfloat16 as the top half of a binary32 encoding, binary16 through GCC's and
// Clang's _Float16 (IEEE binary16 on x86-64).
double hardware_value(std::uint64_t b, Format fmt) {
  switch (fmt) {
    case Format::binary64: return std::bit_cast<double>(b);
    case Format::binary32: return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
    case Format::bfloat16:
      return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(b << 16)));
    case Format::binary16:
      return static_cast<double>(std::bit_cast<_Float16>(static_cast<std::uint16_t>(b)));
  }
  return NAN;
}

TEST(FormatBits, EverySixteenBitPatternBothWays) {
  for (Format fmt : {Format::binary16, Format::bfloat16}) {
    for (std::uint64_t b = 0; b < 0x10000; ++b) {
      const double v = from_bits(b, fmt);
      const double hw = hardware_value(b, fmt);
      ASSERT_TRUE(same_bits(v, hw) || (std::isnan(v) && std::isnan(hw)))
          << name(fmt) << " pattern " << b << ": from_bits " << hexfloat(v) << ", hardware "
          << hexfloat(hw);
      ASSERT_EQ(std::signbit(v), std::signbit(hw)) << name(fmt) << " pattern " << b;
      const std::optional<std::uint64_t> back = to_bits(v, fmt);
      ASSERT_TRUE(back.has_value()) << name(fmt) << " pattern " << b;
      ASSERT_EQ(*back, b) << name(fmt) << " " << hexfloat(v);  // NaN payloads included
    }
  }
}

TEST(FormatBits, Binary32AndBinary64Sampled) {
  // Every exponent with a spread of fractions and both signs: the stride 0x10001 (odd) visits
  // 65536 patterns spread over all 2^32.
  for (std::uint64_t b = 5; b <= 0xffffffffu; b += 0x10001) {
    const double v = from_bits(b, Format::binary32);
    const double hw = hardware_value(b, Format::binary32);
    if (std::isnan(hw)) {
      ASSERT_TRUE(std::isnan(v)) << b;
    } else {
      ASSERT_TRUE(same_bits(v, hw)) << b << ": " << hexfloat(v) << " vs " << hexfloat(hw);
    }
    ASSERT_EQ(to_bits(v, Format::binary32), b) << hexfloat(v);
  }
  for (double x : {0.0, -0.0, 0x1p-1074, -DBL_MAX, double{INFINITY}, 1.0 / 3}) {
    EXPECT_EQ(to_bits(x, Format::binary64), bits(x));
    EXPECT_BITS(x, from_bits(bits(x), Format::binary64));
  }
}

TEST(FormatBits, KnownEncodings) {
  EXPECT_EQ(to_bits(1.0, Format::binary16), 0x3c00u);
  EXPECT_EQ(to_bits(65504.0, Format::binary16), 0x7bffu);     // the greatest binary16
  EXPECT_EQ(to_bits(0x1p-24, Format::binary16), 0x0001u);     // the least subnormal
  EXPECT_EQ(to_bits(-0.0, Format::binary16), 0x8000u);
  EXPECT_EQ(to_bits(1.0, Format::bfloat16), 0x3f80u);
  EXPECT_EQ(to_bits(-0x1.fep127, Format::bfloat16), 0xff7fu);  // the least bfloat16
  EXPECT_EQ(to_bits(0x1p-133, Format::bfloat16), 0x0001u);     // its least subnormal
  EXPECT_EQ(to_bits(-INFINITY, Format::binary32), 0xff800000u);
  // Not values of the format: one bit too many, below the least subnormal, beyond the greatest.
  EXPECT_FALSE(to_bits(1 + 0x1p-11, Format::binary16).has_value());
  EXPECT_FALSE(to_bits(0x1p-25, Format::binary16).has_value());
  EXPECT_FALSE(to_bits(65520.0, Format::binary16).has_value());
  EXPECT_FALSE(to_bits(1 + 0x1p-8, Format::bfloat16).has_value());
  EXPECT_FALSE(to_bits(1 + 0x1p-24, Format::binary32).has_value());
  // NaNs: the default quiet NaN and its negation; a binary64 NaN whose payload lies below the
  // kept bits stays a NaN (quiet bit set) rather than turning into infinity.
  EXPECT_EQ(to_bits(std::nan(""), Format::binary16), 0x7e00u);
  EXPECT_EQ(to_bits(-std::nan(""), Format::bfloat16), 0xffc0u);
  EXPECT_EQ(to_bits(std::bit_cast<double>(std::uint64_t{0x7ff0000000000001}), Format::binary32),
            0x7fc00000u);
  EXPECT_THROW(from_bits(0x10000, Format::binary16), std::invalid_argument);
  EXPECT_THROW(from_bits(std::uint64_t{1} << 32, Format::binary32), std::invalid_argument);
}

}  // namespace
}  // namespace gelucheck

namespace gelucheck {
namespace {
// ldexp_fast against std::ldexp, bit for bit: both signs, normal and subnormal x, ±0, ±inf, NaN,
// and k across the multiplication's range, the call's, and the far-below zero (k < -2100).
TEST(LdexpFast, EqualsStdLdexp) {
  const double xs[] = {1.0, -1.0, 0x1.fffffffffffffp+1023, -0x1p-1074, 0x1.8p-1022, 0x1.234p+5,
                       0.0, -0.0, INFINITY, -INFINITY, NAN};
  const long ks[] = {-100000, -3000, -2101, -2100, -2099, -2000, -1100, -1075, -1074, -1023,
                     -1022, -1, 0, 1, 1023, 1024, 2000, 100000};
  for (double x : xs)
    for (long k : ks) {
      const double want = std::ldexp(x, static_cast<int>(k));
      EXPECT_TRUE(same_bits(ldexp_fast(x, k), want)) << hexfloat(x) << " k " << k;
    }
}

// next_in, the one neighbour function: nextafter in binary64/binary32, the next bit pattern in the
// 16-bit formats (sign-magnitude), the least subnormal of the sign from a zero.
TEST(NextIn, EveryFormat) {
  EXPECT_EQ(next_in(Format::binary64, 1.0, 2.0), 1.0 + 0x1p-52);
  EXPECT_EQ(next_in(Format::binary32, 1.0, 0.0), 1.0 - 0x1p-24);
  EXPECT_EQ(next_in(Format::bfloat16, 1.0, 2.0), 1.0 + 0x1p-7);
  EXPECT_EQ(next_in(Format::binary16, -1.0, -2.0), -(1.0 + 0x1p-10));
  EXPECT_EQ(next_in(Format::binary16, -1.0, 0.0), -(1.0 - 0x1p-11));
  EXPECT_EQ(next_in(Format::binary16, 0.0, -1.0), -0x1p-24);
  EXPECT_EQ(next_in(Format::bfloat16, -0.0, 1.0), 0x1p-133);
  EXPECT_EQ(next_in(Format::binary16, 65504.0, INFINITY), INFINITY);
  EXPECT_EQ(next_in(Format::bfloat16, INFINITY, INFINITY), INFINITY);
  EXPECT_TRUE(std::isnan(next_in(Format::binary32, NAN, 0.0)));
}

// binary32's next_in works on the bits; libm's nextafterf is the oracle, bit for bit: every 4099th
// pattern (both signs, subnormals, every binade) and the patterns beside each edge (±0, the least
// subnormal, the least normal, 1, FLT_MAX, ±inf), toward ±inf, ±0, ±1, itself and a double that
// rounds to itself.
TEST(NextIn, Binary32IsNextafterf) {
  std::vector<std::uint32_t> pats;
  for (std::uint64_t p = 0; p < (std::uint64_t{1} << 32); p += 4099) pats.push_back(static_cast<std::uint32_t>(p));
  for (std::uint32_t edge : {0x00000000u, 0x00000001u, 0x00800000u, 0x3f800000u, 0x7f7fffffu, 0x7f800000u})
    for (std::uint32_t sign : {0u, 0x80000000u})
      for (int d = -2; d <= 2; ++d) pats.push_back((edge | sign) + static_cast<std::uint32_t>(d));
  std::size_t checked = 0;
  for (std::uint32_t p : pats) {
    const float f = std::bit_cast<float>(p);
    if (std::isnan(f)) continue;
    const double x = f;
    for (double t : {kInf, -kInf, 0.0, -0.0, 1.0, -1.0, x, x * (1 + 0x1p-40)}) {
      // x itself when x == t (its contract; nextafterf gives t, so -0 toward +0 differs).
      const double want = x == t ? x : static_cast<double>(std::nextafter(f, static_cast<float>(t)));
      ASSERT_TRUE(same_bits(next_in(Format::binary32, x, t), want))
          << hexfloat(x) << " toward " << hexfloat(t);
      ++checked;
    }
  }
  EXPECT_GT(checked, 8000000u);
}
}  // namespace
}  // namespace gelucheck
