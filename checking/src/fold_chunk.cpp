// fold_chunk (fold.hpp): the exhaustive sweep's fold of a chunk of results, a vector of results at
// a time (Highway, the target chosen at run time). Every result's share of the row — its region's
// statistics (stats_add), its histogram bin, the plot envelope, the figures of classify_finite —
// is accumulated lane by lane and reduced in input order's terms (the first maximum is the one at
// the least index, counts add); only a result that some check flags (a NaN, a wrong zero or sign,
// a claim's break: what classify_kind and fold_verdict act on) is handed to them one at a time. So
// the cost of a chunk hardly depends on how wrong its results are. The sums of ulp errors are the
// one figure whose order differs from one result after the other: eight partial sums, result i
// into sum i mod 8 whatever the vector width, added in a fixed order when a region's run ends, so
// that they do not change with the CPU.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "fold_chunk.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "fold.hpp"
#include "gelucheck/lanes-inl.h"
#include "gelucheck/measure-inl.h"

HWY_BEFORE_NAMESPACE();
namespace gelucheck::report::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using namespace gelucheck::HWY_NAMESPACE::lanes;  // D, Vec, Mask, DI, VecI, MaskI, S, SI, M, MI
using gelucheck::HWY_NAMESPACE::ErrorLanes;
using gelucheck::HWY_NAMESPACE::measure_lanes;
using gelucheck::HWY_NAMESPACE::rel_of;

constexpr int kLaneBits = kMaxLanes == 8 ? 3 : kMaxLanes == 4 ? 2 : kMaxLanes == 2 ? 1 : 0;
static_assert(kMaxLanes == std::size_t{1} << kLaneBits);
// The partial sums: result i of a chunk goes into sum i mod kParts, whatever the vector width.
constexpr std::size_t kParts = 8;
static_assert(kMaxLanes <= kParts && kParts % kMaxLanes == 0);
constexpr Format kFmt = Format::binary32;

HWY_INLINE std::size_t count(Mask m) { return hn::CountTrue(D(), m); }
// A count a lane apart: one more in each lane of m; and the lanes' total.
HWY_INLINE VecI add_if(VecI c, Mask m) { return c + hn::IfThenElseZero(MI(m), SI(1)); }
HWY_INLINE std::size_t total_of(VecI c) {
  return static_cast<std::size_t>(hn::GetLane(hn::SumOfLanes(DI(), c)));
}
HWY_INLINE double max_of(Vec v) { return hn::GetLane(hn::MaxOfLanes(D(), v)); }

// The region of each lane's x as one number: the interval region (regions.hpp's order, by the
// same comparisons as interval_region) plus 8 when x is subnormal in binary32.
constexpr std::int64_t kSubnormalCode = 8;
HWY_INLINE VecI region_code(Vec x) {
  const double* e = kRegionEdges;
  VecI c = hn::Zero(DI());
  const VecI one = SI(1);
  c = c + hn::IfThenElseZero(MI(x >= S(e[0])), one);
  c = c + hn::IfThenElseZero(MI(x >= S(e[1])), one);
  c = c + hn::IfThenElseZero(MI(x >= S(e[2])), one);
  c = c + hn::IfThenElseZero(MI(x > S(e[3])), one);
  c = c + hn::IfThenElseZero(MI(x > S(e[4])), one);
  const Mask sub = hn::And(x != hn::Zero(D()), hn::Abs(x) < S(exact_pow2(info(kFmt).emin)));
  return c + hn::IfThenElseZero(MI(sub), SI(kSubnormalCode));
}

// stats_add's figures over the lanes of a run of inputs in one region.
struct RegionAcc {
  std::int64_t code = -1;  // region_code; -1: nothing yet
  // The counts, a lane apart (added up when the run ends).
  VecI n, finite, cr, faithful, below, subf, nan_mm, zs_mm;
  Vec max_ulp, max_abs, max_rel, max_abs_res, max_rel_norm;
  VecI max_at;
  Vec sum[kParts / kMaxLanes], sumsq[kParts / kMaxLanes];
  void reset(std::int64_t c) {
    const D d;
    code = c;
    n = finite = cr = faithful = below = subf = nan_mm = zs_mm = hn::Zero(DI());
    max_ulp = S(-kInf);
    max_abs = max_rel = max_abs_res = max_rel_norm = hn::Zero(d);
    max_at = hn::Zero(DI());
    for (std::size_t k = 0; k < kParts / hn::Lanes(d); ++k) sum[k] = sumsq[k] = hn::Zero(d);
  }
};

// The partial sums of acc added in a fixed order: ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)).
HWY_INLINE double total(const Vec* parts) {
  const D d;
  HWY_ALIGN double p[kParts];
  for (std::size_t k = 0; k < kParts / hn::Lanes(d); ++k) hn::Store(parts[k], d, p + k * hn::Lanes(d));
  return ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
}

// The run's figures into its region's Stats (and the subnormal region's), as stats_add on each
// of its results in turn would leave them (the sums aside: see above).
void flush(Row& row, const RegionAcc& a, const double* x, const double* got) {
  if (a.code < 0) return;
  const std::size_t n = total_of(a.n);
  if (n == 0) return;
  const double m = max_of(a.max_ulp);
  const std::int64_t at = hn::GetLane(
      hn::MinOfLanes(DI(), hn::IfThenElse(MI(a.max_ulp == S(m)), a.max_at, SI(std::numeric_limits<std::int64_t>::max()))));
  const double sum = total(a.sum), sumsq = total(a.sumsq);
  const double mabs = max_of(a.max_abs), mrel = max_of(a.max_rel), mres = max_of(a.max_abs_res),
               mnorm = max_of(a.max_rel_norm);
  auto into = [&](Stats& s) {
    s.count += n;
    if (!s.worst_x || m > s.max_ulp) {
      s.max_ulp = m;
      s.worst_x = x[at];
      s.worst_got = got[at];
    }
    s.finite += total_of(a.finite);
    s.mean_ulp += sum;
    s.rms_ulp += sumsq;
    s.correctly_rounded += total_of(a.cr);
    s.faithful += total_of(a.faithful);
    s.max_abs = std::max(s.max_abs, mabs);
    s.max_rel = std::max(s.max_rel, mrel);
    s.abs_below_resolution += total_of(a.below);
    s.max_abs_resolved = std::max(s.max_abs_resolved, mres);
    s.rel_subnormal_faithful += total_of(a.subf);
    s.max_rel_normal = std::max(s.max_rel_normal, mnorm);
    s.nan_mismatches += total_of(a.nan_mm);
    s.zero_sign_mismatches += total_of(a.zs_mm);
  };
  into(row.regions[static_cast<std::size_t>(a.code % kSubnormalCode)]);
  if (a.code >= kSubnormalCode) into(row.regions[static_cast<std::size_t>(Region::subnormal)]);
}

// Lanes i.. of a column, those past its end (the m < L left for a chunk's last vector) zero.
template <class DT, class T>
HWY_INLINE hn::Vec<DT> load_lanes(DT dt, const T* col, std::size_t i, std::size_t m) {
  if (m == hn::Lanes(dt)) return hn::LoadU(dt, col + i);
  HWY_ALIGN T b[kMaxLanes] = {};
  for (std::size_t j = 0; j < m; ++j) b[j] = col[i + j];
  return hn::Load(dt, b);
}
HWY_INLINE Vec load_lanes(const double* col, std::size_t i, std::size_t m) { return load_lanes(D(), col, i, m); }

// Lanes from per-result bytes (nonzero: set), for the first `m` lanes.
HWY_INLINE Mask mask_of_bytes(const unsigned char* b, std::size_t m) {
  std::uint64_t w = 0;
  std::memcpy(&w, b, m);
  if (w == 0) return hn::FirstN(D(), 0);
  HWY_ALIGN std::int64_t v[kMaxLanes] = {};
  for (std::size_t j = 0; j < m; ++j) v[j] = b[j] != 0 ? -1 : 0;
  return M(hn::Load(DI(), v) != hn::Zero(DI()));
}

// meets(c, e, want) for lanes without a NaN mismatch (zs: a zero-sign mismatch).
HWY_INLINE Mask meets_v(const Claim& c, Vec ulp, Vec abs, Vec want, Mask zs) {
  const D d;
  const Mask sign_ok = c.sign_of_zero ? hn::Not(zs) : hn::FirstN(d, hn::Lanes(d));
  switch (c.kind) {
    case Claim::Kind::none: return hn::FirstN(d, hn::Lanes(d));
    case Claim::Kind::ulp: return hn::And(sign_ok, c.inclusive ? ulp <= S(c.max_ulp) : ulp < S(c.max_ulp));
    case Claim::Kind::allclose:
      return hn::And(sign_ok, hn::Or(ulp == hn::Zero(d), hn::And(ulp < S(kInf), abs <= S(c.atol) + S(c.rtol) * hn::Abs(want))));
  }
  return hn::FirstN(d, 0);
}

// The observations the light way of FoldChunk adds to (classify_finite_result's places), by index
// into row.observations (found or added on first use; indices stay valid as others are added).
struct ObservationSlots {
  static constexpr std::size_t kSlots = static_cast<std::size_t>(FiniteKind::accuracy) + 1;
  static constexpr std::size_t kNone = ~std::size_t{0};
  std::size_t index[kSlots];
  ObservationSlots() { std::fill(std::begin(index), std::end(index), kNone); }
  Observation& get(Row& row, FiniteKind k) {
    const auto s = static_cast<std::size_t>(k);
    if (index[s] == kNone) {
      Observation& o = row.observation(defect_kind_of(k), fact_of(k));
      index[s] = static_cast<std::size_t>(&o - row.observations.data());
    }
    return row.observations[index[s]];
  }
};

// The flagged lanes of a vector at once, where one result after the other would only add to
// counts and extremes: every flagged lane takes the light way into one observation (its place by
// classify_finite_result's tests, made on the lanes below), whose first
// point and sample are already there; the claim's and the framework's first breaks are set where
// they break; the failure list is full. Then add() on each is count, worst (the largest size,
// first at ties, replacing only a larger one), lo/hi and breaks_claim; fold_verdict is counts,
// and the wrong zeros' greatest x <= -1. False (nothing done) otherwise: the caller goes lane by
// lane.
HWY_INLINE bool saturated(Row& row, const SweepChunk& c, Mask flagged, Mask light, Mask mfw, Mask mcl,
                          Mask wrong_zero, Mask zs, Vec x, Vec got, Vec ulp, Vec want, VecI code, VecI idx,
                          bool claims, double least_normal, ObservationSlots& slots,
                          std::vector<std::uint64_t>& failing, bool failures_full) {
  const D d;
  const DI di;
  if (!hn::AllTrue(d, hn::Or(hn::Not(flagged), light))) return false;
  const Mask breaks = hn::Not(claims ? mcl : mfw);
  const Mask tail = hn::And(wrong_zero, x <= S(-1));
  const Mask sub = hn::AndNot(tail, hn::And(wrong_zero, hn::Abs(want) <= S(least_normal)));
  const Mask zsv = hn::AndNot(hn::Or(tail, sub), zs);
  const Mask acc = hn::AndNot(hn::Or(hn::Or(tail, sub), zsv), breaks);
  const Mask neg = hn::RebindMask(d, hn::BitCast(di, got) < hn::Zero(di));
  FiniteKind slot;
  Vec size;
  Mask in;
  if (hn::AllTrue(d, hn::Or(hn::Not(flagged), acc))) {
    slot = FiniteKind::accuracy, size = ulp, in = acc;
  } else if (hn::AllTrue(d, hn::Or(hn::Not(flagged), hn::And(zsv, neg)))) {
    slot = FiniteKind::zero_sign_minus, size = x, in = zsv;
  } else if (hn::AllTrue(d, hn::Or(hn::Not(flagged), hn::AndNot(neg, zsv)))) {
    slot = FiniteKind::zero_sign_plus, size = x, in = zsv;
  } else if (hn::AllTrue(d, hn::Or(hn::Not(flagged), tail))) {
    slot = FiniteKind::flush_tail, size = x, in = tail;
  } else if (hn::AllTrue(d, hn::Or(hn::Not(flagged), sub))) {
    slot = FiniteKind::flush_subnormal, size = hn::Abs(x), in = sub;
  } else {
    return false;
  }
  in = hn::And(in, flagged);
  Observation& o = slots.get(row, slot);
  const Mask cb = hn::AndNot(mcl, flagged), fb = hn::AndNot(mfw, flagged);
  if (o.count == 0 || o.sample.size() < Observation::kSampleSize) return false;
  if (!hn::AllFalse(d, cb) && (row.claim_breaks == 0 || !failures_full)) return false;
  if (!hn::AllFalse(d, fb) && row.framework_breaks == 0) return false;
  // add() on each lane of `in`, in order.
  const double big = max_of(hn::IfThenElse(in, size, S(-kInf)));
  if (big > o.worst_size) {
    const std::int64_t at = hn::GetLane(hn::MinOfLanes(
        di, hn::IfThenElse(MI(hn::And(in, size == S(big))), idx, SI(std::numeric_limits<std::int64_t>::max()))));
    o.worst_size = big;
    o.worst_x = c.x[at];
    o.worst_expected = c.y.rn[at];
    o.worst_got = c.got[at];
  }
  o.lo = std::min(o.lo, hn::GetLane(hn::MinOfLanes(d, hn::IfThenElse(in, x, S(kInf)))));
  o.hi = std::max(o.hi, max_of(hn::IfThenElse(in, x, S(-kInf))));
  o.count += count(in);
  o.breaks_claim |= !hn::AllFalse(d, hn::And(in, breaks));
  // fold_verdict: counts; the failing per region of x (regions_of: its interval, subnormal, overall).
  row.claim_breaks += count(cb);
  row.framework_breaks += count(fb);
  const std::int64_t c0 = hn::GetLane(code);
  if (!hn::AllFalse(d, cb) && hn::AllTrue(d, hn::Or(hn::Not(cb), M(code == SI(c0))))) {
    const std::size_t k = count(cb);  // one region for all of them
    failing[static_cast<std::size_t>(c0 % kSubnormalCode)] += k;
    if (c0 >= kSubnormalCode) failing[static_cast<std::size_t>(Region::subnormal)] += k;
    failing[static_cast<std::size_t>(Region::overall)] += k;
  } else if (!hn::AllFalse(d, cb)) {
    HWY_ALIGN std::int64_t cs[kMaxLanes], bs[kMaxLanes];
    hn::Store(code, di, cs);
    hn::Store(hn::VecFromMask(di, MI(cb)), di, bs);
    for (std::size_t j = 0; j < hn::Lanes(d); ++j)
      if (bs[j] != 0) {
        ++failing[static_cast<std::size_t>(cs[j] % kSubnormalCode)];
        if (cs[j] >= kSubnormalCode) ++failing[static_cast<std::size_t>(Region::subnormal)];
        ++failing[static_cast<std::size_t>(Region::overall)];
      }
  }
  const Mask wz = hn::And(flagged, wrong_zero);
  if (!hn::AllFalse(d, wz)) {
    row.wrong_zeros += count(wz);
    const Mask t = hn::And(wz, x <= S(-1));
    if (!hn::AllFalse(d, t)) {
      const double g = max_of(hn::IfThenElse(t, x, S(-kInf)));
      if (!row.wrong_zero_max_x || g > *row.wrong_zero_max_x) row.wrong_zero_max_x = g;
    }
  }
  return true;
}

void FoldChunk(Row* row_p, const Claim* framework_p, const SweepChunk* c_p,
               std::vector<std::uint64_t>* failing, std::vector<exhaustive::Failure>* failures,
               std::size_t cap) {
  Row& row = *row_p;
  const Claim& framework = *framework_p;
  const SweepChunk& c = *c_p;
  const D d;
  const DI di;
  const std::size_t L = hn::Lanes(d);
  const FormatInfo fi = info(kFmt);
  const bool claims = row.claim && row.claim->claims_anything();
  const Vec zero = hn::Zero(d), inf = S(kInf);
  const auto nbins = static_cast<std::int64_t>(row.plot_envelope.size());

  RegionAcc acc;
  ObservationSlots slots;
  // The row-wide figures of classify_finite, and the histogram, over the chunk.
  Vec fw_max = S(-kInf), tail_min = inf;
  VecI fw_at = hn::Zero(di);
  VecI narrow = hn::Zero(di), narrow16 = hn::Zero(di), narrow_bf16 = hn::Zero(di);
  std::size_t no_result = 0;
  // The histogram's counts: zero, the bins, infinite; a copy per lane, so that increments of one
  // bin in a row do not wait for one another.
  constexpr std::size_t kHistSlots = kHistHi - kHistLo + 3;
  std::array<std::uint32_t, kHistSlots * kMaxLanes> hist{};  // slot s, lane j at [kMaxLanes s + j]
  std::int64_t run_bin = 0;                                   // the slot of the vectors just folded
  std::uint32_t run_count = 0;                                // whose lanes all fell in it
  const VecI iota = hn::Iota(di, 0);
  // The chunk's inputs are consecutive patterns as a rule: then x is monotone across it, and when
  // its two ends share a region, every input does (and none is in the plot's range when both ends
  // lie beyond one end of it).
  bool one_region = false, no_plot = false;
  std::int64_t chunk_code = 0;
  if (c.n > 0 && c.bits[c.n - 1] - c.bits[0] == c.n - 1) {
    auto code_of = [](double v) {
      return static_cast<std::int64_t>(interval_region(v)) + (subnormal_in(v, kFmt) ? kSubnormalCode : 0);
    };
    chunk_code = code_of(c.x[0]);
    one_region = code_of(c.x[c.n - 1]) == chunk_code;
    no_plot = (c.x[0] > kPlotHi && c.x[c.n - 1] > kPlotHi) || (c.x[0] < kPlotLo && c.x[c.n - 1] < kPlotLo);
  }

  for (std::size_t i = 0; i < c.n; i += L) {
    const std::size_t m = std::min(L, c.n - i);
    // The inputs of this vector (the last one of a chunk padded: its extra lanes are not valid).
    const Vec x = load_lanes(c.x, i, m), got = load_lanes(c.got, i, m), hi = load_lanes(c.y.hi, i, m),
              lo = load_lanes(c.y.lo, i, m), rn = load_lanes(c.y.rn, i, m), rd = load_lanes(c.y.rd, i, m),
              ru = load_lanes(c.y.ru, i, m);
    const VecI sc = load_lanes(di, c.y.scale, i, m), fl = load_lanes(di, c.y.floor_log2, i, m);
    Mask valid = hn::FirstN(d, m);
    if (c.failed != nullptr) {
      const Mask failed = hn::And(valid, mask_of_bytes(c.failed + i, m));
      no_result += count(failed);
      valid = hn::AndNot(failed, valid);
    }
    // The errors (measure(), lane by lane), measure() itself for the lanes it does not take. The
    // relative error of an unscaled f(x) (a division) only where it is needed: for a lane that
    // could raise its region's maximum, or one the lanes' figures are read from one by one.
    const ErrorLanes<D> el = measure_lanes<false>(d, got, rn, rd, ru, hi, lo, sc, fl, kFmt);
    Vec ulp = el.ulp, abs = el.abs, rel = el.rel;
    Mask rel_pending = hn::And(valid, el.unscaled);
    auto need_rel = [&]() HWY_ATTR {
      if (hn::AllFalse(d, rel_pending)) return;
      rel = rel_of(el, rel_pending, hi, lo);
      rel_pending = hn::FirstN(d, 0);
    };
    Mask zs_mm = el.zero_sign, nn_mm = hn::FirstN(d, 0);
    const Mask untaken = hn::AndNot(el.taken, valid);
    if (!hn::AllFalse(d, untaken)) {
      HWY_ALIGN double u[kMaxLanes], a[kMaxLanes], r[kMaxLanes];
      HWY_ALIGN std::int64_t t[kMaxLanes], nn[kMaxLanes], zz[kMaxLanes];
      hn::Store(ulp, d, u);
      hn::Store(abs, d, a);
      hn::Store(rel, d, r);
      hn::Store(hn::VecFromMask(di, MI(untaken)), di, t);
      hn::Store(hn::VecFromMask(di, MI(zs_mm)), di, zz);
      for (std::size_t j = 0; j < kMaxLanes; ++j) {
        nn[j] = 0;
        if (j >= m || t[j] == 0) continue;
        const std::size_t k = i + j;
        const Error e = measure(c.got[k], ref::Rounded{c.y.rn[k], c.y.rd[k], c.y.ru[k], c.y.hi[k], c.y.lo[k],
                                                      c.y.scale[k], c.y.floor_log2[k]}, kFmt);
        u[j] = e.ulp;
        a[j] = e.abs;
        r[j] = e.rel;
        nn[j] = e.nan_mismatch ? -1 : 0;
        zz[j] = e.zero_sign_mismatch ? -1 : 0;
      }
      ulp = hn::Load(d, u);
      abs = hn::Load(d, a);
      rel = hn::Load(d, r);
      nn_mm = M(hn::Load(di, nn) != hn::Zero(di));
      zs_mm = M(hn::Load(di, zz) != hn::Zero(di));
    }

    // measure_flags: |r - y| at or below y's resolution (2^-70 |y|, next up; none for a zero y or
    // one below 2^-1000, whose r is judged exactly), and a faithful r of a y below the least
    // normal. Where y is carried scaled by 2^-1000..2^-1 (never for binary32 but in principle),
    // measure_flags itself.
    const Mask hi_fin = hn::Abs(hi) < inf;
    const Mask y_zero = hn::And(hi == zero, lo == zero);
    const Mask tiny_scale = M(sc < SI(-1000));
    const Mask scale0 = M(sc == hn::Zero(di));
    const Vec hw = hn::IfThenZeroElse(hn::Or(y_zero, tiny_scale),
                                      hn::BitCast(d, hn::BitCast(di, (hn::Abs(hi) + hn::Abs(lo)) * S(0x1p-70)) + SI(1)));
    Mask below = hn::And(hi_fin, hn::And(abs < inf, abs <= hw));
    Mask subf = hn::And(hn::AndNot(y_zero, hi_fin),
                        hn::And(M(fl < SI(fi.emin)), hn::Or(got == rd, got == ru)));
    const Mask odd = hn::And(valid, hn::AndNot(hn::Or(scale0, tiny_scale), hi_fin));
    if (!hn::AllFalse(d, odd)) {
      need_rel();
      HWY_ALIGN std::int64_t bl[kMaxLanes], sf[kMaxLanes], nn[kMaxLanes], zz[kMaxLanes];
      HWY_ALIGN double u[kMaxLanes], a[kMaxLanes], rr[kMaxLanes];
      hn::Store(hn::VecFromMask(di, MI(below)), di, bl);
      hn::Store(hn::VecFromMask(di, MI(subf)), di, sf);
      hn::Store(hn::VecFromMask(di, MI(nn_mm)), di, nn);
      hn::Store(hn::VecFromMask(di, MI(zs_mm)), di, zz);
      hn::Store(ulp, d, u);
      hn::Store(abs, d, a);
      hn::Store(rel, d, rr);
      for (std::size_t j = 0; j < m; ++j) {
        const std::size_t k = i + j;
        const Error e{u[j], a[j], rr[j], nn[j] != 0, zz[j] != 0};
        const unsigned char f = measure_flags(c.got[k], e, ref::Rounded{c.y.rn[k], c.y.rd[k], c.y.ru[k], c.y.hi[k],
                                                                        c.y.lo[k], c.y.scale[k], c.y.floor_log2[k]},
                                              kFmt);
        bl[j] = (f & kAbsBelowResolution) != 0 ? -1 : 0;
        sf[j] = (f & kSubnormalFaithful) != 0 ? -1 : 0;
      }
      below = M(hn::Load(di, bl) != hn::Zero(di));
      subf = M(hn::Load(di, sf) != hn::Zero(di));
    }

    // stats_add, by region: each region present in the vector in turn (a vector holds one,
    // but where x crosses an edge).
    const VecI code = one_region ? SI(chunk_code) : region_code(x);
    const VecI idx = iota + SI(static_cast<std::int64_t>(i));
    const std::size_t part = (i % kParts) / L;
    const Vec abs_nn = hn::IfThenElse(hn::IsNaN(abs), inf, abs);
    Mask left = valid;
    while (!hn::AllFalse(d, left)) {
      // The region of the first lane left (as a rule, every lane's).
      std::int64_t first = hn::GetLane(code);
      if (!one_region && !hn::AllTrue(d, hn::Or(hn::Not(left), M(code == SI(first))))) {
        HWY_ALIGN std::int64_t cs[kMaxLanes];
        hn::Store(code, di, cs);
        first = cs[hn::FindFirstTrue(d, left)];
      }
      const Mask in = one_region ? left : hn::And(left, M(code == SI(first)));
      left = hn::AndNot(in, left);
      if (acc.code != first) {
        flush(row, acc, c.x, c.got);
        acc.reset(first);
      }
      acc.n = add_if(acc.n, in);
      const Mask up = hn::And(in, ulp > acc.max_ulp);
      acc.max_ulp = hn::IfThenElse(up, ulp, acc.max_ulp);
      acc.max_at = hn::IfThenElse(MI(up), idx, acc.max_at);
      const Mask fin = hn::And(in, ulp < inf);
      acc.finite = add_if(acc.finite, fin);
      acc.sum[part] = acc.sum[part] + hn::IfThenElseZero(fin, ulp);
      acc.sumsq[part] = acc.sumsq[part] + hn::IfThenElseZero(fin, ulp * ulp);
      acc.cr = add_if(acc.cr, hn::And(in, ulp <= S(0.5)));
      acc.faithful = add_if(acc.faithful, hn::And(in, ulp < S(1.0)));
      acc.max_abs = hn::Max(acc.max_abs, hn::IfThenElseZero(in, abs_nn));
      // A pending lane's rel = RN(ad / |y|) (y = hi + lo, rounded) can exceed a maximum M only if
      // ad > M |y| exactly; ad <= RN(RN(M |y|)(1 - 2^-51)) rules that out ((1 + u)^2 (1 - 2u) < 1,
      // u = 2^-53), so such lanes add nothing to either maximum and their division is skipped.
      if (!hn::AllFalse(d, hn::And(in, rel_pending))) {
        const Vec ay = hn::Abs(hi + lo), shrink = S(1 - 0x1p-51);
        const Mask could = hn::Or(el.ad > (acc.max_rel * ay) * shrink, el.ad > (acc.max_rel_norm * ay) * shrink);
        if (!hn::AllFalse(d, hn::And(hn::And(in, rel_pending), could))) need_rel();
      }
      const Vec rel_nn = hn::IfThenElse(hn::IsNaN(rel), inf, rel);
      acc.max_rel = hn::Max(acc.max_rel, hn::IfThenElseZero(in, rel_nn));
      acc.below = add_if(acc.below, hn::And(in, below));
      acc.max_abs_res = hn::Max(acc.max_abs_res, hn::IfThenElseZero(hn::AndNot(below, in), abs_nn));
      acc.subf = add_if(acc.subf, hn::And(in, subf));
      acc.max_rel_norm = hn::Max(acc.max_rel_norm, hn::IfThenElseZero(hn::AndNot(subf, in), rel_nn));
      acc.nan_mm = add_if(acc.nan_mm, hn::And(in, nn_mm));
      acc.zs_mm = add_if(acc.zs_mm, hn::And(in, zs_mm));
    }

    // histogram_add: bin ceil(log2 ulp) from the bits, zero and infinite apart.
    {
      const VecI b = hn::BitCast(di, ulp);
      const VecI biased = hn::And(hn::ShiftRight<52>(b), SI(0x7ff));
      const VecI frac = hn::And(b, SI(0xfffffffffffffLL));
      VecI k = biased - SI(1023) + hn::IfThenElseZero(frac != hn::Zero(di), SI(1));
      k = hn::IfThenElse(biased == hn::Zero(di), SI(kHistLo), k);
      k = hn::Min(hn::Max(k, SI(kHistLo)), SI(kHistHi)) - SI(kHistLo - 1);
      k = hn::IfThenElse(MI(ulp == zero), hn::Zero(di), k);
      k = hn::IfThenElse(MI(hn::Not(ulp < inf)), SI(kHistHi - kHistLo + 2), k);  // inf or NaN
      const std::int64_t k0 = hn::GetLane(k);
      if (hn::AllTrue(d, valid) && hn::AllTrue(di, k == SI(k0))) {
        // Consecutive inputs share a bin as a rule: the run's count stays in a register.
        if (k0 != run_bin) {
          hist[kMaxLanes * static_cast<std::size_t>(run_bin)] += run_count;
          run_bin = k0, run_count = 0;
        }
        run_count += static_cast<std::uint32_t>(L);
      } else if (hn::AllTrue(d, valid)) {
        HWY_ALIGN std::int64_t ks[kMaxLanes];
        hn::Store(hn::ShiftLeft<kLaneBits>(k) + iota, di, ks);
        for (std::size_t j = 0; j < kMaxLanes; ++j)
          if (j < L) ++hist[static_cast<std::size_t>(ks[j])];
      } else {
        HWY_ALIGN std::int64_t ks[kMaxLanes];
        hn::Store(hn::ShiftLeft<kLaneBits>(k) + iota, di, ks);
        HWY_ALIGN std::int64_t vs[kMaxLanes];
        hn::Store(hn::VecFromMask(di, MI(valid)), di, vs);
        for (std::size_t j = 0; j < m; ++j) hist[static_cast<std::size_t>(ks[j])] += vs[j] != 0;
      }
    }

    // The plot envelope over [kPlotLo, kPlotHi]: one bin for the vector, as a rule.
    {
      const Mask on = no_plot ? hn::FirstN(d, 0) : hn::And(valid, hn::And(x >= S(kPlotLo), x <= S(kPlotHi)));
      const Vec val = hn::IfThenElse(hn::IsNaN(ulp), inf, ulp);
      if (hn::AllTrue(d, on) && m == L && plot_bin(c.x[i]) == plot_bin(c.x[i + L - 1])) {
        // x is monotone over a vector of consecutive inputs: one bin for every lane.
        double& worst = row.plot_envelope[plot_bin(c.x[i])];
        worst = std::max(worst, max_of(val));
      } else if (!hn::AllFalse(d, on)) {
        const Vec t = hn::Min(hn::Max((x - S(kPlotLo)) / S(kPlotBin), zero), S(static_cast<double>(nbins)));
        const VecI bin = hn::Min(hn::ConvertTo(di, t), SI(nbins - 1));
        const std::int64_t b0 = hn::GetLane(hn::MinOfLanes(di, hn::IfThenElse(MI(on), bin, SI(nbins))));
        const std::int64_t b1 = hn::GetLane(hn::MaxOfLanes(di, hn::IfThenElse(MI(on), bin, SI(-1))));
        if (b0 == b1) {
          double& worst = row.plot_envelope[static_cast<std::size_t>(b0)];
          worst = std::max(worst, max_of(hn::IfThenElse(on, val, S(-1))));
        } else {
          HWY_ALIGN std::int64_t bs[kMaxLanes], os[kMaxLanes];
          HWY_ALIGN double vs[kMaxLanes];
          hn::Store(bin, di, bs);
          hn::Store(hn::VecFromMask(di, MI(on)), di, os);
          hn::Store(val, d, vs);
          for (std::size_t j = 0; j < m; ++j)
            if (os[j] != 0) {
              double& worst = row.plot_envelope[static_cast<std::size_t>(bs[j])];
              worst = std::max(worst, vs[j]);
            }
        }
      }
    }

    // classify_finite's figures, for a finite x.
    const Mask xfin = hn::And(valid, hn::Abs(x) < inf);
    const Mask gfin = hn::And(xfin, hn::Abs(got) < inf);
    {
      const Mask up = hn::And(gfin, ulp > fw_max);
      fw_max = hn::IfThenElse(up, ulp, fw_max);
      fw_at = hn::IfThenElse(MI(up), idx, fw_at);
      const Vec a = hn::Abs(got);
      const Mask nar = hn::And(xfin, hn::And(a >= S(0x1p-14), a <= S(65504)));
      const VecI gb = hn::BitCast(di, got);
      narrow = add_if(narrow, nar);
      narrow16 = add_if(narrow16, hn::And(nar, M(hn::And(gb, SI((std::int64_t{1} << (53 - info(Format::binary16).precision)) - 1)) ==
                                               hn::Zero(di))));
      narrow_bf16 = add_if(narrow_bf16, hn::And(nar, M(hn::And(gb, SI((std::int64_t{1} << (53 - info(Format::bfloat16).precision)) - 1)) ==
                                                  hn::Zero(di))));
      tail_min = hn::Min(tail_min, hn::IfThenElse(hn::And(gfin, hn::And(x <= S(-1), got != zero)), x, inf));
    }

    // What classify_kind and fold_verdict act on: any mismatch, a non-finite input, result or
    // error, a wrong zero, a claim's break. The rest need nothing more.
    const Mask all = hn::FirstN(d, hn::Lanes(d));
    const Mask mfw = meets_v(framework, ulp, abs, rn, zs_mm);
    const Mask mcl = claims ? meets_v(*row.claim, ulp, abs, rn, zs_mm) : all;
    const Mask wrong_zero = hn::And(got == zero, hn::And(rn != zero, ulp >= S(1)));
    const Mask plain = hn::And(hn::And(gfin, hn::AndNot(hn::Or(nn_mm, zs_mm), ulp < inf)),
                               hn::AndNot(wrong_zero, hn::And(mfw, mcl)));
    const Mask flagged = hn::AndNot(plain, valid);
    if (hn::AllFalse(d, flagged)) continue;
    // Each flagged result in turn: the light way where x and the result are finite and no NaN is
    // wrong (classify_kind's and fold_verdict's steps for them, on the masks above), theirs for
    // the rest.
    const Mask light = hn::And(gfin, hn::AndNot(nn_mm, ulp < inf));
    const double least_normal = exact_pow2(fi.emin);
    if (saturated(row, c, flagged, light, mfw, mcl, wrong_zero, zs_mm, x, got, ulp, rn, code, idx, claims,
                  least_normal, slots, *failing, failures->size() >= cap))
      continue;
    HWY_ALIGN std::int64_t fs[kMaxLanes], lt[kMaxLanes], fw_ok[kMaxLanes], cl_ok[kMaxLanes],
        wz[kMaxLanes], zs[kMaxLanes], nn[kMaxLanes];
    HWY_ALIGN double us[kMaxLanes], as[kMaxLanes], rs[kMaxLanes];
    need_rel();
    hn::Store(ulp, d, us);
    hn::Store(abs, d, as);
    hn::Store(rel, d, rs);
    hn::Store(hn::VecFromMask(di, MI(nn_mm)), di, nn);
    hn::Store(hn::VecFromMask(di, MI(flagged)), di, fs);
    hn::Store(hn::VecFromMask(di, MI(light)), di, lt);
    hn::Store(hn::VecFromMask(di, MI(mfw)), di, fw_ok);
    hn::Store(hn::VecFromMask(di, MI(mcl)), di, cl_ok);
    hn::Store(hn::VecFromMask(di, MI(wrong_zero)), di, wz);
    hn::Store(hn::VecFromMask(di, MI(zs_mm)), di, zs);
    for (std::size_t j = 0; j < m; ++j) {
      if (fs[j] == 0) continue;
      const std::size_t k = i + j;
      const double xk = c.x[k], gk = c.got[k], want = c.y.rn[k], uk = us[j];
      const std::size_t before = row.claim_breaks;
      if (lt[j] == 0) {
        const Error e{uk, as[j], rs[j], nn[j] != 0, zs[j] != 0};
        classify_kind(row, framework, xk, gk, want, e, kFmt);
        fold_verdict(row, framework, xk, gk, want, e);
      } else {
        // classify_kind's and fold_verdict's steps for such a result, on the masks' verdicts.
        const bool breaks = (claims ? cl_ok[j] : fw_ok[j]) == 0;
        const Classified place = classify_finite_result(xk, gk, want, uk, zs[j] != 0, breaks, kFmt);
        if (place.kind != FiniteKind::none) slots.get(row, place.kind).add(xk, want, gk, place.size, breaks);
        note_verdict(row, xk, gk, want, uk, zs[j] != 0, cl_ok[j] != 0, fw_ok[j] != 0, wz[j] != 0);
      }
      if (row.claim_breaks == before) continue;
      for (Region r : regions_of(xk, kFmt)) ++(*failing)[static_cast<std::size_t>(r)];
      if (failures->size() < cap) failures->push_back({c.bits[k], gk, want, uk, zs[j] != 0});
    }
  }
  flush(row, acc, c.x, c.got);
  hist[kMaxLanes * static_cast<std::size_t>(run_bin)] += run_count;

  if (!c.unavailable) row.no_result += no_result;
  for (std::size_t k = 0; k < kMaxLanes; ++k) {
    row.histogram.zero += hist[k];
    for (std::size_t b = 0; b < row.histogram.bins.size(); ++b) row.histogram.bins[b] += hist[kMaxLanes * (b + 1) + k];
    row.histogram.infinite += hist[kMaxLanes * (kHistSlots - 1) + k];
  }
  const double fm = max_of(fw_max);
  if (fm > -kInf) {
    const std::int64_t at = hn::GetLane(hn::MinOfLanes(
        di, hn::IfThenElse(MI(fw_max == S(fm)), fw_at, SI(std::numeric_limits<std::int64_t>::max()))));
    if (!row.finite_worst_x || fm > row.finite_max_ulp) {
      row.finite_max_ulp = fm;
      row.finite_worst_x = c.x[at];
      row.finite_worst_expected = c.y.rn[at];
      row.finite_worst_got = c.got[at];
    }
  }
  row.narrow_checked += total_of(narrow);
  row.narrow_in_binary16 += total_of(narrow16);
  row.narrow_in_bfloat16 += total_of(narrow_bf16);
  const double tm = hn::GetLane(hn::MinOfLanes(d, tail_min));
  if (tm < kInf && (!row.tail_min_nonzero_x || tm < *row.tail_min_nonzero_x)) row.tail_min_nonzero_x = tm;
}

void ScanClean(const SweepChunk* c_p, const FactBounds* b_p, bool away, CleanScan* out) {
  const SweepChunk& c = *c_p;
  const FactBounds& b = *b_p;
  const D d;
  const DI di;
  const std::size_t L = hn::Lanes(d);
  const Vec zero = hn::Zero(d), inf = S(kInf);
  Mask bad = hn::FirstN(d, 0);
  VecI last = hn::Zero(di);
  const VecI iota = hn::Iota(di, 0);
  HWY_ALIGN double bx[kMaxLanes], br[kMaxLanes], bp[kMaxLanes];
  for (std::size_t i = 0; i < c.n; i += L) {
    const std::size_t m = std::min(L, c.n - i);
    Vec x, r, rp;
    // rp: each lane's previous result (lane 0 of the chunk has none: its pair is not checked).
    if (m == L && i > 0) {
      x = hn::LoadU(d, c.x + i);
      r = hn::LoadU(d, c.got + i);
      rp = hn::LoadU(d, c.got + i - 1);
    } else {
      for (std::size_t j = 0; j < L; ++j) {
        const std::size_t k = j < m ? i + j : i;  // padding: the first lane's input, no pair
        bx[j] = c.x[k];
        br[j] = c.got[k];
        bp[j] = j < m && k > 0 ? c.got[k - 1] : c.got[k];
      }
      x = hn::Load(d, bx);
      r = hn::Load(d, br);
      rp = hn::Load(d, bp);
    }
    bad = hn::Or(bad, hn::Not(hn::Abs(r) < inf));
    if (!b.with_bounds) {
    } else if (b.value) {
      bad = hn::Or(bad, hn::Or(hn::And(x <= zero, r > zero), hn::And(x >= zero, hn::Or(r < zero, r > x))));
      bad = hn::Or(bad, hn::Or(r < x * S(0.5), r < S(b.minimum)));
    } else {
      bad = hn::Or(bad, hn::Or(r < S(b.deriv_lo), r > S(b.deriv_hi)));
    }
    bad = hn::Or(bad, away ? r < rp : r > rp);
    last = hn::IfThenElse(hn::RebindMask(di, r != rp), iota + SI(static_cast<std::int64_t>(i)), last);
  }
  out->bad = !hn::AllFalse(d, bad);
  out->last_change = static_cast<std::size_t>(hn::GetLane(hn::MaxOfLanes(di, last)));
}

// The binary32 value after (up) or before each lane's r, itself a binary32 value: next_in's rule
// on the bits (the magnitude's pattern one up when moving away from zero, one down toward it;
// from a zero, the least subnormal of the direction's sign; past FLT_MAX, the infinity).
HWY_INLINE Vec next32(Vec r, bool up) {
  const D d;
  const hn::Rebind<float, D> df;
  const hn::Rebind<std::int32_t, D> d32;
  const auto f = hn::DemoteTo(df, r);  // exact: r is a binary32 value
  const auto away = hn::RebindMask(d32, up ? hn::Gt(f, hn::Zero(df)) : hn::Lt(f, hn::Zero(df)));
  const auto b = hn::BitCast(d32, f), one = hn::Set(d32, 1);
  const Vec n = hn::PromoteTo(d, hn::BitCast(df, hn::IfThenElse(away, hn::Add(b, one), hn::Sub(b, one))));
  return hn::IfThenElse(r == hn::Zero(d), S(up ? 0x1p-149 : -0x1p-149), n);
}
// RN to binary32 (round_to_format): one conversion each way, to nearest.
HWY_INLINE Vec rn32(Vec v) {
  const hn::Rebind<float, D> df;
  return hn::PromoteTo(D(), hn::DemoteTo(df, v));
}

void FactBreaks(const SweepChunk* c_p, const FactBounds* b_p, unsigned char* out, bool* any_p) {
  const SweepChunk& c = *c_p;
  const FactBounds& b = *b_p;
  const D d;
  const DI di;
  const std::size_t L = hn::Lanes(d);
  const Vec zero = hn::Zero(d), inf = S(kInf);
  bool any = false;
  HWY_ALIGN std::int64_t bits_out[kMaxLanes];
  for (std::size_t i = 0; i < c.n; i += L) {
    const std::size_t m = std::min(L, c.n - i);
    // Past the end x = r = want = 0: a result equal to want, not looked at.
    const Vec x = load_lanes(c.x, i, m), r = load_lanes(c.got, i, m), want = load_lanes(c.y.rn, i, m);
    // Finite x and result (NaN compares false), not the correctly rounded result, not failed.
    Mask ok = hn::And(hn::Abs(x) < inf, hn::Abs(r) < inf);
    ok = hn::AndNot(M(hn::BitCast(di, r) == hn::BitCast(di, want)), ok);
    if (c.failed != nullptr) ok = hn::AndNot(mask_of_bytes(c.failed + i, m), ok);
    VecI bits = hn::Zero(di);
    if (!hn::AllFalse(d, ok)) {
      // Facts::breaks_lower(r, lower_down, lower_src) and breaks_upper(r, upper_up, upper_src).
      auto lower = [&](Vec down, Vec src) {
        return b.nearest ? hn::And(r < src, r < rn32(src)) : hn::And(r < down, next32(r, true) <= down);
      };
      auto upper = [&](Vec up, Vec src) {
        return b.nearest ? hn::And(r > src, r > rn32(src)) : hn::And(r > up, next32(r, false) >= up);
      };
      auto bit = [&](Mask m_, std::int64_t v) { bits = hn::Or(bits, hn::IfThenElseZero(MI(m_), SI(v))); };
      if (b.value) {
        bit(hn::And(x <= zero, upper(zero, zero)), 1);
        bit(hn::And(x >= zero, lower(zero, zero)), 2);
        bit(hn::And(x >= zero, upper(x, x)), 4);
        const Vec h = x * S(0.5);  // x/2 exactly (a binary32 x): bounds' h_down is h
        bit(lower(h, h), 8);
        bit(lower(S(b.minimum), S(b.minimum)), 16);
      } else {
        const Mask below = lower(S(b.deriv_lo), S(b.deriv_lo));
        bit(below, 1);
        bit(hn::AndNot(below, upper(S(b.deriv_hi), S(b.deriv_hi))), 2);
      }
      bits = hn::IfThenElseZero(MI(ok), bits);
      any = any || !hn::AllFalse(di, bits != hn::Zero(di));
    }
    hn::Store(bits, di, bits_out);
    for (std::size_t j = 0; j < m; ++j) out[i + j] = static_cast<unsigned char>(bits_out[j]);
  }
  *any_p = any;
}

void BoundRun(const SweepChunk* c_p, const unsigned char* breaks, const BoundRunSpec* s_p, BoundRunOut* out) {
  const SweepChunk& c = *c_p;
  const BoundRunSpec& s = *s_p;
  const D d;
  const DI di;
  const std::size_t L = hn::Lanes(d);
  const Vec zero = hn::Zero(d), inf = S(kInf);
  VecI n = hn::Zero(di), at = hn::Zero(di);
  Vec lo = inf, hi = S(-kInf), big = S(-kInf);
  const VecI iota = hn::Iota(di, 0);
  HWY_ALIGN std::int64_t bb[kMaxLanes];
  for (std::size_t i = 0; i < c.n; i += L) {
    const std::size_t m = std::min(L, c.n - i);
    for (std::size_t j = 0; j < L; ++j) bb[j] = j < m ? breaks[i + j] : 0;
    const VecI bits = hn::Load(di, bb);
    const Mask in = M(hn::And(bits, SI(s.bits)) != hn::Zero(di));
    if (hn::AllFalse(d, in)) continue;
    const Vec x = load_lanes(c.x, i, m), r = load_lanes(c.got, i, m);
    // Facts::bound_size, lane by lane (the same operations: exact b, one subtraction, one division).
    const Vec b = s.range ? hn::IfThenElse(M(hn::And(bits, SI(1)) != hn::Zero(di)), S(s.lo), S(s.hi))
                          : hn::Add(hn::Mul(x, S(s.coef)), S(s.add));
    const Vec scale = hn::IfThenElse(b != zero, hn::Abs(b), hn::Max(hn::Abs(x), hn::Abs(r)));
    const Vec size = hn::Div(hn::Abs(hn::Sub(r, b)), scale);
    n = add_if(n, in);
    lo = hn::IfThenElse(in, hn::Min(lo, x), lo);
    hi = hn::IfThenElse(in, hn::Max(hi, x), hi);
    const Mask up = hn::And(in, size > big);  // per lane: the first largest (NaN never)
    big = hn::IfThenElse(up, size, big);
    at = hn::IfThenElse(MI(up), iota + SI(static_cast<std::int64_t>(i)), at);
  }
  out->n = total_of(n);
  out->lo = hn::GetLane(hn::MinOfLanes(d, lo));
  out->hi = max_of(hi);
  out->size = max_of(big);
  out->at = static_cast<std::size_t>(hn::GetLane(hn::MinOfLanes(
      di, hn::IfThenElse(MI(big == S(out->size)), at, SI(std::numeric_limits<std::int64_t>::max())))));
}

}  // namespace gelucheck::report::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gelucheck::report {
HWY_EXPORT(FoldChunk);

void fold_chunk(Row& row, const Claim& framework, const SweepChunk& c, std::vector<std::uint64_t>& failing,
                std::vector<exhaustive::Failure>& failures, std::size_t cap) {
  if (row.against != row.form) throw std::logic_error("fold_chunk: a row against its own form only");
  HWY_DYNAMIC_DISPATCH(FoldChunk)(&row, &framework, &c, &failing, &failures, cap);
}

HWY_EXPORT(ScanClean);

CleanScan scan_clean(const SweepChunk& c, const FactBounds& b, bool away) {
  CleanScan out;
  if (c.n > 0) HWY_DYNAMIC_DISPATCH(ScanClean)(&c, &b, away, &out);
  return out;
}

HWY_EXPORT(FactBreaks);
HWY_EXPORT(BoundRun);

BoundRunOut bound_run(const SweepChunk& c, const unsigned char* breaks, const BoundRunSpec& s) {
  BoundRunOut out;
  if (c.n > 0) HWY_DYNAMIC_DISPATCH(BoundRun)(&c, breaks, &s, &out);
  return out;
}

bool fact_breaks(const SweepChunk& c, const FactBounds& b, unsigned char* out) {
  bool any = false;
  if (c.n > 0) HWY_DYNAMIC_DISPATCH(FactBreaks)(&c, &b, out, &any);
  return any;
}
}  // namespace gelucheck::report
#endif  // HWY_ONCE
