// How the campaign (campaign.cpp) and the exhaustive sweep (exhaustive.cpp) fold each measured result into its row (fold.cpp): the
// per-region statistics, the histogram, the plot envelope, the claim's first break. Internal to
// checking/src.
#pragma once

#include <cstddef>

#include "gelucheck/fast_reference.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/reference.hpp"
#include "gelucheck/report.hpp"

namespace gelucheck::report {

// Per-point facts about the measure itself (not about the result), for the abs/rel columns.
inline constexpr unsigned char kAbsBelowResolution = 1;  // |r - midpoint| <= the enclosure's half-width
inline constexpr unsigned char kSubnormalFaithful = 2;   // |y| < least normal, r faithful (incl. ±0)

unsigned char measure_flags(double r, const Error& e, const ref::Enclosure& y, Format fmt);
// The same facts from the fast reference's result (the exhaustive sweep, exhaustive.cpp).
unsigned char measure_flags(double r, const Error& e, const ref::Rounded& y, Format fmt);

// The mean and RMS from the sums fold() kept, once every point is in.
void stats_finish(Stats& s);

// The bin of Row::plot_envelope that holds x (in [kPlotLo, kPlotHi]).
std::size_t plot_bin(double x);

// Folds one measured result into its row (input order: the caller goes through the points in
// order, so first-reached maxima and first breaks are those of one pass over all points).
// with_overall = false leaves Region::overall alone: the exhaustive sweep (no NaN inputs, so
// the interval regions partition its inputs) merges it from them once a block is done.
void fold(Row& row, const Claim& framework, double x, double got, double want, const Error& e,
          unsigned char flags, Format fmt, bool with_overall = true);

}  // namespace gelucheck::report
