// certify/src/arb_util.cpp — see arb_util.hpp.
#include "arb_util.hpp"

#include <string>

#include <mpfr.h>

#include "gelucheck/mpfr.hpp"

namespace gelucheck::certify {

Ball interval(double lo, double hi) {
  Arf a(lo), b(hi);
  Ball r;
  arb_set_interval_arf(r.v, a.v, b.v, kPrec);
  return r;
}

bool parse(const std::string& s, Ball& out) {
  return !s.empty() && arb_set_str(out.v, s.c_str(), kPrec) == 0 && arb_is_finite(out.v);
}

namespace {

// The arf rounded to `digits` significant decimals in direction rnd, as "d.ddde±N".
std::string decimal(const arf_t x, int digits, mpfr_rnd_t rnd) {
  if (arf_is_zero(x)) return "0";
  Mpfr m(2 * kPrec + 64);
  arf_get_mpfr(m, x, rnd);  // exact: the bounds have at most ~kPrec + a few bits
  mpfr_exp_t e = 0;
  char* s = mpfr_get_str(nullptr, &e, 10, static_cast<size_t>(digits), m, rnd);
  std::string digs(s);
  mpfr_free_str(s);
  std::string sign;
  if (digs[0] == '-') {
    sign = "-";
    digs.erase(0, 1);
  }
  // digs = d1 d2 ... with value 0.d1d2... × 10^e = d1.d2... × 10^(e-1); trailing zeros dropped.
  while (digs.size() > 1 && digs.back() == '0') digs.pop_back();
  std::string out = sign + digs.substr(0, 1);
  if (digs.size() > 1) out += "." + digs.substr(1);
  return out + "e" + std::to_string(static_cast<long>(e) - 1);
}

}  // namespace

std::string decimal_down(const arb_t x, int digits) {
  Arf lo;
  arb_get_lbound_arf(lo.v, x, 2 * kPrec);
  return decimal(lo.v, digits, MPFR_RNDD);
}
std::string decimal_up(const arb_t x, int digits) {
  Arf hi;
  arb_get_ubound_arf(hi.v, x, 2 * kPrec);
  return decimal(hi.v, digits, MPFR_RNDU);
}
double double_down(const arb_t x) {
  Arf lo;
  arb_get_lbound_arf(lo.v, x, 2 * kPrec);
  return arf_get_d(lo.v, ARF_RND_FLOOR);
}
double double_up(const arb_t x) {
  Arf hi;
  arb_get_ubound_arf(hi.v, x, 2 * kPrec);
  return arf_get_d(hi.v, ARF_RND_CEIL);
}
bool below(const arb_t a, const arb_t b) { return arb_lt(a, b) != 0; }

}  // namespace gelucheck::certify
