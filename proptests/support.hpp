// proptests/support.hpp — what every property file shares: the subject of the run and its claims,
// evaluation through the harness, the test registry (a GoogleTest test per property and format,
// skipped with its reason when it cannot run), the generators over bit patterns of every format,
// the tolerances derived from a claim, and the reference-side helpers (exact sums, the theorem's
// formulas evaluated in MPFR). Defined by job: suite.cpp (the session, the registry, evaluation),
// generators.cpp (the inputs), tolerances.cpp (the claim's tolerances and check_claim),
// reference_side.cpp (Exact and the MPFR-side helpers).
//
// The properties reach the code under check only through the subject door
// (gelucheck/subject.hpp, gelucheck/harness.hpp); expected values come from the MPFR reference
// (gelucheck/reference.hpp) or from exact identities, never from the subject.
#pragma once

#include <gtest/gtest.h>
#include <mpfr.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "gelucheck/claim.hpp"
#include "gelucheck/common.hpp"
#include "gelucheck/facts.hpp"
#include "gelucheck/harness.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"
#include "gelucheck/regions.hpp"
#include "gelucheck/slack.hpp"
#include "gelucheck/subject.hpp"
#include "gelucheck/textbook.hpp"

// How RapidCheck prints the ops and functions it drew, in counterexamples (found by ADL, in the
// namespace of each type).
namespace gelucheck::subject {
inline std::ostream& operator<<(std::ostream& os, const Op& op) { return os << op_name(op); }
}  // namespace gelucheck::subject
namespace gelucheck {
inline std::ostream& operator<<(std::ostream& os, const Function& f) { return os << function_name(f); }
}  // namespace gelucheck

namespace gelucheck::prop {

using subject::Direction;
using subject::Function;
using subject::Op;

// ---------------------------------------------------------------------------------------------
// The run's subject (main.cpp opens it before any test runs).

struct Session {
  std::unique_ptr<subject::Subject> subject;
  subject::Capabilities caps;  // asked once
  subject::ClaimSet claims;    // the subject's own, overridden by --claim
  std::string claims_origin;   // "the subject's own", "--claim", "framework default"
};
// Opens the subject of `spec` and settles its claims: the subject's own, each of `claim_items`
// applied in order (ClaimSet::apply), and, when the subject claims nothing and no item is given,
// Claim::framework_default(fmt) for every function and format. Throws subject::SpecError or
// std::invalid_argument (a malformed claim item).
void open_session(const std::string& spec, const std::vector<std::string>& claim_items);
Session& session();

// ---------------------------------------------------------------------------------------------
// Test registration: GoogleTest suite = Lean theorem (or a group no theorem states: tanh_erf_gap,
// shape_invariance, identity_*, bound_*, special_*, recorded with lean "none"); a property
// defined `per_format` becomes one test per format, named NAME_f64, NAME_f32, NAME_bf16, NAME_f16.
// Every test records "lean", "subject", "format", "seed" (and "cases", "claim", "not_run",
// "harness_calls", on failure "counterexample", when skipped "skip_reason") in GoogleTest's JSON.

using Body = void (*)(Format fmt);
struct Definition {
  const char* suite;
  const char* name;
  const char* lean;
  bool per_format;  // false: one test (the reference_* tests, which do not depend on the subject)
  Body body;
};
bool define(const Definition& d);
// Registers every defined property with GoogleTest (after InitGoogleTest, before RUN_ALL_TESTS).
void register_tests();

#define GELU_PROPERTY(Suite, Name, Lean, PerFormat)                                             \
  static void gelu_body_##Suite##_##Name(::gelucheck::Format fmt);                              \
  [[maybe_unused]] static const bool gelu_defined_##Suite##_##Name = ::gelucheck::prop::define( \
      {#Suite, #Name, Lean, PerFormat, &gelu_body_##Suite##_##Name});                           \
  static void gelu_body_##Suite##_##Name([[maybe_unused]] ::gelucheck::Format fmt)

// Inside a body, before run_checked: the property cannot run; the test is reported SKIPPED with
// the reason (and records it as "skip_reason"). Never call it inside a RapidCheck property.
[[noreturn]] void skip(const std::string& why);
// A failure with a message built beforehand: RC_FAIL inside a RapidCheck property (so that it
// shrinks), a GoogleTest failure of the test otherwise.
[[noreturn]] void fail(const std::string& message);
// The same where one input of one op is the counterexample: the message gets a last line
// "gelucheck-counterexample: OP x=HEX" (OP as subject::op_name gives it, tanh.forward.f32; HEX
// the input as gelucheck::hexfloat prints it), which run_checked keeps as the last line of the
// test's failure, so that the report can attach the failure to the defect that explains it.
[[noreturn]] void fail_at(const subject::Op& op, double x, const std::string& message);
[[noreturn]] void fail_at(Function fn, Format fmt, double x, const std::string& message);
inline constexpr const char* kCounterexamplePrefix = "gelucheck-counterexample: ";
// The op that evaluates a function: the forward for the value, the backward for the derivative.
using subject::op_of;
// Runs a RapidCheck property with the run's RC_PARAMS, max_success divided by `divisor` (heavy
// properties; at least min(max_success, 5) cases); records "cases" (and "counterexample");
// fails the test with RapidCheck's message (seed, shrunk counterexample, our description).
void run_checked(const std::function<void()>& property, int divisor = 1);
void record(const std::string& key, const std::string& value);
std::uint64_t seed();

// What a property needs of each function it runs on (checked before run_checked).
enum class Need {
  op,     // the subject provides the op (value: the forward, derivative: the backward)
  claim,  // ... and claims something of the function in this format
  bound,  // ... and the claim bounds the exact value by the result (slack() is finite)
};
// The functions of `candidates` this property runs on in fmt. The others are recorded with the
// reason ("not_run"); when none is left the test is skipped with the reasons. Saved arrays (no
// fresh evaluations) skip every subject property.
std::vector<Function> targets(Format fmt, std::initializer_list<Function> candidates, Need need);
std::vector<Form> forms_with(Format fmt, Direction d);  // the forms whose op the subject provides
Claim claim_of(Function f, Format fmt);
inline constexpr Function value_of(Form f) { return {f, Quantity::value}; }
inline constexpr Function derivative_of(Form f) { return {f, Quantity::derivative}; }

// ---------------------------------------------------------------------------------------------
// Evaluation through the harness. A harness finding (crash, timeout, wrote_input, protocol error,
// failure) fails the property with the finding and its input in hex; so does an element without
// a result. `stride` is HarnessOptions::stride.
std::vector<double> run_forward(Form f, Format fmt, std::span<const double> xs,
                                std::size_t stride = 1);
std::vector<double> run_backward(Form f, Format fmt, std::span<const double> xs,
                                 std::span<const double> dys, std::size_t stride = 1);
std::vector<double> run_function(Function fn, Format fmt, std::span<const double> xs);
double run_function(Function fn, Format fmt, double x);

// ---------------------------------------------------------------------------------------------
// Inputs: a value of a format, printed as hex float with decimal and where it was drawn from.

struct Input {
  double v;
  Format fmt;
  const char* origin;
};
std::ostream& operator<<(std::ostream& os, const Input& x);
std::string hex(double x);  // gelucheck::hexfloat

// Either form, either quantity, uniformly.
rc::Gen<Form> gen_form();
rc::Gen<Quantity> gen_quantity();

// Generators. rc's own double generator never yields NaN, inf or subnormals (emil-e/rapidcheck#139):
// these build bit patterns. binary64 and binary32 (weights in generators.cpp): raw bit patterns;
// every binade of both signs equally; |x| in [2^-6, 2^6); the negative tail; the hard points
// (facts.hpp) moved by up to ±64 ulps; the specials; subnormals. bfloat16 and binary16: every bit
// pattern uniformly, the binary64 mix rounded to the format, the hard points rounded and moved by
// up to ±8 ulps, the specials.
rc::Gen<Input> gen_input(Format fmt);
rc::Gen<Input> gen_finite(Format fmt);
rc::Gen<Input> gen_in(Format fmt, double lo, double hi);  // lo <= x <= hi (so never NaN)
// The start of a run of consecutive values in [lo, hi]: half of the time drawn uniformly over the
// values of the negative tail (from -1 down to the format's underflow of the erf value, where the
// cancellation of 1 + erf and 1 + tanh leaves flat stretches and wrong-way steps between
// neighbours, that independent random points almost never land in) within [lo, hi], else
// gen_in(fmt, lo, hi). run_from gives the run: start and the values after it, at most n, <= hi.
rc::Gen<Input> gen_run_start(Format fmt, double lo, double hi);
std::vector<double> run_from(Format fmt, double start, double hi, std::size_t n);
// The same mix from a seeded PRNG, for the many values of an array (the seed is in the case).
double draw(Format fmt, std::mt19937_64& rng, bool finite_only = false);
// Tags a test case with the region of x (the report's regions) and the generator's origin.
void tag(const Input& x);
const char* region(double x);


// ---------------------------------------------------------------------------------------------
// Tolerances from a claim (the one claim type, gelucheck/claim.hpp).

// ulp(y) of gelucheck/measure.hpp for a real y given as a double (y = 0 gives the least subnormal).
double ulp_of(double y, Format fmt);
// slack(), bounds_exact_value(), faithful_or_better(), add_up() ...: gelucheck/slack.hpp.
// The claim's own tolerance at an exact value of magnitude at most y_mag whose ulp is at most
// ulp_y (see ulp_of): the |r - y| it allows, rounded up.
double tolerance(const Claim& c, double y_mag, double ulp_y);

// Checks the subject's result r at x against the reference under claim c (measure(), then
// meets()): fails with input, expected (correctly rounded), got, error and the claim.
void check_claim(const char* what, Function fn, Format fmt, double x, double r, const Claim& c);

// Exact real arithmetic on doubles: enough precision (2300 bits) that sums and differences of a
// few doubles are exact (binary64 spans 2^-1074 .. 2^1024).
class Exact {
 public:
  Exact();
  explicit Exact(double v);
  Exact(const Exact&) = default;
  Exact& operator=(const Exact&) = delete;
  Exact operator+(const Exact& o) const;
  Exact operator-(const Exact& o) const;
  Exact operator*(double k) const;  // exact where the product has at most 2300 bits
  Exact abs() const;
  int cmp(const Exact& o) const;  // <0, 0, >0
  int cmp(double o) const;
  double to_double() const;  // rounded to nearest
  mpfr_ptr get() { return v_; }
  mpfr_srcptr get() const { return v_; }

 private:
  Mpfr v_;
};

// The Lean definitions evaluated literally in MPFR are gelucheck/textbook.hpp's ref::textbook
// (the one evaluator for checking the reference independently; its error note is there).
// theorem_range: where that evaluation is affordable (x >= -30 tanh, x >= -40 erf).
bool theorem_range(Form f, double x);  // where the literal evaluation above is affordable
// |a - b| <= 2^-bits * |b|, with a line of hex floats when not.
bool close_rel(mpfr_srcptr a, mpfr_srcptr b, int bits);
std::string mpfr_hex(mpfr_srcptr v);  // %Ra of the number, for messages

}  // namespace gelucheck::prop
