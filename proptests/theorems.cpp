// One property group per theorem of Proofs.GeluForm (shared/seeds/lean-geluform-theorems.txt).
// Test names: reference_* check the MPFR reference against the theorem's own formula (they do
// not depend on the subject); impl_* check the subject (GELUCHECK_IMPL) against the reference.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "support.hpp"

namespace gelucheck::prop {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

rc::Gen<Form> gen_form() { return rc::gen::element(Form::tanh, Form::erf); }

// The MPFR reference against the literal Lean definition (value or closed-form derivative).
// Both are real numbers evaluated to >= 100 correct bits (reference: 128-bit enclosure; literal:
// see theorem_value's precision note), so agreement to 2^-100 relative is expected; a wrong
// constant, form or term in either shows up as a relative difference >= ~1e-16 or far more.
void reference_is_theorem(Form f, Quantity q, const X64& x) {
  tag(x);
  const ref::Enclosure y = ref::enclose(f, q, x.v);
  mpfr_t xm, lit;
  mpfr_init2(xm, 53);
  mpfr_init2(lit, 64);
  mpfr_set_d(xm, x.v, MPFR_RNDN);
  if (q == Quantity::value) theorem_value(f, xm, lit); else theorem_deriv(f, xm, lit);
  const bool ok = close_rel(lit, y.lo(), 100) && close_rel(lit, y.hi(), 100);
  const std::string msg = fmt::format("{} {}: input {}, reference [{}, {}], theorem's formula {}",
                                      name(f), name(q), hex(x.v), mpfr_hex(y.lo()),
                                      mpfr_hex(y.hi()), mpfr_hex(lit));
  mpfr_clear(xm);
  mpfr_clear(lit);
  if (!ok) RC_FAIL(msg);
}

// Central difference of the literal value, (F(x+h) - F(x-h)) / 2h, h = 2^-80·max(1, |x|), in
// MPFR (x ± h exact at 2300 bits). Its error: truncation h²·|f'''|/6 plus rounding
// 2·2^-(320-8)·|F|/(2h). Over theorem_range with |x| <= 2^64: |f'''/f'| <= ~2^17 (the tail,
// where (du/dx)² ~ (0.107x²)²) and h² <= 2^-160·x², so truncation <= 2^-120 relative; near
// the derivative's zero |f'| >= 2^-56 at a double while f''' ~ 1, so <= 2^-104. Rounding:
// |F|/h <= 2^80·40, times 2^-312 — negligible. Checked to 2^-96 relative against the reference's
// closed-form derivative.
void central_difference(Form f, double x, int h_exp, mpfr_ptr out) {
  mpfr_t xp, xm, fp, fm;
  mpfr_inits2(2300, xp, xm, static_cast<mpfr_ptr>(nullptr));
  mpfr_inits2(64, fp, fm, static_cast<mpfr_ptr>(nullptr));
  const int e = std::fabs(x) > 1 ? std::ilogb(x) : 0;
  mpfr_set_d(xp, x, MPFR_RNDN);
  mpfr_set_d(xm, x, MPFR_RNDN);
  mpfr_t h;
  mpfr_init2(h, 8);
  mpfr_set_ui_2exp(h, 1, e + h_exp, MPFR_RNDN);
  mpfr_add(xp, xp, h, MPFR_RNDN);  // exact at 2300 bits
  mpfr_sub(xm, xm, h, MPFR_RNDN);
  theorem_value(f, xp, fp);
  theorem_value(f, xm, fm);
  mpfr_set_prec(out, std::max(mpfr_get_prec(fp), mpfr_get_prec(fm)) + 8);
  mpfr_sub(out, fp, fm, MPFR_RNDN);
  mpfr_div(out, out, h, MPFR_RNDN);
  mpfr_div_2ui(out, out, 1, MPFR_RNDN);
  mpfr_clears(xp, xm, fp, fm, h, static_cast<mpfr_ptr>(nullptr));
}

void reference_is_numerical_derivative(Form f, const X64& x) {
  tag(x);
  const ref::Enclosure d = ref::enclose(f, Quantity::derivative, x.v);
  mpfr_t cd;
  mpfr_init2(cd, 64);
  central_difference(f, x.v, -80, cd);
  const bool ok = close_rel(cd, d.lo(), 96) && close_rel(cd, d.hi(), 96);
  const std::string msg =
      fmt::format("{}: input {}, reference derivative [{}, {}], central difference (h=2^-80) {}",
                  name(f), hex(x.v), mpfr_hex(d.lo()), mpfr_hex(d.hi()), mpfr_hex(cd));
  mpfr_clear(cd);
  if (!ok) RC_FAIL(msg);
}

// The seed's expression, written here from the course text (not from src/): x³ as x*x*x,
// √(2/π) rounded to nearest (0.7978845608028654).
double seed_tanh(double x) {
  constexpr double k = 0x1.9884533d43651p-1;
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * (x * x * x))));
}

// The exercise seed: Phi = 0.5 * (1 + erf(x / SQRT_2)), gelu = x * Phi (SQRT_2 = √2 rounded).
double seed_erf(double x) {
  const double phi = 0.5 * (1.0 + std::erf(x / 0x1.6a09e667f3bcdp+0));
  return x * phi;
}

}  // namespace

// ---- scalar_tanh : tanh.scalar = geluScalar ---------------------------------------------------
GELU_PROP(scalar_tanh, reference_is_geluScalar, "Proofs.GeluForm.scalar_tanh", nothing) {
  const X64 x = *gen_x64_in(-30.0, 0x1p64);
  reference_is_theorem(Form::tanh, Quantity::value, x);
}
GELU_PROP(scalar_tanh, impl_is_the_tanh_form, "Proofs.GeluForm.scalar_tanh", accuracy) {
  const X64 x = *gen_x64();
  tag(x);
  check_accuracy("scalar_tanh", Form::tanh, Quantity::value, x.v, impl().value(Form::tanh, x.v),
                 Format::binary64);
}
// For subjects that claim to be the seeds' expressions (src/'s naive path): the value bit for bit.
// No reference is needed, so each case also checks a batch of 4096 more inputs (half of them
// |x| in [2^-2, 2^3), where x³ matters to u): a one-rounding change such as pow(x, 3) for x*x*x
// changes the result for only ~0.1% of inputs, too few for a hundred single draws.
void seed_expression(Form f) {
  const X64 x = *gen_x64();
  const auto batch_seed = *rc::gen::arbitrary<std::uint64_t>();
  std::mt19937_64 rng(batch_seed);
  for (int i = 0; i <= 4096; ++i) {
    double v = x.v;
    if (i > 0 && i % 2 == 0) v = draw64(rng);
    if (i % 2 == 1)
      v = std::ldexp(1.0 + static_cast<double>(rng() >> 12) * 0x1p-52,
                     static_cast<int>(rng() % 5) - 2) * (rng() & 1 ? -1.0 : 1.0);
    const double got = impl().value(f, v), want = f == Form::tanh ? seed_tanh(v) : seed_erf(v);
    if (!same_bits(got, want))
      fail(fmt::format("{}: input {} (batch {} item {}), seed expression {}, got {}", name(f),
                          hex(v), batch_seed, i, hex(want), hex(got)));
  }
}
GELU_PROP(scalar_tanh, impl_is_the_seed_expression, "Proofs.GeluForm.scalar_tanh",
          seed_formula) {
  seed_expression(Form::tanh);
}

// ---- scalar_erf : erf.scalar = geluErfScalar ----------------------------------------------------
GELU_PROP(scalar_erf, reference_is_geluErfScalar, "Proofs.GeluForm.scalar_erf", nothing) {
  const X64 x = *gen_x64_in(-40.0, 0x1p64);
  reference_is_theorem(Form::erf, Quantity::value, x);
}
GELU_PROP(scalar_erf, impl_is_the_seed_expression, "Proofs.GeluForm.scalar_erf", seed_formula) {
  seed_expression(Form::erf);
}
GELU_PROP(scalar_erf, impl_is_the_erf_form, "Proofs.GeluForm.scalar_erf", accuracy) {
  const X64 x = *gen_x64();
  tag(x);
  check_accuracy("scalar_erf", Form::erf, Quantity::value, x.v, impl().value(Form::erf, x.v),
                 Format::binary64);
}

// ---- scalar_differentiable : Differentiable ℝ gf.scalar ---------------------------------------
// Theorem side: difference quotients converge — at h and h/2 they agree to 2^-90 relative
// (truncation error ∝ h², see central_difference).
GELU_PROP(scalar_differentiable, reference_difference_quotients_converge,
          "Proofs.GeluForm.scalar_differentiable", nothing) {
  const Form f = *gen_form();
  const X64 x = *gen_x64_in(-30.0, 0x1p64);
  mpfr_t a, b;
  mpfr_init2(a, 64);
  mpfr_init2(b, 64);
  central_difference(f, x.v, -80, a);
  central_difference(f, x.v, -81, b);
  const bool ok = close_rel(a, b, 90);
  const std::string msg = fmt::format("{}: input {}, quotient at h=2^-80 {}, at 2^-81 {}",
                                      name(f), hex(x.v), mpfr_hex(a), mpfr_hex(b));
  mpfr_clear(a);
  mpfr_clear(b);
  if (!ok) RC_FAIL(msg);
}
// Subject side: no jumps. For adjacent doubles x < y: |f(y) - f(x)| <= L·(y - x) with
// L = sup|f'| < 1.129, and each result is within claim·ulp(f) <= 2·claim·ulp(r) of f (ulp(f) <=
// 2 ulp(r) when r sits one binade below f). So |r(y) - r(x)| <= L(y-x) + 2c(ulp r(x) + ulp r(y)).
// The same for the derivative with sup|f''| = √(2/π) < 0.8 (at x = 0, both forms).
template <class T>
void no_jumps(Form f, Quantity q, T x, Format fmt) {
  const T y = std::nextafter(x, std::numeric_limits<T>::infinity());
  if (!std::isfinite(y)) return;
  const auto eval = [&](T v) {
    return static_cast<double>(q == Quantity::value ? impl().value(f, v) : impl().deriv(f, v));
  };
  const double rx = eval(x), ry = eval(y);
  const double c = claimed_ulp(fmt);
  const double L = q == Quantity::value ? hard::lipschitz : 0.8;
  // Bound computed in Exact (no rounding): L·(y-x) rounded up is enough margin (it is a product
  // of a double by a power of two times 1.129: exact as a double product except for underflow).
  Exact step = Exact(static_cast<double>(y)) - Exact(static_cast<double>(x));
  const double allowed_d = L * step.to_double() * (1 + 0x1p-50) +
                           2 * c * (ulp_of(rx, fmt) + ulp_of(ry, fmt));
  const Exact diff = (Exact(ry) - Exact(rx)).abs();
  if (!std::isfinite(rx) || !std::isfinite(ry) || diff.cmp(allowed_d) > 0)
    fail(fmt::format("{} {} {}: at {} got {}, at next {} got {}: jump larger than {}", name(f),
                        name(q), name(fmt), hex(x), hex(rx), hex(y), hex(ry), hex(allowed_d)));
}
GELU_PROP(scalar_differentiable, impl_no_jumps_binary64, "Proofs.GeluForm.scalar_differentiable",
          accuracy) {
  const Form f = *gen_form();
  const Quantity q = *rc::gen::element(Quantity::value, Quantity::derivative);
  const X64 x = *gen_x64_finite();
  tag(x);
  no_jumps(f, q, x.v, Format::binary64);
}
GELU_PROP(scalar_differentiable, impl_no_jumps_binary32, "Proofs.GeluForm.scalar_differentiable",
          accuracy) {
  const Form f = *gen_form();
  const Quantity q = *rc::gen::element(Quantity::value, Quantity::derivative);
  const X32 x = *gen_x32_finite();
  tag(x);
  no_jumps(f, q, x.v, Format::binary32);
}

// ---- scalarDeriv_tanh / scalarDeriv_erf : the closed forms ------------------------------------
GELU_PROP(scalarDeriv_tanh, reference_is_geluScalarDeriv, "Proofs.GeluForm.scalarDeriv_tanh",
          nothing) {
  const X64 x = *gen_x64_in(-30.0, 0x1p64);
  reference_is_theorem(Form::tanh, Quantity::derivative, x);
}
GELU_PROP(scalarDeriv_tanh, reference_is_deriv_of_scalar, "Proofs.GeluForm.scalarDeriv_tanh",
          nothing) {
  const X64 x = *gen_x64_in(-30.0, 0x1p64);
  reference_is_numerical_derivative(Form::tanh, x);
}
GELU_PROP(scalarDeriv_tanh, impl_within_bound, "Proofs.GeluForm.scalarDeriv_tanh", accuracy) {
  const X64 x = *gen_x64();
  tag(x);
  check_accuracy("scalarDeriv_tanh", Form::tanh, Quantity::derivative, x.v,
                 impl().deriv(Form::tanh, x.v), Format::binary64);
}
GELU_PROP(scalarDeriv_erf, reference_is_geluErfScalarDeriv, "Proofs.GeluForm.scalarDeriv_erf",
          nothing) {
  const X64 x = *gen_x64_in(-40.0, 0x1p64);
  reference_is_theorem(Form::erf, Quantity::derivative, x);
}
GELU_PROP(scalarDeriv_erf, reference_is_deriv_of_scalar, "Proofs.GeluForm.scalarDeriv_erf",
          nothing) {
  const X64 x = *gen_x64_in(-40.0, 0x1p64);
  reference_is_numerical_derivative(Form::erf, x);
}
GELU_PROP(scalarDeriv_erf, impl_within_bound, "Proofs.GeluForm.scalarDeriv_erf", accuracy) {
  const X64 x = *gen_x64();
  tag(x);
  check_accuracy("scalarDeriv_erf", Form::erf, Quantity::derivative, x.v,
                 impl().deriv(Form::erf, x.v), Format::binary64);
}

}  // namespace gelucheck::prop
