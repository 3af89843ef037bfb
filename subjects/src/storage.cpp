// Elements in their format's storage (subject.hpp): binary64 as double, binary32 as float,
// binary16 and bfloat16 as uint16_t bit patterns — through the one home of the encodings,
// gelucheck::to_bits / from_bits (common.hpp), exact both ways.
#include <cmath>
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

std::vector<unsigned char> encode(Format fmt, std::span<const double> values) {
  const std::size_t w = element_size(fmt);
  std::vector<unsigned char> out(values.size() * w);
  if (fmt == Format::binary32) {
    // The exhaustive sweep's format, in loops without a branch that vectorize: a non-NaN double is
    // a value of binary32 exactly when the conversion is exact (to_bits says the same). A NaN
    // (whose payload to_bits keeps) or a value that is not one makes the general encoder below do
    // it all.
    unsigned char* p = out.data();
    std::size_t inexact = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const float f = static_cast<float>(values[i]);
      std::memcpy(p + 4 * i, &f, 4);
      inexact += static_cast<double>(f) != values[i];  // true for a NaN
    }
    if (inexact == 0) return out;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::optional<std::uint64_t> b = to_bits(values[i], fmt);
    if (!b)
      throw std::invalid_argument(hexfloat(values[i]) + " is not a value of " + std::string(name(fmt)));
    put(fmt, *b, out.data() + i * w);
  }
  return out;
}

void decode_into(Format fmt, const void* storage, std::size_t n, double* out) {
  if (fmt == Format::binary32) {
    // As load(), without the general decoder where the widening is exact (every non-NaN), in
    // loops without a branch that vectorize; the NaNs (whose payloads load() keeps) again by
    // load().
    const auto* p = static_cast<const unsigned char*>(storage);
    std::size_t nan = 0;
    for (std::size_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, p + 4 * i, 4);
      out[i] = static_cast<double>(f);
    }
    for (std::size_t i = 0; i < n; ++i) nan += out[i] != out[i];
    if (nan != 0)
      for (std::size_t i = 0; i < n; ++i)
        if (std::isnan(out[i])) out[i] = load(fmt, storage, i);
    return;
  }
  for (std::size_t i = 0; i < n; ++i) out[i] = load(fmt, storage, i);
}

std::vector<double> decode(Format fmt, const void* storage, std::size_t n) {
  std::vector<double> out(n);
  decode_into(fmt, storage, n, out.data());
  return out;
}

}  // namespace gelucheck::subject
