// The tanh–erf gap, from the reference only: g(x) = tanh form − erf form (value and derivative),
// its curve over [-10, 10], and the sup of |g| with its location.
//
// Accuracy: each form is enclosed to a relative width 2^-128 (ref::enclose), so the difference of
// the two lower ends, rounded once to 300 bits, is within 2^-127·max(|f_tanh|, |f_erf|) + 2^-300|g|
// of g(x); on [-10, 10] that is below 1e-37, against a sup near 5e-4 (value) and 9e-4
// (derivative). The sup is located by a grid scan (step 0.01, far finer than the width of the
// bumps of g, ~1) and a golden-section search over the bracketing grid cells with |g| compared in
// MPFR; near a smooth maximum |g(x*+h)| - |g(x*)| ~ g''h²/2, which the 1e-37 noise resolves down
// to h ~ 1e-18, so the search stops on the bracket width (4 ulps of x) and the sup value is
// correct to far more than its 17 printed digits (it is second-order in the location error).
// Beyond |x| = 10 both forms equal x (or 0) to within e^-50 relative, so the sup is inside.
#include <cmath>
#include <cstdio>
#include <string>

#include <mpfr.h>

#include "gelucheck/certified.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"
#include "internal.hpp"

namespace gelucheck::report {
namespace {

constexpr mpfr_prec_t kGapBits = 300;  // the precision of g(x), see the accuracy note above

// g(x) into out (300 bits): the difference of the enclosures' lower ends.
void exact_gap(Quantity q, double x, Mpfr& out) {
  const ref::Enclosure t = ref::enclose(Form::tanh, q, x, 128);
  const ref::Enclosure e = ref::enclose(Form::erf, q, x, 128);
  mpfr_sub(out, t.lo(), e.lo(), MPFR_RNDN);
}
double exact_gap(Quantity q, double x) {
  Mpfr g(kGapBits);
  exact_gap(q, x, g);
  return mpfr_get_d(g, MPFR_RNDN);
}

std::string decimal17(const Mpfr& g) {
  char buf[80];
  mpfr_snprintf(buf, sizeof buf, "%.16Re", static_cast<mpfr_srcptr>(g));
  return buf;
}

GapSup sup_of(Quantity q, const std::vector<double>& xs, const std::vector<double>& g) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < xs.size(); ++i)
    if (std::fabs(g[i]) > std::fabs(g[best])) best = i;
  double a = xs[best > 0 ? best - 1 : 0], b = xs[best + 1 < xs.size() ? best + 1 : best];
  // Golden-section search for the max of |g| on [a, b]; |g| compared in full MPFR precision
  // (a comparison of doubles would stop at ~1e-8 relative in x: g is flat at its max).
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double c = b - phi * (b - a), d = a + phi * (b - a);
  Mpfr fc(kGapBits), fd(kGapBits);
  exact_gap(q, c, fc);
  exact_gap(q, d, fd);
  for (int it = 0; it < 200 && b - a > 4 * (std::nextafter(b, INFINITY) - b); ++it) {
    if (mpfr_cmpabs(fc, fd) >= 0) {
      b = d; d = c; mpfr_swap(fd, fc);
      c = b - phi * (b - a);
      exact_gap(q, c, fc);
    } else {
      a = c; c = d; mpfr_swap(fc, fd);
      d = a + phi * (b - a);
      exact_gap(q, d, fd);
    }
  }
  const bool left = mpfr_cmpabs(fc, fd) >= 0;
  const Mpfr& best_g = left ? fc : fd;
  GapSup s;
  s.signed_gap = mpfr_get_d(best_g, MPFR_RNDN);
  s.sup = std::fabs(s.signed_gap);
  s.at = std::fabs(left ? c : d);
  s.sup_decimal = decimal17(best_g);
  if (s.sup_decimal[0] == '-') s.sup_decimal.erase(0, 1);
  return s;
}

}  // namespace

Gap tanh_erf_gap(const Options& opt, const Progress& progress) {
  Gap gap;
  constexpr std::size_t kN = 2001;  // step 0.01 over [-10, 10]
  gap.curve_x.resize(kN);
  gap.curve_value.resize(kN);
  gap.curve_derivative.resize(kN);
  for (std::size_t i = 0; i < kN; ++i)
    gap.curve_x[i] = gap.curve_lo + (gap.curve_hi - gap.curve_lo) * static_cast<double>(i) /
                                        static_cast<double>(kN - 1);
  parallel_for(kN, opt.threads, progress, "tanh-erf gap", [&](std::size_t i) {
    gap.curve_value[i] = exact_gap(Quantity::value, gap.curve_x[i]);
    gap.curve_derivative[i] = exact_gap(Quantity::derivative, gap.curve_x[i]);
  });
  gap.value = sup_of(Quantity::value, gap.curve_x, gap.curve_value);
  gap.derivative = sup_of(Quantity::derivative, gap.curve_x, gap.curve_derivative);
  // Beside the sampled sups, the certified ones (proven over all reals by Arb, not sampled).
  gap.value.certified_lo = certified::gap_value_sup_lo;
  gap.value.certified_hi = certified::gap_value_sup_hi;
  gap.value.certified_at = certified::gap_value_sup_at;
  gap.derivative.certified_lo = certified::gap_deriv_sup_lo;
  gap.derivative.certified_hi = certified::gap_deriv_sup_hi;
  gap.derivative.certified_at = certified::gap_deriv_sup_at;
  return gap;
}

}  // namespace gelucheck::report
