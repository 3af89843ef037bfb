// gelucheck/facts.hpp — the ONE home of the facts of docs/functions.md and of the boundary
// points computed from them, as binary64 (and binary32) constants: hex float, the decimal beside,
// and which fact. Every test, generator and report that needs a hard point takes it from here.
//
// Where they come from: the minima, gap suprema and their locations are docs/functions.md's 40-digit
// table (gap_*_sup_up are the 5-digit bounds just above); the argmins, the underflow points and
// cbrt(max) are also computed by proptests/tools/hard_points.py (mpmath 1.3 at 60 digits; run
// /usr/bin/python3 proptests/tools/hard_points.py), agreeing with the table to its 17 printed digits;
// `lipschitz` is sup|f'| from mpmath (see its comment below). Each constant is the binary64
// (binary32 for f32_*) value nearest the real point. They are checked against the MPFR reference
// in tests/reference/test_reference.cpp (minima, gap suprema, the underflow points) — not against
// the library under test.
//
// Certified: the minima, the argmins, the gap suprema and their locations, and `lipschitz` are
// proven over all reals by the certificates of certify/certificates/gelu.json (Arb; docs/lean.md).
// tests/certify/certify_test.cpp (FactsHppAgrees) checks that each constant here is the double
// nearest its certified real and that the rounded-up bounds lie above the certified ones; the
// property suite takes its bounds from the certificates directly (gelucheck/certified.hpp).
//
// NOT here: the library's own thresholds and coefficients (src/include/gelucheck/constants.hpp),
// which are implementation choices, not facts about the functions.
#pragma once

#include <array>

#include "gelucheck/common.hpp"

namespace gelucheck::facts {

// ---- docs/functions.md, the table -----------------------------------------------------------------
// Minimum of each form's value = the zero of its derivative (f' < 0 left of it, > 0 right).
inline constexpr double argmin_tanh = -0x1.81429f9e97e4dp-1;  // -0.75246142207101626
inline constexpr double argmin_erf = -0x1.80ead197f00b4p-1;   // -0.75179152469356446
inline constexpr double min_tanh = -0x1.5c3e533586d1ap-3;     // -0.17004075057125405 (value there)
inline constexpr double min_erf = -0x1.5c19dd4b1a3fbp-3;      // -0.16997120747990366
// sup_x |gelu_tanh - gelu_erf| (even in x) and sup_x |gelu_tanh' - gelu_erf'| (odd in x), and the
// |x| where each is reached.
inline constexpr double gap_value_x = 0x1.5976e94e27d7ep+1;    // 2.6989413863772703
inline constexpr double gap_value_sup = 0x1.f039315ac1bd2p-12; // 4.7323552068728488e-4
inline constexpr double gap_deriv_x = 0x1.02634fdb0d10bp+1;    // 2.0186557597718367
inline constexpr double gap_deriv_sup = 0x1.c751a1d5d7e48p-11; // 8.6845183498591387e-4
// The suprema rounded UP at 5 digits (the figures docs/properties.md quotes; the property suite
// uses the tighter certified gelucheck::certified::gap_*_sup_up).
inline constexpr double gap_value_sup_up = 4.7324e-4;
inline constexpr double gap_deriv_sup_up = 8.6846e-4;
// sup_x |f'| over the reals (1.12899306865877 for tanh at x = 1.4185, 1.12890414518515 for erf at
// x = √2; certified: docs/lean.md), rounded up: a Lipschitz constant of the values of both forms.
inline constexpr double lipschitz = 1.129;

// ---- computed boundaries, binary64 -------------------------------------------------------------
// The real x where |f(x)| = 2^-1075 (half the least subnormal), rounded to nearest: below it (from
// a couple of ulps on) the binary64 result rounds to -0; at it, to -2^-1074. The erf value's is
// docs/functions.md's "x < -38.580140223782359".
inline constexpr double underflow_value_tanh = -0x1.58c0d225444bcp+4;  // -21.547075410436022
inline constexpr double underflow_value_erf = -0x1.34a4208ec1ea3p+5;   // -38.580140223782359
inline constexpr double underflow_deriv_tanh = -0x1.597bdbbd891f2p+4;  // -21.59273885762554
inline constexpr double underflow_deriv_erf = -0x1.3565ec37ebd9bp+5;   // -38.674766957173425
// cbrt(DBL_MAX): x*x*x overflows in binary64 beyond it (docs/functions.md "|x| > ~5.6e102").
inline constexpr double cube_overflow = 0x1.428a2f98d728bp+341;        // 5.6438030941223618e102

// ---- computed boundaries, binary32 (the same definitions with 2^-150 and FLT_MAX) --------------
inline constexpr float f32_underflow_value_tanh = -0x1.58aaf4p+3f;  // -10.770868
inline constexpr float f32_underflow_value_erf = -0x1.cb64e8p+3f;   // -14.356068
inline constexpr float f32_underflow_deriv_tanh = -0x1.5ca01p+3f;   // -10.894539
inline constexpr float f32_underflow_deriv_erf = -0x1.d152bcp+3f;   // -14.541349
inline constexpr float f32_cube_overflow = 0x1.965feap+42f;         // 6.98e12, cbrt(FLT_MAX)

// The zero of the derivative of a form (= its argmin), and the value's underflow point.
constexpr double derivative_zero(Form f) { return f == Form::tanh ? argmin_tanh : argmin_erf; }
constexpr double underflow_value(Form f) {
  return f == Form::tanh ? underflow_value_tanh : underflow_value_erf;
}

// ---- the shared hard-point set -----------------------------------------------------------------
// Every point above that is an input (not a function value), both signs where the fact is
// symmetric (the gaps) or where the mirror is itself hard (argmins: f(-x) = f(x) - x and
// f'(-x) = 1 - f'(x) sit next to the same cancellation). Consumers add their own extras
// (their region edges, thresholds of src/, the gelu_new table's points, format edges).
struct Point {
  double x;
  const char* what;
};
inline constexpr std::array<Point, 14> hard_points{{
    {argmin_tanh, "argmin / derivative zero, tanh"},
    {argmin_erf, "argmin / derivative zero, erf"},
    {-argmin_tanh, "mirror of the tanh argmin"},
    {-argmin_erf, "mirror of the erf argmin"},
    {gap_value_x, "sup |tanh - erf| (value)"},
    {-gap_value_x, "sup |tanh - erf| (value)"},
    {gap_deriv_x, "sup |tanh' - erf'|"},
    {-gap_deriv_x, "sup |tanh' - erf'|"},
    {underflow_value_tanh, "binary64 underflow, tanh value"},
    {underflow_value_erf, "binary64 underflow, erf value"},
    {underflow_deriv_tanh, "binary64 underflow, tanh derivative"},
    {underflow_deriv_erf, "binary64 underflow, erf derivative"},
    {cube_overflow, "x^3 overflows (binary64)"},
    {-cube_overflow, "x^3 overflows (binary64)"},
}};
struct Point32 {
  float x;
  const char* what;
};
inline constexpr std::array<Point32, 12> hard_points32{{
    {static_cast<float>(argmin_tanh), "argmin / derivative zero, tanh"},
    {static_cast<float>(argmin_erf), "argmin / derivative zero, erf"},
    {static_cast<float>(gap_value_x), "sup |tanh - erf| (value)"},
    {static_cast<float>(-gap_value_x), "sup |tanh - erf| (value)"},
    {static_cast<float>(gap_deriv_x), "sup |tanh' - erf'|"},
    {static_cast<float>(-gap_deriv_x), "sup |tanh' - erf'|"},
    {f32_underflow_value_tanh, "binary32 underflow, tanh value"},
    {f32_underflow_value_erf, "binary32 underflow, erf value"},
    {f32_underflow_deriv_tanh, "binary32 underflow, tanh derivative"},
    {f32_underflow_deriv_erf, "binary32 underflow, erf derivative"},
    {f32_cube_overflow, "x^3 overflows (binary32)"},
    {-f32_cube_overflow, "x^3 overflows (binary32)"},
}};

}  // namespace gelucheck::facts
