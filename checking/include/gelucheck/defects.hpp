// gelucheck/defects.hpp — what is wrong with a subject, one defect per cause (docs/report.md,
// "Defects").
//
// The checks observe; this layer folds. Every measured result of a row (campaign, exhaustive
// sweep) is classified into at most one Observation kind (a NaN is not also an accuracy break,
// a flush is not also a sign error), the harness reports misbehaviour as findings, the property
// suite as failed properties, and the facts over every result (sign, bounds, monotonicity) as
// observations of their own. defects() then folds all of it into the subject's distinct defects:
// one cause seen in several ops (NaN at -inf in all 16 ops; one flush threshold in four formats;
// one write into x) is one Defect that lists its ops.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gelucheck/common.hpp"

namespace gelucheck::report {

// The closed vocabulary of defect kinds, in the order report.md ranks them (crash, hang and
// writes first; then NaN and limits; then wrong-sign zeros and flushes; then accuracy).
// **contract**: report.json's `subjects[i].defects[j].kind` is one of these names.
enum class DefectKind : unsigned char {
  crash,           // the subject's process died during a call (signal, exit)
  hang,            // no answer within the call's deadline
  wrote_input,     // a call changed x or dy
  wrote_past_end,  // a call touched memory past the end of an array
  protocol,        // a malformed answer (cmd: / lib:), or the subject's own error answer
  repeat,          // a second call on the same input gave other bits
  position,        // the result depends on the element's position or the batch's length
  stride,          // a strided layout gives other bits than a contiguous one
  nan,             // NaN at a finite input where the value is a number
  limit,           // a wrong result at x = +inf or -inf
  overflow,        // an infinite result at a finite input where the value is finite
  zero_sign,       // a zero of the wrong sign (the magnitude right)
  flush,           // a zero where zero is not even a faithful rounding of the value
  accuracy,        // a finite result beyond the claim (the rest of the claim's breaks)
  identity,        // a Lean identity broken (f(x) - f(-x) = x, f'(x) + f'(-x) = 1, f(0) = 0, ...)
  monotone,        // a step the wrong way between inputs on one side of the minimum
  bound,           // a certified bound broken (sign of f, f(x) <= x, f >= min, range of f')
  gap,             // the tanh form and the erf form further apart than the certified gap
  vjp,             // backward differs from dy · f'(x) (or the Jacobian is not diagonal)
};
inline constexpr DefectKind kDefectKinds[] = {
    DefectKind::crash,    DefectKind::hang,     DefectKind::wrote_input, DefectKind::wrote_past_end,
    DefectKind::protocol, DefectKind::repeat,   DefectKind::position,    DefectKind::stride,
    DefectKind::nan,      DefectKind::limit,    DefectKind::overflow,    DefectKind::zero_sign,
    DefectKind::flush,    DefectKind::accuracy, DefectKind::identity,    DefectKind::monotone,
    DefectKind::bound,    DefectKind::gap,      DefectKind::vjp};
std::string_view defect_kind_name(DefectKind k);  // "crash", "zero_sign", ...
std::optional<DefectKind> parse_defect_kind(std::string_view s);

// The points of one row that one classification put together: how many, the first (in input
// order) and the worst, and the range of x they span. `size` is the kind's measure of badness
// (accuracy: the ulp error; monotone: the wrong-way step relative to the value; bound: the
// violation relative to the bound; others: 0), the worst the first point reaching the largest.
struct Observation {
  DefectKind kind = DefectKind::accuracy;
  std::string fact;        // which fact or sub-case (e.g. "x<=0 => f(x)<=0", "-inf"); may be empty
  std::size_t count = 0;
  double first_x = 0, first_expected = 0, first_got = 0;
  double worst_x = 0, worst_expected = 0, worst_got = 0, worst_size = 0;
  double lo = 0, hi = 0;   // min and max x of the points (lo <= hi once count > 0)
  // A few points (input order, at most kSampleSize) for diagnoses: x, the correctly rounded value
  // (or the bound), the result.
  struct Point {
    double x, expected, got;
  };
  std::vector<Point> sample;
  bool breaks_claim = false;  // some point of it breaks the row's claim (or framework default)

  static constexpr std::size_t kSampleSize = 64;
  // Adds one point (input order). size: see above. (Inline: the exhaustive sweep adds every
  // wrong result of a subject.)
  void add(double x, double expected, double got, double size, bool breaks) {
    if (count == 0) {
      first_x = worst_x = lo = hi = x;
      first_expected = worst_expected = expected;
      first_got = worst_got = got;
      worst_size = size;
    } else {
      // NaN sizes never replace; +inf does, once.
      if (size > worst_size) {
        worst_size = size;
        worst_x = x;
        worst_expected = expected;
        worst_got = got;
      }
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    ++count;
    breaks_claim |= breaks;
    if (sample.size() < kSampleSize) sample.push_back({x, expected, got});
  }
  // add() of n > 0 points that come after every point so far, once the sample is full: x in
  // [x_lo, x_hi], the first of them (in input order) with the largest size `size` (NaN: none
  // larger) being `worst`. The same fields as their add() one by one.
  void add_after_full(std::size_t n, double x_lo, double x_hi, double size, const Point& worst, bool breaks) {
    if (size > worst_size) {
      worst_size = size;
      worst_x = worst.x;
      worst_expected = worst.expected;
      worst_got = worst.got;
    }
    lo = std::min(lo, x_lo);
    hi = std::max(hi, x_hi);
    count += n;
    breaks_claim |= breaks;
  }
  // Merges `b`, another set of inputs disjoint from this one's; before(u, v): u comes first in
  // input order. The result does not depend on which side comes first (so a sweep's blocks can be
  // merged in any order): first and worst (ties: the earlier) and the sample by that order.
  void merge(const Observation& b, const std::function<bool(double, double)>& before);
};

// Where a defect ranks in report.md (lower first): crash, hang and writes; then NaN and limits;
// then wrong-sign zeros and flushes; then accuracy (by size); then the other facts.
int defect_rank(DefectKind k);

// One op's share of a defect.
struct DefectOp {
  std::string op;         // "tanh.forward.f32" (subject::op_name)
  std::size_t count = 0;  // its inputs (or, for a harness finding, the inputs without a result)
  double x = 0, expected = 0, got = 0;  // its first or worst input (the kind says which)
  double lo = 0, hi = 0;  // the range of x it spans
  double size = 0;        // the kind's measure (accuracy: the max ulp error)
  bool has_expected = true;  // false for harness findings (no result) and some properties
};

// One cause, however many inputs and ops show it (docs/report.md, "Defects"; report.json
// `subjects[i].defects`, a **contract**).
struct Defect {
  DefectKind kind = DefectKind::accuracy;
  std::string fact;              // the sub-case (observation fact; harness status; property)
  std::vector<DefectOp> ops;     // in all_ops() order
  std::size_t count = 0;         // inputs over all ops (properties: failed properties)
  // The input it is shown by (first or worst, per kind), its op, and expected and got there.
  DefectOp shown;
  std::optional<double> dy;      // a backward's dy at that input, when not 1
  bool is_range = false;         // lo..hi of `shown` is a range worth printing
  bool breaks_claim = false;     // it breaks the claim the subject is held to (or would be)
  std::string claim;             // that claim, in words ("" when it breaks none)
  bool gated = false;            // breaks a claim of a gated subject: the gate fails on it
  std::string summary;           // one line, without the subject's name
  std::string diagnosis;         // what the subject really computes, when the evidence shows it
  std::string confirmation;      // harness findings: replayed alone in a fresh child, and how
  std::string detail;            // the finding's or property's own message
  std::string reproduce;         // a command that shows it (gelucheck eval on that input)
  std::string reproduce_native;  // for a peer, the same call in its own terms ("" if none)
  std::vector<std::string> properties;  // failed properties (suite.name) this defect explains
};

struct Report;
// The distinct defects of subject `s` of a finished report, ranked (defect_rank, then claim
// breaks first, then size). Reads rows' observations, the harness's findings and the failed
// properties; a failed property whose counterexample is an input of another defect is listed
// with that defect, not on its own.
std::vector<Defect> find_defects(const Report& r, std::size_t s);

}  // namespace gelucheck::report
