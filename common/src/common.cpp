#include "gelucheck/common.hpp"

#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gelucheck {

std::string_view name(Form f) { return f == Form::tanh ? "tanh" : "erf"; }
std::string_view name(Quantity q) { return q == Quantity::value ? "value" : "derivative"; }
std::string_view name(Format f) {
  switch (f) {
    case Format::binary64: return "binary64";
    case Format::binary32: return "binary32";
    case Format::binary16: return "binary16";
    case Format::bfloat16: return "bfloat16";
  }
  return "?";
}

std::optional<Form> parse_form(std::string_view s) {
  if (s == "tanh") return Form::tanh;
  if (s == "erf") return Form::erf;
  return std::nullopt;
}
std::optional<Quantity> parse_quantity(std::string_view s) {
  if (s == "value") return Quantity::value;
  if (s == "derivative") return Quantity::derivative;
  return std::nullopt;
}
std::optional<Format> parse_format(std::string_view s) {
  for (Format f : all_formats)
    if (s == name(f)) return f;
  return std::nullopt;
}

std::string function_name(Function f) {
  std::string s(name(f.form));
  s += '.';
  s += name(f.quantity);
  return s;
}
std::optional<Function> parse_function(std::string_view s) {
  const std::size_t dot = s.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const auto form = parse_form(s.substr(0, dot));
  const auto q = parse_quantity(s.substr(dot + 1));
  if (!form || !q) return std::nullopt;
  return Function{*form, *q};
}

double round_to_format(double x, Format fmt) {
  if (fmt == Format::binary64 || !std::isfinite(x) || x == 0) return x;
  if (fmt == Format::binary32) return static_cast<double>(static_cast<float>(x));  // one rounding
  const FormatInfo fi = info(fmt);
  // Quantum of x's binade in the target, never below the least subnormal 2^(emin-p+1).
  const int e = std::max(std::ilogb(x), fi.emin) - fi.precision + 1;
  // x / 2^e is exact (a power-of-two scaling within double's range: e >= -133 for these formats),
  // and std::nearbyint rounds it to an integer with ties to even in the default rounding mode.
  const double m = std::nearbyint(std::ldexp(x, -e));
  const double r = std::ldexp(m, e);  // exact: m has at most p+1 bits
  // Overflow: anything that rounds to 2^(emax+1) or beyond is ±inf in the target.
  if (std::fabs(r) >= std::ldexp(1.0, fi.emax + 1)) return std::copysign(INFINITY, x);
  return r == 0 ? std::copysign(0.0, x) : r;
}

std::string hexfloat(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

std::optional<double> parse_real(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (s.empty()) return std::nullopt;
  std::string t(s);
  std::string lower;
  for (char c : t) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity")
    return INFINITY;
  if (lower == "-inf" || lower == "-infinity") return -INFINITY;
  if (lower == "nan" || lower == "+nan" || lower == "-nan") return NAN;
  // strtod also accepts "infinity", "nan(...)" and leading blanks, all handled or refused above;
  // refuse anything it would take only partly.
  for (char c : lower)
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+' ||
          c == 'e' || c == 'x' || c == 'p' || (c >= 'a' && c <= 'f')))
      return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || end == t.c_str()) return std::nullopt;
  // ERANGE is fine: overflow gives ±inf and underflow the correctly rounded subnormal or zero,
  // which is what "round to nearest" means for an input out of range.
  return v;
}

namespace {
// Sets the rounding mode for its lifetime; restores the previous one however it is left.
class RoundingMode {
 public:
  explicit RoundingMode(int mode) : saved_(std::fegetround()) { std::fesetround(mode); }
  ~RoundingMode() { std::fesetround(saved_); }
  RoundingMode(const RoundingMode&) = delete;
  RoundingMode& operator=(const RoundingMode&) = delete;

 private:
  int saved_;
};

std::optional<double> parse_real_rounded(std::string_view s, int mode) {
  const RoundingMode guard(mode);
  return parse_real(s);  // glibc's strtod rounds in the current mode, decimal and hex alike
}
}  // namespace

// One rounding from the string to fmt, by an enclosure (no big-number arithmetic needed).
//
// Let s be the exact value written and RN the rounding to nearest-even in fmt (round_to_format).
// strtod under FE_DOWNWARD / FE_UPWARD gives doubles lo = RD64(s) <= s <= hi = RU64(s) (checked
// in tests/common: glibc honours the mode for decimal and hex input, and out of range gives
// ±DBL_MAX / ±0 / ±2^-1074 as the directed rounding demands).
//  * lo == hi: s is that double and RN(lo) is exact (round_to_format rounds a double once).
//  * lo <  hi: lo and hi are ADJACENT doubles and s lies strictly between them. RN is constant
//    on each open interval between consecutive "boundaries" of fmt: the midpoints of adjacent
//    values of fmt and the overflow threshold (2 - 2^-p)·2^emax. Every boundary is a double (it
//    has p + 1 <= 25 significant bits and lies in [2^(emin-p), 2^(emax+1)], well inside double's
//    range), so none lies strictly between lo and hi. Hence if RN(lo) == RN(hi), that is RN(s).
//    Otherwise exactly one boundary m lies in [lo, hi] (two boundaries are at least 2^(e-p)
//    apart, far more than one double ulp 2^(e-52)), so m == lo or m == hi, and a, b = RN(lo),
//    RN(hi) are the two values of fmt around m. If m == hi, s < m and RN(s) = a; if m == lo,
//    s > m and RN(s) = b. m = a/2 + b/2 exactly (halving a value of fmt >= 2^(emin-p+1) stays
//    normal in double, and the sum has p + 1 bits); when one of a, b is infinite, m is the
//    overflow threshold with the finite one's sign.
//  * Signed zero: s = -0 gives lo = hi = -0; a tiny negative s gives lo = -2^-1074, hi = -0, both
//    rounding to -0 in fmt (round_to_format keeps the sign). NaN and ±inf: lo == hi.
std::optional<double> parse_real(std::string_view s, Format fmt) {
  const std::optional<double> nearest = parse_real(s);
  if (!nearest || fmt == Format::binary64 || std::isnan(*nearest)) return nearest;
  const double lo = *parse_real_rounded(s, FE_DOWNWARD);  // same syntax: parses again
  const double hi = *parse_real_rounded(s, FE_UPWARD);
  const double a = round_to_format(lo, fmt), b = round_to_format(hi, fmt);
  if (lo == hi || same_bits(a, b)) return a;
  double m;
  if (std::isinf(a) || std::isinf(b)) {
    const FormatInfo fi = info(fmt);
    m = std::copysign(std::ldexp(2 - std::ldexp(1.0, -fi.precision), fi.emax), lo);
  } else {
    m = a * 0.5 + b * 0.5;
  }
  if (m == lo) return b;
  if (m == hi) return a;
  // Unreachable by the argument above; refuse rather than guess.
  return std::nullopt;
}

namespace {
// std::to_chars' shortest scientific form ("-1.85e+19": the fewest significant digits that read
// back as v under round to nearest, of two the nearer v; Ryu in libstdc++) laid out as printf's
// "%.*g" with that many digits prints it: fixed notation when -4 <= exponent < digits, else
// scientific with at least two exponent digits. (to_chars' own chars_format::general chooses by
// another rule: libstdc++ 12 prints 100000 where "%.1g" prints "1e+05", and 1.234567e+06 where
// "%.7g" prints 1234567.) The digits have no trailing zero, so neither layout has one to strip.
template <typename T>
std::string shortest_in_g_layout(T v) {
  char buf[64];
  const char* end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific).ptr;
  const std::string_view sci(buf, static_cast<std::size_t>(end - buf));
  const bool negative = sci.front() == '-';
  const std::size_t e_at = sci.find('e');
  std::string digits;
  for (char c : sci.substr(negative ? 1 : 0, e_at - (negative ? 1 : 0)))
    if (c != '.') digits += c;
  int exponent = 0;
  std::from_chars(sci.data() + e_at + (sci[e_at + 1] == '+' ? 2 : 1), sci.data() + sci.size(),
                  exponent);
  const int n = static_cast<int>(digits.size());
  std::string out = negative ? "-" : "";
  if (exponent >= -4 && exponent < n) {
    if (exponent < 0) {
      out += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    } else {
      const auto whole = static_cast<std::size_t>(exponent) + 1;
      out += digits.substr(0, whole);
      if (whole < digits.size()) out += "." + digits.substr(whole);
    }
    return out;
  }
  out += digits.front();
  if (n > 1) out += "." + digits.substr(1);
  const std::string e = std::to_string(std::abs(exponent));
  return out + (exponent < 0 ? "e-" : "e+") + (e.size() < 2 ? "0" : "") + e;
}
}  // namespace

// The shortest decimal that parse_real(s, fmt) reads back as x.
//
// binary64 and binary32: std::to_chars on double or float gives exactly that (reading back as
// float or double is one rounding to nearest, as parse_real(s, fmt) does), without the search
// below and its dozens of printf and strtod calls; shortest_in_g_layout prints it as the search
// would.
//
// binary16 and bfloat16 have no C++ type with to_chars here, so they search. The decimals that
// read back as x form an interval around x (round to nearest is monotone), so if any decimal with
// d significant digits is in it, the largest d-digit decimal <= x or the smallest >= x is: glibc's
// printf rounds in the current mode, so "%.*g" under FE_DOWNWARD and FE_UPWARD gives them, and
// under FE_TONEAREST the one nearer x, tried first. (Trying the nearer one alone is not enough: at
// a power of two the interval is twice as long above x as below, and the nearer d-digit decimal
// may lie just outside it on the short side while the other lies inside on the long side; 2^64 in
// bfloat16 is "1.85e+19", not "1.845e+19".) maxdig digits always suffice: ceil(1 + p·log10(2)).
std::string decimal_roundtrip(double x, Format fmt) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (x == 0) return std::signbit(x) ? "-0" : "0";
  if (fmt == Format::binary64) return shortest_in_g_layout(x);
  const auto f = static_cast<float>(x);
  if (fmt == Format::binary32 && static_cast<double>(f) == x) return shortest_in_g_layout(f);
  // A double that is not a value of binary32 has no such decimal: the search ends at "%.9g".
  const int maxdig = fmt == Format::binary32 ? 9 : fmt == Format::binary16 ? 5 : 4;
  char buf[64];
  for (int d = 1; d <= maxdig; ++d)
    for (int mode : {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD}) {
      {
        const RoundingMode guard(mode);
        std::snprintf(buf, sizeof buf, "%.*g", d, x);
      }
      const std::optional<double> back = parse_real(buf, fmt);
      if (back && same_bits(*back, x)) return buf;
    }
  std::snprintf(buf, sizeof buf, "%.*g", maxdig, x);  // not reached for a value of fmt
  return buf;
}

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }
std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }
bool same_bits(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b);
}
bool same_bits(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b);
}

namespace {
// The fields of a narrow format's encoding: W bits = sign, E exponent bits, M = p - 1 fraction bits.
struct Layout {
  int width, fraction;
  std::uint64_t exponent_mask() const {
    return ((std::uint64_t{1} << (width - 1 - fraction)) - 1) << fraction;
  }
};
Layout layout(Format fmt) {
  switch (fmt) {
    case Format::binary64: return {64, 52};
    case Format::binary32: return {32, 23};
    case Format::binary16: return {16, 10};
    case Format::bfloat16: return {16, 7};
  }
  return {64, 52};
}
constexpr std::uint64_t kFraction64 = (std::uint64_t{1} << 52) - 1;
}  // namespace

std::optional<std::uint64_t> to_bits(double x, Format fmt) {
  if (fmt == Format::binary64) return bits(x);
  const Layout l = layout(fmt);
  const FormatInfo fi = info(fmt);
  const std::uint64_t sign = std::uint64_t{std::signbit(x) ? 1u : 0u} << (l.width - 1);
  if (std::isnan(x)) {
    // The payload's leading M bits, as narrowing conversions keep them.
    std::uint64_t payload = (bits(x) & kFraction64) >> (52 - l.fraction);
    if (payload == 0) payload = std::uint64_t{1} << (l.fraction - 1);  // else it would be ±inf
    return sign | l.exponent_mask() | payload;
  }
  if (fmt == Format::binary32) {
    // The hardware conversion is exact exactly when x is a value of binary32 (it rounds
    // otherwise, overflowing to ±inf), and keeps ±0 and ±inf: the same result as below, at the
    // cost of one conversion (the exhaustive sweep encodes every binary32 input).
    const auto f = static_cast<float>(x);
    if (static_cast<double>(f) != x) return std::nullopt;
    return std::bit_cast<std::uint32_t>(f);
  }
  if (round_to_format(x, fmt) != x) return std::nullopt;  // not a value of fmt
  if (std::isinf(x)) return sign | l.exponent_mask();
  if (x == 0) return sign;
  const double a = std::fabs(x);
  const int e = std::ilogb(a);  // emin - p + 1 <= e <= emax: a is a finite nonzero value of fmt
  // The scalings below are by powers of two within double's range, hence exact, and give
  // integers because a is a multiple of its quantum 2^(max(e, emin) - p + 1).
  if (e < fi.emin)  // subnormal: biased exponent 0, fraction = a / 2^(emin - p + 1)
    return sign | static_cast<std::uint64_t>(std::ldexp(a, fi.precision - 1 - fi.emin));
  const auto significand = static_cast<std::uint64_t>(std::ldexp(a, l.fraction - e));
  const auto biased = static_cast<std::uint64_t>(e - fi.emin + 1);
  return sign | biased << l.fraction | (significand - (std::uint64_t{1} << l.fraction));
}

double from_bits(std::uint64_t b, Format fmt) {
  const Layout l = layout(fmt);
  if (l.width < 64 && (b >> l.width) != 0)
    throw std::invalid_argument("from_bits: " + std::to_string(b) + " has bits beyond the " +
                                std::string(name(fmt)) + " encoding");
  if (fmt == Format::binary64) return std::bit_cast<double>(b);
  const FormatInfo fi = info(fmt);
  const bool negative = (b >> (l.width - 1)) & 1;
  const std::uint64_t fraction = b & ((std::uint64_t{1} << l.fraction) - 1);
  const std::uint64_t biased = (b & l.exponent_mask()) >> l.fraction;
  if ((b & l.exponent_mask()) == l.exponent_mask()) {
    if (fraction == 0) return negative ? -INFINITY : INFINITY;
    // NaN: the payload moves to the top of binary64's fraction, quiet bit as it was.
    return std::bit_cast<double>(std::uint64_t{negative} << 63 | (std::uint64_t{0x7ff} << 52) |
                                 fraction << (52 - l.fraction));
  }
  // Not a NaN: binary32's hardware widening is exact, and cheaper than the scaling below.
  if (fmt == Format::binary32) return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
  // Subnormal (biased 0): fraction·2^(emin-p+1); normal: (2^M + fraction)·2^(e-M), e =
  // biased + emin - 1. Integers below 2^24 times powers of two in range: exact.
  const double magnitude =
      biased == 0 ? std::ldexp(static_cast<double>(fraction), fi.emin - fi.precision + 1)
                  : std::ldexp(static_cast<double>((std::uint64_t{1} << l.fraction) | fraction),
                               static_cast<int>(biased) + fi.emin - 1 - l.fraction);
  return negative ? -magnitude : magnitude;
}

double next_in(Format fmt, double x, double toward) {
  if (std::isnan(x) || std::isnan(toward) || x == toward) return x;
  switch (fmt) {
    case Format::binary64: return std::nextafter(x, toward);
    case Format::binary32: {
      // nextafterf(f, t), from the bits by the same sign-magnitude rule as the 16-bit formats
      // below (no libm call per result of an exhaustive sweep); one more than FLT_MAX's pattern
      // is +inf's, one less than +inf's is FLT_MAX.
      const auto f = static_cast<float>(x), t = static_cast<float>(toward);
      if (f == t) return static_cast<double>(t);
      if (f == 0) return t > 0 ? 0x1p-149 : -0x1p-149;
      const auto b = std::bit_cast<std::uint32_t>(f);
      return static_cast<double>(std::bit_cast<float>((f > 0) == (t > f) ? b + 1 : b - 1));
    }
    default: {
      // Sign-magnitude patterns: away from zero is +1 on the magnitude, toward zero -1; from a
      // zero toward the other sign, the least subnormal of that sign.
      const auto b = static_cast<std::uint16_t>(*to_bits(x, fmt));
      const bool up = toward > x;
      if (x == 0) return from_bits(up ? 0x0001u : 0x8001u, fmt);
      const bool away = (x > 0) == up;
      return from_bits(static_cast<std::uint16_t>(away ? b + 1 : b - 1), fmt);
    }
  }
}

}  // namespace gelucheck
