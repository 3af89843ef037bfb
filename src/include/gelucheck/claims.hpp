// gelucheck/claims.hpp — what the library under test (gelu.hpp) claims about its results: the
// ONE home of those claims. The library's built-in subjects (subjects/) state them to every check,
// and the library's own accuracy tests (tests/library/accuracy_test.cpp) read them from here.
// The claim type is gelucheck::Claim (claim.hpp), the one used for every subject.
//
// Where each claim is earned: the derivations next to the code in src/gelu_scalar.cpp and
// src/gelu_fast.cpp, summed up in docs/library.md; the tests that fail when a claim breaks are
// tests/library/accuracy_test.cpp (both formats, every region, ±0 included), the property suite's
// accuracy properties and the report's gate (tests/report).
#pragma once

#include <optional>

#include "gelucheck/claim.hpp"
#include "gelucheck/common.hpp"
#include "gelucheck/gelu.hpp"

namespace gelucheck {

// What scalar / scalar_deriv (and map, backward, pdiv, jacobian, which apply them elementwise)
// claim for all four functions, by path and by the format of the result (binary64 = double,
// binary32 = float, binary16 and bfloat16 = their bit patterns in the C API and the subjects): the sign of zero included, and the specials (NaN -> NaN, +inf -> (+inf, 1),
// -inf -> (-0, -0) for (value, derivative)) as every claim includes them. std::nullopt: no claim
// (the naive path).
inline std::optional<Claim> claim(Path path, Format fmt) {
  if (path != Path::accurate) return std::nullopt;  // the textbook baseline claims nothing
  switch (fmt) {
    case Format::binary64: return Claim::faithful();
    case Format::binary32: return Claim::correctly_rounded();
    // The 65,536-entry tables of src/gelu_half.cpp, each entry decided with a rounding proof
    // (docs/library.md); every input of both formats is checked against MPFR by
    // tests/library/half_test.cpp and by the report's exhaustive 16-bit campaign.
    case Format::binary16:
    case Format::bfloat16: return Claim::correctly_rounded();
  }
  return std::nullopt;  // unreachable: every Format is a case
}

}  // namespace gelucheck
