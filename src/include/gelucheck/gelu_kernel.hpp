// gelucheck/gelu_kernel.hpp — the accurate path's extended-precision kernel, exposed for the
// tests that prove its error bound (tests/library). Users call gelucheck/gelu.hpp instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gelucheck/common.hpp"
#include "gelucheck/constants.hpp"

namespace gelucheck::detail {

// f(x) of the accurate path BEFORE the final rounding, in x87 long double (64-bit significand),
// for every double x (NaN, ±inf and the tails included). scalar() returns it rounded once to
// double or float. Claimed bound (derived in src/gelu_scalar.cpp, "Error budget"; measured by
// tests/library/kernel_test.cpp): |kernel - f| <= kernel_rel_bound(form, q) * |f| for every
// finite x (the tails return x, 1 or ±0, whose rounding is the correct one in both formats).
long double accurate_kernel(Form form, Quantity q, double x);

// The derived relative error bounds of accurate_kernel, rounded up to powers of two
// (u = 2^-64): tanh value 8u -> 2^-60, erf value 17u -> 2^-59, derivatives <= 141u -> 2^-56.
constexpr long double kernel_rel_bound(Form form, Quantity q) {
  if (q == Quantity::derivative) return 0x1p-56L;
  return form == Form::tanh ? 0x1p-60L : 0x1p-59L;
}
// The same bound at x. It is tighter for the derivatives at |x| <= 2^-10, where their two terms
// a + b (src/gelu_scalar.cpp, "Error budget") do not cancel: tanh a = 1 + E in [1.99, 2.01] and
// |b| = |x t' E| <= 2^-10 * 1.6 * 1.01 < 0.0016; erf a = erfc(z)/2 in [0.4996, 0.5004] and
// |b| = |x| e^-q / sqrt(2 pi) < 0.0004; so L = (|a| + |b|)/|a + b| <= 1.02 and the budget gives
// tanh 1.02 * 12u + 17u < 29.3u and erf 1.02 * 15.5u + u < 16.9u, both <= 32u = 2^-59. Needed by
// the binary32 proof: f'(x) = 1/2 + sqrt(2/pi) x + O(x^3) passes within 2^-57 of the binary32
// midpoint 1/2 + 2^-25 at x = 0x1.40d932p-25 (and of 1/2 - 2^-26 at -0x1.40d932p-26), closer
// than the general 2^-56 (tests/library/float_midpoint_test.cpp).
constexpr long double kernel_rel_bound(Form form, Quantity q, double x) {
  if (q == Quantity::derivative && x >= -0x1p-10 && x <= 0x1p-10) return 0x1p-59L;
  return kernel_rel_bound(form, q);
}

// The fast paths (src/gelu_fast.cpp, error bounds derived there): a cheap evaluation in binary64
// arithmetic with a rigorous relative error bound e, then a rounding test. Returns true and
// stores the result in *out only when the test proves it:
//   float  — [y(1-e), y(1+e)] contains no binary32 midpoint, so *out is the CORRECT rounding of f
//            (the same bits as the kernel's, which is correctly rounded too);
//   double — [y(1-e), y(1+e)] lies strictly between pred(r) and succ(r), so *out = r is FAITHFUL.
// Returns false (out untouched) where there is no fast path (binary64 erf form, NaN, the regions
// listed in gelu_fast.cpp) or the test fails: the caller then uses accurate_kernel. The tests use
// it to force and count fallbacks. No state: the answer depends on (form, q, x) only.
bool fast_only(Form form, Quantity q, float x, float* out);
bool fast_only(Form form, Quantity q, double x, double* out);

// The vector fast paths (src/gelu_simd.cpp, error bounds derived there; Highway, run-time dispatch
// to the best instruction set of the machine): for i < n, out[i] = the proved result (binary32
// correctly rounded, binary64 faithful) where lane i's rounding test passes; the indices of the
// other lanes (out[i] unspecified there) go to refused, ascending, and their number is returned.
// Lanes are independent: out[i] and whether i is refused depend on x[i] only. x == out (exactly)
// is allowed. fast_only(double) is this function on one lane.
std::size_t simd_fast(Form form, Quantity q, const float* x, float* out, std::uint32_t* refused, std::size_t n);
std::size_t simd_fast(Form form, Quantity q, const double* x, double* out, std::uint32_t* refused, std::size_t n);
// The vector code's exp (exp_d, for a >= -708: exp_a[i] = e^a[i]) and erfc (erfc_x[i] =
// erfc(-x[i]/sqrt2) for a binary32 x[i] in [-16, 40], as the binary32 erf form computes it) on
// this machine, element by element, for the tests that measure them against MPFR (the bounds are
// derived in gelu_simd.cpp; the erfc's is kSimdErfcRelBound).
void simd_exp_erfc(const double* a, double* exp_a, const float* x, double* erfc_x, std::size_t n);
constexpr double kSimdErfcRelBound = 32 * 0x1p-53;
// The binary64 erf form's erfc in double-double: hi[i] + lo[i] = erfc(-x[i]/sqrt2) for x[i] in
// [-36, 36], within relative kSimdErfcDDRelBound (derived in gelu_simd.cpp, erfc_dd).
void simd_erfc_dd(const double* x, double* hi, double* lo, std::size_t n);
constexpr double kSimdErfcDDRelBound = 0x1p-57;
// The binary32 erf form's direct pass (src/gelu_simd.cpp, erf32_direct) on this machine, for the
// tests that prove it by exhaustion: y[i] = its double approximation of f(x[i]) (or f'), rounded
// once to binary32 by map/backward unless redo[i] = 1 (then erf_f32 and the scalar path decide).
void simd_erf32_direct(Quantity q, const float* x, double* y, std::uint8_t* redo, std::size_t n);
// Its window: a lane is marked when y lies within 2^kErf32WindowLog2 units in the last place of y of
// a binary32 midpoint.
constexpr int kErf32WindowLog2 = 20;
// The instruction set the vector code runs on this machine ("AVX3", "AVX2", "SSE4", "EMU128").
const char* simd_target();
// For the tests: every instruction set compiled in and supported by this CPU (Highway's target
// bits), and a way to run the vector code on one of them (0: back to the best one). Not for
// production use: it changes the dispatch of every later call.
std::vector<std::int64_t> simd_targets();
void simd_force_target(std::int64_t target);

// The binary32 erf form over n contiguous elements (src/gelu_simd.cpp, RunErf32): out[i] = the value
// or derivative (q) at x[i], or, with dy non-null (q the derivative), dy[i] times the rounded
// derivative in one rounding; the direct pass, erf_f32 for its marked lanes and scalar(value, x)
// for erf_f32's refusals (1: value, 0: derivative). x or dy may alias out exactly.
void simd_erf32(Quantity q, const float* x, const float* dy, float* out, float (*scalar)(int value, float x),
                std::size_t n);
// out[i] = a[i] * b[i], one rounding each (backward's products), in vector code; out may alias a or
// b exactly.
void simd_multiply(const float* a, const float* b, float* out, std::size_t n);
void simd_multiply(const double* a, const double* b, double* out, std::size_t n);

// The accurate path over n contiguous elements: out[i] = scalar(x[i]) or scalar_deriv(x[i]),
// bit for bit, by simd_fast and, for refused lanes, the scalar path. x == out is allowed; other
// overlaps are not.
void accurate_block(Form form, Quantity q, const float* x, float* out, std::size_t n);
void accurate_block(Form form, Quantity q, const double* x, double* out, std::size_t n);
// backward over n contiguous elements: dx[i] = dy[i] * scalar_deriv(x[i]), one rounding of the
// product, bit for bit; x or dy may alias dx exactly.
void accurate_backward_block(Form form, const float* x, const float* dy, float* dx, std::size_t n);
void accurate_backward_block(Form form, const double* x, const double* dy, double* dx, std::size_t n);

// The 16-bit tables of src/gelu_half.cpp (built on first use): the 65,536 results of one function
// in fmt (binary16 or bfloat16), indexed by the input's encoding; the number of its entries whose
// rounding proof failed (0 expected: tests/library/half_test.cpp); and RN_fmt(dy * d) of two
// encodings, the one rounding of backward.
const std::uint16_t* half_table(Format fmt, Form form, Quantity q);
long half_unproved(Format fmt, Form form, Quantity q);
std::uint16_t half_product(Format fmt, std::uint16_t dy, std::uint16_t d);
// out[i] = table[x[i]] over contiguous arrays (exact aliasing allowed), table one of
// half_table's; its vector loop (src/gelu_half_simd.cpp) gathers the entries and returns how
// many elements it did (a multiple of the vector length).
void half_map(const std::uint16_t* table, const std::uint16_t* x, std::uint16_t* out, std::size_t n);
std::size_t half_map_simd(const std::uint16_t* table, const std::uint16_t* x, std::uint16_t* out, std::size_t n);
// dx[i] = half_product(fmt, dy[i], table[x[i]]) over contiguous arrays (exact aliasing allowed);
// table must be one of half_table's (its vector loop reads 2 bytes past the last entry, which
// the table's storage holds).
void half_backward(Format fmt, const std::uint16_t* table, const std::uint16_t* x, const std::uint16_t* dy,
                   std::uint16_t* dx, std::size_t n);
// Its vector loop (src/gelu_half_simd.cpp): elements [0, k) done, k the largest multiple of the
// vector length <= n, each vector from its lanes or, where any lane needs more than the float
// route, by `scalar` (the scalar loop, on that vector's elements).
using HalfScalar = void (*)(bool bf, const std::uint16_t* table, const std::uint16_t* x, const std::uint16_t* dy,
                            std::uint16_t* dx, std::size_t n);
std::size_t half_backward_simd(bool bf, const std::uint16_t* table, const std::uint16_t* x, const std::uint16_t* dy,
                               std::uint16_t* dx, std::size_t n, HalfScalar scalar);

// The binary64 fast path's e^(a.hi + a.lo) in double-double, for |a.hi| <= 700, |a.lo| <= 2^-43:
// claimed relative error <= kFastExpRelBound (derived in gelu_simd.cpp at exp_dd) while the
// result is >= 2^-968; exposed so that tests/library measures it against MPFR.
constants::DoubleDouble fast_exp_dd(constants::DoubleDouble a);
constexpr double kFastExpRelBound = 0x1p-68;

}  // namespace gelucheck::detail
