// gelucheck/measure.hpp — the error measures of shared DESIGN.md §2, defined once, used by every
// test, sweep and report.
#pragma once

#include "gelucheck/common.hpp"
#include "gelucheck/fast_reference.hpp"
#include "gelucheck/reference.hpp"

namespace gelucheck {

struct Error {
  // |r - y| / ulp(y), ulp(y) = 2^(max(floor(log2|y|), emin) - p + 1); +inf for a NaN/number
  // mismatch or an infinite result that should be finite (or vice versa).
  double ulp = 0;
  double abs = 0;  // |r - y|, rounded up to a double
  double rel = 0;  // |r - y| / |y|; +inf when y == 0 and r != 0
  bool nan_mismatch = false;        // NaN where y is a number, or a number where y is NaN
  bool zero_sign_mismatch = false;  // r and y are zeros (or r rounds y's sign away) of opposite sign
  bool correctly_rounded() const { return ulp <= 0.5; }
  bool faithful() const { return ulp < 1; }
};

// Error of the result r (a value of `fmt`) against the exact value enclosed by y. The enclosure
// must be at least ~40 bits tighter than fmt's precision (enclose(..., 128) is).
Error measure(double r, const ref::Enclosure& y, Format fmt);

// The same measure from what ref::round_batch gives for the input and fmt: the same
// classification (correctly rounded, faithful, mismatches) exactly, the same ulp/abs/rel figures
// to ~1e-9 relative, or to 2^-60 (of an ulp, of |y|) where that is larger: y.hi + y.lo carries
// f(x) to 2^-70 relative, the enclosure to 2^-128 (tests/reference/test_fast_reference.cpp).
Error measure(double r, const ref::Rounded& y, Format fmt);

}  // namespace gelucheck
