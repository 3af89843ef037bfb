// proptests/reference_side.cpp — the reference-side helpers of support.hpp: exact arithmetic on
// doubles, where the literal theorem formulas are affordable, and comparing MPFR numbers.
#include "support.hpp"

#include <algorithm>

namespace gelucheck::prop {

// Exact -----------------------------------------------------------------------------------------
static constexpr mpfr_prec_t kExactPrec = 2300;
Exact::Exact() : v_(kExactPrec, 0.0) {}
Exact::Exact(double v) : v_(kExactPrec, v) {}
Exact Exact::operator+(const Exact& o) const {
  Exact r; mpfr_add(r.v_, v_, o.v_, MPFR_RNDN); return r;
}
Exact Exact::operator-(const Exact& o) const {
  Exact r; mpfr_sub(r.v_, v_, o.v_, MPFR_RNDN); return r;
}
Exact Exact::operator*(double k) const {
  Exact r; mpfr_mul_d(r.v_, v_, k, MPFR_RNDN); return r;
}
Exact Exact::abs() const { Exact r; mpfr_abs(r.v_, v_, MPFR_RNDN); return r; }
int Exact::cmp(const Exact& o) const { return mpfr_cmp(v_, o.v_); }
int Exact::cmp(double o) const { return mpfr_cmp_d(v_, o); }
double Exact::to_double() const { return mpfr_get_d(v_, MPFR_RNDN); }

// Theorem formulas ------------------------------------------------------------------------------
// The literal evaluation is gelucheck/textbook.hpp's (ref::textbook), whose precision rule grows
// with the cancellation in the negative tail: beyond the range below it needs more than ~6000
// bits, and the check is skipped.
bool theorem_range(Form f, double x) {
  if (!std::isfinite(x)) return false;
  return f == Form::tanh ? x >= -30.0 : x >= -40.0;
}

bool close_rel(mpfr_srcptr a, mpfr_srcptr b, int bits) {
  if (mpfr_equal_p(a, b)) return true;
  Mpfr d(std::max(mpfr_get_prec(a), mpfr_get_prec(b)) + 8);
  mpfr_sub(d, a, b, MPFR_RNDA);
  mpfr_abs(d, d, MPFR_RNDU);
  Mpfr t(std::max<mpfr_prec_t>(mpfr_get_prec(b), 64));
  mpfr_abs(t, b, MPFR_RNDD);
  mpfr_div_2si(t, t, bits, MPFR_RNDD);
  return mpfr_lessequal_p(d, t);
}

std::string mpfr_hex(mpfr_srcptr v) {
  char* s = nullptr;
  mpfr_asprintf(&s, "%.30Ra", v);
  std::string r = s ? s : "?";
  mpfr_free_str(s);
  return r;
}

}  // namespace gelucheck::prop
