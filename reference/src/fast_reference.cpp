// round_batch: the fast path (fast_path.hpp) where its rounding test decides, the MPFR reference
// (enclose()) elsewhere. See docs/reference.md, "The fast reference".
#include "gelucheck/fast_reference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "fast_path.hpp"
#include "gelucheck/reference.hpp"
#include "mpfr_support.hpp"

namespace gelucheck::ref {
namespace {

using detail::Num;
using detail::RangeGuard;

// hi + lo (·2^scale) nearest the enclosure's midpoint; hi is the midpoint rounded to nearest and
// lo the rest rounded to nearest, so hi + lo carries it to 2^-106 relative (2^-70 needs far less).
void set_approx(const Enclosure& e, Rounded& r) {
  RangeGuard guard;
  mpfr_srcptr lo = e.lo(), hi = e.hi();
  if (mpfr_nan_p(lo) || mpfr_nan_p(hi) || mpfr_inf_p(lo) || mpfr_inf_p(hi) ||
      mpfr_equal_p(lo, hi)) {  // NaN, ±inf or an exact result (lo == hi)
    r.hi = e.approx();
    r.lo = 0;
    r.scale = 0;
    return;
  }
  const mpfr_prec_t p = std::max(mpfr_get_prec(lo), mpfr_get_prec(hi)) + 1;
  Num m(p), t(p);
  if (mpfr_zero_p(lo) || mpfr_zero_p(hi)) {  // below MPFR's range: the nonzero bound
    mpfr_set(m.v, mpfr_zero_p(lo) ? hi : lo, MPFR_RNDN);
  } else {
    mpfr_add(m.v, lo, hi, MPFR_RNDN);  // exact at p
    mpfr_div_2ui(m.v, m.v, 1, MPFR_RNDN);
  }
  r.scale = 0;
  const long ex = mpfr_get_exp(m.v);  // m = 0.1b… × 2^ex
  if (ex < -960) {
    r.scale = std::max(ex, kBelowScale);
    mpfr_mul_2si(m.v, m.v, -r.scale, MPFR_RNDN);
    if (ex < kBelowScale) mpfr_set_si(m.v, mpfr_signbit(m.v) ? -1 : 1, MPFR_RNDN);
  }
  r.hi = mpfr_get_d(m.v, MPFR_RNDN);
  mpfr_sub_d(t.v, m.v, r.hi, MPFR_RNDN);
  r.lo = mpfr_get_d(t.v, MPFR_RNDN);
}

bool is_value_of(double x, Format fmt) {
  if (fmt == Format::binary32) return std::isnan(x) || static_cast<double>(static_cast<float>(x)) == x;
  return same_bits(round_to_format(x, fmt), x);
}

}  // namespace

Rounded round_mpfr(Form form, Quantity q, Format fmt, double x) {
  const Enclosure e = enclose(form, q, x, 128);
  Rounded r;
  r.rn = e.rounded(fmt);
  r.rd = e.rounded_down(fmt);
  r.ru = e.rounded_up(fmt);
  r.floor_log2 = e.floor_log2();
  set_approx(e, r);
  return r;
}

void round_batch(Form form, Quantity q, Format fmt, std::span<const double> x,
                 std::span<Rounded> out, FastStats* stats) {
  if (out.size() != x.size())
    throw std::invalid_argument("round_batch: out.size() != x.size()");
  for (double v : x)
    if (!is_value_of(v, fmt))
      throw std::invalid_argument("round_batch: x = " + hexfloat(v) + " is not a value of " +
                                  std::string(name(fmt)));
  std::uint64_t fast = 0, fallback = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (fmt != Format::binary64 && fast::evaluate(form, q, fmt, x[i], out[i])) {
      ++fast;
    } else {
      out[i] = round_mpfr(form, q, fmt, x[i]);
      ++fallback;
    }
  }
  if (stats != nullptr) {
    stats->fast += fast;
    stats->fallback += fallback;
  }
}

}  // namespace gelucheck::ref
