// Shared helpers of the library tests: the functions by index, the hard points of docs/functions.md,
// failure messages as hex floats (input, expected, got).
#pragma once

#include <gtest/gtest.h>
#include <mpfr.h>

#include <cstdint>

#include <string>
#include <vector>

#include "gelucheck/common.hpp"
#include "gelucheck/gelu.hpp"
#include "gelucheck/gelu_kernel.hpp"

namespace gelucheck::testing {

struct Fn {
  Form form;
  Quantity q;
  const char* name;
};
inline constexpr Fn kFns[4] = {{Form::tanh, Quantity::value, "tanh value"},
                               {Form::tanh, Quantity::derivative, "tanh derivative"},
                               {Form::erf, Quantity::value, "erf value"},
                               {Form::erf, Quantity::derivative, "erf derivative"}};

double eval(const Fn& f, double x, Path p = Path::accurate);
float eval(const Fn& f, float x, Path p = Path::accurate);

// The zero of the derivative of each form, rounded to double: gelucheck::facts (constants.hpp
// has it as a pair; the tests take it from the facts, not from src/).
double derivative_zero(Form f);

// Points every accuracy test covers: the docs/functions.md facts and hard points (facts::hard_points), the thresholds of
// src/gelu_scalar.cpp and their neighbours, huge |x|, specials excluded (tested apart).
std::vector<double> hard_points();

// ulp error of a result r of g at a (g = mpfr_exp, mpfr_erfc, ...) in a format of p significand
// bits (64: x87 long double, 53: binary64 on normal results, the ulp of docs/report.md), against
// MPFR at 200 bits. A double r or a converts to long double exactly.
double ulps(long double r, long double a, int (*g)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), int p);

std::string hex(double x);
std::string hex_ld(long double x);

// Runs body once per instruction set the vector code is compiled for and this CPU supports (so the
// SSE4 code, without FMA, is tested on an AVX-512 machine too), then restores the dispatch.
template <class F>
void on_every_target(F&& body) {
  for (std::int64_t t : detail::simd_targets()) {
    detail::simd_force_target(t);
    SCOPED_TRACE(detail::simd_target());
    body();
  }
  detail::simd_force_target(0);
}

}  // namespace gelucheck::testing
