// gelucheck/gelu_kernel.hpp — the accurate path's extended-precision kernel, exposed for the
// tests that prove its error bound (tests/library). Users call gelucheck/gelu.hpp instead.
#pragma once

#include "gelucheck/common.hpp"

namespace gelucheck::detail {

// f(x) of the accurate path BEFORE the final rounding, in x87 long double (64-bit significand),
// for every double x (NaN, ±inf and the tails included). scalar() returns it rounded once to
// double or float. Claimed bound (derived in src/gelu_scalar.cpp, "Error budget"; measured by
// tests/library/kernel_test.cpp): |kernel - f| <= kernel_rel_bound(form, q) * |f| for every
// finite x (the tails return x, 1 or ±0, whose rounding is the correct one in both formats).
long double accurate_kernel(Form form, Quantity q, double x);

// The derived relative error bounds of accurate_kernel, rounded up to powers of two
// (u = 2^-64): tanh value 8u -> 2^-60, erf value 17u -> 2^-59, derivatives <= 141u -> 2^-56.
constexpr long double kernel_rel_bound(Form form, Quantity q) {
  if (q == Quantity::derivative) return 0x1p-56L;
  return form == Form::tanh ? 0x1p-60L : 0x1p-59L;
}

}  // namespace gelucheck::detail
