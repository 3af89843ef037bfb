// The fold of fold.hpp: each measured result of the campaign into its row's per-region
// statistics, histogram and plot envelope, and the claim's and the framework's first breaks.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>

#include <mpfr.h>

#include "gelucheck/measure.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"
#include "gelucheck/report.hpp"
#include "fold.hpp"

namespace gelucheck::report {


void histogram_add(Histogram& h, double ulp) {
  if (ulp == 0) { ++h.zero; return; }
  if (std::isinf(ulp) || std::isnan(ulp)) { ++h.infinite; return; }
  // bin k holds (2^(k-1), 2^k]: k = ceil(log2 ulp), exactly from the bits (ulp > 0 finite):
  // for ulp = 1.f·2^E (E the unbiased exponent), k = E when f = 0, else E + 1; subnormal ulps
  // (below every bin) go to the first.
  const auto bits = std::bit_cast<std::uint64_t>(ulp);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  int k = biased == 0 ? kHistLo : biased - 1023 + ((bits & 0xfffffffffffffULL) != 0 ? 1 : 0);
  k = std::clamp(k, kHistLo, kHistHi);
  ++h.bins[static_cast<std::size_t>(k - kHistLo)];
}

void stats_add(Stats& s, double x, double got, const Error& e, unsigned char flags) {
  ++s.count;
  // The first point reaching the max (strictly greater replaces), so ties keep campaign order.
  if (!s.worst_x || e.ulp > s.max_ulp) {
    s.max_ulp = e.ulp;
    s.worst_x = x;
    s.worst_got = got;
  }
  if (std::isfinite(e.ulp)) {
    ++s.finite;
    s.mean_ulp += e.ulp;          // sums for now, divided in stats_finish
    s.rms_ulp += e.ulp * e.ulp;
  }
  if (e.correctly_rounded()) ++s.correctly_rounded;
  if (e.faithful()) ++s.faithful;
  // A NaN measure can only come from a NaN mismatch, an infinite error (docs/reference.md §5).
  const double abs = std::isnan(e.abs) ? kInf : e.abs, rel = std::isnan(e.rel) ? kInf : e.rel;
  s.max_abs = std::max(s.max_abs, abs);
  s.max_rel = std::max(s.max_rel, rel);
  if (flags & kAbsBelowResolution) ++s.abs_below_resolution;
  else s.max_abs_resolved = std::max(s.max_abs_resolved, abs);
  if (flags & kSubnormalFaithful) ++s.rel_subnormal_faithful;
  else s.max_rel_normal = std::max(s.max_rel_normal, rel);
  if (e.nan_mismatch) ++s.nan_mismatches;
  if (e.zero_sign_mismatch) ++s.zero_sign_mismatches;
}

namespace {

// Whether a double a with 2^-14 <= |a| <= 65504 is a value of a format of `precision` bits that
// holds that range as normal numbers (binary16, bfloat16, binary32): a is a normal double there,
// so it is one exactly when its 52-bit stored significand has zeros below the format's
// precision - 1 stored bits. The same answer as round_to_format(a, fmt) == a (a value of fmt
// rounds to itself; any other double to a different value), without its two ldexp calls: those
// were 17 % of the exhaustive sweep's time where the reference is a closed form.
bool fits_in(double a, int precision) {
  const std::uint64_t below = (std::uint64_t{1} << (53 - precision)) - 1;
  return (std::bit_cast<std::uint64_t>(a) & below) == 0;
}

}  // namespace

// The figures classify() keeps of a finite input's result, whatever it is (the at-a-glance worst,
// the narrow-format counts, the tail's least nonzero input).
void classify_finite(Row& row, double x, double got, double want, const Error& e, Format fmt) {
  if (std::isfinite(got) && (!row.finite_worst_x || e.ulp > row.finite_max_ulp)) {
    row.finite_max_ulp = e.ulp;
    row.finite_worst_x = x;
    row.finite_worst_expected = want;
    row.finite_worst_got = got;
  }
  // Only the formats a narrower one can hide in are counted (the diagnosis reads no other).
  if (const double a = std::fabs(got);
      (fmt == Format::binary64 || fmt == Format::binary32) && a >= 0x1p-14 && a <= 65504) {
    ++row.narrow_checked;
    row.narrow_in_binary16 += fits_in(got, info(Format::binary16).precision);
    row.narrow_in_bfloat16 += fits_in(got, info(Format::bfloat16).precision);
    if (fmt == Format::binary64) row.narrow_in_binary32 += fits_in(got, info(Format::binary32).precision);
  }
  if (x <= -1 && std::isfinite(got) && got != 0 && (!row.tail_min_nonzero_x || x < *row.tail_min_nonzero_x))
    row.tail_min_nonzero_x = x;
}

// The one classification of a result of a row against its own form (gelucheck/defects.hpp):
// each result lands in at most one observation, so a NaN is not also an accuracy break and a
// flush does not swell the accuracy's maximum (masking), and each kind's count is exact.
// `breaks` is judged against the row's claim, or the framework default where it claims nothing:
// a measured-only subject's defects say which claim they would break. (With classify_finite for a
// finite x: classify() below.)
void classify_kind(Row& row, const Claim& framework, double x, double got, double want, const Error& e,
                   Format fmt) {
  const Claim& judge = row.claim && row.claim->claims_anything() ? *row.claim : framework;
  const bool breaks = !meets(judge, e, want);
  if (std::isinf(x)) {
    // The limits are exact values of every format (±0, 1, +inf): anything else is wrong there.
    // Only the sign of a zero wrong is a sign error like any other (one cause with the tail's).
    if (e.zero_sign_mismatch && !e.nan_mismatch && e.ulp <= 0.5)
      row.observation(DefectKind::zero_sign, std::signbit(got) ? "-0" : "+0").add(x, want, got, x, breaks);
    else if (e.ulp > 0.5 || e.nan_mismatch || e.zero_sign_mismatch)
      row.observation(DefectKind::limit, x > 0 ? "+inf" : "-inf").add(x, want, got, 0, breaks);
    return;
  }
  if (std::isnan(x)) return;  // NaN in, NaN out is checked by the property suite
  if (std::isnan(got)) {
    // size -|x|: the worst is the smallest |x|, where NaN starts.
    if (e.nan_mismatch) row.observation(DefectKind::nan).add(x, want, got, -std::fabs(x), breaks);
    return;
  }
  if (std::isinf(got) && !std::isinf(want)) {
    row.observation(DefectKind::overflow).add(x, want, got, -std::fabs(x), breaks);
    return;
  }
  const Classified c = classify_finite_result(x, got, want, e.ulp, e.zero_sign_mismatch, breaks, fmt);
  if (c.kind != FiniteKind::none)
    row.observation(defect_kind_of(c.kind), fact_of(c.kind)).add(x, want, got, c.size, breaks);
}

DefectKind defect_kind_of(FiniteKind k) {
  switch (k) {
    case FiniteKind::flush_tail:
    case FiniteKind::flush_subnormal: return DefectKind::flush;
    case FiniteKind::zero_sign_minus:
    case FiniteKind::zero_sign_plus: return DefectKind::zero_sign;
    case FiniteKind::accuracy:
    case FiniteKind::none: break;
  }
  return DefectKind::accuracy;
}

const char* fact_of(FiniteKind k) {
  switch (k) {
    case FiniteKind::flush_tail: return "tail";
    case FiniteKind::flush_subnormal: return "subnormal";
    case FiniteKind::zero_sign_minus: return "-0";
    case FiniteKind::zero_sign_plus: return "+0";
    case FiniteKind::accuracy:
    case FiniteKind::none: break;
  }
  return "";
}

namespace {

// The evidence for "inputs quantized first": neighbours in campaign order that one narrower
// format cannot tell apart, whose exact results the target format can. A subject that rounds its
// input to that format first gives them equal results; a right one almost never does.
void quantized_pair(Row& row, double x, double got, double want) {
  if (row.quant_have_prev && std::isfinite(x) && std::isfinite(row.quant_prev_x) && std::isfinite(got) &&
      std::isfinite(row.quant_prev_got) && want != row.quant_prev_want && x != row.quant_prev_x) {
    const bool same = got == row.quant_prev_got;
    if (round_to_format(x, Format::binary16) == round_to_format(row.quant_prev_x, Format::binary16) &&
        std::fabs(x) <= 65504) {
      ++row.quant_pairs_binary16;
      row.quant_equal_binary16 += same;
    }
    if (round_to_format(x, Format::bfloat16) == round_to_format(row.quant_prev_x, Format::bfloat16)) {
      ++row.quant_pairs_bfloat16;
      row.quant_equal_bfloat16 += same;
    }
  }
  row.quant_have_prev = true;
  row.quant_prev_x = x;
  row.quant_prev_got = got;
  row.quant_prev_want = want;
}

}  // namespace

unsigned char measure_flags(double r, const Error& e, const ref::Enclosure& y, Format fmt) {
  unsigned char f = 0;
  mpfr_srcptr lo = y.lo(), hi = y.hi();
  if (mpfr_nan_p(lo) || mpfr_nan_p(hi) || mpfr_inf_p(lo) || mpfr_inf_p(hi)) return 0;
  // Half-width of the enclosure, rounded up: the true |r - y| is within it of e.abs (measure()
  // takes |r - m| at the midpoint m). An e.abs at or below it says only "|r - y| <= 2 hw".
  Mpfr w(std::max(mpfr_get_prec(lo), mpfr_get_prec(hi)) + 2);
  mpfr_sub(w, hi, lo, MPFR_RNDU);  // exact at this precision
  const double hw = std::ldexp(mpfr_get_d(w, MPFR_RNDU), -1);
  if (std::isfinite(e.abs) && e.abs <= hw) f |= kAbsBelowResolution;
  // Below the least normal the format's spacing is absolute (2^(emin-p+1)), so a faithful result
  // there has a relative error up to 1 (±0 for a tiny y, 2^-1074 for y just above 2^-1075): the
  // format's gradual underflow, not an error of the implementation.
  const bool y_zero = mpfr_zero_p(lo) && mpfr_zero_p(hi);
  if (!y_zero && y.decided() && y.floor_log2() < info(fmt).emin &&
      (r == y.rounded_down(fmt) || r == y.rounded_up(fmt)))
    f |= kSubnormalFaithful;
  return f;
}

// The same facts from the fast reference's result (gelucheck/fast_reference.hpp): y.hi + y.lo
// carries f(x) to 2^-70 relative, so that is the resolution below which |r - y| cannot be told
// from 0; the rest as above (Rounded is always decided).
unsigned char measure_flags(double r, const Error& e, const ref::Rounded& y, Format fmt) {
  unsigned char f = 0;
  if (std::isnan(y.hi) || std::isinf(y.hi)) return 0;
  const bool y_zero = y.hi == 0 && y.lo == 0;
  // 2^-70 |f(x)|, rounded up (one more ulp of the double is ample); 0 for a zero f(x), whose
  // result r is then judged exactly.
  const double hw = y_zero || y.scale < -1000 ? 0
                    : std::bit_cast<double>(std::bit_cast<std::uint64_t>(ldexp_fast(
                          std::fabs(y.hi) + std::fabs(y.lo), y.scale - 70)) + 1);  // next up
  if (std::isfinite(e.abs) && e.abs <= hw) f |= kAbsBelowResolution;
  if (!y_zero && y.floor_log2 < info(fmt).emin && (r == y.rd || r == y.ru)) f |= kSubnormalFaithful;
  return f;
}

void stats_finish(Stats& s) {
  if (s.finite) {
    s.mean_ulp /= static_cast<double>(s.finite);
    s.rms_ulp = std::sqrt(s.rms_ulp / static_cast<double>(s.finite));
  }
}

// The bin of Row::plot_envelope that holds x (in [kPlotLo, kPlotHi]).
std::size_t plot_bin(double x) {
  const auto nbins = static_cast<std::size_t>((kPlotHi - kPlotLo) / kPlotBin) + 1;
  return std::min(nbins - 1, static_cast<std::size_t>((x - kPlotLo) / kPlotBin));
}

// Folds one measured result into its row (input order: the caller goes through the points in
// order, so first-reached maxima and first breaks are those of one pass over all points).
// Flattened (stats_add, the histogram, the claims' meets() inlined) and e copied once: the
// campaign calls this for every input, and the stores into the row's statistics would otherwise
// make the compiler reload e's fields after each of them.
[[gnu::flatten]] void fold(Row& row, const Claim& framework, double x, double got, double want,
                           const Error& e_in, unsigned char flags, Format fmt, bool with_overall) {
  const Error e = e_in;
  for (Region r : regions_of(x, fmt))
    if (with_overall || r != Region::overall)
      stats_add(row.regions[static_cast<std::size_t>(r)], x, got, e, flags);
  histogram_add(row.histogram, e.ulp);
  if (x >= kPlotLo && x <= kPlotHi) {
    double& worst = row.plot_envelope[plot_bin(x)];
    worst = std::max(worst, std::isnan(e.ulp) ? kInf : e.ulp);
  }
  if (row.against != row.form) return;
  if (std::isfinite(x)) classify_finite(row, x, got, want, e, fmt);
  classify_kind(row, framework, x, got, want, e, fmt);
  if (with_overall && (fmt == Format::binary64 || fmt == Format::binary32)) quantized_pair(row, x, got, want);
  fold_verdict(row, framework, x, got, want, e);
}

// The rest of fold() for a row against its own form: the claim's and the framework's breaks, the
// wrong zeros, where NaN comes out.
void fold_verdict(Row& row, const Claim& framework, double x, double got, double want, const Error& e) {
  note_verdict(row, x, got, want, e.ulp, e.zero_sign_mismatch,
               !row.claim->claims_anything() || meets(*row.claim, e, want), meets(framework, e, want),
               got == 0 && want != 0 && e.ulp >= 1);
  if (e.nan_mismatch && std::isnan(got)) {
    if (x == kInf) row.nan_at_plus_inf = true;
    else if (x == -kInf) row.nan_at_minus_inf = true;
    else if (!row.nan_min_abs_x || std::fabs(x) < *row.nan_min_abs_x) row.nan_min_abs_x = std::fabs(x);
  }
}

}  // namespace gelucheck::report
