// proptests/support.hpp — what every property file shares: the hard points, the generators over
// bit patterns, hex-float printing, the test macro that records the Lean theorem, and the
// reference-side helpers (ulp, exact sums, the theorem's formulas evaluated in MPFR).
#pragma once

#include <gtest/gtest.h>
#include <mpfr.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "gelucheck/common.hpp"
#include "gelucheck/facts.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/proptests/subject.hpp"
#include "gelucheck/proptests/views.hpp"
#include "gelucheck/reference.hpp"

namespace gelucheck::prop {

// ---------------------------------------------------------------------------------------------
// Inputs that print as hex floats (with decimal and where the generator took them from).

struct X64 {
  double v;
  const char* origin;
};
struct X32 {
  float v;
  const char* origin;
};
std::ostream& operator<<(std::ostream& os, const X64& x);
std::ostream& operator<<(std::ostream& os, const X32& x);
std::string hex(double x);  // gelucheck::hexfloat
std::string hex(float x);   // hexfloat of the float, suffixed "f"

// Hard points of shared/DESIGN.md §1: gelucheck/facts.hpp is their one home (mpmath command
// there); `hard::` reads them, plus the one tolerance that is the course card's, not a fact.
namespace hard {
using namespace ::gelucheck::facts;
inline constexpr double course_atol = 1e-5;  // the course card's absolute tolerance
}  // namespace hard

// ---------------------------------------------------------------------------------------------
// Generators. rc's own double generator never yields NaN, inf or subnormals (rapidcheck #139):
// these build bit patterns. The mix (weights in support.cpp): raw bit patterns; every binade of
// both signs equally; |x| in [2^-6, 2^6); the negative tail [-45, -5]; the hard points above
// moved by up to ±64 ulps or by a relative 1e-12; the specials; subnormals.
rc::Gen<X64> gen_x64();
rc::Gen<X64> gen_x64_finite();
rc::Gen<X64> gen_x64_in(double lo, double hi);  // the mix, restricted (NaN excluded)
rc::Gen<X32> gen_x32();
rc::Gen<X32> gen_x32_finite();
// Tags a test case with the region of x (the report's regions) and the generator's origin.
void tag(const X64& x);
void tag(const X32& x);
const char* region(double x);

// Values for tensors: the same mix drawn from a seeded PRNG (tensors of 9216 elements would be
// too slow to draw and shrink one rc value at a time). The seed is part of the printed case.
double draw64(std::mt19937_64& rng, bool finite_only = false);
float draw32(std::mt19937_64& rng, bool finite_only = false);

// A strided, permuted, possibly negatively-strided layout of a shape inside a buffer.
struct Layout {
  std::vector<std::size_t> shape;
  std::vector<std::size_t> perm;   // memory order: perm[rank-1] is the fastest-moving dimension
  std::vector<int> gap;            // stride multiplier per dimension (1 = dense)
  std::vector<bool> negative;      // negative stride per dimension
  std::vector<std::ptrdiff_t> strides;
  std::ptrdiff_t offset = 0;       // where element (0, …, 0) sits in the buffer
  std::size_t buffer = 1;          // buffer elements needed
  std::uint64_t seed = 0;          // for the values
  std::size_t size() const { return element_count(shape); }
};
std::ostream& operator<<(std::ostream& os, const Layout& l);
// Shapes of rank 0–5 with dimensions 0, 1, primes, plus [4, 64] and [T, 3072]; `dense` gives
// row-major contiguous layouts only.
rc::Gen<std::vector<std::size_t>> gen_shape();
rc::Gen<Layout> gen_layout();
Layout make_layout(std::vector<std::size_t> shape, std::vector<std::size_t> perm,
                   std::vector<int> gap, std::vector<bool> negative, std::uint64_t seed);

// ---------------------------------------------------------------------------------------------
// Test registration: GoogleTest suite = Lean theorem (or card/identity/... group), with the
// theorem recorded in the JSON output. Needs: what the subject must claim for the test to apply.
enum class Need { nothing, accuracy, specials, seed_formula };
// Records lean/subject/seed properties; GTEST_SKIPs when the subject lacks `need`.
void begin_test(const char* lean, Need need);
// Runs a RapidCheck property, records "cases" (and "counterexample" on failure), FAILs with
// RapidCheck's message (seed, shrunk counterexample, our hex-float description).
void run_checked(const std::function<void()>& property);
std::uint64_t seed();

#define GELU_PROP(Suite, Name, Lean, NeedV)                                            \
  static void gelu_prop_##Suite##_##Name();                                            \
  TEST(Suite, Name) {                                                                  \
    ::gelucheck::prop::begin_test(Lean, ::gelucheck::prop::Need::NeedV);               \
    if (::testing::Test::IsSkipped()) return;                                          \
    ::gelucheck::prop::run_checked(&gelu_prop_##Suite##_##Name);                       \
  }                                                                                    \
  static void gelu_prop_##Suite##_##Name()

// A plain (non-random) test with the same recording.
#define GELU_TEST(Suite, Name, Lean, NeedV)                                            \
  static void gelu_test_##Suite##_##Name();                                            \
  TEST(Suite, Name) {                                                                  \
    ::gelucheck::prop::begin_test(Lean, ::gelucheck::prop::Need::NeedV);               \
    if (::testing::Test::IsSkipped()) return;                                          \
    gelu_test_##Suite##_##Name();                                                      \
  }                                                                                    \
  static void gelu_test_##Suite##_##Name()

inline const Implementation& impl() { return subject(); }
// RC_FAIL with a message built beforehand (RapidCheck prints the macro's argument text too).
inline void fail(const std::string& message) { RC_FAIL(message); }

// ---------------------------------------------------------------------------------------------
// Numbers.

// ulp(y) of DESIGN.md §2 for a real y given as a double (y = 0 gives the least subnormal).
double ulp_of(double y, Format fmt);
// The subject's claimed bound for fmt, and whether err satisfies it.
double claimed_ulp(Format fmt);
bool within_claim(double err_ulp, Format fmt);

// Checks the subject's result r (a value of fmt) against the reference at x with measure():
// fails with input, expected (correctly rounded), got, error, bound (all hex) unless within the
// subject's claim, with no NaN mismatch and no sign-of-zero mismatch.
void check_accuracy(const char* what, Form form, Quantity q, double x, double r, Format fmt);

// Exact real arithmetic on doubles: enough precision (2300 bits) that sums and differences of a
// few doubles are exact (binary64 spans 2^-1074 .. 2^1024).
class Exact {
 public:
  Exact();
  explicit Exact(double v);
  Exact(const Exact&);
  Exact& operator=(const Exact&) = delete;
  ~Exact();
  Exact operator+(const Exact& o) const;
  Exact operator-(const Exact& o) const;
  Exact abs() const;
  int cmp(const Exact& o) const;  // <0, 0, >0
  int cmp(double o) const;
  double to_double() const;  // rounded to nearest
  mpfr_ptr get() { return v_; }
  mpfr_srcptr get() const { return v_; }

 private:
  mpfr_t v_;
};

// The Lean definitions evaluated literally in MPFR at x (an MPFR number), with precision raised
// to cover the cancellation in 1 + tanh u, 1 - tanh² u and 1 + erf z (the error of the result is
// then ≲ 2^-(base_bits - 8) relative; see support.cpp). geluScalar / geluErfScalar and the closed
// forms geluScalarDeriv_eq / geluErfScalarDeriv_eq. `out` must be initialised; its precision is
// set here. Defined for x >= -40 (tanh) / any x (erf) — see theorem_range().
void theorem_value(Form f, mpfr_srcptr x, mpfr_ptr out, int base_bits = 320);
void theorem_deriv(Form f, mpfr_srcptr x, mpfr_ptr out, int base_bits = 320);
bool theorem_range(Form f, double x);  // where the literal evaluation above is affordable
// |a - b| <= 2^-bits * |b|, with a line of hex floats when not.
bool close_rel(mpfr_srcptr a, mpfr_srcptr b, int bits);
std::string mpfr_hex(mpfr_srcptr v);  // %Ra of the number, for messages

}  // namespace gelucheck::prop
