// Independent computations for the reference's tests: the TEXTBOOK formulas of docs/functions.md
// (1 + tanh u, 1 + erf(x/√2), 1 - tanh²u: not the reference's stable forms, and MPFR's tanh/erf
// rather than its exp/erfc), evaluated in round-to-nearest at a precision that outruns their
// cancellation (gelucheck/textbook.hpp); and rounding to a format through MPFR's own emulation
// (mpfr_set_emin/emax + mpfr_check_range + mpfr_subnormalize), not the reference's round_to.
#pragma once

#include <mpfr.h>

#include <cmath>

#include "gelucheck/common.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/textbook.hpp"

namespace gelucheck::testing {

// f(x) by the textbook formula (gelucheck/textbook.hpp, the one evaluator for this check), to a
// relative error below 2^-248.
inline void naive(mpfr_ptr out, Form form, Quantity q, double x) {
  ref::textbook(out, form, q, Mpfr(53, x), 256);
}

// v rounded to nearest-even in fmt by MPFR's emulation of a format with subnormals.
inline double round_independent(mpfr_srcptr v, Format fmt) {
  const FormatInfo fi = info(fmt);
  Mpfr r(fi.precision);
  int inex = mpfr_set(r, v, MPFR_RNDN);
  {
    // MPFR writes numbers as 0.1b…·2^e: the least subnormal 2^(emin-p+1) has e = emin - p + 2,
    // the greatest finite number has e = emax + 1.
    MpfrRange range(fi.emin - fi.precision + 2, fi.emax + 1);
    inex = mpfr_check_range(r, inex, MPFR_RNDN);
    mpfr_subnormalize(r, inex, MPFR_RNDN);
  }
  return mpfr_get_d(r, MPFR_RNDN);
}

}  // namespace gelucheck::testing
