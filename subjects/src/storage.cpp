// Values of a format to and from their storage (subject.hpp): binary64 as double, binary32 as
// float, binary16 and bfloat16 as IEEE-style bit patterns (1 sign bit, 5 or 8 exponent bits,
// 10 or 7 fraction bits). Exact: every value of the four formats is a double.
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {
namespace {

struct Layout16 {
  int exp_bits, frac_bits, bias;
};
Layout16 layout16(Format fmt) {
  if (fmt == Format::binary16) return {5, 10, 15};
  if (fmt == Format::bfloat16) return {8, 7, 127};
  throw std::invalid_argument("not a 16-bit format");
}

}  // namespace

std::uint16_t to_bits16(Format fmt, double v) {
  const Layout16 L = layout16(fmt);
  const std::uint16_t sign = std::signbit(v) ? std::uint16_t(0x8000) : std::uint16_t(0);
  const std::uint16_t exp_all = static_cast<std::uint16_t>(((1u << L.exp_bits) - 1) << L.frac_bits);
  if (std::isnan(v)) return static_cast<std::uint16_t>(sign | exp_all | (1u << (L.frac_bits - 1)));
  if (std::isinf(v)) return static_cast<std::uint16_t>(sign | exp_all);
  if (v == 0) return sign;
  if (round_to_format(v, fmt) != v)
    throw std::invalid_argument(hexfloat(v) + " is not a value of " + std::string(name(fmt)));
  const double a = std::fabs(v);
  int e = std::ilogb(a);  // a = m·2^e, m in [1, 2)
  const int emin = 1 - L.bias;
  std::uint32_t field = 0, frac = 0;
  if (e < emin) {  // subnormal: a = frac · 2^(emin - frac_bits)
    frac = static_cast<std::uint32_t>(std::ldexp(a, L.frac_bits - emin));
  } else {
    field = static_cast<std::uint32_t>(e + L.bias);
    frac = static_cast<std::uint32_t>(std::ldexp(a, L.frac_bits - e)) - (1u << L.frac_bits);
  }
  return static_cast<std::uint16_t>(sign | (field << L.frac_bits) | frac);
}

double from_bits16(Format fmt, std::uint16_t bits) {
  const Layout16 L = layout16(fmt);
  const bool neg = bits & 0x8000;
  const std::uint32_t field = (bits >> L.frac_bits) & ((1u << L.exp_bits) - 1);
  const std::uint32_t frac = bits & ((1u << L.frac_bits) - 1);
  double a;
  if (field == (1u << L.exp_bits) - 1) a = frac ? NAN : INFINITY;
  else if (field == 0) a = std::ldexp(static_cast<double>(frac), 1 - L.bias - L.frac_bits);
  else a = std::ldexp(static_cast<double>(frac | (1u << L.frac_bits)),
                      static_cast<int>(field) - L.bias - L.frac_bits);
  return neg ? -a : a;
}

std::vector<unsigned char> encode(Format fmt, std::span<const double> values) {
  const std::size_t w = element_size(fmt);
  std::vector<unsigned char> out(values.size() * w);
  for (std::size_t i = 0; i < values.size(); ++i) {
    unsigned char* p = out.data() + i * w;
    if (fmt == Format::binary64) {
      std::memcpy(p, &values[i], 8);
    } else if (fmt == Format::binary32) {
      const auto f = static_cast<float>(values[i]);
      if (!std::isnan(values[i]) && static_cast<double>(f) != values[i])
        throw std::invalid_argument(hexfloat(values[i]) + " is not a value of binary32");
      std::memcpy(p, &f, 4);
    } else {
      const std::uint16_t b = to_bits16(fmt, values[i]);
      std::memcpy(p, &b, 2);
    }
  }
  return out;
}

std::vector<double> decode(Format fmt, const void* storage, std::size_t n) {
  std::vector<double> out(n);
  const auto* p = static_cast<const unsigned char*>(storage);
  for (std::size_t i = 0; i < n; ++i) {
    if (fmt == Format::binary64) {
      std::memcpy(&out[i], p + 8 * i, 8);
    } else if (fmt == Format::binary32) {
      float f;
      std::memcpy(&f, p + 4 * i, 4);
      out[i] = static_cast<double>(f);
    } else {
      std::uint16_t b;
      std::memcpy(&b, p + 2 * i, 2);
      out[i] = from_bits16(fmt, b);
    }
  }
  return out;
}

}  // namespace gelucheck::subject
