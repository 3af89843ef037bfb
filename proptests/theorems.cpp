// One property group per theorem of Lean's Proofs.GeluForm (docs/properties.md lists them).
// Test names: reference_* check the MPFR reference against the theorem's own formula (they do
// not depend on the subject: one test each); impl_* check the subject against the reference
// (one test per format).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gelucheck/certified.hpp"
#include "support.hpp"

namespace gelucheck::prop {
namespace {

// base_bits of the literal evaluations (gelucheck/textbook.hpp): relative error below 2^-312,
// far below the 2^-100 and 2^-96 the checks below allow.
constexpr int kTheoremBits = 320;

// An input where the literal evaluation of the theorem's formula is affordable (theorem_range):
// x in [-30, 2^64] for the tanh form, [-40, 2^64] for the erf form, from the binary64 mix.
Input theorem_input(Form f) { return *gen_in(Format::binary64, f == Form::tanh ? -30.0 : -40.0, 0x1p64); }

// The MPFR reference against the literal Lean definition (value or closed-form derivative).
// Both are real numbers evaluated to >= 100 correct bits (reference: 128-bit enclosure; literal:
// see ref::textbook's precision note), so agreement to 2^-100 relative is expected; a wrong
// constant, form or term in either shows up as a relative difference >= ~1e-16 or far more.
void reference_is_theorem(Form f, Quantity q, const Input& x) {
  tag(x);
  const ref::Enclosure y = ref::enclose(f, q, x.v);
  Mpfr xm(53), lit(64);
  mpfr_set_d(xm, x.v, MPFR_RNDN);
  ref::textbook(lit, f, q, xm, kTheoremBits);
  const bool ok = close_rel(lit, y.lo(), 100) && close_rel(lit, y.hi(), 100);
  const std::string msg = fmt::format("{} {}: input {}, reference [{}, {}], theorem's formula {}",
                                      name(f), name(q), hex(x.v), mpfr_hex(y.lo()),
                                      mpfr_hex(y.hi()), mpfr_hex(lit));
  if (!ok) fail(msg);
}

// Central difference of the literal value, (F(x+h) - F(x-h)) / 2h, h = 2^-80·max(1, |x|), in
// MPFR (x ± h exact at 2300 bits). Its error: truncation h²·|f'''|/6 plus rounding
// 2·2^-(320-8)·|F|/(2h). Over theorem_range with |x| <= 2^64: |f'''/f'| <= ~2^17 (the tail,
// where (du/dx)² ~ (0.107x²)²) and h² <= 2^-160·x², so truncation <= 2^-120 relative; near
// the derivative's zero |f'| >= 2^-56 at a double while f''' ~ 1, so <= 2^-104. Rounding:
// |F|/h <= 2^80·40, times 2^-312 — negligible. Checked to 2^-96 relative against the reference's
// closed-form derivative.
void central_difference(Form f, double x, int h_exp, mpfr_ptr out) {
  Mpfr xp(2300), xm(2300);
  Mpfr fp(64), fm(64);
  const int e = std::fabs(x) > 1 ? std::ilogb(x) : 0;
  mpfr_set_d(xp, x, MPFR_RNDN);
  mpfr_set_d(xm, x, MPFR_RNDN);
  Mpfr h(8);
  mpfr_set_ui_2exp(h, 1, e + h_exp, MPFR_RNDN);
  mpfr_add(xp, xp, h, MPFR_RNDN);  // exact at 2300 bits
  mpfr_sub(xm, xm, h, MPFR_RNDN);
  ref::textbook(fp, f, Quantity::value, xp, kTheoremBits);
  ref::textbook(fm, f, Quantity::value, xm, kTheoremBits);
  mpfr_set_prec(out, std::max(mpfr_get_prec(fp), mpfr_get_prec(fm)) + 8);
  mpfr_sub(out, fp, fm, MPFR_RNDN);
  mpfr_div(out, out, h, MPFR_RNDN);
  mpfr_div_2ui(out, out, 1, MPFR_RNDN);
}

void reference_is_numerical_derivative(Form f, const Input& x) {
  tag(x);
  const ref::Enclosure d = ref::enclose(f, Quantity::derivative, x.v);
  Mpfr cd(64);
  central_difference(f, x.v, -80, cd);
  const bool ok = close_rel(cd, d.lo(), 96) && close_rel(cd, d.hi(), 96);
  const std::string msg =
      fmt::format("{}: input {}, reference derivative [{}, {}], central difference (h=2^-80) {}",
                  name(f), hex(x.v), mpfr_hex(d.lo()), mpfr_hex(d.hi()), mpfr_hex(cd));
  if (!ok) fail(msg);
}

// The subject's results for one function against the reference, under its claim in fmt: one
// input per case (the mix of gen_input: every binade, the hard points, the specials), one
// harness call per case.
void within_claim(Function fn, Format fmt) {
  targets(fmt, {fn}, Need::claim);
  const Claim c = claim_of(fn, fmt);
  run_checked([&] {
    const Input x = *gen_input(fmt);
    tag(x);
    check_claim("accuracy", fn, fmt, x.v, run_function(fn, fmt, x.v), c);
  });
}

}  // namespace

// ---- scalar_tanh : tanh.scalar = geluScalar ---------------------------------------------------
GELU_PROPERTY(scalar_tanh, reference_is_geluScalar, "Proofs.GeluForm.scalar_tanh", false) {
  run_checked([] { reference_is_theorem(Form::tanh, Quantity::value, theorem_input(Form::tanh)); });
}
GELU_PROPERTY(scalar_tanh, impl_within_claim, "Proofs.GeluForm.scalar_tanh", true) {
  within_claim(value_of(Form::tanh), fmt);
}

// ---- scalar_erf : erf.scalar = geluErfScalar ----------------------------------------------------
GELU_PROPERTY(scalar_erf, reference_is_geluErfScalar, "Proofs.GeluForm.scalar_erf", false) {
  run_checked([] { reference_is_theorem(Form::erf, Quantity::value, theorem_input(Form::erf)); });
}
GELU_PROPERTY(scalar_erf, impl_within_claim, "Proofs.GeluForm.scalar_erf", true) {
  within_claim(value_of(Form::erf), fmt);
}

// ---- scalar_differentiable : Differentiable ℝ gf.scalar ---------------------------------------
// Theorem side: difference quotients converge — at h and h/2 they agree to 2^-90 relative
// (truncation error ∝ h², see central_difference).
GELU_PROPERTY(scalar_differentiable, reference_difference_quotients_converge,
              "Proofs.GeluForm.scalar_differentiable", false) {
  run_checked([] {
    const Form f = *gen_form();
    const Input x = theorem_input(Form::tanh);  // the narrower range serves both forms
    Mpfr a(64), b(64);
    central_difference(f, x.v, -80, a);
    central_difference(f, x.v, -81, b);
    const bool ok = close_rel(a, b, 90);
    const std::string msg = fmt::format("{}: input {}, quotient at h=2^-80 {}, at 2^-81 {}",
                                        name(f), hex(x.v), mpfr_hex(a), mpfr_hex(b));
    if (!ok) fail(msg);
  });
}
// Subject side: no jumps. For adjacent values x < y of the format: |f(y) - f(x)| <= L·(y - x)
// with L = sup|f'| for the value (certified::lipschitz_up: 1.1289930686587718 rounded up) and
// sup|f''| = √(2/π) = 0.79788456080286536 (at x = 0, both forms; certified::second_sup_abs_*_up)
// for the derivative, both certified over all reals (docs/lean.md), and each result r lies
// within slack(r) of its exact value (the claim's bound, tolerances.cpp). So |r(y) - r(x)| <= L(y-x) + slack(r(x)) + slack(r(y)),
// formed exactly. One harness call per case: [x, y].
GELU_PROPERTY(scalar_differentiable, impl_no_jumps, "Proofs.GeluForm.scalar_differentiable", true) {
  const std::vector<Function> fns =
      targets(fmt, {value_of(Form::tanh), derivative_of(Form::tanh), value_of(Form::erf),
                    derivative_of(Form::erf)},
              Need::bound);
  run_checked([&] {
    const Function fn = *rc::gen::elementOf(fns);
    const Input x = *gen_finite(fmt);
    tag(x);
    const double y = next_in(fmt, x.v, std::numeric_limits<double>::infinity());
    RC_PRE(std::isfinite(y));
    const double xs[] = {x.v, y};
    const std::vector<double> r = run_function(fn, fmt, xs);
    // A non-finite result is no jump: inf - inf is no size (an infinite result at a finite input
    // is special_finite_in_finite_out's finding, NaN special_nan_inf's and the accuracy ones').
    if (!std::isfinite(r[0]) || !std::isfinite(r[1])) return;
    const Claim c = claim_of(fn, fmt);
    const double L = fn.quantity == Quantity::value
                         ? certified::lipschitz_up
                         : std::max(certified::second_sup_abs_tanh_up, certified::second_sup_abs_erf_up);
    // y - x is exact (adjacent values); L·(y - x) rounded up.
    const Exact allowed =
        Exact(mul_up(L, y - x.v)) + Exact(slack(c, fmt, r[0])) + Exact(slack(c, fmt, r[1]));
    const Exact diff = (Exact(r[1]) - Exact(r[0])).abs();
    if (diff.cmp(allowed) > 0)
      fail_at(fn, fmt, x.v, fmt::format("{}@{}: at {} got {}, at the next value {} got {}: a jump larger than {}",
                       subject::function_name(fn), subject::dtype_name(fmt), hex(x.v), hex(r[0]),
                       hex(y), hex(r[1]), hex(allowed.to_double())));
  });
}

// ---- scalarDeriv_tanh / scalarDeriv_erf : the closed forms ------------------------------------
GELU_PROPERTY(scalarDeriv_tanh, reference_is_geluScalarDeriv, "Proofs.GeluForm.scalarDeriv_tanh",
              false) {
  run_checked([] { reference_is_theorem(Form::tanh, Quantity::derivative, theorem_input(Form::tanh)); });
}
GELU_PROPERTY(scalarDeriv_tanh, reference_is_deriv_of_scalar, "Proofs.GeluForm.scalarDeriv_tanh",
              false) {
  run_checked([] { reference_is_numerical_derivative(Form::tanh, theorem_input(Form::tanh)); });
}
GELU_PROPERTY(scalarDeriv_tanh, impl_within_claim, "Proofs.GeluForm.scalarDeriv_tanh", true) {
  within_claim(derivative_of(Form::tanh), fmt);
}
GELU_PROPERTY(scalarDeriv_erf, reference_is_geluErfScalarDeriv, "Proofs.GeluForm.scalarDeriv_erf",
              false) {
  run_checked([] { reference_is_theorem(Form::erf, Quantity::derivative, theorem_input(Form::erf)); });
}
GELU_PROPERTY(scalarDeriv_erf, reference_is_deriv_of_scalar, "Proofs.GeluForm.scalarDeriv_erf",
              false) {
  run_checked([] { reference_is_numerical_derivative(Form::erf, theorem_input(Form::erf)); });
}
GELU_PROPERTY(scalarDeriv_erf, impl_within_claim, "Proofs.GeluForm.scalarDeriv_erf", true) {
  within_claim(derivative_of(Form::erf), fmt);
}

}  // namespace gelucheck::prop
