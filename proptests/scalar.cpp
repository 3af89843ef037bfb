// The card's tanh–erf gap, the identities and bounds both forms satisfy, the special values, and
// the accuracy claims of the subject (issue 4, points 3–5).
//
// How a property on the reals becomes a check:
//  - on the reference: either on its certified enclosures (exact MPFR arithmetic with directed
//    rounding), or on its correctly rounded results when the property is an inequality that
//    rounding to nearest preserves (rounding is monotone: a <= b => RN(a) <= RN(b));
//  - on the subject: the claim c (ulps, DESIGN.md §2) turns each exact statement into a bounded
//    one: |r - f| < c·ulp(f) <= 2c·ulp(r) (ulp(f) <= 2 ulp(r): r can sit one binade below f).
//    Differences are formed exactly (Exact, 2300 bits), so the test adds no rounding of its own.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "support.hpp"

namespace gelucheck::prop {
namespace {

using dlim = std::numeric_limits<double>;
rc::Gen<Form> gen_form() { return rc::gen::element(Form::tanh, Form::erf); }

double eval(Form f, Quantity q, double x) {
  return q == Quantity::value ? impl().value(f, x) : impl().deriv(f, x);
}
float eval(Form f, Quantity q, float x) {
  return q == Quantity::value ? impl().value(f, x) : impl().deriv(f, x);
}
template <class T>
constexpr Format fmt_of() {
  return std::is_same_v<T, double> ? Format::binary64 : Format::binary32;
}
// 2c·ulp(r): how far the exact value may be from the subject's result r.
template <class T>
double slack(T r) {
  return 2 * claimed_ulp(fmt_of<T>()) * ulp_of(static_cast<double>(r), fmt_of<T>());
}

// |hi(A) - lo(B)| and |hi(B) - lo(A)|, rounded up: a bound of |a - b| for a ∈ A, b ∈ B.
double enclosure_gap(const ref::Enclosure& A, const ref::Enclosure& B) {
  mpfr_t d1, d2;
  mpfr_inits2(64, d1, d2, static_cast<mpfr_ptr>(nullptr));
  mpfr_sub(d1, A.hi(), B.lo(), MPFR_RNDU);
  mpfr_sub(d2, B.hi(), A.lo(), MPFR_RNDU);
  const double g = std::max(std::fabs(mpfr_get_d(d1, MPFR_RNDU)), std::fabs(mpfr_get_d(d2, MPFR_RNDU)));
  mpfr_clears(d1, d2, static_cast<mpfr_ptr>(nullptr));
  return g;
}

// Enclosure precision for a gap check: widths 2^-bits·|f| must stay far below the bound G ~ 2^-11,
// and |f| <= |x| + 1, so bits = 128 + max(0, log2|x|) + 16 keeps them below 2^-140·G.
int gap_bits(double x) { return 144 + std::max(0, std::isfinite(x) && x != 0 ? std::ilogb(x) : 0); }

}  // namespace

// ---- card: the tanh–erf gap ---------------------------------------------------------------------
// sup|gelu_tanh - gelu_erf| = 4.7323552068728488e-4 and sup|gelu_tanh' - gelu_erf'| =
// 8.6845183498591387e-4 (DESIGN.md §1, 40 digits); the bounds
// 4.7324e-4 and 8.6846e-4 (facts::gap_*_sup_up) sit above.
GELU_PROP(card_tanh_erf_gap, reference_value_gap_bounded, "card", nothing) {
  const X64 x = *gen_x64_finite();
  tag(x);
  const double g = enclosure_gap(ref::enclose(Form::tanh, Quantity::value, x.v, gap_bits(x.v)),
                                 ref::enclose(Form::erf, Quantity::value, x.v, gap_bits(x.v)));
  if (!(g <= hard::gap_value_sup_up))
    fail(fmt::format("input {}: reference value gap {} > {}", hex(x.v), hex(g),
                        hex(hard::gap_value_sup_up)));
}
GELU_PROP(card_tanh_erf_gap, reference_deriv_gap_bounded, "card", nothing) {
  const X64 x = *gen_x64_finite();
  tag(x);
  const double g = enclosure_gap(ref::enclose(Form::tanh, Quantity::derivative, x.v, gap_bits(x.v)),
                                 ref::enclose(Form::erf, Quantity::derivative, x.v, gap_bits(x.v)));
  if (!(g <= hard::gap_deriv_sup_up))
    fail(fmt::format("input {}: reference derivative gap {} > {}", hex(x.v), hex(g),
                        hex(hard::gap_deriv_sup_up)));
}
// |t - e| <= G + 2c(ulp t + ulp e), exactly.
template <class T>
void impl_gap(Quantity q, T x) {
  const T t = eval(Form::tanh, q, x), e = eval(Form::erf, q, x);
  const double G = q == Quantity::value ? hard::gap_value_sup_up : hard::gap_deriv_sup_up;
  const Exact d = (Exact(static_cast<double>(t)) - Exact(static_cast<double>(e))).abs();
  const Exact allowed = Exact(G) + Exact(slack(t)) + Exact(slack(e));
  if (!std::isfinite(t) || !std::isfinite(e) || d.cmp(allowed) > 0)
    fail(fmt::format("{} {}: input {}, tanh form {}, erf form {}, gap {} > {}", name(q),
                        name(fmt_of<T>()), hex(x), hex(t), hex(e), hex(d.to_double()),
                        hex(allowed.to_double())));
}
GELU_PROP(card_tanh_erf_gap, impl_gap_bounded, "card", accuracy) {
  const Quantity q = *rc::gen::element(Quantity::value, Quantity::derivative);
  const X64 x = *gen_x64_finite();
  const X32 y = *gen_x32_finite();
  tag(x);
  impl_gap(q, x.v);
  impl_gap(q, y.v);
}
// The bounds are tight: at the extrema DESIGN.md gives, the gap is within 1e-8 of them.
GELU_TEST(card_tanh_erf_gap, reference_bounds_are_attained, "card", nothing) {
  const double gv = std::fabs(
      ref::correctly_rounded(Form::tanh, Quantity::value, hard::gap_value_x, Format::binary64) -
      ref::correctly_rounded(Form::erf, Quantity::value, hard::gap_value_x, Format::binary64));
  const double gd = std::fabs(
      ref::correctly_rounded(Form::tanh, Quantity::derivative, hard::gap_deriv_x, Format::binary64) -
      ref::correctly_rounded(Form::erf, Quantity::derivative, hard::gap_deriv_x, Format::binary64));
  EXPECT_GE(gv, hard::gap_value_sup - 1e-8) << "value gap at " << hex(hard::gap_value_x);
  EXPECT_GE(gd, hard::gap_deriv_sup - 1e-8) << "derivative gap at " << hex(hard::gap_deriv_x);
  ::testing::Test::RecordProperty("value_gap_at_extremum", fmt::format("{:.17g}", gv));
  ::testing::Test::RecordProperty("deriv_gap_at_extremum", fmt::format("{:.17g}", gd));
}
// The course's warning by counterexample: on the grid x = k/64 over [-8, 8] the two forms differ
// by more than the course's atol 1e-5 (value) at many points; the test records how many, and the
// worst one, and fails if there were none.
GELU_TEST(card_tanh_erf_gap, course_atol_exceeded_counterexample, "card", nothing) {
  int over = 0, total = 0;
  double worst = 0, worst_x = 0, first_x = dlim::quiet_NaN();
  for (int k = -512; k <= 512; ++k, ++total) {
    const double x = k / 64.0;
    const double g = std::fabs(
        ref::correctly_rounded(Form::tanh, Quantity::value, x, Format::binary64) -
        ref::correctly_rounded(Form::erf, Quantity::value, x, Format::binary64));
    if (g > hard::course_atol) {
      if (over++ == 0) first_x = x;
      if (g > worst) { worst = g; worst_x = x; }
    }
  }
  ::testing::Test::RecordProperty(
      "counterexample",
      fmt::format("{} of {} grid points (x = k/64 in [-8, 8]) have |tanh form - erf form| > 1e-5; "
                  "first x = {}, worst x = {} with gap {:.6g}",
                  over, total, first_x, worst_x, worst));
  std::cout << fmt::format("course atol 1e-5 exceeded at {} of {} points; worst x = {} gap {:.6g}\n",
                           over, total, worst_x, worst);
  EXPECT_GT(over, 0);
}

// ---- identities ----------------------------------------------------------------------------------
// f(x) - f(-x) = x and f'(x) + f'(-x) = 1 (both forms: Φ(x) + Φ(-x) = 1, tanh odd).
GELU_PROP(identity_odd_part, reference_exact, "none", nothing) {
  const Form f = *gen_form();
  const Quantity q = *rc::gen::element(Quantity::value, Quantity::derivative);
  const X64 x = *gen_x64_finite();
  tag(x);
  const ref::Enclosure a = ref::enclose(f, q, x.v), b = ref::enclose(f, q, -x.v);
  // value: a - b ∋ x; derivative: a + b ∋ 1. Interval ends with directed rounding at 2400 bits.
  mpfr_t lo, hi;
  mpfr_inits2(2400, lo, hi, static_cast<mpfr_ptr>(nullptr));
  double target;
  if (q == Quantity::value) {
    mpfr_sub(lo, a.lo(), b.hi(), MPFR_RNDD);
    mpfr_sub(hi, a.hi(), b.lo(), MPFR_RNDU);
    target = x.v;
  } else {
    mpfr_add(lo, a.lo(), b.lo(), MPFR_RNDD);
    mpfr_add(hi, a.hi(), b.hi(), MPFR_RNDU);
    target = 1.0;
  }
  const bool ok = mpfr_cmp_d(lo, target) <= 0 && mpfr_cmp_d(hi, target) >= 0;
  const std::string msg = fmt::format("{} {}: input {}, f(x) ∈ [{}, {}], f(-x) ∈ [{}, {}]", name(f),
                                      name(q), hex(x.v), mpfr_hex(a.lo()), mpfr_hex(a.hi()),
                                      mpfr_hex(b.lo()), mpfr_hex(b.hi()));
  mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
  if (!ok) RC_FAIL(msg);
}
template <class T>
void odd_part(Form f, Quantity q, T x) {
  const T a = eval(f, q, x), b = eval(f, q, static_cast<T>(-x));
  const Exact lhs = q == Quantity::value ? Exact(static_cast<double>(a)) - Exact(static_cast<double>(b))
                                         : Exact(static_cast<double>(a)) + Exact(static_cast<double>(b));
  const Exact rhs(q == Quantity::value ? static_cast<double>(x) : 1.0);
  const Exact allowed = Exact(slack(a)) + Exact(slack(b));
  if (!std::isfinite(a) || !std::isfinite(b) || (lhs - rhs).abs().cmp(allowed) > 0)
    fail(fmt::format("{} {} {}: input {}, f(x) {}, f(-x) {}, off by {} > {}", name(f), name(q),
                        name(fmt_of<T>()), hex(x), hex(a), hex(b),
                        hex((lhs - rhs).abs().to_double()), hex(allowed.to_double())));
}
GELU_PROP(identity_odd_part, impl_within_bound, "none", accuracy) {
  const Form f = *gen_form();
  const Quantity q = *rc::gen::element(Quantity::value, Quantity::derivative);
  const X64 x = *gen_x64_finite();
  const X32 y = *gen_x32_finite();
  tag(x);
  odd_part(f, q, x.v);
  odd_part(f, q, y.v);
}
// f(±0) = ±0 and f'(±0) = 1/2, exactly, on the reference and the subject.
GELU_TEST(identity_zero, reference_and_impl_exact, "none", nothing) {
  for (Form f : {Form::tanh, Form::erf})
    for (double z : {0.0, -0.0}) {
      EXPECT_TRUE(same_bits(ref::correctly_rounded(f, Quantity::value, z, Format::binary64), z))
          << name(f) << " reference value at " << hex(z);
      EXPECT_EQ(ref::correctly_rounded(f, Quantity::derivative, z, Format::binary64), 0.5);
      if (impl().claims().specials) {
        EXPECT_TRUE(same_bits(impl().value(f, z), z)) << name(f) << " value at " << hex(z)
                                                      << " got " << hex(impl().value(f, z));
        EXPECT_TRUE(same_bits(impl().value(f, static_cast<float>(z)), static_cast<float>(z)));
        EXPECT_EQ(impl().deriv(f, z), 0.5) << name(f) << " derivative at " << hex(z);
        EXPECT_EQ(impl().deriv(f, static_cast<float>(z)), 0.5f);
      }
    }
}
// map and backward write neither x nor dy (encodings compared, NaN payloads included).
template <class T>
void untouched(Form f) {
  const auto shape = *gen_shape();
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const std::size_t n = element_count(shape);
  std::mt19937_64 rng(seed);
  std::vector<T> x(n), dy(n), out(n), dx(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, double>) { x[i] = draw64(rng); dy[i] = draw64(rng); }
    else { x[i] = draw32(rng); dy[i] = draw32(rng); }
  }
  const std::vector<T> x0 = x, dy0 = dy;
  impl().map(f, View<const T>::contiguous(x.data(), shape), View<T>::contiguous(out.data(), shape));
  impl().backward(f, View<const T>::contiguous(x.data(), shape),
                  View<const T>::contiguous(dy.data(), shape), View<T>::contiguous(dx.data(), shape));
  for (std::size_t i = 0; i < n; ++i)
    if (bits(x[i]) != bits(x0[i]) || bits(dy[i]) != bits(dy0[i]))
      fail(fmt::format("{} element {}: x {} became {}, dy {} became {}", name(f), i, hex(x0[i]),
                          hex(x[i]), hex(dy0[i]), hex(dy[i])));
}
GELU_PROP(identity_inputs_untouched, map_and_backward, "Proofs.GeluForm.hasVJP", nothing) {
  const Form f = *gen_form();
  untouched<double>(f);
  untouched<float>(f);
}

// ---- bounds --------------------------------------------------------------------------------------
// f(x) >= min of its form. Reference: RN is monotone, so RN(f) >= RN(min). Subject:
// r > f - c·ulp(f) >= min - c·ulp(min) (below 0 |f| <= 0.171 < 0.25, so ulp(f) <= ulp(min)),
// and min >= RN(min) - ½ulp: r >= RN(min) - (c + ½)·ulp(RN(min)).
template <class T>
void above_min(Form f, T x) {
  const double m64 = f == Form::tanh ? hard::min_tanh : hard::min_erf;
  const double m = static_cast<double>(static_cast<T>(m64));
  const T r = impl().value(f, x);
  const double c = claimed_ulp(fmt_of<T>());
  const Exact lowest = Exact(m) - Exact((c + 0.5) * ulp_of(m, fmt_of<T>()));
  if (std::isnan(r) || Exact(static_cast<double>(r)).cmp(lowest) < 0)
    fail(fmt::format("{} {}: input {}, got {} below the minimum {}", name(f),
                        name(fmt_of<T>()), hex(x), hex(r), hex(m)));
}
GELU_PROP(bound_minimum, reference, "none", nothing) {
  const Form f = *gen_form();
  const X64 x = *gen_x64_in(-4.0, 4.0);
  tag(x);
  const double r = ref::correctly_rounded(f, Quantity::value, x.v, Format::binary64);
  const double m = f == Form::tanh ? hard::min_tanh : hard::min_erf;
  if (!(r >= m)) fail(fmt::format("{}: input {}, RN f(x) = {} < RN(min) = {}", name(f), hex(x.v), hex(r), hex(m)));
}
GELU_PROP(bound_minimum, impl, "none", accuracy) {
  const Form f = *gen_form();
  const X64 x = *gen_x64_finite();
  const X32 y = *gen_x32_finite();
  tag(x);
  above_min(f, x.v);
  above_min(f, y.v);
}
// Sign: x <= 0 => f(x) <= 0, x >= 0 => f(x) >= 0 (also for the derivative's... no: the value only).
// x >= 0 => f(x) <= x;  f(x) >= x/2 for all x (Φ <= 1/2 on x <= 0, >= 1/2 on x >= 0).
// Reference: RN preserves each (x and 0 are doubles; for x/2 compare RN(f) >= RN(x/2)).
// Subject: sign and f <= x hold exactly for a faithful result (c <= 1: only RD(f), RU(f) — or
// one double below RD(f) at a binade edge — lie within c·ulp(f), and RU(f) <= x since x is a
// double >= f); f >= x/2 within slack: 2r >= x - 4c·ulp(r).
template <class T>
void order_bounds(Form f, T x, T r, bool exact_rounding) {
  const bool sign_ok = !(x <= 0 && r > 0) && !(x >= 0 && r < 0);
  const bool below_x = !(x >= 0) || r <= x;
  bool above_half;
  if (exact_rounding) {
    above_half = r >= x * T(0.5);
  } else {
    Exact two_r = Exact(static_cast<double>(r)) + Exact(static_cast<double>(r));
    above_half = two_r.cmp(Exact(static_cast<double>(x)) - Exact(2 * slack(r))) >= 0;
  }
  if (std::isnan(r) || !sign_ok || !below_x || !above_half)
    fail(fmt::format("{} {}: input {}, got {}: {}{}{}", name(f), name(fmt_of<T>()), hex(x),
                        hex(r), sign_ok ? "" : "wrong sign; ", below_x ? "" : "f(x) > x; ",
                        above_half ? "" : "f(x) < x/2"));
}
GELU_PROP(bound_order, reference, "none", nothing) {
  const Form f = *gen_form();
  const X64 x = *gen_x64_finite();
  tag(x);
  order_bounds(f, x.v, ref::correctly_rounded(f, Quantity::value, x.v, Format::binary64), true);
}
GELU_PROP(bound_order, impl, "none", accuracy) {
  RC_PRE(claimed_ulp(Format::binary64) <= 1.0 && claimed_ulp(Format::binary32) <= 1.0);
  const Form f = *gen_form();
  const X64 x = *gen_x64_finite();
  const X32 y = *gen_x32_finite();
  tag(x);
  order_bounds(f, x.v, impl().value(f, x.v), false);
  order_bounds(f, y.v, impl().value(f, y.v), false);
}
// f increasing on [argmin, ∞), decreasing on (-∞, argmin]; f' >= 0 and <= 0 there. The argmin
// is irrational; its neighbours above and below are used as the ends.
GELU_PROP(bound_monotone, reference, "none", nothing) {
  const Form f = *gen_form();
  const double am = f == Form::tanh ? hard::argmin_tanh : hard::argmin_erf;
  const bool right = *rc::gen::arbitrary<bool>();
  const double lo = right ? std::nextafter(am, 1.0) : -dlim::max();
  const double hi = right ? dlim::max() : std::nextafter(am, -1.0);
  X64 a = *gen_x64_in(lo, hi), b = *gen_x64_in(lo, hi);
  if (b.v < a.v) std::swap(a, b);
  const double ra = ref::correctly_rounded(f, Quantity::value, a.v, Format::binary64);
  const double rb = ref::correctly_rounded(f, Quantity::value, b.v, Format::binary64);
  const double da = ref::correctly_rounded(f, Quantity::derivative, a.v, Format::binary64);
  const bool ok = right ? (ra <= rb && da >= 0) : (ra >= rb && da <= 0);
  if (!ok)
    fail(fmt::format("{}: a {} b {}: f(a) {} f(b) {} f'(a) {}", name(f), hex(a.v), hex(b.v),
                        hex(ra), hex(rb), hex(da)));
}
template <class T>
void monotone(Form f, T a, T b, bool right) {
  const T ra = impl().value(f, a), rb = impl().value(f, b), da = impl().deriv(f, a);
  const Exact sl = Exact(slack(ra)) + Exact(slack(rb));
  const Exact d = Exact(static_cast<double>(rb)) - Exact(static_cast<double>(ra));  // >= 0 right
  const bool ok = right ? (d.cmp(Exact() - sl) >= 0 && da >= 0)
                        : (d.cmp(sl) <= 0 && da <= 0);
  if (!ok)
    fail(fmt::format("{} {}: a {} b {}: f(a) {} f(b) {} f'(a) {}", name(f), name(fmt_of<T>()),
                        hex(a), hex(b), hex(ra), hex(rb), hex(da)));
}
GELU_PROP(bound_monotone, impl, "none", accuracy) {
  const Form f = *gen_form();
  const double am = f == Form::tanh ? hard::argmin_tanh : hard::argmin_erf;
  const bool right = *rc::gen::arbitrary<bool>();
  const double lo = right ? std::nextafter(am, 1.0) : -dlim::max();
  const double hi = right ? dlim::max() : std::nextafter(am, -1.0);
  X64 a = *gen_x64_in(lo, hi), b = *gen_x64_in(lo, hi);
  if (b.v < a.v) std::swap(a, b);
  monotone(f, a.v, b.v, right);
  // binary32: the float neighbours of the argmin
  const float amf = static_cast<float>(am);
  const float flo = right ? std::nextafter(amf, 1.0f) : -std::numeric_limits<float>::max();
  const float fhi = right ? std::numeric_limits<float>::max() : std::nextafter(amf, -1.0f);
  const auto g32 = rc::gen::suchThat(gen_x32_finite(), [&](const X32& v) { return v.v >= flo && v.v <= fhi; });
  X32 c = *g32, d = *g32;
  if (d.v < c.v) std::swap(c, d);
  monotone(f, c.v, d.v, right);
}

// ---- special values -------------------------------------------------------------------------------
// NaN -> NaN; ±inf -> the limits, with the sign of zero the limit approaches from (taken from the
// reference, which defines them); ±0 -> ±0 (identity_zero); finite in -> finite out (no overflow
// of x³ or exp): for every finite x, |f(x)| <= |x| + 1 and |f'(x)| <= 1.13.
template <class T>
void specials_at(Form f, T x) {
  for (Quantity q : {Quantity::value, Quantity::derivative}) {
    const T got = eval(f, q, x);
    const T want = static_cast<T>(ref::correctly_rounded(f, q, static_cast<double>(x), fmt_of<T>()));
    if (!same_bits(got, want))
      fail(fmt::format("{} {} {}: input {}, expected {}, got {}", name(f), name(q),
                          name(fmt_of<T>()), hex(x), hex(want), hex(got)));
  }
}
GELU_PROP(special_nan_inf, impl_matches_reference, "none", specials) {
  const Form f = *gen_form();
  const std::uint64_t payload = *rc::gen::inRange<std::uint64_t>(1, std::uint64_t{1} << 51);
  const bool neg = *rc::gen::arbitrary<bool>();
  const double nan = std::bit_cast<double>((neg ? 0xfff8000000000000ULL : 0x7ff8000000000000ULL) |
                                           payload);
  specials_at(f, nan);
  specials_at(f, static_cast<float>(nan));
  for (double v : {dlim::infinity(), -dlim::infinity()}) {
    specials_at(f, v);
    specials_at(f, static_cast<float>(v));
  }
}
template <class T>
void finite_out(Form f, T x) {
  const T v = impl().value(f, x), d = impl().deriv(f, x);
  const double bound_v = std::fabs(static_cast<double>(x)) * (1 + 0x1p-20) + 1;
  if (!std::isfinite(v) || !std::isfinite(d) || std::fabs(static_cast<double>(v)) > bound_v ||
      std::fabs(static_cast<double>(d)) > 1.13)
    fail(fmt::format("{} {}: finite input {}, value {}, derivative {}", name(f),
                        name(fmt_of<T>()), hex(x), hex(v), hex(d)));
}
GELU_PROP(special_finite_in_finite_out, impl, "none", specials) {
  const Form f = *gen_form();
  const X64 x = *gen_x64_finite();
  const X32 y = *gen_x32_finite();
  tag(x);
  finite_out(f, x.v);
  finite_out(f, y.v);
}

// ---- accuracy: the subject's claims, all four functions, both types --------------------------------
#define GELU_ACCURACY(Fmt, T, Gen, Name, F, Q)                                            \
  GELU_PROP(accuracy_##Fmt, Name, "none", accuracy) {                                     \
    const auto x = *Gen();                                                                \
    tag(x);                                                                               \
    check_accuracy("accuracy", F, Q, static_cast<double>(x.v),                            \
                   static_cast<double>(eval(F, Q, x.v)), Format::Fmt);                    \
  }
GELU_ACCURACY(binary64, double, gen_x64, value_tanh, Form::tanh, Quantity::value)
GELU_ACCURACY(binary64, double, gen_x64, value_erf, Form::erf, Quantity::value)
GELU_ACCURACY(binary64, double, gen_x64, deriv_tanh, Form::tanh, Quantity::derivative)
GELU_ACCURACY(binary64, double, gen_x64, deriv_erf, Form::erf, Quantity::derivative)
GELU_ACCURACY(binary32, float, gen_x32, value_tanh, Form::tanh, Quantity::value)
GELU_ACCURACY(binary32, float, gen_x32, value_erf, Form::erf, Quantity::value)
GELU_ACCURACY(binary32, float, gen_x32, deriv_tanh, Form::tanh, Quantity::derivative)
GELU_ACCURACY(binary32, float, gen_x32, deriv_erf, Form::erf, Quantity::derivative)

}  // namespace gelucheck::prop
