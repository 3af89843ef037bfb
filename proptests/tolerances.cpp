// proptests/tolerances.cpp — the claim's tolerance at an exact value and the check of a result
// against the reference under a claim (slack() and the rounded-up operations: gelucheck/slack.hpp).
#include "support.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gelucheck::prop {

namespace {
using dlim = std::numeric_limits<double>;
}  // namespace

// ---------------------------------------------------------------------------------------------
// Tolerances.

double ulp_of(double y, Format fmt) {
  const FormatInfo fi = info(fmt);
  int e = fi.emin;
  if (y != 0 && std::isfinite(y)) e = std::max(std::ilogb(y), fi.emin);
  return std::ldexp(1.0, e - fi.precision + 1);
}

double tolerance(const Claim& c, double y_mag, double ulp_y) {
  switch (c.kind) {
    case Claim::Kind::none: return dlim::infinity();
    case Claim::Kind::ulp: return mul_up(c.max_ulp, ulp_y);
    case Claim::Kind::allclose: return add_up(c.atol, mul_up(c.rtol, y_mag));
  }
  return dlim::infinity();
}

void check_claim(const char* what, Function fn, Format fmt, double x, double r, const Claim& c) {
  const ref::Enclosure y = ref::enclose(fn.form, fn.quantity, x);
  const Error e = measure(r, y, fmt);
  if (meets(c, e, std::fabs(y.approx()))) return;
  const double expected = ref::correctly_rounded(fn.form, fn.quantity, x, fmt);
  fail_at(fn, fmt, x, fmt::format("{} {}@{}: input {}, expected {} (correctly rounded), got {}, error {} ulp "
                   "(abs {}){}{}; claim: {}",
                   what, subject::function_name(fn), subject::dtype_name(fmt), hex(x),
                   hex(expected), hex(r), e.ulp, hex(e.abs), e.nan_mismatch ? ", NaN mismatch" : "",
                   e.zero_sign_mismatch ? ", sign-of-zero mismatch" : "", c.text));
}

}  // namespace gelucheck::prop
