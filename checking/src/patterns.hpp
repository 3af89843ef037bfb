// The exhaustive sweep's inputs from their bit patterns (patterns.cpp). Internal to checking/src.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gelucheck::report {

// bits[k] = from + k and xs[k] = the binary32 value of that pattern, widened (exactly), for
// k < count; from + count <= 2^32, and no pattern in the run may be a NaN (the caller's runs skip
// them: a NaN's payload is not what a widening keeps).
void fill_patterns(std::uint32_t from, std::size_t count, double* xs, std::uint32_t* bits);

}  // namespace gelucheck::report
