// binary16 and bfloat16 (gelucheck/gelu.hpp, scalar16 / scalar_deriv16; map and backward over
// 16-bit views in gelu_array.cpp): correctly rounded, by TABLE. A 16-bit format has 65,536
// encodings, so each of the eight functions (two formats × two forms × value and derivative) is a
// table of 65,536 results, 128 KiB each, filled at first use.
//
// Why tables, and why at first use:
//  - A lookup is the fastest correct answer there is, and it makes every element's bits depend on
//    its input's encoding only (no vector code, no state beyond the table).
//  - Rounding the binary32 result again would be wrong: RN16(RN32(f)) != RN16(f) when RN32(f)
//    lands on a 16-bit midpoint. Each entry is instead the long double kernel's value
//    (detail::accurate_kernel, relative error <= kernel_rel_bound, derived in gelu_scalar.cpp and
//    gelu_kernel.hpp) rounded ONCE to the 16-bit format, with a proof per entry: the interval
//    [v - e|v|, v + e|v|] holds no midpoint of the format, so the rounding of v is the rounding
//    of f. An entry without that proof is counted (detail::half_unproved); none is expected (the
//    formats have 8 and 11 bits, the kernel 56+), and tests/library/half_test.cpp checks that the
//    count is 0 for all eight tables and that every entry equals the MPFR reference's correct
//    rounding.
//  - Filled from the library's own kernel, never from the MPFR reference (which checks it).
//  - At first use rather than at build time: ~65,536 kernel calls (~10 ms) per table, paid only
//    by programs that use that function and format; no generated megabyte in the sources, no
//    build step. Thread-safe (a function-local static per table).
//
// NaN inputs give the input NaN (quieted: the quiet bit set); ±inf and ±0 follow the claims of
// the binary64/binary32 paths (value(+inf) = +inf, value(-inf) = -0, derivative(+inf) = 1,
// derivative(-inf) = -0, value(±0) = ±0).
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "gelucheck/common.hpp"
#include "gelucheck/gelu.hpp"
#include "gelucheck/gelu_kernel.hpp"

namespace gelucheck {
namespace {

bool is16(Format fmt) { return fmt == Format::binary16 || fmt == Format::bfloat16; }

// The value of a 16-bit encoding, exactly, by its fields (from_bits of gelucheck::common does the
// same for every format, generically and slower). NaN payloads are not needed here (a NaN
// product is re-encoded by to_bits).
[[gnu::always_inline]] inline double half_decode(Format fmt, std::uint16_t x) {
  if (fmt == Format::bfloat16) return static_cast<double>(std::bit_cast<float>(std::uint32_t{x} << 16));
  const std::uint32_t e = (x >> 10) & 0x1f, m = x & 0x3ffu;
  double mag;
  if (e == 0) mag = static_cast<double>(m) * 0x1p-24;  // subnormal: m 2^-24, exact
  else if (e == 31) mag = m ? static_cast<double>(NAN) : static_cast<double>(INFINITY);
  else mag = static_cast<double>(std::bit_cast<float>(((e + 112) << 23) | (m << 13)));  // rebias 15 -> 127
  return x & 0x8000 ? -mag : mag;
}

std::uint16_t encode(double v, Format fmt) { return static_cast<std::uint16_t>(*to_bits(v, fmt)); }

// The correct rounding to fmt of f, given the kernel's v with |v - f| <= e|f| (e < 2^-50):
// r = the rounding of RN64(v) (RN64 moves v by 2^-53 relative, inside the interval below); it is
// the rounding of every point of [v - e'|v|, v + e'|v|] (e' = 1.01 e covers e|f| vs e|v| and the
// long double products) when both ends lie strictly between the midpoints next to |r| — then it is
// f's rounding too. Midpoints are exact in long double (the formats have <= 11 bits); above the
// largest finite value the "midpoint" is the overflow threshold max + ulp/2.
struct Rounded {
  double r;
  bool proved;
};
Rounded round_proved(long double v, long double e, Format fmt) {
  if (std::isnan(v)) return {static_cast<double>(v), true};
  if (std::isinf(v) || v == 0) return {static_cast<double>(v), true};  // the kernel's exact tails
  const double r = round_to_format(static_cast<double>(v), fmt);
  const long double av = std::fabs(v), ar = std::fabs(static_cast<long double>(r));
  const double ard = static_cast<double>(ar);
  if (std::isinf(ard)) {
    const double mx = next_in(fmt, INFINITY, 0), below = next_in(fmt, mx, 0);
    const long double threshold = static_cast<long double>(mx) + (static_cast<long double>(mx) - below) / 2;
    return {r, av * (1 - 1.01L * e) > threshold};
  }
  const double up = next_in(fmt, ard, INFINITY), dn = next_in(fmt, ard, -INFINITY);
  long double mid_up;
  if (std::isinf(up)) {
    mid_up = ar + (ar - static_cast<long double>(dn)) / 2;  // overflow threshold
  } else {
    mid_up = (ar + static_cast<long double>(up)) / 2;
  }
  const long double mid_dn = (ar + static_cast<long double>(dn)) / 2;  // dn < 0 when ar == 0
  const long double lo = av * (1 - 1.01L * e), hi = av * (1 + 1.01L * e);
  return {r, hi < mid_up && lo > mid_dn};
}

// Values at 0 < |x| < 2^-40 (bfloat16 subnormals): f(x) = x/2 + x^2/sqrt(2 pi) + O(x^4) for both
// forms, so f > x/2 and f - x/2 < x^2 (1 + 2^-70) <= 2^-80 |x|. x/2 is exact in double and either a
// value of the format or (x an odd multiple of the least subnormal) the midpoint of two: then f,
// just above it, rounds to the upper of the two; else to x/2 itself (its neighbours are >= 2^-134
// away, f - x/2 < 2^-266). The kernel cannot decide the midpoint case by its relative bound (its
// value is within 2^-62 relative above x/2), so this branch does it from the sign of f - x/2.
Rounded tiny_value(double x, Format fmt) {
  const double h = x / 2, r = round_to_format(h, fmt);
  if (r == h) return {r, true};
  return {r > h ? r : next_in(fmt, r, INFINITY), true};
}

struct Table {
  std::array<std::uint16_t, 65536> bits;
  long unproved = 0;
};
// half_backward's vector loop gathers 4 bytes at each entry: the last one's 2 extra bytes lie
// in `unproved`, inside the same object.
static_assert(offsetof(Table, bits) + sizeof(Table::bits) + 2 <= sizeof(Table));

std::unique_ptr<Table> build(Format fmt, Form form, Quantity q) {
  auto t = std::make_unique<Table>();
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const double x = from_bits(b, fmt);
    if (std::isnan(x)) {
      t->bits[b] = static_cast<std::uint16_t>(b | (fmt == Format::binary16 ? 0x0200u : 0x0040u));  // quieted
      continue;
    }
    const Rounded r = q == Quantity::value && x != 0 && std::fabs(x) < 0x1p-40
                          ? tiny_value(x, fmt)
                          : round_proved(detail::accurate_kernel(form, q, x), detail::kernel_rel_bound(form, q, x), fmt);
    if (!r.proved) ++t->unproved;
    t->bits[b] = encode(r.r, fmt);
  }
  return t;
}

const Table& table(Format fmt, Form form, Quantity q) {
  // One function-local static per table: initialized once, on first use, thread-safe.
  auto get = [&]<int I>() -> const Table& {
    static const std::unique_ptr<Table> t =
        build(I / 4 ? Format::bfloat16 : Format::binary16, I / 2 % 2 ? Form::erf : Form::tanh,
              I % 2 ? Quantity::derivative : Quantity::value);
    return *t;
  };
  const int i = (fmt == Format::bfloat16 ? 4 : 0) + (form == Form::erf ? 2 : 0) + (q == Quantity::derivative ? 1 : 0);
  switch (i) {
    case 0: return get.template operator()<0>();
    case 1: return get.template operator()<1>();
    case 2: return get.template operator()<2>();
    case 3: return get.template operator()<3>();
    case 4: return get.template operator()<4>();
    case 5: return get.template operator()<5>();
    case 6: return get.template operator()<6>();
    default: return get.template operator()<7>();
  }
}

// The naive path in 16 bits: the textbook formulas in float (gelu_scalar.cpp), rounded again to
// the format. It claims nothing (double rounding included).
std::uint16_t naive16(Form form, Quantity q, Format fmt, std::uint16_t x) {
  const auto xf = static_cast<float>(from_bits(x, fmt));  // exact: every 16-bit value is a float
  const float y = q == Quantity::value ? scalar(form, xf, Path::naive) : scalar_deriv(form, xf, Path::naive);
  return encode(round_to_format(static_cast<double>(y), fmt), fmt);
}

std::uint16_t eval16(Form form, Quantity q, Format fmt, std::uint16_t x, Path path) {
  if (!is16(fmt)) throw std::invalid_argument("gelucheck: scalar16 needs binary16 or bfloat16");
  if (path == Path::naive) return naive16(form, q, fmt, x);
  return table(fmt, form, q).bits[x];
}

}  // namespace

std::uint16_t scalar16(Form form, Format fmt, std::uint16_t x, Path path) {
  return eval16(form, Quantity::value, fmt, x, path);
}
std::uint16_t scalar_deriv16(Form form, Format fmt, std::uint16_t x, Path path) {
  return eval16(form, Quantity::derivative, fmt, x, path);
}

namespace detail {

const std::uint16_t* half_table(Format fmt, Form form, Quantity q) { return table(fmt, form, q).bits.data(); }
long half_unproved(Format fmt, Form form, Quantity q) { return table(fmt, form, q).unproved; }

// dy * d rounded once to fmt: the product of two 16-bit values (<= 11-bit significands, exponents
// in [-133, 127]) is exact in double, then rounded once. Normal results take the bit route: the
// double's significand rounded to the format's p bits, ties to even, by adding 2^(52-p) - 1 plus
// the lowest kept bit and truncating (a carry into the exponent is the right result at a binade's
// top), then re-encoded from the double's fields. Zero and subnormal results are scaled to the
// subnormal quantum and rounded by nearbyint; overflowing and special results go through the
// generic round_to_format / to_bits of gelucheck::common (one rounding too).
namespace {
inline std::uint16_t product(Format fmt, std::uint16_t dy, std::uint16_t d) {
  const double p = half_decode(fmt, dy) * half_decode(fmt, d);
  const bool bf = fmt == Format::bfloat16;
  const int drop = bf ? 52 - 7 : 52 - 10;  // significand bits of the double beyond the format's
  const int emin = bf ? -126 : -14, emax = bf ? 127 : 15, bias = bf ? 127 : 15, mbits = bf ? 7 : 10;
  const std::uint64_t b = std::bit_cast<std::uint64_t>(p);
  const int e = static_cast<int>((b >> 52) & 0x7ff) - 1023;
  const auto sign = static_cast<std::uint16_t>((b >> 63) << 15);
  if (e >= emin && e <= emax) {
    const std::uint64_t mag = b & 0x7fffffffffffffffull;
    const std::uint64_t r = (mag + ((std::uint64_t{1} << (drop - 1)) - 1) + ((mag >> drop) & 1)) >> drop << drop;
    const int er = static_cast<int>(r >> 52) - 1023;
    if (er <= emax) {
      const auto m = static_cast<std::uint16_t>((r >> drop) & ((1u << mbits) - 1));
      return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>((er + bias) << mbits) | m);
    }
  }
  if (e < emin) {
    // Zero or subnormal: m = RN(|p| / 2^(emin - mbits)) (exact scaling, nearbyint rounds ties to
    // even) is the encoding itself; m = 2^mbits is the least normal number, also its encoding.
    const double m = std::nearbyint(std::fabs(p) * (bf ? 0x1p+133 : 0x1p+24));
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(m));
  }
  if (std::isnan(p)) return static_cast<std::uint16_t>(*to_bits(p, fmt));
  return encode(round_to_format(p, fmt), fmt);  // overflow, infinities
}
}  // namespace

std::uint16_t half_product(Format fmt, std::uint16_t dy, std::uint16_t d) { return product(fmt, dy, d); }

// The contiguous loop takes a float route first. The product of two 16-bit values is exact in
// float whenever it is a normal float (8 + 8 and 11 + 11 significand bits fit in 24; binary16
// products are always >= 2^-48), and then one bit rounding gives RN_fmt: bfloat16 keeps the top
// 16 bits (round at bit 16, ties to even), binary16 rounds at bit 13 and re-biases the exponent
// (127 -> 15) when the result is a normal binary16. Anything else (zero, subnormal float or
// result, overflow, NaN) goes to product() above.
// binary16 encodings as floats, all 65,536 (exact; built once): a lookup instead of the branches of
// half_decode, which random data mispredicts.
const float* binary16_floats() {
  static const std::unique_ptr<float[]> t = [] {
    std::unique_ptr<float[]> v(new float[65536]);
    for (std::uint32_t b = 0; b < 65536; ++b)
      v[b] = static_cast<float>(half_decode(Format::binary16, static_cast<std::uint16_t>(b)));
    return v;
  }();
  return t.get();
}

namespace {
void backward_scalar(bool bf, const std::uint16_t* table, const std::uint16_t* x, const std::uint16_t* dy,
                     std::uint16_t* dx, std::size_t n) {
  const Format fmt = bf ? Format::bfloat16 : Format::binary16;
  const float* f16 = bf ? nullptr : binary16_floats();
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint16_t d = table[x[i]], g = dy[i];
    const float p = bf ? std::bit_cast<float>(std::uint32_t{g} << 16) * std::bit_cast<float>(std::uint32_t{d} << 16)
                       : f16[g] * f16[d];
    const std::uint32_t b = std::bit_cast<std::uint32_t>(p), mag = b & 0x7fffffffu, e = mag >> 23;
    const auto sign = static_cast<std::uint16_t>((b >> 16) & 0x8000u);
    if (bf) {
      if (e != 0 && e < 254) {  // normal float, far from overflow: the rounding cannot reach inf
        dx[i] = static_cast<std::uint16_t>(sign | ((mag + 0x7fffu + ((mag >> 16) & 1u)) >> 16));
        continue;
      }
    } else if (e >= 127 - 14 && e <= 127 + 15) {  // binary16 normal binade
      const std::uint32_t r = (mag + 0xfffu + ((mag >> 13) & 1u)) >> 13;  // float bits >> 13, rounded
      const std::uint32_t h = r - ((127u - 15u) << 10);                      // re-biased
      if (h < 0x7c00u) {                                                     // still finite
        dx[i] = static_cast<std::uint16_t>(sign | h);
        continue;
      }
    }
    dx[i] = product(fmt, g, d);
  }
}
}  // namespace

// The vector loop (gelu_half_simd.cpp, little-endian machines only, as below), then the tail.
void half_map(const std::uint16_t* table, const std::uint16_t* x, std::uint16_t* out, std::size_t n) {
  std::size_t i = 0;
  if constexpr (std::endian::native == std::endian::little) i = half_map_simd(table, x, out, n);
  for (; i < n; ++i) out[i] = table[x[i]];
}

// The vector loop first (gelu_half_simd.cpp: the same float route, lane by lane; it gathers the
// table's entries 4 bytes at a time and takes the low half, so little-endian machines only), then
// the scalar loop for the tail.
void half_backward(Format fmt, const std::uint16_t* table, const std::uint16_t* x, const std::uint16_t* dy,
                   std::uint16_t* dx, std::size_t n) {
  const bool bf = fmt == Format::bfloat16;
  std::size_t done = 0;
  if constexpr (std::endian::native == std::endian::little)
    done = half_backward_simd(bf, table, x, dy, dx, n, backward_scalar);
  backward_scalar(bf, table, x + done, dy + done, dx + done, n - done);
}

}  // namespace detail
}  // namespace gelucheck
