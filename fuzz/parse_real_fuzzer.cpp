// Fuzz target: the number parser, parse_real(s, fmt) in every format (gelucheck/common.hpp), on
// any bytes. Beyond "no crash, no sanitizer report" it checks what the parser promises:
//  * the same strings parse in every format (one syntax), and NaN in one is NaN in all;
//  * the result is a value of the format (round_to_format leaves it unchanged), with the sign
//    of the binary64 result (rounding to nearest keeps the sign, of zero too);
//  * ONE rounding, the nearest (ties to even): where the binary64 result is not itself a
//    boundary of the format (the midpoint of two adjacent values, or the overflow threshold)
//    the result is the binary64 result rounded again; where it is one, the string is compared
//    with that boundary EXACTLY (big integers, Boost.Multiprecision: an independent path, not
//    the parser's directed roundings) and the result must be the value on the string's side of
//    it, or the even one when the string is the boundary itself;
//  * it round-trips: its C99 hex float and its shortest decimal (decimal_roundtrip) read back
//    as the same value;
//  * the rounding mode is left as it was found (parse_real changes it inside).
#include <boost/multiprecision/cpp_int.hpp>
#include <algorithm>
#include <cctype>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "gelucheck/common.hpp"

namespace {

using namespace gelucheck;

[[noreturn]] void fail(std::string_view input, Format fmt, const char* what, double a, double b) {
  std::string shown;
  for (unsigned char c : input.substr(0, 200)) {
    char buf[8];
    std::snprintf(buf, sizeof buf, c >= 0x20 && c < 0x7f ? "%c" : "\\x%02x", c);
    shown += buf;
  }
  std::fprintf(stderr, "parse_real(\"%s\", %s): %s: %s vs %s\n", shown.c_str(),
               std::string(name(fmt)).c_str(), what, hexfloat(a).c_str(), hexfloat(b).c_str());
  std::abort();
}

using boost::multiprecision::cpp_int;

// The neighbour of a (a value of fmt, or ±inf) in fmt toward t (t != a).
double neighbour(double a, double t, Format fmt) {
  const FormatInfo fi = info(fmt);
  const double max = std::ldexp(2 - std::ldexp(1.0, 1 - fi.precision), fi.emax);
  if (std::isinf(a)) return std::copysign(max, a);
  if (a == 0) return std::copysign(std::ldexp(1.0, fi.emin - fi.precision + 1), t);
  const int e = std::max(std::ilogb(a), fi.emin);
  const double ulp = std::ldexp(1.0, e - fi.precision + 1);
  const bool away = (t > a) == (a > 0);
  if (away) return std::fabs(a) == max ? std::copysign(INFINITY, a) : a + std::copysign(ulp, a);
  // Toward zero from a power of two the spacing halves (below the least normal it does not).
  const bool halves = std::fabs(a) == std::ldexp(1.0, e) && e > fi.emin;
  return a - std::copysign(halves ? ulp / 2 : ulp, a);
}

// The boundary between adjacent values a and b of fmt: their midpoint, or the overflow threshold
// (2 - 2^-p)·2^emax when one of them is infinite.
double boundary(double a, double b, Format fmt) {
  if (std::isinf(a) || std::isinf(b)) {
    const FormatInfo fi = info(fmt);
    return std::copysign(std::ldexp(2 - std::ldexp(1.0, -fi.precision), fi.emax), a + b);
  }
  return a * 0.5 + b * 0.5;  // exact: halving values of fmt >= 2^(emin-p+1) stays exact in double
}

// Whether v (a finite value of fmt) has an even significand; ±inf counts as even (the tie at the
// overflow threshold goes to infinity, the largest finite value being odd).
bool even(double v, Format fmt) {
  if (std::isinf(v) || v == 0) return true;
  const FormatInfo fi = info(fmt);
  const int e = std::max(std::ilogb(v), fi.emin);
  return std::fmod(std::ldexp(std::fabs(v), fi.precision - 1 - e), 2.0) == 0;
}

// The exact value of a parseable, finite, non-NaN string as sign · m · base^e (base 10 for a
// decimal, 2 for a hex float); false when the exponent is too far out to compare cheaply.
struct Exact {
  bool negative = false;
  cpp_int m;
  long e = 0;
  int base = 10;
};
bool exact_value(std::string_view s, Exact& x) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    x.negative = s.front() == '-';
    s.remove_prefix(1);
  }
  const bool hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  if (hex) s.remove_prefix(2);
  x.base = hex ? 2 : 10;
  const int digit_base = hex ? 16 : 10, per_digit = hex ? 4 : 1;
  bool point = false;
  std::size_t i = 0;
  for (; i < s.size(); ++i) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
    if (c == '.') { point = true; continue; }
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (hex && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else break;
    x.m = x.m * digit_base + d;
    if (point) x.e -= per_digit;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E' || s[i] == 'p' || s[i] == 'P')) {
    const long long v = std::strtoll(std::string(s.substr(i + 1)).c_str(), nullptr, 10);
    if (v > 100000 || v < -100000) return false;
    x.e += static_cast<long>(v);
  }
  return x.e > -120000 && x.e < 120000;
}

// The sign of (value of s) - d, exactly (d finite).
int compare(const Exact& x, double d) {
  int de = 0;
  const double frac = std::frexp(std::fabs(d), &de);
  cpp_int dm(static_cast<long long>(std::ldexp(frac, 53)));  // |d| = dm · 2^(de-53)
  long d2 = de - 53;
  // value: ±m·base^e; compare m·base^e with dm·2^d2 by moving negative powers across.
  cpp_int lhs = x.m, rhs = dm;
  auto times_pow = [](cpp_int& v, int base, long k) {
    if (base == 2) v <<= static_cast<unsigned>(k);
    else for (long j = 0; j < k; ++j) v *= 10;
  };
  if (x.e >= 0) times_pow(lhs, x.base, x.e); else times_pow(rhs, x.base, -x.e);
  if (d2 >= 0) times_pow(rhs, 2, d2); else times_pow(lhs, 2, -d2);
  const int mag = lhs < rhs ? -1 : lhs > rhs ? 1 : 0;  // |value| vs |d|
  const bool vneg = x.negative && x.m != 0, dneg = std::signbit(d) && d != 0;
  if (vneg != dneg) return vneg ? -1 : 1;
  return vneg ? -mag : mag;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view s(reinterpret_cast<const char*>(data), size);
  const std::optional<double> b64 = parse_real(s);
  for (Format fmt : all_formats) {
    const std::optional<double> r = parse_real(s, fmt);
    if (std::fegetround() != FE_TONEAREST) fail(s, fmt, "rounding mode not restored", 0, 0);
    if (r.has_value() != b64.has_value())
      fail(s, fmt, r ? "parses here but not in binary64" : "parses in binary64 but not here",
           r.value_or(0), b64.value_or(0));
    if (!r) continue;
    if (std::isnan(*r) != std::isnan(*b64)) fail(s, fmt, "NaN in one format only", *r, *b64);
    if (std::isnan(*r)) continue;
    if (!same_bits(round_to_format(*r, fmt), *r)) fail(s, fmt, "not a value of the format", *r, 0);
    if (std::signbit(*r) != std::signbit(*b64)) fail(s, fmt, "sign differs from binary64", *r, *b64);
    const double twice = round_to_format(*b64, fmt);
    const double other = *b64 == twice || std::isinf(*b64) ? twice : neighbour(twice, *b64, fmt);
    if (same_bits(other, twice) || *b64 != boundary(twice, other, fmt)) {
      if (!same_bits(twice, *r)) fail(s, fmt, "not the nearest (away from a boundary)", *r, twice);
    } else if (Exact x; exact_value(s, x)) {
      const double lower = std::min(twice, other), upper = std::max(twice, other);
      const int side = compare(x, *b64);
      const double want = side > 0 ? upper : side < 0 ? lower : even(lower, fmt) ? lower : upper;
      if (!same_bits(want == 0 ? std::copysign(0.0, *b64) : want, *r))
        fail(s, fmt, "not the nearest at a boundary (got, want)", *r, want);
    }
    const std::optional<double> hex = parse_real(hexfloat(*r), fmt);
    if (!hex || !same_bits(*hex, *r)) fail(s, fmt, "hex float does not read back", *r, hex.value_or(0));
    const std::optional<double> dec = parse_real(decimal_roundtrip(*r, fmt), fmt);
    if (!dec || !same_bits(*dec, *r)) fail(s, fmt, "decimal does not read back", *r, dec.value_or(0));
  }
  return 0;
}
