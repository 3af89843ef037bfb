// Private to src/ (not installed): double-double arithmetic shared by the long double kernel
// (gelu_scalar.cpp) and the binary64 fast paths (gelu_fast.cpp). Round to nearest, no FMA (the
// build pins -ffp-contract=off), so every bit is the same whatever the caller's loop looks like.
#pragma once

#include "gelucheck/constants.hpp"

namespace gelucheck::dd {

struct DD {
  double hi, lo;
};

// Error-free transforms. two_sum: s + e == a + b exactly (Knuth). fast_two_sum needs |a| >= |b|
// or a == 0 (Dekker).
inline DD two_sum(double a, double b) {
  double s = a + b;
  double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
inline DD fast_two_sum(double a, double b) {
  double s = a + b;
  return {s, b - (s - a)};
}
// Veltkamp split: a == h + l with h, l of <= 26 bits; exact for |a| < 2^995.
inline void split(double a, double& h, double& l) {
  double c = 134217729.0 * a;  // 2^27 + 1
  h = c - (c - a);
  l = a - h;
}
// Dekker's product: p + e == a * b exactly unless the product underflows (|a b| < 2^-969); in
// that case e absorbs an absolute error below 2^-1000.
inline DD two_prod(double a, double b) {
  double p = a * b, ah, al, bh, bl;
  split(a, ah, al);
  split(b, bh, bl);
  return {p, ((ah * bh - p) + ah * bl + al * bh) + al * bl};
}
// (a.hi + a.lo) * b: relative error <= 2^-104 (the dropped rounding of a.lo * b and of the sum).
inline DD mul(DD a, double b) {
  DD p = two_prod(a.hi, b);
  return fast_two_sum(p.hi, p.lo + a.lo * b);
}
// a * b: relative error <= 2^-102 (cross terms rounded, a.lo * b.lo dropped).
inline DD mul(DD a, DD b) {
  DD p = two_prod(a.hi, b.hi);
  return fast_two_sum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}
// a + b for a, b of the same sign (no cancellation): relative error <= 2^-104.
inline DD add(DD a, DD b) {
  DD s = two_sum(a.hi, b.hi);
  return fast_two_sum(s.hi, s.lo + (a.lo + b.lo));
}
// a + b of any signs: |error| <= 2^-104 (|a| + |b|) (the low parts' sum and its addition rounded).
inline DD add_any(DD a, DD b) {
  DD s = two_sum(a.hi, b.hi);
  return two_sum(s.hi, s.lo + (a.lo + b.lo));
}
// a / b: relative error <= 2^-101 (one correction step; b.lo^2/b.hi^2 <= 2^-106 dropped).
// Needs normal operands and quotient (the remainder's two_prod must not underflow).
inline DD div(DD a, DD b) {
  const double q1 = a.hi / b.hi;
  const DD p = two_prod(q1, b.hi);
  const double r = (((a.hi - p.hi) - p.lo) + a.lo) - q1 * b.lo;  // a.hi - p.hi exact (Sterbenz)
  return fast_two_sum(q1, r / b.hi);
}

// The tanh form's argument t = 2u(x) = K1 x + K2 x^3 = x (K1 + K2 x^2) (K1 = 2 sqrt(2/pi),
// K2 = K1 * 0.044715) in double-double, for |x| <= 32: relative error <= 2^-100 (x^2 by two_prod
// exact; K2 x^2 by mul of pairs 2^-102, + K1 (both positive) 2^-104, times x 2^-104, K1 and K2 as
// pairs 2^-106 each: 1.625 2^-102 < 2^-101). Used by the kernel and by the binary64 fast path.
inline DD tanh_arg(double x) {
  const DD s = two_prod(x, x);
  const DD k2{constants::kTwoSqrt2OverPiCubic.hi, constants::kTwoSqrt2OverPiCubic.lo};
  const DD k1{constants::kTwoSqrt2OverPi.hi, constants::kTwoSqrt2OverPi.lo};
  return mul(add(k1, mul(k2, s)), x);
}

}  // namespace gelucheck::dd
