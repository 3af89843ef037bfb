// libFuzzer target: npy::parse (subjects/src/npy.cpp) on arbitrary bytes. It must return an Array
// or throw npy::Error — never crash, hang or read outside the buffer (ASan and UBSan watch) — and
// what it returns must be consistent: as many elements as the shape says, no more than the
// buffer can hold, each an encoding that survives from_bits/to_bits unchanged.
// Starting corpus: fuzz/corpus/npy/ (made by tests/subjects/data/make_fixtures.py).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "gelucheck/common.hpp"
#include "npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gelucheck;
  npy::Array a;
  try {
    a = npy::parse(std::span<const std::uint8_t>(data, size));
  } catch (const npy::Error&) {
    return 0;
  }
  std::size_t count = 1;
  for (std::size_t d : a.shape) count *= d;  // parse() refused any overflow
  if (a.elements.size() != count || count * npy::type_size(a.type) > size) std::abort();
  const Format fmt = a.type == npy::Type::f8   ? Format::binary64
                     : a.type == npy::Type::f4 ? Format::binary32
                                               : Format::binary16;  // f2, and u2 read as binary16
  for (std::uint64_t e : a.elements)
    if (to_bits(from_bits(e, fmt), fmt) != e) std::abort();
  return 0;
}
