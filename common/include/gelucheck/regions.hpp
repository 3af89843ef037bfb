// gelucheck/regions.hpp — the ONE table of the regions of x in which errors are summarised and
// test cases are classified: the report's per-region statistics (reports/) and the property
// suite's RC_TAG classes (proptests/) both read it.
//
// The edges are where the naive formulas change behaviour: below about -38.6 the erf form's
// binary64 value has collapsed to -0 (facts::underflow_value_erf = -38.580…, the tanh form's at
// -21.5 lies inside [-38.6, -10)), [-10, -1) is the negative tail where 1 + tanh u and
// 1 + erf(x/√2) cancel, [-1, 1] holds the minimum and the derivative's zero
// (facts::argmin_* ≈ -0.75), and beyond 10 both forms equal x to within e^-50 relative.
// `subnormal` overlaps [-1, 1]; `overall` holds every input, NaN included.
#pragma once

#include <cmath>
#include <cstddef>

#include "gelucheck/common.hpp"

namespace gelucheck {

enum class Region { below_m38_6, m38_6_m10, m10_m1, m1_1, p1_10, above_10, subnormal, overall };

// The table: each region with its words (reports, tags) and its JSON key, in report order.
struct RegionInfo {
  Region region;
  const char* name;  // "x < -38.6", ...
  const char* key;   // "below_-38.6", ...
};
inline constexpr RegionInfo kRegionTable[] = {
    {Region::below_m38_6, "x < -38.6", "below_-38.6"},
    {Region::m38_6_m10, "[-38.6, -10)", "-38.6_-10"},
    {Region::m10_m1, "[-10, -1)", "-10_-1"},
    {Region::m1_1, "[-1, 1]", "-1_1"},
    {Region::p1_10, "(1, 10]", "1_10"},
    {Region::above_10, "x > 10", "above_10"},
    {Region::subnormal, "subnormal |x|", "subnormal"},
    {Region::overall, "overall", "overall"},
};
inline constexpr Region kRegions[] = {Region::below_m38_6, Region::m38_6_m10, Region::m10_m1,
                                      Region::m1_1,        Region::p1_10,     Region::above_10,
                                      Region::subnormal,   Region::overall};
// The edges of the interval regions, in increasing order (inputs are taken at and beside them).
inline constexpr double kRegionEdges[] = {-38.6, -10.0, -1.0, 1.0, 10.0};

inline const char* region_name(Region r) {
  for (const RegionInfo& i : kRegionTable)
    if (i.region == r) return i.name;
  return "?";
}
inline const char* region_key(Region r) {
  for (const RegionInfo& i : kRegionTable)
    if (i.region == r) return i.key;
  return "?";
}

// The interval region of a non-NaN x (±inf in the outer ones): they partition the line.
inline Region interval_region(double x) {
  const double* e = kRegionEdges;
  return x < e[0]    ? Region::below_m38_6
         : x < e[1]  ? Region::m38_6_m10
         : x < e[2]  ? Region::m10_m1
         : x <= e[3] ? Region::m1_1
         : x <= e[4] ? Region::p1_10
                     : Region::above_10;
}
// Nonzero and below the least normal number of fmt (2^emin, a normal double for every format).
inline bool subnormal_in(double x, Format fmt) {
  return x != 0 && std::fabs(x) < exact_pow2(info(fmt).emin);
}

// The regions one input belongs to (at most three), held in place: the sweep folds billions of
// inputs, one heap allocation each would cost more than the fold.
struct RegionSet {
  Region items[3];
  std::size_t count = 0;
  const Region* begin() const { return items; }
  const Region* end() const { return items + count; }
  std::size_t size() const { return count; }
  Region front() const { return items[0]; }
  Region operator[](std::size_t i) const { return items[i]; }
};

// The regions an input of format fmt belongs to: its interval region and `subnormal` (not for
// NaN), and always `overall`.
inline RegionSet regions_of(double x, Format fmt) {
  RegionSet rs;
  if (!std::isnan(x)) {
    rs.items[rs.count++] = interval_region(x);
    if (subnormal_in(x, fmt)) rs.items[rs.count++] = Region::subnormal;
  }
  rs.items[rs.count++] = Region::overall;
  return rs;
}

}  // namespace gelucheck
