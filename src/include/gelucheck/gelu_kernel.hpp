// gelucheck/gelu_kernel.hpp — the accurate path's extended-precision kernel, exposed for the
// tests that prove its error bound (tests/library). Users call gelucheck/gelu.hpp instead.
#pragma once

#include "gelucheck/common.hpp"
#include "gelucheck/constants.hpp"

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

// The fast paths (src/gelu_fast.cpp, error bounds derived there): a cheap evaluation in binary64
// arithmetic with a rigorous relative error bound e, then a rounding test. Returns true and
// stores the result in *out only when the test proves it:
//   float  — [y(1-e), y(1+e)] contains no binary32 midpoint, so *out is the CORRECT rounding of f
//            (the same bits as the kernel's, which is correctly rounded too);
//   double — [y(1-e), y(1+e)] lies strictly between pred(r) and succ(r), so *out = r is FAITHFUL.
// Returns false (out untouched) where there is no fast path (binary64 erf form, NaN, the regions
// listed in gelu_fast.cpp) or the test fails: the caller then uses accurate_kernel. The tests use
// it to force and count fallbacks. No state: the answer depends on (form, q, x) only.
bool fast_only(Form form, Quantity q, float x, float* out);
bool fast_only(Form form, Quantity q, double x, double* out);

// The binary64 fast path's e^(a.hi + a.lo) in double-double, for |a.hi| <= 700, |a.lo| <= 2^-43:
// claimed relative error <= kFastExpRelBound (derived in gelu_fast.cpp at exp_dd) while the
// result is >= 2^-968; exposed so that tests/library measures it against MPFR.
constants::DoubleDouble fast_exp_dd(constants::DoubleDouble a);
constexpr double kFastExpRelBound = 0x1p-68;

}  // namespace gelucheck::detail
