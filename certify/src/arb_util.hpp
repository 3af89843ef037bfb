// certify/src/arb_util.hpp — owning wrappers around Arb balls and series, and the conversions
// between balls and the certificate file's numbers (exact binary64 box ends, decimal bounds
// rounded outward). Internal to gelucheck::certify.
#pragma once

#include <string>

#include <arb.h>
#include <arb_poly.h>

namespace gelucheck::certify {

// The working precision of every evaluation, in the search and in the check (bits). The widest
// enclosure the certificates need is 1e-30 ≈ 2^-100 absolute; 256 bits leave ~150 bits for the
// cancellation in tanh form − erf form (both ≈ x, the gap ≈ 1e-4 down to 1e-15 on [-8, 8]) and
// for the radius growth of ball arithmetic.
inline constexpr slong kPrec = 256;

struct Ball {
  arb_t v;
  Ball() { arb_init(v); }
  explicit Ball(double d) {
    arb_init(v);
    arb_set_d(v, d);
  }
  ~Ball() { arb_clear(v); }
  Ball(const Ball& o) {
    arb_init(v);
    arb_set(v, o.v);
  }
  Ball& operator=(const Ball& o) {
    arb_set(v, o.v);
    return *this;
  }
};

struct Poly {
  arb_poly_t v;
  Poly() { arb_poly_init(v); }
  ~Poly() { arb_poly_clear(v); }
  Poly(const Poly&) = delete;
  Poly& operator=(const Poly&) = delete;
};

struct Arf {
  arf_t v;
  Arf() { arf_init(v); }
  explicit Arf(double d) {
    arf_init(v);
    arf_set_d(v, d);
  }
  ~Arf() { arf_clear(v); }
  Arf(const Arf&) = delete;
  Arf& operator=(const Arf&) = delete;
};

// The ball of the exact interval [lo, hi] (binary64 ends, exact in Arb): it contains the interval.
Ball interval(double lo, double hi);
// A ball around the number a decimal (or hex float) string writes; false if unparsable. The
// number itself lies in the ball (Arb's arb_set_str rounds outward).
bool parse(const std::string& s, Ball& out);
// The lower (upper) end of a ball rounded down (up) to `digits` significant decimal digits, in
// the form "-1.2345e-4" (or "0"): a decimal number <= (>=) every point of the ball.
std::string decimal_down(const arb_t x, int digits);
std::string decimal_up(const arb_t x, int digits);
// The binary64 numbers just outside a ball: down <= every point, up >= every point.
double double_down(const arb_t x);
double double_up(const arb_t x);
// The strict order of two balls: every point of a below every point of b.
bool below(const arb_t a, const arb_t b);

}  // namespace gelucheck::certify
