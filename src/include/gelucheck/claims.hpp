// gelucheck/claims.hpp — the ONE home of what the library under test claims about its results.
// The report's gate (reports/), the property suite's subject (proptests/) and the library's own
// accuracy tests (tests/library/accuracy_test.cpp) all read their bounds from claim(); none types
// its own copy.
//
// Error measure: DESIGN.md §2 (gelucheck/measure.hpp in the reference library). The library does
// not depend on the reference, so meets() is a template over anything with the fields of
// gelucheck::Error (ulp, nan_mismatch, zero_sign_mismatch).
//
// Where each claim is earned: the derivations next to the code in src/gelu_scalar.cpp and
// src/gelu_fast.cpp, summed up in docs/library.md; the tests that fail when a claim breaks are
// tests/library/accuracy_test.cpp (both formats, every region, ±0 included),
// proptests/scalar.cpp (accuracy properties) and the report's gate (tests/report).
#pragma once

#include <optional>

#include "gelucheck/common.hpp"
#include "gelucheck/gelu.hpp"

namespace gelucheck {

struct Claim {
  double max_ulp;     // the bound, in ulps of the result's format (DESIGN.md §2)
  bool inclusive;     // ulp <= max_ulp (correct rounding, 0.5) or ulp < max_ulp (faithful, 1)
  // The sign of a zero result is part of the claim: the result is -0 exactly where the exact
  // value is negative (and rounds to zero), +0 where it is positive. A sign-of-zero mismatch then
  // breaks the claim even though its ulp error is < 1/2.
  bool sign_of_zero;
  // NaN -> NaN, +inf -> (+inf, 1), -inf -> (-0, -0) for (value, derivative), -0 -> (-0, 1/2).
  bool specials;
  const char* text;   // for reports and failure messages
};

// What scalar / scalar_deriv (and map, backward, pdiv, jacobian, which apply them elementwise)
// claim for all four functions, by path and by the type of the result (binary64 = double,
// binary32 = float). std::nullopt: no claim (the naive path; formats the library has no type for).
constexpr std::optional<Claim> claim(Path path, Format fmt) {
  if (path != Path::accurate) return std::nullopt;  // the textbook baseline claims nothing
  switch (fmt) {
    case Format::binary64:
      return Claim{1.0, false, true, true, "faithful (< 1 ulp), sign of zero included"};
    case Format::binary32:
      return Claim{0.5, true, true, true, "correctly rounded (<= 0.5 ulp), sign of zero included"};
    default:
      return std::nullopt;
  }
}

// The ulp bound alone.
constexpr bool within(const Claim& c, double ulp) {
  return c.inclusive ? ulp <= c.max_ulp : ulp < c.max_ulp;
}

// Whether one measured error (a gelucheck::Error, measure.hpp) satisfies the claim. A NaN mismatch
// has an infinite ulp error, so it never passes; it is tested apart so a future finite encoding of
// it cannot slip through.
template <class E>
constexpr bool meets(const Claim& c, const E& e) {
  return within(c, e.ulp) && !e.nan_mismatch && !(c.sign_of_zero && e.zero_sign_mismatch);
}

}  // namespace gelucheck
