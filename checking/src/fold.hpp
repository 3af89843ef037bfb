// How the campaign (campaign.cpp) and the exhaustive sweep (exhaustive.cpp) fold each measured result into its row (fold.cpp): the
// per-region statistics, the histogram, the plot envelope, the claim's first break. Internal to
// checking/src.
#pragma once

#include <cmath>
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

// Where classify_kind puts a result of a finite x that is finite and no NaN mismatch (so every
// result the sweep's light way takes): a flush of the negative tail or of a tiny value, a
// wrong-sign zero, an accuracy break, or nowhere; and the size it adds (defects.hpp).
enum class FiniteKind { none, flush_tail, flush_subnormal, zero_sign_minus, zero_sign_plus, accuracy };
struct Classified {
  FiniteKind kind;
  double size;
};
inline Classified classify_finite_result(double x, double got, double want, double ulp, bool zero_sign,
                                         bool breaks, Format fmt) {
  if (got == 0 && want != 0 && ulp >= 1) {
    // Zero where zero is not even a faithful rounding: the negative tail's collapse (worst: the
    // greatest x, where it starts), or elsewhere a flush of results at or below the least normal
    // (FTZ/DAZ; worst: the largest |x|). A zero for a normal value elsewhere (the derivative near
    // its zero at x ~ -0.75) is plain cancellation: an accuracy break.
    if (x <= -1) return {FiniteKind::flush_tail, x};
    if (std::fabs(want) <= exact_pow2(info(fmt).emin)) return {FiniteKind::flush_subnormal, std::fabs(x)};
  }
  // worst: the greatest x, where a negative side's wrong sign starts (seen from zero).
  if (zero_sign) return {std::signbit(got) ? FiniteKind::zero_sign_minus : FiniteKind::zero_sign_plus, x};
  if (breaks) return {FiniteKind::accuracy, ulp};
  return {FiniteKind::none, 0};
}
// Each such place as an observation's kind and fact.
DefectKind defect_kind_of(FiniteKind k);
const char* fact_of(FiniteKind k);

// fold_verdict's steps once the claims are judged (claim_ok: the row's claim is met, or it claims
// nothing; framework_ok: the framework default is): the first breaks, the wrong zeros.
inline void note_verdict(Row& row, double x, double got, double want, double ulp, bool zero_sign,
                         bool claim_ok, bool framework_ok, bool wrong_zero) {
  if (!claim_ok && row.claim_breaks++ == 0) {
    row.break_x = x;
    row.break_got = got;
    row.break_expected = want;
    row.break_ulp = ulp;
    row.break_zero_sign = zero_sign;
  }
  if (!framework_ok && row.framework_breaks++ == 0) {
    row.framework_break_x = x;
    row.framework_break_got = got;
    row.framework_break_expected = want;
  }
  // A zero result where zero is not even a faithful rounding of the exact value.
  if (wrong_zero) {
    ++row.wrong_zeros;
    // The negative tail's collapse: the greatest x <= -1 (flushes of tiny results, e.g. of
    // subnormals, are counted but do not move it).
    if (x <= -1 && (!row.wrong_zero_max_x || x > *row.wrong_zero_max_x)) row.wrong_zero_max_x = x;
  }
}
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
// value 0, x, x/2 and the minimum; for the derivative its range; not looked at when with_bounds
// is false), or steps the wrong way from the result before it (away from the argmin: down;
// toward it: up); and the last index i >= 1 whose result differs from the one before (0: none).
struct FactBounds {
  bool value = true;
  bool with_bounds = true;
  bool nearest = false;  // fact_breaks: the nearest rule, else the step rule
  double minimum = 0, deriv_lo = 0, deriv_hi = 0;
};
struct CleanScan {
  bool bad = false;
  std::size_t last_change = 0;
};
CleanScan scan_clean(const SweepChunk& c, const FactBounds& b, bool away);
// Which of the facts' bounds each result of a binary32 chunk breaks, in one vector pass
// (fold_chunk.cpp), by Facts::breaks_lower's and breaks_upper's nearest or step rule (the format's
// next value from the bits, as next_in): out[i] holds a bit per bound in Facts::bounds' order
// (value: 1 x<=0 => f<=0, 2 x>=0 => f>=0, 4 x>=0 => f<=x, 8 f>=x/2, 16 f>=min; derivative: 1
// below its range, 2 above it), 0 for a failed input, a non-finite x or result, and a result
// equal to c.y.rn[i] (which meets every bound under these rules). Returns whether any is set.
bool fact_breaks(const SweepChunk& c, const FactBounds& b, unsigned char* out);
// The results of a chunk whose fact_breaks bits (`breaks`) meet `bits`, as one bound
// observation's points (Facts::bound: the bound b, the size |r - b| / (|b|, or max(|x|, |r|) for
// b = 0)): b = coef x + add (the value's bounds 0, x, x/2 and the minimum) or, with `range`,
// lo where bit 1 is set and hi elsewhere (the derivative's range). Out: how many, the least and
// the largest x, the largest size (NaN never; -inf: none) and the index of the first result
// reaching it. In one vector pass (fold_chunk.cpp).
struct BoundRunSpec {
  unsigned bits = 0;
  bool range = false;
  double coef = 0, add = 0, lo = 0, hi = 0;
};
struct BoundRunOut {
  std::size_t n = 0;
  double lo = 0, hi = 0, size = 0;
  std::size_t at = 0;
};
BoundRunOut bound_run(const SweepChunk& c, const unsigned char* breaks, const BoundRunSpec& s);

}  // namespace gelucheck::report
