// Elements in their format's storage (subject.hpp): binary64 as double, binary32 as float,
// binary16 and bfloat16 as uint16_t bit patterns — through the one home of the encodings,
// gelucheck::to_bits / from_bits (common.hpp), exact both ways.
#include <cstring>
#include <optional>
#include <string>
#include <stdexcept>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {
namespace {

// The low element_size(f) bytes of an encoding, in this machine's (little-endian) order, as the
// ABI and the protocol carry them.
void put(Format f, std::uint64_t b, unsigned char* p) {
  switch (element_size(f)) {
    case 8: std::memcpy(p, &b, 8); return;
    case 4: {
      const auto u = static_cast<std::uint32_t>(b);
      std::memcpy(p, &u, 4);
      return;
    }
    default: {
      const auto u = static_cast<std::uint16_t>(b);
      std::memcpy(p, &u, 2);
    }
  }
}

std::uint64_t get(Format f, const unsigned char* p) {
  switch (element_size(f)) {
    case 8: {
      std::uint64_t u;
      std::memcpy(&u, p, 8);
      return u;
    }
    case 4: {
      std::uint32_t u;
      std::memcpy(&u, p, 4);
      return u;
    }
    default: {
      std::uint16_t u;
      std::memcpy(&u, p, 2);
      return u;
    }
  }
}

}  // namespace

double load(Format f, const void* data, std::size_t i) {
  return from_bits(get(f, static_cast<const unsigned char*>(data) + i * element_size(f)), f);
}

void store(Format f, double v, void* data, std::size_t i) {
  // round_to_format leaves a NaN as it is (payload included) and rounds anything else once.
  put(f, *to_bits(round_to_format(v, f), f), static_cast<unsigned char*>(data) + i * element_size(f));
}

// encode and decode go through to_bits / from_bits like store and load, with the element
// width chosen once per array instead of once per element (the exhaustive sweep moves every
// binary32 input through them).
namespace {
template <class U>
void encode_as(Format fmt, std::span<const double> values, unsigned char* out) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::optional<std::uint64_t> b = to_bits(values[i], fmt);
    if (!b)
      throw std::invalid_argument(hexfloat(values[i]) + " is not a value of " + std::string(name(fmt)));
    const auto u = static_cast<U>(*b);
    std::memcpy(out + i * sizeof(U), &u, sizeof(U));
  }
}
template <class U>
void decode_as(Format fmt, const unsigned char* p, std::size_t n, double* out) {
  for (std::size_t i = 0; i < n; ++i) {
    U u;
    std::memcpy(&u, p + i * sizeof(U), sizeof(U));
    out[i] = from_bits(u, fmt);
  }
}
}  // namespace

std::vector<unsigned char> encode(Format fmt, std::span<const double> values) {
  std::vector<unsigned char> out(values.size() * element_size(fmt));
  switch (element_size(fmt)) {
    case 8: encode_as<std::uint64_t>(fmt, values, out.data()); break;
    case 4: encode_as<std::uint32_t>(fmt, values, out.data()); break;
    default: encode_as<std::uint16_t>(fmt, values, out.data());
  }
  return out;
}

std::vector<double> decode(Format fmt, const void* storage, std::size_t n) {
  std::vector<double> out(n);
  const auto* p = static_cast<const unsigned char*>(storage);
  switch (element_size(fmt)) {
    case 8: decode_as<std::uint64_t>(fmt, p, n, out.data()); break;
    case 4: decode_as<std::uint32_t>(fmt, p, n, out.data()); break;
    default: decode_as<std::uint16_t>(fmt, p, n, out.data());
  }
  return out;
}

}  // namespace gelucheck::subject
