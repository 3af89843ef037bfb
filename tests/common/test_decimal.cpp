// decimal_roundtrip(x, fmt): the shortest decimal that parse_real(s, fmt) reads back as x.
//  * binary16 and bfloat16, every value: it reads back, and no decimal with fewer significant
//    digits does. "Fewer digits would not do" is decided by exact rational arithmetic
//    (Boost.Multiprecision): the decimals that read back as x are those in the rounding interval
//    of x — from the midpoint with its lower neighbour to the midpoint with its upper one, ends
//    included when x's significand is even (ties to even) — and one with k digits D·10^q lies in
//    it iff some integer D in [10^(k-1), 10^k) is in [lo/10^q, hi/10^q].
//  * binary32 and binary64, samples over every binade: the same digits as std::to_chars' shortest
//    form (an independent implementation, Ryu in libstdc++).
#include <gtest/gtest.h>

#include <bit>
#include <boost/multiprecision/cpp_int.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

#include "gelucheck/common.hpp"

namespace gelucheck {
namespace {

using boost::multiprecision::cpp_int;
using boost::multiprecision::cpp_rational;

// Significant digits of a %g or to_chars string: the mantissa's digits, leading and trailing
// zeros left out ("0.00120" → 2, "1.85e+19" → 3).
int significant_digits(const std::string& s) {
  std::string digits;
  for (char c : s) {
    if (c == 'e' || c == 'E') break;
    if (c >= '0' && c <= '9') digits += c;
  }
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 1;  // "0"
  const auto last = digits.find_last_not_of('0');
  return static_cast<int>(last - first + 1);
}

cpp_rational exact(double v) {  // v > 0, a dyadic rational
  int e = 0;
  const double m = std::frexp(v, &e);  // v = m·2^e, m in [0.5, 1): m·2^53 is an integer
  cpp_rational r(static_cast<std::int64_t>(std::ldexp(m, 53)));
  const int shift = e - 53;
  if (shift >= 0) r *= cpp_rational(cpp_int(1) << shift);
  else r /= cpp_rational(cpp_int(1) << -shift);
  return r;
}

cpp_rational pow10(int q) {
  cpp_int p = 1;
  for (int i = 0; i < std::abs(q); ++i) p *= 10;
  return q >= 0 ? cpp_rational(p) : cpp_rational(1) / cpp_rational(p);
}

cpp_int floor_of(const cpp_rational& r) {  // r >= 0
  return boost::multiprecision::numerator(r) / boost::multiprecision::denominator(r);
}

// The fewest significant digits of a decimal that rounds to nearest-even to x in fmt (x finite,
// nonzero), by the rounding interval.
int fewest_digits(double x, Format fmt) {
  const FormatInfo fi = info(fmt);
  const double a = std::fabs(x);
  const int e = std::max(std::ilogb(a), fi.emin);
  const double ulp = std::ldexp(1.0, e - fi.precision + 1);
  const auto m = static_cast<std::int64_t>(a / ulp);  // the integer significand
  const bool power_of_two = m == (std::int64_t{1} << (fi.precision - 1)) && e > fi.emin;
  const cpp_rational lo = exact(a) - exact(power_of_two ? ulp / 4 : ulp / 2);
  const cpp_rational hi = exact(a) + exact(ulp / 2);
  const bool closed = m % 2 == 0;
  const int decade = static_cast<int>(std::floor(std::log10(a)));
  for (int k = 1; k <= 20; ++k)
    for (int q = decade - k - 1; q <= decade - k + 2; ++q) {
      const cpp_rational l = lo / pow10(q), h = hi / pow10(q);
      cpp_int dmin = floor_of(l), dmax = floor_of(h);
      if (cpp_rational(dmin) < l || (!closed && cpp_rational(dmin) == l)) dmin += 1;
      if (!closed && cpp_rational(dmax) == h) dmax -= 1;
      cpp_int lo_k = 1, hi_k;
      for (int i = 1; i < k; ++i) lo_k *= 10;
      hi_k = lo_k * 10 - 1;
      if (dmin < lo_k) dmin = lo_k;
      if (dmax > hi_k) dmax = hi_k;
      if (dmin <= dmax) return k;
    }
  return -1;
}

void check_exhaustive(Format fmt, double (*decode)(std::uint16_t)) {
  int failures = 0;
  for (std::uint32_t b = 0; b < 0x10000 && failures < 10; ++b) {
    const double x = decode(static_cast<std::uint16_t>(b));
    const std::string s = decimal_roundtrip(x, fmt);
    const std::optional<double> back = parse_real(s, fmt);
    if (!back || !same_bits(*back, x)) {
      ADD_FAILURE() << name(fmt) << " " << hexfloat(x) << ": \"" << s << "\" reads back as "
                    << (back ? hexfloat(*back) : "nothing");
      ++failures;
      continue;
    }
    if (!std::isfinite(x) || x == 0) continue;
    const int want = fewest_digits(x, fmt), got = significant_digits(s);
    if (got != want) {
      ADD_FAILURE() << name(fmt) << " " << hexfloat(x) << ": \"" << s << "\" has " << got
                    << " significant digits, the shortest that reads back has " << want;
      ++failures;
    }
  }
}

double binary16_value(std::uint16_t b) {
  const int sign = b >> 15, exp = (b >> 10) & 0x1f, frac = b & 0x3ff;
  double v;
  if (exp == 0x1f) v = frac ? NAN : INFINITY;
  else if (exp == 0) v = std::ldexp(frac, -24);
  else v = std::ldexp(1024 + frac, exp - 25);
  return sign ? -v : v;
}

double bfloat16_value(std::uint16_t b) {
  return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16));
}

TEST(DecimalRoundtrip, EveryBinary16ValueShortest) { check_exhaustive(Format::binary16, binary16_value); }
TEST(DecimalRoundtrip, EveryBfloat16ValueShortest) { check_exhaustive(Format::bfloat16, bfloat16_value); }

TEST(DecimalRoundtrip, KnownCases) {
  // 2^64 in bfloat16: its neighbours are 2^64 - 2^56 and 2^64 + 2^57, so the interval is
  // [2^64 - 2^55, 2^64 + 2^56] = [1.8411e19, 1.8519e19]: 1.85e19 is in it, 1.84e19 and 1.8e19,
  // 1.9e19 are not.
  EXPECT_EQ(decimal_roundtrip(0x1p64, Format::bfloat16), "1.85e+19");
  EXPECT_EQ(decimal_roundtrip(0.1, Format::binary64), "0.1");
  EXPECT_EQ(decimal_roundtrip(65504, Format::binary16), "6.55e+04");  // 65500 → 65504
  EXPECT_EQ(decimal_roundtrip(-0.0, Format::binary32), "-0");
  EXPECT_EQ(decimal_roundtrip(0.0, Format::binary16), "0");
  EXPECT_EQ(decimal_roundtrip(-INFINITY, Format::binary64), "-inf");
  EXPECT_EQ(decimal_roundtrip(NAN, Format::bfloat16), "nan");
  EXPECT_EQ(decimal_roundtrip(0x1p-1074, Format::binary64), "5e-324");
  EXPECT_EQ(decimal_roundtrip(0x1p-24, Format::binary16), "6e-08");
}

template <typename T>
void check_against_to_chars(Format fmt, T v) {
  const double x = static_cast<double>(v);
  const std::string ours = decimal_roundtrip(x, fmt);
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string theirs(buf, r.ptr);
  EXPECT_EQ(significant_digits(ours), significant_digits(theirs))
      << name(fmt) << " " << hexfloat(x) << ": \"" << ours << "\" vs to_chars \"" << theirs << "\"";
  // Same digits, not only as many: both the nearer of the shortest.
  EXPECT_EQ(std::strtold(ours.c_str(), nullptr), std::strtold(theirs.c_str(), nullptr))
      << name(fmt) << " " << hexfloat(x) << ": \"" << ours << "\" vs to_chars \"" << theirs << "\"";
  EXPECT_TRUE(same_bits(*parse_real(ours, fmt), x)) << ours;
}

TEST(DecimalRoundtrip, Binary32AndBinary64AgreeWithToChars) {
  std::mt19937_64 g(20261201);  // fixed: the same samples every run
  for (int i = 0; i < 40000 && !::testing::Test::HasFailure(); ++i) {
    const auto d = std::bit_cast<double>(g());
    const auto f = std::bit_cast<float>(static_cast<std::uint32_t>(g()));
    if (std::isfinite(d) && d != 0) check_against_to_chars(Format::binary64, d);
    if (std::isfinite(f) && f != 0) check_against_to_chars(Format::binary32, f);
  }
  // Every power of two (where the interval is lopsided) and the edges of each format.
  for (int e = -1074; e <= 1023; ++e) check_against_to_chars(Format::binary64, std::ldexp(1.0, e));
  for (int e = -149; e <= 127; ++e) check_against_to_chars(Format::binary32, std::ldexp(1.0f, e));
  check_against_to_chars(Format::binary64, 0x1.fffffffffffffp1023);
  check_against_to_chars(Format::binary32, 0x1.fffffep127f);
  check_against_to_chars(Format::binary64, -0x1.fffffffffffffp-1023);
}

}  // namespace
}  // namespace gelucheck
