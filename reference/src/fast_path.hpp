// Private to the reference library: the fast path of round_batch (fast_path.cpp, vectorized with
// Highway, the target chosen at run time). Method and bounds: docs/reference.md, "The fast
// reference".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "gelucheck/fast_reference.hpp"

namespace gelucheck::ref::fast {

// For i < n: ok[i] = 1 and the columns' entry i = f(x[i]) in fmt (binary32, binary16 or
// bfloat16; x[i] a value of fmt) when the rounding test decides all of them; ok[i] = 0 (the
// entries unspecified) when it cannot, and the caller falls back to the MPFR path. Returns how
// many are 0. For binary32, *outside says whether some x[i] is not a value of it (the results are
// then unspecified; other formats are not checked). Inputs are evaluated a vector at a time; each
// one's result does not depend on its neighbours, nor on the target (every lane gets the
// operations one input alone gets, and every product is exact).
std::size_t evaluate_batch(Form form, Quantity q, Format fmt, const double* x, std::size_t n,
                           const RoundedColumns& out, unsigned char* ok, bool* outside);

// evaluate_batch on one Highway target (HWY_AVX2, ...), or nothing when that target was not built
// or this CPU lacks it.
std::optional<std::size_t> evaluate_batch_on(std::int64_t target, Form form, Quantity q, Format fmt,
                                             const double* x, std::size_t n, const RoundedColumns& out,
                                             unsigned char* ok);

// The targets built that this CPU runs, best (the one evaluate_batch runs) first.
std::vector<std::int64_t> targets();

}  // namespace gelucheck::ref::fast
