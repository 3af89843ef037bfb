// gelucheck/common.hpp — the vocabulary shared by every layer (reference, library, checks, CLI).
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace gelucheck {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Which GELU, as Lean's `GeluForm` (docs/properties.md, "The Lean theorems").
enum class Form { tanh, erf };
// Which function of the form: `GeluForm.scalar` or `GeluForm.scalarDeriv`.
enum class Quantity { value, derivative };
// Target binary formats (IEEE 754 binary64/32/16 and Google's bfloat16). Every value of every
// format is exactly representable as a double, so values of all four travel as `double`.
enum class Format { binary64, binary32, binary16, bfloat16 };
// Every Format, in declaration order (so all_formats[static_cast<int>(f)] == f).
inline constexpr std::array<Format, 4> all_formats{Format::binary64, Format::binary32,
                                                   Format::binary16, Format::bfloat16};

struct FormatInfo {
  int precision;  // p, significand bits including the implicit one
  int emin;       // exponent of the least normal number, 2^emin
  int emax;       // exponent of the greatest finite binade, 2^emax
};
constexpr FormatInfo info(Format f) {
  switch (f) {
    case Format::binary64: return {53, -1022, 1023};
    case Format::binary32: return {24, -126, 127};
    case Format::binary16: return {11, -14, 15};
    case Format::bfloat16: return {8, -126, 127};
  }
  return {0, 0, 0};
}

// 2^k for -1022 <= k <= 1023, from its bits (exact; constexpr).
constexpr double exact_pow2(int k) {
  return std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
}
// x·2^k, as std::ldexp gives it, without its library call where 2^k is a normal double: one
// multiplication by an exact power of two rounds once, to the same correctly rounded result
// (the rounding matters only when the result is subnormal). Far below (k < -2100) a finite x·2^k
// is under 2^(1024-2100) = 2^-1076, less than half the least subnormal: the result is a zero of
// x's sign, also without the call (the sweep measures a billion results of magnitude 2^-(2^20)
// this way). Other k go to std::ldexp.
inline double ldexp_fast(double x, long k) {
  if (k >= -1022 && k <= 1023) return x * exact_pow2(static_cast<int>(k));
  if (k < -2100 && std::isfinite(x)) return std::copysign(0.0, x);
  return std::ldexp(x, static_cast<int>(k < -100000 ? -100000 : k > 100000 ? 100000 : k));
}

std::string_view name(Form f);
std::string_view name(Quantity q);
std::string_view name(Format f);
std::optional<Form> parse_form(std::string_view s);
std::optional<Quantity> parse_quantity(std::string_view s);
std::optional<Format> parse_format(std::string_view s);

// One of the four functions, a form and its value or derivative: the one type every layer uses
// (the subjects' ops, the checks' rows, the matchers' GeluFunction). Named "tanh.value",
// "tanh.derivative", "erf.value", "erf.derivative".
struct Function {
  Form form;
  Quantity quantity;
  friend bool operator==(const Function&, const Function&) = default;
};
inline constexpr Function all_functions[] = {{Form::tanh, Quantity::value},
                                             {Form::tanh, Quantity::derivative},
                                             {Form::erf, Quantity::value},
                                             {Form::erf, Quantity::derivative}};
std::string function_name(Function f);
std::optional<Function> parse_function(std::string_view s);  // exactly one of the four names

// Rounds a double to the nearest value of `fmt` (ties to even), with the format's subnormals,
// overflow to ±inf and signed zeros; NaN stays NaN. Exact for binary64 (identity). The result is
// exact as a double. This is the "each input is first converted to the format" of the CLI.
double round_to_format(double x, Format fmt);

// C99 hex float of a double ("0x1.8p+1", "-0x0p+0", "inf", "-inf", "nan"), shortest exact form.
std::string hexfloat(double x);
// The shortest decimal (fewest significant digits; of two, the nearer x; printf's %g layout) that
// parse_real(s, fmt) reads back as x, a value of `fmt`: at most 17 digits for binary64, 9 for
// binary32, 5 for binary16, 4 for bfloat16. "nan", "inf", "-inf", "0", "-0" for the specials.
std::string decimal_roundtrip(double x, Format fmt);
// Parses one input: decimal or C99 hex float, `inf`, `-inf`, `+inf`, `nan` (case-insensitive),
// surrounding blanks allowed; nothing else (no trailing garbage, no empty string). The decimal is
// rounded to nearest binary64 (strtod). std::nullopt when unparsable.
std::optional<double> parse_real(std::string_view s);
// The same syntax, converted with ONE rounding to `fmt`: the value of fmt nearest to the exact
// number written (ties to even; subnormals; overflow to ±inf; the sign of zero kept; NaN stays
// NaN). Unlike round_to_format(*parse_real(s), fmt), which rounds twice (to binary64, then to
// fmt) and so breaks ties wrongly for strings within 2^-53 relative of a midpoint of fmt.
// For binary64 this is parse_real(s). std::nullopt when unparsable.
std::optional<double> parse_real(std::string_view s, Format fmt);

// The neighbour of x (a value of fmt) in fmt in the direction of `toward` (IEEE nextafter, in any
// of the four formats): x itself when x == toward or either is NaN; from a zero toward the other
// sign, the least subnormal of that sign.
double next_in(Format fmt, double x, double toward);

// The binary64 encoding, for comparisons where ±0 and NaN payloads matter.
std::uint64_t bits(double x);
std::uint32_t bits(float x);
// Same encoding, NaNs made equal: what "bit for bit" means for results in this project.
bool same_bits(double a, double b);
bool same_bits(float a, float b);

// A value of `fmt` in the format's own storage, as arrays, the C ABI and the subject protocol
// carry it: binary64 as its 64 bits, binary32 as its 32, binary16 and bfloat16 as 16-bit patterns,
// in the low bits of the result. std::nullopt when x is not a value of fmt (not exactly
// representable). A NaN keeps its sign and the leading bits of its payload, as a hardware
// conversion that narrows binary64 does (the quiet bit is set only when those leading bits are
// all zero, so that the result is still a NaN): a NaN widened by from_bits comes back unchanged.
std::optional<std::uint64_t> to_bits(double x, Format fmt);
// The value an encoding of `fmt` stands for (bits beyond the format's width must be zero, else
// std::invalid_argument), exactly; a NaN's sign and payload are widened as hardware does, without
// quieting a signalling NaN, so that to_bits(from_bits(b, fmt), fmt) == b for every encoding b.
double from_bits(std::uint64_t b, Format fmt);

}  // namespace gelucheck
