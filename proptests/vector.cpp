// The vector theorems (map_*, map_differentiable, pdiv_map, hasVJP*) and shape_invariance (no
// Lean theorem), for a black box: the subject is seen only through batch calls over
// contiguous (or, where it takes them, strided) arrays, so
//  - "map is the scalar elementwise" becomes: an element's bits do not depend on where it sits,
//    on how long the call is, on its neighbours, on a stride, or on how often it was asked;
//  - the Jacobian (pdiv) is read off the backward with one-hot dy vectors, column by column;
//  - the VJP is checked against the reference under the claim with random dy.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "support.hpp"

namespace gelucheck::prop {
namespace {

// The lengths at which vector kernels change path: below, at and above the common widths (8, 16,
// 32 lanes), plus a long call.
constexpr std::size_t kLengths[] = {2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 1000};
// Values per case whose "alone" result is known; 5 is prime to every lane width, so a cyclic
// arrangement puts each value in every lane.
constexpr std::size_t kPool = 5;

// One call of the op (forward: dys empty).
std::vector<double> call(const Op& op, std::span<const double> xs, std::span<const double> dys,
                         std::size_t stride = 1) {
  return op.direction == Direction::forward ? run_forward(op.form, op.format, xs, stride)
                                            : run_backward(op.form, op.format, xs, dys, stride);
}

// The ops of fmt the subject provides, among the forward/backward of both forms.
std::vector<Op> provided_ops(Format fmt, std::initializer_list<Direction> dirs) {
  std::vector<Function> cands;
  for (Form f : {Form::tanh, Form::erf})
    for (Direction d : dirs) cands.push_back(d == Direction::forward ? value_of(f) : derivative_of(f));
  std::vector<Op> ops;
  std::string none;
  for (const Function fn : cands) {
    const Op op = op_of(fn, fmt);
    if (session().caps.provides(op)) ops.push_back(op);
    else none += (none.empty() ? "" : "; ") + ("the subject does not provide " + subject::op_name(op));
  }
  if (!session().caps.fresh_evaluations)
    skip("the subject answers only the inputs on record (saved arrays); this property needs "
         "fresh evaluations");
  if (!none.empty()) record("not_run", none);
  if (ops.empty()) skip(none);
  return ops;
}

rc::Gen<Op> gen_op(const std::vector<Op>& ops) { return rc::gen::elementOf(ops); }

// A call length for the properties that need one of them, not all: 1 or one of kLengths, the
// long call in one case of 48 (it costs as much as all the others together).
rc::Gen<std::size_t> gen_length() {
  std::vector<std::size_t> shorter{1};
  for (const std::size_t n : kLengths)
    if (n <= 33) shorter.push_back(n);
  return rc::gen::weightedOneOf<std::size_t>(
      {{47, rc::gen::elementOf(shorter)}, {1, rc::gen::just(std::size_t{1000})}});
}

std::string show(const Op& op, double x, const std::vector<double>& dys, std::size_t k) {
  std::string s = "x " + hex(x);
  if (op.direction == Direction::backward) s += ", dy " + hex(dys[k]);
  return s;
}

// A pool of kPool (x, dy) pairs: x[0] drawn by rc (shrinks), the others and every dy from a
// seeded PRNG (dy finite, so that dy·f'(x) says something about the position). Then the result
// of each pair alone (a call of one element).
struct Pool {
  std::vector<double> x, dy, alone;
};
Pool make_pool(const Op& op, const Input& x0, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Pool p;
  p.x.push_back(x0.v);
  while (p.x.size() < kPool) p.x.push_back(draw(op.format, rng));
  for (std::size_t k = 0; k < kPool; ++k) p.dy.push_back(draw(op.format, rng, true));
  for (std::size_t k = 0; k < kPool; ++k) {
    const std::span<const double> dk =
        op.direction == Direction::backward ? std::span<const double>(&p.dy[k], 1) : std::span<const double>{};
    p.alone.push_back(call(op, std::span<const double>(&p.x[k], 1), dk).front());
  }
  return p;
}

// A call of n elements holding pool pair (i + shift) mod kPool at offset i, checked element by
// element against the pairs alone, bit for bit (same_bits: NaNs equal).
void check_arrangement(const Op& op, const Pool& p, std::size_t n, std::size_t shift,
                       std::size_t stride) {
  std::vector<double> xs(n), dys(n);
  for (std::size_t i = 0; i < n; ++i) {
    xs[i] = p.x[(i + shift) % kPool];
    dys[i] = p.dy[(i + shift) % kPool];
  }
  const std::vector<double> r =
      call(op, xs, op.direction == Direction::backward ? std::span<const double>(dys) : std::span<const double>{},
           stride);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t k = (i + shift) % kPool;
    if (!same_bits(r[i], p.alone[k]))
      fail(fmt::format("{}: {} alone gives {}, but at offset {} of a call of {} elements{} it "
                       "gives {}",
                       subject::op_name(op), show(op, p.x[k], p.dy, k), hex(p.alone[k]), i, n,
                       stride > 1 ? fmt::format(" (stride {})", stride) : "", hex(r[i])));
  }
}

// Position and length invariance: each pool value alone, and inside calls of every length of
// kLengths, the rest of the call filled with the other pool values. For the lengths up to 33 all
// kPool cyclic shifts, which put each pool value at every offset; for the call of 1000 one shift
// per case (drawn), so that its offsets are covered over the run rather than in each case. Per
// case: 5 + 51 calls, 1850 elements; hence a tenth of the cases.
void position_and_length(const std::vector<Op>& ops, Format fmt) {
  run_checked(
      [&] {
        const Op op = *gen_op(ops);
        const Input x = *gen_input(fmt);
        const auto seed = *rc::gen::arbitrary<std::uint64_t>();
        const std::size_t long_shift = *rc::gen::inRange<std::size_t>(0, kPool);
        tag(x);
        const Pool p = make_pool(op, x, seed);
        for (const std::size_t n : kLengths) {
          if (n > 33) {
            check_arrangement(op, p, n, long_shift, 1);
            continue;
          }
          for (std::size_t s = 0; s < kPool; ++s) check_arrangement(op, p, n, s, 1);
        }
      },
      10);
}

}  // namespace

// ---- map_tanh, map_erf : gf.map n x i = gf.scalar (x i) ---------------------------------------
GELU_PROPERTY(map_tanh, impl_position_and_length_invariant, "Proofs.GeluForm.map_tanh", true) {
  targets(fmt, {value_of(Form::tanh)}, Need::op);
  position_and_length({{Form::tanh, Direction::forward, fmt}}, fmt);
}
GELU_PROPERTY(map_erf, impl_position_and_length_invariant, "Proofs.GeluForm.map_erf", true) {
  targets(fmt, {value_of(Form::erf)}, Need::op);
  position_and_length({{Form::erf, Direction::forward, fmt}}, fmt);
}

// ---- map_differentiable: each output depends on its own input only (the shadow of the
// componentwise derivative): changing x_j changes no y_i, i != j, by a single bit. Two calls of
// the same length per case.
GELU_PROPERTY(map_differentiable, impl_outputs_depend_on_own_input,
              "Proofs.GeluForm.map_differentiable", true) {
  const std::vector<Op> ops = provided_ops(fmt, {Direction::forward});
  run_checked([&] {
    const Op op = *gen_op(ops);
    const std::size_t n = *rc::gen::inRange<std::size_t>(1, 70);
    const std::size_t j = *rc::gen::inRange<std::size_t>(0, n);
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    std::mt19937_64 rng(seed);
    std::vector<double> x(n);
    for (double& v : x) v = draw(fmt, rng);
    const std::vector<double> y0 = call(op, x, {});
    const double old = x[j];
    x[j] = draw(fmt, rng);
    const std::vector<double> y1 = call(op, x, {});
    for (std::size_t i = 0; i < n; ++i)
      if (i != j && !same_bits(y0[i], y1[i]))
        fail(fmt::format("{}: changing x[{}] from {} to {} changed y[{}] (x {}) from {} to {}",
                         subject::op_name(op), j, hex(old), hex(x[j]), i, hex(x[i]), hex(y0[i]),
                         hex(y1[i])));
  });
}

// ---- pdiv_map : pdiv (gf.map n) x i j = if i = j then gf.scalarDeriv (x i) else 0 -------------
// For a black box the Jacobian is read off the backward: with dy = e_j (one-hot), the VJP is
// column j of J (J is symmetric where it is diagonal). So: off the diagonal dx_i is a zero
// (either sign: 0·f'(x_i)), or NaN where the subject's own derivative at x_i is not finite
// (0·inf, 0·NaN in IEEE arithmetic); on it, dx_j has the bits of the subject's derivative at x_j
// (the backward with dy = 1 everywhere), which is the same element computation. n + 1 calls of
// n <= 12 elements per case; finite x.
GELU_PROPERTY(pdiv_map, impl_one_hot_backward_is_diagonal, "Proofs.GeluForm.pdiv_map", true) {
  const std::vector<Op> ops = provided_ops(fmt, {Direction::backward});
  run_checked([&] {
    const Op op = *gen_op(ops);
    const std::size_t n = *rc::gen::inRange<std::size_t>(1, 13);
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    std::mt19937_64 rng(seed);
    std::vector<double> x(n);
    for (double& v : x) v = draw(fmt, rng, true);
    const std::vector<double> d = call(op, x, std::vector<double>(n, 1.0));
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<double> e(n, 0.0);
      e[j] = 1.0;
      const std::vector<double> col = call(op, x, e);
      for (std::size_t i = 0; i < n; ++i) {
        const bool ok = i == j ? same_bits(col[i], d[i])
                               : (std::isfinite(d[i]) ? col[i] == 0 : col[i] == 0 || std::isnan(col[i]));
        if (!ok)
          fail(fmt::format("{} n={} dy = e_{}: dx[{}] (x {}) is {}, expected {}", subject::op_name(op),
                           n, j, i, hex(x[i]), hex(col[i]),
                           i == j ? "the derivative " + hex(d[i]) + " (dy = 1)" : std::string("a zero")));
      }
    }
  });
}

// ---- hasVJP : backward x dy i = dy i * gf.scalarDeriv (x i) ------------------------------------
// The backward elementwise: position and length invariance of (x, dy) pairs, as map_* above.
GELU_PROPERTY(hasVJP, impl_position_and_length_invariant, "Proofs.GeluForm.hasVJP", true) {
  position_and_length(provided_ops(fmt, {Direction::backward}), fmt);
}

// hasVJP_tanh / hasVJP_erf: backward with random dy against the reference of its form, under the
// claim on the derivative. NOT bit for bit against dy × (the subject's own derivative), which a
// correct backward need not give: it may form the product in a wider format (a 16-bit backward
// in float) or fused with the derivative's last operation, and differ from RN(dy·RN(f')) by an
// ulp. The bound: a backward that rounds dy·d once, with d within the claim's tolerance of f',
//   |r - dy·f'(x)| <= ½ulp(r) + |dy|·tol(f'(x)),
// tol the claim's own tolerance at the exact derivative (c·ulp(f') for an ulp claim, atol +
// rtol·|f'| for allclose); ½ulp(r) is the product's rounding (r = RN(P) lies in P's binade or
// the next one up, so ulp(P) <= ulp(r)). Evaluated in MPFR against both ends of the reference's
// enclosure of f'(x). Inputs and dy finite, dy from the same mix; a case whose exact product
// overflows the format is not counted. One call of n <= 16 elements per case.
namespace {
void backward_within_claim(Form form, Format fmt) {
  const Function fn = derivative_of(form);
  targets(fmt, {fn}, Need::claim);
  const Claim c = claim_of(fn, fmt);
  const Op op{form, Direction::backward, fmt};
  const double fmt_max = next_in(fmt, std::numeric_limits<double>::infinity(), 0.0);
  run_checked([&] {
    const Input x0 = *gen_finite(fmt);
    const std::size_t n = *rc::gen::inRange<std::size_t>(1, 17);
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    tag(x0);
    std::mt19937_64 rng(seed);
    std::vector<double> x(n), dy(n);
    x[0] = x0.v;
    for (std::size_t i = 1; i < n; ++i) x[i] = draw(fmt, rng, true);
    for (double& v : dy) v = draw(fmt, rng, true);
    const std::vector<double> r = call(op, x, dy);
    for (std::size_t i = 0; i < n; ++i) {
      const ref::Enclosure d = ref::enclose(form, Quantity::derivative, x[i]);
      const double dmag = std::max(std::fabs(mpfr_get_d(d.lo(), MPFR_RNDU)),
                                   std::fabs(mpfr_get_d(d.hi(), MPFR_RNDU)));
      if (std::fabs(dy[i]) * dmag * (1 - 0x1p-40) >= fmt_max) continue;  // the product overflows
      // ulp of the exact derivative: at most that of its larger-magnitude end.
      const double tol = tolerance(c, dmag, ulp_of(dmag, fmt));
      Mpfr err(2400), t(2400), allowed(2400);
      bool bad = !std::isfinite(r[i]);
      for (mpfr_srcptr end : {d.lo(), d.hi()}) {
        if (bad) break;
        mpfr_mul_d(t, end, dy[i], MPFR_RNDN);
        mpfr_d_sub(err, r[i], t, MPFR_RNDN);
        mpfr_abs(err, err, MPFR_RNDN);
        mpfr_set_d(allowed, ulp_of(r[i], fmt), MPFR_RNDN);
        mpfr_div_2ui(allowed, allowed, 1, MPFR_RNDN);  // ½ulp: exact here, unlike in double
        mpfr_set_d(t, std::fabs(dy[i]), MPFR_RNDN);
        mpfr_mul_d(t, t, tol, MPFR_RNDU);
        mpfr_add(allowed, allowed, t, MPFR_RNDU);
        if (mpfr_greater_p(err, allowed)) bad = true;
      }
      if (bad)
        fail(fmt::format("{} (element {} of {}): x {}, dy {}, exact dy·f'(x) ~ {}, got {}; claim on "
                         "the derivative: {}",
                         subject::op_name(op), i, n, hex(x[i]), hex(dy[i]),
                         hex(dy[i] * d.approx()), hex(r[i]), c.text));
    }
  });
}
}  // namespace
GELU_PROPERTY(hasVJP_tanh, impl_within_claim, "Proofs.GeluForm.hasVJP_tanh", true) {
  backward_within_claim(Form::tanh, fmt);
}
GELU_PROPERTY(hasVJP_erf, impl_within_claim, "Proofs.GeluForm.hasVJP_erf", true) {
  backward_within_claim(Form::erf, fmt);
}

// ---- hasVJP_correct : backward x dy i = Σ_j pdiv (gf.map n) x i j * dy j ---------------------
// "VJP = diagonal Jacobian", for a black box: J is read off the backward with one-hot
// dy (column j = backward(x, e_j)), S_i = Σ_j J_ij·dy_j is formed exactly, and the backward with
// a random dy must agree with it within what the claim on the derivative allows. With J_ii = d_i
// the subject's derivative and the bound of hasVJP_* for r_i,
//   |r_i - S_i| <= |r_i - dy_i·f'_i| + |dy_i|·|f'_i - d_i| <= ½ulp(r_i) + 2·|dy_i|·slack(d_i)
// (slack(d_i) bounds both |d_i - f'_i| and the claim's tolerance at f'_i), plus the off-diagonal
// terms, which pdiv_map requires to be zeros. Rows where J has a non-finite entry, or the
// product overflows, are pdiv_map's and the accuracy properties' business and are not compared.
GELU_PROPERTY(hasVJP_correct, impl_backward_is_jacobian_contraction,
              "Proofs.GeluForm.hasVJP_correct", true) {
  std::vector<Op> ops;
  for (const Function fn : targets(fmt, {derivative_of(Form::tanh), derivative_of(Form::erf)}, Need::bound))
    ops.push_back({fn.form, Direction::backward, fmt});
  run_checked([&] {
    const Op op = *gen_op(ops);
    const std::size_t n = *rc::gen::inRange<std::size_t>(1, 12);
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    std::mt19937_64 rng(seed);
    std::vector<double> x(n), dy(n);
    for (double& v : x) v = draw(fmt, rng, true);
    for (double& v : dy) v = draw(fmt, rng, true);
    std::vector<std::vector<double>> J(n);  // J[j] = column j
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<double> e(n, 0.0);
      e[j] = 1.0;
      J[j] = call(op, x, e);
    }
    const std::vector<double> r = call(op, x, dy);
    const Claim c = claim_of(derivative_of(op.form), fmt);
    for (std::size_t i = 0; i < n; ++i) {
      bool finite = std::isfinite(r[i]);
      Exact S;
      for (std::size_t j = 0; j < n && finite; ++j) {
        finite = std::isfinite(J[j][i]);
        if (!finite) break;
        Mpfr p(2300);
        mpfr_set_d(p, J[j][i], MPFR_RNDN);
        mpfr_mul_d(p, p, dy[j], MPFR_RNDN);  // a product of two doubles: exact at 2300 bits
        mpfr_add(S.get(), S.get(), p, MPFR_RNDN);
      }
      if (!finite) continue;
      const Exact allowed =
          Exact(ulp_of(r[i], fmt)) * 0.5 + Exact(mul_up(std::fabs(dy[i]), slack(c, fmt, J[i][i]))) * 2;
      const Exact off = (Exact(r[i]) - S).abs();
      if (off.cmp(allowed) > 0)
        fail(fmt::format("{} n={} row {}: x {}, dy {}, Σ_j J_ij·dy_j ~ {}, backward {} (off by {} "
                         "> {})",
                         subject::op_name(op), n, i, hex(x[i]), hex(dy[i]), hex(S.to_double()),
                         hex(r[i]), hex(off.to_double()), hex(allowed.to_double())));
    }
  });
}

// ---- shape_invariance: elementwise whatever the layout (no Lean theorem) ----------------------
// Strided calls (HarnessOptions::stride: the subject evaluates through a layout of its own with
// element i at i·stride) give each element the bits it has alone; stride 2..5, every length of
// kLengths, one drawn arrangement of the pool per length. Skipped for a subject that does not
// take strides (Capabilities::strided).
GELU_PROPERTY(shape_invariance, impl_strided_equals_alone, "none", true) {
  const std::vector<Op> ops = provided_ops(fmt, {Direction::forward, Direction::backward});
  if (!session().caps.strided) skip("the subject does not take strides (its capabilities say so)");
  run_checked(
      [&] {
        const Op op = *gen_op(ops);
        const Input x = *gen_input(fmt);
        const auto seed = *rc::gen::arbitrary<std::uint64_t>();
        const std::size_t stride = *rc::gen::inRange<std::size_t>(2, 6);
        const std::size_t shift = *rc::gen::inRange<std::size_t>(0, kPool);
        tag(x);
        const Pool p = make_pool(op, x, seed);
        for (const std::size_t n : kLengths) check_arrangement(op, p, n, shift, stride);
      },
      5);
}
// The same batch twice gives the same bits (no state, no thread-schedule dependence). One call
// length per case (gen_length), the values from the mix.
GELU_PROPERTY(shape_invariance, impl_repeated_calls_same_bits, "none", true) {
  const std::vector<Op> ops = provided_ops(fmt, {Direction::forward, Direction::backward});
  run_checked([&] {
    const Op op = *gen_op(ops);
    const std::size_t n = *gen_length();
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    std::mt19937_64 rng(seed);
    std::vector<double> x(n), dy(n);
    for (double& v : x) v = draw(fmt, rng);
    for (double& v : dy) v = draw(fmt, rng, true);
    const std::span<const double> d =
        op.direction == Direction::backward ? std::span<const double>(dy) : std::span<const double>{};
    const std::vector<double> a = call(op, x, d), b = call(op, x, d);
    for (std::size_t i = 0; i < n; ++i)
      if (!same_bits(a[i], b[i]))
        fail(fmt::format("{}: the same call of {} elements twice: element {} ({}) gave {} then {}",
                         subject::op_name(op), n, i, show(op, x[i], dy, i), hex(a[i]), hex(b[i])));
  });
}

// ---- inputs untouched -----------------------------------------------------------------------------
// The forward and the backward write neither x nor dy (GeluForm.hasVJP's backward takes the
// original x). The harness compares the bits of its private copies after every call and reports
// a subject that wrote into them as a finding, which fails the property — here, and in every
// other property that evaluates the subject. One call of each provided op per case (length from
// gen_length), values from the whole mix (NaN payloads included in binary64).
GELU_PROPERTY(identity_inputs_untouched, impl_forward_and_backward, "Proofs.GeluForm.hasVJP", true) {
  const std::vector<Op> ops = provided_ops(fmt, {Direction::forward, Direction::backward});
  run_checked([&] {
    const std::size_t n = *gen_length();
    const auto seed = *rc::gen::arbitrary<std::uint64_t>();
    std::mt19937_64 rng(seed);
    std::vector<double> x(n), dy(n);
    for (double& v : x) v = draw(fmt, rng);
    for (double& v : dy) v = draw(fmt, rng);
    for (const Op& op : ops)
      call(op, x, op.direction == Direction::backward ? std::span<const double>(dy) : std::span<const double>{});
  });
}

}  // namespace gelucheck::prop
