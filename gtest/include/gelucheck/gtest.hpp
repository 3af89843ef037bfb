// gelucheck/gtest.hpp — GoogleTest matchers for a user's own unit tests of a GELU: "this result is
// correctly rounded / faithful / within N ulp of GELU at x", judged against gelucheck's MPFR
// reference with the one error measure (gelucheck/measure.hpp). Target gelucheck::gtest
// (find_package(gelucheck), docs/architecture.md "Use from your CMake project").
//
//   #include "gelucheck/gtest.hpp"
//   EXPECT_THAT(my_gelu(x), gelucheck::IsCorrectlyRounded(gelucheck::erf_value, x));
//   EXPECT_THAT(my_gelu_grad(xf), gelucheck::IsWithinUlp(2, gelucheck::tanh_derivative, xf));
//   EXPECT_THAT(half_result, gelucheck::IsFaithful(gelucheck::erf_value, x, gelucheck::Format::binary16));
//
// The format is the result's type (double: binary64, float: binary32) unless given; a 16-bit
// result is passed as the double holding its value (gelucheck::from_bits turns a bit pattern into
// one). x is the input as the function under test saw it (a float converts exactly). A failure
// says x, the result, the correctly rounded value (C99 hex floats) and the error in ulps. Each
// claim also demands the right NaN-ness and the sign of a zero result (gelucheck/claim.hpp).
#pragma once

#include <gmock/gmock.h>

#include <cmath>
#include <optional>
#include <ostream>
#include <sstream>
#include <type_traits>

#include "gelucheck/claim.hpp"
#include "gelucheck/common.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/reference.hpp"

namespace gelucheck {

// One of the four functions: a form and its value or derivative (gelucheck/common.hpp's Function).
using GeluFunction = Function;
inline constexpr GeluFunction tanh_value{Form::tanh, Quantity::value};
inline constexpr GeluFunction tanh_derivative{Form::tanh, Quantity::derivative};
inline constexpr GeluFunction erf_value{Form::erf, Quantity::value};
inline constexpr GeluFunction erf_derivative{Form::erf, Quantity::derivative};

namespace gtest_detail {

template <class T>
constexpr Format format_of() {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, float>,
                "gelucheck matchers take a double or a float result (a 16-bit result: its value "
                "as a double, with the Format given)");
  return std::is_same_v<T, double> ? Format::binary64 : Format::binary32;
}

class ClaimMatcher {
 public:
  ClaimMatcher(Claim claim, GeluFunction fn, double x, std::optional<Format> fmt)
      : claim_(std::move(claim)), fn_(fn), x_(x), fmt_(fmt) {}

  template <class T>
  bool MatchAndExplain(T result, ::testing::MatchResultListener* listener) const {
    const Format fmt = fmt_ ? *fmt_ : format_of<T>();
    const double r = static_cast<double>(result);
    const Error e = measure(r, ref::enclose(fn_.form, fn_.quantity, x_), fmt);
    const double want = ref::correctly_rounded(fn_.form, fn_.quantity, x_, fmt);
    const bool ok = meets(claim_, e, std::fabs(want));
    if (listener->IsInterested()) {
      std::ostringstream ss;
      ss.precision(4);
      ss << "x = " << hexfloat(x_) << ", got " << hexfloat(r) << ", expected "
         << hexfloat(want) << " (correctly rounded), error " << e.ulp << " ulp";
      if (e.nan_mismatch) ss << ", NaN mismatch";
      if (e.zero_sign_mismatch) ss << ", zero of the wrong sign";
      *listener << ss.str();
    }
    return ok;
  }
  void DescribeTo(std::ostream* os) const { describe(os, "is "); }
  void DescribeNegationTo(std::ostream* os) const { describe(os, "is not "); }

 private:
  void describe(std::ostream* os, const char* is) const {
    *os << is << claim_.text << " for gelu_" << name(fn_.form) << ' ' << name(fn_.quantity)
        << " at x = " << hexfloat(x_);
    if (fmt_) *os << " in " << name(*fmt_);
  }
  Claim claim_;
  GeluFunction fn_;
  double x_;
  std::optional<Format> fmt_;
};

template <class X>
double input(X x) {
  static_assert(std::is_floating_point_v<X>, "x is a double or a float");
  return static_cast<double>(x);
}

}  // namespace gtest_detail

// The result meets `claim` (any gelucheck::Claim, e.g. Claim::ulps(n) or Claim::allclose(a, r))
// for fn at x.
template <class X>
::testing::PolymorphicMatcher<gtest_detail::ClaimMatcher> Meets(const Claim& claim, GeluFunction fn,
                                                               X x, std::optional<Format> fmt = {}) {
  return ::testing::MakePolymorphicMatcher(
      gtest_detail::ClaimMatcher(claim, fn, gtest_detail::input(x), fmt));
}
// <= 0.5 ulp: the value IEEE round-to-nearest gives.
template <class X>
auto IsCorrectlyRounded(GeluFunction fn, X x, std::optional<Format> fmt = {}) {
  return Meets(Claim::correctly_rounded(), fn, x, fmt);
}
// < 1 ulp: one of the two neighbours of the exact value.
template <class X>
auto IsFaithful(GeluFunction fn, X x, std::optional<Format> fmt = {}) {
  return Meets(Claim::faithful(), fn, x, fmt);
}
// <= n ulp.
template <class X>
auto IsWithinUlp(double n, GeluFunction fn, X x, std::optional<Format> fmt = {}) {
  return Meets(Claim::ulps(n), fn, x, fmt);
}

}  // namespace gelucheck
