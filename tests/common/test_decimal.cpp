// decimal_roundtrip(x, fmt): the shortest decimal that parse_real(s, fmt) reads back as x.
//  * binary16 and bfloat16, every value: it reads back, and no decimal with fewer significant
//    digits does. "Fewer digits would not do" is decided by exact rational arithmetic
//    (Boost.Multiprecision): the decimals that read back as x are those in the rounding interval
//    of x — from the midpoint with its lower neighbour to the midpoint with its upper one, ends
//    included when x's significand is even (ties to even) — and one with k digits D·10^q lies in
//    it iff some integer D in [10^(k-1), 10^k) is in [lo/10^q, hi/10^q].
//  * binary32 and binary64, which take std::to_chars' shortest form (Ryu in libstdc++): the same
//    string, digits and layout, as the printf-and-strtod search the other formats use, on random
//    values and at every binade's and power of ten's edge; for binary32 also the fewest digits by
//    the rational interval.
#include <gtest/gtest.h>

#include <bit>
#include <boost/multiprecision/cpp_int.hpp>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

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
  // printf's %g layout with as many digits as the decimal has: fixed from exponent -4 up to one
  // below the digit count, else scientific with two exponent digits or more. (to_chars' own
  // general layout differs on the first three: "100000", "1.234567e+06", "1.6777216e+07".)
  EXPECT_EQ(decimal_roundtrip(100000, Format::binary32), "1e+05");
  EXPECT_EQ(decimal_roundtrip(1234567, Format::binary32), "1234567");
  EXPECT_EQ(decimal_roundtrip(0x1p24, Format::binary32), "16777216");
  EXPECT_EQ(decimal_roundtrip(0x1p-149, Format::binary32), "1e-45");
  EXPECT_EQ(decimal_roundtrip(static_cast<float>(0.0001), Format::binary32), "0.0001");
  EXPECT_EQ(decimal_roundtrip(static_cast<float>(-1.5e-5), Format::binary32), "-1.5e-05");
  EXPECT_EQ(decimal_roundtrip(0x1.fffffep127, Format::binary32), "3.4028235e+38");
  EXPECT_EQ(decimal_roundtrip(1e100, Format::binary64), "1e+100");
}

// The search decimal_roundtrip did for binary32 and binary64 before they went to std::to_chars,
// kept here as the independent oracle (printf and strtod, not Ryu): "%.*g" with d = 1, 2, ...
// significant digits, under round to nearest first, then downward, then upward; the first that
// parse_real(s, fmt) reads back as x.
std::string search_oracle(double x, Format fmt) {
  const int maxdig = fmt == Format::binary64 ? 17 : 9;
  char buf[64];
  const int saved = std::fegetround();
  for (int d = 1; d <= maxdig; ++d)
    for (int mode : {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD}) {
      std::fesetround(mode);
      std::snprintf(buf, sizeof buf, "%.*g", d, x);
      std::fesetround(saved);
      const std::optional<double> back = parse_real(buf, fmt);
      if (back && same_bits(*back, x)) return buf;
    }
  return "(none)";
}

// decimal_roundtrip(x, fmt) for a value x of binary32 or binary64: the oracle's string to the
// letter (digits and layout), reading back as x; for binary32 also as few digits as the rounding
// interval allows (fewest_digits, exact rationals: it needs ulp/4 to be a double, which binary64's
// least subnormals' is not).
void check_against_search(double x, Format fmt, int& failures) {
  const std::string ours = decimal_roundtrip(x, fmt), oracle = search_oracle(x, fmt);
  const std::optional<double> back = parse_real(ours, fmt);
  std::string wrong;
  if (ours != oracle) wrong = "the search gives \"" + oracle + "\"";
  else if (!back || !same_bits(*back, x)) wrong = "does not read back";
  else if (fmt == Format::binary32 && std::isfinite(x) && x != 0 &&
           significant_digits(ours) != fewest_digits(x, fmt))
    wrong = "the shortest has " + std::to_string(fewest_digits(x, fmt)) + " digits";
  if (wrong.empty()) return;
  ADD_FAILURE() << name(fmt) << " " << hexfloat(x) << ": \"" << ours << "\": " << wrong;
  ++failures;
}

// The values where a decimal's length or layout changes: each binade's first value and its
// neighbours (a power of two's interval is lopsided), each power of ten's nearest value and its
// neighbours (%g turns from fixed to scientific at exponents -5 and the digit count), the
// format's extremes, all of either sign.
template <typename T>
std::vector<T> edges() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {L::denorm_min(), L::min(), L::max(), L::infinity(), T(0)};
  const auto around = [&v](T c) {
    for (T y : {std::nextafter(c, T(0)), c, std::nextafter(c, L::infinity())}) v.push_back(y);
  };
  for (int e = L::min_exponent - L::digits; e < L::max_exponent; ++e) around(std::ldexp(T(1), e));
  for (int k = L::min_exponent10 - L::digits10 - 2; k <= L::max_exponent10; ++k)
    around(static_cast<T>(std::pow(10.0L, k)));
  for (std::size_t i = 0, n = v.size(); i < n; ++i) v.push_back(-v[i]);
  return v;
}

TEST(DecimalRoundtrip, Binary32MatchesTheSearchAndIsShortest) {
  int failures = 0;
  for (float f : edges<float>()) check_against_search(f, Format::binary32, failures);
  std::mt19937 g(20261201);  // fixed: the same samples every run
  for (int i = 0; i < 100000 && failures < 10; ++i) {
    const auto f = std::bit_cast<float>(static_cast<std::uint32_t>(g()));
    if (!std::isnan(f)) check_against_search(f, Format::binary32, failures);
  }
}

TEST(DecimalRoundtrip, Binary64MatchesTheSearch) {
  int failures = 0;
  for (double d : edges<double>()) check_against_search(d, Format::binary64, failures);
  std::mt19937_64 g(20261201);
  for (int i = 0; i < 40000 && failures < 10; ++i) {
    const auto d = std::bit_cast<double>(g());
    if (!std::isnan(d)) check_against_search(d, Format::binary64, failures);
  }
}

}  // namespace
}  // namespace gelucheck
