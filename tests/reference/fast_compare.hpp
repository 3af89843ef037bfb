// The comparison of ref::round_batch's results with the MPFR path (enclose()), shared by the
// default and the long tier's tests of the fast reference.
#pragma once

#include <cmath>
#include <string>

#include <mpfr.h>

#include "gelucheck/fast_reference.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"

namespace gelucheck {

// Every disagreement of round_batch's result with enclose() at x, as a message ("" when none).
inline std::string compare(Form form, Quantity q, Format fmt, double x, const ref::Rounded& r) {
  // 2^-80 wide: every rounding and floor_log2 below is decided whatever the width (enclose()
  // decides all of them), and hi + lo is checked with 10 bits to spare. It costs MPFR less than
  // the 2^-128 it once had: the long test's strided sample took 3.6-4.3 s against 4.4-5.2 s.
  const ref::Enclosure e = ref::enclose(form, q, x, 80);
  std::string msg;
  auto check = [&](const char* what, double got, double want) {
    if (!same_bits(got, want))
      msg += std::string(" ") + what + " " + hexfloat(got) + " (MPFR " + hexfloat(want) + ")";
  };
  check("rn", r.rn, e.rounded(fmt));
  check("rd", r.rd, e.rounded_down(fmt));
  check("ru", r.ru, e.rounded_up(fmt));
  // hi + lo (·2^scale) within 2^-70 of f(x), measured against the enclosure's midpoint m, which is
  // within 2^-81 |m| of f(x) (width 2^-80): a measured |a - m| <= (2^-70 - 2^-79)|m| gives
  // |a - f| <= (2^-70 - 2^-79)(1 + 2^-80)|f| + 2^-81(1 + 2^-80)|f| < 2^-70 |f|. Only the sign
  // below 2^-(2^20).
  if (std::isfinite(r.hi) && r.hi != 0 && r.scale != ref::kBelowScale) {
    MpfrRange guard;  // the widest exponent range, restored at the end of the block
    Mpfr m(512), a(512);
    mpfr_add(m, e.lo(), e.hi(), MPFR_RNDN);
    mpfr_div_2ui(m, m, 1, MPFR_RNDN);
    mpfr_set_d(a, r.hi, MPFR_RNDN);
    mpfr_add_d(a, a, r.lo, MPFR_RNDN);
    mpfr_mul_2si(a, a, r.scale, MPFR_RNDN);
    mpfr_sub(a, a, m, MPFR_RNDN);
    mpfr_div(a, a, m, MPFR_RNDN);
    mpfr_abs(a, a, MPFR_RNDN);
    if (mpfr_cmp_d(a, 0x1p-70 - 0x1p-79) > 0)
      msg += " hi+lo " + hexfloat(r.hi) + " + " + hexfloat(r.lo) + " (scale " +
             std::to_string(r.scale) + ") off by " + hexfloat(mpfr_get_d(a, MPFR_RNDU));
  }
  if (std::signbit(r.hi) != std::signbit(e.approx()) && !std::isnan(r.hi))
    msg += " sign of hi " + hexfloat(r.hi);
  const long fl = e.floor_log2();
  if (std::isfinite(r.rn) && !(fl < -1200 && r.floor_log2 < -1200) && fl != r.floor_log2)
    msg += " floor_log2 " + std::to_string(r.floor_log2) + " (MPFR " + std::to_string(fl) + ")";
  // scale is 0 from 2^-960 up; below 2^-(2^20) (enclose()'s floor_log2 is an upper bound there)
  // only the sign is carried.
  if (std::isfinite(r.rn) && fl >= -960 && r.scale != 0)
    msg += " scale " + std::to_string(r.scale) + " at |f| >= 2^-960";
  if (std::isfinite(r.rn) && fl < ref::kBelowScale &&
      (r.scale != ref::kBelowScale || r.floor_log2 != ref::kBelowScale || r.lo != 0 ||
       std::fabs(r.hi) != 1))
    msg += " below 2^-(2^20) but hi " + hexfloat(r.hi) + ", scale " + std::to_string(r.scale);
  if (!msg.empty())
    msg = std::string(name(form)) + " " + std::string(name(q)) + " " + std::string(name(fmt)) +
          " x = " + hexfloat(x) + ":" + msg;
  return msg;
}

}  // namespace gelucheck
