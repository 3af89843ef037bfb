// measure_batch (gelucheck/measure.hpp): the error measures of docs/reference.md §5 for a batch of
// results against the fast reference's columns, a vector of results at a time (Highway, the target
// chosen at run time: measure_lanes of gelucheck/measure-inl.h), the same Error bit for bit as
// measure(r, Rounded) (tests/reference/test_fast_reference.cpp, MeasureBatchIsMeasure); the
// vectors with lanes of other cases go to measure() itself.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "measure_batch.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "gelucheck/measure.hpp"

#include "gelucheck/measure-inl.h"

HWY_BEFORE_NAMESPACE();
namespace gelucheck::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void MeasureBatch(const double* r, const ref::RoundedColumns* yc, std::size_t n, int fmt_i,
                  const ErrorColumns* oc) {
  const hn::ScalableTag<double> d;
  const hn::RebindToSigned<decltype(d)> di;
  const std::size_t L = hn::Lanes(d);
  const auto fmt = static_cast<Format>(fmt_i);
  const ref::RoundedColumns& y = *yc;
  const ErrorColumns& o = *oc;
  auto scalar = [&](std::size_t j) {
    const Error e = measure(r[j], ref::Rounded{y.rn[j], y.rd[j], y.ru[j], y.hi[j], y.lo[j],
                                              y.scale[j], y.floor_log2[j]}, fmt);
    o.ulp[j] = e.ulp;
    o.abs[j] = e.abs;
    o.rel[j] = e.rel;
    o.mismatch[j] = static_cast<unsigned char>((e.nan_mismatch ? kNanMismatch : 0) |
                                               (e.zero_sign_mismatch ? kZeroSignMismatch : 0));
  };
  std::size_t i = 0;
  for (; i + L <= n; i += L) {
    const auto e = measure_lanes(d, hn::LoadU(d, r + i), hn::LoadU(d, y.rn + i), hn::LoadU(d, y.rd + i),
                                 hn::LoadU(d, y.ru + i), hn::LoadU(d, y.hi + i), hn::LoadU(d, y.lo + i),
                                 hn::LoadU(di, y.scale + i), hn::LoadU(di, y.floor_log2 + i), fmt);
    if (!hn::AllTrue(d, e.taken)) {
      for (std::size_t j = i; j < i + L; ++j) scalar(j);
      continue;
    }
    hn::StoreU(e.ulp, d, o.ulp + i);
    hn::StoreU(e.abs, d, o.abs + i);
    hn::StoreU(e.rel, d, o.rel + i);
    HWY_ALIGN std::int64_t m[hn::MaxLanes(d)];
    hn::Store(hn::VecFromMask(di, hn::RebindMask(di, e.zero_sign)), di, m);
    for (std::size_t j = 0; j < L; ++j) o.mismatch[i + j] = m[j] != 0 ? kZeroSignMismatch : 0;
  }
  for (; i < n; ++i) scalar(i);
}

}  // namespace gelucheck::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gelucheck {
HWY_EXPORT(MeasureBatch);

void measure_batch(const double* r, const ref::RoundedColumns& y, std::size_t n, Format fmt,
                   const ErrorColumns& out) {
  HWY_DYNAMIC_DISPATCH(MeasureBatch)(r, &y, n, static_cast<int>(fmt), &out);
}
}  // namespace gelucheck
#endif  // HWY_ONCE
