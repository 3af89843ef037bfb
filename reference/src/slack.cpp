// The tolerances of gelucheck/slack.hpp: how far the exact value may lie from a result that
// meets a claim (moved here from the property suite, so that the report's facts over every
// result use the same derivation).
#include "gelucheck/slack.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <mpfr.h>

#include "gelucheck/mpfr.hpp"

namespace gelucheck {

namespace {
using dlim = std::numeric_limits<double>;
}  // namespace

namespace {
// a op b rounded up to a double (MPFR at 53 bits toward +inf, then to the double toward +inf:
// both roundings upward, subnormal results included, unlike the same operation in double).
template <class Op>
double up(double a, double b, Op op) {
  Mpfr x(53, a), y(53, b);
  op(x, x, y, MPFR_RNDU);
  return mpfr_get_d(x, MPFR_RNDU);
}
}  // namespace

double add_up(double a, double b) { return up(a, b, mpfr_add); }
double mul_up(double a, double b) { return up(a, b, mpfr_mul); }
double div_up(double a, double b) { return up(a, b, mpfr_div); }

// slack(c, fmt, r): a bound of |r - y| for every real y of which r meets the claim.
//   ulp claim c: |r - y| <= c·ulp(y) and ulp(y) = 2^(max(floor(log2|y|), emin) - p + 1) <=
//     max(u_min, 2^(1-p)·|y|), u_min = 2^(emin - p + 1). In the second case |y| <= |r| + c·ulp(y)
//     gives ulp(y)·(1 - c·2^(1-p)) <= 2^(1-p)·|r|, so for c·2^(1-p) < 1:
//       |r - y| <= c·max(u_min, 2^(1-p)·|r| / (1 - c·2^(1-p))).
//     (For c <= 1 this is about 2c·ulp(r): r may sit one binade below y.)
//   allclose (atol, rtol): |y| <= |r| + atol + rtol·|y|, so for rtol < 1
//       |r - y| <= atol + rtol·(|r| + atol) / (1 - rtol).
// Evaluated with every operation rounded up (add_up, ...; the denominators rounded down), so the
// double returned is at least the real bound, also where it is a subnormal.
double slack(const Claim& c, Format fmt, double r) {
  if (!std::isfinite(r)) return dlim::infinity();
  const FormatInfo fi = info(fmt);
  switch (c.kind) {
    case Claim::Kind::none: return dlim::infinity();
    case Claim::Kind::ulp: {
      const double k = std::ldexp(c.max_ulp, 1 - fi.precision);  // exact: a power-of-two scaling
      if (!(k < 1)) return dlim::infinity();
      const double u_min = std::ldexp(1.0, fi.emin - fi.precision + 1);
      const double u = div_up(mul_up(std::fabs(r), std::ldexp(1.0, 1 - fi.precision)),
                              std::nextafter(1 - k, 0.0));
      return mul_up(c.max_ulp, std::max(u_min, u));
    }
    case Claim::Kind::allclose:
      if (!(c.rtol < 1)) return dlim::infinity();
      return add_up(c.atol, mul_up(c.rtol, div_up(add_up(std::fabs(r), c.atol),
                                                  std::nextafter(1 - c.rtol, 0.0))));
  }
  return dlim::infinity();
}

bool bounds_exact_value(const Claim& c, Format fmt) { return std::isfinite(slack(c, fmt, 1.0)); }

bool faithful_or_better(const Claim& c) {
  return c.kind == Claim::Kind::ulp && (c.max_ulp < 1 || (c.max_ulp == 1 && !c.inclusive));
}

}  // namespace gelucheck
