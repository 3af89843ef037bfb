// gelucheck/gelu_kernel.hpp — the accurate path's extended-precision kernel, exposed for the
// tests that prove its error bound (tests/library). Users call gelucheck/gelu.hpp instead.
#pragma once

#include "gelucheck/common.hpp"

namespace gelucheck::detail {

// f(x) of the accurate path BEFORE the final rounding, in x87 long double (64-bit significand),
// for every double x (NaN, ±inf and the tails included). scalar() returns it rounded once to
// double or float. Claimed bound (derived in src/gelu_scalar.cpp, measured by
// tests/library/kernel_test.cpp): |kernel - f| <= kKernelRelBound * |f| for every finite x whose
// f(x) is not in a tail that returns an exact x, 1 or ±0.
long double accurate_kernel(Form form, Quantity q, double x);

// 2^-56: the relative error bound of accurate_kernel (see gelu_scalar.cpp, "Error budget").
inline constexpr long double kKernelRelBound = 0x1p-56L;

}  // namespace gelucheck::detail
