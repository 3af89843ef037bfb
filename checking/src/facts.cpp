// The facts of facts.hpp over every result: each exact fact of docs/functions.md, turned into a
// check of results by the slack the row's claim allows, and the order-free merge of the
// exhaustive sweep's observations.
//
// The facts (exact functions; Φ the normal distribution function, both forms written
// f(x) = x·g(x) with g = Φ (erf) or g = (1 + tanh u)/2, u = √(2/π)(x + 0.044715x³) (tanh)):
//  - 0 < g < 1, g <= 1/2 for x <= 0 and g >= 1/2 for x >= 0 (Φ(0) = 1/2, Φ increasing; tanh u
//    has the sign of x since x + 0.044715x³ does). Hence
//      x <= 0 => f(x) <= 0,  x >= 0 => f(x) >= 0                     (sign: x·g, g > 0)
//      x >= 0 => f(x) <= x                                            (f - x = -x·(1 - g) <= 0)
//      f(x) >= x/2 for every x                                        (f - x/2 = x·(g - 1/2) >= 0:
//                                                                       both factors of one sign)
//    f(x) >= x/2 is the stronger of f >= x and f >= 0 on each side (x <= 0: x/2 >= x; x >= 0:
//    x/2 >= 0), so "x<=0 => f(x)>=x" is not checked apart from it.
//  - f >= min f (certified over all reals: gelucheck/certified.hpp, min_*_down below the real).
//  - min f' <= f' <= max f' (certified: deriv_min_*_down, deriv_max_*_up outside the reals).
//  - f is decreasing on (-inf, argmin] and increasing on [argmin, inf) (checked over runs of
//    consecutive values: Facts::point, facts.hpp): the argmin is the only
//    zero of f' (certified: deriv_zero_*; f' < 0 left of it, > 0 right). The argmin is
//    irrational and lies strictly between the adjacent doubles deriv_zero_*_down and _up, so an
//    input x <= _down is left of it and x >= _up right of it: every value of every format is on
//    one side. The derivative is not monotone (it has a maximum near 1.4 and a minimum near
//    -1.4), so it gets no monotone check.
//
// From exact facts to results. r is the row's result at x, y = f(x) the exact value, and r meets
// the row's claim (for `claim none`, Claim::framework_default: what every framework's tests
// demand). A fact is reported broken only when no y of which r meets the claim satisfies it, so
// every observation is a break of the claim (breaks = true). Three rules, by claim:
//  - nearest (an ulp claim of at most 0.5 ulp: r = RN(y), or at a tie either neighbour, a
//    monotone choice too): rounding is monotone, so y >= L gives r >= RN(L), y <= U gives
//    r <= RN(U), and y_a <= y_b gives r_a <= r_b. The rounded bound is that of a double whose
//    rounding is at most RN(L) (L itself, or a double below it: rounding is monotone; for x/2 its
//    one rounding x·0.5), at least RN(U) for an upper bound.
//  - step (any other claim below 1 ulp, gelucheck/slack.hpp's faithful_or_better: r is RD(y) or
//    RU(y)): y >= L gives r >= RD(y) >= RD(L) >= RD(L'), and r < RD(L') is, r being a value of
//    the format, next_up(r) <= L'. Likewise r > RU(U') is next_down(r) >= U'. For a pair on an
//    increasing side y_a <= y_b: r_a <= RU(y_a) <= RU(y_b) <= next_up(RD(y_b)) <= next_up(r_b),
//    a wrong-way step of at most one value of the format.
//  - slack (every other claim that bounds y by r: ulp claims of 1 ulp or more, allclose, the
//    framework default): |r - y| <= slack(r) (gelucheck/slack.hpp, derived there), so y >= L
//    gives r >= L - slack(r), and for a pair y_a <= y_b: r_a - r_b <= slack(r_a) + slack(r_b)
//    (the sum of the two tolerances). The differences are rounded down (RN, then one double
//    toward zero) against slacks rounded up, so a reported break is a break.
// (The ulp of gelucheck/measure.hpp is that of y's binade, so at a y that is itself a power of two
// 0.5 ulp, or less than 1, would also admit the value just below y; the nearest and step rules
// assume, as the reference's termination does (docs/reference.md, "Termination"), that no exact
// value at a nonzero finite input is a value of the format.)
// A claim too loose to bound y (slack infinite) checks nothing. Non-finite inputs and results
// are skipped: NaN, infinite results and the limits at ±inf are the nan/overflow/limit defects'.
//
// Size of a bound observation: |r - bound| relative to |bound| (to max(|x|, |r|) for the sign
// facts, whose bound is 0). Of a monotone one: the wrong-way step relative to the larger |r| of
// the pair; its point is the input farther from the argmin, whose result falls short of its
// neighbour's (nearer the argmin) result, given as `expected`.
#include "facts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gelucheck/certified.hpp"
#include "gelucheck/slack.hpp"

namespace gelucheck::report {
namespace {

namespace cert = gelucheck::certified;

// a - b for a > b, rounded down (RN, then one double toward 0): at most the exact difference.
double sub_down(double a, double b) { return std::nextafter(a - b, 0.0); }

}  // namespace

Facts::Facts(const Row& row) : fmt_(row.format), form_(row.form), quantity_(row.quantity) {
  if (row.against != row.form) return;
  claim_ = row.claim && row.claim->claims_anything() ? *row.claim : Claim::framework_default(fmt_);
  if (claim_.kind == Claim::Kind::ulp && claim_.max_ulp <= 0.5) rule_ = Rule::nearest;
  else if (faithful_or_better(claim_)) rule_ = Rule::step;
  else if (bounds_exact_value(claim_, fmt_)) rule_ = Rule::slack;
  else return;
  active_ = true;
  const bool t = form_ == Form::tanh;
  argmin_down_ = t ? cert::deriv_zero_tanh_down : cert::deriv_zero_erf_down;
  argmin_up_ = t ? cert::deriv_zero_tanh_up : cert::deriv_zero_erf_up;
}

// r breaks y >= L, L' = lower_down <= L, and lower_src a double with RN(lower_src) <= RN(L) (RN
// to the format). r >= lower_src gives r >= RU(lower_src) >= RN(lower_src), so the rounding is
// needed only below it.
bool Facts::breaks_lower(double r, double lower_down, double lower_src) const {
  switch (rule_) {
    case Rule::nearest: return r < lower_src && r < round_to_format(lower_src, fmt_);
    case Rule::step: return r < lower_down && next_in(fmt_, r, kInf) <= lower_down;
    case Rule::slack: return r < lower_down && sub_down(lower_down, r) > slack(claim_, fmt_, r);
  }
  return false;
}

// r breaks y <= U, U' = upper_up >= U, and upper_src a double with RN(upper_src) >= RN(U).
bool Facts::breaks_upper(double r, double upper_up, double upper_src) const {
  switch (rule_) {
    case Rule::nearest: return r > upper_src && r > round_to_format(upper_src, fmt_);
    case Rule::step: return r > upper_up && next_in(fmt_, r, -kInf) >= upper_up;
    case Rule::slack: return r > upper_up && sub_down(r, upper_up) > slack(claim_, fmt_, r);
  }
  return false;
}

// The row's observation of a fact (one of the kFact texts), found once per row and fact: a
// subject that breaks a bound breaks it at many inputs.
Observation& Facts::observation(Row& row, DefectKind k, std::string_view fact) const {
  for (const Found& f : found_)
    if (f.row == &row && f.fact == fact.data()) return row.observations[f.index];
  Observation& o = row.observation(k, fact);
  found_.push_back({&row, fact.data(), static_cast<std::size_t>(&o - row.observations.data())});
  return o;
}

// How far r is beyond the bound b, relative to it (to the larger of |x| and |r| for b = 0).
double Facts::bound_size(double x, double r, double b) {
  const double scale = b != 0 ? std::fabs(b) : std::max(std::fabs(x), std::fabs(r));
  return std::fabs(r - b) / scale;
}

void Facts::bound(Row& row, std::string_view fact, double x, double r, double b) const {
  observation(row, DefectKind::bound, fact).add(x, b, r, bound_size(x, r, b), true);
}

// Every bound at one finite x and result r.
void Facts::bounds(Row& row, double x, double r) const {
  const bool t = form_ == Form::tanh;
  if (quantity_ == Quantity::value) {
    // 0 and x are values of the format: L' = L and RN(L) = L.
    if (x <= 0 && breaks_upper(r, 0, 0)) bound(row, kFactSignNeg, x, r, 0);
    if (x >= 0 && breaks_lower(r, 0, 0)) bound(row, kFactSignPos, x, r, 0);
    if (x >= 0 && breaks_upper(r, x, x)) bound(row, kFactBelowX, x, r, x);
    // x/2: exact in binary64 arithmetic for a value of binary32 or a 16-bit format; for
    // binary64 x·0.5 is RN(x/2) (one rounding, inexact only for odd multiples of 2^-1074),
    // taken one double down when inexact for L'. RN(x·0.5) = RN(x/2) in every format (a
    // single rounding).
    const double h = x * 0.5;
    const double h_down = h * 2 == x ? h : std::nextafter(h, -kInf);
    if (breaks_lower(r, h_down, h)) bound(row, kFactAboveHalfX, x, r, h);
    // The certified minimum's double below it: L' = m, and RN(m) <= RN(min) (rounding is
    // monotone).
    const double m = t ? cert::min_tanh_down : cert::min_erf_down;
    if (breaks_lower(r, m, m)) bound(row, kFactMinimum, x, r, m);
  } else {
    // The doubles just outside the certified range (the same monotone-rounding argument).
    const double lo = t ? cert::deriv_min_tanh_down : cert::deriv_min_erf_down;
    const double hi = t ? cert::deriv_max_tanh_up : cert::deriv_max_erf_up;
    if (breaks_lower(r, lo, lo)) bound(row, kFactDerivRange, x, r, lo);
    else if (breaks_upper(r, hi, hi)) bound(row, kFactDerivRange, x, r, hi);
  }
}

// bounds() where fact_breaks (fold.hpp) has found which break (bits in bounds()' order), for
// the results of a chunk in input order (bounds_of, then bounds_end). Each observation is found
// once per chunk (at[k]: its index in row.observations for bit k, valid while the row's vector
// only grows); once its sample is full, add()'s steps go to a run in registers (count, range,
// first largest size) that bounds_end adds at once (Observation::add_after_full).
void Facts::bounds_of(Row& row, double x, double r, unsigned bits, BoundRuns& runs) const {
  const bool t = form_ == Form::tanh, value = quantity_ == Quantity::value;
  for (unsigned k = 0; bits != 0; ++k, bits >>= 1) {
    if ((bits & 1) == 0) continue;
    double b = 0;
    if (value) {
      b = k == 2 ? x : k == 3 ? x * 0.5 : k == 4 ? (t ? cert::min_tanh_down : cert::min_erf_down) : 0;
    } else {
      b = k == 0 ? (t ? cert::deriv_min_tanh_down : cert::deriv_min_erf_down)
                 : (t ? cert::deriv_max_tanh_up : cert::deriv_max_erf_up);
    }
    // One run per observation: the derivative's two bits share one.
    BoundRuns::Run& run = runs.run[value ? k : 0];
    const double size = bound_size(x, r, b);
    if (run.full) {
      if (run.n == 0) run.lo = run.hi = x, run.size = -kInf;
      run.lo = std::min(run.lo, x);
      run.hi = std::max(run.hi, x);
      if (size > run.size) run.size = size, run.worst = {x, b, r};  // NaN never, the first largest
      ++run.n;
      continue;
    }
    if (run.at == BoundRuns::kUnseen) {
      static constexpr std::string_view kFacts[] = {kFactSignNeg, kFactSignPos, kFactBelowX, kFactAboveHalfX,
                                                    kFactMinimum};
      const Observation& o = observation(row, DefectKind::bound, value ? kFacts[k] : kFactDerivRange);
      run.at = static_cast<std::size_t>(&o - row.observations.data());
    }
    Observation& o = row.observations[run.at];
    o.add(x, b, r, size, true);
    run.full = o.sample.size() >= Observation::kSampleSize;
  }
}

// bound_run for each bound observation already found whose sample is full (the facts of the
// value one by one, the derivative's two bits together); returns the bits it took.
unsigned Facts::full_runs(Row& row, const SweepChunk& c, const unsigned char* breaks) const {
  const bool t = form_ == Form::tanh, value = quantity_ == Quantity::value;
  static constexpr std::string_view kFacts[] = {kFactSignNeg, kFactSignPos, kFactBelowX, kFactAboveHalfX,
                                                kFactMinimum};
  unsigned taken = 0;
  for (unsigned k = 0; k < (value ? 5u : 1u); ++k) {
    const std::string_view fact = value ? kFacts[k] : kFactDerivRange;
    const Found* found = nullptr;
    for (const Found& f : found_)
      if (f.row == &row && f.fact == fact.data()) found = &f;
    if (found == nullptr || row.observations[found->index].sample.size() < Observation::kSampleSize) continue;
    BoundRunSpec spec;
    if (value) {
      spec.bits = 1u << k;
      // b = x and x/2 (exact; adding -0 keeps x's zero), else the constant (0 as +0).
      spec.coef = k == 2 ? 1.0 : k == 3 ? 0.5 : 0.0;
      spec.add = k == 2 || k == 3 ? -0.0 : k == 4 ? (t ? cert::min_tanh_down : cert::min_erf_down) : 0.0;
    } else {
      spec.bits = 3;
      spec.range = true;
      spec.lo = t ? cert::deriv_min_tanh_down : cert::deriv_min_erf_down;
      spec.hi = t ? cert::deriv_max_tanh_up : cert::deriv_max_erf_up;
    }
    const BoundRunOut run = bound_run(c, breaks, spec);
    taken |= spec.bits;
    if (run.n == 0) continue;
    const double x = c.x[run.at], r = c.got[run.at];
    const double b = value ? x * spec.coef + spec.add : ((breaks[run.at] & 1) != 0 ? spec.lo : spec.hi);
    row.observations[found->index].add_after_full(run.n, run.lo, run.hi, run.size, {x, b, r}, true);
  }
  return taken;
}

void Facts::bounds_end(Row& row, BoundRuns& runs) const {
  for (BoundRuns::Run& run : runs.run)
    if (run.n > 0) {
      row.observations[run.at].add_after_full(run.n, run.lo, run.hi, run.size, run.worst, true);
      run.n = 0;
    }
}

// Whether r lies beyond one of the bounds() checks, before any rounding or slack: a necessary
// condition of every break there (each breaks_lower needs r < lower_src or r < lower_down, both
// at most the bound; each breaks_upper r above it; x·0.5 is the bound x/2 for a value of binary32
// and below it by less than its own rounding otherwise).
[[gnu::always_inline]] inline bool Facts::beyond(double x, double r) const {
  const bool t = form_ == Form::tanh;
  if (quantity_ == Quantity::value)
    return (x <= 0 && r > 0) || (x >= 0 && (r < 0 || r > x)) || r < x * 0.5 ||
           r < (t ? cert::min_tanh_down : cert::min_erf_down);
  return r < (t ? cert::deriv_min_tanh_down : cert::deriv_min_erf_down) ||
         r > (t ? cert::deriv_max_tanh_up : cert::deriv_max_erf_up);
}

void Facts::point(Row& row, double x, double r, double want) {
  if (!active_) return;
  if (!std::isfinite(x) || !std::isfinite(r)) {
    prev_.reset();
    record_.reset();
    return;
  }
  // Why a correctly rounded r = RN(y) meets each bound: for y <= U <= U', r <= RN(U'), and an r
  // above U' is then RN(U') itself, whose step down is below U' (breaks_upper needs it at or above
  // U'; nearest: RN(U') <= RN(upper_src)); symmetrically below. The slack rule compares with the
  // claim's tolerance, which may be tighter than a rounding: evaluated as before.
  const bool rounded_right = rule_ != Rule::slack && same_bits(r, want);
  if (!rounded_right) bounds(row, x, r);
  const FactPoint p{x, r};
  if (!first_) first_ = p;
  last_ = p;
  if (quantity_ != Quantity::value) return;
  const bool left = x <= argmin_down_;
  int dir = 0;  // +1: x is the value after the previous input in the format, -1: the one before
  if (prev_ && x > prev_->x && x == next_in(fmt_, prev_->x, kInf)) dir = 1;
  else if (prev_ && x < prev_->x && x == next_in(fmt_, prev_->x, -kInf)) dir = -1;
  if (dir == 0 || left != (prev_->x <= argmin_down_)) {
    record_.reset();  // not adjacent, or across the argmin: a new run starts here
  } else {
    if (!record_ || dir != direction_) record_ = prev_;  // the run (re)starts at the previous input
    direction_ = dir;
    pair(row, *record_, p);
    // Away from the argmin the exact values grow (f decreasing left of it, increasing right),
    // so the record is the largest result so far; toward it, the smallest.
    const bool away = left ? dir < 0 : dir > 0;
    if (away ? r > record_->r : r < record_->r) record_ = p;
  }
  prev_ = p;
}

void Facts::points(Row& row, const SweepChunk& c) {
  if (!active_ || c.n == 0) return;
  if (clean(c, true)) return;
  const bool value = quantity_ == Quantity::value;
  const bool exact_rule = rule_ != Rule::slack;
  // Under the nearest and step rules in binary32 (the sweep's format), which bounds each result
  // breaks comes from one vector pass. When no pair of the chunk steps the wrong way (clean but
  // for the bounds), the pairs add no observation, so the bounds' observations, taken in input
  // order, come in the order point() would create them: no loop over the results but theirs.
  const bool vector_bounds = exact_rule && fmt_ == Format::binary32;
  BoundRuns runs;
  if (vector_bounds) {
    breaks_.resize(c.n);
    const bool any = fact_breaks(c, fact_bounds(true), breaks_.data());
    if (clean(c, false)) {
      if (any) {
        // An observation found before this chunk whose sample is full takes its points in one
        // vector pass (bound_run); the others in input order (creating them as point() would).
        const unsigned vector_bits = full_runs(row, c, breaks_.data());
        for (std::size_t i = 0; i < c.n; ++i)
          if ((breaks_[i] & ~vector_bits) != 0) bounds_of(row, c.x[i], c.got[i], breaks_[i] & ~vector_bits, runs);
        bounds_end(row, runs);
      }
      return;
    }
  }
  // point()'s state in locals (written back at the end): the previous input, the record, the
  // ends, the direction.
  bool has_prev = prev_.has_value(), has_record = record_.has_value(), has_first = first_.has_value();
  FactPoint prev = has_prev ? *prev_ : FactPoint{0, 0}, record = has_record ? *record_ : FactPoint{0, 0};
  int direction = direction_;
  // The previous input's bit pattern: consecutive binary32 values of one sign are consecutive
  // patterns (increasing x for positive patterns, decreasing for negative ones), and two inputs of
  // a block with patterns further apart are never adjacent values (-0 and +0 are 2^31 apart).
  std::uint32_t prev_bits = has_prev ? static_cast<std::uint32_t>(*to_bits(prev.x, fmt_)) : 0;
  for (std::size_t i = 0; i < c.n; ++i) {
    if (c.failed != nullptr && c.failed[i] != 0) continue;
    const double x = c.x[i], r = c.got[i];
    if (!(std::fabs(x) < kInf) || !(std::fabs(r) < kInf)) {
      has_prev = has_record = false;
      continue;
    }
    if (vector_bounds) {
      if (breaks_[i] != 0) bounds_of(row, x, r, breaks_[i], runs);
    } else if (beyond(x, r) && !(exact_rule && same_bits(r, c.y.rn[i]))) {
      bounds(row, x, r);
    }
    const FactPoint p{x, r};
    if (!has_first) {
      first_ = p;
      has_first = true;
    }
    last_ = p;
    if (!value) continue;
    const bool left = x <= argmin_down_;
    if (!has_prev || c.bits[i] != prev_bits + 1 || left != (prev.x <= argmin_down_)) {
      has_record = false;
    } else {
      const int dir = x > prev.x ? 1 : -1;
      if (!has_record || dir != direction) {
        record = prev;
        has_record = true;
      }
      direction = dir;
      // pair(record, p) reports only when the input nearer the argmin has the larger result:
      // nearer is the record when the run moves away from the argmin, p when toward it.
      const bool away = left ? dir < 0 : dir > 0;
      if (away ? record.r > r : r > record.r) pair(row, record, p);
      if (away ? r > record.r : r < record.r) record = p;
    }
    prev = p;
    has_prev = true;
    prev_bits = c.bits[i];
  }
  bounds_end(row, runs);
  prev_ = has_prev ? std::optional<FactPoint>(prev) : std::nullopt;
  record_ = has_record ? std::optional<FactPoint>(record) : std::nullopt;
  direction_ = direction;
}

// The facts' bounds, for the vector passes (fold.hpp).
FactBounds Facts::fact_bounds(bool with_bounds) const {
  const bool t = form_ == Form::tanh;
  FactBounds b;
  b.value = quantity_ == Quantity::value;
  b.with_bounds = with_bounds;
  b.nearest = rule_ == Rule::nearest;
  b.minimum = t ? cert::min_tanh_down : cert::min_erf_down;
  b.deriv_lo = t ? cert::deriv_min_tanh_down : cert::deriv_min_erf_down;
  b.deriv_hi = t ? cert::deriv_max_tanh_up : cert::deriv_max_erf_up;
  return b;
}

// A chunk that breaks nothing, in one pass without a branch per result: every input has a finite
// result, none lies beyond a bound, and (the value) the inputs are consecutive values on one side
// of the argmin whose results step the right way (not down moving away from the argmin, not up
// moving toward it) from the previous input's on, with the run's record at the previous result.
// Then point() on each would report nothing, and the state it would leave is set here: the ends,
// the previous input, the direction, and the record — the last result that differs from the one
// before it (point() moves the record to a result beyond it, and in such a run every change is one),
// else where the record was. False (nothing changed) for any other chunk. With with_bounds false,
// the same but for the bounds, which are not looked at (points() takes them apart).
bool Facts::clean(const SweepChunk& c, bool with_bounds) {
  const bool value = quantity_ == Quantity::value;
  const std::size_t n = c.n;
  const double* x = c.x;
  const double* r = c.got;
  const bool left = x[0] <= argmin_down_;
  // The direction of the run: positive patterns go up in x, negative ones down.
  const int dir = (c.bits[0] >> 31) != 0 ? -1 : 1;
  const bool away = left ? dir < 0 : dir > 0;
  // Consecutive patterns (bits increase: the last is the first + n - 1), none of them ±inf (whose
  // patterns end their sign's finite values), one side of the argmin (x is monotone between the
  // ends), no input failed; then scan_clean for the results.
  if (c.bits[n - 1] - c.bits[0] != n - 1) return false;
  for (std::uint32_t inf_bits : {0x7f800000u, 0xff800000u})
    if (c.bits[0] <= inf_bits && inf_bits <= c.bits[n - 1]) return false;
  if ((x[n - 1] <= argmin_down_) != left) return false;
  if (c.failed != nullptr)
    for (std::size_t i = 0; i < n; ++i)
      if (c.failed[i] != 0) return false;
  const CleanScan scan = scan_clean(c, fact_bounds(with_bounds), away);
  const bool bad = scan.bad;
  const std::size_t last_change = scan.last_change;
  if (bad) return false;
  const FactPoint p0{x[0], r[0]}, pn{x[n - 1], r[n - 1]};
  if (!value) {
    if (!first_) first_ = p0;
    last_ = pn;
    return true;
  }
  const bool continuing = prev_ && static_cast<std::uint32_t>(*to_bits(prev_->x, fmt_)) + 1 == c.bits[0] &&
                          (prev_->x <= argmin_down_) == left;
  std::optional<FactPoint> record = record_;
  if (continuing) {
    if (away ? r[0] < prev_->r : r[0] > prev_->r) return false;
    if (!record || dir != direction_) record = prev_;
    if (record->r != prev_->r) return false;  // the record is elsewhere: the scalar path decides
    if (r[0] != prev_->r) record = p0;
  } else {
    record.reset();
    if (n > 1) record = p0;
  }
  if (last_change > 0) record = FactPoint{x[last_change], r[last_change]};
  if (!first_) first_ = p0;
  last_ = pn;
  prev_ = pn;
  record_ = record;
  if (continuing || n > 1) direction_ = dir;
  return true;
}

void Facts::pair(Row& row, FactPoint a, FactPoint b) const {
  if (!active_ || quantity_ != Quantity::value || a.x == b.x) return;
  if (b.x < a.x) std::swap(a, b);
  const bool left = b.x <= argmin_down_, right = a.x >= argmin_up_;
  if (!left && !right) return;
  // The exact values satisfy y(near) <= y(far), near the input nearer the argmin.
  const FactPoint& near = right ? a : b;
  const FactPoint& far = right ? b : a;
  bool broken = false;
  switch (rule_) {
    case Rule::nearest: broken = near.r > far.r; break;
    case Rule::step: broken = near.r > far.r && near.r > next_in(fmt_, far.r, kInf); break;
    case Rule::slack:
      broken = near.r > far.r && sub_down(near.r, far.r) >
                                     add_up(slack(claim_, fmt_, near.r), slack(claim_, fmt_, far.r));
      break;
  }
  if (!broken) return;
  const double size = (near.r - far.r) / std::max(std::fabs(near.r), std::fabs(far.r));
  observation(row, DefectKind::monotone, right ? kFactIncreasing : kFactDecreasing)
      .add(far.x, near.r, far.r, size, true);
}

// ---------------------------------------------------------------------------------------------
// The exhaustive sweep.

namespace {

// Sweep order: the binary32 bit pattern (every x of the sweep is a value of binary32).
std::uint64_t sweep_pos(double x) { return to_bits(x, Format::binary32).value_or(0); }

using json = nlohmann::ordered_json;
json hx(double v) { return hexfloat(v); }
double rd(const json& j) {
  const std::optional<double> v = parse_real(j.get<std::string>());
  if (!v) throw std::invalid_argument("not a number: " + j.dump());
  return *v;
}
json point_json(const std::optional<FactPoint>& p) {
  return p ? json::array({hx(p->x), hx(p->r)}) : json(nullptr);
}
std::optional<FactPoint> point_from(const json& j) {
  if (j.is_null()) return std::nullopt;
  return FactPoint{rd(j.at(0)), rd(j.at(1))};
}

}  // namespace

// a and b cover disjoint inputs of one sweep; the result is what one pass in sweep order gives.
void merge_sweep_observations(Row& a, const Row& b) {
  const auto before = [](double u, double v) { return sweep_pos(u) < sweep_pos(v); };
  for (const Observation& o : b.observations) a.observation(o.kind, o.fact).merge(o, before);
}

void add_fact_ends(std::vector<FactEnds>& ends, FactEnds e, Row& row) {
  auto at = std::lower_bound(ends.begin(), ends.end(), e.lo,
                             [](const FactEnds& x, std::uint64_t lo) { return x.lo < lo; });
  at = ends.insert(at, std::move(e));
  // Join with the range after it, then with the one before: the pair across each join once.
  auto join = [&](FactEnds& x, const FactEnds& y) {  // x.hi == y.lo
    if (x.last && y.first) {
      // Into a row of its own, then merged in sweep order: joins happen in any order. A Facts
      // of its own too: a Facts knows the rows it has added to by their address (observation()),
      // and the next join's pair_row may sit where this one did.
      Row pair_row;
      Facts(row).pair(pair_row, *x.last, *y.first);
      merge_sweep_observations(row, pair_row);
    }
    x.hi = y.hi;
    if (!x.first) x.first = y.first;
    if (y.last) x.last = y.last;
  };
  if (at + 1 != ends.end() && at->hi == (at + 1)->lo) {
    join(*at, *(at + 1));
    ends.erase(at + 1);
  }
  if (at != ends.begin() && (at - 1)->hi == at->lo) {
    join(*(at - 1), *at);
    ends.erase(at);
  }
}

json observation_state(const Row& row, const std::vector<FactEnds>& ends) {
  json obs = json::array();
  for (const Observation& o : row.observations) {
    json sample = json::array();
    for (const Observation::Point& p : o.sample) sample.push_back({hx(p.x), hx(p.expected), hx(p.got)});
    obs.push_back({{"kind", std::string(defect_kind_name(o.kind))}, {"fact", o.fact},
                   {"count", o.count},
                   {"first", {hx(o.first_x), hx(o.first_expected), hx(o.first_got)}},
                   {"worst", {hx(o.worst_x), hx(o.worst_expected), hx(o.worst_got), hx(o.worst_size)}},
                   {"range", {hx(o.lo), hx(o.hi)}}, {"sample", sample},
                   {"breaks_claim", o.breaks_claim}});
  }
  json e = json::array();
  for (const FactEnds& x : ends) e.push_back({x.lo, x.hi, point_json(x.first), point_json(x.last)});
  return {{"observations", obs}, {"ends", e}};
}

void observation_state_from(const json& j, Row& row, std::vector<FactEnds>& ends) {
  row.observations.clear();
  for (const json& o : j.at("observations")) {
    const std::optional<DefectKind> k = parse_defect_kind(o.at("kind").get<std::string>());
    if (!k) throw std::invalid_argument("unknown observation kind " + o.at("kind").dump());
    Observation& ob = row.observation(*k, o.at("fact").get<std::string>());
    ob.count = o.at("count").get<std::size_t>();
    const json& f = o.at("first");
    ob.first_x = rd(f.at(0));
    ob.first_expected = rd(f.at(1));
    ob.first_got = rd(f.at(2));
    const json& w = o.at("worst");
    ob.worst_x = rd(w.at(0));
    ob.worst_expected = rd(w.at(1));
    ob.worst_got = rd(w.at(2));
    ob.worst_size = rd(w.at(3));
    ob.lo = rd(o.at("range").at(0));
    ob.hi = rd(o.at("range").at(1));
    for (const json& p : o.at("sample")) ob.sample.push_back({rd(p.at(0)), rd(p.at(1)), rd(p.at(2))});
    ob.breaks_claim = o.at("breaks_claim").get<bool>();
  }
  ends.clear();
  for (const json& x : j.at("ends"))
    ends.push_back({x.at(0).get<std::uint64_t>(), x.at(1).get<std::uint64_t>(), point_from(x.at(2)),
                    point_from(x.at(3))});
}

}  // namespace gelucheck::report
