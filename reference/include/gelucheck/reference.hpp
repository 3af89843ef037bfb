// gelucheck/reference.hpp — the MPFR reference: the exact real functions of docs/functions.md,
// correctly rounded. Nothing here calls the library under test. Method and error analysis:
// docs/reference.md.
#pragma once

#include <mpfr.h>

#include <stdexcept>
#include <string>

#include "gelucheck/common.hpp"
#include "gelucheck/mpfr.hpp"

namespace gelucheck::ref {

// Thrown when Ziv's loop reaches its precision cap without deciding the rounding, or when a
// result lies outside MPFR's exponent range (decimal output of values below ~10^-1.3e18).
// Never a silently wrong answer.
struct ReferenceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// f(x) correctly rounded to nearest-even in `fmt` (subnormals, overflow to ±inf, signed zeros),
// returned as a double holding that value exactly. x is any double (it need not belong to fmt);
// ±inf give the limits, NaN gives NaN.
double correctly_rounded(Form form, Quantity q, double x, Format fmt);

// f(x) rounded to nearest to `digits` significant decimal digits (1 <= digits <= 10000), as
// "[-]d.ddd…e[+-]N"; "inf", "-inf", "nan", "0", "-0" for those results.
// The exponent is written as C's %e writes it (sign, at least two digits): "1.9546e+00";
// with digits == 1 there is no point: "5e-01". std::invalid_argument for digits out of range.
std::string decimal(Form form, Quantity q, double x, int digits);

// A certified enclosure lo <= f(x) <= hi, with hi - lo <= 2^-bits * |lo| (relative width), for
// error measurement (docs/reference.md §5 wants the exact value, not its rounding). Exact results have
// lo == hi. Non-finite results: lo == hi == ±inf, or both NaN.
// Exception: when |f(x)| lies below MPFR's exponent range (|f| < 2^(mpfr_get_emin_min()-1),
// e.g. the tanh form's value at x < ~-3.5e6) no such width is possible; then the bound nearer
// zero is a signed zero of f's sign and the other the tightest nonzero bound found.
// lo and hi may have exponents outside MPFR's default range: operate on them under the widest
// range (a gelucheck::MpfrRange guard, gelucheck/mpfr.hpp).
//
// An enclosure made by enclose() also carries, decided exactly (see docs/reference.md), for each
// binary format: f(x) rounded to nearest-even, down and up, and floor(log2|f(x)|), so that
// measure() can tell correctly rounded and faithful results apart even when f(x) lies within
// 2^-bits of a rounding boundary (tiny x: f(x) = x/2 + O(x^2)).
class Enclosure {
 public:
  Enclosure();
  Enclosure(const Enclosure&);
  Enclosure& operator=(const Enclosure&);
  ~Enclosure();
  mpfr_srcptr lo() const { return lo_; }
  mpfr_srcptr hi() const { return hi_; }
  mpfr_ptr lo() { return lo_; }
  mpfr_ptr hi() { return hi_; }
  // A point of the enclosure (its midpoint, rounded), for measures that need one number.
  double approx() const;

  // --- additive: the exact decisions made by enclose() (false / NaN for a hand-made one). ---
  bool decided() const { return decided_; }
  // f(x) rounded to nearest-even / toward -inf / toward +inf in fmt (a double holding it).
  double rounded(Format fmt) const { return rn_[static_cast<int>(fmt)]; }
  double rounded_down(Format fmt) const { return rd_[static_cast<int>(fmt)]; }
  double rounded_up(Format fmt) const { return ru_[static_cast<int>(fmt)]; }
  // floor(log2|f(x)|) for finite nonzero f(x) (exact), meaningless otherwise.
  long floor_log2() const { return floor_log2_; }

 private:
  friend Enclosure enclose(Form form, Quantity q, double x, int bits);
  Mpfr lo_{64}, hi_{64};  // NaN until enclose() sets them
  bool decided_ = false;
  double rn_[4], rd_[4], ru_[4];
  long floor_log2_ = 0;
};
Enclosure enclose(Form form, Quantity q, double x, int bits = 128);

// --- additive: the precision cap of Ziv's loop (bits of working precision). The default allows
// 10000 decimal digits and the subnormal-input traps with a wide margin. ScopedPrecisionCap sets
// a lower cap for the current thread (tests use it to show that the cap throws).
inline constexpr long kDefaultPrecisionCap = 1L << 17;
class ScopedPrecisionCap {
 public:
  explicit ScopedPrecisionCap(long bits);
  ~ScopedPrecisionCap();
  ScopedPrecisionCap(const ScopedPrecisionCap&) = delete;
  ScopedPrecisionCap& operator=(const ScopedPrecisionCap&) = delete;

 private:
  long saved_;
};

}  // namespace gelucheck::ref
