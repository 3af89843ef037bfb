#include "gelucheck/common.hpp"

#include <bit>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
  for (Format f : {Format::binary64, Format::binary32, Format::binary16, Format::bfloat16})
    if (s == name(f)) return f;
  return std::nullopt;
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

std::string decimal_roundtrip(double x, Format fmt) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  // Digits that round-trip any value of the format: ceil(1 + p*log10(2)), and for the subnormals
  // of binary64 %.17g still suffices. Shorter when the shortest round-tripping string is shorter.
  const int maxdig = fmt == Format::binary64 ? 17 : fmt == Format::binary32 ? 9
                     : fmt == Format::binary16 ? 5 : 4;
  char buf[64];
  for (int d = 1; d <= maxdig; ++d) {
    std::snprintf(buf, sizeof buf, "%.*g", d, x);
    if (round_to_format(std::strtod(buf, nullptr), fmt) == x) return buf;
  }
  std::snprintf(buf, sizeof buf, "%.*g", maxdig, x);
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

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }
std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }
bool same_bits(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b);
}
bool same_bits(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || bits(a) == bits(b);
}

}  // namespace gelucheck
