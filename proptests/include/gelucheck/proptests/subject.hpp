// gelucheck/proptests/subject.hpp — the seam of the property suite (issue 4, point 7).
//
// The properties never call gelucheck::scalar & co. directly: they call the *subject*, an
// `Implementation` chosen at start-up by name (environment variable GELUCHECK_IMPL, default
// "accurate"). Anything that offers the library's interface can be checked by wrapping it in an
// Implementation and registering it (see docs/properties.md, "Checking your own GELU").
//
// An implementation states what it claims (`Claims`); a property that needs a claim the subject
// does not make is skipped (GTEST_SKIP), never silently passed. The broken variants of point 8
// (mutants.cpp) claim what the real library claims, so every property applies to them.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gelucheck/common.hpp"
#include "gelucheck/gelu.hpp"

namespace gelucheck::prop {

struct Claims {
  // Claimed error bounds against the exact value, in ulps of DESIGN.md §2, for all four
  // functions (value and derivative of both forms). `strict` means "< bound" (faithful),
  // otherwise "<= bound" (0.5 = correctly rounded). A negative bound means "no accuracy claim":
  // accuracy, identity and bound properties are then skipped.
  double ulp64 = -1;
  bool strict64 = true;
  double ulp32 = -1;
  bool strict32 = false;
  // NaN -> NaN, +-inf -> the limits (with the sign of zero the limit approaches from), -0 -> -0.
  bool specials = false;
  // The binary64 values are the seeds' expressions, bit for bit: tanh (course seed)
  // 0.5 * x * (1.0 + tanh(sqrt(2/pi) * (x + 0.044715 * (x * x * x)))); erf (exercise seed)
  // x * (0.5 * (1.0 + erf(x / sqrt(2)))), constants rounded to nearest.
  bool seed_formula = false;
  bool accurate() const { return ulp64 >= 0 && ulp32 >= 0; }
};

// The library's interface, as the properties use it. Views and semantics as in gelu.hpp.
class Implementation {
 public:
  virtual ~Implementation() = default;
  virtual std::string name() const = 0;
  virtual Claims claims() const = 0;

  virtual double value(Form f, double x) const = 0;
  virtual float value(Form f, float x) const = 0;
  virtual double deriv(Form f, double x) const = 0;
  virtual float deriv(Form f, float x) const = 0;

  virtual void map(Form f, View<const double> x, View<double> out) const = 0;
  virtual void map(Form f, View<const float> x, View<float> out) const = 0;
  virtual void backward(Form f, View<const double> x, View<const double> dy,
                        View<double> dx) const = 0;
  virtual void backward(Form f, View<const float> x, View<const float> dy,
                        View<float> dx) const = 0;

  // The Jacobian of map at the flat vector x. Implementations without one inherit these
  // (entry (i, j) = i == j ? deriv(x[i]) : +0), which the properties then check like any other.
  virtual double pdiv(Form f, std::span<const double> x, std::size_t i, std::size_t j) const;
  virtual float pdiv(Form f, std::span<const float> x, std::size_t i, std::size_t j) const;
  virtual std::vector<double> jacobian(Form f, std::span<const double> x) const;
  virtual std::vector<float> jacobian(Form f, std::span<const float> x) const;
};

// gelucheck::gelu (src/) behind the seam. Path::accurate claims binary64 < 1 ulp, binary32
// <= 0.5 ulp and the specials (issue 3, points 3–4); Path::naive claims only that it is the
// seed's formula, and is registered twice: as "seed" (its own claims) and as "naive" (claiming
// what accurate claims — the variant the suite must catch).
std::unique_ptr<Implementation> make_library(Path path);

// Registry of subjects by name: "accurate" (default), "seed", "naive", and the mutants
// ("mutant_*", see mutants.cpp). Users add theirs with register_implementation before main runs
// the tests (e.g. from a static initialiser in a file linked into gelucheck_proptests).
using Factory = std::function<std::unique_ptr<Implementation>()>;
void register_implementation(std::string name, Factory make, bool must_fail = false);
struct Registered {
  std::string name;
  bool must_fail;  // a deliberately broken variant: the suite must catch it
};
std::vector<Registered> registered();

// The subject of this run: GELUCHECK_IMPL, or "accurate". Throws std::invalid_argument with the
// list of known names for an unknown one.
const Implementation& subject();

}  // namespace gelucheck::prop
