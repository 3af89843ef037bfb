// gelucheck/lanes-inl.h — the vocabulary of gelucheck's vector code (Highway, per target: included
// once per target by a file that includes hwy/foreach_target.h, as Highway's own -inl.h headers
// are): a vector of doubles and one of 64-bit integers of the same lanes, their masks, the most
// lanes a target has, and splats. Users: the fast reference (reference/src/fast_path.cpp), the
// error measures (gelucheck/measure-inl.h) and the exhaustive sweep's fold
// (checking/src/fold_chunk.cpp).

// Per-target include guard (Highway's idiom).
#if defined(GELUCHECK_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GELUCHECK_LANES_INL_H_
#undef GELUCHECK_LANES_INL_H_
#else
#define GELUCHECK_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace gelucheck::HWY_NAMESPACE::lanes {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<double>;
using Vec = hn::Vec<D>;
using Mask = hn::Mask<D>;
using DI = hn::RebindToSigned<D>;
using VecI = hn::Vec<DI>;
using MaskI = hn::Mask<DI>;

// The most lanes a vector of doubles has on this target (array sizes).
constexpr std::size_t kMaxLanes = hn::MaxLanes(D());

HWY_INLINE Vec S(double v) { return hn::Set(D(), v); }
HWY_INLINE VecI SI(std::int64_t v) { return hn::Set(DI(), v); }
// A mask of one lane type as the other's.
HWY_INLINE Mask M(MaskI m) { return hn::RebindMask(D(), m); }
HWY_INLINE MaskI MI(Mask m) { return hn::RebindMask(DI(), m); }

}  // namespace gelucheck::HWY_NAMESPACE::lanes
HWY_AFTER_NAMESPACE();

#endif  // GELUCHECK_LANES_INL_H_
