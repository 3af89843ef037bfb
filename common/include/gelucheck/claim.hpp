// gelucheck/claim.hpp — the ONE claim type: what a subject (the code under check) promises about
// one function (form × value/derivative) in one format. The library's own claims (claims.hpp in
// src/), the claims a user states with `gelucheck check --claim`, the report's gate and the
// property suite all use this type; none has its own.
//
// Kinds (docs/subjects.md, "Claims"):
//   none      measure only; nothing can break it.
//   ulp       error <= max_ulp ulps (inclusive) or < max_ulp (strict), in the ulps of
//             gelucheck/measure.hpp: "cr" is <= 0.5, "faithful" is < 1, "ulp:N" is <= N.
//   allclose  |r - y| <= atol + rtol·|y| (y the exact value): an exercise grader's or a framework
//             test suite's criterion (numpy.allclose / torch.testing.assert_close).
// Every kind but none also demands the right NaN-ness at every input (a NaN where the value is a
// number, or a number where it is NaN, breaks any claim) and, at ±inf, the limit within the
// tolerance. `sign_of_zero` adds: a zero result has the sign of the exact value.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

#include "gelucheck/common.hpp"

namespace gelucheck {

struct Claim {
  enum class Kind { none, ulp, allclose };
  Kind kind = Kind::none;
  double max_ulp = 0;   // ulp: the bound
  bool inclusive = true;  // ulp: err <= max_ulp (true) or err < max_ulp (false)
  double atol = 0, rtol = 0;  // allclose
  bool sign_of_zero = false;
  std::string text;     // for reports and failure messages ("correctly rounded (<= 0.5 ulp)")

  bool claims_anything() const { return kind != Kind::none; }

  static Claim none() { return {}; }
  // <= 0.5 ulp, sign of zero included: the result IEEE 754 round-to-nearest would give.
  static Claim correctly_rounded() {
    return {Kind::ulp, 0.5, true, 0, 0, true, "correctly rounded (<= 0.5 ulp), sign of zero included"};
  }
  // < 1 ulp (one of the two neighbours of the exact value), sign of zero included.
  static Claim faithful() {
    return {Kind::ulp, 1.0, false, 0, 0, true, "faithful (< 1 ulp), sign of zero included"};
  }
  static Claim ulps(double n);                        // <= n ulp, sign of zero included
  static Claim allclose(double atol, double rtol);    // sign of zero not included
  // What every framework's own test suite already demands of a GELU in this dtype when nobody
  // claims anything: torch.testing.assert_close's default tolerances for the dtype (binary64
  // rtol 1e-7 atol 1e-7; binary32 1.3e-6, 1e-5; bfloat16 1.6e-2, 1e-5; binary16 1e-3, 1e-5), with
  // NaN and the limits at ±inf. A swapped form or a mistyped constant breaks it.
  static Claim framework_default(Format fmt);
};

// Whether one result meets the claim. `ulp`, `abs`, `nan_mismatch`, `zero_sign_mismatch` are the
// fields of gelucheck::Error (measure.hpp, the one error measure); `exact_magnitude` is |y| (the
// correctly rounded value's magnitude serves: allclose tolerances are not sharp to an ulp).
// The library does not depend on the reference, hence a template over anything with those fields.
template <class E>
bool meets(const Claim& c, const E& e, double exact_magnitude) {
  switch (c.kind) {
    case Claim::Kind::none: return true;
    case Claim::Kind::ulp:
      if (e.nan_mismatch || (c.sign_of_zero && e.zero_sign_mismatch)) return false;
      return c.inclusive ? e.ulp <= c.max_ulp : e.ulp < c.max_ulp;
    case Claim::Kind::allclose: {
      if (e.nan_mismatch || (c.sign_of_zero && e.zero_sign_mismatch)) return false;
      if (e.ulp == 0) return true;  // exact, also at ±inf
      if (std::isinf(e.ulp) || std::isnan(e.abs) || std::isinf(e.abs)) return false;
      return e.abs <= c.atol + c.rtol * std::fabs(exact_magnitude);
    }
  }
  return false;
}

// The same for a claim of the ulp kind (or none), which needs no magnitude.
template <class E>
bool meets(const Claim& c, const E& e) {
  if (c.kind == Claim::Kind::allclose) throw std::logic_error("meets: allclose needs |y|");
  return meets(c, e, 0.0);
}

}  // namespace gelucheck
