// gelucheck/measure.hpp — the error measures of docs/reference.md §5, defined once, used by every
// test, sweep and report.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cmath>
#include <limits>

#include "gelucheck/common.hpp"
#include "gelucheck/fast_reference.hpp"
#include "gelucheck/reference.hpp"

namespace gelucheck {

struct Error {
  // |r - y| / ulp(y), ulp(y) = 2^(max(floor(log2|y|), emin) - p + 1); +inf for a NaN/number
  // mismatch or an infinite result that should be finite (or vice versa).
  double ulp = 0;
  double abs = 0;  // |r - y|, rounded up to a double
  double rel = 0;  // |r - y| / |y|; +inf when y == 0 and r != 0
  bool nan_mismatch = false;        // NaN where y is a number, or a number where y is NaN
  bool zero_sign_mismatch = false;  // r and y are zeros (or r rounds y's sign away) of opposite sign
  bool correctly_rounded() const { return ulp <= 0.5; }
  bool faithful() const { return ulp < 1; }
};

// Error of the result r (a value of `fmt`) against the exact value enclosed by y. The enclosure
// must be at least ~40 bits tighter than fmt's precision (enclose(..., 128) is).
Error measure(double r, const ref::Enclosure& y, Format fmt);

// The same measure from what ref::round_batch gives for the input and fmt: the same
// classification (correctly rounded, faithful, mismatches) exactly, the same ulp/abs/rel figures
// to ~1e-9 relative, or to 2^-60 (of an ulp, of |y|) where that is larger: y.hi + y.lo carries
// f(x) to 2^-70 relative, the enclosure to 2^-128 (tests/reference/test_fast_reference.cpp).
Error measure(double r, const ref::Rounded& y, Format fmt);

namespace detail {
// The pieces of measure(r, Rounded) that its common case needs, here so that the exhaustive
// sweep's fold can have that case inline (measure_inline below); measure.cpp uses the same ones.

// s + t = a + b exactly (Knuth's TwoSum, any order of magnitudes).
inline void two_sum(double a, double b, double& s, double& t) {
  s = a + b;
  const double bb = s - a;
  t = (a - (s - bb)) + (b - bb);
}
// |r - (hi + lo)| rounded to a double, for finite r and a finite double-double hi + lo: r - hi
// exactly by TwoSum, then the error term (its bound: measure.cpp, above measure(r, Rounded)).
inline double distance_dd(double r, double hi, double lo) {
  double s = 0, e = 0, dh = 0, dl = 0;
  two_sum(r, -hi, s, e);
  two_sum(s, e - lo, dh, dl);
  return std::fabs(dh + dl);
}
// The ulp figure moved only to the side of 0.5 and of 1 where the exact decisions put it: r is
// correctly rounded iff r == rn, faithful iff r == rd or r == ru (±0 compare equal: the sign is
// counted apart). Keeps it consistent with them where rounding the figure to a double (or the
// enclosure's width) would put it on the wrong side (f(x) within 2^-1074 relative of a midpoint).
inline double decided_ulp(double ulp, double r, double rn, double rd, double ru) {
  if (r == rn) ulp = std::min(ulp, 0.5);
  else ulp = std::max(ulp, 0x1.0000000000001p-1);  // the double after 0.5
  if (r == rd || r == ru) ulp = std::min(ulp, 0x1.fffffffffffffp-1);  // the double before 1
  else ulp = std::max(ulp, 1.0);
  return ulp;
}
}  // namespace detail

// measure(r[i], y's entry i, fmt) for i < n, as columns: the same figures bit for bit, a vector of
// results at a time (reference/src/measure_batch.cpp, Highway) where they are finite and f(x) is
// carried unscaled or only by its sign, measure() itself for the rest. The two booleans of Error
// are bits of `mismatch`.
inline constexpr unsigned char kNanMismatch = 1, kZeroSignMismatch = 2;
struct ErrorColumns {
  double *ulp = nullptr, *abs = nullptr, *rel = nullptr;
  unsigned char* mismatch = nullptr;
};
void measure_batch(const double* r, const ref::RoundedColumns& y, std::size_t n, Format fmt,
                   const ErrorColumns& out);

// measure(r, y, fmt), the same Error bit for bit, with its common case inline: r finite, f(x)
// finite, nonzero and carried unscaled (y.scale == 0). Every other case calls measure().
inline Error measure_inline(double r, const ref::Rounded& y, Format fmt) {
  if (!(y.scale == 0 && y.hi != 0 && std::fabs(y.hi) < kInf && std::fabs(r) < kInf))
    return measure(r, y, fmt);
  const FormatInfo fi = info(fmt);
  const long ulp_exp = std::max(y.floor_log2, static_cast<long>(fi.emin)) - fi.precision + 1;
  Error e;
  e.zero_sign_mismatch = r == 0 && std::signbit(r) != std::signbit(y.hi);
  const double ad = detail::distance_dd(r, y.hi, y.lo);
  e.abs = ad;
  if (ad == 0 && r != y.hi + y.lo) e.abs = std::numeric_limits<double>::denorm_min();
  e.ulp = detail::decided_ulp(ldexp_fast(ad, -ulp_exp), r, y.rn, y.rd, y.ru);
  e.rel = ad / std::fabs(y.hi + y.lo);
  return e;
}

}  // namespace gelucheck
