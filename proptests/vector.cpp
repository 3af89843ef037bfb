// The vector theorems (map_*, map_differentiable, pdiv_map, hasVJP*) and the card's three groups
// (card_vjp_is_diagonal_jacobian, card_shape_invariance, card_tanh_erf_gap).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "support.hpp"

namespace gelucheck::prop {
namespace {

rc::Gen<Form> gen_form() { return rc::gen::element(Form::tanh, Form::erf); }

// A buffer laid out by `l`, filled entirely (gaps included) from l.seed, or with a sentinel.
template <class T>
struct Tensor {
  Layout l;
  std::vector<T> buf;
  Tensor(const Layout& layout, bool finite_only, std::uint64_t salt) : l(layout), buf(l.buffer) {
    std::mt19937_64 rng(l.seed ^ salt);
    for (auto& v : buf) {
      if constexpr (std::is_same_v<T, double>) v = draw64(rng, finite_only);
      else v = draw32(rng, finite_only);
    }
  }
  Tensor(const Layout& layout, T sentinel) : l(layout), buf(l.buffer, sentinel) {}
  View<T> view() { return View<T>{buf.data() + l.offset, l.shape, l.strides}; }
  View<const T> cview() const { return View<const T>{buf.data() + l.offset, l.shape, l.strides}; }
  T at(const std::vector<std::size_t>& idx) const { return cview().data[offset_of(cview(), idx)]; }
};

template <class T>
T sentinel() {  // a NaN with a payload no arithmetic produces
  if constexpr (std::is_same_v<T, double>) return std::bit_cast<double>(0x7ff4dead0000beefULL);
  else return std::bit_cast<float>(0x7fa0beefu);
}
template <class T>
bool raw_equal(T a, T b) {  // encodings, payloads included
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
template <class T>
std::string show_idx(const std::vector<std::size_t>& idx) {
  std::string s = "(";
  for (std::size_t i = 0; i < idx.size(); ++i) s += (i ? "," : "") + std::to_string(idx[i]);
  return s + ")";
}

// map over `l` equals the scalar function at every element, bit for bit; positions of the output
// buffer outside the view are not written.
template <class T>
void map_is_elementwise(Form f, const Layout& l) {
  Tensor<T> x(l, false, 1);
  Tensor<T> out(l, sentinel<T>());
  impl().map(f, x.cview(), out.view());
  const auto outv = out.cview();
  std::vector<bool> in_view(l.buffer, false);
  for_each_index(l.shape, [&](const std::vector<std::size_t>& idx, std::size_t) {
    const T xi = x.at(idx);
    const T want = impl().value(f, xi);
    const std::ptrdiff_t off = offset_of(outv, idx);
    in_view[static_cast<std::size_t>(l.offset + off)] = true;
    const T got = outv.data[off];
    if (!same_bits(got, want))
      fail(fmt::format("map {} at {} of {}: input {}, scalar {}, map {}", name(f),
                          show_idx<T>(idx), rc::toString(l), hex(xi), hex(want), hex(got)));
  });
  for (std::size_t k = 0; k < l.buffer; ++k)
    if (!in_view[k] && !raw_equal(out.buf[k], sentinel<T>()))
      fail(fmt::format("map {} wrote buffer slot {} outside the view {}", name(f), k,
                          rc::toString(l)));
}

// backward over `l` equals dy·deriv(x) element by element, bit for bit (the IEEE product of the
// two, so non-finite dy and signed zeros follow IEEE: inf·(±0) = NaN, dy·(−0) = ∓0).
template <class T>
void backward_is_dy_times_deriv(Form f, const Layout& l, bool finite_dy) {
  Tensor<T> x(l, false, 1), dy(l, finite_dy, 2);
  Tensor<T> dx(l, sentinel<T>());
  impl().backward(f, x.cview(), dy.cview(), dx.view());
  for_each_index(l.shape, [&](const std::vector<std::size_t>& idx, std::size_t) {
    const T xi = x.at(idx), di = dy.at(idx);
    const T want = di * impl().deriv(f, xi);
    const T got = dx.at(idx);
    if (!same_bits(got, want))
      fail(fmt::format("backward {} at {} of {}: x {}, dy {}, dy*deriv(x) {}, backward {}",
                          name(f), show_idx<T>(idx), rc::toString(l), hex(xi), hex(di),
                          hex(want), hex(got)));
  });
}

Layout dense(std::vector<std::size_t> shape, std::uint64_t seed) {
  const std::size_t r = shape.size();
  std::vector<std::size_t> perm(r);
  for (std::size_t i = 0; i < r; ++i) perm[i] = i;
  return make_layout(std::move(shape), perm, std::vector<int>(r, 1), std::vector<bool>(r, false),
                     seed);
}

// |r - dy·f'(x)| <= ½ulp(r) + |dy|·claim·ulp(f'(x)): r = fl(dy·d̂) costs ½ ulp(r) (round to
// nearest, ulp taken at r's binade, subnormals included) and |d̂ - f'| < claim·ulp(f'), times |dy|.
// Evaluated in MPFR against the reference enclosure of f'(x) (both ends).
template <class T>
void backward_within_bound(Form f, T xi, T di, T r, Format fmt) {
  if (!std::isfinite(xi) || !std::isfinite(di) || !std::isfinite(r)) return;
  const ref::Enclosure d = ref::enclose(f, Quantity::derivative, static_cast<double>(xi));
  const double dmid = d.approx();
  mpfr_t err, t, allowed;
  mpfr_inits2(2400, err, t, allowed, static_cast<mpfr_ptr>(nullptr));
  int bad = 0;
  for (mpfr_srcptr end : {d.lo(), d.hi()}) {
    mpfr_mul_d(t, end, static_cast<double>(di), MPFR_RNDN);
    mpfr_d_sub(err, static_cast<double>(r), t, MPFR_RNDN);
    mpfr_abs(err, err, MPFR_RNDN);
    mpfr_set_d(allowed, ulp_of(static_cast<double>(r), fmt), MPFR_RNDN);
    mpfr_div_2ui(allowed, allowed, 1, MPFR_RNDN);  // ½ulp: exact here, unlike 0.5·2^-1074 in double
    mpfr_set_d(t, std::fabs(static_cast<double>(di)), MPFR_RNDN);
    mpfr_mul_d(t, t, claimed_ulp(fmt) * ulp_of(dmid, fmt) * 2, MPFR_RNDU);  // ulp(f') <= 2ulp(mid)
    mpfr_add(allowed, allowed, t, MPFR_RNDU);
    if (mpfr_greater_p(err, allowed)) bad = 1;
  }
  mpfr_clears(err, t, allowed, static_cast<mpfr_ptr>(nullptr));
  if (bad)
    fail(fmt::format("backward {} {}: x {}, dy {}, exact dy*f'(x) ~ {}, got {}", name(f),
                        name(fmt), hex(xi), hex(di), hex(static_cast<double>(di) * dmid), hex(r)));
}

}  // namespace

// ---- map_tanh, map_erf : gf.map n x i = gf.scalar (x i) ---------------------------------------
GELU_PROP(map_tanh, impl_is_scalar_elementwise, "Proofs.GeluForm.map_tanh", nothing) {
  const auto shape = *gen_shape();
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  map_is_elementwise<double>(Form::tanh, dense(shape, seed));
  map_is_elementwise<float>(Form::tanh, dense(shape, seed));
}
GELU_PROP(map_erf, impl_is_scalar_elementwise, "Proofs.GeluForm.map_erf", nothing) {
  const auto shape = *gen_shape();
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  map_is_elementwise<double>(Form::erf, dense(shape, seed));
  map_is_elementwise<float>(Form::erf, dense(shape, seed));
}
// One element of a map (chosen by rc) against the reference of the right form.
template <class T>
void map_element_within_bound(Form f) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 40);
  const std::size_t k = *rc::gen::inRange<std::size_t>(0, n);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Tensor<T> x(dense({n}, seed), false, 1);
  std::vector<T> out(n);
  impl().map(f, x.cview(), View<T>::contiguous(out.data(), {n}));
  constexpr Format fmt = std::is_same_v<T, double> ? Format::binary64 : Format::binary32;
  check_accuracy("map", f, Quantity::value, static_cast<double>(x.buf[k]),
                 static_cast<double>(out[k]), fmt);
}
GELU_PROP(map_tanh, impl_within_bound, "Proofs.GeluForm.map_tanh", accuracy) {
  map_element_within_bound<double>(Form::tanh);
  map_element_within_bound<float>(Form::tanh);
}
GELU_PROP(map_erf, impl_within_bound, "Proofs.GeluForm.map_erf", accuracy) {
  map_element_within_bound<double>(Form::erf);
  map_element_within_bound<float>(Form::erf);
}

// ---- map_differentiable: each output depends on its own input only (the shadow of the
// componentwise derivative): changing x_j changes no y_i, i != j, by a single bit.
template <class T>
void perturb_one(Form f) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 70);
  const std::size_t j = *rc::gen::inRange<std::size_t>(0, n);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Tensor<T> x(dense({n}, seed), false, 1);
  std::vector<T> y0(n), y1(n);
  impl().map(f, x.cview(), View<T>::contiguous(y0.data(), {n}));
  const T old = x.buf[j];
  std::mt19937_64 rng(seed);
  if constexpr (std::is_same_v<T, double>) x.buf[j] = draw64(rng); else x.buf[j] = draw32(rng);
  impl().map(f, x.cview(), View<T>::contiguous(y1.data(), {n}));
  for (std::size_t i = 0; i < n; ++i)
    if (i != j && !same_bits(y0[i], y1[i]))
      fail(fmt::format("map {}: changing x[{}] from {} to {} changed y[{}] from {} to {}",
                          name(f), j, hex(old), hex(x.buf[j]), i, hex(y0[i]), hex(y1[i])));
}
GELU_PROP(map_differentiable, impl_outputs_depend_on_own_input,
          "Proofs.GeluForm.map_differentiable", nothing) {
  const Form f = *gen_form();
  perturb_one<double>(f);
  perturb_one<float>(f);
}

// ---- pdiv_map : pdiv (gf.map n) x i j = if i = j then gf.scalarDeriv (x i) else 0 -------------
template <class T>
void pdiv_entries(Form f) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 12);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Tensor<T> x(dense({n}, seed), false, 1);
  const std::span<const T> xs(x.buf.data(), n);
  const std::vector<T> J = impl().jacobian(f, xs);
  if (J.size() != n * n) fail(fmt::format("jacobian of {} inputs has {} entries", n, J.size()));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const T p = impl().pdiv(f, xs, i, j);
      const T want = i == j ? impl().deriv(f, xs[i]) : T(0);
      // off the diagonal: exactly zero (either sign); on it: the derivative, bit for bit.
      const bool ok = i == j ? same_bits(p, want) && same_bits(J[i * n + j], want)
                             : p == T(0) && J[i * n + j] == T(0);
      if (!ok)
        fail(fmt::format("pdiv {} n={} (i,j)=({},{}): x_i {}, expected {}, pdiv {}, jacobian {}",
                            name(f), n, i, j, hex(xs[i]), hex(want), hex(p), hex(J[i * n + j])));
    }
}
GELU_PROP(pdiv_map, impl_diagonal_is_deriv_off_diagonal_zero, "Proofs.GeluForm.pdiv_map",
          nothing) {
  const Form f = *gen_form();
  pdiv_entries<double>(f);
  pdiv_entries<float>(f);
}

// ---- hasVJP : backward x dy i = dy i * gf.scalarDeriv (x i) ------------------------------------
GELU_PROP(hasVJP, impl_backward_is_dy_times_deriv, "Proofs.GeluForm.hasVJP", nothing) {
  const Form f = *gen_form();
  const auto shape = *gen_shape();
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  backward_is_dy_times_deriv<double>(f, dense(shape, seed), false);
  backward_is_dy_times_deriv<float>(f, dense(shape, seed), false);
}
// hasVJP_tanh / hasVJP_erf: at each form, backward is that form's VJP — checked against the
// reference derivative of the right form at one element.
template <class T>
void vjp_element_within_bound(Form f) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 40);
  const std::size_t k = *rc::gen::inRange<std::size_t>(0, n);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const Layout l = dense({n}, seed);
  Tensor<T> x(l, false, 1), dy(l, true, 2);
  std::vector<T> dx(n);
  impl().backward(f, x.cview(), dy.cview(), View<T>::contiguous(dx.data(), {n}));
  constexpr Format fmt = std::is_same_v<T, double> ? Format::binary64 : Format::binary32;
  backward_within_bound<T>(f, x.buf[k], dy.buf[k], dx[k], fmt);
}
GELU_PROP(hasVJP_tanh, impl_within_bound, "Proofs.GeluForm.hasVJP_tanh", accuracy) {
  vjp_element_within_bound<double>(Form::tanh);
  vjp_element_within_bound<float>(Form::tanh);
}
GELU_PROP(hasVJP_erf, impl_within_bound, "Proofs.GeluForm.hasVJP_erf", accuracy) {
  vjp_element_within_bound<double>(Form::erf);
  vjp_element_within_bound<float>(Form::erf);
}

// ---- hasVJP_correct : backward x dy i = Σ_j pdiv (gf.map n) x i j * dy j ---------------------
// In IEEE arithmetic with finite dy the sum is exact: every off-diagonal product is ±0, so the
// sum is the diagonal product, except that −0 + (+0) = +0: results are compared as values (a zero
// of either sign equals a zero). With an infinite or NaN dy_j the contraction is NaN in every
// row (0·inf = NaN) while backward stays finite off row j: the theorem is about reals, and the
// statement for non-finite dy is hasVJP's bitwise one (see docs/properties.md).
template <class T>
void contraction(Form f) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 12);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const Layout l = dense({n}, seed);
  Tensor<T> x(l, false, 1), dy(l, true, 2);
  std::vector<T> dx(n);
  impl().backward(f, x.cview(), dy.cview(), View<T>::contiguous(dx.data(), {n}));
  const std::vector<T> J = impl().jacobian(f, std::span<const T>(x.buf.data(), n));
  if (J.size() != n * n) RC_FAIL("jacobian has the wrong size");
  for (std::size_t i = 0; i < n; ++i) {
    T s = J[i * n + i] * dy.buf[i];
    for (std::size_t j = 0; j < n; ++j)
      if (j != i) s += J[i * n + j] * dy.buf[j];
    const bool ok = (std::isnan(s) && std::isnan(dx[i])) || s == dx[i];
    if (!ok)
      fail(fmt::format("{} n={} row {}: x_i {}, dy_i {}, contraction {}, backward {}",
                          name(f), n, i, hex(x.buf[i]), hex(dy.buf[i]), hex(s), hex(dx[i])));
  }
}
GELU_PROP(hasVJP_correct, impl_backward_is_jacobian_contraction, "Proofs.GeluForm.hasVJP_correct",
          nothing) {
  const Form f = *gen_form();
  contraction<double>(f);
  contraction<float>(f);
}

// ---- card: VJP equals the diagonal Jacobian ----------------------------------------------------
GELU_PROP(card_vjp_is_diagonal_jacobian, backward_is_dy_times_deriv_any_layout_any_dy, "card",
          nothing) {
  const Form f = *gen_form();
  const Layout l = *gen_layout();
  backward_is_dy_times_deriv<double>(f, l, false);
  backward_is_dy_times_deriv<float>(f, l, false);
}
GELU_PROP(card_vjp_is_diagonal_jacobian, dense_contraction_small_n, "card", nothing) {
  const Form f = *gen_form();
  contraction<double>(f);
  contraction<float>(f);
}
GELU_PROP(card_vjp_is_diagonal_jacobian, off_diagonal_zero_and_perturbation_local, "card",
          nothing) {
  const Form f = *gen_form();
  pdiv_entries<double>(f);
  perturb_one<double>(f);
  pdiv_entries<float>(f);
  perturb_one<float>(f);
}
GELU_PROP(card_vjp_is_diagonal_jacobian, diagonal_within_bound, "card", accuracy) {
  const Form f = *gen_form();
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 12);
  const std::size_t k = *rc::gen::inRange<std::size_t>(0, n);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Tensor<double> x(dense({n}, seed), false, 1);
  const auto J = impl().jacobian(f, std::span<const double>(x.buf.data(), n));
  if (J.size() != n * n) RC_FAIL("jacobian has the wrong size");
  check_accuracy("jacobian diagonal", f, Quantity::derivative, x.buf[k], J[k * n + k],
                 Format::binary64);
}

// ---- card: elementwise shape invariance -------------------------------------------------------
GELU_PROP(card_shape_invariance, map_any_layout_equals_scalar, "card", nothing) {
  const Form f = *gen_form();
  const Layout l = *gen_layout();
  RC_TAG(fmt::format("rank {}", l.shape.size()));
  RC_CLASSIFY(l.size() == 0, "empty");
  RC_CLASSIFY(std::any_of(l.strides.begin(), l.strides.end(), [](auto s) { return s < 0; }),
              "negative stride");
  map_is_elementwise<double>(f, l);
  map_is_elementwise<float>(f, l);
}
// The same data mapped as [n] and as another shape of n elements: identical bits.
template <class T>
void reshape(Form f) {
  const auto shape = *gen_shape();
  const std::size_t n = element_count(shape);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Tensor<T> x(dense({n}, seed), false, 1);
  std::vector<T> flat(n), shaped(n);
  impl().map(f, x.cview(), View<T>::contiguous(flat.data(), {n}));
  impl().map(f, View<const T>::contiguous(x.buf.data(), shape),
             View<T>::contiguous(shaped.data(), shape));
  for (std::size_t i = 0; i < n; ++i)
    if (!same_bits(flat[i], shaped[i]))
      fail(fmt::format("{} element {} of {}: input {}, as [n] {}, reshaped {}", name(f), i, n,
                          hex(x.buf[i]), hex(flat[i]), hex(shaped[i])));
}
GELU_PROP(card_shape_invariance, reshape_never_changes_a_bit, "card", nothing) {
  const Form f = *gen_form();
  reshape<double>(f);
  reshape<float>(f);
}
// In place (out aliases x) equals out of place.
template <class T>
void in_place(Form f) {
  const auto shape = *gen_shape();
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  Tensor<T> x(dense(shape, seed), false, 1);
  const std::size_t n = x.buf.size();
  std::vector<T> out(n);
  impl().map(f, x.cview(), View<T>::contiguous(out.data(), shape));
  std::vector<T> y = x.buf;
  impl().map(f, View<const T>::contiguous(y.data(), shape), View<T>::contiguous(y.data(), shape));
  for (std::size_t i = 0; i < element_count(shape); ++i)
    if (!same_bits(out[i], y[i]))
      fail(fmt::format("{} element {}: input {}, out of place {}, in place {}", name(f), i,
                          hex(x.buf[i]), hex(out[i]), hex(y[i])));
}
GELU_PROP(card_shape_invariance, in_place_equals_out_of_place, "card", nothing) {
  const Form f = *gen_form();
  in_place<double>(f);
  in_place<float>(f);
}
// One value at every position of a vector of length n starting at any alignment: the bits never
// depend on the position (a vector body and its tail must agree).
template <class T>
void position(Form f) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 80);
  const std::size_t skew = *rc::gen::inRange<std::size_t>(0, 8);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  std::mt19937_64 rng(seed);
  T v;
  if constexpr (std::is_same_v<T, double>) v = draw64(rng); else v = draw32(rng);
  std::vector<T> x(n + skew, v), out(n + skew);
  impl().map(f, View<const T>::contiguous(x.data() + skew, {n}),
             View<T>::contiguous(out.data() + skew, {n}));
  const T want = impl().value(f, v);
  for (std::size_t i = 0; i < n; ++i)
    if (!same_bits(out[skew + i], want))
      fail(fmt::format("{} n={} skew={} position {}: input {}, scalar {}, map {}", name(f), n,
                          skew, i, hex(v), hex(want), hex(out[skew + i])));
}
GELU_PROP(card_shape_invariance, bits_independent_of_position, "card", nothing) {
  const Form f = *gen_form();
  position<double>(f);
  position<float>(f);
}

}  // namespace gelucheck::prop
