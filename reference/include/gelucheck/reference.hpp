// gelucheck/reference.hpp — the MPFR reference: the exact real functions of shared DESIGN.md §1,
// correctly rounded. Nothing here calls the library under test.
#pragma once

#include <mpfr.h>

#include <stdexcept>
#include <string>

#include "gelucheck/common.hpp"

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
std::string decimal(Form form, Quantity q, double x, int digits);

// A certified enclosure lo <= f(x) <= hi, with hi - lo <= 2^-bits * |lo| (relative width), for
// error measurement (DESIGN.md §2 wants the exact value, not its rounding). Exact results have
// lo == hi. Non-finite results: lo == hi == ±inf, or both NaN.
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

 private:
  mpfr_t lo_, hi_;
};
Enclosure enclose(Form form, Quantity q, double x, int bits = 128);

}  // namespace gelucheck::ref
