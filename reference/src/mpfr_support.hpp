// Private helpers of the reference library (not installed): RAII for MPFR's exponent range and
// numbers.
#pragma once

#include <mpfr.h>

namespace gelucheck::ref::detail {

// MPFR's exponent range set to its widest for the duration of a computation (MPFR keeps it per
// thread in thread-safe builds, as Debian's is), restored after. With it, x^3 for x = DBL_MAX,
// e^(±2u) up to 2^(2^62) and their reciprocals are plain numbers; only beyond does an exp
// underflow to [0, 2^(emin-1)] or overflow to [max, inf] — still valid bounds. Enclosures may
// hold such exponents, so whoever operates on them takes a guard too.
class RangeGuard {
 public:
  RangeGuard() : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
  }
  ~RangeGuard() {
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
  }
  RangeGuard(const RangeGuard&) = delete;
  RangeGuard& operator=(const RangeGuard&) = delete;

 private:
  mpfr_exp_t emin_, emax_;
};

// One MPFR number with its lifetime.
struct Num {
  mpfr_t v;
  explicit Num(mpfr_prec_t p) { mpfr_init2(v, p); }
  ~Num() { mpfr_clear(v); }
  Num(const Num&) = delete;
  Num& operator=(const Num&) = delete;
};

}  // namespace gelucheck::ref::detail
