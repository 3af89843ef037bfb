// gelucheck/slack.hpp — how far the exact value may lie from a result that meets a claim: the
// one derivation of the tolerances that turn an exact fact (an identity, a bound, monotonicity)
// into a check of results. The property suite (proptests/) and the facts the report checks over
// every result (checking/src/facts.cpp) both use it.
#pragma once

#include "gelucheck/claim.hpp"
#include "gelucheck/common.hpp"

namespace gelucheck {

// a + b, a·b, a / b rounded up to a double (subnormal results included): for tolerances.
double add_up(double a, double b);
double mul_up(double a, double b);
double div_up(double a, double b);

// How far the exact value y may lie from a result r that meets claim c in fmt: |r - y| <= slack.
// +inf when the claim bounds nothing (none), or too loosely for r to bound y (an ulp claim of
// 2^(p-1) ulps or more, allclose with rtol >= 1), or r is not finite. Derivation in slack.cpp.
double slack(const Claim& c, Format fmt, double r);
bool bounds_exact_value(const Claim& c, Format fmt);  // slack is finite for finite r
// The claim admits only the two neighbours of the exact value (an ulp claim below 1 ulp, or
// "< 1"): then inequalities against values of the format (f(x) <= x, the sign) hold exactly.
bool faithful_or_better(const Claim& c);

}  // namespace gelucheck
