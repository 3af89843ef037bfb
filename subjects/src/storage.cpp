// Values of a format to and from their storage (subject.hpp), through the one home of the
// encodings, gelucheck::to_bits / from_bits (common.hpp): binary64 as double, binary32 as float,
// binary16 and bfloat16 as 16-bit patterns, all exact.
#include <cstring>
#include <stdexcept>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {

std::vector<unsigned char> encode(Format fmt, std::span<const double> values) {
  const std::size_t w = element_size(fmt);
  std::vector<unsigned char> out(values.size() * w);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::optional<std::uint64_t> b = to_bits(values[i], fmt);
    if (!b)
      throw std::invalid_argument(hexfloat(values[i]) + " is not a value of " + std::string(name(fmt)));
    // The low w bytes, little-endian as the ABI and the protocol carry them on this machine.
    const std::uint64_t v = *b;
    if (w == 8) std::memcpy(out.data() + 8 * i, &v, 8);
    else if (w == 4) {
      const auto u = static_cast<std::uint32_t>(v);
      std::memcpy(out.data() + 4 * i, &u, 4);
    } else {
      const auto u = static_cast<std::uint16_t>(v);
      std::memcpy(out.data() + 2 * i, &u, 2);
    }
  }
  return out;
}

std::vector<double> decode(Format fmt, const void* storage, std::size_t n) {
  const std::size_t w = element_size(fmt);
  std::vector<double> out(n);
  const auto* p = static_cast<const unsigned char*>(storage);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t v = 0;
    if (w == 8) std::memcpy(&v, p + 8 * i, 8);
    else if (w == 4) {
      std::uint32_t u;
      std::memcpy(&u, p + 4 * i, 4);
      v = u;
    } else {
      std::uint16_t u;
      std::memcpy(&u, p + 2 * i, 2);
      v = u;
    }
    out[i] = from_bits(v, fmt);
  }
  return out;
}

}  // namespace gelucheck::subject
