// gelucheck/measure-inl.h — measure(r, Rounded) on a vector of results (Highway, per target: this
// header is included once per target by a file that includes hwy/foreach_target.h, as Highway's
// own -inl.h headers are). Each lane gets the operations measure() gives one result, so the figures
// are the same bit for bit; it takes the lanes whose result is finite and whose f(x) is carried
// unscaled (finite, nonzero) or only by its sign, and says which it took: the others are measure()'s.
// Used by measure_batch (reference/src/measure_batch.cpp) and the exhaustive sweep's fold
// (checking/src/fold_chunk.cpp), which measures as it folds. The bound of the figures: above
// measure(r, Rounded) in reference/src/measure.cpp.

// Per-target include guard (Highway's idiom).
#if defined(GELUCHECK_MEASURE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GELUCHECK_MEASURE_INL_H_
#undef GELUCHECK_MEASURE_INL_H_
#else
#define GELUCHECK_MEASURE_INL_H_
#endif

#include <hwy/highway.h>

#include <cstdint>
#include <limits>

#include "gelucheck/measure.hpp"

HWY_BEFORE_NAMESPACE();
namespace gelucheck::HWY_NAMESPACE {

// The Error of each lane, where `taken` (elsewhere unspecified): ulp, abs, rel, and the zero-sign
// mismatch (no NaN mismatch is possible in the lanes taken). Without kRel, rel is left 0 in the
// lanes of an unscaled f(x) (`unscaled`), to be had as rel_of(): its division is what a caller
// that needs rel only now and then saves; `ad` is |r - f(x)| there.
template <class D>
struct ErrorLanes {
  hwy::HWY_NAMESPACE::Vec<D> ulp, abs, rel, ad;
  hwy::HWY_NAMESPACE::Mask<D> zero_sign, taken, unscaled;
};

template <bool kRel = true, class D, class V = hwy::HWY_NAMESPACE::Vec<D>,
          class VI = hwy::HWY_NAMESPACE::Vec<hwy::HWY_NAMESPACE::RebindToSigned<D>>>
HWY_INLINE ErrorLanes<D> measure_lanes(D d, V r, V rn, V rd, V ru, V hi, V lo, VI scale, VI floor_log2,
                                       Format fmt) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::RebindToSigned<D> di;
  using M = hn::Mask<D>;
  const FormatInfo fi = info(fmt);
  const V zero = hn::Zero(d), inf = hn::Set(d, kInf);
  const V denorm = hn::Set(d, std::numeric_limits<double>::denorm_min());
  const M finite_r = hn::Abs(r) < inf;
  // A: f(x) unscaled, finite and nonzero (measure_inline's case). B: only f(x)'s sign carried.
  const M a = hn::And(hn::And(hn::RebindMask(d, scale == hn::Zero(di)), hn::And(hi != zero, hn::Abs(hi) < inf)),
                      finite_r);
  const M b = hn::And(hn::RebindMask(d, scale == hn::Set(di, ref::kBelowScale)), finite_r);
  // ulp(y) = 2^(max(floor(log2|y|), emin) - p + 1); the figure is |r - y|·2^-ulp_exp (the power
  // of two is a normal double for every format here: ulp_exp in [-1074, 1024 - p]).
  const VI ulp_exp = hn::Max(floor_log2, hn::Set(di, fi.emin)) - hn::Set(di, fi.precision - 1);
  const V inv_ulp = hn::BitCast(d, hn::ShiftLeft<52>(hn::Set(di, 1023) - ulp_exp));
  // A: d = r - (hi + lo) in double-double (detail::distance_dd: two TwoSums).
  const V s = r + hn::Neg(hi), sb = s - r;
  const V t = (r - (s - sb)) + (hn::Neg(hi) - sb);
  const V u = t - lo;
  const V dh = s + u, db = dh - s;
  const V dl = (s - (dh - db)) + (u - db);
  const V ad = hn::Abs(dh + dl);
  const V abs_a = hn::IfThenElse(hn::And(ad == zero, r != hi + lo), denorm, ad);
  const V rel_a = kRel ? ad / hn::Abs(hi + lo) : zero;
  // B: |y| below 2^-(2^20): a zero r is |y| away (denorm_min, 0 ulp, relative 1), any other r
  // is |r| away (relative +inf).
  const M r0 = r == zero;
  const V ar = hn::Abs(r);
  V ulp = hn::IfThenElse(a, ad * inv_ulp, hn::IfThenElseZero(hn::Not(r0), ar * inv_ulp));
  // detail::decided_ulp: on the side of 0.5 and 1 the exact decisions put it.
  ulp = hn::IfThenElse(r == rn, hn::Min(ulp, hn::Set(d, 0.5)), hn::Max(ulp, hn::Set(d, 0x1.0000000000001p-1)));
  ulp = hn::IfThenElse(hn::Or(r == rd, r == ru), hn::Min(ulp, hn::Set(d, 0x1.fffffffffffffp-1)),
                       hn::Max(ulp, hn::Set(d, 1.0)));
  // A zero r whose sign is not f(x)'s (hi carries it in both cases).
  const V sign = hn::Set(d, -0.0);
  const M zs = hn::And(r0, hn::RebindMask(d, hn::BitCast(di, hn::And(r, sign)) != hn::BitCast(di, hn::And(hi, sign))));
  return {ulp, hn::IfThenElse(a, abs_a, hn::IfThenElse(r0, denorm, ar)),
          hn::IfThenElse(a, rel_a, hn::IfThenElse(r0, hn::Set(d, 1.0), inf)), ad, zs, hn::Or(a, b), a};
}

// rel of the unscaled lanes of e (those of lanes, in the other lanes e.rel as it is): measure()'s
// |r - f(x)| / |f(x)|.
template <class D, class V = hwy::HWY_NAMESPACE::Vec<D>, class M = hwy::HWY_NAMESPACE::Mask<D>>
HWY_INLINE V rel_of(const ErrorLanes<D>& e, M lanes, V hi, V lo) {
  namespace hn = hwy::HWY_NAMESPACE;
  return hn::IfThenElse(hn::And(lanes, e.unscaled), e.ad / hn::Abs(hi + lo), e.rel);
}

}  // namespace gelucheck::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // GELUCHECK_MEASURE_INL_H_
