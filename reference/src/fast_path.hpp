// Private to the reference library: the fast path of round_batch (fast_path.cpp). Method and
// bounds: docs/reference.md, "The fast reference".
#pragma once

#include "gelucheck/fast_reference.hpp"

namespace gelucheck::ref::fast {

// f(x) in fmt (binary32, binary16 or bfloat16; x a value of fmt) when the rounding test decides
// all of out's fields; false (out unspecified) when it cannot, and the caller falls back to the
// MPFR path.
bool evaluate(Form form, Quantity q, Format fmt, double x, Rounded& out);

}  // namespace gelucheck::ref::fast
