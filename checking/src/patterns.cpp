// fill_patterns (patterns.hpp) with Highway, the target chosen at run time: the sweep fills 2^16
// inputs a block, and the scalar loop (a widening through memory per pattern) was 9 % of a sweep
// of the inputs the reference takes in closed form.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "patterns.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <bit>
#include <cstddef>
#include <cstdint>

#include "patterns.hpp"

HWY_BEFORE_NAMESPACE();
namespace gelucheck::report::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void FillPatterns(std::uint32_t from, std::size_t count, double* xs, std::uint32_t* bits) {
  const hn::ScalableTag<double> d;
  const hn::Rebind<std::uint32_t, decltype(d)> du;  // as many lanes as d
  const hn::Rebind<float, decltype(d)> df;
  const std::size_t n = hn::Lanes(d);
  auto p = hn::Iota(du, from);
  const auto step = hn::Set(du, static_cast<std::uint32_t>(n));
  std::size_t k = 0;
  for (; k + n <= count; k += n) {
    hn::StoreU(p, du, bits + k);
    hn::StoreU(hn::PromoteTo(d, hn::BitCast(df, p)), d, xs + k);
    p = hn::Add(p, step);
  }
  for (; k < count; ++k) {
    const auto b = static_cast<std::uint32_t>(from + k);
    bits[k] = b;
    xs[k] = static_cast<double>(std::bit_cast<float>(b));
  }
}

}  // namespace gelucheck::report::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gelucheck::report {
HWY_EXPORT(FillPatterns);

void fill_patterns(std::uint32_t from, std::size_t count, double* xs, std::uint32_t* bits) {
  HWY_DYNAMIC_DISPATCH(FillPatterns)(from, count, xs, bits);
}
}  // namespace gelucheck::report
#endif  // HWY_ONCE
