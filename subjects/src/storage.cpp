// Elements in their format's storage (subject.hpp): binary64 as double, binary32 as float,
// binary16 and bfloat16 as uint16_t bit patterns.
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {

double from_bits16(std::uint16_t b, Format f) {
  if (f == Format::bfloat16)  // the high half of a binary32: exact widening
    return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16));
  if (f != Format::binary16) throw std::logic_error("from_bits16: not a 16-bit format");
  const bool neg = (b & 0x8000u) != 0;
  const int e = (b >> 10) & 0x1f;
  const int m = b & 0x3ff;
  double v;
  if (e == 0x1f)
    v = m == 0 ? INFINITY : NAN;
  else if (e == 0)
    v = std::ldexp(m, -24);  // subnormal: m · 2^(emin-p+1) = m · 2^-24
  else
    v = std::ldexp(m + 1024, e - 25);  // (1 + m/2^10) · 2^(e-15)
  return neg ? -v : v;
}

std::uint16_t to_bits16(double v, Format f) {
  if (f != Format::binary16 && f != Format::bfloat16)
    throw std::logic_error("to_bits16: not a 16-bit format");
  const std::uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  if (std::isnan(v)) return static_cast<std::uint16_t>(sign | (f == Format::bfloat16 ? 0x7fc0u : 0x7e00u));
  const double r = round_to_format(v, f);  // now exactly a value of f
  if (f == Format::bfloat16)  // r is a binary32 value whose low 16 bits are zero
    return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(r)) >> 16);
  const double a = std::fabs(r);
  if (std::isinf(a)) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (a < 0x1p-14)  // subnormal or zero: a = m · 2^-24 with m < 1024, exactly
    return static_cast<std::uint16_t>(sign | static_cast<unsigned>(std::ldexp(a, 24)));
  const int e = std::ilogb(a);                                          // -14 <= e <= 15
  const auto m = static_cast<unsigned>(std::ldexp(a, 10 - e)) - 1024u;  // exact: p = 11
  return static_cast<std::uint16_t>(sign | static_cast<unsigned>(e + 15) << 10 | m);
}

double load(Format f, const void* data, std::size_t i) {
  const auto* p = static_cast<const unsigned char*>(data) + i * element_size(f);
  switch (f) {
    case Format::binary64: {
      double d;
      std::memcpy(&d, p, sizeof d);
      return d;
    }
    case Format::binary32: {
      float x;
      std::memcpy(&x, p, sizeof x);
      return static_cast<double>(x);
    }
    case Format::binary16:
    case Format::bfloat16: {
      std::uint16_t b;
      std::memcpy(&b, p, sizeof b);
      return from_bits16(b, f);
    }
  }
  return NAN;
}

void store(Format f, double v, void* data, std::size_t i) {
  auto* p = static_cast<unsigned char*>(data) + i * element_size(f);
  switch (f) {
    case Format::binary64: std::memcpy(p, &v, sizeof v); return;
    case Format::binary32: {
      const float x = static_cast<float>(v);  // one rounding, to nearest
      std::memcpy(p, &x, sizeof x);
      return;
    }
    case Format::binary16:
    case Format::bfloat16: {
      const std::uint16_t b = to_bits16(v, f);
      std::memcpy(p, &b, sizeof b);
      return;
    }
  }
}

}  // namespace gelucheck::subject
