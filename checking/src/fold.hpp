// How the campaign (campaign.cpp) and the exhaustive sweep (exhaustive.cpp) fold each measured result into its row (fold.cpp): the
// per-region statistics, the histogram, the plot envelope, the claim's first break. Internal to
// checking/src.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gelucheck/exhaustive.hpp"
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

// The parts of fold(), for the sweep's chunk fold: a result's per-region statistics and its
// histogram bin; the figures kept of a finite input's result (classify_finite) and its
// observation (classify_kind); the claim's and the framework's breaks, the wrong zeros and where
// NaN comes out (fold_verdict). fold() = stats_add per region, histogram_add, the plot envelope,
// then for a row against its own form classify_finite (finite x), classify_kind, fold_verdict.
void stats_add(Stats& s, double x, double got, const Error& e, unsigned char flags);
void histogram_add(Histogram& h, double ulp);
void classify_finite(Row& row, double x, double got, double want, const Error& e, Format fmt);
void classify_kind(Row& row, const Claim& framework, double x, double got, double want, const Error& e,
                   Format fmt);
void fold_verdict(Row& row, const Claim& framework, double x, double got, double want, const Error& e);

// A chunk of one block of the exhaustive binary32 sweep (exhaustive.cpp): n inputs x[i] (values of
// binary32, bit patterns bits[i], increasing, no NaN), the subject's results got[i] (none where
// failed[i] is nonzero; failed == nullptr: none failed) and the fast reference's columns y.
struct SweepChunk {
  const double* x = nullptr;
  const std::uint32_t* bits = nullptr;
  const double* got = nullptr;
  const unsigned char* failed = nullptr;
  ref::RoundedColumns y;
  std::size_t n = 0;
  bool unavailable = false;  // the op answered nothing: failed inputs are not counted as no_result
};
// Folds a chunk into its row as measure, measure_flags and fold(..., with_overall = false) would, one
// result after the other (a failed one: ++row.no_result unless unavailable), for a row against its
// own form; counts each result that breaks the row's claim in failing (per region of x) and keeps
// the first `cap` of them in failures. A vector of results at a time (fold_chunk.cpp, Highway),
// the results that no check flags without a call per result. The same row, bit for bit, as
// those calls (tests/report/sweep_fold_test.cpp), but the per-region sums of ulp errors and of
// their squares, which add a vector's lanes apart and then in a fixed order: each of the chunk's
// sums is within (n - 1)·2^-53 of its exact sum, relative (n terms >= 0), like the sequential one.
void fold_chunk(Row& row, const Claim& framework, const SweepChunk& c, std::vector<std::uint64_t>& failing,
                std::vector<exhaustive::Failure>& failures, std::size_t cap);

// What Facts::clean (facts.cpp) needs to know of a chunk, in one vector pass (fold_chunk.cpp):
// whether some result is not finite, lies beyond one of the facts' bounds (Facts::beyond: for the
// value 0, x, x/2 and the minimum; for the derivative its range), or steps the wrong way from the
// result before it (away from the argmin: down; toward it: up); and the last index i >= 1 whose
// result differs from the one before (0: none).
struct FactBounds {
  bool value = true;
  double minimum = 0, deriv_lo = 0, deriv_hi = 0;
};
struct CleanScan {
  bool bad = false;
  std::size_t last_change = 0;
};
CleanScan scan_clean(const SweepChunk& c, const FactBounds& b, bool away);

}  // namespace gelucheck::report
