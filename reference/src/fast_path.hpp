// Private to the reference library: the fast path of round_batch (fast_path.cpp). Method and
// bounds: docs/reference.md, "The fast reference".
#pragma once

#include <cstddef>

#include "gelucheck/fast_reference.hpp"

namespace gelucheck::ref::fast {

// For i < n: ok[i] = 1 and out[i] = f(x[i]) in fmt (binary32, binary16 or bfloat16; x[i] a value
// of fmt) when the rounding test decides all of out[i]'s fields; ok[i] = 0 (out[i] unspecified)
// when it cannot, and the caller falls back to the MPFR path. Inputs are evaluated several at a
// time (interleaved, for speed); each one's result does not depend on its neighbours.
void evaluate_batch(Form form, Quantity q, Format fmt, const double* x, std::size_t n,
                    Rounded* out, unsigned char* ok);

}  // namespace gelucheck::ref::fast

#ifdef GELUCHECK_FAST_HAVE_FMA
namespace gelucheck::ref::fast_fma {
// fast::evaluate_batch compiled with FMA (fast_path_fma.cpp), for a CPU that has it.
void evaluate_batch(Form form, Quantity q, Format fmt, const double* x, std::size_t n,
                    Rounded* out, unsigned char* ok);
}  // namespace gelucheck::ref::fast_fma
#endif
