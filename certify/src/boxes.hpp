// certify/src/boxes.hpp — what one box of a scan proves, decided the same way by the search
// (which picks a verdict) and by the check (which re-decides the recorded one).
#pragma once

#include "spec.hpp"

namespace gelucheck::certify {

// F^(j) over the box [lo, hi] (F = base^(order) of the scan): a ball containing every value.
void on_box(const ScanSpec& s, int j, double lo, double hi, Ball& out);
// The same over any ball x (about its midpoint).
void on_ball(const ScanSpec& s, int j, const arb_t x, Ball& out);
// +1 / −1 when F' has that sign on the whole box, 0 otherwise.
int sign_of_fprime(const ScanSpec& s, double lo, double hi);
// Krawczyk's test for F' on X = [lo, hi]: with m the midpoint and Y = 1/mid F''(X),
//   K(X) = m − Y·F'(m) + (1 − Y·F''(X))·(X − m);
// K(X) inside the interior of X proves F' has exactly one zero in X (Krawczyk 1969; Moore,
// Kearfott, Cloud, "Introduction to Interval Analysis", 2009, §8.4). Also demands 0 ∉ F''(X),
// so the zero is simple: F' changes sign there and F has a strict extremum.
bool krawczyk(const ScanSpec& s, double lo, double hi);
// The sign of F'' on the box (0: not decided).
int sign_of_fsecond(const ScanSpec& s, double lo, double hi);
// For a scan whose F' has a zero of order k at 0 (the centre box [−w, w]): the sign of
// F^(k+1) on the box, 0 when it is not decided. F'(x) = F^(k+1)(ξ)x^k/k! (Taylor, Lagrange's
// remainder), so a sign proves x = 0 the only zero in the box.
int sign_at_zero_order(const ScanSpec& s, double lo, double hi);
// The kind of extremum F has at its critical point 0 of order k with F^(k+1) of sign `sign`:
// k odd: F' changes sign, a max for sign < 0, a min for sign > 0; k even: none.
const char* zero_extremum(int k, int sign);

}  // namespace gelucheck::certify
