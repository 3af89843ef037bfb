// The vector loops of detail::half_map and detail::half_backward (gelu_half.cpp), for bfloat16
// and binary16, through Highway with run-time dispatch (AVX-512, AVX2, SSE4 or a portable
// emulation). map: out = the value table's entry for x, gathered (what the scalar loop's table[x]
// reads, so the same bits). backward: dx = RN_fmt(dy · d) with d = the derivative table's entry
// for x; it computes exactly what the scalar loop's float route computes, lane by lane, with the
// same integer operations:
//   - the product of two 16-bit values is exact in float whenever it is a normal float (8 + 8 and
//     11 + 11 significand bits fit in 24), and the float's bits rounded at bit 16 (bfloat16) or
//     at bit 13 and re-biased (binary16), ties to even, are the correctly rounded result;
//   - an exact zero product gives the zero of its sign (what gelu_half.cpp's product() gives);
//   - a binary16 result below the least normal is the product scaled to the subnormal quantum
//     and rounded to an integer, as product() does it.
// A vector holding any other lane (a subnormal float, an overflow, a NaN, an infinity) is done
// again by the scalar loop, element by element, so every element's bits are the scalar
// function's whatever its position; lanes never mix (no horizontal operation feeds a result).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gelu_half_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>

#include "gelucheck/gelu_kernel.hpp"

HWY_BEFORE_NAMESPACE();
namespace gelucheck::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DI = hn::ScalableTag<std::int32_t>;
using DU = hn::Rebind<std::uint16_t, DI>;
using VI = hn::Vec<DI>;

// The entries table[x] of x's lanes (encodings, widened). They are gathered 4 bytes at a time at
// byte offset 2x; on a little-endian machine (the callers' condition) the low half is the entry.
// The 2 bytes after the last entry lie inside the table's storage (gelu_half.cpp).
HWY_INLINE VI entries(const std::uint16_t* table, VI x) {
  const DI di;
  return hn::And(hn::GatherOffset(di, reinterpret_cast<const std::int32_t*>(table), hn::Add(x, x)), hn::Set(di, 0xffff));
}

// Elements [0, k) done, k the largest multiple of the vector length <= n. In place (x == out) is
// fine: each vector is loaded before it is stored, and vectors do not overlap.
std::size_t HalfMap(const std::uint16_t* table, const std::uint16_t* x, std::uint16_t* out, std::size_t n) {
  const DI di;
  const DU du;
  std::size_t i = 0;
  for (; i + hn::Lanes(di) <= n; i += hn::Lanes(di))
    hn::StoreU(hn::DemoteTo(du, entries(table, hn::PromoteTo(di, hn::LoadU(du, x + i)))), du, out + i);
  return i;
}

// Elements [0, k) done, k the largest multiple of the vector length <= n; each vector either
// stored whole from its lanes or handed to `scalar` (the scalar loop of gelu_half.cpp) whole.
std::size_t HalfBackward(bool bf, const std::uint16_t* table, const std::uint16_t* x, const std::uint16_t* dy,
                         std::uint16_t* dx, std::size_t n, HalfScalar scalar) {
  const DI di;
  const DU du;
  const hn::Rebind<float, DI> df;
  const hn::Rebind<hwy::float16_t, DI> dh;
  // binary16 encodings to floats, exactly (every binary16 value is a float): F16C where the target
  // has it, Highway's integer emulation elsewhere, which maps the exponent 31 (inf, NaN) to finite
  // values; lanes holding such an encoding are handed to the scalar loop below.
  auto half_to_float = [&](hn::Vec<DU> enc) HWY_ATTR { return hn::PromoteTo(df, hn::BitCast(dh, enc)); };
  const std::size_t N = hn::Lanes(di);
  std::size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto xi = hn::PromoteTo(di, hn::LoadU(du, x + i));
    const auto g16 = hn::LoadU(du, dy + i);
    const auto gi = hn::PromoteTo(di, g16);
    const auto d = entries(table, xi);
    const auto p = bf ? hn::Mul(hn::BitCast(df, hn::ShiftLeft<16>(gi)), hn::BitCast(df, hn::ShiftLeft<16>(d)))
                      : hn::Mul(half_to_float(g16), half_to_float(hn::DemoteTo(du, d)));
    const auto b = hn::BitCast(di, p);
    const auto mag = hn::And(b, hn::Set(di, 0x7fffffff));
    const auto e = hn::ShiftRight<23>(mag);
    const auto sign = hn::And(hn::ShiftRight<16>(b), hn::Set(di, 0x8000));
    // ±0: the zero of the product's sign (both roundings below give r = 0 for mag = 0)
    auto ok = hn::Eq(mag, hn::Zero(di));
    hn::Vec<decltype(di)> r;
    if (bf) {
      // normal float, e < 254: the rounding cannot reach inf
      ok = hn::Or(ok, hn::And(hn::Gt(e, hn::Zero(di)), hn::Lt(e, hn::Set(di, 254))));
      const auto odd = hn::And(hn::ShiftRight<16>(mag), hn::Set(di, 1));
      r = hn::ShiftRight<16>(hn::Add(hn::Add(mag, hn::Set(di, 0x7fff)), odd));
    } else {
      // binary16's normal binades (float exponents 113..142), still finite after the rounding
      const auto odd = hn::And(hn::ShiftRight<13>(mag), hn::Set(di, 1));
      const auto h = hn::Sub(hn::ShiftRight<13>(hn::Add(hn::Add(mag, hn::Set(di, 0xfff)), odd)),
                             hn::Set(di, (127 - 15) << 10));
      ok = hn::Or(ok, hn::And(hn::And(hn::Gt(e, hn::Set(di, 112)), hn::Lt(e, hn::Set(di, 143))),
                              hn::Lt(h, hn::Set(di, 0x7c00))));
      // below binary16's least normal 2^-14 (float exponents <= 112; the product is still a
      // normal float, >= 2^-48): the encoding is RN(|p| 2^24), the scaling exact and the
      // conversion to nearest, ties to even (1024 is the least normal number's encoding)
      const auto tiny = hn::Lt(e, hn::Set(di, 113));
      ok = hn::Or(ok, tiny);
      const auto exp31 = hn::Set(di, 0x7c00);
      ok = hn::AndNot(hn::Or(hn::Eq(hn::And(gi, exp31), exp31), hn::Eq(hn::And(d, exp31), exp31)), ok);
      r = hn::IfThenElse(tiny, hn::NearestInt(hn::Mul(hn::BitCast(df, mag), hn::Set(df, 0x1p24f))), h);
    }
    if (!hn::AllTrue(di, ok)) {
      scalar(bf, table, x + i, dy + i, dx + i, N);
      continue;
    }
    hn::StoreU(hn::DemoteTo(du, hn::Or(r, sign)), du, dx + i);
  }
  return i;
}

}  // namespace gelucheck::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gelucheck::detail {
HWY_EXPORT(HalfMap);
HWY_EXPORT(HalfBackward);
std::size_t half_map_simd(const std::uint16_t* table, const std::uint16_t* x, std::uint16_t* out, std::size_t n) {
  return HWY_DYNAMIC_DISPATCH(HalfMap)(table, x, out, n);
}
std::size_t half_backward_simd(bool bf, const std::uint16_t* table, const std::uint16_t* x, const std::uint16_t* dy,
                               std::uint16_t* dx, std::size_t n, HalfScalar scalar) {
  return HWY_DYNAMIC_DISPATCH(HalfBackward)(bf, table, x, dy, dx, n, scalar);
}
}  // namespace gelucheck::detail
#endif
